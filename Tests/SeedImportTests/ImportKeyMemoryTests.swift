import Foundation
import ManagedStore
import PropertyBased
import SeedImport
import Testing

/// Key indexes past their memory budget move to a temporary file: the store comes out the same.
@Suite("Import: key indexes spilled to disk")
struct ImportKeyMemoryTests {
    /// Employee code → (name, manager code or ""), read back from the store.
    static func staff(_ scratch: ImportScratch) throws -> [String: [String]] {
        let (context, employees) = try StoreReader.objects(scratch.path("Staff.sqlite"), "Employee")
        defer { withExtendedLifetime(context) {} }
        var result: [String: [String]] = [:]
        for employee in employees {
            guard case .string(let code) = employee["code"], case .string(let name) = employee["name"] else { continue }
            var boss = ""
            if case .string(let manager)? = try employee.object(forKey: "manager")?["code"] { boss = manager }
            result[code] = [name, boss]
        }
        return result
    }

    /// Imports `csv` with `options` and returns the summary and what the store holds.
    static func run(_ csv: String, _ options: ImportOptions) throws -> (ImportSummary, [String: [String]], String) {
        let scratch = ImportScratch()
        var options = options
        let rejects = scratch.path("rejects.csv")
        options.rejectsPath = options.onError == .skip ? rejects : nil
        let summary = try ImportForwardReferenceTests.run(csv, options: options, in: scratch)
        let rejected = (try? String(contentsOfFile: rejects, encoding: .utf8)) ?? ""
        return (summary, try staff(scratch), rejected)
    }

    /// Up to 50 codes in up to twice as many rows: codes repeat (upserts); managers name earlier, later,
    /// repeated or missing codes. Returns the CSV and the number of codes.
    static func employees(_ random: inout Xoshiro) -> (csv: String, codes: Int) {
        let count = Int.random(in: 1...50, using: &random)
        var csv = "code,name,manager\n"
        for row in 0..<Int.random(in: count...(2 * count), using: &random) {
            let code = "E\(Int.random(in: 0..<count, using: &random))"
            let roll = Int.random(in: 0..<12, using: &random)
            let manager = roll == 0 ? "" : roll == 1 ? "X\(row)" : "E\(Int.random(in: 0..<count, using: &random))"
            csv += "\(code),Name \(row),\(manager)\n"
        }
        return (csv, count)
    }

    /// Skip mode with a random batch size (1 to 9), reading ahead or not.
    static func skipping(_ random: inout Xoshiro) -> ImportOptions {
        var options = ImportOptions()
        options.batchSize = Int.random(in: 1...9, using: &random)
        options.readsAhead = Bool.random(using: &random)
        options.onError = .skip
        return options
    }

    /// Expects two runs of `run(_:_:)` to give the same store, counts, duplicates and rejects.
    static func expectSame(_ a: (ImportSummary, [String: [String]], String), _ b: (ImportSummary, [String: [String]], String),
                           _ context: String) {
        #expect(a.1 == b.1, "\(context)")
        #expect(a.0.rejects == b.0.rejects, "\(context)")
        #expect(a.0.objects.mapValues { [$0.inserted, $0.updated, $0.stored] } == b.0.objects.mapValues { [$0.inserted, $0.updated, $0.stored] }, "\(context)")
        #expect(a.0.duplicates.map(\.lines) == b.0.duplicates.map(\.lines), "\(context)")
        #expect(a.2 == b.2, "the same rejects, lines and reasons: \(context)")
    }

    @Test("property: upserts, duplicates, forward and missing keys give the same store in memory and on disk",
          arguments: 1...16)
    func sameStore(seed: Int) throws {
        // The same cases every run; full-width seed words, as small ones make the first draws small too.
        var random = Xoshiro(seed: (UInt64(seed) &* 0x9E37_79B9_7F4A_7C15, 0xD1B5_4A32_D192_ED03, 0xABCD_EF01_2345_6789, 0x0123_4567_89AB_CDEF))
        let (csv, count) = Self.employees(&random)
        var options = Self.skipping(&random)
        let inMemory = try Self.run(csv, options)
        #expect(inMemory.1.count > 1 || count == 1)
        // Spilled from the first key, and part-way through (a budget that a few dozen keys outgrow); keys
        // confirmed by reading them back from the objects (no key bytes kept), in memory and spilled.
        for (budget, threshold) in [(1, 32_768), (2_048, 32_768), (ImportOptions.defaultKeyIndexMemoryBytes, 1),
                                    (ImportOptions.defaultKeyIndexMemoryBytes, 7), (2_048, 1)] {
            options.keyIndexMemoryBytes = budget
            options.keyBytesThreshold = threshold
            Self.expectSame(try Self.run(csv, options), inMemory,
                            "seed \(seed), budget \(budget), threshold \(threshold), batch size \(options.batchSize)")
        }
    }

    /// Forward keys waiting for the end of the file move to a temporary file past a limit: skip mode sets
    /// them from there in one pass when every key came, and otherwise reads them back for the passes that
    /// reject rows. Either way the store and the rejects are those of keys kept in memory.
    @Test("property: skip mode gives the same store and rejects with forward keys moved to a temporary file",
          arguments: 1...24)
    func sameStoreForwardOnDisk(seed: Int) throws {
        var random = Xoshiro(seed: (UInt64(seed) &* 0xA24B_AED4_963E_E407, 0x9FB2_1C65_1E98_DF25, 0x0123_4567_89AB_CDEF, 0xD1B5_4A32_D192_ED03))
        let (csv, _) = Self.employees(&random)
        var options = Self.skipping(&random)
        options.keyIndexMemoryBytes = Bool.random(using: &random) ? 1 : ImportOptions.defaultKeyIndexMemoryBytes
        let inMemory = try Self.run(csv, options)
        for limit in [0, 1, 3] {
            options.forwardKeyLimit = limit
            Self.expectSame(try Self.run(csv, options), inMemory,
                            "seed \(seed), forward limit \(limit), batch size \(options.batchSize):\n\(csv)")
        }
    }

    /// Line 2 makes Emp E1 and Badge B1, whose owner X9 never comes: the row is rejected once the file
    /// has been read, and E1 stays for line 3, which updated it, as if line 3 had made it (line 3's row
    /// comes back from disk for that). Line 3's owner Y9 never comes either, so E1 goes with it, and
    /// line 5, naming E1, is decided again without them. The same whether the keys stay in memory or not.
    @Test("rows rejected late with an object kept for a later row give the same result from disk", arguments: [nil, 0, 1])
    func heirOnDisk(limit: Int?) throws {
        let scratch = ImportScratch()
        try scratch.write("m.json", #"{"entities":[{"name":"Emp","attributes":[{"name":"code","type":"String","optional":false}],"relationships":[{"name":"mgr","destination":"Emp","inverse":"reports"},{"name":"reports","destination":"Emp","inverse":"mgr","toMany":true},{"name":"badges","destination":"Badge","inverse":"owner","toMany":true}]},{"name":"Badge","attributes":[{"name":"code","type":"String","optional":false}],"relationships":[{"name":"owner","destination":"Emp","inverse":"badges"}]}]}"#)
        try scratch.write("people.csv", "code,mgr,badge,owner\nE1,,B1,X9\nE1,,B2,Y9\nE5,,B3,\nE6,E1,B4,\n")
        let mapping = try ImportMapping(json: Data(#"{"format": 1, "model": "m.json", "files": [{"path": "people.csv", "targets": [{"entity": "Emp", "key": "code", "relationships": {"mgr": {"column": "mgr", "destinationKey": "code"}}}, {"entity": "Badge", "key": "code", "columns": {"code": "badge"}, "relationships": {"owner": {"column": "owner", "destinationKey": "code"}}}]}]}"#.utf8),
                                        baseDirectory: scratch.url.path)
        var options = scratch.skipping(batchSize: 1)
        if let limit { options.forwardKeyLimit = limit }
        let summary = try SeedImporter(model: try mapping.loadModel(), mapping: mapping, options: options).run(into: scratch.path("s.sqlite"))
        #expect(summary.rejects == 3)
        #expect(try ImportRerunTests.rejectedLines(scratch.path("rejects.csv")) == ["people.csv:2", "people.csv:3", "people.csv:5"])
        #expect(try StoreReader.scalar(scratch.path("s.sqlite"), "SELECT group_concat(ZCODE, ' ') FROM ZEMP") == .text("E5"))
        #expect(try StoreReader.scalar(scratch.path("s.sqlite"), "SELECT group_concat(ZCODE, ' ') FROM ZBADGE") == .text("B3"))
        #expect(summary.warnings.contains { $0.contains("the import ran 2 times") }, "\(summary.warnings)")
    }

    @Test("the summary says which keys moved to disk and how to keep them in memory")
    func warning() throws {
        var options = ImportOptions()
        options.keyIndexMemoryBytes = 1
        let (summary, staff, _) = try Self.run("code,name,manager\nA,Ann,B\nB,Bob,\n", options)
        #expect(staff == ["A": ["Ann", "B"], "B": ["Bob", ""]])
        #expect(summary.warnings.contains { $0.contains("Employee.code") && $0.contains("--key-memory") })
        let (quiet, _, _) = try Self.run("code,name,manager\nA,Ann,B\nB,Bob,\n", ImportOptions())
        #expect(!quiet.warnings.contains { $0.contains("--key-memory") }, "the default budget holds two keys")
    }

    /// E0 names E1 as its manager, E1 names E2, …, each a forward key; E150 names a code no row has. The
    /// chain is settled from its break back to E0, one link a pass, across batch saves, with key bytes kept
    /// in memory, dropped (confirmed by reading the store), or moved to disk: rows E0…E150 are rejected,
    /// each naming the next, and E151…E299 stand, linked.
    @Test("a chain of forward keys broken in the middle is rejected back to its start in every key index mode",
          arguments: [(32_768, ImportOptions.defaultKeyIndexMemoryBytes), (1, ImportOptions.defaultKeyIndexMemoryBytes), (1, 1)])
    func brokenChain(threshold: Int, budget: Int) throws {
        var csv = "code,name,manager\n"
        for i in 0..<300 { csv += "E\(i),Name \(i),\(i == 150 ? "NOPE" : i == 299 ? "" : "E\(i + 1)")\n" }
        var options = ImportOptions(batchSize: 7)
        options.onError = .skip
        options.keyBytesThreshold = threshold
        options.keyIndexMemoryBytes = budget
        let (summary, staff, rejected) = try Self.run(csv, options)
        #expect(summary.rejects == 151)
        let standing = staff.keys.sorted { Int($0.dropFirst())! < Int($1.dropFirst())! }
        #expect(standing == (151..<300).map { "E\($0)" })
        #expect(staff["E151"] == ["Name 151", "E152"] && staff["E299"] == ["Name 299", ""])
        let lines = rejected.split(separator: "\n").dropFirst()
        let rejectedLines = Set(lines.map { Int($0.split(separator: ",")[1])! })
        #expect(rejectedLines == Set(2...152))
        let lastLink = lines.first { $0.split(separator: ",")[1] == "152" }.map(String.init) ?? ""
        #expect(lastLink.contains("NOPE"), "\(lastLink)")
        let firstLink = lines.first { $0.split(separator: ",")[1] == "2" }.map(String.init) ?? ""
        #expect(firstLink.contains("E1"), "\(firstLink)")
    }
}

/// Whole generated data sets (relationship columns, the one-to-one split, a many-to-many join file)
/// come out byte for byte the same whether key indexes keep their bytes, read keys back, or move to disk
/// at every save.
@Suite("Import: key index modes on the generated data sets")
struct ImportKeyModesTests {
    /// Every table's rows, in primary-key order, as text.
    static func dump(_ path: String) throws -> [String: [String]] { try StoreReader.tables(path) }

    @Test("wells and banks: the same store in every key index mode", arguments: [DataSetKind.wells, .banks])
    func sameStore(kind: DataSetKind) throws {
        let scratch = ImportScratch()
        let data = try DataSetGenerator.generate(kind, rows: 1_200, into: scratch.url.appendingPathComponent("data"))
        let mapping = try ImportMapping(contentsOf: data.mappingFile.url.path)
        let model = try mapping.loadModel()
        var dumps: [[String: [String]]] = []
        for (budget, threshold) in [(ImportOptions.defaultKeyIndexMemoryBytes, 32_768), (ImportOptions.defaultKeyIndexMemoryBytes, 1),
                                    (1, 32_768), (1, 1), (40_000, 64)] {
            var options = ImportOptions(batchSize: 97)
            options.keyIndexMemoryBytes = budget
            options.keyBytesThreshold = threshold
            let store = scratch.path("S-\(budget)-\(threshold).sqlite")
            let summary = try SeedImporter(model: model, mapping: mapping, options: options).run(into: store)
            #expect(summary.rejects == 0)
            #expect(summary.warnings.contains { $0.contains("key memory") } == (budget < ImportOptions.defaultKeyIndexMemoryBytes),
                    "budget \(budget): \(summary.warnings)")
            dumps.append(try Self.dump(store))
        }
        #expect(dumps[0].values.reduce(0) { $0 + $1.count } > 2_400)
        for (i, dump) in dumps.enumerated().dropFirst() { #expect(dump == dumps[0], "mode \(i)") }
    }
}
