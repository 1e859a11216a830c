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

/// A key index's entries in a private temporary SQLite database: key bytes → entry number, primary key
/// and file position, with the same operations as the in-memory table.
///
/// SQLite's empty file name gives a private on-disk database that is deleted when the connection closes;
/// its page cache is capped, so the memory it takes does not grow with the keys. Every operation is one
/// statement (a few microseconds), so an import that spills goes slower but never runs out of memory.
final class _SpilledKeys {
    private let connection: Connection

    /// The entry number, primary key and file of a key, as the in-memory ``_KeyIndex/Entry`` holds them.
    struct Row {
        var entry: Int
        var primaryKey: Int64
        var file: Int32
    }

    init() throws(SQLiteError) {
        connection = try Connection(path: "")
        try connection.execute("""
            PRAGMA journal_mode = OFF;
            PRAGMA synchronous = OFF;
            PRAGMA cache_size = -1024;
            PRAGMA temp_store = FILE;
            CREATE TABLE keys (entry INTEGER PRIMARY KEY, key BLOB NOT NULL, pk INTEGER NOT NULL, file INTEGER NOT NULL);
            CREATE UNIQUE INDEX keys_key ON keys (key);
            BEGIN;
            """)
    }

    /// The row of `key`, if it was added.
    func row(_ key: UnsafeRawBufferPointer) throws(SQLiteError) -> Row? {
        let statement = try connection.cachedStatement("SELECT entry, pk, file FROM keys WHERE key = ?")
        try statement.bind(.blob(Array(key)), at: 1)
        guard try statement.step() else { return nil }
        let row = Row(entry: Int(statement.int64(at: 0)), primaryKey: statement.int64(at: 1),
                      file: Int32(truncatingIfNeeded: statement.int64(at: 2)))
        statement.reset()
        return row
    }

    /// Adds `key` as entry `entry`.
    func add(_ key: UnsafeRawBufferPointer, entry: Int, primaryKey: Int64, file: Int32) throws(SQLiteError) {
        let statement = try connection.cachedStatement("INSERT INTO keys (entry, key, pk, file) VALUES (?, ?, ?, ?)")
        statement.bind(Int64(entry), at: 1)
        try statement.bind(.blob(Array(key)), at: 2)
        statement.bind(primaryKey, at: 3)
        statement.bind(Int64(file), at: 4)
        try statement.run()
    }

    /// The primary key and file of entry `entry`.
    func row(entry: Int) throws(SQLiteError) -> Row? {
        let statement = try connection.cachedStatement("SELECT pk, file FROM keys WHERE entry = ?")
        statement.bind(Int64(entry), at: 1)
        guard try statement.step() else { return nil }
        let row = Row(entry: entry, primaryKey: statement.int64(at: 0), file: Int32(truncatingIfNeeded: statement.int64(at: 1)))
        statement.reset()
        return row
    }

    /// Sets the primary key of entry `entry`.
    func setPrimaryKey(_ primaryKey: Int64, of entry: Int) throws(SQLiteError) {
        let statement = try connection.cachedStatement("UPDATE keys SET pk = ? WHERE entry = ?")
        statement.bind(primaryKey, at: 1)
        statement.bind(Int64(entry), at: 2)
        try statement.run()
    }

    /// Sets the primary key and file of entry `entry`.
    func set(_ primaryKey: Int64, file: Int32, of entry: Int) throws(SQLiteError) {
        let statement = try connection.cachedStatement("UPDATE keys SET pk = ?, file = ? WHERE entry = ?")
        statement.bind(primaryKey, at: 1)
        statement.bind(Int64(file), at: 2)
        statement.bind(Int64(entry), at: 3)
        try statement.run()
    }
}
