import Foundation

/// A value as SQLite stores it: one of its five storage classes.
///
/// For example:
///
/// ```swift
/// try connection.execute("INSERT INTO t(x) VALUES (?)", [.text("hello")])
/// ```
///
/// See <https://www.sqlite.org/datatype3.html>.
public enum SQLValue: Sendable, Hashable, CustomStringConvertible {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    public var description: String {
        switch self {
        case .null: "NULL"
        case .integer(let v): String(v)
        case .real(let v): String(v)
        case .text(let v): "'" + v.replacingOccurrences(of: "'", with: "''") + "'"
        case .blob(let v): "X'" + v.map { String(format: "%02X", $0) }.joined() + "'"
        }
    }

    /// The value as an integer, when it is one (or a real without fraction).
    public var int64: Int64? {
        switch self {
        case .integer(let v): v
        case .real(let v) where v.rounded() == v: Int64(exactly: v)
        case .text(let s): Int64(s)
        default: nil
        }
    }

    /// The value as a double, when it is numeric.
    public var double: Double? {
        switch self {
        case .integer(let v): Double(v)
        case .real(let v): v
        case .text(let s): Double(s)
        default: nil
        }
    }

    /// The value as text, when it is text.
    public var string: String? {
        if case .text(let s) = self { return s }
        return nil
    }
}
