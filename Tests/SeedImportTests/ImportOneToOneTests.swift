import Foundation
import ManagedStore
import SeedImport
import Testing

/// A one-to-one relationship filled from a key column keeps both sides in step, as Core Data's
/// context does: the destination points back, and a destination's former partner lets go (found by
/// fuzzing: the inverse stayed empty, so removing a row in skip mode left dangling keys).
@Suite("Import: one-to-one relationships from key columns")
struct ImportOneToOneTests {
    static let model = """
        {"entities":[{"name":"Emp","attributes":[{"name":"code","type":"String","optional":false}],
         "relationships":[{"name":"partner","destination":"Emp","inverse":"partnerOf","deleteRule":"Nullify"},
                          {"name":"partnerOf","destination":"Emp","inverse":"partner","deleteRule":"Nullify"}]}]}
        """

    static let mapping = """
        {"format": 1, "model": "m.json", "files": [{"path": "e.csv", "targets": [
          {"entity": "Emp", "key": "code", "relationships": {"partner": {"column": "partner", "destinationKey": "code"}}}]}]}
        """

    /// Code → [partner, partnerOf] codes ("" for none), read with SQL.
    static func pairs(_ path: String) throws -> [String: [String]] {
        let store = try StoreReader.open(path)
        var result: [String: [String]] = [:]
        for row in try store.connection.rows("""
            SELECT e.ZCODE, coalesce(p.ZCODE, ''), coalesce(q.ZCODE, '') FROM ZEMP e
            LEFT JOIN ZEMP p ON e.ZPARTNER = p.Z_PK LEFT JOIN ZEMP q ON e.ZPARTNEROF = q.Z_PK
            """) {
            guard case .text(let code) = row[0], case .text(let partner) = row[1], case .text(let of) = row[2] else { continue }
            result[code] = [partner, of]
        }
        let dangling = try store.connection.scalar("""
            SELECT count(*) FROM ZEMP e WHERE (e.ZPARTNER IS NOT NULL AND e.ZPARTNER NOT IN (SELECT Z_PK FROM ZEMP))
               OR (e.ZPARTNEROF IS NOT NULL AND e.ZPARTNEROF NOT IN (SELECT Z_PK FROM ZEMP))
            """)
        #expect(dangling == .integer(0), "no key points at a row that is gone")
        return result
    }

    static func run(_ csv: String, batchSize: Int, skip: Bool = false) throws -> (ImportSummary, [String: [String]]) {
        let scratch = ImportScratch()
        try scratch.write("m.json", model)
        try scratch.write("e.csv", csv)
        let mapping = try ImportMapping(json: Data(mapping.utf8), baseDirectory: scratch.url.path)
        var options = ImportOptions(batchSize: batchSize)
        if skip {
            options.onError = .skip
            options.rejectsPath = scratch.path("rejects.csv")
        }
        let summary = try SeedImporter(model: try mapping.loadModel(), mapping: mapping, options: options).run(into: scratch.path("s.sqlite"))
        return (summary, try pairs(scratch.path("s.sqlite")))
    }

    @Test("both sides are set; a later row that takes the partner leaves the earlier one without", arguments: [1, 2, 10_000])
    func stealing(batchSize: Int) throws {
        let (_, pairs) = try Self.run("code,partner\nA,\nB,A\nC,A\nD,C\n", batchSize: batchSize)
        #expect(pairs == ["A": ["", "C"], "B": ["", ""], "C": ["A", "D"], "D": ["C", ""]], "batch size \(batchSize)")
    }

    @Test("an upsert that changes or clears the partner updates both sides", arguments: [1, 10_000])
    func upsert(batchSize: Int) throws {
        let (_, pairs) = try Self.run("code,partner\nA,\nB,\nC,A\nC,B\nA,\nD,B\nD,\n", batchSize: batchSize)
        #expect(pairs == ["A": ["", ""], "B": ["", ""], "C": ["", ""], "D": ["", ""]], "batch size \(batchSize)")
    }

    @Test("forward references and a rejected row in skip mode leave no dangling key", arguments: [1, 2, 10_000])
    func forwardAndRejected(batchSize: Int) throws {
        // B names D further down; E names Z, which never comes: E is removed, and so is F, whose row
        // names E (kept, it would pass for imported without the partner its row holds).
        let (summary, pairs) = try Self.run("code,partner\nA,\nB,D\nC,A\nE,Z\nF,E\nD,\n", batchSize: batchSize, skip: true)
        #expect(summary.rejects == 2)
        #expect(pairs["B"] == ["D", ""] && pairs["D"] == ["", "B"], "\(pairs)")
        #expect(pairs["C"] == ["A", ""] && pairs["A"] == ["", "C"], "\(pairs)")
        #expect(pairs["F"] == nil, "F's row named E, which was rejected: \(pairs)")
        #expect(pairs["E"] == nil)
    }

    @Test("a required one-to-one: a row naming a destination another object holds is refused, with the holder")
    func requiredTaken() throws {
        let scratch = ImportScratch()
        try scratch.write("m.json", """
            {"entities":[
             {"name":"Desk","attributes":[{"name":"code","type":"String","optional":false}],
              "relationships":[{"name":"user","destination":"Emp","inverse":"desk"}]},
             {"name":"Emp","attributes":[{"name":"code","type":"String","optional":false}],
              "relationships":[{"name":"desk","destination":"Desk","inverse":"user","optional":false}]}]}
            """)
        try scratch.write("desk.csv", "code\nK1\nK2\n")
        try scratch.write("e.csv", "code,desk\nA,K1\nB,K1\nC,K2\nA,K1\n")
        let mapping = try ImportMapping(json: Data("""
            {"format": 1, "model": "m.json", "files": [
              {"path": "desk.csv", "targets": [{"entity": "Desk", "key": "code"}]},
              {"path": "e.csv", "targets": [{"entity": "Emp", "key": "code", "relationships": {"desk": {"column": "desk", "destinationKey": "code"}}}]}]}
            """.utf8), baseDirectory: scratch.url.path)
        let model = try mapping.loadModel()
        let error = try #require(throws: ImportError.self) {
            try SeedImporter(model: model, mapping: mapping, options: ImportOptions()).run(into: scratch.path("s.sqlite"))
        }
        #expect(error.line == 3 && error.description.contains("already the desk of another Emp (\"A\")"), "\(error)")
        var options = ImportOptions(batchSize: 1)
        options.onError = .skip
        options.rejectsPath = scratch.path("rejects.csv")
        let summary = try SeedImporter(model: model, mapping: mapping, options: options).run(into: scratch.path("s.sqlite"))
        #expect(summary.rejects == 1, "B's row; A's second row keeps its own desk")
        let store = try StoreReader.open(scratch.path("s.sqlite"))
        let rows = try store.connection.rows("SELECT e.ZCODE, d.ZCODE, u.ZCODE FROM ZEMP e JOIN ZDESK d ON e.ZDESK = d.Z_PK JOIN ZEMP u ON d.ZUSER = u.Z_PK ORDER BY e.ZCODE")
        #expect(rows.map { $0.map(\.description) } == [["'A'", "'K1'", "'A'"], ["'C'", "'K2'", "'C'"]])
    }
}

/// A one-to-one link between two targets of a row, when one object existed: its former partner lets go.
@Suite("Import: one-to-one links to an object that existed")
struct ImportOneToOneLinkTests {
    @Test("a summary updated by key gets a new detail (keyed otherwise): the old detail lets go", arguments: [1, 10_000])
    func relink(batchSize: Int) throws {
        let scratch = ImportScratch()
        try scratch.write("m.json", """
            {"entities":[
             {"name":"Summary","attributes":[{"name":"code","type":"String","optional":false}],
              "relationships":[{"name":"detail","destination":"Detail","inverse":"summary"}]},
             {"name":"Detail","attributes":[{"name":"ref","type":"String","optional":false}],
              "relationships":[{"name":"summary","destination":"Summary","inverse":"detail"}]}]}
            """)
        try scratch.write("rows.csv", "code,ref\nS1,D1\nS2,D2\nS1,D3\n")
        let mapping = try ImportMapping(json: Data("""
            {"format": 1, "model": "m.json", "files": [{"path": "rows.csv", "targets": [
              {"entity": "Summary", "key": "code"},
              {"entity": "Detail", "key": "ref", "link": {"relationship": "summary", "target": "Summary"}}]}]}
            """.utf8), baseDirectory: scratch.url.path)
        _ = try SeedImporter(model: try mapping.loadModel(), mapping: mapping, options: ImportOptions(batchSize: batchSize))
            .run(into: scratch.path("s.sqlite"))
        let store = try StoreReader.open(scratch.path("s.sqlite"))
        let details = try store.connection.rows("""
            SELECT d.ZREF, coalesce(s.ZCODE, ''), coalesce(b.ZREF, '') FROM ZDETAIL d
            LEFT JOIN ZSUMMARY s ON d.ZSUMMARY = s.Z_PK LEFT JOIN ZDETAIL b ON s.ZDETAIL = b.Z_PK ORDER BY d.ZREF
            """).map { $0.map(\.description) }
        // D1 lost S1 to D3; every summary points back at the detail that points at it.
        #expect(details == [["'D1'", "''", "''"], ["'D2'", "'S2'", "'D2'"], ["'D3'", "'S1'", "'D3'"]], "batch size \(batchSize)")
    }

    /// Info has no key of its own: it is found through its link. A fuzzer first found a repeated cert
    /// leaving the earlier Info without its required Details, then (kept, as a second Info) two Infos
    /// pointing at one Details that named only the second.
    @Test("a link target without a key: a repeated key updates the object linked to the updated one (found by fuzzing)",
          arguments: [true, false])
    func requiredLinkKeepsEarlierPartner(optional: Bool) throws {
        let scratch = ImportScratch()
        try scratch.write("m.json", """
            {"entities":[
             {"name":"Details","attributes":[{"name":"cert","type":"String","optional":false}],
              "relationships":[{"name":"info","destination":"Info","inverse":"details"}]},
             {"name":"Info","attributes":[{"name":"name","type":"String"}],
              "relationships":[{"name":"details","destination":"Details","inverse":"info","optional":\(optional)}]}]}
            """)
        try scratch.write("banks.csv", "cert,name\nC1,First\nC2,Second\nC1,First again\n")
        let mapping = try ImportMapping(json: Data("""
            {"format": 1, "model": "m.json", "files": [{"path": "banks.csv", "targets": [
              {"entity": "Details", "key": "cert"},
              {"entity": "Info", "link": {"relationship": "details", "target": "Details"}}]}]}
            """.utf8), baseDirectory: scratch.url.path)
        let summary = try SeedImporter(model: try mapping.loadModel(), mapping: mapping, options: ImportOptions(batchSize: 1))
            .run(into: scratch.path("s.sqlite"))
        #expect(summary.objects["Info"]?.stored == 2 && summary.objects["Details"]?.stored == 2)
        #expect(summary.objects["Info"].map { [$0.inserted, $0.updated] } == [2, 1])
        let store = scratch.path("s.sqlite")
        #expect(try StoreReader.scalar(store, "SELECT group_concat(d.ZCERT || ':' || i.ZNAME, ' ') FROM ZDETAILS d JOIN ZINFO i ON d.ZINFO = i.Z_PK AND i.ZDETAILS = d.Z_PK ORDER BY d.ZCERT")
                == .text("C1:First again C2:Second"), "both sides point at each other")
        #expect(summary.duplicates.map(\.entity) == ["Details"], "the repeat is reported once, by its key")
    }

    /// A fuzzer found the keyed Info moved to the second shelf by its foreign key alone: the first shelf
    /// still named it. The shelf that lets go has an optional side, so the move goes through the context.
    @Test("a keyed link target taken by a later row leaves its former partner, when that side is optional",
          arguments: [1, 10_000])
    func keyedLinkTargetMoves(batchSize: Int) throws {
        let scratch = ImportScratch()
        try scratch.write("m.json", """
            {"entities":[
             {"name":"Shelf","attributes":[{"name":"code","type":"String","optional":false}],
              "relationships":[{"name":"info","destination":"Info","inverse":"host"}]},
             {"name":"Info","attributes":[{"name":"lcode","type":"String","optional":false}],
              "relationships":[{"name":"host","destination":"Shelf","inverse":"info","optional":false}]}]}
            """)
        try scratch.write("s.csv", "code,lcode\nS2,L2\nS3,L2\n")
        let mapping = try ImportMapping(json: Data("""
            {"format": 1, "model": "m.json", "files": [{"path": "s.csv", "targets": [
              {"entity": "Shelf", "key": "code"},
              {"entity": "Info", "key": "lcode", "link": {"relationship": "host", "target": "Shelf"}}]}]}
            """.utf8), baseDirectory: scratch.url.path)
        _ = try SeedImporter(model: try mapping.loadModel(), mapping: mapping, options: ImportOptions(batchSize: batchSize))
            .run(into: scratch.path("s.sqlite"))
        let store = try StoreReader.open(scratch.path("s.sqlite"))
        let rows = try store.connection.rows("""
            SELECT s.ZCODE, coalesce(i.ZLCODE, ''), coalesce(h.ZCODE, '') FROM ZSHELF s
            LEFT JOIN ZINFO i ON s.ZINFO = i.Z_PK LEFT JOIN ZSHELF h ON i.ZHOST = h.Z_PK ORDER BY s.ZCODE
            """).map { $0.map(\.description) }
        #expect(rows == [["'S2'", "''", "''"], ["'S3'", "'L2'", "'S3'"]], "batch size \(batchSize): \(rows)")
    }
}
