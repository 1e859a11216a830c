import CSVStream
import Testing

@Suite("Text encodings")
struct TextEncodingTests {
    @Test func windows1252HighControls() throws {
        #expect(try TextEncoding.windows1252.decode([0x96]) == "\u{2013}")
        #expect(try TextEncoding.windows1252.decode([0x99]) == "\u{2122}")
        #expect(try TextEncoding.windows1252.decode([0x80, 0x9F, 0xA9, 0xFF, 0x41]) == "€Ÿ©ÿA")
        #expect(try TextEncoding.windows1252.decode([0x46, 0x96, 0x43]) == "F–C")
    }

    @Test(arguments: [UInt8(0x81), 0x8D, 0x8F, 0x90, 0x9D])
    func windows1252UndefinedBytesFail(byte: UInt8) throws {
        let error = try #require(throws: CSVError.self) { try TextEncoding.windows1252.decode([0x41, byte]) }
        #expect(error.kind == .invalidEncoding)
        #expect(error.byteOffset == 1)
        #expect(error.hint.contains("latin1"))
    }

    @Test func latin1AcceptsEveryByte() throws {
        let all = (0...255).map { UInt8($0) }
        let text = try TextEncoding.latin1.decode(all)
        #expect(text.unicodeScalars.map(\.value) == (0...255).map { UInt32($0) })
    }

    @Test func utf8IsStrict() throws {
        #expect(try TextEncoding.utf8.decode(Array("Heizöl €😀".utf8)) == "Heizöl €😀")
        let cases: [([UInt8], Int)] = [
            ([0x61, 0x96], 1),  // stray continuation byte
            ([0xC0, 0xAF], 0),  // overlong
            ([0xED, 0xA0, 0x80], 0),  // surrogate
            ([0xF4, 0x90, 0x80, 0x80], 0),  // above U+10FFFF
            ([0x61, 0x62, 0xE2, 0x82], 2),  // cut short
            ([0xFF], 0),
        ]
        for (bytes, index) in cases {
            let error = try #require(throws: CSVError.self) { try TextEncoding.utf8.decode(bytes) }
            #expect(error.byteOffset == Int64(index), "\(bytes)")
            #expect(bytes.withUnsafeBufferPointer { TextEncoding.utf8.firstInvalidByteIndex(in: $0) } == index)
        }
        let cut = try #require(throws: CSVError.self) { try TextEncoding.utf8.decode([0x61, 0xE2, 0x82]) }
        #expect(cut.message == "bytes 0xE2 0x82 are not valid UTF-8")
    }

    @Test func longASCIIAndMixedInputs() throws {
        let ascii = String(repeating: "abcdefgh", count: 100)
        #expect(try TextEncoding.utf8.decode(Array(ascii.utf8)) == ascii)
        #expect(try TextEncoding.windows1252.decode(Array(ascii.utf8)) == ascii)
        let mixed = String(repeating: "abcdefghé", count: 50)
        #expect(try TextEncoding.utf8.decode(Array(mixed.utf8)) == mixed)
        var broken = Array(mixed.utf8)
        broken[300] = 0x80
        let error = try #require(throws: CSVError.self) { try TextEncoding.utf8.decode(broken) }
        #expect(error.byteOffset != nil)
    }

    @Test func labels() {
        #expect(TextEncoding(label: "UTF-8") == .utf8)
        #expect(TextEncoding(label: "cp1252") == .windows1252)
        #expect(TextEncoding(label: "Windows-1252") == .windows1252)
        #expect(TextEncoding(label: "ISO-8859-1") == .latin1)
        #expect(TextEncoding(label: "latin1") == .latin1)
        #expect(TextEncoding(label: "ebcdic") == nil)
        #expect(TextEncoding(rawValue: "windows1252") == .windows1252)
    }

    /// A record's encoding error names the line of the bad byte (not only the record's first line), its
    /// byte offset and its field, and the reader goes on with the next record.
    @Test(arguments: [1, 4, CSVReader.defaultChunkSize])
    func readerLocatesBadBytesAndRecovers(chunkSize: Int) throws {
        let bytes = Array("a,b\n1,\"x\ny\",z\u{E9}\n2,ok\n".utf8) + [0x33, 0x2C, 0xE9, 0x0A] + Array("4,end".utf8)
        let reader = try CSVReader(bytes: bytes, chunkSize: chunkSize)
        #expect(try reader.next()?.fields == ["1", "x\ny", "zé"])
        #expect(try reader.next()?.fields == ["2", "ok"])
        let error = try #require(throws: CSVError.self) { try reader.next() }
        #expect(error.kind == .invalidEncoding)
        #expect(error.isRecoverable)
        #expect(error.line == 5)
        #expect(error.column == 2)
        #expect(error.byteOffset == Int64(bytes.firstIndex(of: 0xE9)!))
        #expect(reader.lastRecordRawBytes == [0x33, 0x2C, 0xE9])
        #expect(reader.lastRecordRawText == "3,\u{FFFD}")
        #expect(try reader.next()?.fields == ["4", "end"])
        #expect(try reader.next() == nil)

        let multiLine = Array("\"ok\nstill ok\n".utf8) + [0x96] + Array("\"\n".utf8)
        let reader2 = try CSVReader(bytes: multiLine, dialect: CSVDialect(hasHeader: false), chunkSize: chunkSize)
        let error2 = try #require(throws: CSVError.self) { try reader2.next() }
        #expect(error2.line == 3)
        #expect(error2.recordLine == 1)
        #expect(error2.description.contains("in the record starting on line 1"))
    }

    @Test func headerEncodingErrorFailsTheInit() throws {
        let error = try #require(throws: CSVError.self) { try CSVReader(bytes: [0x41, 0xFF, 0x0A, 0x31]) }
        #expect(error.kind == .invalidEncoding)
        #expect(error.line == 1)
        #expect(error.column == 1)
        #expect(!error.isRecoverable)
    }

    @Test func windows1252Reader() throws {
        let bytes: [UInt8] = Array("name\n".utf8) + [0x46, 0x96, 0x43, 0x99, 0x0A]
        let reader = try CSVReader(bytes: bytes, dialect: CSVDialect(encoding: .windows1252))
        #expect(try reader.next()?.fields == ["F–C™"])
        let bad = try CSVReader(bytes: Array("x\n".utf8) + [0x41, 0x81], dialect: CSVDialect(encoding: .windows1252))
        let error = try #require(throws: CSVError.self) { try bad.next() }
        #expect(error.byteOffset == 3)
        #expect(bad.lastRecordRawText == "A\u{FFFD}")
    }
}
