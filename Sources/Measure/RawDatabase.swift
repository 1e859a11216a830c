import CSQLite
import Foundation

/// A bare sqlite3 handle for raw reference measurements: the C API with nothing on top.
///
/// Every speed figure SeedStore reports carries its ratio to the same work done through this type
/// in the same run. It deliberately does no caching, counting or logging of its own.
///
/// For example:
///
/// ```swift
/// let raw = try RawDatabase(path: "Wells.sqlite")
/// try raw.exec("PRAGMA cache_size = -65536")
/// ```
public final class RawDatabase {
    /// The handle.
    public let db: OpaquePointer

    /// Opens the SQLite database at `path` without a mutex, read-write and created if missing, or read-only
    /// when `readOnly` is true; throws ``RawError`` when it cannot be opened.
    ///
    /// For example:
    ///
    /// ```swift
    /// let raw = try RawDatabase(path: store.path, readOnly: true)
    /// let rows = try raw.readAll("SELECT * FROM ZWELL")
    /// ```
    public init(path: String, readOnly: Bool = false) throws {
        var handle: OpaquePointer?
        let flags = readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        guard sqlite3_open_v2(path, &handle, flags | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK, let handle else {
            throw RawError(message: "cannot open \(path)")
        }
        self.db = handle
    }

    private var cache: [String: OpaquePointer] = [:]

    deinit {
        for statement in cache.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(db)
    }

    /// The statement for `sql`, prepared once and reset for reuse, as any serious raw loop would.
    public func cached(_ sql: String) throws -> OpaquePointer {
        if let statement = cache[sql] {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
            return statement
        }
        let statement = try prepare(sql)
        cache[sql] = statement
        return statement
    }

    /// Runs SQL without arguments.
    public func exec(_ sql: String) throws {
        guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else {
            throw RawError(message: String(cString: sqlite3_errmsg(db)) + " — " + sql)
        }
    }

    /// Prepares a statement the caller finalizes.
    public func prepare(_ sql: String) throws -> OpaquePointer {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw RawError(message: String(cString: sqlite3_errmsg(db)) + " — " + sql)
        }
        return statement
    }

    /// Steps a statement; throws on anything but a row or done.
    @inline(__always)
    public func step(_ statement: OpaquePointer) throws -> Bool {
        let rc = sqlite3_step(statement)
        if rc == SQLITE_ROW { return true }
        if rc == SQLITE_DONE { return false }
        throw RawError(message: String(cString: sqlite3_errmsg(db)))
    }

    /// Text of column `i` as a Swift string (what any caller needs to use it).
    @inline(__always)
    public static func text(_ statement: OpaquePointer, _ i: Int32) -> String? {
        guard let bytes = sqlite3_column_text(statement, i) else { return nil }
        return String(decoding: UnsafeBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(statement, i))), as: UTF8.self)
    }

    /// Binds text for the duration of the statement's step.
    @inline(__always)
    public static func bind(_ statement: OpaquePointer, _ i: Int32, _ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            _ = sqlite3_bind_text(statement, i, UnsafeRawPointer(utf8.baseAddress!).assumingMemoryBound(to: CChar.self),
                                  Int32(utf8.count), _seedstore_sqlite_transient())
        }
    }
}

/// A failure in a raw reference run.
public struct RawError: Error, CustomStringConvertible {
    /// What failed: SQLite's error message (followed by the SQL when there is one), or `cannot open PATH`.
    public let message: String
    public var description: String { "raw SQLite reference failed: \(message)" }
}

extension RawDatabase {
    /// Runs `sql` with integer arguments and reads every column of every row into a Swift value
    /// (text into `String`, numbers into `Int64`/`Double`), as any use of the rows must.
    ///
    /// Returns the number of rows.
    @discardableResult
    public func readAll(_ sql: String, _ arguments: [Int64] = []) throws -> Int {
        let statement = try cached(sql)
        defer { sqlite3_reset(statement) }
        for (i, value) in arguments.enumerated() { sqlite3_bind_int64(statement, Int32(i + 1), value) }
        return try readRows(statement)
    }

    /// Steps a prepared statement to the end, reading every column, and hands each row to `eachRow` (to
    /// collect keys, say); returns the number of rows.
    ///
    /// For example:
    ///
    /// ```swift
    /// var keys: [Int64] = []
    /// try raw.readRows(try raw.cached("SELECT ZOPERATOR, * FROM ZWELL")) { keys.append(sqlite3_column_int64($0, 0)) }
    /// ```
    @discardableResult
    public func readRows(_ statement: OpaquePointer, eachRow: ((OpaquePointer) -> Void)? = nil) throws -> Int {
        let columns = sqlite3_column_count(statement)
        var rows = 0
        var checksum = 0
        while try step(statement) {
            eachRow?(statement)
            for i in 0..<columns {
                switch sqlite3_column_type(statement, i) {
                case SQLITE_INTEGER: checksum &+= Int(truncatingIfNeeded: sqlite3_column_int64(statement, i))
                case SQLITE_FLOAT: checksum &+= Int(sqlite3_column_double(statement, i).bitPattern & 0xFF)
                case SQLITE_TEXT: checksum &+= RawDatabase.text(statement, i)?.utf8.count ?? 0
                case SQLITE_BLOB: checksum &+= Int(sqlite3_column_bytes(statement, i))
                default: break
                }
            }
            rows += 1
        }
        blackHole = checksum
        return rows
    }

    /// The primary keys `sql` returns.
    public func keys(_ sql: String) throws -> [Int64] {
        let statement = try cached(sql)
        defer { sqlite3_reset(statement) }
        var keys: [Int64] = []
        while try step(statement) { keys.append(sqlite3_column_int64(statement, 0)) }
        return keys
    }
}

/// Keeps the optimiser from dropping work whose result is otherwise unused.
nonisolated(unsafe) public var blackHole = 0
