import CSVStream
import Testing

/// Records know the 1-based line they start on and their byte range, across quoted newlines and CRLF.
@Suite("Line numbers and byte offsets")
struct LineNumberAndOffsetTests {
    static let text = "id,note\r\n1,\"two\r\nlines\"\r\n2,\"three\nmixed\rlines\"\r\n\r\n3,last"

    @Test(arguments: [1, 2, 3, 7, CSVReader.defaultChunkSize])
    func acrossQuotedNewlinesAndCRLF(chunkSize: Int) throws {
        let reader = try CSVReader(string: Self.text, chunkSize: chunkSize)
        let records = try reader.readAll()
        #expect(records.map(\.fields) == [["1", "two\r\nlines"], ["2", "three\nmixed\rlines"], [""], ["3", "last"]])
        #expect(records.map(\.lineNumber) == [2, 4, 7, 8])
        let bytes = Array(Self.text.utf8)
        #expect(records.map(\.byteOffset) == [9, 25, 48, 50])  // "id,note\r\n" is 9 bytes, and so on
        #expect(records.map(\.byteCount) == [14, 21, 0, 6])
        #expect(records.last?.byteRange.upperBound == Int64(bytes.count))
        #expect(
            try records.map { try reader.rawText(of: $0) } == [
                "1,\"two\r\nlines\"", "2,\"three\nmixed\rlines\"", "", "3,last",
            ])
    }

    @Test func columnsAndLocations() throws {
        let reader = try CSVReader(string: "a,b,c\n1,2,3\n")
        let record = try #require(try reader.next())
        #expect(record.column(ofField: 2) == 3)
        #expect(record.location(ofField: 2, path: "t.csv").description == "t.csv:2:3")
        #expect(record.location(ofField: 0).description == "line 2, field 1")
        #expect(record.field(3) == nil)
        #expect(record.field(1) == "2")
    }

    @Test func leadingBlankLinesAndCommentsKeepCounting() throws {
        let dialect = CSVDialect(hasHeader: true, commentPrefix: UInt8(ascii: "#"))
        let reader = try CSVReader(string: "# generated\r\n# by hand\nname\n\n#skip \"this\nbob\n", dialect: dialect)
        #expect(reader.header == ["name"])
        let records = try reader.readAll()
        #expect(records.map(\.fields) == [[""], ["bob"]])
        #expect(records.map(\.lineNumber) == [4, 6])
    }

    @Test func aLoneCRAtTheEndIsATerminator() throws {
        let records = try CSVReader(string: "a\rb\r", dialect: CSVDialect(hasHeader: false)).readAll()
        #expect(records.map(\.fields) == [["a"], ["b"]])
        #expect(records.map(\.lineNumber) == [1, 2])
        #expect(records.map(\.byteOffset) == [0, 2])
    }

    @Test func progressReachesTheEnd() throws {
        let reader = try CSVReader(string: "a\n1\n2\n", chunkSize: 2)
        #expect(reader.fileSize == 6)
        _ = try reader.readAll()
        #expect(reader.bytesRead == 6)
        #expect(reader.progress == 1)
    }
}
