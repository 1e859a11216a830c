import CSVStream
import Testing

/// SwiftCSV's own fixtures (shared/fixtures-real/swiftcsv-testdata), with the results SwiftCSV's tests expect.
@Suite("SwiftCSV test data", .enabled(if: Fixtures.isAvailable, Fixtures.missing))
struct SwiftCSVTestDataTests {
    /// The header must not start with U+FEFF: the byte-order mark is dropped. CRLF after the header only,
    /// no final EOL.
    @Test func utf8WithByteOrderMark() throws {
        let reader = try CSVReader(path: Fixtures.path("swiftcsv-testdata/utf8_with_bom.csv"))
        let header = try #require(reader.header)
        #expect(header == ["Part Number", "Description", "Unit Price", "Qty"])
        #expect(header.first?.unicodeScalars.first != "\u{FEFF}")
        let records = try reader.readAll()
        #expect(records.map(\.fields) == [["12345", "Heizölrückstoßabdämpfung", "€ 100,00", "2"]])
        #expect(records.first?.lineNumber == 2)
    }

    /// Quoted header names with commas, doubled quotes, a backslash that is not an escape, and a quoted newline.
    @Test(arguments: [1, 5, CSVReader.defaultChunkSize])
    func quotes(chunkSize: Int) throws {
        let reader = try CSVReader(path: Fixtures.path("swiftcsv-testdata/quotes.csv"), chunkSize: chunkSize)
        #expect(reader.header == ["id", "name, first", "name, last"])
        let records = try reader.readAll()
        #expect(
            records.map(\.fields) == [
                ["4", "Alex", "Smith"],
                ["5", "Joe", "Bloggs"],
                ["9", "Person, with a \"quote\" in their name", "uugh"],
                ["10", "Person, with escaped comma", "Jones"],
                ["10", "Person\\ with a backslash", "Jones"],
                ["12", "Newlines\nare the best", "Woo hoo"],
            ])
        #expect(records.map(\.lineNumber) == [2, 3, 4, 5, 6, 7])
    }

    /// Ragged rows stay ragged (SwiftCSV pads them; padding is the importer's choice) and the blank line is
    /// a record with one empty field.
    @Test func emptyFieldsRaggedRowsAndABlankLine() throws {
        let reader = try CSVReader(path: Fixtures.path("swiftcsv-testdata/empty_fields.csv"))
        #expect(reader.header == ["id", "name", "age"])
        let records = try reader.readAll()
        #expect(
            records.map(\.fields) == [
                ["1", "John", "23"], ["2", "James", "32"], ["3", "", ""], ["6"], [""], ["", "Tom"],
            ])
        #expect(records.map(\.isBlank) == [false, false, false, false, true, false])
        #expect(records.map(\.lineNumber) == [2, 3, 4, 5, 6, 7])
    }

    /// Wholly quoted speech with doubled quotes at both ends.
    @Test func wonderland() throws {
        let reader = try CSVReader(path: Fixtures.path("swiftcsv-testdata/wonderland.csv"))
        let records = try reader.readAll()
        #expect(records.count == 3)
        #expect(records.allSatisfy { $0.count == 2 })
        #expect(records.contains { $0.fields.contains { $0.hasPrefix("\"Where shall I begin") } })
    }

    /// 10,000 CRLF rows, no final EOL.
    @Test func large() throws {
        let reader = try CSVReader(path: Fixtures.path("swiftcsv-testdata/large.csv"))
        var count = 0
        var last: CSVRecord?
        try reader.forEachRecord { record in
            count += 1
            #expect(record.count == 4)
            last = record
        }
        #expect(count == 10_000)
        #expect(last?.lineNumber == 10_001)
        #expect(reader.bytesRead == reader.fileSize)
        #expect(reader.progress == 1)
    }
}
