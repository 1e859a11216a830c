import Foundation
import ManagedStore
import Testing

/// A user trial (an iOS developer checking Core Data fidelity), end to end through the binary: whether a
/// store carries Core Data's version hashes, external-storage attributes, `--core-data-hashes` given a
/// compiled `.mom`.
@Suite(.enabled(if: CLI.hasBinary, CLI.noBinary))
struct CoreDataFidelityCLITests {
    static let model = #"""
        {"entities": [{"name": "Item", "attributes": [
          {"name": "name", "type": "String"},
          {"name": "photo", "type": "Binary", "allowsExternalStorage": true}]},
         {"name": "Owner", "attributes": [{"name": "code", "type": "String"}]}]}
        """#

    func directory() throws -> URL {
        let directory = CLI.temporaryDirectory()
        try Data(Self.model.utf8).write(to: directory.appendingPathComponent("m.model.json"))
        try Data("name\nhello\n".utf8).write(to: directory.appendingPathComponent("items.csv"))
        return directory
    }

    func importing(_ extra: [String], in directory: URL) throws -> CLI.Result {
        try CLI.run(["import", "--model", "m.model.json", "--progress", "none", "--out", "I.sqlite"] + extra + ["Item=items.csv"],
                    directory: directory)
    }

    @Test("without --core-data-hashes the import ends with one note, and inspect says Core Data will not open the store")
    func noHashes() throws {
        let directory = try directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try importing([], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        let notes = result.stderr.split(separator: "\n").filter { $0.hasPrefix("note:") }
        #expect(notes == ["note: the store carries no Core Data version hashes, so Core Data will not open it; for an app's store, import with --core-data-hashes App.momd (the app's compiled model)"],
                "\(result.stderr)")
        let inspected = try CLI.run(["inspect", "I.sqlite"], directory: directory)
        #expect(inspected.stdout.contains("\nCore Data version hashes: none (NSStoreModelVersionHashes), so Core Data will not open the store; import with --core-data-hashes App.momd to add the app's\n"),
                "\(inspected.stdout)")
        #expect(inspected.stdout.contains("allows external storage (left NULL)"), "\(inspected.stdout)")
    }

    /// Standard output was flushed at exit, so a log of both streams (`2>&1 | tee`) put the closing note
    /// before the summary it follows.
    @Test("a log taking both streams has the summary before the closing note")
    func noteFollowsSummaryInOneLog() throws {
        let directory = try directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let process = Process()
        process.executableURL = CLI.binary!
        process.arguments = ["import", "--model", "m.model.json", "--progress", "none", "--out", "I.sqlite", "Item=items.csv"]
        process.currentDirectoryURL = directory
        let log = Pipe()
        process.standardOutput = log
        process.standardError = log
        try process.run()
        let text = String(decoding: log.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text)")
        let summary = try #require(text.range(of: "Imported I.sqlite"), "\(text)")
        let note = try #require(text.range(of: "note: the store carries no Core Data version hashes"), "\(text)")
        #expect(summary.lowerBound < note.lowerBound, "\(text)")
    }

    @Test("with --core-data-hashes there is no such note, and inspect names the entities and the model version")
    func withHashes() throws {
        let directory = try directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let hashes = ["Item": Data(repeating: 1, count: 32), "Owner": Data(repeating: 2, count: 32)]
        try PropertyListSerialization.data(fromPropertyList: ["NSManagedObjectModel_CurrentVersionName": "App 2",
                                                              "NSManagedObjectModel_VersionHashes": ["App 2": hashes]], format: .binary, options: 0)
            .write(to: directory.appendingPathComponent("VersionInfo.plist"))
        let result = try importing(["--core-data-hashes", "VersionInfo.plist"], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("carries no Core Data version hashes"), "\(result.stderr)")
        let inspected = try CLI.run(["inspect", "I.sqlite"], directory: directory)
        #expect(inspected.stdout.contains("\nCore Data version hashes: for 2 entities, model version App 2 (Core Data opens the store with the model they came from)\n"),
                "\(inspected.stdout)")
    }

    @Test("--core-data-hashes given a compiled .mom says SeedStore cannot read one and what to give, after error:")
    func compiledMom() throws {
        let directory = try directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let archive: [String: Any] = ["$archiver": "NSKeyedArchiver", "$version": 100000, "$objects": ["$null"], "$top": ["root": 1]]
        try PropertyListSerialization.data(fromPropertyList: archive, format: .binary, options: 0)
            .write(to: directory.appendingPathComponent("App.mom"))
        let result = try importing(["--core-data-hashes", "App.mom"], in: directory)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("error: --core-data-hashes: App.mom: a compiled model (.mom, an NSKeyedArchiver archive), whose version hashes SeedStore cannot read; give the VersionInfo.plist"),
                "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("I.sqlite").path))
    }
}
