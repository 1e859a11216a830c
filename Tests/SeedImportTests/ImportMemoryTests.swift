import Foundation
import ManagedStore
import SeedImport
import Testing

/// Batched saves with a reset in between keep memory flat whatever the file size; key indexes past
/// their budget (``ImportOptions/keyIndexMemoryBytes``, `--key-memory`) move to disk, so the distinct
/// keys of a large file do not grow it either.
@Suite("Import: memory", .enabled(if: ImportFixtures.hasCLI, ImportFixtures.cliSkipReason))
struct ImportMemoryTests {
    /// Imports `rows` generated wells (operators + Well) in a child process; returns its peak resident bytes.
    static func peak(rows: Int, keyMemory: Int? = nil, in scratch: ImportScratch) throws -> Int {
        let data = try DataSetGenerator.generate(.wells, rows: rows, into: scratch.url.appendingPathComponent("\(rows)"))
        var mapping = try JSONSerialization.jsonObject(with: Data(contentsOf: data.mappingFile.url)) as! [String: Any]
        mapping["files"] = Array((mapping["files"] as! [Any]).prefix(2))   // operators.csv, wells.csv → Well
        let mappingPath = data.directory.appendingPathComponent("well.mapping.json").path
        try JSONSerialization.data(withJSONObject: mapping).write(to: URL(fileURLWithPath: mappingPath))
        let summaryPath = scratch.path("summary-\(rows).json")
        let result = try ImportCLI.run([
            "import", "--mapping", mappingPath, "--out", scratch.path("Wells-\(rows).sqlite"), "--progress", "none",
            "--batch-size", "1000", "--summary-json", summaryPath,
        ] + (keyMemory.map { ["--key-memory", String($0)] } ?? []))
        #expect(result.status == 0, "\(result.errors)")
        let summary = try JSONDecoder().decode(ImportSummary.self, from: Data(contentsOf: URL(fileURLWithPath: summaryPath)))
        #expect(summary.objects["Well"]?.stored == rows)
        return try #require(summary.peakMemoryBytes)
    }

    /// At the defaults: 60,000 wells take the uwi index past the size where it drops the key bytes.
    @Test("four times the rows, less than 1.2 times the peak memory")
    func flat() throws {
        let scratch = ImportScratch()
        let small = try Self.peak(rows: 15_000, in: scratch)
        let large = try Self.peak(rows: 60_000, in: scratch)
        #expect(Double(large) < 1.2 * Double(small), "peak \(large) bytes for 60,000 rows vs \(small) for 15,000")
    }

    /// With a 1 MiB key budget the uwi index moves to disk again and again (at every save past the
    /// budget): the peak stays where it was.
    @Test("four times the distinct keys, with a key budget, less than 1.2 times the peak memory")
    func flatKeys() throws {
        let scratch = ImportScratch()
        let small = try Self.peak(rows: 15_000, keyMemory: 1, in: scratch)
        let large = try Self.peak(rows: 60_000, keyMemory: 1, in: scratch)
        #expect(Double(large) < 1.2 * Double(small), "peak \(large) bytes for 60,000 rows vs \(small) for 15,000")
    }
}
