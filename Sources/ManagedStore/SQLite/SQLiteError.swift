import CSQLite

/// An error reported by SQLite, with the result code, SQLite's message and the SQL that failed.
///
/// Bound values are left out of the description on purpose: they may hold user data.
///
/// For example:
///
/// ```swift
/// do { try connection.execute("CREATE TABLE t(x)") }
/// catch let error as SQLiteError { print(error.extendedCode, error.sql ?? "") }
/// ```
///
/// See <https://www.sqlite.org/rescode.html>.
public struct SQLiteError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The primary result code (`SQLITE_CONSTRAINT` is 19).
    public let code: Int32
    /// The extended result code (`SQLITE_CONSTRAINT_UNIQUE` is 2067).
    public let extendedCode: Int32
    /// SQLite's own message.
    public let message: String
    /// The statement that failed, when there was one.
    public let sql: String?

    /// An error with result code `code`, `extendedCode` (`code` when `nil`), SQLite's `message` and the
    /// failing statement `sql`, if any.
    ///
    /// For example:
    ///
    /// ```swift
    /// let error = SQLiteError(code: 19, extendedCode: 2067, message: "UNIQUE constraint failed: ZTAG.ZNAME",
    ///                         sql: "INSERT INTO ZTAG (ZNAME) VALUES (?1)")
    /// ```
    public init(code: Int32, extendedCode: Int32? = nil, message: String, sql: String? = nil) {
        self.code = code
        self.extendedCode = extendedCode ?? code
        self.message = message
        self.sql = sql
    }

    public var description: String {
        var text = "SQLite error \(extendedCode) (\(String(cString: sqlite3_errstr(extendedCode)))): \(message)"
        // A statement of a few hundred characters says which one it was; past that it buries the message.
        if let sql { text += " — while running: " + (sql.count > 300 ? sql.prefix(300) + "… (\(sql.count.formatted()) characters)" : sql) }
        // SQLite's limit on nesting, reached by long chains of AND/OR: say how to write such a predicate.
        if message.hasPrefix("Expression tree is too large") {
            text += ". A predicate of that many conditions nests past SQLite's limit: write a long list of values as IN {…} (name IN {'a', 'b'}, or NOT (name IN {…}))"
        }
        return text
    }
}
