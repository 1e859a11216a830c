import Foundation

/// A number's value as a Decimal holds it: its significant digits, leading and trailing zeros dropped,
/// and the power of ten of the last one. Every spelling of a value gives the same: `1e128`, `1.0e128`,
/// `10e127`, `0.01e130` and `+0001.000e128` are all one digit at 10^128.
///
/// For example:
///
/// ```swift
/// Array("12.50e3".utf8).withUnsafeBufferPointer { _DecimalDigits($0)! }   // 125 at 10^2: count 3, exponent 2
/// ```
///
/// - Complexity: O(n) in the field's length, no allocation; ``decimal(_:)`` makes one String.
struct _DecimalDigits {
    /// What Foundation's `Decimal` holds: at most 38 significant digits, the last at a power of ten
    /// from 10^-128 to 10^127.
    static let maximumDigits = 38
    static let exponents = -128...127

    var negative = false
    /// The significant digits, from the first nonzero one to the last: 0 for zero.
    var count = 0
    /// The power of ten of the last significant digit.
    var exponent = 0
    /// Where the first and last significant digits are in the bytes read.
    private var first = 0
    private var last = -1

    /// Reads the digits of a number that ``_NumberParser/double(_:)`` accepts (an optional sign, digits
    /// with optional `,` separators, a fraction, an exponent); `nil` for anything else.
    init?(_ bytes: UnsafeBufferPointer<UInt8>) {
        var i = 0
        if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
            negative = sign == UInt8(ascii: "-")
            i = 1
        }
        var digits = 0
        var point: Int?
        var lastDigit = 0
        while i < bytes.count {
            let byte = bytes[i]
            if (byte &- UInt8(ascii: "0")) < 10 {
                if byte != UInt8(ascii: "0") {
                    if last < 0 { first = i }
                    last = i
                    lastDigit = digits
                }
                digits += 1
            } else if byte == UInt8(ascii: ".") {
                guard point == nil else { return nil }
                point = digits
            } else if byte != UInt8(ascii: ",") {
                break
            }
            i += 1
        }
        guard digits > 0 else { return nil }
        var written = 0
        if i < bytes.count {
            guard bytes[i] | 0x20 == UInt8(ascii: "e"), i + 1 < bytes.count else { return nil }
            i += 1
            let exponentNegative = bytes[i] == UInt8(ascii: "-")
            if bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") { i += 1 }
            guard i < bytes.count else { return nil }
            while i < bytes.count {
                let digit = bytes[i] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                // Past any Decimal or Double either way; capped so it cannot overflow.
                if written < 1 << 40 { written = written * 10 + Int(digit) }
                i += 1
            }
            if exponentNegative { written = -written }
        }
        guard last >= 0 else {
            negative = false
            return
        }
        // Digits between the first and last significant ones, separators left out.
        count = bytes[first...last].reduce(0) { $0 + (($1 &- UInt8(ascii: "0")) < 10 ? 1 : 0) }
        exponent = (point ?? digits) - 1 - lastDigit + written
    }

    /// Whether a `Decimal` holds the value exactly (``maximumDigits``, ``exponents``).
    var fitsDecimal: Bool {
        count <= Self.maximumDigits && (count == 0 || Self.exponents.contains(exponent))
    }

    /// The value as a `Decimal`, written in one spelling (`125e1`) so Foundation reads it by value; `nil`
    /// when it does not fit (``fitsDecimal``). `bytes` are the ones read.
    func decimal(_ bytes: UnsafeBufferPointer<UInt8>) -> Decimal? {
        guard fitsDecimal else { return nil }
        guard count > 0 else { return Decimal.zero }
        var text = negative ? "-" : ""
        text.reserveCapacity(count + 6)
        for byte in bytes[first...last] where (byte &- UInt8(ascii: "0")) < 10 { text.unicodeScalars.append(Unicode.Scalar(byte)) }
        text += "e"
        text += String(exponent)
        return Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
    }
}
