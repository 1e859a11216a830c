import Foundation
import Testing

/// Outside CI, tests needing the real-world fixtures or the built binary skip with a message when those
/// are absent. In CI (`CI=true`) they must run: a missing prerequisite fails here instead of passing
/// the import tests by skipping them.
@Suite("CI prerequisites", .enabled(if: ProcessInfo.processInfo.environment["CI"] == "true", "not in CI (CI is not \"true\")"))
struct CIPrerequisiteTests {
    @Test func everythingTheTestsNeedIsThere() {
        #expect(ImportFixtures.hasReal, "CI=true, yet ../shared/fixtures-real (the FDIC list, the injection wells, Northwind) is missing: the tests needing it would be skipped")
        #expect(ImportFixtures.hasCLI, "CI=true, yet the seedstore binary (.build/debug/seedstore) is missing: the tests needing it would be skipped")
    }
}
