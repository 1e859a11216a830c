import Foundation
import ManagedStore
import Testing
@testable import SeedImport

/// ISO 8601 dates convert once, correctly rounded, to the Double of seconds since 2001 they write.
@Suite("Import: ISO 8601 dates round-trip exactly")
struct ImportDateRoundTripTests {
    static func read(_ text: String) -> Double? { DateFormat.iso8601.seconds(from: text) }

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

    @Test("a pattern's fraction converts the same way")
    func patterns() throws {
        let format = try DateFormat("yyyy-MM-dd HH:mm:ss.SSSSSS")
        #expect(format.seconds(from: "2020-01-01 00:00:00.999999") == 599_529_600.999999)
        #expect(format.seconds(from: "1969-12-31 23:59:59.999999") == -978_307_200.000001)
    }
}
