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

    public init(path: String, readOnly: Bool = false) throws {
        var handle: OpaquePointer?
        let flags = readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        guard sqlite3_open_v2(path, &handle, flags | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK, let handle else {
            throw RawError(message: "cannot open \(path)")
        }
        self.db = handle
    }

    deinit { sqlite3_close_v2(db) }

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
    public let message: String
    public var description: String { "raw SQLite reference failed: \(message)" }
}
