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
        let summary = try importInChild(
            ["--mapping", mappingPath, "--out", scratch.path("Wells-\(rows).sqlite"), "--batch-size", "1000"]
                + (keyMemory.map { ["--key-memory", String($0)] } ?? []),
            summary: scratch.path("summary-\(rows).json"))
        #expect(summary.objects["Well"]?.stored == rows)
        return try #require(summary.peakMemoryBytes)
    }

    /// Runs `seedstore import` with `arguments` in a child process, without progress; returns the summary
    /// it writes to `summaryPath`.
    static func importInChild(_ arguments: [String], summary summaryPath: String) throws -> ImportSummary {
        let result = try ImportCLI.run(["import"] + arguments + ["--progress", "none", "--summary-json", summaryPath])
        #expect(result.status == 0, "\(result.errors)")
        return try JSONDecoder().decode(ImportSummary.self, from: Data(contentsOf: URL(fileURLWithPath: summaryPath)))
    }

    /// At the defaults: 60,000 wells take the uwi index past the size where it drops the key bytes.
    @Test("four times the rows, less than 1.2 times the peak memory")
    func flat() throws {
        let scratch = ImportScratch()
        try Self.expectFlat(15_000, 60_000, "wells") { try Self.peak(rows: $0, in: scratch) }
    }

    /// Expects the peak for `large` to stay under 1.2 times the one for `small`.
    static func expectFlat(_ small: Int, _ large: Int, _ unit: String, peak: (Int) throws -> Int) throws {
        let (smallPeak, largePeak) = (try peak(small), try peak(large))
        #expect(Double(largePeak) < 1.2 * Double(smallPeak), "peak \(largePeak) bytes for \(large) \(unit) vs \(smallPeak) for \(small)")
    }

    /// With a 1 MiB key budget the uwi index moves to disk again and again (at every save past the
    /// budget): the peak stays where it was.
    @Test("four times the distinct keys, with a key budget, less than 1.2 times the peak memory")
    func flatKeys() throws {
        let scratch = ImportScratch()
        try Self.expectFlat(15_000, 60_000, "wells") { try Self.peak(rows: $0, keyMemory: 1, in: scratch) }
    }

    /// In skip mode a file that fills a relationship from its own rows keeps its rows' writes to earlier
    /// objects, to take them back should a row be rejected in a chain: only within a budget. Every key
    /// comes twice with new text in ten columns, so every second row is an upsert that is kept.
    static func skipPeak(keys: Int, in scratch: ImportScratch) throws -> Int {
        let columns = (0..<10).map { "f\($0)" }
        var csv = "code,mgr," + columns.joined(separator: ",") + "\n"
        for row in 0..<(2 * keys) {
            let key = row % keys
            csv += "E\(key),\(key > 0 ? "E\(key - 1)" : ""),"
            csv += (0..<10).map { "text of row \(row) column \($0)" }.joined(separator: ",") + "\n"
        }
        return try employeesPeak("chain-\(keys)", attributes: columns, csv: csv, stored: keys, arguments: ["--on-error", "skip"], in: scratch)
    }

    /// Employees listed before their managers (each names one within the next 50 rows), in abort mode:
    /// a forward key is held only until its row comes, so memory does not grow with them.
    static func forwardPeak(rows: Int, in scratch: ImportScratch) throws -> Int {
        var csv = "code,name,mgr\n"
        for row in 0..<rows {
            csv += "E\(row),Employee number \(row) of the file,\(row + 1 < rows ? "E\(min(rows - 1, row + 1 + row % 50))" : "")\n"
        }
        return try employeesPeak("forward-\(rows)", attributes: ["name"], csv: csv, stored: rows, arguments: ["--batch-size", "1000"], in: scratch)
    }

    /// Employees each naming a manager among the last 1,000 rows: every key waits for the end of the
    /// file. Past ``ImportOptions/forwardKeyLimit`` they move to a temporary file, so memory does not grow
    /// with them (the key index's own budget is 1 MiB here, so it does not either).
    /// With `missing`, one row in 10,000 names a manager no row is (skip mode sets it aside).
    static func farForwardPeak(rows: Int, skip: Bool = false, missing: Bool = false, in scratch: ImportScratch) throws -> Int {
        var csv = "code,name,mgr\n"
        var stored = 0
        for row in 0..<rows {
            let absent = missing && row % 10_000 == 5
            csv += "E\(row),Employee number \(row) of the file,\(absent ? "NOBODY" : "E")\(rows - 1 - row % 1000)\n"
            if !absent { stored += 1 }
        }
        return try employeesPeak("far-\(rows)\(skip ? "-skip" : "")\(missing ? "-missing" : "")", attributes: ["name"], csv: csv,
                                 stored: stored, arguments: ["--batch-size", "1000", "--key-memory", "1"] + (skip ? ["--on-error", "skip"] : []),
                                 in: scratch)
    }

    /// Imports `csv` into employees (Emp: a `code` key, the String `attributes`, `mgr` naming another
    /// code) in a child process, in the folder `name` of `scratch`, without reading ahead; expects
    /// `stored` employees and returns the child's peak resident bytes.
    static func employeesPeak(_ name: String, attributes: [String], csv: String, stored: Int, arguments: [String],
                              in scratch: ImportScratch) throws -> Int {
        let directory = scratch.url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let model = #"{"entities":[{"name":"Emp","attributes":[{"name":"code","type":"String","optional":false}"#
            + attributes.map { #",{"name":"\#($0)","type":"String"}"# }.joined()
            + #"],"relationships":[{"name":"mgr","destination":"Emp","inverse":"reports"},{"name":"reports","destination":"Emp","inverse":"mgr","toMany":true}]}]}"#
        try model.write(to: directory.appendingPathComponent("m.json"), atomically: true, encoding: .utf8)
        try #"{"format":1,"model":"m.json","files":[{"path":"emps.csv","targets":[{"entity":"Emp","key":"code","relationships":{"mgr":{"column":"mgr","destinationKey":"code"}}}]}]}"#
            .write(to: directory.appendingPathComponent("map.json"), atomically: true, encoding: .utf8)
        try csv.write(to: directory.appendingPathComponent("emps.csv"), atomically: true, encoding: .utf8)
        let summary = try importInChild(
            ["--mapping", directory.appendingPathComponent("map.json").path, "--out", directory.appendingPathComponent("s.sqlite").path,
             "--no-read-ahead"] + arguments,
            summary: directory.appendingPathComponent("summary.json").path)
        #expect(summary.objects["Emp"]?.stored == stored)
        return try #require(summary.peakMemoryBytes)
    }

    @Test("abort mode: four times the employees listed before their managers, less than 1.2 times the peak memory")
    func flatForwardKeys() throws {
        let scratch = ImportScratch()
        try Self.expectFlat(25_000, 100_000, "employees") { try Self.forwardPeak(rows: $0, in: scratch) }
    }

    @Test("abort mode: four times the employees naming managers at the end of the file, less than 1.2 times the peak memory")
    func flatFarForwardKeys() throws {
        let scratch = ImportScratch()
        try Self.expectFlat(25_000, 100_000, "employees") { try Self.farForwardPeak(rows: $0, in: scratch) }
    }

    @Test("skip mode, every key there: four times the employees naming managers at the end of the file, less than 1.2 times the peak memory")
    func flatFarForwardKeysSkipping() throws {
        let scratch = ImportScratch()
        try Self.expectFlat(25_000, 100_000, "employees") { try Self.farForwardPeak(rows: $0, skip: true, in: scratch) }
    }

    @Test("skip mode, some keys missing: four times the employees naming managers at the end of the file, less than 1.2 times the peak memory")
    func flatFarForwardKeysMissing() throws {
        let scratch = ImportScratch()
        try Self.expectFlat(25_000, 100_000, "employees") { try Self.farForwardPeak(rows: $0, skip: true, missing: true, in: scratch) }
    }

    @Test("skip mode: the writes kept for chain rejections stay within their budget (four times the upserts, less than 1.2 times the peak)")
    func flatChainWrites() throws {
        let scratch = ImportScratch()
        try Self.expectFlat(10_000, 40_000, "keys (two rows each)") { try Self.skipPeak(keys: $0, in: scratch) }
    }
}
