import CSVStream
import PropertyBased
import Testing

/// Text after a closing quote: non-strict libcsv keeps the field open and swallows the records after it,
/// so ``CSVRawRecord/validateQuotes()`` reports the record with the place it went wrong.
@Suite("Quote validation")
struct QuoteValidationTests {
    /// Each raw record's `validateQuotes()` outcome: nil when it passes, else (column, line, byte offset).
    static func outcomes(_ text: String, trims: Bool = false) throws -> [[Int64]?] {
        let reader = try CSVReader(bytes: Array(text.utf8), dialect: CSVDialect(hasHeader: false, trimsSpaces: trims))
        var results: [[Int64]?] = []
        try reader.forEachRawRecord { record in
            do throws(CSVError) {
                try record.validateQuotes()
                results.append(nil)
            } catch {
                #expect(error.kind == .textAfterClosingQuote)
                results.append([Int64(error.column ?? 0), Int64(error.line ?? 0), error.byteOffset ?? -1])
            }
        }
        return results
    }

    @Test func textAfterAClosingQuoteIsReportedWithItsPlace() throws {
        // `"x"y` keeps the field open to the next quote: records 2 and 3 are swallowed into record 1.
        let text = "a,b\n1,\"x\"y\n2,c\n3,\"d\"\n4,e\n"
        #expect(try Self.outcomes(text) == [nil, [2, 2, 9], nil])
        let reader = try CSVReader(bytes: Array(text.utf8), dialect: CSVDialect(hasHeader: false))
        #expect(try reader.readAll().count == 3, "the swallowed records are inside the reported one")
    }

    @Test func spacesAfterAClosingQuoteEndTheFieldOnlyWhenTrimming() throws {
        let text = "1,\"x\" \n2,\"y\"\t,z\n"
        #expect(try Self.outcomes(text, trims: true) == [nil, nil])
        #expect(try Self.outcomes(text, trims: false) == [[2, 1, 5]])
    }

    @Test func wellFormedQuotingPasses() throws {
        let text = "\"a\"\"b\",\"c,d\",\"e\nf\",g\"h,\"\"\n\"\",x\r\n\"q\"\r\n"
        #expect(try Self.outcomes(text) == [nil, nil, nil])
    }

    @Test func documentsWrittenWithRFC4180QuotingAlwaysPass() async {
        await propertyCheck(input: RoundTripPropertyTests.document, RoundTripPropertyTests.lineEnding) { records, lineEnding in
            let text = writeCSV(records, lineEnding: lineEnding, finalLineEnding: true)
            let outcomes = try Self.outcomes(text)
            #expect(outcomes.allSatisfy { $0 == nil }, "\(records)")
        }
    }
}
