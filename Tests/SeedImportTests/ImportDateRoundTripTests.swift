import Foundation
import ManagedStore
import PropertyBased
import Testing
@testable import SeedImport

/// ISO 8601 dates convert once, correctly rounded, to the Double of seconds since 2001 they write; and
/// what `ISO8601.string(from:)` prints (so what `seedstore query` prints) reads back as the same Double.
@Suite("Import: ISO 8601 dates round-trip exactly")
struct ImportDateRoundTripTests {
    static func read(_ text: String) -> Double? { DateFormat.iso8601.seconds(from: text) }
    static func printed(_ seconds: Double) -> String { ISO8601.string(from: Date(timeIntervalSinceReferenceDate: seconds)) }

    /// Dates and the seconds since 2001 they write, as decimal text: the standard library's reading of
    /// that text is the correctly rounded Double to expect.
    static let dates: [(text: String, seconds: String)] = [
        ("2020-01-01T00:00:00.999999Z", "599529600.999999"),
        ("2020-12-31T23:59:59.9995Z", "631151999.9995"),
        ("2020-01-01T00:00:00.0005Z", "599529600.0005"),
        ("2020-01-01T00:00:00.123456Z", "599529600.123456"),
        ("2001-01-01T00:00:00.000001Z", "0.000001"),
        ("2000-12-31T23:59:59.999999Z", "-0.000001"),
        ("1969-12-31T23:59:59.5Z", "-978307200.5"),
        ("1969-07-20T20:17:40.123Z", "-992490139.877"),
        ("1900-01-01T00:00:00.25Z", "-3187295999.75"),
        ("0001-01-01T00:00:00.5Z", "-63113903999.5"),
        ("2020-08-17 10:30:00.250+02:00", "619345800.25"),
        ("2020-12-31T23:59:59.9999999999Z", "631151999.9999999999"),      // rounds to the next second
        ("2020-12-31T23:59:59.99999994Z", "631151999.99999994"),
        ("2020-05-05T05:05:05.1234567890123456789Z", "610347905.1234567890123456789"),   // beyond 19 digits
        ("9999-12-31T23:59:59.123456789Z", "252423993599.123456789"),   // 21 digits
        ("1000-01-01T00:00:00.123456789Z", "-31588531199.876543211"),
        ("2001-01-01T00:00:00.0000000000000000000000000000001Z", "1e-31"),
        ("2000-12-31T23:59:59.9999999999999999999999999999999Z", "-1e-31"),
        ("2020-01-01T00:00:00.1000000000000000000000000000000000Z", "599529600.1"),
    ]

    @Test("a fraction converts once, correctly rounded, with the whole seconds", arguments: dates)
    func correctlyRounded(date: (text: String, seconds: String)) {
        let read = Self.read(date.text)
        #expect(read == Double(date.seconds)!, "\(date.text) read as \(read.map { "\($0)" } ?? "nil")")
    }

    @Test("an epoch number converts once, correctly rounded, to the Double its ISO 8601 form gives")
    func epochCorrectlyRounded() throws {
        let seconds = try DateFormat("epoch"), milliseconds = try DateFormat("epochMilliseconds")
        let iso = try #require(Self.read("2023-11-14T22:13:20.123Z"))
        #expect(iso == 721_692_800.123)
        #expect(milliseconds.seconds(from: "1700000000123") == iso, "not 721692800.1229999")
        #expect(seconds.seconds(from: "1700000000.123") == iso)
        #expect(seconds.seconds(from: "1.700000000123e9") == iso)
        #expect(milliseconds.seconds(from: "1,700,000,000,123") == iso)
        #expect(milliseconds.seconds(from: "1700000000123.0") == iso)
        #expect(seconds.seconds(from: "-1.5") == Self.read("1969-12-31T23:59:58.5Z"))
        #expect(milliseconds.seconds(from: "-1") == Self.read("1969-12-31T23:59:59.999Z"))
        #expect(seconds.seconds(from: "978307200") == 0)
        #expect(seconds.seconds(from: "978307200.0000000000000000000000001") == 1e-25)
        #expect(seconds.seconds(from: "978307199.9999999999999999999999999") == -1e-25)
        #expect(seconds.seconds(from: "1597622400.1234567890123456789") == Self.read("2020-08-17T00:00:00.1234567890123456789Z"))
        #expect(milliseconds.seconds(from: "1597622400123.4567890123456789") == Self.read("2020-08-17T00:00:00.1234567890123456789Z"))
    }

    /// Epoch numbers of years 0001 to 9999: whole milliseconds, and seconds with 0 to 9 decimal places.
    static let epochNumbers = zip(Gen.int64(in: -62_135_596_800 ... 253_402_300_799), Gen.int(in: 0...9), Gen.uint64(in: 0...999_999_999))
        .map { whole, places, digits -> String in
            let fraction = String(String(digits).prefix(places))
            return "\(whole)" + (places == 0 ? "" : "." + String(repeating: "0", count: places - fraction.count) + fraction)
        }

    @Test("an epoch number in seconds or milliseconds is the Double nearest the decimal seconds since 2001 it writes")
    func epochRoundsOnce() async throws {
        let seconds = try DateFormat("epoch"), milliseconds = try DateFormat("epochMilliseconds")
        await propertyCheck(count: 3000, input: Self.epochNumbers) { text in
            // Decimal holds these exactly; the standard library rounds its text once.
            let exact = Decimal(string: text)! - Decimal(978_307_200)
            let expected = Double("\(exact)")!
            #expect(seconds.seconds(from: text) == expected, "\(text) s")
            let shifted = Decimal(string: text)! * 1000
            #expect(milliseconds.seconds(from: "\(shifted)") == expected, "\(shifted) ms")
        }
    }

    @Test("a pattern's fraction converts the same way")
    func patterns() throws {
        let format = try DateFormat("yyyy-MM-dd HH:mm:ss.SSSSSS")
        #expect(format.seconds(from: "2020-01-01 00:00:00.999999") == 599_529_600.999999)
        #expect(format.seconds(from: "1969-12-31 23:59:59.999999") == -978_307_200.000001)
    }

    @Test("what query prints for the trial's dates reads back as the date")
    func trialDates() throws {
        for date in Self.dates {
            let seconds = try #require(Self.read(date.text))
            #expect(Self.read(Self.printed(seconds)) == seconds, "\(date.text) printed as \(Self.printed(seconds))")
        }
        #expect(Self.printed(try #require(Self.read("2020-12-31T23:59:59.9999999999Z"))) == "2021-01-01T00:00:00Z")
        #expect(Self.printed(try #require(Self.read("2020-12-31T23:59:59.9995Z"))) == "2020-12-31T23:59:59.9995Z")
        #expect(Self.printed(try #require(Self.read("2020-01-01T00:00:00.999999Z"))) == "2020-01-01T00:00:00.999999Z")
        #expect(Self.printed(try #require(Self.read("2001-01-01T00:00:00.000001Z"))) == "2001-01-01T00:00:00.000001Z")
        #expect(Self.printed(try #require(Self.read("1900-01-01T00:00:00.2500Z"))) == "1900-01-01T00:00:00.25Z")
    }

    /// 0001-01-01 and 10000-01-01 as seconds since 2001.
    static let years = -63_113_904_000.0 ..< 252_423_993_600.0

    /// Seconds in years 0001 to 9999: Doubles with every bit random; whole seconds with 0 to 9 decimal
    /// places; the Doubles just below and above whole seconds; and Doubles within a second of 2001.
    static let seconds = zip(Gen.int(in: 0...4), Gen.int64(in: -63_113_904_000 ... 252_423_993_599), Gen.int(in: 0...9),
                             Gen.uint64(in: 0...999_999_999), Gen.double(in: years))
        .map { kind, whole, places, digits, random -> Double in
            switch kind {
            case 0: return random
            case 1:
                let fraction = String(String(digits).prefix(places))
                return Double("\(whole)." + String(repeating: "0", count: places - fraction.count) + fraction)!
            case 2: return Double(whole).nextDown
            case 3: return Double(whole).nextUp
            default: return random / Self.years.upperBound
            }
        }

    @Test("any date of years 0001 to 9999 prints as text that reads back as the same Double")
    func roundTrip() async {
        await propertyCheck(count: 3000, input: Self.seconds) { seconds in
            let text = Self.printed(seconds)
            let read = Self.read(text)
            #expect(read?.bitPattern == seconds.bitPattern || (read == 0 && seconds == 0), "\(seconds) printed as \(text), read as \(read.map { "\($0)" } ?? "nil")")
        }
    }

    @Test("years past 9999 and before 0001 read in ISO 8601's expanded form, as query prints them")
    func expandedYears() throws {
        // The trial's date: the Double nearest it is 10000-01-01, which query prints with a sign.
        let last = try #require(Self.read("9999-12-31T23:59:59.999999Z"))
        #expect(Self.printed(last) == "+10000-01-01T00:00:00Z")
        #expect(Self.read("+10000-01-01T00:00:00Z") == last)
        #expect(Self.read("+10000-01-01") == 252_423_993_600)
        #expect(Self.read("+2020-01-01") == Self.read("2020-01-01"))
        #expect(Self.read("0000-03-01") == -63_113_904_000.0 - 306 * 86_400, "year 0000, a leap year, is the year before 0001")
        #expect(Self.printed(-63_113_904_000 - 86_400) == "0000-12-31T00:00:00Z")
        #expect(Self.read("-0001-12-31T23:59:59.5Z") == -63_113_904_000 - 366 * 86_400 - 0.5)
        #expect(Self.printed(-63_113_904_000 - 366 * 86_400 - 0.5) == "-0001-12-31T23:59:59.5Z")
        #expect(Self.read("-12345-06-07T08:09:10+01:00").map(Self.printed) == "-12345-06-07T07:09:10Z")
        let far = 0x1p62.nextDown
        #expect(Self.read(Self.printed(far)) == far && Self.read(Self.printed(-far)) == -far, "\(Self.printed(far))")
        #expect(DateFormat.iso8601.failureReason(for: "10000-01-01") == "not an ISO 8601 date (yyyy-MM-dd or yyyy-MM-ddTHH:mm:ssZ): "
            + "a year of more than four digits takes a sign, as ISO 8601 writes it (+10000-01-01)")
        #expect(Self.read("+999999999999-01-01") == nil)
        #expect(Self.read("+123-01-01") == nil)
    }

    /// Seconds query prints as ISO 8601 dates: every magnitude below 2⁶², either sign, and whole seconds
    /// (and their neighbours) within some four thousand years of 2001, years 0000 and before included.
    static let anySeconds = zip(Gen.int(in: 0...2), Gen.int(in: -40...61), Gen.uint64(in: 0...(1 << 52 - 1)), Gen.bool,
                                Gen.int64(in: -(1 << 37) ... (1 << 37)))
        .map { kind, exponent, significand, negative, whole -> Double in
            switch kind {
            case 0: return Double(sign: negative ? .minus : .plus, exponent: exponent,
                                  significand: 1 + Double(significand) / 0x1p52)
            case 1: return -63_113_904_000 + Double(whole)
            default: return negative ? Double(whole).nextDown : Double(whole).nextUp
            }
        }

    @Test("any date query prints as ISO 8601, of any year, reads back as the same Double")
    func roundTripAnyYear() async {
        await propertyCheck(count: 3000, input: Self.anySeconds) { seconds in
            let text = Self.printed(seconds)
            let read = Self.read(text)
            #expect(read?.bitPattern == seconds.bitPattern, "\(seconds) printed as \(text), read as \(read.map { "\($0)" } ?? "nil")")
        }
    }

    @Test("the printed fraction is the shortest that reads back: one digit fewer, either way, does not")
    func shortest() async {
        await propertyCheck(count: 3000, input: Self.seconds) { seconds in
            let text = Self.printed(seconds)
            guard let point = text.firstIndex(of: ".") else { return }
            let places = text.distance(from: point, to: text.index(before: text.endIndex)) - 1
            // The decimals with one place fewer on either side of `seconds`, exactly, as Decimal.
            let exact = Decimal(string: seconds.description)!
            let scale = pow(Decimal(10), places - 1)
            var scaled = exact * scale, down = Decimal(), up = Decimal()
            NSDecimalRound(&down, &scaled, 0, .down)
            NSDecimalRound(&up, &scaled, 0, .up)
            for candidate in [down / scale, up / scale] {
                #expect(Double("\(candidate)") != seconds, "\(seconds) printed as \(text), yet \(candidate) reads back as it")
            }
        }
    }
}
