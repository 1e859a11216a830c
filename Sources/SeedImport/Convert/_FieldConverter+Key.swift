/// Reasons for a key that does not convert: a relationship column's, or one of a join file's two.
extension _FieldConverter {
    /// Why `bytes` are not a key of this converter's type, worded to stand after the column's name in a
    /// reject, whatever ``explain(_:)`` says.
    ///
    /// For example:
    ///
    /// ```swift
    /// converter.explainKey(bytes, quoted: true)   // the key is empty (it is quoted, so it is text, not null); it should be a whole number
    /// converter.explainKey(bytes, quoted: false)  // the key is not valid: not a whole number
    /// ```
    func explainKey(_ bytes: UnsafeBufferPointer<UInt8>, quoted: Bool) -> String {
        guard bytes.isEmpty else { return "the key is not valid: " + explain(bytes) }
        return "the key is empty\(quoted ? " (it is quoted, so it is text, not null)" : ""); it should be \(expected)"
    }

    /// What a value of this converter's type is, for messages: `a whole number`, `a date`.
    var expected: String {
        switch self {
        case .string: "text"
        case .integer: "a whole number"
        case .double, .float, .decimal: "a number"
        case .decimalComma(let box): box.takeUnretainedValue().converter.expected
        case .boolean, .booleanWords: "true or false"
        case .date: "a date"
        case .uuid: "a UUID"
        case .uri: "a URI"
        case .binary: "data (Base64, or hexadecimal after 0x)"
        case .transformable(_, let box): "a value for \(box.takeUnretainedValue().name)"
        }
    }

    /// Whether the converter reads `,` as a thousands separator: a number attribute read without a decimal
    /// comma. In a `;`-separated file such values are counted for a warning (``_FieldTally``).
    var readsCommaGrouping: Bool {
        switch self {
        case .integer, .double, .float, .decimal: true
        default: false
        }
    }

    /// Whether the converter reads numbers with a decimal comma, so `.` groups thousands (`4.500` is 4500).
    var readsDotGrouping: Bool {
        if case .decimalComma = self { return true }
        return false
    }
}
