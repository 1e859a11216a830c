import Foundation
import ManagedStore
import SeedImport
import Testing

/// Killing an import at any moment leaves the previous store, never a half-written one.
@Suite("Import: killed imports", .enabled(if: ImportFixtures.hasCLI, ImportFixtures.cliSkipReason))
struct ImportCrashSafetyTests {
    @Test("kill -9 mid-import: the old store is intact, and the next run clears the temporary file")
    func killed() throws {
        let scratch = ImportScratch()
        let small = try DataSetGenerator.generate(.wells, rows: 300, into: scratch.url.appendingPathComponent("small"))
        let big = try DataSetGenerator.generate(.wells, rows: 40_000, into: scratch.url.appendingPathComponent("big"))
        let store = scratch.path("Wells.sqlite")
        let first = try ImportCLI.run(["import", "--mapping", small.mappingFile.url.path, "--out", store, "--progress", "none"])
        #expect(first.status == 0, "\(first.errors)")

        let process = Process()
        process.executableURL = ImportFixtures.cli!
        process.arguments = ["import", "--mapping", big.mappingFile.url.path, "--out", store, "--progress", "none"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let temporary = ".Wells.sqlite.importing-\(process.processIdentifier)"
        // Wait until the import is writing its temporary store, then a little more, then kill it.
        let deadline = Date().addingTimeInterval(30)
        func size() -> Int { ((try? FileManager.default.attributesOfItem(atPath: scratch.path(temporary)))?[.size] as? Int) ?? 0 }
        while process.isRunning && size() < 200_000 && Date() < deadline { usleep(20_000) }
        usleep(400_000)
        #expect(process.isRunning, "the import was still running when killed")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)

        let opened = try StoreReader.open(store)
        #expect(try opened.count(of: opened.model.entity(named: "Well")!) == 300, "the previous store, as it was")
        #expect(try opened.connection.scalar("PRAGMA integrity_check") == .text("ok"))
        #expect(scratch.files.contains(temporary), "the dead import's temporary file is left")

        let next = try ImportCLI.run(["import", "--mapping", small.mappingFile.url.path, "--out", store, "--progress", "none"])
        #expect(next.status == 0, "\(next.errors)")
        #expect(next.output.contains("warning: removed \(temporary), left by an import that did not finish"))
        #expect(!scratch.files.contains { $0.contains(".importing-") })
        #expect(try StoreReader.open(store).count(of: opened.model.entity(named: "WellSummary")!) == 300)
    }
}
