import CSVStream
import Testing

/// The FDIC Failed Bank List of 2023 (shared/fixtures-real/fdic-banklist-2023/banklist.csv): Windows-1252,
/// CRLF, no final EOL, 567 banks, trailing spaces in header names.
@Suite("FDIC banklist 2023", .enabled(if: Fixtures.isAvailable, Fixtures.missing))
struct FDICBanklistTests {
    static let path = "fdic-banklist-2023/banklist.csv"

    /// Read as UTF-8 the file fails at Silicon Valley Bank's `First\x96Citizens` (line 5, field 5, byte 361)
    /// with an error that says what to do; the error is recoverable, so the rest can still be read.
    @Test func utf8FailsAtTheEnDashWithAHint() throws {
        let reader = try CSVReader(path: Fixtures.path(Self.path))
        var good = 0
        var errors: [CSVError] = []
        var rejected: [String] = []
        while true {
            do {
                guard try reader.next() != nil else { break }
                good += 1
            } catch {
                // (`catch where error.isRecoverable` here crashes the Swift 6.3.1 compiler's SILGen.)
                guard error.isRecoverable else { throw error }
                errors.append(error)
                rejected.append(reader.lastRecordRawText)
            }
        }
        #expect(good == 566)
        let error = try #require(errors.first)
        #expect(errors.count == 1)
        #expect(error.kind == .invalidEncoding)
        #expect(error.line == 5)
        #expect(error.recordLine == 5)
        #expect(error.column == 5)
        #expect(error.byteOffset == 361)
        #expect(error.path?.hasSuffix("banklist.csv") == true)
        #expect(error.message == "byte 0x96 is not valid UTF-8")
        #expect(error.description.contains("banklist.csv:5:5: byte 0x96 is not valid UTF-8 (byte offset 361, field 5)"))
        #expect(error.description.contains("--encoding windows1252"))
        #expect(
            rejected == [
                "Silicon Valley Bank,Santa Clara,CA,24735,First\u{FFFD}Citizens Bank & Trust Company,10-Mar-23,10539"
            ])
    }

    @Test(arguments: [7, CSVReader.defaultChunkSize])
    func windows1252DecodesTheEnDash(chunkSize: Int) throws {
        var dialect = CSVDialect.csv
        dialect.encoding = .windows1252
        let reader = try CSVReader(path: Fixtures.path(Self.path), dialect: dialect, chunkSize: chunkSize)
        #expect(
            reader.header == [
                "Bank Name", "City ", "State ", "Cert ", "Acquiring Institution ", "Closing Date ", "Fund",
            ])
        #expect(
            reader.trimmedHeader == [
                "Bank Name", "City", "State", "Cert", "Acquiring Institution", "Closing Date", "Fund",
            ])
        let records = try reader.readAll()
        #expect(records.count == 567)
        #expect(records.allSatisfy { $0.count == 7 })
        let svb = try #require(records.first { $0[0] == "Silicon Valley Bank" })
        #expect(svb[4] == "First–Citizens Bank & Trust Company")
        #expect(svb.lineNumber == 5)
        #expect(svb.byteOffset == 315)  // 361, the 0x96, minus "Silicon Valley Bank,Santa Clara,CA,24735,First"
        #expect(records.contains { $0[0] == "Dream First Bank, N.A." || $0[4] == "Dream First Bank, N.A." })
        // CRLF throughout, no final EOL: the last record ends at the end of the file and starts on line 568.
        let last = try #require(records.last)
        #expect(last.lineNumber == 568)
        #expect(last.byteRange.upperBound == reader.fileSize)
        #expect(try reader.rawText(of: svb).hasPrefix("Silicon Valley Bank,Santa Clara,CA,24735,First–Citizens"))
    }
}
