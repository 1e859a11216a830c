import CSVStream
import Testing

/// Apple Enterprise Partner Feed: `\u{01}` between fields, `\u{02}` LF after records, `#` comment lines.
@Suite("Apple EPF")
struct EPFTests {
    static let text =
        "#export_date\u{01}name\u{02}\n#dbTypes:BIGINT\u{02}\nid\u{01}title\u{02}\n1\u{01}two\nlines \"quoted\"\u{02}\n2\u{01}\u{02}\n3\u{01}end\u{02}"

    @Test(arguments: [1, 2, 5, CSVReader.defaultChunkSize])
    func commentsRecordsAndEmbeddedNewlines(chunkSize: Int) throws {
        let reader = try CSVReader(string: Self.text, dialect: .epf, chunkSize: chunkSize)
        #expect(reader.header == ["id", "title"])
        let records = try reader.readAll()
        #expect(records.map(\.fields) == [["1", "two\nlines \"quoted\""], ["2", ""], ["3", "end"]])
        #expect(records.map(\.lineNumber) == [4, 6, 7])
        #expect(
            try records.map { try reader.rawText(of: $0) } == ["1\u{01}two\nlines \"quoted\"", "2\u{01}", "3\u{01}end"])
    }

    @Test func crlfAfterControlBIsData() throws {
        // Only LF belongs to the terminator; a CR before it would be data of the next record's first field.
        let records = try CSVReader(
            string: "a\u{01}b\u{02}\n\rc\u{01}d\u{02}\n",
            dialect: CSVDialect(
                delimiter: 0x01, quote: CSVDialect.noQuote, hasHeader: false, recordTerminator: .controlBNewline)
        ).readAll()
        #expect(records.map(\.fields) == [["a", "b"], ["\rc", "d"]])
    }
}
