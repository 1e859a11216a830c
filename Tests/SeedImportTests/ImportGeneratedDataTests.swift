import CSVStream
import Foundation
import ManagedStore
import SeedImport
import Testing

/// The generated data sets end to end: wells with operators and the one-to-one split, banks with a
/// many-to-many join file; and what a finished seed store looks like.
@Suite("Import: generated data sets")
struct ImportGeneratedDataTests {
    @Test("wells: operators related, Well, and WellSummary + WellDetail joined both ways")
    func wells() throws {
        let scratch = ImportScratch()
        let data = try DataSetGenerator.generate(.wells, rows: 1_500, into: scratch.url.appendingPathComponent("data"))
        let mapping = try ImportMapping(contentsOf: data.mappingFile.url.path)
        var options = ImportOptions()
        options.batchSize = 400
        let store = scratch.path("Wells.sqlite")
        let summary = try SeedImporter(model: try mapping.loadModel(), mapping: mapping, options: options).run(into: store)
        let operators = try #require(data.files.first { $0.name == "operators.csv" }?.rows)
        #expect(summary.objects["Operator"]?.stored == operators)
        for entity in ["Well", "WellSummary", "WellDetail"] { #expect(summary.objects[entity]?.stored == 1_500, "\(entity)") }
        #expect(summary.rejects == 0 && summary.duplicates.isEmpty)
        // wells.csv is mapped twice; the summary tells the passes apart.
        #expect(summary.description.contains("wells.csv → Well: 1,500 rows read, 1,500 imported"))
        #expect(summary.description.contains("wells.csv → WellSummary + WellDetail: 1,500 rows read"))

        func count(_ sql: String) throws -> Int64? { try StoreReader.scalar(store, sql)?.int64 }
        #expect(try count("SELECT count(*) FROM ZWELL w JOIN ZOPERATOR o ON w.ZOPERATOR = o.Z_PK AND o.ZOPERATOR_ID = w.ZOPERATOR_ID") == 1_500)
        #expect(try count("SELECT count(*) FROM ZWELLDETAIL d JOIN ZOPERATOR o ON d.ZOPERATOR = o.Z_PK AND o.ZOPERATOR_ID = d.ZOPERATOR_ID") == 1_500)
        #expect(try count("""
            SELECT count(*) FROM ZWELLSUMMARY s JOIN ZWELLDETAIL d ON s.ZDETAILS = d.Z_PK AND d.ZSUMMARY = s.Z_PK AND s.ZUWI = d.ZUWI
            """) == 1_500)

        // Values as the CSV has them.
        let rows = try CSVReader(path: data.primaryFile.url.path).readAll()
        let header = try CSVReader(path: data.primaryFile.url.path).header ?? []
        let first = rows[0]
        func column(_ name: String) -> String { first[header.firstIndex(of: name)!] }
        let (context, wells) = try StoreReader.objects(store, "Well")
        let well = try #require(wells.first { $0["uwi"] == .string(column("uwi")) })
        #expect(well["licence_number"] == .string(column("licence_number")), "leading zeros kept")
        #expect(column("licence_number").hasPrefix("0") || wells.contains { if case .string(let l) = $0["licence_number"] { l.hasPrefix("0") } else { false } })
        #expect(well["directional_flag"] == .bool(column("directional_flag") == "Y"))
        #expect(well["surface_latitude"] == .double(Double(column("surface_latitude"))!))
        let spud = column("spud_date").split(separator: "-").map { Int($0)! }
        #expect(well["spud_date"] == .date(Date.utc(spud[0], spud[1], spud[2])))
        #expect(try well.object(forKey: "operator")?["operator_id"] == .integer(Int64(column("operator_id"))!))
        withExtendedLifetime(context) {}
    }

    @Test("a finished seed store: indexes built, ANALYZE run, one file, nothing left over")
    func finishedStore() throws {
        let scratch = ImportScratch()
        let data = try DataSetGenerator.generate(.wells, rows: 300, into: scratch.url.appendingPathComponent("data"))
        let mapping = try ImportMapping(contentsOf: data.mappingFile.url.path)
        let model = try mapping.loadModel()
        let store = scratch.path("Wells.sqlite")
        var options = ImportOptions()
        options.vacuum = true
        _ = try SeedImporter(model: model, mapping: mapping, options: options).run(into: store)
        #expect(scratch.files == ["Wells.sqlite", "data"], "no -journal, -wal, -shm or temporary file")

        let opened = try PersistentStore(path: store)
        #expect(opened.modelSource == .stored)
        #expect(try opened.count(of: model.entity(named: "WellSummary")!) == 300)
        let indexes = try opened.connection.rows("SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE 'Z%INDEX'")
            .compactMap { $0.first?.string }
        let expected = opened.indexStatements().map { String($0.split(separator: " ")[5]) }
        #expect(Set(indexes) == Set(expected))
        #expect(indexes.contains("ZWELL_ZUWI_INDEX") && indexes.contains("ZWELLDETAIL_ZSUMMARY_INDEX"))
        #expect(try opened.connection.scalar("SELECT count(*) FROM sqlite_stat1")?.int64 ?? 0 > 0, "ANALYZE ran")
        #expect(try opened.connection.scalar("PRAGMA journal_mode") == .text("delete"))
        #expect(try opened.connection.scalar("PRAGMA integrity_check") == .text("ok"))
    }

    @Test("banks: Windows-1252, the one-to-one link, defaults, and many-to-many tags from the join file")
    func banks() throws {
        let scratch = ImportScratch()
        let data = try DataSetGenerator.generate(.banks, into: scratch.url.appendingPathComponent("data"))
        let mapping = try ImportMapping(contentsOf: data.mappingFile.url.path)
        let store = scratch.path("Banks.sqlite")
        let summary = try SeedImporter(model: try mapping.loadModel(), mapping: mapping).run(into: store)
        #expect(summary.objects["FailedBankDetails"]?.stored == 567)
        #expect(summary.objects["FailedBankInfo"]?.stored == 567)
        #expect(summary.objects["Tag"]?.stored == 8)
        let pairs = Set(try CSVReader(path: data.directory.appendingPathComponent("bank_tags.csv").path).readAll().map { $0.fields })
        let join = try #require(summary.files.first { $0.path == "bank_tags.csv" })
        #expect(join.joins == join.rowsRead)
        #expect(try StoreReader.scalar(store, "SELECT count(*) FROM Z_1TAGS")?.int64 == Int64(pairs.count))

        let (context, details) = try StoreReader.objects(store, "FailedBankDetails")
        let first = try #require(details.first { $0["cert"] == .integer(14396) })
        #expect(first["zip"] == .integer(0), "no column: the model's default")
        #expect(first["updateDate"] == .null)
        let tags = Set(try first.objects(forKey: "tags").compactMap { object -> String? in
            if case .string(let name) = object["name"] { return name } else { return nil }
        })
        #expect(tags == Set(pairs.filter { $0[0] == "14396" }.map { $0[1] }))
        let tag = try #require(try first.objects(forKey: "tags").first)
        #expect(try tag.objects(forKey: "bankdetails").contains(first), "the inverse side reads back")
        #expect(try first.object(forKey: "info")?["name"] != nil)
        #expect(details.contains { $0["acquirer"] == .string("Pioneer\u{2013}Riverside Bank & Trust") })
        withExtendedLifetime(context) {}
    }
}
