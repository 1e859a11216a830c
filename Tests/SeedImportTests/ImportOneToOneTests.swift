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
        // B names D further down; E names Z, which never comes: E is removed, and A (E's partner's
        // holder) loses it.
        let (summary, pairs) = try Self.run("code,partner\nA,\nB,D\nC,A\nE,Z\nF,E\nD,\n", batchSize: batchSize, skip: true)
        #expect(summary.rejects == 1)
        #expect(pairs["B"] == ["D", ""] && pairs["D"] == ["", "B"], "\(pairs)")
        #expect(pairs["F"] == ["", ""], "F's partner E was removed: \(pairs)")
        #expect(pairs["E"] == nil)
    }
}
