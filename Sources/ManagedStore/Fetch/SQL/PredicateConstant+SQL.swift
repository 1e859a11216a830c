import Foundation

// How predicate constants and stored values meet in SQL: the value a constant binds as, the
// constant a stored value reads as in memory, and the kinds that decide which comparisons can
// ever hold.

extension PredicateConstant {
    /// The constant as the store keeps such a value: dates as seconds since 2001-01-01, Booleans
    /// 0/1, UUIDs as 16-byte blobs. Arrays have no single SQL value (they expand to `IN (…)`).
    var sqlValue: SQLValue {
        switch self {
        case .null, .array: .null
        case .bool(let flag): .integer(flag ? 1 : 0)
        case .int(let value): .integer(value)
        case .double(let value): .real(value)
        case .string(let value): .text(value)
        case .date(let date): .real(date.timeIntervalSinceReferenceDate)
        case .data(let data): .blob(Array(data))
        case .uuid(let uuid): .blob(withUnsafeBytes(of: uuid.uuid) { Array($0) })
        }
    }

    /// What the constant compares as, or nil for `nil`, arrays and NaN (which equals and orders
    /// against nothing).
    var sqlKind: SQLKind? {
        switch self {
        case .null, .array: nil
        case .bool: .boolean
        case .int: .number
        case .double(let value): value.isNaN ? nil : .number
        case .string: .string
        case .date: .date
        case .data: .data
        case .uuid: .uuid
        }
    }
}

extension Value {
    /// The value as a predicate constant, as in-memory evaluation sees a stored value: a URI as
    /// its text, a decimal as a double, a to-one destination as its primary key.
    ///
    /// For example:
    ///
    /// ```swift
    /// let matches = try predicate.evaluate { keyPath in .scalar(object[keyPath[0]].predicateConstant) }
    /// ```
    package var predicateConstant: PredicateConstant {
        switch self {
        case .null: .null
        case .integer(let value): .int(value)
        case .double(let value): .double(value)
        case .decimal(let value): .double(NSDecimalNumber(decimal: value).doubleValue)
        case .string(let value): .string(value)
        case .bool(let flag): .bool(flag)
        case .date(let date): .date(date)
        case .data(let data): .data(data)
        case .uuid(let uuid): .uuid(uuid)
        case .uri(let url): .string(url.absoluteString)
        case .object(let id): .int(id.primaryKey)
        }
    }
}

/// What a value compares as, after in-memory evaluation's rules: numbers, Booleans and dates
/// compare with one another (except a date with a Boolean), strings with strings, data with
/// data, UUIDs with UUIDs; nothing else is ever equal or ordered.
///
/// The SQL compiler uses kinds to refuse an attribute compared with a constant of a kind it never
/// compares with, and to settle at compile time the other comparisons that can never hold, so
/// SQLite's type affinities (which would turn `'5'` into `5` next to an integer column) never get a
/// say.
enum SQLKind: Sendable, Hashable {
    case number, boolean, date, string, data, uuid
    /// A value whose type the compiler does not know (a result column named in a HAVING
    /// predicate): compared as written, with SQLite's own rules.
    case any

    init(_ type: AttributeType) {
        switch type {
        case .integer16, .integer32, .integer64, .decimal, .double, .float: self = .number
        case .boolean: self = .boolean
        case .date: self = .date
        case .string, .uri: self = .string
        case .binary, .transformable: self = .data
        case .uuid: self = .uuid
        }
    }

    /// Whether `[c]`/`[d]` string comparison applies between values of the two kinds.
    func comparesAsStrings(_ other: SQLKind) -> Bool {
        (self == .string || self == .any) && (other == .string || other == .any) && (self == .string || other == .string)
    }

    /// The kind of a stored column: its attribute's, or a number for a to-one foreign key.
    init(_ column: Column) {
        self = column.attribute.map { SQLKind($0.type) } ?? .number
    }

    private var isNumeric: Bool { self == .number || self == .boolean || self == .date }

    /// Whether values of the two kinds can be equal.
    func canEqual(_ other: SQLKind) -> Bool {
        if self == .any || other == .any { return true }
        if isNumeric && other.isNumeric {
            return !((self == .date && other == .boolean) || (self == .boolean && other == .date))
        }
        return self == other
    }

    /// Whether values of the two kinds order (data and UUIDs are equal or not, never less).
    func canOrder(_ other: SQLKind) -> Bool {
        canEqual(other) && self != .data && self != .uuid && other != .data && other != .uuid
    }
}
