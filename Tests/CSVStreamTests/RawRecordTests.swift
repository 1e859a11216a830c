import CSVStream
import Foundation
import Testing

/// The String-free path and the raw text a rejects file needs.
@Suite("Raw records and raw text")
struct RawRecordTests {
    @Test func forEachRawRecordLendsBytes() throws {
        let reader = try CSVReader(string: "id,name\n1,\"Ann, \"\"A\"\"\"\n\n22,Bob\n", chunkSize: 3)
        var seen: [(Int, [String], Int, Bool, String)] = []
        try reader.forEachRawRecord { record in
            let id = record.withBytes(at: 0) { bytes in String(decoding: bytes, as: UTF8.self) }
            let fields = try (0..<record.count).map { try record.string(at: $0) }
            let raw = record.withRawBytes { String(decoding: $0, as: UTF8.self) }
            seen.append((record.lineNumber, fields, record.count, record.isBlank, raw))
            #expect(id == fields[0])
            #expect(try record.makeRecord().fields == fields)
        }
        #expect(seen.map(\.0) == [2, 3, 4])
        #expect(seen.map(\.1) == [["1", "Ann, \"A\""], [""], ["22", "Bob"]])
        #expect(seen.map(\.3) == [false, true, false])
        #expect(seen.map(\.4) == ["1,\"Ann, \"\"A\"\"\"", "", "22,Bob"])
    }

    @Test func rawStringReportsEncodingErrors() throws {
        let reader = try CSVReader(bytes: [0x61, 0x2C, 0xFF, 0x0A], dialect: CSVDialect(hasHeader: false))
        var errors: [CSVError] = []
        try reader.forEachRawRecord { record in
            #expect(try record.string(at: 0) == "a")
            do { _ = try record.string(at: 1) } catch let error as CSVError { errors.append(error) }
        }
        #expect(errors.map(\.byteOffset) == [2])
        #expect(errors.map(\.column) == [2])
    }

    @Test func rawBytesOfEarlierRecordsFromAFile() throws {
        let path = try TemporaryFile.make(contents: "h\r\nfirst\r\n\"sec\r\nond\"\r\nthird")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reader = try CSVReader(path: path)
        let records = try reader.readAll()
        #expect(try records.map { try reader.rawText(of: $0) } == ["first", "\"sec\r\nond\"", "third"])
        #expect(reader.lastRecordRawText == "third")
        #expect(reader.path == path)
    }
}

/// A temporary file holding `contents`.
enum TemporaryFile {
    static func make(contents: String) throws -> String {
        let path = NSTemporaryDirectory() + "csvstream-test-\(UUID().uuidString).csv"
        try contents.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}
