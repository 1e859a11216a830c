/// Integer and floating-point parsing straight from a field's UTF-8 bytes: no Strings, no locale.
///
/// Accepted: an optional sign, digits with optional `,` thousands separators in groups of three
/// (`2,500`, `1,234,567`) after a first group of one to three digits that does not start with `0`
/// (`0,500` is no thousands-grouped number: it is a decimal comma, read wrongly as 500), for floating point an optional fraction after `.` and an exponent
/// (`1.5e-3`). An integer may carry a fraction of zeros only (`133856.0`), as spreadsheets and pandas write
/// whole numbers. Spaces are not skipped here: the importer trims fields before converting them.
///
/// - Complexity: O(n) in the field's length; one pass, no allocation on the fast path.
enum _NumberParser {
    /// Powers of ten exactly representable as `Double`.
    static let exactPowersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// Reads an integer, or `nil` when the bytes are not one or it overflows `Int64`.
    @inline(__always)
    static func integer(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        let count = bytes.count
        guard count > 0, let base = bytes.baseAddress else { return nil }
        var i = 0
        var negative = false
        if base[0] == UInt8(ascii: "-") || base[0] == UInt8(ascii: "+") {
            negative = base[0] == UInt8(ascii: "-")
            i = 1
        }
        // Accumulate as a negative number so Int64.min parses.
        var value: Int64 = 0
        var digits = 0
        var groupDigits = 0
        var grouped = false
        let start = i
        while i < count {
            let byte = base[i]
            let digit = byte &- UInt8(ascii: "0")
            if digit < 10 {
                let (times10, o1) = value.multipliedReportingOverflow(by: 10)
                let (next, o2) = times10.subtractingReportingOverflow(Int64(digit))
                if o1 || o2 { return nil }
                value = next
                digits += 1
                groupDigits += 1
            } else if byte == UInt8(ascii: ",") {
                if grouped ? groupDigits != 3 : (groupDigits == 0 || groupDigits > 3 || base[start] == UInt8(ascii: "0")) { return nil }
                grouped = true
                groupDigits = 0
            } else if byte == UInt8(ascii: ".") {
                // A fraction of zeros only: `133856.0`.
                var j = i + 1
                while j < count, base[j] == UInt8(ascii: "0") { j += 1 }
                guard j == count, digits > 0 else { return nil }
                break
            } else {
                return nil
            }
            i += 1
        }
        guard digits > 0, !grouped || groupDigits == 3 else { return nil }
        if negative { return value }
        guard value != Int64.min else { return nil }
        return -value
    }

    /// Reads a floating-point number, or `nil` when the bytes are not one.
    ///
    /// Up to 19 significant digits with a decimal exponent within ±22 convert exactly and correctly
    /// rounded in one multiplication or division (Clinger's fast path); longer or larger numbers go
    /// through the standard library's locale-independent parser.
    @inline(__always)
    static func double(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        let count = bytes.count
        guard count > 0, let base = bytes.baseAddress else { return nil }
        var i = 0
        var negative = false
        if base[0] == UInt8(ascii: "-") || base[0] == UInt8(ascii: "+") {
            negative = base[0] == UInt8(ascii: "-")
            i = 1
        }
        var mantissa: UInt64 = 0
        var significant = 0
        var exponent = 0
        var digits = 0
        var truncated = false
        var groupDigits = 0
        var grouped = false
        let start = i
        // Integer part.
        while i < count {
            let byte = base[i]
            let digit = byte &- UInt8(ascii: "0")
            if digit < 10 {
                digits += 1
                groupDigits += 1
                if mantissa == 0 && digit == 0 {
                    // a leading zero: not significant
                } else if significant < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(digit)
                    significant += 1
                } else {
                    exponent += 1
                    if digit != 0 { truncated = true }
                }
            } else if byte == UInt8(ascii: ",") {
                if grouped ? groupDigits != 3 : (groupDigits == 0 || groupDigits > 3 || base[start] == UInt8(ascii: "0")) { return nil }
                grouped = true
                groupDigits = 0
            } else {
                break
            }
            i += 1
        }
        if grouped && groupDigits != 3 { return nil }
        // Fraction.
        if i < count && base[i] == UInt8(ascii: ".") {
            i += 1
            while i < count {
                let digit = base[i] &- UInt8(ascii: "0")
                guard digit < 10 else { break }
                digits += 1
                if mantissa == 0 && digit == 0 {
                    exponent -= 1
                } else if significant < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(digit)
                    significant += 1
                    exponent -= 1
                } else if digit != 0 {
                    truncated = true
                }
                i += 1
            }
        }
        guard digits > 0 else { return nil }
        // Exponent.
        if i < count && (base[i] == UInt8(ascii: "e") || base[i] == UInt8(ascii: "E")) {
            i += 1
            var exponentNegative = false
            if i < count && (base[i] == UInt8(ascii: "-") || base[i] == UInt8(ascii: "+")) {
                exponentNegative = base[i] == UInt8(ascii: "-")
                i += 1
            }
            var written = 0
            var exponentDigits = 0
            while i < count {
                let digit = base[i] &- UInt8(ascii: "0")
                guard digit < 10 else { break }
                if written < 100_000 { written = written * 10 + Int(digit) }
                exponentDigits += 1
                i += 1
            }
            guard exponentDigits > 0 else { return nil }
            exponent += exponentNegative ? -written : written
        }
        guard i == count else { return nil }
        if mantissa == 0 { return negative ? -0.0 : 0.0 }
        if !truncated && mantissa <= 1 << 53 && exponent >= -22 && exponent <= 22 {
            var value = Double(mantissa)
            if exponent < 0 {
                value /= exactPowersOfTen[-exponent]
            } else {
                value *= exactPowersOfTen[exponent]
            }
            return negative ? -value : value
        }
        return slowDouble(bytes)
    }

    /// The exact conversion for long or extreme numbers: separators dropped, then the standard library.
    /// Called only for digits that are not all zero, so a 0 here is an underflow (`1e-400`): `nil`, as
    /// for an overflow, never a silent 0. Subnormals (`5e-324`) are numbers and convert.
    private static func slowDouble(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        var text = ""
        text.reserveCapacity(bytes.count)
        for byte in bytes where byte != UInt8(ascii: ",") { text.unicodeScalars.append(Unicode.Scalar(byte)) }
        guard let value = Double(text), value.isFinite, value != 0 else { return nil }
        return value
    }

    /// The reason for a number whose `,` does not group thousands in threes.
    static let groupingReason = "not a number (',' is read only as a thousands separator between groups of three digits, as in 2,500)"

    /// The reason for a number whose first thousands group starts with `0` (`0,500`, `-00,001`): no one
    /// groups thousands so, while a decimal comma writes half so. Read as grouped it would be 500.
    static let zeroGroupReason = "not a number (',' is read only as a thousands separator after a first group of 1 to 3 digits that does not start with 0, "
        + "as in 2,500: 0,500 is not five hundred)"

    /// Whether `bytes` are digits grouped in threes by `,` but for a first group that starts with `0`
    /// (`0,500`, `-00,001.5`, `0,250e3`): the shape of a decimal comma read as a thousands separator.
    /// Only for messages.
    static func isZeroLedGrouping(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = bytes.first == UInt8(ascii: "-") || bytes.first == UInt8(ascii: "+") ? 1 : 0
        guard i < bytes.count, bytes[i] == UInt8(ascii: "0") else { return false }
        var run = 0, groups = 0
        while i < bytes.count {
            let byte = bytes[i]
            if (byte &- UInt8(ascii: "0")) < 10 {
                run += 1
            } else if byte == UInt8(ascii: ",") {
                guard groups == 0 ? run <= 3 : run == 3 else { return false }
                groups += 1
                run = 0
            } else {
                break
            }
            i += 1
        }
        guard groups > 0, run == 3 else { return false }
        return i == bytes.count || bytes[i] == UInt8(ascii: ".") || bytes[i] | 0x20 == UInt8(ascii: "e")
    }

    /// Why `bytes` is not a number, for a reject or an error message.
    static func explain(_ bytes: UnsafeBufferPointer<UInt8>, integer: Bool) -> String {
        guard !bytes.isEmpty else { return "an empty value is not a number" }
        // NaN: Double's own text for "not a number", which the store cannot hold (SQLite stores it as NULL).
        if isNaNText(bytes) {
            return "NaN is not a number the store can hold (SQLite stores NaN as NULL, so it would read back nil): "
                + "leave the field empty for no value (or make NaN a null token: --null '' --null NULL --null NA --null NaN, the defaults and NaN, as --null replaces them, or the column's \"nullTokens\" in a mapping), or write a number"
        }
        if let sign = infinitySign(bytes) {
            return "\(sign)Infinity is not read: a number attribute here holds finite numbers (JSON and CSV readers of the store have no infinity); "
                + "make it a null token (--null '' --null NULL --null NA --null '\(String(decoding: bytes, as: UTF8.self))', the defaults and it, as --null replaces them, "
                + "or the column's \"nullTokens\" in a mapping), or write a number"
        }
        // Spreadsheet formatting (Google Sheets and Excel export what the cell shows): a currency sign, a percent sign.
        let text = String(decoding: bytes, as: UTF8.self)
        if let symbol = ["$", "€", "£", "¥", "₹", "CHF", "USD", "EUR"].first(where: { text.hasPrefix($0) || text.hasSuffix($0) || text.hasPrefix("-" + $0) }) {
            return "the value carries a currency sign (\(symbol)), as a spreadsheet shows it: export the number alone (the cells' format as a plain number), "
                + "or map the column to a String attribute"
        }
        if text.hasSuffix("%") {
            return "the value is a percentage (\(text)), as a spreadsheet shows it: export the number alone (\(text.dropLast()) or its fraction), "
                + "or map the column to a String attribute"
        }
        // A number a Double reads: for an integer, say what keeps it from being one.
        if integer, let value = double(bytes) {
            if bytes.contains(where: { $0 | 0x20 == UInt8(ascii: "e") }) {
                let digits = value == value.rounded() && abs(value) < 0x1p63 ? ": write \(Int64(value))" : ""
                return "written with an exponent, which an Integer attribute does not read\(digits)"
            }
            if value != value.rounded() {
                return "the value has a fraction: an Integer attribute takes whole numbers (round the values, or make the attribute Double or Decimal)"
            }
        }
        if isZeroLedGrouping(bytes) { return zeroGroupReason }
        if bytes.contains(UInt8(ascii: ",")) { return groupingReason }
        if isSpaceGrouped(bytes) {
            return "its digits are grouped with spaces, which are read only as thousands separators of numbers with a decimal comma "
                + "(1 234,5: pass --decimal-comma, or \"decimalComma\": true for the file); otherwise write the digits together"
        }
        if integer, bytes.contains(UInt8(ascii: ".")) || bytes.contains(UInt8(ascii: "e")) {
            return "not a whole number"
        }
        // A sign, then digits only: the digits did not fit. Anything else (a sign alone, two signs) is malformed.
        if integer, isWholeNumberText(bytes) { return "too large for a 64-bit integer" }
        return integer ? "not a whole number" : "not a number"
    }

    /// Whether `bytes` are digits in groups that spaces (or UTF-8 no-break or narrow no-break spaces)
    /// separate, every group after the first of three digits: `1 234`, `12 345 678`, with an optional sign.
    static func isSpaceGrouped(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = bytes.first == UInt8(ascii: "-") || bytes.first == UInt8(ascii: "+") ? 1 : 0
        var groups = 0, run = 0
        while i < bytes.count {
            let byte = bytes[i]
            if (byte &- UInt8(ascii: "0")) < 10 {
                run += 1
                i += 1
                continue
            }
            // A separator: after a first group of 1 to 3 digits that does not start with 0, or a later one of exactly 3.
            guard run > 0, groups == 0 ? run <= 3 && bytes[i - run] != UInt8(ascii: "0") : run == 3 else { return false }
            if byte == 0x20 {
                i += 1
            } else if byte == 0xC2, i + 1 < bytes.count, bytes[i + 1] == 0xA0 {
                i += 2
            } else if byte == 0xE2, i + 2 < bytes.count, bytes[i + 1] == 0x80, bytes[i + 2] == 0xAF {
                i += 3
            } else {
                return false
            }
            groups += 1
            run = 0
        }
        return groups > 0 && run == 3
    }

    /// `""`, `"-"` or `"+"` when `bytes` are `inf` or `infinity` in any case (as Double, Python and
    /// PostgreSQL write it) after that sign; `nil` otherwise.
    static func infinitySign(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        let signed = bytes.first == UInt8(ascii: "-") || bytes.first == UInt8(ascii: "+")
        let word = String(decoding: signed ? UnsafeBufferPointer(rebasing: bytes.dropFirst()) : bytes, as: UTF8.self).lowercased()
        guard word == "inf" || word == "infinity" else { return nil }
        return signed ? String(UnicodeScalar(bytes[0])) : ""
    }

    /// Whether `bytes` are `NaN` in any case, with an optional sign.
    static func isNaNText(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let unsigned = bytes.first == UInt8(ascii: "-") || bytes.first == UInt8(ascii: "+") ? UnsafeBufferPointer(rebasing: bytes.dropFirst()) : bytes
        return unsigned.count == 3 && unsigned[0] | 0x20 == UInt8(ascii: "n") && unsigned[1] | 0x20 == UInt8(ascii: "a") && unsigned[2] | 0x20 == UInt8(ascii: "n")
    }

    /// Whether `bytes` are an optional sign and at least one digit, nothing else.
    static func isWholeNumberText(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let unsigned = bytes.first == UInt8(ascii: "-") || bytes.first == UInt8(ascii: "+") ? UnsafeBufferPointer(rebasing: bytes.dropFirst()) : bytes
        return !unsigned.isEmpty && unsigned.allSatisfy { ($0 &- UInt8(ascii: "0")) < 10 }
    }

    /// Whether `bytes` are a well-formed decimal number too large for a Double (`1e400`): the reason is
    /// then its range, not its form. Only for messages (it builds a String).
    static func overflowsDouble(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        wellFormedDouble(bytes)?.isInfinite ?? false
    }

    /// Whether `bytes` are a well-formed decimal number with a digit other than 0 that a Double reads as 0
    /// (`1e-400`): too small, which ``double(_:)`` refuses rather than store 0. Only for messages.
    static func underflowsDouble(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard wellFormedDouble(bytes) == 0 else { return false }
        return bytes.prefix { $0 | 0x20 != UInt8(ascii: "e") }.contains { $0 >= UInt8(ascii: "1") && $0 <= UInt8(ascii: "9") }
    }

    /// What the standard library reads from `bytes` when they hold only digits, signs, `.` and an
    /// exponent, whatever its range; `nil` otherwise.
    private static func wellFormedDouble(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        guard !bytes.contains(where: { $0 != UInt8(ascii: "-") && $0 != UInt8(ascii: "+") && $0 != UInt8(ascii: ".")
                                       && $0 != UInt8(ascii: "e") && $0 != UInt8(ascii: "E") && ($0 &- UInt8(ascii: "0")) >= 10 }) else { return nil }
        return Double(String(decoding: bytes, as: UTF8.self))
    }
}
