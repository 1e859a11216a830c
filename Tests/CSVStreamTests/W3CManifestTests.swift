import CSVStream
import Testing

/// The W3C CSV on the Web test manifest (shared/fixtures-real/w3c-csvw-tests/manifest.csv): bare-CR line
/// endings, no final EOL, 301 records, some of them ragged.
@Suite("W3C CSVW manifest", .enabled(if: Fixtures.isAvailable, Fixtures.missing))
struct W3CManifestTests {
    @Test(arguments: [2, CSVReader.defaultChunkSize])
    func manifestWithBareCR(chunkSize: Int) throws {
        let reader = try CSVReader(path: Fixtures.path("w3c-csvw-tests/manifest.csv"), chunkSize: chunkSize)
        let header = try #require(reader.header)
        #expect(header.count == 11)
        let records = try reader.readAll()
        #expect(records.count == 301)
        #expect(Set(records.map(\.count)).isSubset(of: [8, 11]))
        #expect(records.last?.byteRange.upperBound == reader.fileSize)
        #expect(records.last?.fields.last == "implicit=\"tree-ops.csv\"")
    }

    /// test001.csv: the simplest table.
    @Test func test001() throws {
        let reader = try CSVReader(path: Fixtures.path("w3c-csvw-tests/test001.csv"))
        #expect(reader.header?.count == 2)
        #expect(try reader.readAll().count == 8)
    }
}
