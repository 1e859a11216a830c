import Foundation
import ManagedStore
import SeedImport
import Testing

/// A join file filling a many-to-many relationship that is its own inverse (`P.friends`): each pair
/// links both people, whichever way round the file lists it, through the bulk path (`linkSaved`) and,
/// with a count rule, through the context (found in a user trial: b's friends stayed empty).
@Suite("Import: a self-inverse many-to-many from a join file")
struct ImportSelfInverseJoinTests {
    static func model(maxCount: Int?) -> String {
        """
        {"entities":[{"name":"P","attributes":[{"name":"pid","type":"String","optional":false}],
         "relationships":[{"name":"friends","destination":"P","inverse":"friends","toMany":true\(maxCount.map { ",\"maxCount\":\($0)" } ?? "")}]}]}
        """
    }

    static let mapping = """
        {"format":1,"model":"m.json","files":[{"path":"p.csv","targets":[{"entity":"P","key":"pid"}]},
         {"path":"fr.csv","join":{"entity":"P","relationship":"friends","sourceColumn":"x","sourceKey":"pid",
          "destinationColumn":"y","destinationKey":"pid"}}]}
        """

    /// Imports `people` and `pairs` (CSV text) and returns the summary, the join table's rows as
    /// "source>destination" pids, and each person's friends as read back by a context.
    static func run(people: String, pairs: String, maxCount: Int?, batchSize: Int)
        throws -> (summary: ImportSummary, rows: [String], friends: [String: [String]]) {
        let scratch = ImportScratch()
        try scratch.write("m.json", model(maxCount: maxCount))
        try scratch.write("p.csv", people)
        try scratch.write("fr.csv", pairs)
        let mapping = try ImportMapping(json: Data(mapping.utf8), baseDirectory: scratch.url.path)
        let store = scratch.path("s.sqlite")
        let summary = try SeedImporter(model: try mapping.loadModel(), mapping: mapping, options: ImportOptions(batchSize: batchSize)).run(into: store)
        let rows = try StoreReader.open(store).connection.rows("""
            SELECT s.ZPID || '>' || d.ZPID FROM Z_1FRIENDS j JOIN ZP s ON s.Z_PK = j.Z_1FRIENDS JOIN ZP d ON d.Z_PK = j.Z_1FRIENDS1 ORDER BY 1
            """).map { $0[0].string! }
        let (context, objects) = try StoreReader.objects(store, "P")
        defer { withExtendedLifetime(context) {} }
        var friends: [String: [String]] = [:]
        for person in objects {
            friends[person.get("pid")!] = try person.objects(forKey: "friends").map { $0.get("pid", as: String.self)! }.sorted()
        }
        return (summary, rows, friends)
    }

    @Test("each pair is stored both ways round once, and reads from either side",
          arguments: [nil, 10] as [Int?], [1, 10_000])
    func bothWays(maxCount: Int?, batchSize: Int) throws {
        let (summary, rows, friends) = try Self.run(people: "pid\na\nb\nc\nd\n", pairs: "x,y\na,b\nb,a\nc,c\nb,c\n",
                                                    maxCount: maxCount, batchSize: batchSize)
        #expect(rows == ["a>b", "b>a", "b>c", "c>b", "c>c"])
        #expect(friends == ["a": ["b"], "b": ["a", "c"], "c": ["b", "c"], "d": []])
        let join = try #require(summary.files.first { $0.path.hasSuffix("fr.csv") })
        #expect(join.rowsImported == 4)
        #expect(join.joins == 3, "(b, a) repeats (a, b): \(summary)")
    }

    @Test("a person whose row repeats (an upsert) keeps the friends the join file gives them",
          arguments: [nil, 10] as [Int?], [1, 10_000])
    func upsertedPerson(maxCount: Int?, batchSize: Int) throws {
        let (_, rows, friends) = try Self.run(people: "pid\na\nb\na\n", pairs: "x,y\nb,a\n", maxCount: maxCount, batchSize: batchSize)
        #expect(rows == ["a>b", "b>a"])
        #expect(friends == ["a": ["b"], "b": ["a"]])
    }
}
