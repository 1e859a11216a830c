import Foundation

/// Core Data's reference date arithmetic and ISO 8601 text for dates.
public enum ISO8601 {
    /// Seconds between 1970-01-01 and 2001-01-01 UTC: Core Data stores dates relative to the latter.
    public static let referenceDateOffset: Double = 978_307_200

    /// Formats a date as ISO 8601 in UTC, with the fewest fraction digits that read back as the same date.
    ///
    /// Core Data keeps a date as a Double of seconds since 2001-01-01 (`timeIntervalSinceReferenceDate`).
    /// The text carries the shortest decimal fraction of a second that a correctly rounding reader, such
    /// as `seedstore import`'s, turns back into that very Double: none when the seconds are whole, `.25`
    /// rather than `.250`, and as many digits as the Double needs (seventeen significant digits at most,
    /// whole seconds included). Years before 0000 and after 9999 carry a sign (`-0001`, `+10000`);
    /// seconds no calendar holds (infinite, not a number, beyond ±2^62) are written as the number (`inf`).
    ///
    /// For example:
    ///
    /// ```swift
    /// ISO8601.string(from: Date(timeIntervalSinceReferenceDate: 0))           // "2001-01-01T00:00:00Z"
    /// ISO8601.string(from: Date(timeIntervalSinceReferenceDate: 0.25))        // "2001-01-01T00:00:00.25Z"
    /// ISO8601.string(from: Date(timeIntervalSinceReferenceDate: -0.000001))   // "2000-12-31T23:59:59.999999Z"
    /// ```
    public static func string(from date: Date) -> String {
        let seconds = date.timeIntervalSinceReferenceDate
        guard let (whole, fraction) = shortestDecimal(seconds) else { return "\(seconds)" }
        let sinceEpoch = Int(whole) + Int(referenceDateOffset)
        let days = sinceEpoch >= 0 ? sinceEpoch / 86_400 : (sinceEpoch - 86_399) / 86_400
        let ofDay = sinceEpoch - days * 86_400
        let (year, month, day) = civil(days)
        var text: [UInt8] = []
        text.reserveCapacity(28 + fraction.count)
        if year < 0 { text.append(UInt8(ascii: "-")) } else if year > 9999 { text.append(UInt8(ascii: "+")) }
        append(year.magnitude, width: 4, to: &text)
        for (separator, value): (Unicode.Scalar, Int) in [("-", month), ("-", day), ("T", ofDay / 3600), (":", ofDay / 60 % 60), (":", ofDay % 60)] {
            text.append(UInt8(ascii: separator))
            append(UInt(value), width: 2, to: &text)
        }
        if !fraction.isEmpty {
            text.append(UInt8(ascii: "."))
            text += fraction
        }
        text.append(UInt8(ascii: "Z"))
        return String(decoding: text, as: UTF8.self)
    }

    /// The shortest decimal that reads back as `seconds`, split at the whole second at or below it: the
    /// whole seconds, and the fraction's digits as ASCII (none when whole). `nil` for seconds no
    /// calendar holds (infinite, not a number, beyond ±2^62).
    ///
    /// For example: `-1.25` is `(-2, "75")`, `1e-06` is `(0, "000001")`.
    static func shortestDecimal(_ seconds: Double) -> (whole: Int64, fraction: [UInt8])? {
        guard seconds.isFinite, seconds.magnitude < 0x1p62 else { return nil }
        // Swift writes a Double as the shortest decimal that reads back as it (the closest, when several
        // do): `631151999.9995`, `1e-06`. Take its digits and where its point falls.
        var digits: [UInt8] = []
        var point = 0, exponent = 0, exponentSign = 1
        var seenPoint = false, inExponent = false
        for byte in seconds.magnitude.description.utf8 {
            switch byte {
            case UInt8(ascii: "."): seenPoint = true
            case UInt8(ascii: "e"), UInt8(ascii: "E"): inExponent = true
            case UInt8(ascii: "-"): exponentSign = -1   // the magnitude's only sign is its exponent's
            case UInt8(ascii: "+"): break
            default:
                if inExponent {
                    exponent = exponent * 10 + Int(byte &- UInt8(ascii: "0"))
                } else {
                    digits.append(byte)
                    if !seenPoint { point += 1 }
                }
            }
        }
        point += exponentSign * exponent
        // Leading zeros (`0.001`) move the point; trailing ones (`1.0`, `1e+16`'s) are implied.
        let leading = digits.firstIndex { $0 != UInt8(ascii: "0") } ?? digits.count
        digits.removeFirst(leading)
        point -= leading
        while digits.last == UInt8(ascii: "0") { digits.removeLast() }
        guard !digits.isEmpty else { return (0, []) }
        var whole: Int64 = 0
        for i in 0..<max(point, 0) { whole = whole * 10 + (i < digits.count ? Int64(digits[i] &- UInt8(ascii: "0")) : 0) }
        let fraction = point >= digits.count ? [] : point <= 0 ? Array(repeating: UInt8(ascii: "0"), count: -point) + digits : Array(digits[point...])
        guard seconds < 0 else { return (whole, fraction) }
        guard !fraction.isEmpty else { return (-whole, []) }
        // Below zero the fraction counts up from the second before: -1.25 is -2 + 0.75.
        return (-whole - 1, complement(fraction))
    }

    /// The digits of 1 − 0.d₁…dₙ: the nines' complement of every digit plus one in the last place (whose
    /// digit must not be 0, so nothing carries). `25` gives `75`.
    static func complement(_ fraction: [UInt8]) -> [UInt8] {
        var digits = fraction.map { UInt8(ascii: "9") + UInt8(ascii: "0") - $0 }
        digits[digits.count - 1] += 1
        return digits
    }

    /// Seconds since 2001-01-01 UTC of ISO 8601 text: a day (`2020-01-01`, midnight UTC), or a day and a
    /// time with its zone (`2020-01-01T12:00:00Z`, `…T12:00:00.5+01:00`), on the proleptic Gregorian
    /// calendar, as `seedstore import` reads dates; `nil` for anything else, an impossible date or time
    /// included (`2020-02-30`, `T25:00:00Z`).
    ///
    /// For example:
    ///
    /// ```swift
    /// ISO8601.seconds(parsing: "2020-01-01")   // 599529600
    /// ```
    package static func seconds(parsing text: String) -> Double? {
        let bytes = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= bytes.count else { return nil }
            var value = 0
            for i in range {
                guard bytes[i] >= 0x30 && bytes[i] <= 0x39 else { return nil }
                value = value * 10 + Int(bytes[i] - 0x30)
            }
            return value
        }
        guard bytes.count >= 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
              let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              (1...12).contains(month), day >= 1, day <= daysIn(month, year: year) else { return nil }
        var whole = days(year: year, month: month, day: day) * 86_400 - Int(referenceDateOffset)
        var fraction: [UInt8] = []
        if bytes.count > 10 {
            guard bytes.count >= 20, bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
                  let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
                  hour < 24, minute < 60, second < 60 else { return nil }
            whole += hour * 3600 + minute * 60 + second
            var i = 19
            if bytes[i] == UInt8(ascii: ".") {
                i += 1
                while i < bytes.count, bytes[i] >= 0x30 && bytes[i] <= 0x39 { fraction.append(bytes[i]); i += 1 }
                guard !fraction.isEmpty else { return nil }
            }
            guard i < bytes.count else { return nil }
            if bytes[i] == UInt8(ascii: "Z"), i + 1 == bytes.count {
            } else if bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-"), i + 6 == bytes.count, bytes[i + 3] == UInt8(ascii: ":"),
                      let hours = number(i + 1..<i + 3), let minutes = number(i + 4..<i + 6), hours < 24, minutes < 60 {
                whole -= (bytes[i] == UInt8(ascii: "+") ? 1 : -1) * (hours * 3600 + minutes * 60)
            } else {
                return nil
            }
        }
        while fraction.last == UInt8(ascii: "0") { fraction.removeLast() }
        guard !fraction.isEmpty else { return Double(whole) }
        // One rounding, from the decimal text. Below 2001 the fraction counts up from the second before:
        // -2 + 0.75 is -(1 + 0.25).
        if whole >= 0 { return Double("\(whole)." + String(decoding: fraction, as: UTF8.self)) }
        return Double("-\(-whole - 1)." + String(decoding: complement(fraction), as: UTF8.self))
    }

    /// The day number (days since 1970-01-01) of a proleptic Gregorian date: Howard Hinnant's `days_from_civil`.
    package static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The number of days in `month` (1–12) of `year`.
    package static func daysIn(_ month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// The proleptic Gregorian date of a day number (days since 1970-01-01): Howard Hinnant's
    /// `civil_from_days` (<https://howardhinnant.github.io/date_algorithms.html>), no calendar settings.
    package static func civil(_ days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Appends `value` in decimal, zero-padded to `width` digits.
    private static func append(_ value: UInt, width: Int, to text: inout [UInt8]) {
        var digits: [UInt8] = []
        var rest = value
        repeat {
            digits.append(UInt8(ascii: "0") + UInt8(rest % 10))
            rest /= 10
        } while rest > 0
        if digits.count < width { text += repeatElement(UInt8(ascii: "0"), count: width - digits.count) }
        text += digits.reversed()
    }
}
