import Foundation
import Testing

/// Outside CI, tests needing the real-world fixtures or the built binary skip with a message when those
/// are absent. In CI (`CI=true`) they must run: a missing prerequisite fails here instead of passing
/// the engine tests by skipping them.
@Suite("CI prerequisites", .enabled(if: ProcessInfo.processInfo.environment["CI"] == "true", "not in CI (CI is not \"true\")"))
struct CIPrerequisiteTests {
    @Test func everythingTheTestsNeedIsThere() {
        #expect(Fixtures.hasReal, "CI=true, yet ../shared/fixtures-real (the store Core Data wrote) is missing: the tests needing it would be skipped")
    }
}
