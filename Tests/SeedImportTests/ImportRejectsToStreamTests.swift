import Foundation
import SeedImport
import Testing

/// `--rejects /dev/stdout` (or `/dev/stderr`, `/dev/fd/N`, `/proc/self/fd/N`) writes to the stream as it
/// is. A user's `seedstore import … --rejects /dev/stdout >>log.txt` lost log.txt's earlier lines: the path
/// resolved to log.txt, which was opened anew with truncation.
@Suite("Import: rejects to standard output and other streams", .enabled(if: ImportFixtures.hasCLI, ImportFixtures.cliSkipReason))
struct ImportRejectsToStreamTests {
    static let model = #"{"entities":[{"name":"Emp","attributes":[{"name":"code","type":"String","optional":false},{"name":"age","type":"Integer 32"}]}]}"#
    static let header = "file,line,column,entity,attribute,value,reason,raw\n"
    static let rejected = "emp.csv,3,2,Emp,age,x,age: not a whole number,\"B,x\"\n"
    static let noHashesNote = "note: the store carries no Core Data version hashes, so Core Data will not open it; "
        + "for an app's store, import with --core-data-hashes App.momd (the app's compiled model)\n"

    /// A scratch folder with the model and a file of three rows, the second of them bad.
    static func scratch() throws -> ImportScratch {
        let scratch = ImportScratch()
        try scratch.write("m.model.json", model)
        try scratch.write("emp.csv", "code,age\nA,1\nB,x\nC,3\n")
        return scratch
    }

    /// Runs the import in skip mode with `--rejects rejects`, its standard output and error going to
    /// `stdout` and `stderr` (descriptors the caller opened, as a shell's `>>` or `>` would).
    static func importing(rejects: String, stdout: Int32, stderr: Int32, in scratch: ImportScratch) throws -> Int32 {
        let process = Process()
        process.executableURL = ImportFixtures.cli!
        process.arguments = ["import", "--model", "m.model.json", "--out", "E.sqlite", "--on-error", "skip", "--rejects", rejects,
                             "--progress", "none", "Emp=emp.csv"]
        process.currentDirectoryURL = scratch.url
        process.standardOutput = FileHandle(fileDescriptor: stdout, closeOnDealloc: true)
        process.standardError = FileHandle(fileDescriptor: stderr, closeOnDealloc: true)
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    static func inode(_ path: String) -> ino_t {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_ino : 0
    }

    @Test("--rejects naming standard output appended to a file (>>) adds to the file and keeps its earlier lines",
          arguments: ["/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"])
    func standardOutputAppended(rejects: String) throws {
        let scratch = try Self.scratch()
        let log = try scratch.write("so2.txt", "previous content line\n")
        let inode = Self.inode(log)
        let status = try Self.importing(rejects: rejects, stdout: open(log, O_WRONLY | O_APPEND), stderr: open("/dev/null", O_WRONLY), in: scratch)
        #expect(status == 0)
        let text = try String(contentsOfFile: log, encoding: .utf8)
        #expect(text.hasPrefix("previous content line\n" + Self.header + Self.rejected), "\(text)")
        #expect(text.contains("rejects: 1 written to \(rejects)"), "the summary follows: \(text)")
        #expect(Self.inode(log) == inode, "the same file")
    }

    @Test("--rejects /dev/stderr appended to a file adds to it")
    func standardErrorAppended() throws {
        let scratch = try Self.scratch()
        let log = try scratch.write("errors.txt", "an earlier run's line\n")
        let status = try Self.importing(rejects: "/dev/stderr", stdout: open("/dev/null", O_WRONLY), stderr: open(log, O_WRONLY | O_APPEND), in: scratch)
        #expect(status == 0)
        // The rejects, then the import's closing note (the store carries no Core Data version hashes).
        #expect(try String(contentsOfFile: log, encoding: .utf8) == "an earlier run's line\n" + Self.header + Self.rejected + Self.noHashesNote)
    }

    /// `>` opens the file once, at its start: the rejects and the summary printed after them share that
    /// position, so neither writes over the other.
    @Test("--rejects /dev/stdout into a file opened with > holds the rejects, then the summary")
    func standardOutputTruncatedByTheShell() throws {
        let scratch = try Self.scratch()
        let log = scratch.path("out.txt")
        let status = try Self.importing(rejects: "/dev/stdout", stdout: open(log, O_WRONLY | O_CREAT | O_TRUNC, 0o644),
                                        stderr: open("/dev/null", O_WRONLY), in: scratch)
        #expect(status == 0)
        let text = try String(contentsOfFile: log, encoding: .utf8)
        #expect(text.hasPrefix(Self.header + Self.rejected + "Imported E.sqlite"), "\(text)")
    }

    /// A link to a file stands for that file: it gets this run's rejects as a file named directly would
    /// (written aside, renamed over it; an earlier run's rows replaced, not added to), and stays a link.
    @Test("--rejects naming a symbolic link to a file replaces that file's rows, and the link stays")
    func symbolicLink() throws {
        let scratch = try Self.scratch()
        let kept = try scratch.write("kept.csv", Self.header + "an earlier run's rejects\n")
        try FileManager.default.createSymbolicLink(atPath: scratch.path("link.csv"), withDestinationPath: kept)
        for _ in 0..<2 {
            let status = try Self.importing(rejects: "link.csv", stdout: open("/dev/null", O_WRONLY), stderr: open("/dev/null", O_WRONLY), in: scratch)
            #expect(status == 0)
            #expect(try String(contentsOfFile: kept, encoding: .utf8) == Self.header + Self.rejected, "this run's rows, once")
            var info = stat()
            #expect(lstat(scratch.path("link.csv"), &info) == 0 && info.st_mode & S_IFMT == S_IFLNK, "the link stays a link")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).filter { $0.contains("importing") }.isEmpty)
    }

    @Test("--rejects naming a descriptor that is not open for writing is refused before the import")
    func descriptorNotOpen() throws {
        let scratch = try Self.scratch()
        let errors = scratch.path("errors.txt")
        let status = try Self.importing(rejects: "/dev/fd/9", stdout: open("/dev/null", O_WRONLY),
                                        stderr: open(errors, O_WRONLY | O_CREAT | O_TRUNC, 0o644), in: scratch)
        #expect(status == 2)
        let text = try String(contentsOfFile: errors, encoding: .utf8)
        #expect(text.contains("--rejects names descriptor 9 of this process, which is not open for writing"), "\(text)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("E.sqlite")), "refused before the import")
    }
}
