import Foundation
import ManagedStore
@testable import SeedImport
import Testing

/// What an import does to the files around the store, found by a user trial of adverse conditions: an
/// `--out` naming a device (as root, /dev/null became a 12 MB file) or a named pipe (a hang); a rejects
/// file on a full disk replaced by a truncated one, with exit 0; the previous store's WAL removed before
/// the rename; a private store made world-readable; `nohup` not keeping an import alive.
@Suite("Import: the store's place, its side files and its rejects under adverse conditions",
       .enabled(if: ImportFixtures.hasCLI, ImportFixtures.cliSkipReason))
struct ImportStoreSafetyTests {
    static let model = #"{"entities":[{"name":"Emp","attributes":[{"name":"code","type":"String","optional":false},{"name":"age","type":"Integer 32"}]}]}"#

    /// A scratch directory with the model and an input whose second row is bad.
    static func scratch() throws -> ImportScratch {
        let scratch = ImportScratch()
        try scratch.write("m.model.json", model)
        try scratch.write("emp.csv", "code,age\nA,1\nB,x\nC,3\n")
        return scratch
    }

    /// Runs `seedstore import` in `scratch`, ended after 60 s should it hang (as it did on a named pipe).
    static func importing(_ extra: [String], in scratch: ImportScratch) throws -> CLIResult {
        let process = Process()
        process.executableURL = ImportFixtures.cli!
        process.arguments = ["import", "--model", "m.model.json", "--progress", "none"] + extra + ["Emp=emp.csv"]
        process.currentDirectoryURL = scratch.url
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let watchdog = DispatchWorkItem { [process] in if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 60, execute: watchdog)
        let out = output.fileHandleForReading.readDataToEndOfFile(), err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        watchdog.cancel()
        return CLIResult(status: process.terminationStatus, output: String(decoding: out, as: UTF8.self), errors: String(decoding: err, as: UTF8.self))
    }

    static func kind(_ path: String) -> mode_t {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : 0
    }

    @Test("--out naming a named pipe, or (as root) a device, is refused at once and left as it is")
    func specialFilesAsOut() throws {
        let scratch = try Self.scratch()
        try #require(mkfifo(scratch.path("pipe"), 0o644) == 0)
        let pipe = try Self.importing(["--out", "pipe"], in: scratch)
        #expect(pipe.status == 1)
        #expect(pipe.errors.contains("pipe: --out names a pipe, not a store file"), "\(pipe.errors)")
        #expect(Self.kind(scratch.path("pipe")) == S_IFIFO)
        // A link to this process's standard output, a pipe here: its text resolves to no file.
        try FileManager.default.createSymbolicLink(atPath: scratch.path("out"), withDestinationPath: "/proc/self/fd/1")
        let link = try Self.importing(["--out", "out"], in: scratch)
        #expect(link.status == 1 && link.errors.contains("out: --out names a pipe, not a store file"), "\(link.errors)")
        guard geteuid() == 0 else { return }
        // A private copy of /dev/null: the real one must never be at stake in a test.
        try #require(mknod(scratch.path("null"), S_IFCHR | 0o644, dev_t((1 << 8) | 3)) == 0)
        let device = try Self.importing(["--out", "null"], in: scratch)
        #expect(device.status == 1)
        #expect(device.errors.contains("--out names a device, not a store file"), "\(device.errors)")
        #expect(Self.kind(scratch.path("null")) == S_IFCHR, "still the device")
    }

    @Test("a store replaced keeps the previous one's permissions (and, as root, its owner)")
    func permissionsKept() throws {
        let scratch = try Self.scratch()
        #expect(try Self.importing(["--out", "E.sqlite"], in: scratch).status == 1, "a bad row aborts")
        try scratch.write("emp.csv", "code,age\nA,1\n")
        #expect(try Self.importing(["--out", "E.sqlite"], in: scratch).status == 0)
        let path = scratch.path("E.sqlite")
        #expect(chmod(path, 0o640) == 0)
        let root = geteuid() == 0
        if root { #expect(chown(path, 1234, 1234) == 0) }
        let again = try Self.importing(["--out", "E.sqlite"], in: scratch)
        #expect(again.status == 0, "\(again.errors)")
        var info = stat()
        #expect(stat(path, &info) == 0 && info.st_mode & 0o7777 == 0o640)
        if root { #expect(info.st_uid == 1234 && info.st_gid == 1234) }
    }

    @Test("rejects that cannot all be written stop the import, and replace neither the store nor earlier rejects")
    func rejectsOnAFullDevice() throws {
        let scratch = try Self.scratch()
        try scratch.write("ok.csv", "code,age\nA,1\n")
        let first = try ImportCLI.run(["import", "--model", "m.model.json", "--out", "E.sqlite", "--progress", "none", "Emp=ok.csv"],
                                      directory: scratch.url)
        #expect(first.status == 0, "\(first.errors)")
        let before = try Data(contentsOf: URL(fileURLWithPath: scratch.path("E.sqlite")))
        // /dev/full takes nothing: every write fails with ENOSPC, as on a full disk.
        try FileManager.default.createSymbolicLink(atPath: scratch.path("full.csv"), withDestinationPath: "/dev/full")
        let result = try Self.importing(["--out", "E.sqlite", "--on-error", "skip", "--rejects", "full.csv"], in: scratch)
        #expect(result.status == 1)
        #expect(result.errors.contains("the rejected rows could not all be written: writing the rejects to full.csv failed: No space left on device"),
                "\(result.errors)")
        #expect(result.errors.contains("Nothing was replaced"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.path("E.sqlite"))) == before, "the previous store, byte for byte")
        #expect(!scratch.files.contains { $0.contains(".importing-") }, "\(scratch.files)")
    }

    @Test("the previous store's WAL is checkpointed into it before it is removed; a store in use is not replaced")
    func previousLogCheckpointed() throws {
        let scratch = ImportScratch()
        let target = scratch.path("Old.sqlite")
        let writer = try Connection(path: target)
        try writer.execute("PRAGMA journal_mode = WAL")
        try writer.execute("PRAGMA wal_autocheckpoint = 0")
        try writer.execute("CREATE TABLE t (x)")
        try writer.execute("INSERT INTO t VALUES (1), (2), (3)")
        let file = _StoreFile(target: target)
        var log = stat()
        #expect(stat(target + "-wal", &log) == 0 && log.st_size > 0, "the rows are in the WAL")

        // A reader in a transaction: the WAL cannot be checkpointed whole.
        let reader = try Connection(path: target)
        try reader.execute("BEGIN")
        _ = try reader.rows("SELECT count(*) FROM t")
        #expect {
            try file.checkpointPreviousLog()
        } throws: { error in
            (error as? ImportError)?.reason.contains("is open in another process, which holds changes in its WAL") == true
        }
        try reader.execute("COMMIT")

        try file.checkpointPreviousLog()
        // The main file alone (as a kill before the rename would leave it, its WAL gone) has the rows.
        let copy = scratch.path("Copy.sqlite")
        try FileManager.default.copyItem(atPath: target, toPath: copy)
        #expect(try Connection(path: copy).scalar("SELECT count(*) FROM t")?.int64 == 3)
        withExtendedLifetime((writer, reader)) {}
    }

    @Test("an --out another running import is building a store for is refused; one a dead import left is not")
    func anotherImporterRunning() throws {
        let scratch = try Self.scratch()
        try scratch.write("emp.csv", "code,age\nA,1\n")
        let sleeper = Process()
        sleeper.executableURL = URL(fileURLWithPath: "/bin/sleep")
        sleeper.arguments = ["60"]
        try sleeper.run()
        // SIGKILL: a child of the test runner may start with SIGTERM blocked.
        defer { if sleeper.isRunning { kill(sleeper.processIdentifier, SIGKILL) }; sleeper.waitUntilExit() }
        let busy = ".E.sqlite.importing-\(sleeper.processIdentifier)"
        try scratch.write(busy, "a store being built")
        let refused = try Self.importing(["--out", "E.sqlite"], in: scratch)
        #expect(refused.status == 1)
        #expect(refused.errors.contains("another import (process \(sleeper.processIdentifier)) is building a store for this --out"), "\(refused.errors)")
        #expect(scratch.files.contains(busy), "its file is left alone")
        kill(sleeper.processIdentifier, SIGKILL)
        sleeper.waitUntilExit()
        let after = try Self.importing(["--out", "E.sqlite"], in: scratch)
        #expect(after.status == 0, "\(after.errors)")
        #expect(!scratch.files.contains(busy), "the dead import's file is removed")
    }

    @Test("--core-data-hashes puts the app's model hashes into the metadata; hashes of other entities are refused first")
    func coreDataHashes() throws {
        let scratch = try Self.scratch()
        try scratch.write("emp.csv", "code,age\nA,1\n")
        let hashes = ["Emp": Data(repeating: 7, count: 32)]
        try PropertyListSerialization.data(fromPropertyList: ["NSManagedObjectModel_CurrentVersionName": "M",
                                                              "NSManagedObjectModel_VersionHashes": ["M": hashes]], format: .binary, options: 0)
            .write(to: URL(fileURLWithPath: scratch.path("VersionInfo.plist")))
        let result = try Self.importing(["--out", "E.sqlite", "--core-data-hashes", "VersionInfo.plist"], in: scratch)
        #expect(result.status == 0, "\(result.errors)")
        let store = try PersistentStore(path: scratch.path("E.sqlite"), options: .init(readOnly: true))
        #expect(store.metadata["NSStoreModelVersionHashes"] as? [String: Data] == hashes)
        // Only the names can be checked here, and the note says so.
        #expect(result.errors.contains("note: --core-data-hashes VersionInfo.plist: the store will carry these hashes for Emp; only the entity names were checked"),
                "\(result.errors)")
        try PropertyListSerialization.data(fromPropertyList: ["Boss": Data(repeating: 7, count: 32)], format: .binary, options: 0)
            .write(to: URL(fileURLWithPath: scratch.path("other.plist")))
        let refused = try Self.importing(["--out", "F.sqlite", "--core-data-hashes", "other.plist"], in: scratch)
        #expect(refused.status == 2)
        #expect(refused.errors.contains("--core-data-hashes other.plist is not for this model: no hash for Emp; hashes for entities the model lacks: Boss"),
                "\(refused.errors)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("F.sqlite")))
    }

    /// A user trial: a store another process was reading (rollback journal, the default) was replaced
    /// under it, and a writer's journal removed.
    @Test("a previous store another process holds in a transaction is not replaced, and no new store is left behind")
    func previousStoreInUse() throws {
        let scratch = try Self.scratch()
        try scratch.write("emp.csv", "code,age\nA,1\n")
        #expect(try Self.importing(["--out", "E.sqlite"], in: scratch).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: scratch.path("E.sqlite")))
        var reader: Connection? = try Connection(path: scratch.path("E.sqlite"))
        try reader?.execute("BEGIN")
        _ = try reader?.rows("SELECT count(*) FROM ZEMP")
        let refused = try Self.importing(["--out", "E.sqlite"], in: scratch)
        #expect(refused.status == 1)
        #expect(refused.errors.contains("the store at --out is open in another process"), "\(refused.errors)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.path("E.sqlite"))) == before)
        #expect(!scratch.files.contains { $0.contains(".importing-") }, "no new store kept for the next import to remove: \(scratch.files)")
        try reader?.execute("COMMIT")
        reader = nil
        #expect(try Self.importing(["--out", "E.sqlite"], in: scratch).status == 0, "once closed, it is replaced")
    }

    /// A user trial: a store an idle process had open (an app, a sqlite3 shell, no transaction) was
    /// replaced under it, though the README said a store another process holds open is not.
    @Test("a previous store another process has open, idle, is not replaced, and the refusal comes before the import works")
    func previousStoreOpenIdle() throws {
        let scratch = try Self.scratch()
        try scratch.write("emp.csv", "code,age\nA,1\n")
        #expect(try Self.importing(["--out", "E.sqlite"], in: scratch).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: scratch.path("E.sqlite")))
        var holder: Connection? = try Connection(path: scratch.path("E.sqlite"))
        _ = try holder?.rows("SELECT count(*) FROM ZEMP")
        let refused = try Self.importing(["--out", "E.sqlite"], in: scratch)
        #expect(refused.status == 1)
        #expect(refused.errors.contains("the store at --out is open in another process (") && refused.errors.contains(", pid \(getpid()))"),
                "\(refused.errors)")
        #expect(!refused.output.contains("Imported"), "refused before the import: \(refused.output)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.path("E.sqlite"))) == before)
        holder = nil
        #expect(try Self.importing(["--out", "E.sqlite"], in: scratch).status == 0, "once closed, it is replaced")
    }

    @Test("the files a rejects file is sorted through, left by a killed import, are removed by the next one")
    func sortLeftoversRemoved() throws {
        let scratch = ImportScratch()
        let gone = Process()
        gone.executableURL = URL(fileURLWithPath: "/bin/true")
        try gone.run()
        gone.waitUntilExit()
        let names = ([""] + _RejectsWriter.sortFileSuffixes).map { ".r.csv.importing-\(gone.processIdentifier)" + $0 }
        for name in names { try scratch.write(name, "left") }
        #expect(_StoreFile.removeStale(in: scratch.url) == names.sorted())
        #expect(scratch.files.isEmpty)
    }

    /// A user trial: with --progress none an interrupted import ended without a word on stderr.
    @Test("with --progress none, a signal still says what became of the store")
    func interruptedQuietly() throws {
        let scratch = ImportScratch()
        let data = try DataSetGenerator.generate(.wells, rows: 40_000, into: scratch.url.appendingPathComponent("data"))
        let process = Process()
        process.executableURL = ImportFixtures.cli!
        process.arguments = ["import", "--mapping", data.mappingFile.url.path, "--out", scratch.path("Wells.sqlite"), "--progress", "none"]
        process.standardOutput = FileHandle.nullDevice
        _ = FileManager.default.createFile(atPath: scratch.path("errors.txt"), contents: nil)
        process.standardError = FileHandle(forWritingAtPath: scratch.path("errors.txt"))
        try process.run()
        let temporary = scratch.path(".Wells.sqlite.importing-\(process.processIdentifier)")
        let deadline = Date().addingTimeInterval(30)
        while process.isRunning && !FileManager.default.fileExists(atPath: temporary) && Date() < deadline { usleep(10_000) }
        #expect(process.isRunning, "still running when signalled")
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        let errors = try String(contentsOfFile: scratch.path("errors.txt"), encoding: .utf8)
        #expect(errors.hasSuffix("import: interrupted; no store was created at \(scratch.path("Wells.sqlite")) (the temporary files were removed)\n"), "\(errors)")
    }

    @Test("under nohup (SIGHUP ignored), a hangup does not end the import")
    func nohupKeepsRunning() throws {
        let scratch = ImportScratch()
        let data = try DataSetGenerator.generate(.wells, rows: 40_000, into: scratch.url.appendingPathComponent("data"))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        // `trap '' HUP` sets it ignored, which exec keeps, as nohup does.
        process.arguments = ["-c", #"trap '' HUP; exec "$0" "$@""#, ImportFixtures.cli!.path, "import", "--mapping",
                             data.mappingFile.url.path, "--out", scratch.path("Wells.sqlite"), "--progress", "none"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let temporary = scratch.path(".Wells.sqlite.importing-\(process.processIdentifier)")
        let deadline = Date().addingTimeInterval(30)
        while process.isRunning && !FileManager.default.fileExists(atPath: temporary) && Date() < deadline { usleep(10_000) }
        kill(process.processIdentifier, SIGHUP)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)
        #expect(FileManager.default.fileExists(atPath: scratch.path("Wells.sqlite")))
    }

    /// Sets or clears a file attribute with chattr (`+i`, `-i`); false where the file system or the
    /// user cannot (not root, a file system without the flag).
    static func chattr(_ flag: String, _ path: String) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
        process.arguments = [flag, path]
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    /// A user trial: an immutable --out was found only at the rename, after the whole import, and the
    /// store the message pointed to was then removed by the next import as "left by an import that did
    /// not finish". (A store that still cannot be renamed is now kept as `Keep.sqlite.complete`.)
    @Test("an immutable --out is refused before importing, and again before the rename if it became so meanwhile")
    func immutableTarget() throws {
        let scratch = try Self.scratch()
        try scratch.write("Keep.sqlite", "")
        guard Self.chattr("+i", scratch.path("Keep.sqlite")) else { return }   // Needs root and a file system with the flag.
        defer { _ = Self.chattr("-i", scratch.path("Keep.sqlite")) }
        let refused = try Self.importing(["--out", "Keep.sqlite"], in: scratch)
        #expect(refused.status == 1 && refused.errors.contains("--out names a file marked immutable or append-only"), "\(refused.errors)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("Keep.sqlite.complete")))
        _ = Self.chattr("-i", scratch.path("Keep.sqlite"))
        if Self.chattr("+a", scratch.path("Keep.sqlite")) {
            let appendOnly = try Self.importing(["--out", "Keep.sqlite"], in: scratch)
            _ = Self.chattr("-a", scratch.path("Keep.sqlite"))
            #expect(appendOnly.status == 1 && appendOnly.errors.contains("--out names a file marked immutable or append-only"), "\(appendOnly.errors)")
        }

        // Made immutable while the import runs: found again before the rename, with nothing left behind
        // for the next import to remove.
        var options = ImportOptions(onError: .skip)
        let target = scratch.path("Keep.sqlite")
        options.beforeEachPass = { _ in _ = Self.chattr("+i", target) }
        let model = try ObjectModel(json: Data(Self.model.utf8))
        let mapping = try ImportMapping.inferred(sources: [("Emp", "emp.csv")], model: model, baseDirectory: scratch.url.path)
        let error = try #require(throws: ImportError.self) { try SeedImporter(model: model, mapping: mapping, options: options).run(into: target) }
        #expect(error.description.contains("--out names a file marked immutable or append-only"), "\(error)")
        _ = Self.chattr("-i", target)
        let next = try Self.importing(["--out", "Other.sqlite", "--on-error", "skip"], in: scratch)
        #expect(next.status == 0 && !next.errors.contains("removed"), "\(next.errors)")
    }
}
