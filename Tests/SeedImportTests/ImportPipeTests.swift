import Foundation
import ManagedStore
import SeedImport
import Testing

/// Inputs that are not regular files: `Entity=/dev/stdin` fed by a pipe, or a process substitution.
/// The importer reads a file more than once, so such an input is copied to a temporary file first; it
/// used to read the header, then find the pipe drained and call the file empty.
@Suite("Import: from a pipe", .enabled(if: ImportFixtures.hasCLI, ImportFixtures.cliSkipReason))
struct ImportPipeTests {
    static let model = """
        {"entities":[{"name":"Emp","attributes":[{"name":"code","type":"String","optional":false},{"name":"name","type":"String"}],
          "relationships":[{"name":"mgr","destination":"Emp","inverse":"reports"},
                           {"name":"reports","destination":"Emp","inverse":"mgr","toMany":true}]}]}
        """

    /// Runs `seedstore import` with `input` on its standard input; `TMPDIR` set to `temporary`.
    static func importPiped(_ input: String, _ arguments: [String], temporary: String, in scratch: ImportScratch) throws -> CLIResult {
        let process = Process()
        process.executableURL = ImportFixtures.cli!
        process.arguments = ["import", "--progress", "none"] + arguments
        process.currentDirectoryURL = scratch.url
        process.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": temporary]) { $1 }
        let stdin = Pipe(), output = Pipe(), errors = Pipe()
        process.standardInput = stdin
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CLIResult(status: process.terminationStatus, output: String(decoding: out, as: UTF8.self),
                         errors: String(decoding: err, as: UTF8.self))
    }

    /// A scratch folder holding the model, and an empty folder in it to serve as `TMPDIR`.
    static func scratch() throws -> (ImportScratch, temporary: String) {
        let scratch = ImportScratch()
        try scratch.write("m.model.json", model)
        let temporary = scratch.path("tmp")
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
        return (scratch, temporary)
    }

    @Test("Entity=/dev/stdin imports what the pipe gives, and leaves no copy behind")
    func standardInput() throws {
        let (scratch, temporary) = try Self.scratch()
        let rows = (1...500).map { "E\($0),Employee \($0),\($0 == 1 ? "" : "E1")\n" }.joined()
        let result = try Self.importPiped("code,name,mgr\n" + rows, ["--model", "m.model.json", "--out", "P.sqlite", "Emp=/dev/stdin"],
                                          temporary: temporary, in: scratch)
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.contains("/dev/stdin → Emp: 500 rows read, 500 imported"), "\(result.output)")
        #expect(try StoreReader.scalar(scratch.path("P.sqlite"), "SELECT count(*) FROM ZEMP WHERE ZMGR IS NOT NULL") == .integer(499))
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary).isEmpty, "the copy is removed at exit")
    }

    /// Skip mode reads the file again to set rows aside that name a key that never comes.
    @Test("skip mode, which reads the input again for rows rejected late, works from a pipe")
    func skipModeRereads() throws {
        let (scratch, temporary) = try Self.scratch()
        let rows = (1...300).map { "E\($0),Employee \($0),\($0 % 100 == 0 ? "NOBODY" : "E\(301 - $0)")\n" }.joined()
        let piped = try Self.importPiped("code,name,mgr\n" + rows,
                                         ["--model", "m.model.json", "--out", "P.sqlite", "--on-error", "skip", "--rejects", "r.csv",
                                          "Emp=/dev/stdin"], temporary: temporary, in: scratch)
        #expect(piped.status == 0, "\(piped.errors)")
        try scratch.write("emps.csv", "code,name,mgr\n" + rows)
        let fromFile = try ImportCLI.run(["import", "--progress", "none", "--model", "m.model.json", "--out", "F.sqlite", "--on-error", "skip",
                                          "--rejects", "f.csv", "Emp=emps.csv"], directory: scratch.url)
        #expect(fromFile.status == 0, "\(fromFile.errors)")
        #expect(try StoreReader.tables(scratch.path("P.sqlite")) == StoreReader.tables(scratch.path("F.sqlite")), "the same store as from a file")
        let rejects = try String(contentsOfFile: scratch.path("r.csv"), encoding: .utf8)
        #expect(rejects.split(separator: "\n").count > 3, "rows naming NOBODY, and those naming them, set aside: \(rejects)")
        #expect(rejects.replacingOccurrences(of: "/dev/stdin,", with: "emps.csv,") == (try String(contentsOfFile: scratch.path("f.csv"), encoding: .utf8)))
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary).isEmpty)
    }

    /// `--save-mapping` names, for a Date or Boolean attribute the mapping matches by name, the header's
    /// column with the command line's formats. From a pipe the header comes from the input's copy: reading
    /// the pipe itself there would leave the import nothing to read.
    @Test("--save-mapping reads a pipe's header from its copy, and the import still gets every row")
    func savedMappingFromPipe() throws {
        let (scratch, temporary) = try Self.scratch()
        try scratch.write("d.model.json", """
            {"entities":[{"name":"Emp","attributes":[{"name":"code","type":"String","optional":false},
              {"name":"joined","type":"Date"},{"name":"active","type":"Boolean"}]}]}
            """)
        try scratch.write("d.mapping.json", #"{"format": 1, "model": "d.model.json", "files": [{"path": "/dev/stdin", "targets": [{"entity": "Emp"}]}]}"#)
        let rows = (1...200).map { "E\($0),\($0 % 28 + 1)-Feb-19,\($0 % 2 == 0 ? "ja" : "nein")\n" }.joined()
        let result = try Self.importPiped("Code,Joined,Active\n" + rows,
                                          ["--mapping", "d.mapping.json", "--out", "P.sqlite", "--date-format", "d-MMM-yy", "--pivot-year", "2000",
                                           "--true-value", "ja", "--false-value", "nein", "--save-mapping", "saved.mapping.json"],
                                          temporary: temporary, in: scratch)
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.contains("/dev/stdin → Emp: 200 rows read, 200 imported"), "\(result.output)")
        #expect(try StoreReader.scalar(scratch.path("P.sqlite"), "SELECT count(*) FROM ZEMP WHERE ZJOINED IS NOT NULL AND ZACTIVE = 1") == .integer(100))
        let saved = try ImportMapping(contentsOf: scratch.path("saved.mapping.json"))
        #expect(saved.files[0].content.targetColumns["joined"] == ColumnMapping("Joined", format: "d-MMM-yy", pivotYear: 2000))
        #expect(saved.files[0].content.targetColumns["active"]?.column == "Active" && saved.files[0].content.targetColumns["active"]?.trueValues == ["ja"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary).isEmpty, "the copy is removed at exit")
    }

    @Test("a copy that cannot be made is a clear error naming TMPDIR; nothing is written")
    func copyFails() throws {
        let scratch = ImportScratch()
        try scratch.write("m.model.json", Self.model)
        let result = try Self.importPiped("code,name,mgr\nE1,Ann,\n", ["--model", "m.model.json", "--out", "P.sqlite", "Emp=/dev/stdin"],
                                          temporary: scratch.path("no/such/folder"), in: scratch)
        #expect(result.status == 2, "\(result.errors)")
        #expect(result.errors.contains("/dev/stdin: /dev/stdin is not a regular file (a pipe or a device), so it is copied to a temporary file first"),
                "\(result.errors)")
        #expect(result.errors.contains("cannot create the copy: No such file or directory") && result.errors.contains("Set TMPDIR"), "\(result.errors)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("P.sqlite")))
    }

    /// A SIGKILLed import of a pipe left its copy in TMPDIR for good: the next import removed only the
    /// temporary stores next to its own store.
    @Test("the next import removes the input copies and spooled rejects of killed imports from TMPDIR, and only those")
    func staleCopiesRemoved() throws {
        let (scratch, temporary) = try Self.scratch()
        // A process that has ended: its pid names nobody now.
        let gone = Process()
        gone.executableURL = URL(fileURLWithPath: "/bin/true")
        try gone.run()
        gone.waitUntilExit()
        let dead = gone.processIdentifier, running = getpid()
        let stale = ["seedstore-input-\(dead)-1-stdin", "seedstore-input-\(dead)-2-my-wells.csv", ".seedstore-rejects-\(UUID().uuidString).importing-\(dead)"]
        let kept = ["seedstore-input-\(running)-1-stdin", "seedstore-input-\(dead)-x-stdin", "seedstore-input-\(dead)-1-", "xseedstore-input-\(dead)-1-stdin",
                    "seedstore-input-\(dead)-3-link"]
        for name in stale + kept.dropLast() { try scratch.write("tmp/\(name)", "a copy") }
        try scratch.write("elsewhere.csv", "kept")
        try FileManager.default.createSymbolicLink(atPath: scratch.path("tmp/\(kept.last!)"), withDestinationPath: scratch.path("elsewhere.csv"))
        try FileManager.default.createDirectory(atPath: scratch.path("tmp/seedstore-input-\(dead)-4-folder"), withIntermediateDirectories: false)

        let result = try Self.importPiped("code,name,mgr\nE1,Ann,\n", ["--model", "m.model.json", "--out", "P.sqlite", "Emp=/dev/stdin"],
                                          temporary: temporary, in: scratch)
        #expect(result.status == 0, "\(result.errors)")
        let left = try FileManager.default.contentsOfDirectory(atPath: temporary)
        #expect(Set(left) == Set(kept + ["seedstore-input-\(dead)-4-folder"]), "only regular files named so, of processes not running: \(left)")
        for name in stale {
            #expect(result.output.contains("warning: removed \(temporary)/\(name), left by an import that did not finish"), "\(result.output)")
        }
        #expect(try String(contentsOfFile: scratch.path("elsewhere.csv"), encoding: .utf8) == "kept")
    }

    /// Starts `seedstore import` reading `input` from a pipe that stays open (the copy of standard input
    /// never ends), standard error going to `errors`; `TMPDIR` set to `temporary`.
    static func startPiped(_ input: String, _ arguments: [String], temporary: String, errors: String,
                           in scratch: ImportScratch) throws -> (Process, stdin: Pipe) {
        let process = Process()
        process.executableURL = ImportFixtures.cli!
        process.arguments = ["import"] + arguments
        process.currentDirectoryURL = scratch.url
        process.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": temporary]) { $1 }
        let stdin = Pipe()
        process.standardInput = stdin
        process.standardOutput = FileHandle.nullDevice
        _ = FileManager.default.createFile(atPath: errors, contents: nil)
        process.standardError = FileHandle(forWritingAtPath: errors)
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        return (process, stdin)
    }

    /// Waits up to `seconds` for `path` to hold `text`; returns what it holds.
    static func waitFor(_ text: String, in path: String, seconds: Double) -> String {
        let deadline = Date().addingTimeInterval(seconds)
        var held = ""
        repeat {
            held = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            if held.contains(text) { break }
            usleep(50_000)
        } while Date() < deadline
        return held
    }

    /// A user's Ctrl-C while `/dev/stdin` was copied (before the importer's progress starts) exited 130 with
    /// nothing on standard error, after many silent seconds.
    /// With a mapping the planner copies the pipe; without one, the mapping made from the headers does,
    /// before the importer runs.
    @Test("a long copy of a pipe says it is being copied and why; Ctrl-C during it says so in one line and leaves no copy",
          arguments: [true, false])
    func interruptedWhileCopying(withMapping: Bool) throws {
        let (scratch, temporary) = try Self.scratch()
        try scratch.write("p.mapping.json", #"{"format": 1, "model": "m.model.json", "files": [{"path": "/dev/stdin", "targets": [{"entity": "Emp"}]}]}"#)
        let errors = scratch.path("errors.txt")
        let inputs = withMapping ? ["--mapping", "p.mapping.json"] : ["--model", "m.model.json", "Emp=/dev/stdin"]
        let (process, stdin) = try Self.startPiped("code,name,mgr\nE1,Ann,\n", inputs + ["--out", "P.sqlite", "--progress", "plain"],
                                                   temporary: temporary, errors: errors, in: scratch)
        defer { try? stdin.fileHandleForWriting.close() }
        let copying = "import: copying /dev/stdin to \(temporary) first, since the importer reads its input more than once: 22 B so far, "
        let shown = Self.waitFor(copying, in: errors, seconds: 20)
        #expect(shown.hasPrefix(copying), "a line within 3 s (plain progress): \(shown)")
        #expect(process.isRunning, "still copying")
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGINT, "ended by the signal, as without a handler")
        let text = try String(contentsOfFile: errors, encoding: .utf8)
        #expect(text.hasSuffix("\nimport: interrupted while copying /dev/stdin to \(temporary); no store was created at P.sqlite (the copy was removed)\n"), "\(text)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary).isEmpty, "the copy is removed")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("P.sqlite")))
    }

    @Test("with --progress none a copy of a pipe shows nothing, and Ctrl-C during it one line on what became of the store")
    func interruptedWhileCopyingQuietly() throws {
        let (scratch, temporary) = try Self.scratch()
        let errors = scratch.path("errors.txt")
        let (process, stdin) = try Self.startPiped("code,name,mgr\nE1,Ann,\n", ["--model", "m.model.json", "--out", "P.sqlite", "--progress", "none", "Emp=/dev/stdin"],
                                                   temporary: temporary, errors: errors, in: scratch)
        defer { try? stdin.fileHandleForWriting.close() }
        // Past the first line plain progress would write.
        usleep(3_500_000)
        #expect(process.isRunning, "still copying")
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary).count == 1, "the copy is being made")
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGINT)
        // A user trial: an interrupted import that says nothing leaves the user guessing about the store.
        #expect(try String(contentsOfFile: errors, encoding: .utf8) == "import: interrupted; no store was created at P.sqlite (the temporary files were removed)\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary).isEmpty, "the copy is removed")
    }
}
