import CSQLite
import Foundation

/// Counts of the work a connection asked SQLite to do.
///
/// These counts do not depend on the machine, so tests and CI gates can assert them exactly.
///
/// For example:
///
/// ```swift
/// let before = connection.stats
/// _ = try context.fetch(request)
/// print(connection.stats - before)   // statements: 2, rows: 21
/// ```
public struct ConnectionStats: Sendable, Equatable, CustomStringConvertible {
    /// Statements run: each execution of a prepared statement counts once.
    public var statements: Int = 0
    /// Rows stepped: each `SQLITE_ROW` result counts once.
    public var rows: Int = 0
    /// Statements compiled (cache misses).
    public var prepares: Int = 0

    /// Counts with the given values, 0 for any left out.
    ///
    /// For example:
    ///
    /// ```swift
    /// let before = connection.stats
    /// _ = try connection.rows("SELECT x FROM t")   // five rows, a statement not yet cached
    /// #expect(connection.stats - before == ConnectionStats(statements: 1, rows: 5, prepares: 1))
    /// ```
    public init(statements: Int = 0, rows: Int = 0, prepares: Int = 0) {
        self.statements = statements
        self.rows = rows
        self.prepares = prepares
    }

    /// The work done between two readings: each count of `lhs` minus the same count of `rhs`.
    ///
    /// For example:
    ///
    /// ```swift
    /// let before = connection.stats
    /// try context.save()
    /// print((connection.stats - before).statements)
    /// ```
    public static func - (lhs: ConnectionStats, rhs: ConnectionStats) -> ConnectionStats {
        ConnectionStats(statements: lhs.statements - rhs.statements, rows: lhs.rows - rhs.rows,
                        prepares: lhs.prepares - rhs.prepares)
    }

    public var description: String { "statements: \(statements), rows: \(rows), prepares: \(prepares)" }
}

/// How much SQL a connection logs, after Core Data's `com.apple.CoreData.SQLDebug` levels.
///
/// - 0: nothing.
/// - 1: each statement's SQL, with the rows it returned and the time it took.
/// - 2: level 1 plus the values bound to each statement.
/// - 3: level 2 plus every row returned.
///
/// Set it with the `SEEDSTORE_SQL_DEBUG` environment variable or the CLI's `--sql-debug N`.
///
/// For example:
///
/// ```swift
/// connection.sqlDebugLevel = 2
/// ```
public typealias SQLDebugLevel = Int

/// One SQLite database connection: the only owner of a `sqlite3` handle.
///
/// A connection caches prepared statements by SQL text, counts statements and rows,
/// and logs SQL at the chosen ``SQLDebugLevel``. It is not thread-safe: use it from one task.
///
/// For example:
///
/// ```swift
/// let db = try Connection(path: ":memory:")
/// try db.execute("CREATE TABLE t(x INTEGER)")
/// try db.execute("INSERT INTO t(x) VALUES (?)", [.integer(42)])
/// let n = try db.scalar("SELECT count(*) FROM t")   // .integer(1)
/// ```
///
/// See <https://www.sqlite.org/c3ref/sqlite3.html>.
public final class Connection {
    /// The raw handle; only the SQLite layer uses it.
    let handle: OpaquePointer
    /// The file path, or `:memory:`.
    public let path: String
    /// Counts of statements and rows since the connection opened.
    @exclusivity(unchecked) public internal(set) var stats = ConnectionStats()
    /// The SQL log level (see ``SQLDebugLevel``).
    @exclusivity(unchecked) public var sqlDebugLevel: SQLDebugLevel
    /// Where log lines go; standard error by default.
    public var log: (String) -> Void = { line in
        FileHandle.standardError.write(Data(("SQL: " + line + "\n").utf8))
    }
    private var cache: [String: Statement] = [:]
    private var transactionDepth = 0

    /// The environment variable that sets the default SQL log level.
    public static let debugEnvironmentVariable = "SEEDSTORE_SQL_DEBUG"

    /// Opens (or creates, when `create` is true) the database at `path`.
    ///
    /// - Parameters:
    ///   - path: a file path, or `:memory:` for a private in-memory database.
    ///   - readOnly: open without write access.
    ///   - create: create the file when it does not exist.
    public init(path: String, readOnly: Bool = false, create: Bool = true) throws(SQLiteError) {
        var db: OpaquePointer?
        var flags = readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE
        if create && !readOnly { flags |= SQLITE_OPEN_CREATE }
        flags |= SQLITE_OPEN_NOMUTEX
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            if let db { sqlite3_close_v2(db) }
            throw SQLiteError(code: rc & 0xFF, extendedCode: rc, message: "cannot open \(path): \(message)")
        }
        self.handle = db
        self.path = path
        self.sqlDebugLevel = ProcessInfo.processInfo.environment[Self.debugEnvironmentVariable].flatMap(Int.init) ?? 0
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, 5_000)
    }

    deinit {
        for statement in cache.values { statement.finalize() }
        cache.removeAll()
        sqlite3_close_v2(handle)
    }

    // MARK: Statements

    /// Returns the cached prepared statement for `sql`, compiling it on first use.
    ///
    /// - Complexity: O(1) on a cache hit.
    public func cachedStatement(_ sql: String) throws(SQLiteError) -> Statement {
        if let statement = cache[sql] {
            statement.reset()
            return statement
        }
        let statement = try prepare(sql, persistent: true)
        cache[sql] = statement
        return statement
    }

    /// Compiles `sql` into a new statement that the caller owns (not cached).
    public func prepare(_ sql: String, persistent: Bool = false) throws(SQLiteError) -> Statement {
        var stmt: OpaquePointer?
        let flags: UInt32 = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
        let rc = sqlite3_prepare_v3(handle, sql, -1, flags, &stmt, nil)
        guard rc == SQLITE_OK, let stmt else {
            throw error(rc, sql: sql)
        }
        stats.prepares += 1
        return Statement(handle: stmt, sql: sql, connection: self)
    }

    /// Drops a statement from the cache (after it failed, say).
    func uncache(_ statement: Statement) {
        if cache[statement.sql] === statement { cache[statement.sql] = nil }
    }

    /// Runs one or more statements that take no arguments and return no rows.
    public func execute(_ sql: String) throws(SQLiteError) {
        if sqlDebugLevel >= 1 { log(sql) }
        var message: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &message)
        stats.statements += 1
        if rc != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(message)
            throw SQLiteError(code: rc & 0xFF, extendedCode: sqlite3_extended_errcode(handle), message: text, sql: sql)
        }
    }

    /// Runs one statement with bound arguments, discarding any rows.
    public func execute(_ sql: String, _ arguments: [SQLValue]) throws(SQLiteError) {
        let statement = try cachedStatement(sql)
        try statement.bind(arguments)
        try statement.run()
    }

    /// Runs a query and returns every row as an array of values.
    public func rows(_ sql: String, _ arguments: [SQLValue] = []) throws(SQLiteError) -> [[SQLValue]] {
        let statement = try cachedStatement(sql)
        try statement.bind(arguments)
        var result: [[SQLValue]] = []
        let count = statement.columnCount
        while try statement.step() {
            var row: [SQLValue] = []
            row.reserveCapacity(Int(count))
            for i in 0..<count { row.append(statement.value(at: i)) }
            result.append(row)
        }
        return result
    }

    /// Runs a query and returns the first column of the first row, or `nil` when there is none.
    public func scalar(_ sql: String, _ arguments: [SQLValue] = []) throws(SQLiteError) -> SQLValue? {
        let statement = try cachedStatement(sql)
        try statement.bind(arguments)
        defer { statement.reset() }
        return try statement.step() ? statement.value(at: 0) : nil
    }

    /// The row ID of the last inserted row.
    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    public var changes: Int { Int(sqlite3_changes(handle)) }

    /// Whether the connection is inside a transaction.
    public var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    // MARK: Transactions

    /// How a transaction takes its lock.
    public enum TransactionKind: String, Sendable {
        case deferred = "DEFERRED", immediate = "IMMEDIATE", exclusive = "EXCLUSIVE"
    }

    /// Runs `body` in a transaction (or a savepoint, when one is already open):
    /// commits when it returns, rolls back when it throws.
    ///
    /// For example:
    ///
    /// ```swift
    /// try db.transaction { try db.execute("DELETE FROM t") }
    /// ```
    public func transaction<T>(_ kind: TransactionKind = .immediate, _ body: () throws -> T) throws -> T {
        let savepoint = "seedstore_\(transactionDepth)"
        if transactionDepth == 0 {
            try execute("BEGIN \(kind.rawValue) TRANSACTION")
        } else {
            try execute("SAVEPOINT \(savepoint)")
        }
        transactionDepth += 1
        do {
            let value = try body()
            transactionDepth -= 1
            try execute(transactionDepth == 0 ? "COMMIT TRANSACTION" : "RELEASE SAVEPOINT \(savepoint)")
            return value
        } catch {
            transactionDepth -= 1
            if transactionDepth == 0 {
                if isInTransaction { try? execute("ROLLBACK TRANSACTION") }
            } else {
                try? execute("ROLLBACK TO SAVEPOINT \(savepoint)")
                try? execute("RELEASE SAVEPOINT \(savepoint)")
            }
            throw error
        }
    }

    /// Runs `body` inside one read transaction, so a storm of small SELECTs takes the lock once.
    ///
    /// Inside an open transaction it simply runs `body`.
    public func readTransaction<T>(_ body: () throws -> T) throws -> T {
        if isInTransaction { return try body() }
        return try transaction(.deferred, body)
    }

    // MARK: Errors

    func error(_ rc: Int32, sql: String?) -> SQLiteError {
        SQLiteError(code: rc & 0xFF, extendedCode: sqlite3_extended_errcode(handle),
                    message: String(cString: sqlite3_errmsg(handle)), sql: sql)
    }

    /// SQLite's library version, such as `3.40.1`.
    public static var sqliteVersion: String { String(cString: sqlite3_libversion()) }
}
