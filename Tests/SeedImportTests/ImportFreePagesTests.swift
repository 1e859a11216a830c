import Foundation
import ManagedStore
import SeedImport
import Testing

/// Rows taken back in skip mode free the pages their objects took; a seed store is shipped, so a store
/// left mostly free pages says how to drop them, and `--vacuum` does.
@Suite("Import: free pages left by rows taken back")
struct ImportFreePagesTests {
    static let model = """
        {"entities": [{"name": "Emp", "attributes": [{"name": "code", "type": "String", "optional": false},
                                                    {"name": "note", "type": "String"}],
          "relationships": [{"name": "boss", "destination": "Emp", "inverse": "staff"},
                            {"name": "staff", "destination": "Emp", "inverse": "boss", "toMany": true}]}]}
        """

    /// Each row names the next as its boss and the last one a boss no row makes, so every row is taken back
    /// once the file has been read: some 2 MB of rows, then nothing.
    static func run(vacuum: Bool, chain: Int, in scratch: ImportScratch) throws -> (ImportSummary, Int) {
        try scratch.write("m.json", model)
        var csv = "code,note,boss\n"
        let note = String(repeating: "n", count: 100)
        for i in 1...chain { csv += "E\(i),\(note),E\(i < chain ? i + 1 : 0)\n" }
        try scratch.write("emp.csv", csv)
        let mapping = try ImportMapping(json: Data("""
            {"format": 1, "model": "m.json", "files": [{"path": "emp.csv", "targets": [{"entity": "Emp", "key": "code",
              "relationships": {"boss": {"column": "boss", "destinationKey": "code"}}}]}]}
            """.utf8), baseDirectory: scratch.url.path)
        var options = ImportOptions()
        options.onError = .skip
        options.vacuum = vacuum
        options.rejectsPath = scratch.path("rejects.csv")
        let summary = try SeedImporter(model: try mapping.loadModel(), mapping: mapping, options: options).run(into: scratch.path("s.sqlite"))
        let size = try FileManager.default.attributesOfItem(atPath: scratch.path("s.sqlite"))[.size] as? Int ?? 0
        return (summary, size)
    }

    @Test("rows taken back leave free pages: a warning with the remedy; --vacuum drops them and says nothing")
    func freePages() throws {
        let (kept, keptSize) = try Self.run(vacuum: false, chain: 15_000, in: ImportScratch())
        #expect(kept.rejects == 15_000)
        let warning = kept.warnings.first { $0.contains("free pages") }
        #expect(warning?.hasSuffix("is free pages (space rows taken back, or the import's own lookup indexes, left): import with --vacuum (or run VACUUM on the store) to ship it without them") == true,
                "\(kept.warnings)")
        #expect(keptSize > 1 << 20)
        let (vacuumed, vacuumedSize) = try Self.run(vacuum: true, chain: 15_000, in: ImportScratch())
        #expect(!vacuumed.warnings.contains { $0.contains("free pages") }, "\(vacuumed.warnings)")
        #expect(vacuumedSize < 200_000, "\(vacuumedSize) bytes")
    }

    @Test("a few rows taken back: no warning")
    func fewRows() throws {
        let (summary, _) = try Self.run(vacuum: false, chain: 50, in: ImportScratch())
        #expect(summary.rejects == 50)
        #expect(!summary.warnings.contains { $0.contains("free pages") }, "\(summary.warnings)")
    }
}
