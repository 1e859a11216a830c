import Foundation
import ManagedStore
import Testing

/// `ISO8601.string(from:)` writes a date's seconds since 2001 with every fraction digit they need to
/// read back as the same Double, and none when they are whole, before 1970 and 2001 as after.
@Suite struct ISO8601StringTests {
    static func text(_ seconds: Double) -> String { ISO8601.string(from: Date(timeIntervalSinceReferenceDate: seconds)) }

    @Test func wholeSecondsHaveNoFraction() {
        #expect(Self.text(0) == "2001-01-01T00:00:00Z")
        #expect(Self.text(-0.0) == "2001-01-01T00:00:00Z")
        #expect(Self.text(631_152_000) == "2021-01-01T00:00:00Z")
        #expect(Self.text(599_529_600) == "2020-01-01T00:00:00Z")
        #expect(Self.text(-978_307_200) == "1970-01-01T00:00:00Z")
    }

    @Test(arguments: [
        (599_529_600.999999, "2020-01-01T00:00:00.999999Z"),   // was .1000, which reads back as 0.1 s
        (631_151_999.9995, "2020-12-31T23:59:59.9995Z"),       // was .1000 too
        (599_529_600.0005, "2020-01-01T00:00:00.0005Z"),       // was dropped
        (599_529_600.123456, "2020-01-01T00:00:00.123456Z"),   // was .123
        (0.000001, "2001-01-01T00:00:00.000001Z"),
        (0.25, "2001-01-01T00:00:00.25Z"),
        (599_529_600.5, "2020-01-01T00:00:00.5Z"),
    ])
    func fractionsKeepTheDigitsTheyNeed(seconds: Double, text: String) {
        #expect(Self.text(seconds) == text)
    }

    @Test func justBelowAWholeSecondStaysBelowIt() {
        // The Double just below 2021-01-01T00:00:00Z: its shortest decimal, not the next second.
        #expect(Self.text(631_152_000.0.nextDown) == "2020-12-31T23:59:59.9999999Z")
        #expect(Self.text(0.0.nextDown) == "2000-12-31T23:59:59." + String(repeating: "9", count: 323) + "5Z",
                "5e-324 s before 2001: exact, if long")
    }

    @Test(arguments: [
        (-978_307_200.5, "1969-12-31T23:59:59.5Z"),
        (-992_490_139.877, "1969-07-20T20:17:40.123Z"),
        (-3_187_295_999.75, "1900-01-01T00:00:00.25Z"),
        (-0.000001, "2000-12-31T23:59:59.999999Z"),
        (-63_113_904_000 + 0.5, "0001-01-01T00:00:00.5Z"),
        (252_423_993_599.9999, "9999-12-31T23:59:59.9999Z"),
    ])
    func datesBefore2001AndBefore1970(seconds: Double, text: String) {
        #expect(Self.text(seconds) == text)
    }

    @Test func yearsBeyondFourDigitsAndNumbersNoCalendarHolds() {
        #expect(Self.text(252_423_993_600) == "+10000-01-01T00:00:00Z")
        #expect(Self.text(-63_113_904_000 - 86_400) == "0000-12-31T00:00:00Z", "year 0 is 1 BC")
        #expect(Self.text(-63_113_904_000 - 366 * 86_400 - 86_400) == "-0001-12-31T00:00:00Z")
        #expect(Self.text(.infinity) == "inf")
        #expect(Self.text(-.infinity) == "-inf")
        #expect(Self.text(.nan) == "nan")
        #expect(Self.text(1e300) == "1e+300")
    }
}
