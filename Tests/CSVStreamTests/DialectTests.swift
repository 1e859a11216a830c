import CSVStream
import Testing

@Suite("Dialects")
struct DialectTests {
    @Test func presets() {
        #expect(CSVDialect.csv.delimiter == UInt8(ascii: ","))
        #expect(CSVDialect.csv.hasHeader)
        #expect(CSVDialect.tsv.delimiter == 0x09)
        #expect(CSVDialect.semicolon.delimiter == UInt8(ascii: ";"))
        #expect(CSVDialect.epf.delimiter == 0x01)
        #expect(CSVDialect.epf.recordTerminator == .controlBNewline)
        #expect(CSVDialect.csv.encoding == .utf8 && !CSVDialect.csv.strict && !CSVDialect.csv.trimsSpaces)
    }

    @Test func tabSeparated() throws {
        let reader = try CSVReader(string: "a\tb\n\"x\ty\"\t z \n", dialect: .tsv)
        #expect(reader.header == ["a", "b"])
        #expect(try reader.next()?.fields == ["x\ty", " z "])
        var trimming = CSVDialect.tsv
        trimming.trimsSpaces = true
        // Trimming never eats the tab delimiter.
        #expect(
            try parse("a\t\tb \n", dialect: CSVDialect(delimiter: 0x09, hasHeader: false, trimsSpaces: true)) == [
                ["a", "", "b"]
            ])
    }

    @Test func semicolonAndControlA() throws {
        #expect(
            try parse("1,5;\"a;b\"\n", dialect: CSVDialect(delimiter: UInt8(ascii: ";"), hasHeader: false)) == [
                ["1,5", "a;b"]
            ])
        #expect(
            try parse("x\u{01}\"y\u{01}z\"\n", dialect: CSVDialect(delimiter: 0x01, hasHeader: false)) == [
                ["x", "y\u{01}z"]
            ])
    }

    /// A non-ASCII delimiter byte can split a UTF-8 sequence; the halves are then reported, not repaired.
    @Test func nonASCIIDelimiter() throws {
        let utf8 = CSVDialect(delimiter: 0xA9, hasHeader: false)
        let error = try #require(throws: CSVError.self) { try parse([0x61, 0xC2, 0xA9, 0x62, 0x0A], dialect: utf8) }
        #expect(error.column == 1)
        let latin1 = CSVDialect(delimiter: 0xA7, hasHeader: false, encoding: .latin1)
        #expect(try parse([0x61, 0xA7, 0xE9, 0x0A], dialect: latin1) == [["a", "é"]])
    }

    @Test func customQuote() throws {
        let dialect = CSVDialect(quote: UInt8(ascii: "'"), hasHeader: false)
        #expect(try parse("'a,b','it''s',\"x\"\n", dialect: dialect) == [["a,b", "it's", "\"x\""]])
    }

    @Test func noQuoting() throws {
        let dialect = CSVDialect(quote: CSVDialect.noQuote, hasHeader: false)
        #expect(try parse("\"a,b\"\n", dialect: dialect) == [["\"a", "b\""]])
    }

    /// libcsv trims spaces and tabs around unquoted fields and between a closing quote and the delimiter.
    @Test func trimming() throws {
        let dialect = CSVDialect(hasHeader: false, trimsSpaces: true)
        #expect(try parse("  a  ,\t b\t,\"  c  \"  , d e \n", dialect: dialect) == [["a", "b", "  c  ", "d e"]])
        // A line of spaces is blank when trimming.
        let reader = try CSVReader(string: "   \nx\n", dialect: dialect)
        #expect(try reader.next()?.isBlank == true)
    }

    @Test func strictModeRejectsStrayQuotes() throws {
        let dialect = CSVDialect(hasHeader: false, strict: true)
        #expect(try parse("\"a\"\"b\",c\n", dialect: dialect) == [["a\"b", "c"]])
        let inside = try #require(throws: CSVError.self) { try parse("ok\nab\"c,d\n", dialect: dialect) }
        #expect(inside.kind == .malformedQuote)
        #expect(inside.line == 2)
        #expect(inside.column == 1)
        #expect(inside.byteOffset == 5)
        let after = try #require(throws: CSVError.self) { try parse("\"ab\"x,d\n", dialect: dialect) }
        #expect(after.kind == .malformedQuote)
        #expect(after.byteOffset == 4)
        #expect(after.message.contains("0x78"))
    }

    /// After a strict error the partial record (up to where parsing stopped) is there for a rejects file,
    /// and every later call throws the same error.
    @Test func strictErrorKeepsThePartialRecord() throws {
        let reader = try CSVReader(string: "a,b\n1,x\"y,3\n4,5\n", dialect: CSVDialect(strict: true))
        let error = try #require(throws: CSVError.self) { try reader.next() }
        #expect(!error.isRecoverable)
        #expect(reader.lastRecordRawText.hasPrefix("1,x"))
        #expect(throws: error) { try reader.next() }
    }

    @Test func nonStrictKeepsStrayQuotesAsData() throws {
        #expect(try parse("ab\"c,d\n") == [["ab\"c", "d"]])
        // libcsv's lazy rule: after a closing quote, other bytes continue the (still quoted) field, up to
        // the end of the line, where the reader ends the record.
        #expect(try parse("\"ab\"x,d\n") == [["ab\"x,d"]])
        #expect(try parse("\"ab\"x,d\ne,f\n") == [["ab\"x,d"], ["e", "f"]])
    }

    @Test(arguments: [1, CSVReader.defaultChunkSize])
    func unterminatedQuote(chunkSize: Int) throws {
        // Not strict: the field never closes, so its record ends with the quote's line and the lines after
        // it are records again (on the quote's line, the field runs to the end of the input).
        #expect(try parse("a,\"b\nc", chunkSize: chunkSize) == [["a", "b"], ["c"]])
        #expect(try parse("a,\"b", chunkSize: chunkSize) == [["a", "b"]])
        // Strict: an error naming the record's first line.
        let dialect = CSVDialect(hasHeader: false, strict: true)
        let reader = try CSVReader(string: "x\na,\"b\nc", dialect: dialect, chunkSize: chunkSize)
        #expect(try reader.next()?.fields == ["x"])
        let error = try #require(throws: CSVError.self) { try reader.next() }
        #expect(error.kind == .unterminatedQuote)
        #expect(error.recordLine == 2)
        #expect(error.column == 2)
    }

    @Test func contradictoryDialectsAreRejected() throws {
        let same = try #require(throws: CSVError.self) {
            try CSVReader(string: "a", dialect: CSVDialect(delimiter: UInt8(ascii: "\""), hasHeader: false))
        }
        #expect(same.kind == .invalidDialect)
        #expect(throws: CSVError.self) { try CSVReader(string: "a", dialect: CSVDialect(delimiter: 0x0A)) }
        #expect(throws: CSVError.self) { try CSVReader(string: "a", dialect: CSVDialect(quote: 0x0D)) }
        #expect(throws: CSVError.self) {
            try CSVReader(string: "a", dialect: CSVDialect(commentPrefix: UInt8(ascii: ",")))
        }
        // EPF treats CR and LF as data, so they could even delimit.
        #expect(throws: CSVError.self) {
            try CSVReader(string: "a", dialect: CSVDialect(delimiter: 0x02, recordTerminator: .controlBNewline))
        }
    }
}
