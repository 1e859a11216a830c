import Foundation
import ManagedStore
@testable import SeedImport
import Testing

/// Join files take one of two paths: an unordered many-to-many without count rules goes straight to the
/// join table in batches; an ordered one, or one with count rules, goes through the context, which
/// numbers positions and validates counts.
@Suite("Import: the two paths of join files")
struct ImportJoinPathsTests {
    static let model = """
        {"entities": [
          {"name": "Playlist", "attributes": [{"name": "name", "type": "String", "optional": false}],
           "relationships": [
             {"name": "genres", "destination": "Label", "inverse": "genrePlaylists", "toMany": true},
             {"name": "labels", "destination": "Label", "inverse": "playlists", "toMany": true, "ordered": true},
             {"name": "moods", "destination": "Label", "inverse": "moodPlaylists", "toMany": true, "maxCount": 2}]},
          {"name": "Label", "attributes": [{"name": "text", "type": "String", "optional": false}],
           "relationships": [
             {"name": "genrePlaylists", "destination": "Playlist", "inverse": "genres", "toMany": true},
             {"name": "playlists", "destination": "Playlist", "inverse": "labels", "toMany": true},
             {"name": "moodPlaylists", "destination": "Playlist", "inverse": "moods", "toMany": true}]}
        ]}
        """

    static func mapping(_ joins: [String]) -> String {
        let files = [
            #"{"path": "playlists.csv", "targets": [{"entity": "Playlist", "key": "name"}]}"#,
            #"{"path": "labels.csv", "targets": [{"entity": "Label", "key": "text"}]}"#,
        ] + joins.map { relationship in
            #"{"path": "\#(relationship)_pairs.csv", "join": {"entity": "Playlist", "relationship": "\#(relationship)", "sourceColumn": "playlist", "sourceKey": "name", "destinationColumn": "label", "destinationKey": "text"}}"#
        }
        return #"{"format": 1, "files": ["# + files.joined(separator: ",\n") + "]}"
    }

    /// Imports with batches of `batchSize` and returns each playlist's members of `relationship`, in
    /// the relationship's order (sorted for an unordered one).
    static func run(_ joins: [String: String], batchSize: Int, in scratch: ImportScratch) throws -> (ImportSummary, [String: [String: [String]]]) {
        try scratch.write("playlists.csv", "name\n" + (0..<6).map { "p\($0)\n" }.joined())
        try scratch.write("labels.csv", "text\n" + (0..<5).map { "l\($0)\n" }.joined())
        for (name, text) in joins { try scratch.write("\(name)_pairs.csv", "playlist,label\n" + text) }
        let model = try ObjectModel(json: Data(Self.model.utf8))
        let mapping = try ImportMapping(json: Data(Self.mapping(joins.keys.sorted()).utf8), baseDirectory: scratch.url.path)
        let summary = try SeedImporter(model: model, mapping: mapping, options: ImportOptions(batchSize: batchSize))
            .run(into: scratch.path("Music.sqlite"))
        let (context, playlists) = try StoreReader.objects(scratch.path("Music.sqlite"), "Playlist")
        defer { withExtendedLifetime(context) {} }
        var members: [String: [String: [String]]] = [:]
        for playlist in playlists {
            guard case .string(let name) = playlist["name"] else { continue }
            for relationship in joins.keys {
                let texts = try playlist.objects(forKey: relationship).compactMap { if case .string(let text) = $0["text"] { text } else { nil } }
                let ordered = relationship == "labels"
                members[relationship, default: [:]][name] = ordered ? texts : texts.sorted()
            }
        }
        return (summary, members)
    }

    @Test("unordered pairs in bulk and ordered ones through the context: the same pairs, positions in file order",
          arguments: [1, 3, 10_000])
    func bothPaths(batchSize: Int) throws {
        let scratch = ImportScratch()
        let context = ManagedObjectContext(store: try PersistentStore(path: scratch.path("probe.sqlite"), model: ObjectModel(json: Data(Self.model.utf8))))
        let playlist = try #require(context.store.model.entity(named: "Playlist"))
        #expect(context.canLinkSaved(by: "genres", of: playlist))
        #expect(!context.canLinkSaved(by: "labels", of: playlist))
        #expect(!context.canLinkSaved(by: "moods", of: playlist))

        // The same pairs in both files, shuffled, with one repeated.
        let pairs = "p3,l4\np0,l2\np3,l0\np5,l1\np0,l0\np3,l2\np0,l2\np1,l4\n"
        let (summary, members) = try Self.run(["genres": pairs, "labels": pairs], batchSize: batchSize, in: scratch)
        let expectedSorted = ["p0": ["l0", "l2"], "p1": ["l4"], "p2": [], "p3": ["l0", "l2", "l4"], "p4": [], "p5": ["l1"]]
        #expect(members["genres"] == expectedSorted)
        #expect(members["labels"] == ["p0": ["l2", "l0"], "p1": ["l4"], "p2": [], "p3": ["l4", "l0", "l2"], "p4": [], "p5": ["l1"]])
        for file in summary.files where file.relationship != nil {
            #expect(file.rowsImported == 8 && file.joins == 7, "\(file.path): \(file.rowsImported) rows, \(file.joins) pairs stored")
        }
    }

    @Test("a join file's source index moves to disk with its key bytes, says so, and links the same pairs")
    func sourceKeysOnDisk() throws {
        var outcomes: [(warnings: [String], tables: [String: [String]])] = []
        for budget in [ImportOptions.defaultKeyIndexMemoryBytes, 48 << 10] {
            let scratch = ImportScratch()
            try scratch.write("playlists.csv", "name\n" + (0..<3_000).map { "playlist number \($0)\n" }.joined())
            try scratch.write("labels.csv", "text\n" + (0..<5).map { "l\($0)\n" }.joined())
            try scratch.write("genres_pairs.csv", "playlist,label\n" + (0..<3_000).map { "playlist number \(($0 * 7) % 3_000),l\($0 % 5)\n" }.joined())
            var options = ImportOptions(batchSize: 500)
            options.keyIndexMemoryBytes = budget
            let mapping = try ImportMapping(json: Data(Self.mapping(["genres"]).utf8), baseDirectory: scratch.url.path)
            let summary = try SeedImporter(model: ObjectModel(json: Data(Self.model.utf8)), mapping: mapping, options: options)
                .run(into: scratch.path("Music.sqlite"))
            #expect(summary.files.last?.joins == 3_000)
            outcomes.append((summary.warnings, try StoreReader.tables(scratch.path("Music.sqlite"))))
        }
        #expect(outcomes[0].warnings.isEmpty)
        #expect(outcomes[1].warnings.contains { $0.contains("the keys of Playlist.name outgrew the key memory") }, "\(outcomes[1].warnings)")
        #expect(outcomes[0].tables == outcomes[1].tables)
    }

    @Test("a count rule is still enforced: the context path validates it")
    func countRule() throws {
        let scratch = ImportScratch()
        #expect {
            _ = try Self.run(["moods": "p0,l0\np0,l1\np0,l2\n"], batchSize: 10_000, in: scratch)
        } throws: { error in
            "\(error)".contains("moods") && "\(error)".contains("at most 2")
        }
        #expect(!FileManager.default.fileExists(atPath: scratch.path("Music.sqlite")))
    }
}
