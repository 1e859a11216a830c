import Foundation
import ManagedStore
import SeedImport
import Testing

/// Batched saves with a reset in between keep memory flat whatever the file size.
@Suite("Import: memory", .enabled(if: ImportFixtures.hasCLI, ImportFixtures.cliSkipReason))
struct ImportMemoryTests {
    /// Imports `rows` generated wells (operators + Well) in a child process; returns its peak resident bytes.
    static func peak(rows: Int, in scratch: ImportScratch) throws -> Int {
        let data = try DataSetGenerator.generate(.wells, rows: rows, into: scratch.url.appendingPathComponent("\(rows)"))
        var mapping = try JSONSerialization.jsonObject(with: Data(contentsOf: data.mappingFile.url)) as! [String: Any]
        mapping["files"] = Array((mapping["files"] as! [Any]).prefix(2))   // operators.csv, wells.csv → Well
        let mappingPath = data.directory.appendingPathComponent("well.mapping.json").path
        try JSONSerialization.data(withJSONObject: mapping).write(to: URL(fileURLWithPath: mappingPath))
        let summaryPath = scratch.path("summary-\(rows).json")
        let result = try ImportCLI.run([
            "import", "--mapping", mappingPath, "--out", scratch.path("Wells-\(rows).sqlite"), "--progress", "none",
            "--batch-size", "1000", "--summary-json", summaryPath,
        ])
        #expect(result.status == 0, "\(result.errors)")
        let summary = try JSONDecoder().decode(ImportSummary.self, from: Data(contentsOf: URL(fileURLWithPath: summaryPath)))
        #expect(summary.objects["Well"]?.stored == rows)
        return try #require(summary.peakMemoryBytes)
    }

    @Test("four times the rows, less than 1.2 times the peak memory")
    func flat() throws {
        let scratch = ImportScratch()
        let small = try Self.peak(rows: 5_000, in: scratch)
        let large = try Self.peak(rows: 20_000, in: scratch)
        #expect(Double(large) < 1.2 * Double(small), "peak \(large) bytes for 20,000 rows vs \(small) for 5,000")
    }
}
