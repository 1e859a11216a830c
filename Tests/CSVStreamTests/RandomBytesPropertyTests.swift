import CSVStream
import PropertyBased
import Testing

/// Arbitrary bytes never crash the reader, in any dialect, and the chunk size never changes what it reports.
@Suite("Random bytes (property)")
struct RandomBytesPropertyTests {
    /// Bytes that matter to some dialect, plus invalid UTF-8 and cp1252-undefined bytes.
    static let interesting: [UInt8] = [
        0x2C, 0x22, 0x0D, 0x0A, 0x20, 0x09, 0x61, 0x01, 0x02, 0x23, 0x3B, 0x00, 0xC3, 0xA9, 0x96, 0x81, 0xEF, 0xBB,
        0xBF, 0xFF,
    ]
    static let focused = pick(interesting).array(of: 0...120)
    static let anyBytes = Gen.uint8().array(of: 0...200)
    static let dialects: [CSVDialect] = [
        .csv, CSVDialect(hasHeader: false, strict: true), CSVDialect(trimsSpaces: true, strict: true),
        CSVDialect(trimsSpaces: true), .tsv, .epf, CSVDialect(encoding: .windows1252), CSVDialect(encoding: .latin1),
        CSVDialect(delimiter: 0x01, commentPrefix: UInt8(ascii: "#")),
    ]
    static let dialect = pick(dialects)

    @Test func focusedBytesGiveTheSameOutcomeForAnyChunkSize() async {
        await propertyCheck(count: 300, input: Self.focused, Self.dialect, Gen.int(in: 1...5)) {
            bytes, dialect, chunkSize in
            let reference = outcome(bytes, dialect: dialect, chunkSize: CSVReader.defaultChunkSize)
            #expect(outcome(bytes, dialect: dialect, chunkSize: chunkSize) == reference)
        }
    }

    @Test func arbitraryBytesNeverCrash() async {
        await propertyCheck(count: 200, input: Self.anyBytes, Self.dialect, Gen.int(in: 1...7)) {
            bytes, dialect, chunkSize in
            let reference = outcome(bytes, dialect: dialect, chunkSize: CSVReader.defaultChunkSize)
            #expect(outcome(bytes, dialect: dialect, chunkSize: chunkSize) == reference)
            #expect(!reference.isEmpty)
        }
    }

    /// Records reach exactly up to the next record: offsets increase and each byte range lies in the input.
    @Test func byteRangesAreOrderedAndInBounds() async {
        await propertyCheck(count: 200, input: Self.focused, Gen.int(in: 1...5)) { bytes, chunkSize in
            recordingErrors {
                let reader = try CSVReader(
                    bytes: bytes, dialect: CSVDialect(hasHeader: false, encoding: .latin1), chunkSize: chunkSize)
                var previousEnd: Int64 = 0
                var previousLine = 0
                while let record = try reader.next() {
                    #expect(record.byteOffset >= previousEnd)
                    #expect(record.byteRange.upperBound <= Int64(bytes.count))
                    #expect(record.lineNumber > previousLine)
                    #expect(try reader.rawBytes(of: record) == reader.lastRecordRawBytes)
                    previousEnd = record.byteRange.upperBound
                    previousLine = record.lineNumber
                }
            }
        }
    }
}
