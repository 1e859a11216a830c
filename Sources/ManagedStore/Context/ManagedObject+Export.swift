import Foundation

extension Value {
    /// The value as JSON: numbers and booleans as such, dates in ISO 8601 UTC, data in base 64,
    /// a to-one destination as its primary key, null as `NSNull`.
    ///
    /// For example:
    ///
    /// ```swift
    /// Value.date(Date(timeIntervalSinceReferenceDate: 0)).jsonObject   // "2001-01-01T00:00:00Z"
    /// ```
    public var jsonObject: Any {
        switch self {
        case .null: NSNull()
        case .integer(let v): v
        case .double(let v): v.isFinite ? v : "\(v)"
        case .decimal(let v): NSDecimalNumber(decimal: v)
        case .string(let v): v
        case .bool(let v): v
        case .date(let v): ISO8601.string(from: v)
        case .data(let v): v.base64EncodedString()
        case .uuid(let v): v.uuidString
        case .uri(let v): v.absoluteString
        case .object(let id): id.primaryKey
        }
    }

    /// The value as text for a table or CSV cell: empty for null, ISO 8601 for dates, the key for a destination.
    public var cellText: String {
        switch self {
        case .null: ""
        case .object(let id): String(id.primaryKey)
        case .bool(let v): v ? "true" : "false"
        case .data(let v): v.base64EncodedString()
        default: description
        }
    }
}
