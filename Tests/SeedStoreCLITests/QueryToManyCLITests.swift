import Foundation
import ManagedStore
import Testing

/// `seedstore query --to-many`: each to-many relationship as its destinations' primary keys, in the
/// relationship's order when it is ordered, prefetched unless `--faults` asks for each object's own.
@Suite(.enabled(if: CLI.hasBinary, CLI.noBinary))
final class QueryToManyCLITests {
    let directory = CLI.temporaryDirectory()
    let store: String

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// Three playlists: "a" holds songs 3, 1, 2 in that order (not their key order), "b" none, "c"
    /// thirty (4 to 33); song 1 also has two fans, an unordered to-many.
    init() throws {
        let model = try ObjectModel(json: Data("""
            {"entities":[
             {"name":"Playlist","attributes":[{"name":"name","type":"String"}],
              "relationships":[{"name":"songs","destination":"Song","inverse":"playlist","toMany":true,"ordered":true,"deleteRule":"Nullify"}]},
             {"name":"Song","attributes":[{"name":"title","type":"String"}],
              "relationships":[{"name":"playlist","destination":"Playlist","inverse":"songs","toMany":false,"deleteRule":"Nullify"},
                               {"name":"fans","destination":"Fan","inverse":"song","toMany":true,"deleteRule":"Nullify"}]},
             {"name":"Fan","attributes":[{"name":"who","type":"String"}],
              "relationships":[{"name":"song","destination":"Song","inverse":"fans","toMany":false,"deleteRule":"Nullify"}]}
            ]}
            """.utf8))
        store = directory.appendingPathComponent("Playlists.sqlite").path
        let context = ManagedObjectContext(store: try PersistentStore(path: store, model: model))
        let a = try context.insert("Playlist"), b = try context.insert("Playlist"), c = try context.insert("Playlist")
        a["name"] = .string("a")
        b["name"] = .string("b")
        c["name"] = .string("c")
        let songs = try (1...3).map { n in
            let song = try context.insert("Song")
            song["title"] = .string("s\(n)")
            return song
        }
        for song in [songs[2], songs[0], songs[1]] { try a.add(song, toKey: "songs") }
        for n in 4...33 {
            let song = try context.insert("Song")
            song["title"] = .string("t\(n)")
            try c.add(song, toKey: "songs")
        }
        for who in ["y", "x"] {
            let fan = try context.insert("Fan")
            fan["who"] = .string(who)
            try fan.setObject(songs[0], forKey: "song")
        }
        try context.save()
    }

    @Test func jsonListsDestinationsInTheRelationshipsOrder() throws {
        let result = try CLI.run(["query", store, "--entity", "Playlist", "--sort", "name", "--to-many", "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        #expect(rows.map { $0["songs"] as? [Int] } == [[3, 1, 2], [], Array(4...33)])
        #expect(rows.map { $0["Z_PK"] as? Int } == [1, 2, 3], "each object's own key, which others' keys name")
        let songs = try CLI.run(["query", store, "--entity", "Song", "--where", "title BEGINSWITH 's'", "--sort", "title", "--to-many", "--format", "json"])
        let songRows = try #require(try JSONSerialization.jsonObject(with: Data(songs.stdout.utf8)) as? [[String: Any]])
        #expect(songRows.map { $0["fans"] as? [Int] } == [[1, 2], [], []], "an unordered relationship lists its keys in key order")
        #expect(songRows.map { $0["playlist"] as? Int } == [1, 1, 1])
    }

    @Test func tableShowsCountAndKeysAndPrefetchesUnlessFaultsAsk() throws {
        let table = try CLI.run(["query", store, "--entity", "Playlist", "--sort", "name", "--to-many", "--stats"])
        #expect(table.status == 0, "\(table.stderr)")
        let lines = table.stdout.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") }
        #expect(lines.first == "Z_PK name songs")
        #expect(lines.dropFirst(2).prefix(2) == ["1 a 3: 3, 1, 2", "2 b 0"], "\(table.stdout)")
        let long = try #require(table.stdout.split(separator: "\n").dropFirst(4).first?.split(separator: "c  ", maxSplits: 1).last?.trimmingCharacters(in: .whitespaces))
        #expect(long.count <= 40 && long.hasPrefix("30: 4, 5, 6, 7") && long.hasSuffix("…"), "the count, then the keys that fit: \(long)")
        #expect(table.stderr.hasPrefix("stats: 2 statement(s)"), "the fetch, then one prefetch for songs: \(table.stderr)")
        let faulting = try CLI.run(["query", store, "--entity", "Playlist", "--sort", "name", "--to-many", "--faults", "--stats"])
        #expect(faulting.stdout == table.stdout)
        #expect(faulting.stderr.hasPrefix("stats: 7 statement(s)"), "the fetch, each playlist's fault, each one's songs: \(faulting.stderr)")
        let explained = try CLI.run(["query", store, "--entity", "Playlist", "--to-many", "--explain"])
        #expect(explained.stdout.hasSuffix("then, for the objects fetched, one more statement per relationship prefetched: songs (run with --stats or --sql-debug 1 to see them)\n"),
                "the prefetch --to-many adds is named: \(explained.stdout)")
        let plain = try CLI.run(["query", store, "--entity", "Playlist", "--sort", "name"])
        #expect(!plain.stdout.contains("songs"), "without --to-many the output is as before")
    }

    @Test func refusedWhereItHasNoPlace() throws {
        for (extra, wanted) in [(["--format", "csv"], "--to-many goes with --format table or json"),
                                (["--count"], "leave out --count"), (["--properties", "name"], "leave out --properties")] {
            let result = try CLI.run(["query", store, "--entity", "Playlist", "--to-many"] + extra)
            #expect(result.status != 0)
            #expect(result.stderr.contains(wanted), "\(result.stderr)")
        }
        // A user trial: these were silently ignored.
        for (extra, wanted) in [(["--faults", "--properties", "name"], "--faults goes with whole objects; --properties fetches none"),
                                (["--prefetch", "songs", "--count"], "--prefetch goes with whole objects; --count fetches none")] {
            let result = try CLI.run(["query", store, "--entity", "Playlist"] + extra)
            #expect(result.status != 0)
            #expect(result.stderr.contains(wanted), "\(result.stderr)")
        }
    }
}
