import CSVStream
import Testing

/// Tiny read buffers (1, 2, 3, 7 bytes) give exactly what one big buffer gives, on every real fixture.
@Suite("Chunk sizes", .enabled(if: Fixtures.isAvailable, Fixtures.missing))
struct ChunkSizeTests {
    static let files: [(String, CSVDialect)] = [
        ("csv-spectrum/csvs/newlines_crlf.csv", .csv),
        ("csv-spectrum/csvs/quotes_and_newlines.csv", .csv),
        ("csv-spectrum/extra-from-history/csvs/newlines_cr.csv", .csv),
        ("csv-spectrum/extra-from-history/csvs/newlines_as_ctrl_chars", .epf),
        ("csv-spectrum/extra-from-history/csvs/latin1.csv", .csv),
        ("swiftcsv-testdata/utf8_with_bom.csv", .csv),
        ("swiftcsv-testdata/empty_fields.csv", .csv),
        ("swiftcsv-testdata/quotes.csv", .csv),
        ("gebi-csv-test/evil.csv", .csv),
        ("gebi-csv-test/evil.csv", CSVDialect(strict: true)),
        ("fdic-banklist-2023/banklist.csv", .csv),
        ("w3c-csvw-tests/manifest.csv", .csv),
    ]

    @Test(arguments: 0..<files.count)
    func tinyChunksMatchOneBigChunk(index: Int) throws {
        let (path, dialect) = Self.files[index]
        let bytes = try Fixtures.bytes(path)
        let reference = outcome(bytes, dialect: dialect, chunkSize: 1 << 20)
        for chunkSize in [1, 2, 3, 7] {
            #expect(
                outcome(bytes, dialect: dialect, chunkSize: chunkSize) == reference, "\(path), \(chunkSize)-byte chunks"
            )
        }
        // The file path reads with the same results as bytes in memory.
        let fromFile = try CSVReader(path: Fixtures.path(path), dialect: dialect, chunkSize: 3)
        let fromMemory = try CSVReader(bytes: bytes, dialect: dialect, chunkSize: 3)
        #expect(fromFile.header == fromMemory.header)
        #expect(fromFile.fileSize == Int64(bytes.count))
    }
}
