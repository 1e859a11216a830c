import CSVStream
import Testing

/// gebi/csv-test's evil.csv (shared/fixtures-real/gebi-csv-test), compared with what Go and Python record.
@Suite("gebi evil.csv", .enabled(if: Fixtures.isAvailable, Fixtures.missing))
struct GebiEvilCSVTests {
    static let path = "gebi-csv-test/evil.csv"

    /// Without trimming, libcsv reads `"Expert", "Trust me, I'm an expert"` as Python's csv does: the
    /// space after the comma starts an unquoted field, so the quote is data and the comma splits it
    /// (3 fields). Full-width `，` `．` `＂` are neither delimiters nor quotes. The trailing blank line is a record.
    @Test func defaultDialectMatchesPython() throws {
        let reader = try CSVReader(path: Fixtures.path(Self.path))
        #expect(reader.header == ["character", "quote"])
        let records = try reader.readAll()
        #expect(
            records.map(\.fields) == [
                ["Inigo", "You killed my father\nDarth, I am your father"],
                ["Buddha", ""],
                ["Dada", "'dodo'"],
                ["Evil Guy", "\";drop table"],
                ["Expert", " \"Trust me", " I'm an expert\""],
                ["Balmer", "\"Developers, Developers\""],
                ["Yoda，Do，do not．do not try"],
                ["Me", "＂Do not"],
                ["quote me", " please＂"],
                [""],
            ])
        #expect(records.map(\.lineNumber) == [2, 4, 5, 6, 7, 8, 9, 10, 11, 12])
        #expect(records.last?.isBlank == true)
    }

    /// With trimming, libcsv skips the space and opens a quoted field, like Go's `-trim_leading_space
    /// -lazy_quotes` and Python's `skipinitialspace`: `[Expert, "Trust me, I'm an expert"]`.
    @Test func trimmingMatchesGoLazyQuotes() throws {
        var dialect = CSVDialect.csv
        dialect.trimsSpaces = true
        let records = try CSVReader(path: Fixtures.path(Self.path), dialect: dialect).readAll()
        #expect(records[4].fields == ["Expert", "Trust me, I'm an expert"])
        #expect(records[5].fields == ["Balmer", "\"Developers, Developers\""])
        #expect(records[8].fields == ["quote me", "please＂"])
    }

    /// Strict mode stops at the same place Go does (line 7, the quote after `, `) with an error, no crash;
    /// the header and the four records before it are fine (Go counts five records, header included).
    @Test func strictModeFailsCleanlyAtLine7() throws {
        var dialect = CSVDialect.csv
        dialect.strict = true
        let reader = try CSVReader(path: Fixtures.path(Self.path), dialect: dialect)
        var records: [[String]] = []
        let error = try #require(throws: CSVError.self) {
            while let record = try reader.next() { records.append(record.fields) }
        }
        #expect(records.count == 4)
        #expect(error.kind == .malformedQuote)
        #expect(error.line == 7)
        #expect(error.column == 2)
        #expect(error.description.contains("evil.csv:7:2"))
        #expect(throws: CSVError.self) { try reader.next() }
    }

    /// Strict and trimming together accept the record, as Go's lazy mode does.
    @Test func strictWithTrimmingReadsEverything() throws {
        var dialect = CSVDialect.csv
        dialect.strict = true
        dialect.trimsSpaces = true
        let records = try CSVReader(path: Fixtures.path(Self.path), dialect: dialect).readAll()
        #expect(records.count == 10)
    }

    @Test func evil1AndEvil2() throws {
        let evil1 = try CSVReader(path: Fixtures.path("gebi-csv-test/evil1.csv"), dialect: CSVDialect(hasHeader: false))
        #expect(
            try evil1.readAll().map(\.fields) == [
                ["Expert", " \"Trust me", " I'm an expert\""], ["Balmer", "\"Developers, Developers\""],
            ])
        let evil2 = try CSVReader(path: Fixtures.path("gebi-csv-test/evil2.csv"), dialect: CSVDialect(hasHeader: false))
        #expect(try evil2.readAll().map(\.fields) == [["", "foo"]])
    }
}
