import Foundation
import ManagedStore
@testable import SeedImport
import Testing

/// Ordered one-to-many relationships filled from the to-one side's key column (a song's `playlist`):
/// Core Data reads the members' order from `Z_FOK_` alone, so every member needs a position, in the
/// order of the rows that made them, whatever the batch size.
@Suite("Import: ordered to-manys filled from a relationship column")
struct ImportOrderedToManyTests {
    static let model = """
        {"entities":[
         {"name":"Playlist","attributes":[{"name":"pid","type":"String","optional":false}],
          "relationships":[{"name":"songs","destination":"Song","inverse":"playlist","toMany":true,"ordered":true,"deleteRule":"Cascade"}]},
         {"name":"Song","attributes":[{"name":"title","type":"String","optional":false}],
          "relationships":[{"name":"playlist","destination":"Playlist","inverse":"songs","toMany":false,"deleteRule":"Nullify"}]},
         {"name":"Node","attributes":[{"name":"k","type":"String","optional":false}],
          "relationships":[{"name":"parent","destination":"Node","inverse":"children","toMany":false,"deleteRule":"Nullify"},
                           {"name":"children","destination":"Node","inverse":"parent","toMany":true,"ordered":true,"deleteRule":"Nullify"}]}
        ]}
        """
    static let mapping = """
        {"format":1,"files":[
         {"path":"p.csv","targets":[{"entity":"Playlist","key":"pid"}]},
         {"path":"s.csv","targets":[{"entity":"Song","key":"title","relationships":{"playlist":{"column":"playlist","destinationKey":"pid"}}}]},
         {"path":"n.csv","targets":[{"entity":"Node","key":"k","relationships":{"parent":{"column":"parent","destinationKey":"k"}}}]}
        ]}
        """

    /// Each owner's members by position as stored, and as the engine reads the relationship.
    static func run(batchSize: Int, readsAhead: Bool) throws -> (stored: [String: [String]], read: [String: [String]], nulls: Int) {
        let scratch = ImportScratch()
        try scratch.write("p.csv", "pid\nmix\nrock\nempty\n")
        try scratch.write("s.csv", "title,playlist\nzebra,mix\napple,rock\nmango,mix\nbanana,mix\ncherry,rock\nsolo,\n")
        // Children before their parent (forward keys), and a chain.
        try scratch.write("n.csv", "k,parent\nc2,root\nc1,root\nroot,\nc3,root\ng1,c1\ng2,c1\n")
        var options = ImportOptions(batchSize: batchSize)
        options.readsAhead = readsAhead
        let mapping = try ImportMapping(json: Data(Self.mapping.utf8), baseDirectory: scratch.url.path)
        _ = try SeedImporter(model: try ObjectModel(json: Data(Self.model.utf8)), mapping: mapping, options: options)
            .run(into: scratch.path("o.sqlite"))
        let store = try StoreReader.open(scratch.path("o.sqlite"))
        var stored: [String: [String]] = [:]
        for row in try store.connection.rows("SELECT p.ZPID, s.ZTITLE FROM ZSONG s JOIN ZPLAYLIST p ON s.ZPLAYLIST = p.Z_PK ORDER BY p.ZPID, s.Z_FOK_PLAYLIST") {
            stored[row[0].string!, default: []].append(row[1].string!)
        }
        for row in try store.connection.rows("SELECT p.ZK, c.ZK FROM ZNODE c JOIN ZNODE p ON c.ZPARENT = p.Z_PK ORDER BY p.ZK, c.Z_FOK_PARENT") {
            stored[row[0].string!, default: []].append(row[1].string!)
        }
        let nulls = try store.connection.scalar("SELECT (SELECT count(*) FROM ZSONG WHERE ZPLAYLIST IS NOT NULL AND Z_FOK_PLAYLIST IS NULL) + (SELECT count(*) FROM ZNODE WHERE ZPARENT IS NOT NULL AND Z_FOK_PARENT IS NULL)")?.int64 ?? -1
        let context = ManagedObjectContext(store: store)
        var read: [String: [String]] = [:]
        for playlist in try context.fetchAll("Playlist") where try !playlist.objects(forKey: "songs").isEmpty {
            read[playlist["pid"].description] = try playlist.objects(forKey: "songs").map { $0["title"].description }
        }
        for node in try context.fetchAll("Node") where try !node.objects(forKey: "children").isEmpty {
            read[node["k"].description] = try node.objects(forKey: "children").map { $0["k"].description }
        }
        return (stored, read, Int(nulls))
    }

    @Test("every member gets a position, in file order, at every batch size", arguments: [1, 2, 3, 10_000], [false, true])
    func positionsInFileOrder(batchSize: Int, readsAhead: Bool) throws {
        let (stored, read, nulls) = try Self.run(batchSize: batchSize, readsAhead: readsAhead)
        #expect(nulls == 0, "members without a position")
        let expected = ["mix": ["zebra", "mango", "banana"], "rock": ["apple", "cherry"], "root": ["c2", "c1", "c3"], "c1": ["g1", "g2"]]
        #expect(stored == expected, "by Z_FOK_ (what Core Data reads)")
        #expect(read == expected, "through the engine")
    }
}
