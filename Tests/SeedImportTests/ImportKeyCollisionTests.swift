import Foundation
import ManagedStore
import PropertyBased
@testable import SeedImport
import Testing

/// Two keys whose 32-bit hashes are equal stay two objects: an index that keeps key bytes compares them,
/// and one that dropped them (past its threshold) reads the object's key back to confirm.
@Suite("Import: keys with the same hash")
struct ImportKeyCollisionTests {
    /// "E5673" and "E18181" share a 32-bit hash (found by search over "E0", "E1", …).
    static let first = "E5673", second = "E18181"

    @Test("the two keys collide: the test below exercises the confirmation")
    func collide() {
        let hashes = [Self.first, Self.second].map { key in
            var key = key
            return key.withUTF8 { _KeyIndex.hash(UnsafeRawBufferPointer($0)) }
        }
        #expect(hashes[0] == hashes[1])
    }

    @Test("colliding keys: distinct objects, the upsert updates the right one, links find the right one",
          arguments: [1, 32_768])
    func distinct(threshold: Int) throws {
        let scratch = ImportScratch()
        var options = ImportOptions(batchSize: 2)
        options.keyBytesThreshold = threshold
        let csv = """
            code,name,manager
            \(Self.first),Ann,
            \(Self.second),Bob,\(Self.first)
            \(Self.first),Ann Updated,\(Self.second)
            E1,Cid,\(Self.second)

            """
        let summary = try ImportForwardReferenceTests.run(csv, options: options, in: scratch)
        #expect(summary.objects["Employee"]?.inserted == 3)
        #expect(summary.objects["Employee"]?.updated == 1)
        #expect(try ImportForwardReferenceTests.managers(scratch) == [Self.first: Self.second, Self.second: Self.first, "E1": Self.second])
        let staff = try ImportKeyMemoryTests.staff(scratch)
        #expect(staff[Self.first]?.first == "Ann Updated")
        #expect(staff[Self.second]?.first == "Bob")
    }
}

/// Integer keys whose hashes collide: an index without key bytes compares the saved row's integer with
/// the key's bytes in a relationship column; with a join file naming them, the index keeps its key bytes.
@Suite("Import: integer keys with the same hash")
struct ImportIntegerKeyCollisionTests {
    /// Two integers whose 8 bytes share a 32-bit hash, found by search (about 80,000 tries).
    static let pair: (Int64, Int64) = {
        var seen: [UInt32: Int64] = [:]
        var n: Int64 = 1
        while true {
            let hash = withUnsafeBytes(of: n) { _KeyIndex.hash($0) }
            if let earlier = seen[hash] { return (earlier, n) }
            seen[hash] = n
            n += 1
        }
    }()

    static let model = """
        {"entities": [
          {"name": "Part", "attributes": [{"name": "number", "type": "Integer 64", "optional": false},
                                          {"name": "name", "type": "String"}],
           "relationships": [{"name": "parent", "destination": "Part", "inverse": "children"},
                             {"name": "children", "destination": "Part", "inverse": "parent", "toMany": true},
                             {"name": "labels", "destination": "Label", "inverse": "parts", "toMany": true}]},
          {"name": "Label", "attributes": [{"name": "text", "type": "String", "optional": false}],
           "relationships": [{"name": "parts", "destination": "Part", "inverse": "labels", "toMany": true}]}
        ]}
        """

    static func mapping(joins: Bool) -> String {
        """
        {"format": 1, "files": [
          {"path": "parts.csv", "targets": [{"entity": "Part", "key": "number",
            "relationships": {"parent": {"column": "parent", "destinationKey": "number"}}}]},
          {"path": "labels.csv", "targets": [{"entity": "Label", "key": "text"}]}
        """ + (joins ? """
          , {"path": "part_labels.csv", "join": {"entity": "Part", "relationship": "labels", "sourceColumn": "part",
            "sourceKey": "number", "destinationColumn": "label", "destinationKey": "text"}}
        """ : "") + "]}"
    }

    @Test("the two integers collide: the test below exercises the confirmation")
    func collide() {
        let (a, b) = Self.pair
        #expect(a != b)
        #expect(withUnsafeBytes(of: a) { _KeyIndex.hash($0) } == withUnsafeBytes(of: b) { _KeyIndex.hash($0) })
    }

    @Test("colliding integer keys: distinct objects, the right upserts, parents and join rows",
          arguments: [1, 32_768], [false, true])
    func distinct(threshold: Int, joins: Bool) throws {
        let (a, b) = Self.pair
        let scratch = ImportScratch()
        try scratch.write("parts.csv", "number,name,parent\n\(a),A,\n\(b),B,\(a)\n\(a),A2,\(b)\n7,C,\(b)\n")
        try scratch.write("labels.csv", "text\nred\nblue\n")
        try scratch.write("part_labels.csv", "part,label\n\(b),red\n\(a),blue\n7,red\n\(b),blue\n")
        var options = ImportOptions(batchSize: 2)
        options.keyBytesThreshold = threshold
        let mapping = try ImportMapping(json: Data(Self.mapping(joins: joins).utf8), baseDirectory: scratch.url.path)
        let summary = try SeedImporter(model: ObjectModel(json: Data(Self.model.utf8)), mapping: mapping, options: options)
            .run(into: scratch.path("Parts.sqlite"))
        #expect(summary.objects["Part"]?.inserted == 3)
        #expect(summary.objects["Part"]?.updated == 1)
        let (context, parts) = try StoreReader.objects(scratch.path("Parts.sqlite"), "Part")
        defer { withExtendedLifetime(context) {} }
        var found: [Int64: (name: String, parent: Int64?, labels: Set<String>)] = [:]
        for part in parts {
            guard case .integer(let number) = part["number"], case .string(let name) = part["name"] else { continue }
            let parent: Int64? = if case .integer(let n)? = try part.object(forKey: "parent")?["number"] { n } else { nil }
            let labels = Set(try part.objects(forKey: "labels").compactMap { if case .string(let text) = $0["text"] { text } else { nil } })
            found[number] = (name, parent, labels)
        }
        #expect(found.count == 3)
        #expect(found[a]?.name == "A2" && found[a]?.parent == b && found[a]?.labels == (joins ? ["blue"] : []))
        #expect(found[b]?.name == "B" && found[b]?.parent == a && found[b]?.labels == (joins ? ["red", "blue"] : []))
        #expect(found[7]?.name == "C" && found[7]?.parent == b && found[7]?.labels == (joins ? ["red"] : []))
    }
}

/// The Bloom filter in front of keys moved to disk: never a false "no", rarely a false "maybe".
@Suite("Import: the Bloom filter of keys on disk")
struct BloomFilterTests {
    @Test("every inserted hash is found; absent ones mostly are not, at capacity")
    func falsePositives() {
        var random = Xoshiro(seed: (0x9E37_79B9_7F4A_7C15, 0xD1B5_4A32_D192_ED03, 0xABCD_EF01_2345_6789, 0x0123_4567_89AB_CDEF))
        var filter = _BloomFilter(capacity: 50_000)
        let inserted = (0..<50_000).map { _ in UInt64.random(in: .min ... .max, using: &random) }
        for hash in inserted { filter.insert(hash) }
        #expect(inserted.allSatisfy(filter.mayContain))
        let absent = (0..<50_000).filter { _ in filter.mayContain(UInt64.random(in: .min ... .max, using: &random)) }.count
        #expect(absent < 50_000 / 50, "\(absent) false maybes in 50,000 at capacity (about 1 in 200 expected)")
        #expect(!_BloomFilter(capacity: 0).mayContain(inserted[0]), "an empty filter holds nothing")
        // 12 bits a key, not rounded up to a power of two of blocks (which took up to twice that): at
        // millions of keys the filters are most of the key memory.
        #expect(filter.bytes <= 50_000 * 12 / 8 + 64, "\(filter.bytes) bytes for 50,000 keys")
    }
}

/// The runs keys move to past the key budget: newer rows win, merges keep them, updates find them.
@Suite("Import: key runs on disk")
struct SpilledKeysTests {
    static func add(_ keys: _SpilledKeys, _ rows: [(String, Int64)], entries: Int) throws {
        let sorted = rows.sorted { $0.0 < $1.0 }
        try keys.addRun(count: sorted.count) { i, write throws(SQLiteError) in
            let key = Array(sorted[i].0.utf8)
            var failure: SQLiteError?
            key.withUnsafeBytes { bytes in
                do throws(SQLiteError) { try write(bytes, entries + i, sorted[i].1, 0) } catch { failure = error }
            }
            if let failure { throw failure }
        }
    }

    static func primaryKey(_ keys: _SpilledKeys, _ key: String) throws -> Int64? {
        var key = key
        return try key.withUTF8 { bytes in try keys.row(UnsafeRawBufferPointer(bytes), hash: _KeyIndex.hash64(UnsafeRawBufferPointer(bytes))) }?.primaryKey
    }

    @Test("a key removed in an older run and made again in a newer one: the newer row, before and after merging")
    func newestWins() throws {
        let keys = try _SpilledKeys()
        try Self.add(keys, [("A", _KeyIndex.removedKey), ("B", 2)], entries: 0)
        try Self.add(keys, [("A", 7), ("C", 3)], entries: 2)
        #expect(try Self.primaryKey(keys, "A") == 7 && keys.runCount == 2)
        try Self.add(keys, [("D", 4)], entries: 4)
        // Fill the level: the last run makes G again, newest of three (the merge keeps its row on ties).
        try Self.add(keys, [("G", 30)], entries: 5)
        try Self.add(keys, [("G", 31)], entries: 6)
        for k in 0..<(_SpilledKeys.fanout - 6) { try Self.add(keys, [("H\(k)", 40 + Int64(k))], entries: 7 + k) }
        try Self.add(keys, [("E", 5), ("G", 32)], entries: 100)
        #expect(keys.runCount == 1, "\(_SpilledKeys.fanout) runs of level 0 merged into one")
        #expect(try ["A", "B", "C", "D", "E", "F", "G"].map { try Self.primaryKey(keys, $0) } == [7, 2, 3, 4, 5, nil, 32])
        // An update of a row read before the merge finds it in the merged run.
        var row = try #require(try keys.row(entry: 1))
        row.primaryKey = 20
        try keys.update(row)
        #expect(try Self.primaryKey(keys, "B") == 20)
    }

    /// Skip mode looks keys up by entry once a file has been read: one lookup a forward reference. Each
    /// run gets an index on `entry` at its first such lookup (a scan of every run a lookup made 400,000
    /// employees take over ten minutes), and only runs whose entries may hold it are asked.
    @Test("lookups by entry: the newest row of each entry, across runs and merges; only runs that may hold it indexed")
    func byEntry() throws {
        let keys = try _SpilledKeys()
        var expected: [Int: (key: String, pk: Int64)] = [:]
        // Runs of 50 entries each, keys in an order unlike the entries'.
        func addRun(_ run: Int) throws {
            let rows = (0..<50).map { i in ("k\(String(run * 50 + i, radix: 7))", Int64(1_000 + run * 50 + i)) }
            try Self.add(keys, rows, entries: run * 50)
            for (i, row) in rows.sorted(by: { $0.0 < $1.0 }).enumerated() { expected[run * 50 + i] = (row.0, row.1) }
        }
        try addRun(0)
        try addRun(1)
        let first = try #require(try keys.row(entry: 7))
        #expect(first.key == Array(expected[7]!.key.utf8) && first.primaryKey == expected[7]!.pk)
        #expect(keys.entryIndexedRunCount == 1, "entry 7 is only in the first run's range")
        #expect(try keys.row(entry: 100) == nil && keys.entryIndexedRunCount == 1, "no run holds entry 100")
        for run in 2..<(_SpilledKeys.fanout + 3) { try addRun(run) }
        #expect(keys.runCount < _SpilledKeys.fanout + 3, "the first level was merged")
        for entry in stride(from: 0, to: (_SpilledKeys.fanout + 3) * 50, by: 13) {
            let row = try #require(try keys.row(entry: entry), "entry \(entry)")
            #expect(row.key == Array(expected[entry]!.key.utf8) && row.primaryKey == expected[entry]!.pk, "entry \(entry)")
        }
        #expect(keys.entryIndexedRunCount == keys.runCount, "every run was asked for some entry")
    }
}

@Suite("Import: the set of rejected lines")
struct LineSetTests {
    @Test("lines added in and out of order are all found; others are not")
    func membership() {
        var set = _LineSet()
        for line in [3, 5, 9, 4, 12, 2] { set.insert(line) }
        #expect([2, 3, 4, 5, 9, 12].allSatisfy { set.contains($0) })
        #expect(![1, 6, 10, 13].contains { set.contains($0) })
        set.insert(1)
        #expect(set.contains(1) && set.contains(12))
    }

    /// Any order of insertion (repeats, runs going down, past the merge of lines out of order) finds
    /// exactly what a `Set` finds.
    @Test("any insertion order finds what a Set finds")
    func matchesSet() async {
        let lines = Gen.int(in: 1...400).array(of: 0...300)
        await propertyCheck(input: lines, Gen.bool) { inserted, descending in
            var set = _LineSet()
            var reference = Set<Int>()
            // Half the cases add a falling run after the random lines, as a chain settled from its end does.
            let all = descending ? inserted + (1...200).reversed() : inserted
            for line in all {
                set.insert(line)
                reference.insert(line)
                #expect(set.contains(line))
            }
            let wrong = (0...401).filter { set.contains($0) != reference.contains($0) }
            #expect(wrong.isEmpty, "\(all)")
        }
    }
}

/// An empty text key (a quoted "" is text, not null) in every key index mode.
@Suite("Import: the empty key")
struct EmptyKeyTests {
    @Test("a repeated \"\" key updates one object, kept in memory or moved to disk", arguments: [32_768, 1], [ImportOptions.defaultKeyIndexMemoryBytes, 1])
    func emptyKey(threshold: Int, budget: Int) throws {
        var options = ImportOptions(batchSize: 1)
        options.keyBytesThreshold = threshold
        options.keyIndexMemoryBytes = budget
        let (summary, staff, _) = try ImportKeyMemoryTests.run("code,name,manager\n\"\",Ann,\nE1,Bob,\"\"\n\"\",Ann 2,E1\n", options)
        #expect(summary.objects["Employee"]?.inserted == 2 && summary.objects["Employee"]?.updated == 1)
        #expect(staff == ["": ["Ann 2", "E1"], "E1": ["Bob", ""]])
    }
}
