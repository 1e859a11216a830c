import CSVStream
import PropertyBased
import Testing

/// Text after a closing quote: non-strict libcsv keeps the field open, so the reader ends the record with
/// that line and ``CSVRawRecord/validateQuotes()`` reports it with the place it went wrong; likewise a
/// quote never closed.
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
                #expect(error.kind == .textAfterClosingQuote || error.kind == .unterminatedQuote)
                results.append([Int64(error.column ?? 0), Int64(error.line ?? 0), error.byteOffset ?? -1])
            }
        }
        return results
    }

    @Test func textAfterAClosingQuoteIsReportedWithItsPlace() throws {
        // `"x"y` keeps libcsv's field open to the next quote; the record ends with its line instead.
        let text = "a,b\n1,\"x\"y\n2,c\n3,\"d\"\n4,e\n"
        #expect(try Self.outcomes(text) == [nil, [2, 2, 9], nil, nil, nil])
        let reader = try CSVReader(bytes: Array(text.utf8), dialect: CSVDialect(hasHeader: false))
        #expect(try reader.readAll().map(\.fields) == [["a", "b"], ["1", "x\"y"], ["2", "c"], ["3", "d"], ["4", "e"]])
    }

    @Test func spacesAfterAClosingQuoteEndTheFieldOnlyWhenTrimming() throws {
        let text = "1,\"x\" \n2,\"y\"\t,z\n"
        #expect(try Self.outcomes(text, trims: true) == [nil, nil])
        #expect(try Self.outcomes(text, trims: false) == [[2, 1, 5], [2, 2, 12]])
    }

    @Test func wellFormedQuotingPasses() throws {
        let text = "\"a\"\"b\",\"c,d\",\"e\nf\",g\"h,\"\"\n\"\",x\r\n\"q\"\r\n"
        #expect(try Self.outcomes(text) == [nil, nil, nil])
    }

    @Test func documentsWrittenWithRFC4180QuotingAlwaysPass() async {
        await propertyCheck(input: RoundTripPropertyTests.document, RoundTripPropertyTests.lineEnding) { records, lineEnding in
            recordingErrors {
                let text = writeCSV(records, lineEnding: lineEnding, finalLineEnding: true)
                let outcomes = try Self.outcomes(text)
                #expect(outcomes.allSatisfy { $0 == nil }, "\(records)")
            }
        }
    }

    /// Non-strict libcsv reads a quote never closed to the end of the input, which once made the last
    /// record hold every line after it (and pass as one long value): the record ends with the quote's line,
    /// reported at the quote, and the lines after it are read as records.
    @Test("a quote never closed is reported at the quote; the lines after it are records", arguments: [1, 7, CSVReader.defaultChunkSize])
    func quoteNeverClosed(chunkSize: Int) throws {
        let text = "a,b\n1,\"x\n2,c\n3,d\n"
        let reader = try CSVReader(bytes: Array(text.utf8), dialect: CSVDialect(hasHeader: false), chunkSize: chunkSize)
        var errors: [CSVError?] = []
        var raw: [String] = []
        try reader.forEachRawRecord { record in
            raw.append(reader.lastRecordRawText)
            do throws(CSVError) { try record.validateQuotes(); errors.append(nil) } catch { errors.append(error) }
        }
        #expect(raw == ["a,b", "1,\"x", "2,c", "3,d"])
        try #require(errors.count == 4)
        #expect(errors[2] == nil && errors[3] == nil)
        let error = try #require(errors[1])
        #expect(error.kind == .unterminatedQuote)
        #expect(error.line == 2 && error.column == 2 && error.byteOffset == 6 && error.recordLine == 2)
        #expect(error.message == "the quote that opens field 2 is never closed: the input ends 3 lines later; the record ends with this line and the lines after it are read as records")
        #expect(error.isRecoverable)
        #expect(try Self.outcomes("1,\"x\"\"") == [[2, 1, 2]], "a doubled quote at the end is data: still open")
        #expect(try Self.outcomes("1,\"x\"") == [nil], "closed at the very end")
        #expect(try Self.outcomes("1, \"x", trims: true) == [[2, 1, 3]], "after spaces when trimming")
        #expect(try Self.outcomes("1,x\"y") == [nil], "a quote inside an unquoted field is data, not an opening")
    }

    @Test func aFileCutShortInsideItsLastQuotedFieldSaysSo() throws {
        let reader = try CSVReader(bytes: Array("a\n\"cut".utf8), dialect: CSVDialect(hasHeader: false))
        var last: CSVError?
        try reader.forEachRawRecord { record in
            do throws(CSVError) { try record.validateQuotes() } catch { last = error }
        }
        #expect(last?.message == "the quote that opens field 1 is never closed: the input ends on the same line: is the file cut short?")
    }

    /// Any document written with RFC 4180 quoting, followed by a record whose last field opens a quote the
    /// input never closes, is reported at that quote, whatever the chunk size; the records before pass.
    @Test func documentsEndingInsideAQuotedFieldAreReportedThere() async {
        await propertyCheck(input: RoundTripPropertyTests.document, Gen.int(in: 1...64)) { records, chunkSize in
            recordingErrors {
                let head = writeCSV(records, lineEnding: "\n", finalLineEnding: true)
                    + writeCSV([records[0]], finalLineEnding: false) + ","
                let text = Array((head + "\"tail\nmore,\r\n").utf8)
                let reader = try CSVReader(bytes: text, dialect: CSVDialect(hasHeader: false), chunkSize: chunkSize)
                var errors: [CSVError] = []
                try reader.forEachRawRecord { record in
                    do throws(CSVError) { try record.validateQuotes() } catch { errors.append(error) }
                }
                #expect(errors.count == 1, "\(head)")
                #expect(errors.first?.kind == .unterminatedQuote, "\(head)")
                #expect(errors.first?.byteOffset == Int64(head.utf8.count), "\(head)")
                #expect(errors.first?.column == records[0].count + 1, "\(head)")
            }
        }
    }

    /// A record is held whole: a quote never closed in a large file would hold the rest of it in memory.
    @Test("a record past maximumRecordBytes stops the reader, naming the quote still open", arguments: [1, 5, CSVReader.defaultChunkSize])
    func recordLimit(chunkSize: Int) throws {
        var dialect = CSVDialect(hasHeader: false)
        dialect.maximumRecordBytes = 64
        let rows = (1...20).map { "E\($0),Employee \($0)\n" }.joined()
        let reader = try CSVReader(bytes: Array(("a,b\nx,\"open\n" + rows).utf8), dialect: dialect, chunkSize: chunkSize)
        #expect(try reader.next()?.fields == ["a", "b"])
        let error = try #require(throws: CSVError.self) { try reader.next() }
        #expect(error.kind == .recordTooLarge)
        #expect(error.line == 2 && error.column == 2 && error.byteOffset == 6 && error.recordLine == 2)
        #expect(error.message.hasPrefix("the record that starts on line 2 passes 64 bytes without ending: the quote that opens field 2 on line 2 is still open "))
        #expect(!error.isRecoverable)
        #expect(throws: CSVError.self) { try reader.next() }

        // Within the limit, the same records read; a long record without quotes names no quote.
        let fits = try CSVReader(bytes: Array(("a,b\n" + rows).utf8), dialect: dialect, chunkSize: chunkSize)
        #expect(try fits.readAll().count == 21)
        let long = try CSVReader(bytes: Array(("a," + String(repeating: "b", count: 100) + "\n").utf8), dialect: dialect, chunkSize: chunkSize)
        let plain = try #require(throws: CSVError.self) { try long.next() }
        #expect(plain.kind == .recordTooLarge && plain.line == 1 && plain.column == nil)
        #expect(plain.message == "the record that starts on line 1 passes 64 bytes without ending")
        // A user trial read advice about a quote never closed for a file without quotes, and the same-line
        // open quote as "still open 0 lines later".
        #expect(plain.hint.hasPrefix("No quote is open: the record itself is this long."), "\(plain.hint)")
        #expect(error.hint.hasPrefix("A quote that is never closed reads the lines after it as data"))
        let sameLine = try CSVReader(bytes: Array(("a,\"" + String(repeating: "b", count: 100)).utf8), dialect: dialect, chunkSize: chunkSize)
        let open = try #require(throws: CSVError.self) { try sameLine.next() }
        #expect(open.message.hasSuffix("the quote that opens field 2 on line 1 is still open on that line"), "\(open.message)")
    }
}
