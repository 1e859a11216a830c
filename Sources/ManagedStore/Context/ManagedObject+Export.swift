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
        case .decimal(let v): Self.compactDecimal("\(v)")
        default: description
        }
    }

    /// A decimal's plain text (`Decimal`'s description) as is up to 24 characters, in scientific form
    /// past that: `1e+127` rather than a 1 and 127 zeros, `-1.5e-100`; the importer reads either back
    /// as the same number.
    ///
    /// For example:
    ///
    /// ```swift
    /// Value.compactDecimal("12345.678")                                  // "12345.678"
    /// Value.compactDecimal("0.00000000000000000000000000000000000015")   // "1.5e-37"
    /// ```
    static func compactDecimal(_ text: String) -> String {
        guard text.count > 24 else { return text }
        let negative = text.hasPrefix("-")
        let body = negative ? text.dropFirst() : Substring(text)
        let parts = body.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let whole = parts[0], fraction = parts.count > 1 ? parts[1] : ""
        guard (whole + fraction).allSatisfy(\.isASCII), (whole + fraction).allSatisfy(\.isNumber),
              let first = (whole + fraction).firstIndex(where: { $0 != "0" }) else { return text }
        let digits = Array(whole + fraction)
        let start = (whole + fraction).distance(from: (whole + fraction).startIndex, to: first)
        var significant = digits[start...]
        while significant.last == "0" { significant = significant.dropLast() }
        let exponent = whole.count - start - 1
        let mantissa = String(significant.first!) + (significant.count > 1 ? "." + String(significant.dropFirst()) : "")
        return (negative ? "-" : "") + mantissa + "e" + (exponent < 0 ? "-" : "+") + String(abs(exponent))
    }
}
