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
/// primary key and file position.
///
/// SQLite's empty file name gives a private on-disk database that is deleted when the connection closes;
/// its page cache is capped, so the memory it takes does not grow with the keys. The table is keyed by
/// the key bytes (`WITHOUT ROWID`: one B-tree), and ``_KeyIndex`` writes a chunk of entries at a time in
/// key order, so the tree takes them page by page rather than at random.
final class _SpilledKeys {
    private let connection: Connection

    /// The entry number, primary key and file of a key, as the in-memory table holds them.
    struct Row {
        var entry: Int
        var primaryKey: Int64
        var file: Int32
        var key: [UInt8]
    }

    init() throws(SQLiteError) {
        connection = try Connection(path: "")
        try connection.execute("""
            PRAGMA journal_mode = OFF;
            PRAGMA synchronous = OFF;
            PRAGMA cache_size = -1024;
            PRAGMA temp_store = FILE;
            CREATE TABLE keys (key BLOB PRIMARY KEY, entry INTEGER NOT NULL, pk INTEGER NOT NULL, file INTEGER NOT NULL) WITHOUT ROWID;
            BEGIN;
            """)
    }

    /// The row of `key`, if it was written.
    func row(_ key: UnsafeRawBufferPointer) throws(SQLiteError) -> Row? {
        let statement = try connection.cachedStatement("SELECT entry, pk, file FROM keys WHERE key = ?")
        defer { statement.reset() }
        let bytes = Array(key)
        try statement.bind(.blob(bytes), at: 1)
        guard try statement.step() else { return nil }
        return Row(entry: Int(statement.int64(at: 0)), primaryKey: statement.int64(at: 1),
                   file: Int32(truncatingIfNeeded: statement.int64(at: 2)), key: bytes)
    }

    /// The row of entry `entry`: a scan, for the rare call that no lookup by key came before.
    func row(entry: Int) throws(SQLiteError) -> Row? {
        let statement = try connection.cachedStatement("SELECT key, pk, file FROM keys WHERE entry = ?")
        defer { statement.reset() }
        statement.bind(Int64(entry), at: 1)
        guard try statement.step() else { return nil }
        return Row(entry: entry, primaryKey: statement.int64(at: 1), file: Int32(truncatingIfNeeded: statement.int64(at: 2)),
                   key: statement.blob(at: 0))
    }

    /// Writes `rows`, replacing the rows of their keys (a key removed on disk and made again in memory).
    func put(_ rows: [Row]) throws(SQLiteError) {
        let statement = try connection.cachedStatement("INSERT OR REPLACE INTO keys (key, entry, pk, file) VALUES (?, ?, ?, ?)")
        for row in rows {
            statement.reset()
            try statement.bind(.blob(row.key), at: 1)
            statement.bind(Int64(row.entry), at: 2)
            statement.bind(row.primaryKey, at: 3)
            statement.bind(Int64(row.file), at: 4)
            try statement.run()
        }
    }

    /// The number of rows (a scan: once per flush).
    func rowCount() throws(SQLiteError) -> Int {
        Int(try connection.scalar("SELECT count(*) FROM keys")?.int64 ?? 0)
    }

    /// Calls `body` with every key written, in key order (to rebuild a Bloom filter).
    func forEachKey(_ body: (UnsafeRawBufferPointer) -> Void) throws(SQLiteError) {
        let statement = try connection.cachedStatement("SELECT key FROM keys")
        defer { statement.reset() }
        while try statement.step() { statement.withBlob(at: 0, body) }
    }
}

/// A blocked Bloom filter of 64-bit key hashes: each key sets 6 bits within one 512-bit block, so a
/// lookup reads one cache line. About 12 bits per key at ``capacity``, for roughly 1 false "maybe" in
/// 200 lookups of absent keys; past ``capacity`` the rate rises until the filter is rebuilt larger.
struct _BloomFilter {
    /// The keys it was sized for.
    let capacity: Int
    private var words: [UInt64]
    private let blockMask: Int

    init(capacity: Int) {
        self.capacity = capacity
        var blocks = 1
        while blocks * 512 < capacity * 12 { blocks *= 2 }
        words = capacity == 0 ? [] : Array(repeating: 0, count: blocks * 8)
        blockMask = blocks - 1
    }

    /// The bytes it takes.
    var bytes: Int { words.capacity * 8 }

    mutating func insert(_ hash: UInt64) {
        guard !words.isEmpty else { return }
        let block = Int(truncatingIfNeeded: hash >> 40) & blockMask
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
        let block = Int(truncatingIfNeeded: hash >> 40) & blockMask
        var bits = hash &* 0x9E37_79B9_7F4A_7C15
        for _ in 0..<6 {
            let bit = Int(truncatingIfNeeded: bits & 511)
            if words[block * 8 + (bit >> 6)] & (1 << UInt64(bit & 63)) == 0 { return false }
            bits >>= 9
        }
        return true
    }
}
