import CSVStream
import Foundation
import Testing

@Suite("Basic RFC 4180 parsing")
struct BasicParsingTests {
    @Test func simpleRecords() throws {
        #expect(try parse("a,b,c\n1,2,3\n") == [["a", "b", "c"], ["1", "2", "3"]])
    }

    @Test func noFinalNewline() throws {
        #expect(try parse("a,b\n1,2") == [["a", "b"], ["1", "2"]])
        #expect(try parse("a,") == [["a", ""]])
    }

    @Test func quotingDoubledQuotesDelimitersAndNewlines() throws {
        let text = "\"a,b\",\"say \"\"hi\"\"\",\"line1\nline2\"\n\"\",x\n"
        #expect(try parse(text) == [["a,b", "say \"hi\"", "line1\nline2"], ["", "x"]])
    }

    @Test func lineEndingsLFCRLFAndBareCR() throws {
        #expect(try parse("a\nb\nc") == [["a"], ["b"], ["c"]])
        #expect(try parse("a\r\nb\r\nc") == [["a"], ["b"], ["c"]])
        #expect(try parse("a\rb\rc") == [["a"], ["b"], ["c"]])
        // CRLF and LF mix freely; a file that starts with bare CRs takes LF too, as before.
        #expect(try parse("a\nb\r\nc\n") == [["a"], ["b"], ["c"]])
        #expect(try parse("a\rb\nc\r\nd") == [["a"], ["b"], ["c"], ["d"]])
    }

    /// The user trial: in a file of LF lines, `x1,Muster\rstr. 5` was read as the record `x1,Muster` and a
    /// record `str. 5` (and `x1,Muster\rx9,str. 5` made up a row x9).
    @Test func aLoneCarriageReturnInAFileOfLFLinesIsNotARecordEnd() throws {
        let reader = try CSVReader(string: "a\nb\r\nc\rd\ne\n", dialect: CSVDialect(hasHeader: false))
        #expect(try reader.next()?.fields == ["a"])
        #expect(try reader.next()?.fields == ["b"])
        let error = try #require(throws: CSVError.self) { try reader.next() }
        #expect(error.kind == .loneCarriageReturn && error.isRecoverable)
        #expect(error.line == 3 && error.column == 1 && error.byteOffset == 6 && error.recordLine == 3)
        #expect(reader.lastRecordRawText == "c\rd")
        let last = try #require(try reader.next())
        #expect(last.fields == ["e"] && last.lineNumber == 4 && last.byteOffset == 9)
        // At the end of the input, after only spaces a trimming libcsv drops, the record is still there.
        let trimming = try CSVReader(string: "a\nb\r ", dialect: CSVDialect(hasHeader: false, trimsSpaces: true))
        #expect(try trimming.next()?.fields == ["a"])
        #expect(throws: CSVError.self) { try trimming.next() }
        #expect(trimming.lastRecordRawText == "b\r ")
        #expect(try trimming.next() == nil)
    }

    @Test func quotedLineBreaksAreKeptAsWritten() throws {
        #expect(try parse("\"x\r\ny\",\"p\rq\"\r\n") == [["x\r\ny", "p\rq"]])
    }

    @Test func blankLinesAreRecordsWithOneEmptyField() throws {
        let reader = try CSVReader(string: "a\n\nb\r\n\r\nc\n\nd\n", dialect: CSVDialect(hasHeader: false))
        let records = try reader.readAll()
        #expect(records.map(\.fields) == [["a"], [""], ["b"], [""], ["c"], [""], ["d"]])
        #expect(records.map(\.isBlank) == [false, true, false, true, false, true, false])
        #expect(records.map(\.lineNumber) == [1, 2, 3, 4, 5, 6, 7])
        // In a file of bare-CR lines, CR CR is a blank line too.
        let bare = try CSVReader(string: "c\r\rd\r", dialect: CSVDialect(hasHeader: false)).readAll()
        #expect(bare.map(\.fields) == [["c"], [""], ["d"]] && bare.map(\.lineNumber) == [1, 2, 3])
    }

    @Test func raggedRecordsAreReportedAsTheyAre() throws {
        #expect(try parse("a,b,c\n1\n1,2,3,4\n") == [["a", "b", "c"], ["1"], ["1", "2", "3", "4"]])
    }

    @Test func byteOrderMarkIsSkippedButCountsInOffsets() throws {
        let reader = try CSVReader(bytes: [0xEF, 0xBB, 0xBF] + Array("id,name\n1,x\n".utf8))
        #expect(reader.header == ["id", "name"])
        let record = try #require(try reader.next())
        #expect(record.fields == ["1", "x"])
        #expect(record.byteOffset == 11)
        #expect(record.lineNumber == 2)
    }

    @Test func onlyALeadingByteOrderMarkIsSkipped() throws {
        // A cut-off mark is not a mark: it is invalid UTF-8 in the first field.
        #expect(throws: CSVError.self) { try parse([0xEF, 0xBB, 0x0A]) }
        #expect(try parse([0xEF, 0xBB, 0xBF]) == [])
        #expect(try parse(Array("a,\u{FEFF}b\n".utf8)) == [["a", "\u{FEFF}b"]])
    }

    /// Excel's "Unicode Text" is UTF-16: read as UTF-8 its mark was "byte 0xFF is not valid UTF-8" with a
    /// hint to try Windows-1252, which would read every other byte as a NUL.
    @Test("a UTF-16 or UTF-32 byte-order mark is named, with how to convert the file",
          arguments: [([0xFF, 0xFE, 0x61, 0x00], "UTF-16 (little-endian)"), ([0xFE, 0xFF, 0x00, 0x61], "UTF-16 (big-endian)"),
                      ([0xFF, 0xFE, 0x00, 0x00], "UTF-32 (little-endian)"), ([0x00, 0x00, 0xFE, 0xFF], "UTF-32 (big-endian)")])
    func wideByteOrderMarks(head: [UInt8], name: String) throws {
        for encoding in TextEncoding.allCases {
            let error = try #require(throws: CSVError.self) {
                try CSVReader(bytes: head + [0x0A, 0x00], dialect: CSVDialect(encoding: encoding))
            }
            #expect(error.kind == .unsupportedEncoding)
            #expect(error.message == "the file is \(name), by the byte-order mark it starts with; the reader takes UTF-8, Windows-1252 and Latin-1")
            #expect(error.line == 1 && error.byteOffset == 0)
            #expect(error.hint.contains("iconv -f \(name.hasPrefix("UTF-32") ? "UTF-32" : "UTF-16") -t UTF-8"))
        }
        // Windows-1252 reads a lone 0xFF, or 0xFF followed by other than 0xFE, as data.
        #expect(try parse([0xFF, 0x61, 0x0A], dialect: CSVDialect(hasHeader: false, encoding: .windows1252)) == [["ÿa"]])
    }

    /// Without a mark, UTF-16 read as one of the encodings taken had a NUL in every value.
    @Test("UTF-16 or UTF-32 without a byte-order mark is named by its NULs, with iconv's name for its byte order; NULs later are data")
    func unmarkedUTF16() throws {
        for (head, encoding, iconv) in [([0x61, 0x00, 0x2C, 0x00], "UTF-16 (little-endian)", "UTF-16LE"), ([0x00, 0x61, 0x00, 0x2C], "UTF-16 (big-endian)", "UTF-16BE"),
                                        ([0x61, 0x00, 0x00, 0x00], "UTF-32 (little-endian)", "UTF-32LE"), ([0x00, 0x00, 0x00, 0x61], "UTF-32 (big-endian)", "UTF-32BE")]
                as [([UInt8], String, String)] {
            let error = try #require(throws: CSVError.self) { try CSVReader(bytes: head + [0x0A, 0x00]) }
            #expect(error.kind == .unsupportedEncoding)
            #expect(error.message.hasPrefix("the file looks like \(encoding) without a byte-order mark"))
            #expect(error.hint.contains("iconv -f \(iconv) -t UTF-8"))
        }
        #expect(try parse([0x61, 0x2C, 0x00, 0x62, 0x0A], dialect: CSVDialect(hasHeader: false)) == [["a", "\u{0}b"]])
    }

    @Test func aUTF8MarkIsSkippedWhateverFollows() throws {
        #expect(try parse([0xEF, 0xBB, 0xBF, 0x61]) == [["a"]])
        #expect(try parse([0xEF, 0xBB, 0xBF, 0x61, 0x2C, 0x62, 0x0A]) == [["a", "b"]])
    }

    @Test func emptyInput() throws {
        let reader = try CSVReader(bytes: [])
        #expect(reader.header == nil)
        #expect(try reader.next() == nil)
        #expect(try parse("") == [])
    }

    @Test func spacesAreKeptUnlessTrimming() throws {
        #expect(try parse(" a , b \n") == [[" a ", " b "]])
        let trimming = CSVDialect(hasHeader: false, trimsSpaces: true)
        #expect(try parse(" a , b \n", dialect: trimming) == [["a", "b"]])
        #expect(try parse("\" a \" , b\n", dialect: trimming) == [[" a ", "b"]])
    }

    @Test func headerIsReadEagerly() throws {
        let reader = try CSVReader(string: "Bank Name,City ,State \nX,Y,Z\n")
        #expect(reader.header == ["Bank Name", "City ", "State "])
        #expect(reader.trimmedHeader == ["Bank Name", "City", "State"])
        #expect(reader.columnIndex(named: "City") == 1)
        #expect(reader.columnIndex(named: "State ") == 2)
        #expect(reader.columnIndex(named: "Zip") == nil)
        #expect(try reader.next()?.fields == ["X", "Y", "Z"])
        #expect(try reader.next() == nil)
        #expect(try reader.next() == nil)
    }

    @Test func dataStringAndBytesInputsAgree() throws {
        let text = "a,b\n1,\"x,y\"\n"
        let fromData = try CSVReader(data: Data(text.utf8)).readAll()
        let fromString = try CSVReader(string: text).readAll()
        let fromBytes = try CSVReader(bytes: Array(text.utf8)).readAll()
        #expect(fromData == fromString)
        #expect(fromBytes == fromString)
        #expect(fromString.first?.fields == ["1", "x,y"])
    }

    @Test func forEachRecordVisitsEveryRecord() throws {
        var lines: [Int] = []
        try CSVReader(string: "h\na\nb\n").forEachRecord { lines.append($0.lineNumber) }
        #expect(lines == [2, 3])
    }
}
