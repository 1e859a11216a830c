import Foundation
import ManagedStore
import PropertyBased
import Testing

/// Ordered to-many relationships keep their order in the store (Core Data's `Z_FOK_` column).
@Suite("Ordered to-many relationships")
struct OrderedRelationshipTests {
    static let model = try! ObjectModel(json: Data("""
        {"entities": [
          {"name": "Playlist", "attributes": [{"name": "name", "type": "String"}],
           "relationships": [
             {"name": "songs", "destination": "Song", "inverse": "playlist", "toMany": true, "ordered": true, "deleteRule": "Nullify"},
             {"name": "fans", "destination": "Fan", "inverse": "favourite", "toMany": true, "deleteRule": "Nullify"},
             {"name": "labels", "destination": "Label", "inverse": "playlists", "toMany": true, "ordered": true, "deleteRule": "Nullify"}
           ]},
          {"name": "Label", "attributes": [{"name": "text", "type": "String"}],
           "relationships": [{"name": "playlists", "destination": "Playlist", "inverse": "labels", "toMany": true, "deleteRule": "Nullify"}]},
          {"name": "Song", "attributes": [{"name": "title", "type": "String"}],
           "relationships": [{"name": "playlist", "destination": "Playlist", "inverse": "songs", "deleteRule": "Nullify"}]},
          {"name": "Fan", "attributes": [{"name": "name", "type": "String"}],
           "relationships": [{"name": "favourite", "destination": "Playlist", "inverse": "fans", "deleteRule": "Nullify"}]}
        ]}
        """.utf8))

    /// Inserts songs a…e (in that key order) and a playlist "mix" without members; saves.
    static func songs(_ context: ManagedObjectContext) throws -> (ManagedObject, [String: ManagedObject]) {
        var songs: [String: ManagedObject] = [:]
        for title in ["a", "b", "c", "d", "e"] {
            let song = try context.insert("Song")
            song["title"] = .string(title)
            songs[title] = song
        }
        let playlist = try context.insert("Playlist")
        playlist["name"] = .string("mix")
        try context.save()
        return (playlist, songs)
    }

    /// The titles of the playlist named `name` (or the texts of its labels), read through a fresh store
    /// and context.
    static func titles(_ harness: StoreHarness, _ name: String = "mix", prefetch: Bool = false,
                       key: String = "songs", attribute: String = "title") throws -> [String] {
        let context = ManagedObjectContext(store: try harness.reopen())
        var request = FetchRequest(entityName: "Playlist")
        request.predicate = try FetchPredicate(format: "name == %@", .string(name))
        if prefetch { request.relationshipKeyPathsForPrefetching = [key] }
        let playlist = try #require(try context.fetch(request).first)
        return try playlist.objects(forKey: key).map { $0[attribute].description }
    }

    @Test("the store carries the position column Core Data names Z_FOK_<inverse>")
    func layout() throws {
        let harness = try StoreHarness(model: Self.model)
        let columns = try harness.store.connection.rows("PRAGMA table_info(ZSONG)").compactMap { $0[1].string }
        #expect(columns.contains("Z_FOK_PLAYLIST"))
        let fans = try harness.store.connection.rows("PRAGMA table_info(ZFAN)").compactMap { $0[1].string }
        #expect(!fans.contains { $0.hasPrefix("Z_FOK_") }, "an unordered relationship has no position")
    }

    @Test("members come back in the order they were added, not in key order; prefetching keeps it")
    func addOrder() throws {
        let harness = try StoreHarness(model: Self.model)
        let (playlist, songs) = try Self.songs(harness.context)
        for title in ["d", "a", "e", "b"] { try playlist.add(songs[title]!, toKey: "songs") }
        #expect(try playlist.objects(forKey: "songs").map { $0["title"].description } == ["d", "a", "e", "b"])
        try harness.context.save()
        #expect(try Self.titles(harness) == ["d", "a", "e", "b"])
        #expect(try Self.titles(harness, prefetch: true) == ["d", "a", "e", "b"])
    }

    @Test("a new owner and new members added in one save keep the add order")
    func newObjects() throws {
        let harness = try StoreHarness(model: Self.model)
        let context = harness.context
        let playlist = try context.insert("Playlist")
        playlist["name"] = .string("fresh")
        var made: [ManagedObject] = []
        for title in ["x", "y", "z"] {
            let song = try context.insert("Song")
            song["title"] = .string(title)
            made.append(song)
        }
        for song in made.reversed() { try playlist.add(song, toKey: "songs") }
        try context.save()
        #expect(try Self.titles(harness, "fresh") == ["z", "y", "x"])
    }

    @Test("insert at a position and move: the new order is saved")
    func insertAndMove() throws {
        let harness = try StoreHarness(model: Self.model)
        let (playlist, songs) = try Self.songs(harness.context)
        for title in ["a", "b", "c"] { try playlist.add(songs[title]!, toKey: "songs") }
        try harness.context.save()
        try playlist.insert(songs["e"]!, at: 1, intoKey: "songs")   // a e b c
        try playlist.moveObject(at: 3, to: 0, forKey: "songs")       // c a e b
        #expect(try playlist.objects(forKey: "songs").map { $0["title"].description } == ["c", "a", "e", "b"])
        try harness.context.save()
        #expect(try Self.titles(harness) == ["c", "a", "e", "b"])
        // Removing one keeps the others' order.
        try playlist.remove(songs["a"]!, fromKey: "songs")
        try harness.context.save()
        #expect(try Self.titles(harness) == ["c", "e", "b"])
    }

    @Test("a member linked from its to-one side follows the positioned members, and loses its old position")
    func linkedFromTheMember() throws {
        let harness = try StoreHarness(model: Self.model)
        let context = harness.context
        let (mix, songs) = try Self.songs(context)
        let other = try context.insert("Playlist")
        other["name"] = .string("other")
        for title in ["c", "b"] { try other.add(songs[title]!, toKey: "songs") }
        for title in ["e", "a", "d"] { try mix.add(songs[title]!, toKey: "songs") }
        try context.save()
        // A new context: neither playlist's set is loaded when the song moves.
        let second = ManagedObjectContext(store: try harness.reopen())
        var request = FetchRequest(entityName: "Song")
        request.predicate = try FetchPredicate(format: "title == 'e'")
        let e = try #require(try second.fetch(request).first)
        request.predicate = try FetchPredicate(format: "name == 'other'")
        request.entityName = "Playlist"
        let otherAgain = try #require(try second.fetch(request).first)
        try e.setObject(otherAgain, forKey: "playlist")
        try second.save()
        #expect(try Self.titles(harness, "other") == ["c", "b", "e"])
        #expect(try Self.titles(harness, "mix") == ["a", "d"])
    }

    @Test("an ordered many-to-many keeps a position per owner in its join table")
    func manyToMany() throws {
        let harness = try StoreHarness(model: Self.model)
        let context = harness.context
        let (mix, _) = try Self.songs(context)
        let other = try context.insert("Playlist")
        other["name"] = .string("other")
        var labels: [String: ManagedObject] = [:]
        for text in ["l1", "l2", "l3"] {
            let label = try context.insert("Label")
            label["text"] = .string(text)
            labels[text] = label
        }
        for text in ["l3", "l1", "l2"] { try mix.add(labels[text]!, toKey: "labels") }
        for text in ["l2", "l3"] { try other.add(labels[text]!, toKey: "labels") }
        try context.save()
        try mix.moveObject(at: 2, to: 0, forKey: "labels")   // l2 l3 l1
        try context.save()
        let join = try #require(harness.store.model.joinTables.first)
        let columns = try harness.store.connection.rows("PRAGMA table_info(\(join.name))").compactMap { $0[1].string }
        #expect(columns.contains { $0.hasPrefix("Z_FOK_") })
        func texts(_ name: String, prefetch: Bool = false) throws -> [String] {
            try Self.titles(harness, name, prefetch: prefetch, key: "labels", attribute: "text")
        }
        #expect(try texts("mix") == ["l2", "l3", "l1"])
        #expect(try texts("mix", prefetch: true) == ["l2", "l3", "l1"])
        #expect(try texts("other") == ["l2", "l3"])
    }

    @Test("a child context's order reaches its parent, and the parent's save stores it")
    func childContext() throws {
        let harness = try StoreHarness(model: Self.model)
        let (playlist, songs) = try Self.songs(harness.context)
        for title in ["a", "b", "c"] { try playlist.add(songs[title]!, toKey: "songs") }
        try harness.context.save()
        let child = ManagedObjectContext(parent: harness.context)
        let mix = try #require(try child.fetch(FetchRequest(entityName: "Playlist")).first)
        let song = try child.insert("Song")
        song["title"] = .string("new")
        try mix.insert(song, at: 0, intoKey: "songs")
        try mix.moveObject(at: 3, to: 1, forKey: "songs")   // new c a b
        try child.save()
        #expect(try playlist.objects(forKey: "songs").map { $0["title"].description } == ["new", "c", "a", "b"])
        try harness.context.save()
        #expect(try Self.titles(harness) == ["new", "c", "a", "b"])
    }

    @Test("property: random adds, inserts, moves and removes, saved at random points, read back in order",
          arguments: 1...16)
    func randomEdits(seed: Int) throws {
        var random = Xoshiro(seed: (UInt64(seed), 0x9E37_79B9, 42, 7))  // the same cases every run
        let harness = try StoreHarness(model: Self.model)
        let context = harness.context
        let playlist = try context.insert("Playlist")
        playlist["name"] = .string("mix")
        var songs: [ManagedObject] = []
        for n in 0..<12 {
            let song = try context.insert("Song")
            song["title"] = .string("s\(n)")
            songs.append(song)
        }
        try context.save()
        var expected: [String] = []
        for _ in 0..<40 {
            let song = songs[Int.random(in: 0..<songs.count, using: &random)]
            let title = song["title"].description
            switch Int.random(in: 0..<4, using: &random) {
            case 0:
                try playlist.add(song, toKey: "songs")
                if !expected.contains(title) { expected.append(title) }
            case 1:
                let position = Int.random(in: 0...expected.count, using: &random)
                try playlist.insert(song, at: position, intoKey: "songs")
                if let old = expected.firstIndex(of: title) { expected.remove(at: old) }
                expected.insert(title, at: min(position, expected.count))
            case 2 where !expected.isEmpty:
                let from = Int.random(in: 0..<expected.count, using: &random), to = Int.random(in: 0..<expected.count, using: &random)
                try playlist.moveObject(at: from, to: to, forKey: "songs")
                expected.insert(expected.remove(at: from), at: to)
            default:
                try playlist.remove(song, fromKey: "songs")
                expected.removeAll { $0 == title }
            }
            #expect(try playlist.objects(forKey: "songs").map { $0["title"].description } == expected)
            if Bool.random(using: &random) { try context.save() }
        }
        try context.save()
        #expect(try Self.titles(harness) == expected, "seed \(seed)")
        #expect(try Self.titles(harness, prefetch: true) == expected, "seed \(seed), prefetched")
    }

    /// A user trial: positions outside the set were clamped silently, where Core Data's ordered sets
    /// raise NSRangeException.
    @Test("positions outside the set throw and change nothing; count puts a member at the end")
    func positionsOutsideTheSetThrow() throws {
        let harness = try StoreHarness(model: Self.model)
        let (playlist, songs) = try Self.songs(harness.context)
        for title in ["a", "b", "c"] { try playlist.add(songs[title]!, toKey: "songs") }
        func titles() throws -> [String] { try playlist.objects(forKey: "songs").map { $0["title"].description } }
        for (move, message) in [
            ({ try playlist.insert(songs["d"]!, at: 4, intoKey: "songs") }, "Playlist.songs has 3 members, so the positions are 0...3 (3: at the end), not 4; nothing was changed"),
            ({ try playlist.insert(songs["d"]!, at: -5, intoKey: "songs") }, "Playlist.songs has 3 members, so the positions are 0...3 (3: at the end), not -5; nothing was changed"),
            ({ try playlist.insert(songs["a"]!, at: 99, intoKey: "songs") }, "Playlist.songs has 3 members, so the positions are 0...3 (3: at the end), not 99; nothing was changed"),
            ({ try playlist.moveObject(at: 0, to: 3, forKey: "songs") }, "Playlist.songs has 3 members, so a member can move to positions 0...2, not 3; nothing was changed"),
            ({ try playlist.moveObject(at: 0, to: -1, forKey: "songs") }, "Playlist.songs has 3 members, so a member can move to positions 0...2, not -1; nothing was changed"),
        ] as [(() throws -> Void, String)] {
            let error = try #require(throws: StoreError.self) { try move() }
            #expect("\(error)" == message)
            #expect(try titles() == ["a", "b", "c"])
            #expect(songs["d"]!["playlist"] == .null)
        }
        try playlist.insert(songs["d"]!, at: 3, intoKey: "songs")
        try playlist.insert(songs["a"]!, at: 4, intoKey: "songs")
        #expect(try titles() == ["b", "c", "d", "a"])
    }

    @Test("insert(_:at:intoKey:) on an unordered relationship says to mark it ordered")
    func unorderedRefuses() throws {
        let harness = try StoreHarness(model: Self.model)
        let (playlist, _) = try Self.songs(harness.context)
        let fan = try harness.context.insert("Fan")
        #expect(throws: StoreError.self) { try playlist.insert(fan, at: 0, intoKey: "fans") }
        do { try playlist.insert(fan, at: 0, intoKey: "fans") } catch {
            #expect("\(error)".contains("mark the relationship ordered"))
        }
    }

    @Test("a store written before the position column existed gets it when opened for writing")
    func olderStore() throws {
        let harness = try StoreHarness(model: Self.model)
        let (playlist, songs) = try Self.songs(harness.context)
        for title in ["b", "a"] { try playlist.add(songs[title]!, toKey: "songs") }
        try harness.context.save()
        try harness.store.connection.execute("ALTER TABLE ZSONG DROP COLUMN Z_FOK_PLAYLIST")
        // Read-only: no column, so members come in insertion (key) order.
        let readOnly = try PersistentStore(path: harness.path, options: .init(readOnly: true))
        let context = ManagedObjectContext(store: readOnly)
        let mix = try #require(try context.fetch(FetchRequest(entityName: "Playlist")).first)
        #expect(try mix.objects(forKey: "songs").map { $0["title"].description } == ["a", "b"])
        // Writable: the column is added, and a new order is kept.
        let reopened = try harness.reopen()
        let columns = try reopened.connection.rows("PRAGMA table_info(ZSONG)").compactMap { $0[1].string }
        #expect(columns.contains("Z_FOK_PLAYLIST"))
        let writer = ManagedObjectContext(store: reopened)
        let again = try #require(try writer.fetch(FetchRequest(entityName: "Playlist")).first)
        try again.moveObject(at: 1, to: 0, forKey: "songs")
        try writer.save()
        #expect(try Self.titles(harness) == ["b", "a"])
    }
}

