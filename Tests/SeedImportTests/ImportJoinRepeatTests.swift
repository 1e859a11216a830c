import Foundation
import ManagedStore
@testable import SeedImport
import Testing

/// A join file's repeated pairs are stored once, and the summary counts what is stored.
@Suite("Import: repeated join pairs")
struct ImportJoinRepeatTests {
    @Test("the summary says how many rows repeated a pair stored once")
    func summaryLine() {
        func line(rowsImported: Int, joins: Int) -> String {
            let file = ImportSummary.FileReport(path: "bank_tags.csv", rowsRead: rowsImported, rowsImported: rowsImported,
                                                blankRows: 0, rejects: 0, joins: joins, entities: [])
            let summary = ImportSummary(store: "b.sqlite", files: [file], objects: [:], duplicates: [], rejects: 0, rejectsFile: nil,
                                        warnings: [], elapsedSeconds: 1, peakMemoryBytes: nil, storeBytes: 0)
            return summary.description.split(separator: "\n")[1].description
        }
        #expect(line(rowsImported: 1_294, joins: 1_293) == "  bank_tags.csv: 1,294 rows read, 1,293 pairs joined (1 repeated pair stored once)")
        #expect(line(rowsImported: 12, joins: 9) == "  bank_tags.csv: 12 rows read, 9 pairs joined (3 repeated pairs stored once)")
        #expect(line(rowsImported: 5, joins: 5) == "  bank_tags.csv: 5 rows read, 5 pairs joined")
        #expect(line(rowsImported: 2, joins: 0) == "  bank_tags.csv: 2 rows read, 0 pairs joined (2 repeated pairs stored once)",
                "a join file all of whose pairs were stored before is still a join file")
        #expect(line(rowsImported: 1, joins: 1) == "  bank_tags.csv: 1 row read, 1 pair joined", "one is singular")
    }

    @Test("an entity's line says object for one")
    func objectCount() {
        func line(stored: Int) -> String {
            let summary = ImportSummary(store: "b.sqlite", files: [], objects: ["Tag": .init(inserted: stored, updated: 0, stored: stored)],
                                        duplicates: [], rejects: 0, rejectsFile: nil, warnings: [], elapsedSeconds: 1,
                                        peakMemoryBytes: nil, storeBytes: 0)
            return summary.description.split(separator: "\n")[1].description
        }
        #expect(line(stored: 1) == "  Tag: 1 object (1 inserted)")
        #expect(line(stored: 2_002) == "  Tag: 2,002 objects (2,002 inserted)")
    }

    /// The summary counts the pairs the saves stored (`ManagedObjectContext.joinRowsInserted`), not the rows read.
    @Test("bank_tags.csv with a line repeated: the pairs joined are the join table's rows")
    func repeatedLine() throws {
        let scratch = ImportScratch()
        let store = scratch.path("Banks.sqlite")
        let summary = try Self.importBanks(into: store, in: scratch) { text in
            text + (text.split(separator: "\n").dropFirst().first ?? "") + "\n"
        }
        let join = try #require(summary.files.first { $0.path == "bank_tags.csv" })
        let stored = try #require(try StoreReader.scalar(store, "SELECT count(*) FROM Z_1TAGS")?.int64)
        #expect(join.rowsImported == Int(stored) + 1)
        #expect(join.joins == Int(stored))
        #expect(summary.description.contains("  bank_tags.csv → FailedBankDetails.tags: 1,293 rows read, 1,292 pairs joined (1 repeated pair stored once)"),
                "the line names the relationship the pairs fill: \(summary)")
        #expect(join.relationship == "FailedBankDetails.tags")
        let decoded = try JSONDecoder().decode(ImportSummary.self, from: JSONEncoder().encode(summary))
        #expect(decoded.files.map(\.relationship) == [nil, nil, "FailedBankDetails.tags"], "kept in the JSON summary")
    }

    /// Imports the generated banks into `store`, after `edit` rewrote the text of `bank_tags.csv`.
    static func importBanks(into store: String, in scratch: ImportScratch, editingJoinFile edit: (String) -> String) throws -> ImportSummary {
        let data = try DataSetGenerator.generate(.banks, into: scratch.url.appendingPathComponent("data"))
        let joinFile = data.directory.appendingPathComponent("bank_tags.csv")
        try Data(edit(try String(contentsOf: joinFile, encoding: .utf8)).utf8).write(to: joinFile)
        let mapping = try ImportMapping(contentsOf: data.mappingFile.url.path)
        return try SeedImporter(model: try mapping.loadModel(), mapping: mapping).run(into: store)
    }
}
