import Foundation
import SeedImport
import Testing

/// The files an import writes besides its store, found by a user trial where paths meet links and
/// streams: `--summary-json` through a link to standard output replaced the link (here `/dev/stdout`
/// itself, as root); `--rejects sub/../teams.csv`, with `sub` a link, overwrote an input the check read as
/// another file; a dangling link let the rejects overwrite the saved mapping; a clean run removed an
/// unrelated file `--rejects` named.
@Suite("Import: output paths through links and streams", .enabled(if: ImportFixtures.hasCLI, ImportFixtures.cliSkipReason))
struct ImportOutputPathTests {
    static let model = #"{"entities":[{"name":"Emp","attributes":[{"name":"code","type":"String","optional":false},{"name":"age","type":"Integer 32"}]}]}"#

    /// `work/` to run in, `data/` with the model and an input whose second row is bad, and `work/sub`, a
    /// link to `data/sub`: `work/sub/..` is `data` to the kernel, `work` to the text.
    static func scratch() throws -> ImportScratch {
        let scratch = ImportScratch()
        try FileManager.default.createDirectory(atPath: scratch.path("data"), withIntermediateDirectories: true)
        try scratch.write("data/m.model.json", model)
        try scratch.write("data/emp.csv", "code,age\nA,1\nB,x\n")
        try FileManager.default.createDirectory(atPath: scratch.path("data/sub"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: scratch.path("work"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: scratch.path("work/sub"), withDestinationPath: scratch.path("data/sub"))
        return scratch
    }

    static func importing(_ extra: [String], in scratch: ImportScratch, stdout: FileHandle? = nil) throws -> CLIResult {
        let arguments = ["import", "--model", "../data/m.model.json", "--out", "E.sqlite", "--progress", "none", "--on-error", "skip"] + extra + ["Emp=../data/emp.csv"]
        guard let stdout else { return try ImportCLI.run(arguments, directory: scratch.url.appendingPathComponent("work")) }
        let process = Process()
        process.executableURL = ImportFixtures.cli!
        process.arguments = arguments
        process.currentDirectoryURL = scratch.url.appendingPathComponent("work")
        process.standardOutput = stdout
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CLIResult(status: process.terminationStatus, output: "", errors: String(decoding: err, as: UTF8.self))
    }

    @Test("--summary-json through a link to standard output writes the stream, and the link stays a link")
    func summaryThroughLinkToStdout() throws {
        let scratch = try Self.scratch()
        try FileManager.default.createSymbolicLink(atPath: scratch.path("work/my_stdout"), withDestinationPath: "/proc/self/fd/1")
        _ = FileManager.default.createFile(atPath: scratch.path("out.txt"), contents: nil)
        let handle = try FileHandle(forWritingTo: scratch.url.appendingPathComponent("out.txt"))
        let result = try Self.importing(["--summary-json", "my_stdout"], in: scratch, stdout: handle)
        try handle.close()
        #expect(result.status == 0, "\(result.errors)")
        var info = stat()
        #expect(lstat(scratch.path("work/my_stdout"), &info) == 0 && info.st_mode & S_IFMT == S_IFLNK, "the link stays a link")
        let text = try String(contentsOfFile: scratch.path("out.txt"), encoding: .utf8)
        // A user trial: with the text summary first, `--summary-json /dev/stdout > s.json` gave no JSON document.
        #expect(text.hasPrefix("{") && (try? JSONSerialization.jsonObject(with: Data(text.utf8))) != nil, "the JSON alone: \(text)")
        #expect(result.errors.contains("Imported E.sqlite"), "the text summary on standard error: \(result.errors)")
    }

    /// A user trial: both on standard output, the JSON came after the rejects' CSV.
    @Test("--summary-json and --rejects on one stream are refused before importing")
    func summaryAndRejectsOnOneStream() throws {
        let scratch = try Self.scratch()
        try FileManager.default.createSymbolicLink(atPath: scratch.path("work/my_stdout"), withDestinationPath: "/proc/self/fd/1")
        let result = try Self.importing(["--summary-json", "my_stdout", "--rejects", "/proc/self/fd/1"], in: scratch)
        #expect(result.status == 2)
        #expect(result.errors.contains("--summary-json my_stdout and --rejects /proc/self/fd/1 both write to descriptor 1 of this process"), "\(result.errors)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("work/E.sqlite")))
    }

    @Test("--summary-json through a link to a file replaces that file, and the link stays")
    func summaryThroughLinkToFile() throws {
        let scratch = try Self.scratch()
        // An earlier summary (only a summary, an empty file or none is replaced).
        try scratch.write("data/real.json", #"{"store": "E.sqlite", "files": [], "objects": {}}"#)
        try FileManager.default.createSymbolicLink(atPath: scratch.path("work/s.json"), withDestinationPath: scratch.path("data/real.json"))
        let result = try Self.importing(["--summary-json", "s.json"], in: scratch)
        #expect(result.status == 0, "\(result.errors)")
        var info = stat()
        #expect(lstat(scratch.path("work/s.json"), &info) == 0 && info.st_mode & S_IFMT == S_IFLNK)
        #expect(try String(contentsOfFile: scratch.path("data/real.json"), encoding: .utf8).contains("\"rowsRead\""), "the new summary, through the link")
    }

    @Test("an output through link/.. is where the kernel puts it: an input or the model there is refused", arguments: ["--rejects", "--summary-json", "--save-mapping"])
    func dotDotThroughLink(option: String) throws {
        let scratch = try Self.scratch()
        let before = try ["m.model.json", "emp.csv"].map { try Data(contentsOf: scratch.url.appendingPathComponent("data/\($0)")) }
        for (target, role) in [("sub/../emp.csv", "an input file"), ("sub/../m.model.json", "the model")] {
            let result = try Self.importing([option, target], in: scratch)
            #expect(result.status == 2 && result.errors.contains("is \(role)"), "\(option) \(target): \(result.errors)")
        }
        let after = try ["m.model.json", "emp.csv"].map { try Data(contentsOf: scratch.url.appendingPathComponent("data/\($0)")) }
        #expect(after == before, "nothing the import reads is touched")
    }

    @Test("--save-mapping through link/.. lands where the kernel puts it, and imports again from there")
    func savedMappingThroughDotDot() throws {
        let scratch = try Self.scratch()
        let result = try Self.importing(["--save-mapping", "sub/../saved.mapping.json"], in: scratch)
        #expect(result.status == 0, "\(result.errors)")
        #expect(FileManager.default.fileExists(atPath: scratch.path("data/saved.mapping.json")), "next to the data, as the kernel resolves sub/..")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("work/saved.mapping.json")))
        let again = try ImportCLI.run(["import", "--mapping", "sub/../saved.mapping.json", "--out", "F.sqlite", "--progress", "none", "--on-error", "skip"],
                                      directory: scratch.url.appendingPathComponent("work"))
        #expect(again.status == 0 && again.output.contains("Emp: 1 object"), "\(again.errors)")
    }

    @Test("--rejects through a link that leads nowhere yet is refused when it lands on the mapping --save-mapping writes")
    func danglingLinkMeetsSavedMapping() throws {
        let scratch = try Self.scratch()
        try FileManager.default.createSymbolicLink(atPath: scratch.path("work/r.csv"), withDestinationPath: "saved.json")
        let result = try Self.importing(["--rejects", "r.csv", "--save-mapping", "saved.json"], in: scratch)
        #expect(result.status == 2 && result.errors.contains("is the rejects file"), "\(result.errors)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("work/saved.json")))
    }

    @Test("--rejects naming a file that is not a rejects file is refused: a clean run would remove it")
    func rejectsNamingAnotherFile() throws {
        let scratch = try Self.scratch()
        try scratch.write("work/notes.txt", "precious\n")
        let result = try Self.importing(["--rejects", "notes.txt"], in: scratch)
        #expect(result.status == 2 && result.errors.contains("--rejects names a file that is not a rejects file"), "\(result.errors)")
        #expect(try String(contentsOfFile: scratch.path("work/notes.txt"), encoding: .utf8) == "precious\n")
        // An earlier rejects file, or an empty file, is replaced as before.
        try scratch.write("work/r.csv", "file,line,column,entity,attribute,value,reason,raw\nold\n")
        let again = try Self.importing(["--rejects", "r.csv"], in: scratch)
        #expect(again.status == 0, "\(again.errors)")
        #expect(try String(contentsOfFile: scratch.path("work/r.csv"), encoding: .utf8).contains("../data/emp.csv,3,2,Emp,age,x"))
    }

    @Test("outputs that are streams may share one: --rejects /dev/stdout with --summary-json /dev/stderr")
    func streamsShare() throws {
        let scratch = try Self.scratch()
        let result = try Self.importing(["--rejects", "/dev/stdout", "--summary-json", "/dev/stderr"], in: scratch)
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.hasPrefix("file,line,column"), "\(result.output)")
        #expect(result.errors.contains("\"rejects\""), "the JSON on standard error: \(result.errors)")
    }
}
