import CSVStream
import PropertyBased
import Testing

/// ``CSVRawRecord/isQuoted(at:)``: whether a field was written in quotes, which `NULL` and `"NULL"`, or an
/// empty field and `""`, differ by.
@Suite("Quoted fields")
struct QuotedFieldTests {
    /// Each record's fields' quotedness.
    static func quotedness(_ text: String, dialect: CSVDialect = CSVDialect(hasHeader: false), chunkSize: Int = 3)
        throws -> [[Bool]]
    {
        let reader = try CSVReader(string: text, dialect: dialect, chunkSize: chunkSize)
        var result: [[Bool]] = []
        try reader.forEachRawRecord { record in
            result.append((0..<record.count).map { record.isQuoted(at: $0) })
        }
        return result
    }

    @Test("csv-spectrum's null.csv row: NULL and \"NULL\", empty and \"\"", arguments: [1, 2, 64])
    func nullsAndEmpties(chunkSize: Int) throws {
        #expect(try Self.quotedness("a,\"NULL\",,\"\",NULL\n3,\"\",4\n", chunkSize: chunkSize)
            == [[false, true, false, true, false], [false, true, false]])
    }

    @Test("doubled quotes, delimiters and line breaks inside quotes, quotes inside unquoted fields")
    func awkwardFields() throws {
        #expect(try Self.quotedness("\"a\"\"b\",c,\"x,\ny\",37\"N,\"\"\"\"\n") == [[true, false, true, false, true]])
        #expect(try Self.quotedness("x\"y,\"z\"\r\n\"\",\r\n") == [[false, true], [true, false]])
    }

    @Test("a lenient stray byte after a closing quote keeps the field quoted, as libcsv reads it")
    func strayByteAfterQuote() throws {
        let text = "\"ab\"x,d\",e\n"
        #expect(try CSVReader(string: text, dialect: CSVDialect(hasHeader: false)).readAll().map(\.fields) == [["ab\"x,d", "e"]])
        #expect(try Self.quotedness(text) == [[true, false]])
    }

    @Test("spaces before a quote open it only when the dialect trims")
    func spacesBeforeQuotes() throws {
        let text = " \"a\" , b,\"c\"  \n"
        #expect(try Self.quotedness(text, dialect: CSVDialect(hasHeader: false, trimsSpaces: true)) == [[true, false, true]])
        #expect(try Self.quotedness(text, dialect: CSVDialect(hasHeader: false)) == [[false, false, true]])
    }

    @Test("other delimiters and quotes")
    func otherDialects() throws {
        let dialect = CSVDialect(delimiter: 0x3B, quote: UInt8(ascii: "'"), hasHeader: false)
        #expect(try Self.quotedness("'a;b';\"c\";'';\n", dialect: dialect) == [[true, false, true, false]])
    }

    /// Random records, each field quoted when it must be and by a coin toss otherwise, read back with the
    /// quotedness they were written with, whatever the chunk size.
    @Test func randomRecordsKeepTheirQuoting() async {
        let field = zip(RoundTripPropertyTests.field, Gen.bool)
        let document = field.array(of: 1...4).array(of: 1...6)
        await propertyCheck(input: document, RoundTripPropertyTests.chunkSize) { records, chunkSize in
            var text = ""
            var expected: [[Bool]] = []
            for record in records {
                var quoted: [Bool] = []
                text += record.map { value, wantsQuotes in
                    let needsQuotes = value.unicodeScalars.contains { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" }
                        || (record.count == 1 && value.isEmpty)
                    quoted.append(needsQuotes || wantsQuotes)
                    guard needsQuotes || wantsQuotes else { return value }
                    return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
                }.joined(separator: ",") + "\n"
                expected.append(quoted)
            }
            #expect((try? Self.quotedness(text, chunkSize: chunkSize)) == expected, "\(text.debugDescription)")
        }
    }
}
