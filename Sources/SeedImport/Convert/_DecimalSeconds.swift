/// A fraction of a second as written, read without allocating: its digits as an integer over a power
/// of ten (`.0250` is 250 over 10⁴), up to 19 significant digits.
struct _SecondFraction {
    /// The digits read: the first 19 significant ones at most.
    var digits: UInt64 = 0
    /// The power of ten `digits` is over: the places they span.
    var places = 0
    /// Whether nonzero digits past those in `digits` were left out.
    var truncated = false
    /// Where the digits are in the field, for the rare fraction that ``digits`` cannot hold.
    var start = 0, end = 0

    /// Takes the next digit (0–9).
    @inline(__always)
    mutating func append(_ digit: UInt8) {
        if digits < 1_000_000_000_000_000_000 {
            digits = digits &* 10 &+ UInt64(digit)
            places += 1
        } else if digit != 0 {
            truncated = true
        }
    }
}

/// Whole seconds and a written fraction as the nearest Double, rounded once: the value a correctly
/// rounding reader gives the decimal number `whole + 0.ddd…` (what `Double("631151999.9995")` gives).
///
/// Adding a converted fraction to the whole seconds would round twice (the fraction, then the sum), and
/// `ISO8601.string(from:)` writes the shortest fraction that reads back exactly only for a reader that
/// rounds once. Most fractions take one division of exact Doubles (Clinger's fast path); up to 19
/// significant digits and 27 places, one exact 128-bit division; longer ones, the standard library.
///
/// - Complexity: O(1) and no allocation, but for fractions beyond 19 significant digits or 27 places.
enum _DecimalSeconds {
    /// 10⁰ through 10¹⁹: those a `UInt64` holds.
    private static let powersOfTen: [UInt64] = (0...19).map { power in (0..<power).reduce(1) { product, _ in product * 10 } }
    /// 5⁰ through 5²⁷: those below 2⁶³.
    private static let powersOfFive: [UInt64] = (0...27).map { power in (0..<power).reduce(1) { product, _ in product * 5 } }

    /// Seconds since 2001 of `whole` seconds and `fraction`, whose digits are in `base` where it says.
    @inline(__always)
    static func value(whole: Int, fraction: _SecondFraction, in base: UnsafePointer<UInt8>) -> Double {
        value(whole: whole, fraction: fraction) {
            Array(UnsafeBufferPointer(start: base + fraction.start, count: fraction.end - fraction.start))
        }
    }

    /// Seconds since 2001 of `whole` seconds and `fraction`; `writtenDigits` gives the fraction's digits
    /// as ASCII, called only for the rare fraction the fast paths cannot take (for digits that are not
    /// together in the field, as an epoch number's are once its point has moved).
    @inline(__always)
    static func value(whole: Int, fraction: _SecondFraction, writtenDigits: () -> [UInt8]) -> Double {
        if fraction.digits == 0 { return Double(whole) }
        guard !fraction.truncated else { return fromText(whole: whole, digits: writtenDigits()) }
        let places = fraction.places
        // The number is ±magnitude / 10^places.
        var magnitude = fraction.digits
        if whole != 0 {
            guard places < powersOfTen.count else { return fromText(whole: whole, digits: writtenDigits()) }
            let (scaled, overflow) = UInt64(whole.magnitude).multipliedReportingOverflow(by: powersOfTen[places])
            guard !overflow else { return fromText(whole: whole, digits: writtenDigits()) }
            if whole < 0 {
                magnitude = scaled - fraction.digits   // the digits are below 10^places ≤ scaled
            } else {
                let (sum, carry) = scaled.addingReportingOverflow(fraction.digits)
                guard !carry else { return fromText(whole: whole, digits: writtenDigits()) }
                magnitude = sum
            }
        }
        let value: Double
        if magnitude <= 1 << 53 && places < _NumberParser.exactPowersOfTen.count {
            // Both exact as Doubles: one division rounds once.
            value = Double(magnitude) / _NumberParser.exactPowersOfTen[places]
        } else if places < powersOfFive.count {
            value = quotient(magnitude, overPowerOfTen: places)
        } else {
            return fromText(whole: whole, digits: writtenDigits())
        }
        return whole < 0 ? -value : value
    }

    /// `magnitude / 10^places` correctly rounded, for `places` from 1 to 27: as `magnitude / 5^places`
    /// scaled by 2^-places, which is exact. The quotient is taken to 63 or 64 bits by one 128-bit
    /// division; a nonzero remainder sets its lowest bit, which lies below the bit that decides the
    /// rounding to 53 bits, so converting it to Double rounds as the exact quotient would.
    static func quotient(_ magnitude: UInt64, overPowerOfTen places: Int) -> Double {
        let divisor = powersOfFive[places]
        let divisorBits = UInt64.bitWidth - divisor.leadingZeroBitCount
        let magnitudeBits = UInt64.bitWidth - magnitude.leadingZeroBitCount
        // magnitude · 2^shift has 63 + divisorBits bits: over the divisor, 2^62 ≤ quotient < 2^64.
        let shift = 63 + divisorBits - magnitudeBits
        let high = shift >= 64 ? magnitude << (shift - 64) : magnitude >> (64 - shift)
        let low = shift >= 64 ? 0 : magnitude << shift
        let (quotient, remainder) = divisor.dividingFullWidth((high: high, low: low))
        let sticky = remainder == 0 ? quotient : quotient | 1
        return Double(sign: .plus, exponent: -shift - places, significand: Double(sticky))
    }

    /// The decimal number's text read by the standard library, which rounds once: for fractions of
    /// more than 19 significant digits or 27 places.
    @inline(never)
    static func fromText(whole: Int, digits: [UInt8]) -> Double {
        var digits = digits
        while digits.last == UInt8(ascii: "0") { digits.removeLast() }
        guard !digits.isEmpty else { return Double(whole) }
        guard whole < 0 else { return Double("\(whole)." + String(decoding: digits, as: UTF8.self))! }
        // whole + 0.d₁…dₙ is −((−whole − 1) + (1 − 0.d₁…dₙ)), and 1 − 0.d₁…dₙ is the nines' complement
        // of every digit plus one in the last place (not 0, so no carry).
        for i in digits.indices { digits[i] = UInt8(ascii: "9") + UInt8(ascii: "0") - digits[i] }
        digits[digits.count - 1] += 1
        return Double("-\(-whole - 1)." + String(decoding: digits, as: UTF8.self))!
    }
}
