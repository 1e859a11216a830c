import Foundation
import Testing

@testable import SeedImport

/// The building blocks under the generators.
@Suite("Generate: internals")
struct GenerateInternalsTests {
    @Test("calendar days round-trip and know their weekdays")
    func calendar() {
        #expect(_CivilCalendar.days(year: 1970, month: 1, day: 1) == 0)
        #expect(_CivilCalendar.days(year: 2001, month: 1, day: 1) == 11_323)
        #expect(_CivilCalendar.weekday(0) == 4)
        #expect(_CivilCalendar.weekday(_CivilCalendar.days(year: 2023, month: 7, day: 28)) == 5)
        for day in stride(from: -40_000, through: 40_000, by: 7) {
            let (year, month, dayOfMonth) = _CivilCalendar.civil(day)
            #expect(_CivilCalendar.days(year: year, month: month, day: dayOfMonth) == day)
        }
        #expect(
            _CivilCalendar.length(ofYear: 2000) == 366 && _CivilCalendar.length(ofYear: 1900) == 365)
    }

    @Test("the Feistel permutation is a bijection", arguments: [1, 2, 7, 1_000, 4_097])
    func permutation(domain: Int) {
        let permutation = _FeistelPermutation(domain: UInt64(domain), key: 99)
        let images = (0..<domain).map { permutation($0) }
        #expect(Set(images).count == domain)
        #expect(images.allSatisfy { (0..<domain).contains($0) })
    }

    @Test("the generator is reproducible and independent per stream")
    func random() {
        var a = _Xoshiro256StarStar(seed: 1, stream: "x")
        var b = _Xoshiro256StarStar(seed: 1, stream: "x")
        var c = _Xoshiro256StarStar(seed: 1, stream: "y")
        let first = (0..<5).map { _ in a.next() }
        #expect(first == (0..<5).map { _ in b.next() })
        #expect(first != (0..<5).map { _ in c.next() })
        #expect((0..<1_000).allSatisfy { _ in (0..<7).contains(a.below(7)) })
    }

    @Test("the CSV writer quotes only what RFC 4180 requires and formats numbers itself")
    func writer() throws {
        let scratch = try GenerateScratch()
        defer { scratch.remove() }
        let url = scratch.url.appendingPathComponent("t.csv")
        var writer = try _GeneratedCSVWriter(
            url: url, columns: ["a", "b c"], lineEnding: .crlf, finalLineEnding: false)
        writer.text("x,y")
        writer.text("6\" casing")
        try writer.endRecord()
        writer.text("two\nlines")
        writer.empty()
        try writer.endRecord()
        writer.decimal(-0.0000004, places: 6)
        writer.decimal(-113.5, places: 1)
        try writer.endRecord()
        writer.integer(456_789, width: 7)
        writer.dayMonthYearDate(_CivilCalendar.days(year: 2000, month: 10, day: 13))
        try writer.endRecord()
        let file = try writer.finish()
        let expected =
            "a,b c\r\n\"x,y\",\"6\"\" casing\"\r\n\"two\nlines\",\r\n0.000000,-113.5\r\n0456789,13-Oct-00"
        #expect(try scratch.bytes("t.csv") == Array(expected.utf8))
        #expect(file.rows == 4 && file.bytes == expected.utf8.count)
    }

    @Test("JSON keeps key order and escapes strings")
    func json() {
        let document: _OrderedJSON = ["b": 1, "a": ["x\"y\n", true]]
        #expect(document.rendered() == "{\"b\": 1, \"a\": [\"x\\\"y\\n\", true]}\n")
    }
}
