import CSVStream
import Testing

/// ``CSVRawRecord/validateEncoding()``: every field checked without Strings, the first bad byte named by
/// field, line and byte offset.
@Suite("Validating a raw record's encoding")
struct EncodingValidationTests {
    /// The error of each record that fails, in order.
    static func errors(_ bytes: [UInt8], dialect: CSVDialect = .csv) throws -> [CSVError] {
        let reader = try CSVReader(bytes: bytes, dialect: dialect, chunkSize: 5)
        var errors: [CSVError] = []
        try reader.forEachRawRecord { record in
            do { try record.validateEncoding() } catch let error as CSVError { errors.append(error) }
        }
        return errors
    }

    @Test("a bad byte in any field, mapped or not, is named with its line, field and byte offset")
    func badByte() throws {
        let bytes = Array("code,amount,note\nA,1,ok\nB,2,caf".utf8) + [0xE9] + Array("\n".utf8)
        let error = try #require(try Self.errors(bytes).first)
        #expect(error.kind == .invalidEncoding)
        #expect(error.line == 3 && error.recordLine == 3)
        #expect(error.column == 3)
        #expect(error.byteOffset == Int64(bytes.firstIndex(of: 0xE9)!))
        #expect(error.isRecoverable)
        #expect(error.description.contains("byte 0xE9 is not valid UTF-8 (byte offset 31, field 3)"), "\(error)")
    }

    @Test("the first bad field is named; a later bad field of the same record does not move the offset")
    func firstBadField() throws {
        let bytes = Array("h1,h2,h3\nok,\"x".utf8) + [0xFF] + Array("\",y".utf8) + [0x96] + Array("\n".utf8)
        let error = try #require(try Self.errors(bytes).first)
        #expect(error.column == 2)
        #expect(error.byteOffset == Int64(bytes.firstIndex(of: 0xFF)!))
    }

    @Test("string(at:) of a later bad field points into that field, not at an earlier bad one")
    func laterFieldOffset() throws {
        let bytes = Array("a".utf8) + [0xFF] + Array(",\"b\"\"".utf8) + [0x96] + Array("\"\n".utf8)
        let reader = try CSVReader(bytes: bytes, dialect: CSVDialect(hasHeader: false))
        var errors: [CSVError] = []
        try reader.forEachRawRecord { record in
            do { _ = try record.string(at: 1) } catch let error as CSVError { errors.append(error) }
        }
        #expect(errors.map(\.column) == [2])
        #expect(errors.map(\.byteOffset) == [Int64(bytes.firstIndex(of: 0x96)!)])
    }

    @Test("inside a quoted field over several lines, the line is the bad byte's; the record's first line is kept too")
    func multiLine() throws {
        let bytes = Array("n,t\n1,\"first\nsecond ".utf8) + [0xC3, 0x28] + Array("\"\n".utf8)
        let error = try #require(try Self.errors(bytes).first)
        #expect(error.line == 3 && error.recordLine == 2)
        #expect(error.byteOffset == Int64(bytes.firstIndex(of: 0xC3)!))
        #expect(error.message == "bytes 0xC3 0x28 are not valid UTF-8" || error.message == "byte 0xC3 is not valid UTF-8")
    }

    @Test("ASCII and valid UTF-8 pass; Windows-1252 fails only on its five undefined bytes; Latin-1 never")
    func encodings() throws {
        #expect(try Self.errors(Array("a,b\nplain,café\n".utf8)).isEmpty)
        let cp1252 = Array("a,b\nx,".utf8) + [0x96] + Array("\ny,".utf8) + [0x81] + Array("\n".utf8)
        var dialect = CSVDialect.csv
        dialect.encoding = .windows1252
        let errors = try Self.errors(cp1252, dialect: dialect)
        #expect(errors.map(\.byteOffset) == [Int64(cp1252.firstIndex(of: 0x81)!)])
        #expect(errors.first?.line == 3)
        dialect.encoding = .latin1
        #expect(try Self.errors(cp1252, dialect: dialect).isEmpty)
    }

    /// A user trial: a Windows-1252 file read as Latin-1 stored its curly quotes as C1 controls, silently.
    @Test("Latin-1 counts the bytes 0x80–0x9F it reads as control characters, with the first one's line")
    func latin1Controls() throws {
        // Line 2 is ASCII, line 3 holds é only; a quoted field over lines 4-5 holds the first two, line 6 one more.
        let bytes = Array("a,b\nx,y\nz,caf".utf8) + [0xE9] + Array("\nw,\"one\ntwo ".utf8) + [0x93, 0x94]
            + Array("\"\nv,".utf8) + [0x80] + Array("\n".utf8)
        var dialect = CSVDialect.csv
        dialect.encoding = .latin1
        let raw = try CSVReader(bytes: bytes, dialect: dialect, chunkSize: 5)
        try raw.forEachRawRecord { record in try record.validateEncoding() }
        #expect(raw.latin1ControlBytes == 3 && raw.firstLatin1ControlLine == 5)
        let decoded = try CSVReader(bytes: bytes, dialect: dialect, chunkSize: 5)
        #expect(try decoded.readAll().count == 4)
        #expect(decoded.latin1ControlBytes == 3 && decoded.firstLatin1ControlLine == 5)
        // Without such bytes, or in another encoding: none.
        let clean = try CSVReader(bytes: Array(bytes[..<bytes.firstIndex(of: 0x93)!]) + Array("\"\n".utf8), dialect: dialect)
        _ = try clean.readAll()
        #expect(clean.latin1ControlBytes == 0 && clean.firstLatin1ControlLine == nil)
        dialect.encoding = .windows1252
        let cp1252 = try CSVReader(bytes: bytes, dialect: dialect)
        _ = try cp1252.readAll()
        #expect(cp1252.latin1ControlBytes == 0)
    }
}
