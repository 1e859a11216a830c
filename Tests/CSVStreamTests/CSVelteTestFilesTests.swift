import CSVStream
import Testing

/// Files from the CSVelte PHP library's tests (shared/fixtures-real/csvelte-testfiles).
@Suite("CSVelte test files", .enabled(if: Fixtures.isAvailable, Fixtures.missing))
struct CSVelteTestFilesTests {
    /// Bare-CR (classic Mac) line endings with no LF anywhere: header plus 1,000 records of 18 fields.
    @Test(arguments: [3, CSVReader.defaultChunkSize])
    func sampleWithBareCR(chunkSize: Int) throws {
        let reader = try CSVReader(path: Fixtures.path("csvelte-testfiles/sample.csv"), chunkSize: chunkSize)
        #expect(reader.header?.first == "policyID")
        #expect(reader.header?.count == 18)
        let records = try reader.readAll()
        #expect(records.count == 1000)
        #expect(records.allSatisfy { $0.count == 18 })
        #expect(records.map(\.lineNumber) == Array(2...1001))
    }

    /// The 2016 FDIC list: CRLF, 545 banks, names with trailing spaces inside quotes.
    @Test func banklistWithCRLF() throws {
        let reader = try CSVReader(path: Fixtures.path("csvelte-testfiles/banklist.csv"))
        #expect(
            reader.header == [
                "Bank Name", "City", "ST", "CERT", "Acquiring Institution", "Closing Date", "Updated Date",
            ])
        let records = try reader.readAll()
        #expect(records.count == 545)
        #expect(records.allSatisfy { $0.count == 7 && !$0.isBlank })
        #expect(records.contains { $0[0] == "Millennium Bank, National Association " })
        #expect(records.last?.lineNumber == 546)
    }

    /// No header, CRLF, Windows-1252 bytes (® 0xAE, ™ 0x99).
    @Test func superstoreSampleIsWindows1252() throws {
        let dialect = CSVDialect(hasHeader: false, encoding: .windows1252)
        let records = try CSVReader(path: Fixtures.path("csvelte-testfiles/SampleCSVFile_11kb.csv"), dialect: dialect)
            .readAll()
        #expect(records.count == 100)
        #expect(records.contains { $0.fields.contains { $0.contains("Cardinal Slant-D® Ring Binder") } })
        #expect(records.contains { $0.fields.contains { $0.contains("™") } })
        #expect(
            records.contains {
                $0.fields.contains { $0.contains("1.7 Cubic Foot Compact \"Cube\" Office Refrigerators") }
            })
    }

    /// Fields ending in doubled quotes and single-space fields are kept exactly.
    @Test func federalBuildings() throws {
        let reader = try CSVReader(path: Fixtures.path("csvelte-testfiles/datagovbldgrexus.csv"))
        #expect(reader.header?.last == "ABA Accessibility Flag ")
        var count = 0
        var spaces = 0
        var endsWithQuotes = false
        try reader.forEachRecord { record in
            count += 1
            spaces += record.fields.filter { $0 == " " }.count
            if record.fields.contains(where: { $0.hasSuffix("Space C\"\"") }) { endsWithQuotes = true }
        }
        #expect(count == 9246)
        #expect(spaces == 8583)
        #expect(endsWithQuotes)
    }
}
