import CSQLite
import Foundation

/// A prepared SQLite statement: bind values by index, step, read columns by index.
///
/// Statements come from ``Connection/cachedStatement(_:)`` and are reused; they are not `Sendable`.
///
/// For example:
///
/// ```swift
/// let select = try db.cachedStatement("SELECT ZTITLE FROM ZBOOK WHERE Z_PK = ?")
/// try select.bind([.integer(1)])
/// while try select.step() { print(select.text(at: 0)) }
/// ```
///
/// See <https://www.sqlite.org/c3ref/stmt.html>.
public final class Statement {
    let handle: OpaquePointer
    /// The SQL text the statement was compiled from.
    public let sql: String
    /// Statements live in their connection's cache and never outlive it.
    unowned(unsafe) let connection: Connection
    /// Whether bound values are kept for the log (SQL debug level 2 or more), decided per run.
    private var logsBinds = false
    @exclusivity(unchecked) private var running = false
    private var finalized = false
    private var boundForLog: [SQLValue]?
    private var startTime: UInt64 = 0
    @exclusivity(unchecked) private var rowsThisRun = 0

    init(handle: OpaquePointer, sql: String, connection: Connection) {
        self.handle = handle
        self.sql = sql
        self.connection = connection
    }

    deinit { finalize() }

    func finalize() {
        if !finalized {
            sqlite3_finalize(handle)
            finalized = true
        }
    }

    /// The number of columns a row of this statement has.
    public var columnCount: Int32 { sqlite3_column_count(handle) }

    /// The name of column `index`.
    public func columnName(at index: Int32) -> String { String(cString: sqlite3_column_name(handle, index)) }

    /// Resets the statement so it can run again; bindings stay.
    public func reset() {
        if running { finishRun() }
        sqlite3_reset(handle)
        logsBinds = connection.sqlDebugLevel >= 2
        if !logsBinds { boundForLog = nil }
    }

    // MARK: Binding

    /// Resets the statement and binds `values` to parameters 1...n.
    public func bind(_ values: [SQLValue]) throws(SQLiteError) {
        reset()
        logsBinds = connection.sqlDebugLevel >= 2
        sqlite3_clear_bindings(handle)
        for (i, value) in values.enumerated() {
            try bind(value, at: Int32(i + 1))
        }
    }

    /// Binds one value to parameter `index` (1-based).
    public func bind(_ value: SQLValue, at index: Int32) throws(SQLiteError) {
        let rc: Int32
        switch value {
        case .null: rc = sqlite3_bind_null(handle, index)
        case .integer(let v): rc = sqlite3_bind_int64(handle, index, v)
        case .real(let v): rc = sqlite3_bind_double(handle, index, v)
        case .text(let v): rc = Self.bindText(handle, index, v)
        case .blob(let v):
            rc = v.withUnsafeBytes { raw in
                sqlite3_bind_blob64(handle, index, raw.baseAddress, sqlite3_uint64(raw.count), _seedstore_sqlite_transient())
            }
        }
        if rc != SQLITE_OK { throw connection.error(rc, sql: sql) }
        if logsBinds {
            var log = boundForLog ?? []
            while log.count < Int(index) { log.append(.null) }
            log[Int(index) - 1] = value
            boundForLog = log
        }
    }

    /// Binds bytes as a blob, copied by SQLite, without an array in between.
    ///
    /// ```swift
    /// try key.withUnsafeBytes { try statement.bindBlob($0, at: 1) }
    /// ```
    @inline(__always)
    public func bindBlob(_ bytes: UnsafeRawBufferPointer, at index: Int32) throws(SQLiteError) {
        // A zero-length blob needs a non-null pointer to be a blob rather than NULL.
        let base = bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!
        let rc = sqlite3_bind_blob64(handle, index, base, sqlite3_uint64(bytes.count), _seedstore_sqlite_transient())
        if rc != SQLITE_OK { throw connection.error(rc, sql: sql) }
        if logsBinds { noteBound(.blob(Array(bytes)), index) }
    }

    /// Binds an integer without boxing it in an ``SQLValue``.
    @inline(__always)
    public func bind(_ value: Int64, at index: Int32) {
        sqlite3_bind_int64(handle, index, value)
        if logsBinds { noteBound(.integer(value), index) }
    }

    /// Binds a double without boxing it.
    @inline(__always)
    public func bind(_ value: Double, at index: Int32) {
        sqlite3_bind_double(handle, index, value)
        if logsBinds { noteBound(.real(value), index) }
    }

    /// Binds text without boxing it.
    @inline(__always)
    public func bind(_ value: String, at index: Int32) {
        _ = Self.bindText(handle, index, value)
        if logsBinds { noteBound(.text(value), index) }
    }

    /// Binds NULL.
    @inline(__always)
    public func bindNull(at index: Int32) {
        sqlite3_bind_null(handle, index)
        if logsBinds { noteBound(.null, index) }
    }

    private func noteBound(_ value: SQLValue, _ index: Int32) {
        var log = boundForLog ?? []
        while log.count < Int(index) { log.append(.null) }
        log[Int(index) - 1] = value
        boundForLog = log
    }

    @inline(__always)
    private static func bindText(_ handle: OpaquePointer, _ index: Int32, _ value: String) -> Int32 {
        var value = value
        return value.withUTF8 { utf8 in
            sqlite3_bind_text64(handle, index, UnsafeRawPointer(utf8.baseAddress!).assumingMemoryBound(to: CChar.self),
                                sqlite3_uint64(utf8.count), _seedstore_sqlite_transient(), UInt8(SQLITE_UTF8))
        }
    }

    // MARK: Stepping

    /// Steps once: `true` when a row is ready, `false` when the statement is done.
    ///
    /// A failure drops the statement from the connection's cache and throws the SQL with the error.
    @inline(__always)
    public func step() throws(SQLiteError) -> Bool {
        if !running { beginRun() }
        let rc = sqlite3_step(handle)
        if rc == SQLITE_ROW {
            connection.stats.rows += 1
            rowsThisRun += 1
            if connection.sqlDebugLevel >= 3 { logRow() }
            return true
        }
        if rc == SQLITE_DONE {
            finishRun()
            return false
        }
        running = false
        let error = connection.error(rc, sql: sql)
        sqlite3_reset(handle)
        connection.uncache(self)
        throw error
    }

    /// Runs the statement to completion, ignoring rows.
    public func run() throws(SQLiteError) {
        while try step() {}
    }

    private func beginRun() {
        running = true
        rowsThisRun = 0
        connection.stats.statements += 1
        if connection.sqlDebugLevel >= 1 {
            startTime = DispatchTime.now().uptimeNanoseconds
            var line = sql
            if connection.sqlDebugLevel >= 2, let bound = boundForLog, !bound.isEmpty {
                line += "  -- bound: " + bound.map(\.description).joined(separator: ", ")
            }
            connection.log(line)
        }
    }

    private func finishRun() {
        running = false
        if connection.sqlDebugLevel >= 1 {
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - startTime) / 1e9
            connection.log(String(format: "  %d row(s) in %.6fs", rowsThisRun, elapsed))
        }
    }

    private func logRow() {
        let values = (0..<columnCount).map { value(at: $0).description }
        connection.log("  row: " + values.joined(separator: " | "))
    }

    // MARK: Columns

    /// SQLite's storage class of column `index` in the current row.
    @inline(__always)
    public func isNull(at index: Int32) -> Bool { sqlite3_column_type(handle, index) == SQLITE_NULL }

    /// Column `index` as an integer.
    @inline(__always)
    public func int64(at index: Int32) -> Int64 { sqlite3_column_int64(handle, index) }

    /// Column `index` as a double.
    @inline(__always)
    public func double(at index: Int32) -> Double { sqlite3_column_double(handle, index) }

    /// Column `index` as text (empty for NULL).
    @inline(__always)
    public func text(at index: Int32) -> String {
        guard let bytes = sqlite3_column_text(handle, index) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// Column `index` as bytes (empty for NULL).
    public func blob(at index: Int32) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(handle, index))
        guard count > 0, let bytes = sqlite3_column_blob(handle, index) else { return [] }
        return Array(UnsafeRawBufferPointer(start: bytes, count: count))
    }

    /// Calls `body` with column `index`'s bytes in place, valid only during the call (empty for NULL).
    ///
    /// ```swift
    /// statement.withBlob(at: 0) { bytes in hasher.combine(bytes: bytes) }
    /// ```
    public func withBlob<R>(at index: Int32, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        let bytes = sqlite3_column_blob(handle, index)
        let count = Int(sqlite3_column_bytes(handle, index))
        return try body(UnsafeRawBufferPointer(start: count > 0 ? bytes : nil, count: count))
    }

    /// Column `index` in its own storage class.
    public func value(at index: Int32) -> SQLValue {
        switch sqlite3_column_type(handle, index) {
        case SQLITE_INTEGER: .integer(int64(at: index))
        case SQLITE_FLOAT: .real(double(at: index))
        case SQLITE_TEXT: .text(text(at: index))
        case SQLITE_BLOB: .blob(blob(at: index))
        default: .null
        }
    }

    /// The storage class code of column `index` (`SQLITE_INTEGER` and friends).
    @inline(__always)
    public func storageClass(at index: Int32) -> Int32 { sqlite3_column_type(handle, index) }
}
