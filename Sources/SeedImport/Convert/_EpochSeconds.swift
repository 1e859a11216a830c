import Foundation
import ManagedStore

/// Epoch numbers (`1700000000.123` seconds or `1700000000123` milliseconds since 1970) as seconds since
/// 2001, from their exact digits, and only for dates of years 0001 to 9999.
///
/// Reading the number as a Double and then dividing by 1000 or subtracting 978 307 200 rounds twice, so
/// `1700000000123` milliseconds came out as 721692800.1229999, one unit in the last place off the
/// 721692800.123 that `2023-11-14T22:13:20.123Z` gives. Here the decimal point moves on the digits
/// (three places left for milliseconds), the offset to 2001 is subtracted from the whole seconds as an
/// integer, and ``_DecimalSeconds`` rounds the result once: the same instant is the same Double whatever
/// format writes it.
///
/// The range check catches a number written in the wrong unit: milliseconds read as seconds
/// (`1700000000123` is year 55840) would otherwise be stored without a word.
///
/// - Complexity: O(n) in the field's length; no allocation but for fractions beyond 19 significant digits.
enum _EpochSeconds {
    /// Seconds since 2001 of 0001-01-01T00:00:00Z up to 10000-01-01T00:00:00Z: the dates an epoch number may name.
    static let range = -63_113_904_000.0 ..< 252_423_993_600.0

    /// Seconds since 2001 of an epoch number in seconds or milliseconds, or `nil` with `failure` set when
    /// it is not a number or not a date of years 0001 to 9999.
    @inline(__always)
    static func value(_ bytes: UnsafeBufferPointer<UInt8>, milliseconds: Bool, failure: inout _DateFailure?) -> Double? {
        // The standard reading checks the syntax and tells far-off numbers before exact arithmetic could overflow.
        guard let approximate = _NumberParser.double(bytes), let base = bytes.baseAddress else { failure = .notANumber; return nil }
        let roughly = (milliseconds ? approximate / 1000 : approximate) - _DateParser.referenceDateOffset
        guard roughly.magnitude < 1e13 else {
            failure = outOfRange(bytes, sinceEpoch: approximate, milliseconds: milliseconds)
            return nil
        }
        let count = bytes.count
        let negative = base[0] == UInt8(ascii: "-")
        let start = base[0] == UInt8(ascii: "-") || base[0] == UInt8(ascii: "+") ? 1 : 0
        // Where the mantissa ends, how many digits it has before its point, and the exponent.
        var end = start, integerDigits = 0, seenPoint = false
        while end < count, base[end] | 0x20 != UInt8(ascii: "e") {
            if base[end] == UInt8(ascii: ".") { seenPoint = true } else if !seenPoint && base[end] != UInt8(ascii: ",") { integerDigits += 1 }
            end += 1
        }
        var exponent = 0
        if end < count {
            var j = end + 1
            let exponentNegative = base[j] == UInt8(ascii: "-")
            if base[j] == UInt8(ascii: "-") || base[j] == UInt8(ascii: "+") { j += 1 }
            while j < count {
                if exponent < 100_000 { exponent = exponent * 10 + Int(base[j] &- UInt8(ascii: "0")) }
                j += 1
            }
            if exponentNegative { exponent = -exponent }
        }
        // The digits before `point` are whole seconds; the rest are the fraction.
        let point = integerDigits + exponent - (milliseconds ? 3 : 0)
        var whole = 0, fraction = _SecondFraction(), index = 0
        if point < 0 { fraction.places = -point }
        for i in start..<end {
            let digit = base[i] &- UInt8(ascii: "0")
            guard digit < 10 else { continue }
            if index < point { whole = whole * 10 + Int(digit) } else { fraction.append(digit) }
            index += 1
        }
        if whole != 0 { for _ in index..<max(index, point) { whole *= 10 } }
        let offset = Int(_DateParser.referenceDateOffset)
        // −(w + f) − offset is −((w + offset) + f): the same rounding, mirrored.
        let seconds = _DecimalSeconds.value(whole: negative ? whole + offset : whole - offset, fraction: fraction) {
            var digits = [UInt8](repeating: UInt8(ascii: "0"), count: max(0, -point))
            var index = 0
            for i in start..<end where (base[i] &- UInt8(ascii: "0")) < 10 {
                if index >= point { digits.append(base[i]) }
                index += 1
            }
            return digits
        }
        let signed = negative ? -seconds : seconds
        guard range.contains(signed) else {
            failure = outOfRange(bytes, sinceEpoch: approximate, milliseconds: milliseconds)
            return nil
        }
        return signed
    }

    /// The failure of a number out of range: with, for seconds, the date it names as milliseconds, if any.
    @inline(never)
    private static func outOfRange(_ bytes: UnsafeBufferPointer<UInt8>, sinceEpoch: Double, milliseconds: Bool) -> _DateFailure {
        var ignored: _DateFailure?
        let asMilliseconds = milliseconds ? nil : value(bytes, milliseconds: true, failure: &ignored)
        return .epochOutOfRange(sinceEpoch: sinceEpoch, milliseconds: milliseconds, asMilliseconds: asMilliseconds)
    }

    /// Why an epoch number out of range is refused, and the unit it may have been meant in.
    static func outOfRangeReason(sinceEpoch: Double, milliseconds: Bool, asMilliseconds: Double?) -> String {
        let unit = milliseconds ? "milliseconds" : "seconds"
        let scale = milliseconds ? 1000.0 : 1
        let first = Int64((range.lowerBound + _DateParser.referenceDateOffset) * scale)
        let last = Int64((range.upperBound + _DateParser.referenceDateOffset) * scale) - 1
        var reason = "it falls \(sinceEpoch < 0 ? "before year 0001" : "after year 9999") (epoch \(unit) run from \(first) to \(last))"
        if let asMilliseconds {
            reason += "; as milliseconds it is \(ISO8601.string(from: .init(timeIntervalSinceReferenceDate: asMilliseconds))): use the format epochMilliseconds"
        }
        return reason
    }
}
