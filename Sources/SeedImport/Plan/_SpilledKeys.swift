import Foundation
import ManagedStore

/// The memory the key indexes of one import may take together before one that grows spills to disk.
///
/// Each ``_KeyIndex`` reports its bytes when it grows; one that would take the total past ``limit`` moves
/// its keys into a ``_SpilledKeys`` file and gives its share back, so memory stays flat however many
/// distinct keys the input holds.
final class _KeyMemoryBudget {
    /// The most bytes all in-memory indexes may take together.
    let limit: Int
    /// What the in-memory indexes take now.
    private(set) var used = 0
    /// Indexes that moved to disk, for the summary.
    private(set) var spilled: [String] = []

    init(limit: Int) { self.limit = limit }

    /// Whether an index may grow from `old` to `new` bytes; records the growth when it may.
    func grow(from old: Int, to new: Int) -> Bool {
        guard used - old + new <= limit else { return false }
        used += new - old
        return true
    }

    /// Records growth past ``limit`` (an index that could not spill keeps growing in memory).
    func force(from old: Int, to new: Int) { used += new - old }

    /// Gives back `bytes` an index no longer holds in memory.
    func release(_ bytes: Int) { used = max(0, used - bytes) }

    /// Records that `name` moved its keys to disk.
    func noteSpill(_ name: String) { spilled.append(name) }
}

/// A key index's flushed entries in a private temporary SQLite database: key bytes → entry number,
/// primary key and file position, as sorted runs (a log-structured merge).
///
/// SQLite's empty file name gives a private on-disk database that is deleted when the connection closes;
/// its page cache is capped, so the memory it takes does not grow with the keys. Each flush writes its
/// entries, sorted, as a new run: a `WITHOUT ROWID` table filled in key order, so SQLite appends page
/// after page. Merging one big tree instead would rewrite all of it at every flush. Once ``fanout`` runs
/// of one level exist they are merged, in key order, into one run of the next level, so a key is copied
/// a few times in all and lookups see few runs. Each run has a Bloom filter: a lookup reads only the runs
/// that may hold the key, newest first (a newer run's row wins).
final class _SpilledKeys {
    private let connection: Connection

    /// The entry number, primary key and file of a key, as the in-memory table holds them.
    struct Row {
        var entry: Int
        var primaryKey: Int64
        var file: Int32
        var key: [UInt8]
        /// The run it was read from (-1: not yet written).
        var run = -1
    }

    /// One sorted table.
    private struct Run {
        let id: Int
        let level: Int
        let count: Int
        let bloom: _BloomFilter
        /// The lowest and highest entry numbers it holds, so a lookup by entry asks only the runs that may.
        let entries: ClosedRange<Int>
        /// Whether its `entry` column has an index: made at the first lookup by entry, so runs nobody
        /// looks up that way cost nothing more, and a run looked up often costs a B-tree search a lookup,
        /// not a scan of its rows.
        var entryIndexed = false
        var table: String { "run\(id)" }
    }

    /// Oldest first; levels never increase towards the newest.
    private var runs: [Run] = []
    private var nextID = 0
    /// Runs of one level merged into one of the next. At 3.9 million keys, 8 took the merges from 4.4 s
    /// to 2.5 s against 4, for 0.2 s more lookups (more Bloom filters to ask).
    static let fanout = 8

    init() throws(SQLiteError) {
        connection = try Connection.scratch(schema: "")
    }

    /// The bytes the runs' Bloom filters take.
    var bloomBytes: Int { runs.reduce(0) { $0 + $1.bloom.bytes } }
    /// The number of runs (for tests).
    var runCount: Int { runs.count }
    /// The runs whose `entry` column has an index (for tests).
    var entryIndexedRunCount: Int { runs.filter(\.entryIndexed).count }

    /// The newest row of `key` (its `hash` is ``_KeyIndex/hash64(_:)``), if written.
    func row(_ key: UnsafeRawBufferPointer, hash: UInt64) throws(SQLiteError) -> Row? {
        var bytes: [UInt8]?
        for run in runs.reversed() where run.bloom.mayContain(hash) {
            let statement = try connection.cachedStatement("SELECT entry, pk, file FROM \(run.table) WHERE key = ?")
            defer { statement.reset() }
            if bytes == nil { bytes = Array(key) }
            try statement.bind(.blob(bytes!), at: 1)
            guard try statement.step() else { continue }
            return Row(entry: Int(statement.int64(at: 0)), primaryKey: statement.int64(at: 1),
                       file: Int32(truncatingIfNeeded: statement.int64(at: 2)), key: bytes!, run: run.id)
        }
        return nil
    }

    /// The newest row of entry `entry`, for a call no lookup by key came before (skip mode sets forward
    /// references by entry once a file has been read: one such call a reference).
    func row(entry: Int) throws(SQLiteError) -> Row? {
        for position in runs.indices.reversed() where runs[position].entries.contains(entry) {
            let run = runs[position]
            if !run.entryIndexed {
                try connection.execute("CREATE INDEX \(run.table)_entry ON \(run.table) (entry)")
                runs[position].entryIndexed = true
            }
            let statement = try connection.cachedStatement("SELECT key, pk, file FROM \(run.table) WHERE entry = ?")
            defer { statement.reset() }
            statement.bind(Int64(entry), at: 1)
            guard try statement.step() else { continue }
            return Row(entry: entry, primaryKey: statement.int64(at: 1), file: Int32(truncatingIfNeeded: statement.int64(at: 2)),
                       key: statement.blob(at: 0), run: run.id)
        }
        return nil
    }

    /// Writes a changed row back into the run it came from (found again by key if that run was merged).
    func update(_ row: Row) throws(SQLiteError) {
        var target = runs.first { $0.id == row.run }
        if target == nil {
            let key = row.key
            let found = try key.withUnsafeBufferPointer { key throws(SQLiteError) in
                try self.row(UnsafeRawBufferPointer(key), hash: _KeyIndex.hash64(UnsafeRawBufferPointer(key)))
            }
            target = runs.first { $0.id == found?.run }
        }
        guard let target else { return }
        let statement = try connection.cachedStatement("UPDATE \(target.table) SET pk = ?, file = ? WHERE key = ?")
        statement.bind(row.primaryKey, at: 1)
        statement.bind(Int64(row.file), at: 2)
        try statement.bind(.blob(row.key), at: 3)
        try statement.run()
    }

    /// Writes `count` rows as a new run: `row(i)` gives the `i`th in key order (its bytes valid during the
    /// call). Then merges runs while a level holds ``fanout`` of them.
    func addRun(count: Int, row: (Int, (UnsafeRawBufferPointer, Int, Int64, Int32) throws(SQLiteError) -> Void) throws(SQLiteError) -> Void) throws(SQLiteError) {
        guard count > 0 else { return }
        let id = nextID
        nextID += 1
        try connection.execute("CREATE TABLE run\(id) (key BLOB PRIMARY KEY, entry INTEGER NOT NULL, pk INTEGER NOT NULL, file INTEGER NOT NULL) WITHOUT ROWID")
        let insert = try connection.prepare("INSERT OR REPLACE INTO run\(id) (key, entry, pk, file) VALUES (?, ?, ?, ?)")
        var bloom = _BloomFilter(capacity: count)
        var lowest = Int.max, highest = Int.min
        for i in 0..<count {
            try row(i) { key, entry, pk, file throws(SQLiteError) in
                lowest = min(lowest, entry)
                highest = max(highest, entry)
                insert.reset()
                try insert.bindBlob(key, at: 1)
                insert.bind(Int64(entry), at: 2)
                insert.bind(pk, at: 3)
                insert.bind(Int64(file), at: 4)
                try insert.run()
                bloom.insert(_KeyIndex.hash64(key))
            }
        }
        runs.append(Run(id: id, level: 0, count: count, bloom: bloom, entries: lowest...max(lowest, highest)))
        while runs.count >= Self.fanout, case let level = runs[runs.count - 1].level,
              runs.suffix(Self.fanout).allSatisfy({ $0.level == level }) {
            try merge(Array(runs.suffix(Self.fanout)), into: level + 1)
        }
    }

    /// Merges `merging` (the newest runs, oldest first) into one run of `level`: a merge of their
    /// key-ordered scans; of equal keys the newest run's row is kept.
    private func merge(_ merging: [Run], into level: Int) throws(SQLiteError) {
        let id = nextID
        nextID += 1
        try connection.execute("CREATE TABLE run\(id) (key BLOB PRIMARY KEY, entry INTEGER NOT NULL, pk INTEGER NOT NULL, file INTEGER NOT NULL) WITHOUT ROWID")
        // One statement, so SQLite merges the runs' key-ordered scans itself (its plan is a MERGE of the
        // UNION ALL, no sort). Of equal keys the older run's row comes first (the left side of a UNION ALL
        // merge goes first on ties) and the newer one replaces it.
        let arms = merging.map { "SELECT key, entry, pk, file FROM \($0.table)" }.joined(separator: " UNION ALL ")
        try connection.execute("INSERT OR REPLACE INTO run\(id) (key, entry, pk, file) \(arms) ORDER BY key")
        // Its Bloom filter, from one scan of the new run.
        var bloom = _BloomFilter(capacity: merging.reduce(0) { $0 + $1.count })
        var written = 0
        let scan = try connection.prepare("SELECT key FROM run\(id)")
        while try scan.step() {
            scan.withBlob(at: 0) { bloom.insert(_KeyIndex.hash64($0)) }
            written += 1
        }
        scan.reset()
        for run in merging { try connection.execute("DROP TABLE \(run.table)") }
        runs.removeLast(merging.count)
        let entries = merging.map(\.entries.lowerBound).min()!...merging.map(\.entries.upperBound).max()!
        runs.append(Run(id: id, level: level, count: written, bloom: bloom, entries: entries))
    }

    /// Byte order, shorter first on a common prefix (SQLite's BLOB order).
    static func compare(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Int {
        let common = min(a.count, b.count)
        let order = common == 0 ? 0 : Int(memcmp(a.baseAddress!, b.baseAddress!, common))
        return order != 0 ? order : a.count - b.count
    }
}

extension Connection {
    /// A private temporary on-disk database for what an import moves out of memory: SQLite's empty file
    /// name gives one deleted when the connection closes (at once on a crash), no journal, a 1 MiB page
    /// cache, `schema` created, and one transaction open for the connection's life.
    static func scratch(schema: String) throws(SQLiteError) -> Connection {
        let connection = try Connection(path: "")
        try connection.execute("""
            PRAGMA journal_mode = OFF;
            PRAGMA synchronous = OFF;
            PRAGMA cache_size = -1024;
            PRAGMA temp_store = FILE;
            \(schema)
            BEGIN;
            """)
        return connection
    }
}

/// A blocked Bloom filter of 64-bit key hashes: each key sets 6 bits within one 512-bit block, so a
/// lookup reads one cache line. About 12 bits per key at ``capacity``, for roughly 1 false "maybe" in
/// 200 lookups of absent keys; past ``capacity`` the rate rises until the filter is rebuilt larger.
struct _BloomFilter {
    /// The keys it was sized for.
    let capacity: Int
    private var words: [UInt64]
    private let blocks: Int

    init(capacity: Int) {
        self.capacity = capacity
        // Exactly as many blocks as 12 bits a key need (no rounding up to a power of two: at millions of
        // spilled keys the filters are most of the key memory, and what they take the in-memory part loses).
        blocks = max(1, (capacity * 12 + 511) / 512)
        words = capacity == 0 ? [] : Array(repeating: 0, count: blocks * 8)
    }

    /// The block of a hash: its high 32 bits scaled to the block count (multiply-shift, no division).
    @inline(__always)
    private func block(_ hash: UInt64) -> Int { Int(truncatingIfNeeded: ((hash >> 32) &* UInt64(blocks)) >> 32) }

    /// The bytes it takes.
    var bytes: Int { words.capacity * 8 }

    mutating func insert(_ hash: UInt64) {
        guard !words.isEmpty else { return }
        let block = block(hash)
        var bits = hash &* 0x9E37_79B9_7F4A_7C15
        for _ in 0..<6 {
            let bit = Int(truncatingIfNeeded: bits & 511)
            words[block * 8 + (bit >> 6)] |= 1 << UInt64(bit & 63)
            bits >>= 9
        }
    }

    /// Whether a key with `hash` may have been inserted (`false`: certainly not).
    func mayContain(_ hash: UInt64) -> Bool {
        guard !words.isEmpty else { return false }
        let block = block(hash)
        var bits = hash &* 0x9E37_79B9_7F4A_7C15
        for _ in 0..<6 {
            let bit = Int(truncatingIfNeeded: bits & 511)
            if words[block * 8 + (bit >> 6)] & (1 << UInt64(bit & 63)) == 0 { return false }
            bits >>= 9
        }
        return true
    }
}
