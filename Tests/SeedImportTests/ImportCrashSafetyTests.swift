import Foundation
import ManagedStore
import SeedImport
import Testing

/// Killing an import at any moment leaves the previous store, never a half-written one.
@Suite("Import: killed imports", .enabled(if: ImportFixtures.hasCLI, ImportFixtures.cliSkipReason))
struct ImportCrashSafetyTests {
    /// Starts `seedstore import` with `arguments` (its `--out` in `scratch` named Wells.sqlite) and returns
    /// once it is writing its temporary store (200 kB of it), with that file's name.
    /// With `errors`, plain progress lines and what else goes to standard error are written there.
    static func startImport(_ arguments: [String], in scratch: ImportScratch, errors: String? = nil) throws -> (Process, temporary: String) {
        let process = Process()
        process.executableURL = ImportFixtures.cli!
        process.arguments = ["import", "--progress", errors == nil ? "none" : "plain"] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        if let errors {
            _ = FileManager.default.createFile(atPath: errors, contents: nil)
            process.standardError = FileHandle(forWritingAtPath: errors)
        }
        try process.run()
        let temporary = ".Wells.sqlite.importing-\(process.processIdentifier)"
        let deadline = Date().addingTimeInterval(30)
        func size() -> Int { ((try? FileManager.default.attributesOfItem(atPath: scratch.path(temporary)))?[.size] as? Int) ?? 0 }
        while process.isRunning && size() < 200_000 && Date() < deadline { usleep(20_000) }
        return (process, temporary)
    }

    /// A store of 300 wells (from `small`) and the data set of 40,000 (`big`) whose import is interrupted.
    static func storeAndBigInput() throws -> (ImportScratch, small: GeneratedDataSet, big: GeneratedDataSet, store: String) {
        let scratch = ImportScratch()
        let small = try DataSetGenerator.generate(.wells, rows: 300, into: scratch.url.appendingPathComponent("small"))
        let big = try DataSetGenerator.generate(.wells, rows: 40_000, into: scratch.url.appendingPathComponent("big"))
        let store = scratch.path("Wells.sqlite")
        let first = try ImportCLI.run(["import", "--mapping", small.mappingFile.url.path, "--out", store, "--progress", "none"])
        #expect(first.status == 0, "\(first.errors)")
        return (scratch, small, big, store)
    }

    @Test("kill -9 mid-import: the old store is intact, and the next run clears the temporary file")
    func killed() throws {
        let (scratch, small, big, store) = try Self.storeAndBigInput()

        let (process, temporary) = try Self.startImport(["--mapping", big.mappingFile.url.path, "--out", store], in: scratch)
        // A little more writing, then kill it.
        usleep(400_000)
        #expect(process.isRunning, "the import was still running when killed")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)

        do {
            // Closed before the next import: a store this process holds open is not replaced.
            let opened = try StoreReader.open(store)
            #expect(try opened.count(of: opened.model.entity(named: "Well")!) == 300, "the previous store, as it was")
            #expect(try opened.connection.scalar("PRAGMA integrity_check") == .text("ok"))
        }
        #expect(scratch.files.contains(temporary), "the dead import's temporary file is left")

        let next = try ImportCLI.run(["import", "--mapping", small.mappingFile.url.path, "--out", store, "--progress", "none"])
        #expect(next.status == 0, "\(next.errors)")
        #expect(next.output.contains("warning: removed \(temporary), left by an import that did not finish"))
        #expect(!scratch.files.contains { $0.contains(".importing-") })
        let reopened = try StoreReader.open(store)
        #expect(try reopened.count(of: reopened.model.entity(named: "WellSummary")!) == 300)
    }

    /// A user trial's Ctrl-C left a 60 MB `.w.sqlite.importing-<pid>` that nothing removed.
    @Test("SIGINT, SIGTERM or SIGHUP mid-import: the old store is intact and no temporary or rejects file is left",
          arguments: [SIGINT, SIGTERM, SIGHUP])
    func interrupted(signal: Int32) throws {
        let (scratch, _, big, store) = try Self.storeAndBigInput()
        let before = try Data(contentsOf: URL(fileURLWithPath: store))

        let (process, _) = try Self.startImport(["--mapping", big.mappingFile.url.path, "--out", store,
                                                  "--on-error", "skip", "--rejects", scratch.path("rejects.csv")],
                                                 in: scratch, errors: scratch.path("errors.txt"))
        #expect(process.isRunning, "the import was still running when signalled")
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == signal, "ended by the signal, as without a handler")
        #expect(!scratch.files.contains { $0.contains(".importing-") }, "\(scratch.files)")
        #expect(!scratch.files.contains("rejects.csv"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before, "the previous store, byte for byte")
        let errors = try String(contentsOfFile: scratch.path("errors.txt"), encoding: .utf8)
        #expect(errors.hasSuffix("import: interrupted; \(store) is unchanged (the temporary files were removed)\n"), "\(errors)")
    }

    @Test("a temporary store left by a dead import of another target in the same directory is removed too")
    func staleOfAnotherTarget() throws {
        let scratch = ImportScratch()
        let small = try DataSetGenerator.generate(.wells, rows: 50, into: scratch.url.appendingPathComponent("small"))
        // A process that has ended: its pid names nobody now.
        let gone = Process()
        gone.executableURL = URL(fileURLWithPath: "/bin/true")
        try gone.run()
        gone.waitUntilExit()
        let stale = ".Other.sqlite.importing-\(gone.processIdentifier)"
        try scratch.write(stale, "half a store")
        try scratch.write(stale + "-journal", "its journal")
        try FileManager.default.createDirectory(atPath: scratch.path(".Dir.importing-\(gone.processIdentifier)"), withIntermediateDirectories: true)
        let result = try ImportCLI.run(["import", "--mapping", small.mappingFile.url.path, "--out", scratch.path("Wells.sqlite"), "--progress", "none"])
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.contains("warning: removed \(stale), left by an import that did not finish"), "\(result.output)")
        #expect(!scratch.files.contains(stale) && !scratch.files.contains(stale + "-journal"))
        #expect(scratch.files.contains(".Dir.importing-\(gone.processIdentifier)"), "only regular files are removed")
    }

    /// Starts `/bin/sleep 60` without Foundation's `Process`, which reaps the children it starts: once
    /// killed, this one stays a zombie until ``reap(_:)``, as a killed import does while its parent has not
    /// waited for it.
    static func spawnUnreaped() throws -> pid_t {
        var pid: pid_t = 0
        let arguments: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/sleep"), strdup("60"), nil]
        defer { arguments.forEach { free($0) } }
        let environment: [UnsafeMutablePointer<CChar>?] = [nil]
        try #require(posix_spawn(&pid, "/bin/sleep", nil, nil, arguments, environment) == 0)
        return pid
    }

    /// Kills and waits for a process ``spawnUnreaped()`` started.
    static func reap(_ pid: pid_t) {
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }

    /// The state letter of `/proc/<pid>/stat` (`Z` for a zombie, `T` stopped), waiting up to 5 s for `expected`.
    static func state(of pid: pid_t, expecting expected: String) -> String {
        var state = ""
        for _ in 0..<250 {
            let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
            state = stat.lastIndex(of: ")").map { String(stat[stat.index($0, offsetBy: 2)...].prefix(1)) } ?? ""
            if state == expected { break }
            usleep(20_000)
        }
        return state
    }

    /// A user saw the temporary store of an import killed 1.5 s earlier kept by the next import, and removed
    /// by one started 2 s later: the killed process still existed (not yet reaped, or still leaving an
    /// uninterruptible call), so `kill(pid, 0)` called it running. There is no grace period.
    @Test("a temporary store of a killed import whose process is not yet reaped is removed at once; a stopped one's stays")
    func staleOfKilledButNotReaped() throws {
        let scratch = ImportScratch()
        let small = try DataSetGenerator.generate(.wells, rows: 50, into: scratch.url.appendingPathComponent("small"))
        let killed = try Self.spawnUnreaped()
        let stopped = try Self.spawnUnreaped()
        defer { Self.reap(killed); Self.reap(stopped) }
        kill(killed, SIGKILL)
        kill(stopped, SIGSTOP)
        try #require(Self.state(of: killed, expecting: "Z") == "Z", "killed, not reaped: a zombie")
        try #require(Self.state(of: stopped, expecting: "T") == "T")
        #expect(kill(killed, 0) == 0, "a zombie still answers kill(pid, 0)")
        let stale = ".W.sqlite.importing-\(killed)", paused = ".W.sqlite.importing-\(stopped)"
        try scratch.write(stale, "half a store")
        try scratch.write(paused, "a store being written")
        let result = try ImportCLI.run(["import", "--mapping", small.mappingFile.url.path, "--out", scratch.path("Wells.sqlite"), "--progress", "none"])
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.contains("warning: removed \(stale), left by an import that did not finish"), "\(result.output)")
        #expect(!scratch.files.contains(stale))
        #expect(scratch.files.contains(paused), "a stopped import (Ctrl-Z) may go on: its file stays")
    }
}
