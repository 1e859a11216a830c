import CSVStream
import PropertyBased
import Testing

/// `skipLines`: lines above the table (a title, notes) that are not CSV.
@Suite("Lines skipped above the header")
struct SkipLinesTests {
    static let preambleCharacters: [Character] = ["a", "Z", " ", ",", ";", "\"", "'", "é", "#", "\t", "\u{FEFF}"]
    static let preamble = pick(preambleCharacters).string(of: 0...8).array(of: 0...3)

    /// Any lines, quotes and all, put above any document and skipped, leave its records as they were,
    /// their lines moved down by as many lines and their offsets by as many bytes.
    @Test func skippedLinesLeaveTheDocumentAsItWas() async {
        await propertyCheck(input: Self.preamble, RoundTripPropertyTests.document, RoundTripPropertyTests.lineEnding,
                            RoundTripPropertyTests.chunkSize) { lines, records, lineEnding, chunkSize in
            recordingErrors {
                let above = lines.map { $0 + lineEnding }.joined()
                let document = Array(writeCSV(records, lineEnding: lineEnding).utf8)
                let alone = try CSVReader(bytes: document, dialect: CSVDialect(hasHeader: false), chunkSize: chunkSize).readAll()
                var dialect = CSVDialect(hasHeader: false)
                dialect.skipLines = lines.count
                let skipped = try CSVReader(bytes: Array(above.utf8) + document, dialect: dialect, chunkSize: chunkSize).readAll()
                #expect(skipped.map(\.fields) == alone.map(\.fields))
                #expect(skipped.map(\.lineNumber) == alone.map { $0.lineNumber + lines.count })
                #expect(skipped.map(\.byteOffset) == alone.map { $0.byteOffset + Int64(above.utf8.count) })
            }
        }
    }

    @Test func theHeaderComesAfterTheSkippedLines() throws {
        var dialect = CSVDialect.csv
        dialect.skipLines = 2
        let reader = try CSVReader(bytes: Array("\u{FEFF}Report \"Q3, 2026\r\n\r\nid,name\r\n1,\"a, b\"\r\n".utf8), dialect: dialect)
        #expect(reader.header == ["id", "name"])
        #expect(reader.skippedByteOrderMark)
        let record = try #require(try reader.next())
        #expect(record.fields == ["1", "a, b"])
        #expect(record.lineNumber == 4)
    }

    @Test func moreLinesThanTheFileHasLeaveNothing() throws {
        var dialect = CSVDialect(hasHeader: false)
        dialect.skipLines = 5
        #expect(try CSVReader(bytes: Array("a,b\nc,d\n".utf8), dialect: dialect).readAll().isEmpty)
    }
}
