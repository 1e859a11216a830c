import CSVStream
import Foundation
import Testing

/// A malformed quote costs one record: text after a closing quote ends its record with the line it is on,
/// and a quote never closed ends its record with the quote's line; the lines after are read as records
/// with their own lines and offsets, whatever the chunk size.
@Suite("Reading on after a malformed quote")
struct QuoteResyncTests {
    /// One raw record: where it is, its raw text, its fields and what `validateQuotes()` says of it.
    struct Read: Equatable, CustomStringConvertible {
        var line: Int
        var offset: Int64
        var raw: String
        var fields: [String]
        /// `kind line:column@offset` of the quote error, or nil.
        var error: String?

        var description: String { "\(line)@\(offset) \(raw.debugDescription) \(fields) \(error ?? "ok")" }
    }

    static let chunkSizes = [1, 2, 3, 7, CSVReader.defaultChunkSize]

    /// Every record after the header, read raw, with its quote check; also checks that the captured raw
    /// bytes are the input's bytes at the record's range.
    static func read(_ text: String, dialect: CSVDialect = CSVDialect(hasHeader: false), chunkSize: Int) throws -> [Read] {
        try read(Array(text.utf8), dialect: dialect, chunkSize: chunkSize)
    }

    static func read(_ bytes: [UInt8], dialect: CSVDialect, chunkSize: Int) throws -> [Read] {
        let reader = try CSVReader(bytes: bytes, dialect: dialect, chunkSize: chunkSize)
        var reads: [Read] = []
        try reader.forEachRawRecord { record in
            let range = Int(record.byteOffset)..<Int(record.byteOffset) + record.byteCount
            #expect(Array(bytes[range]) == reader.lastRecordRawBytes, "raw capture of line \(record.lineNumber)")
            var problem: String?
            do throws(CSVError) { try record.validateQuotes() } catch {
                problem = "\(error.kind) \(error.line ?? 0):\(error.column ?? 0)@\(error.byteOffset ?? -1)"
            }
            let fields = try (0..<record.count).map { try record.string(at: $0) }
            reads.append(Read(line: record.lineNumber, offset: record.byteOffset, raw: reader.lastRecordRawText,
                              fields: fields, error: problem))
        }
        return reads
    }

    /// The user trial: `"ab"cd` used to take rows 2 to 4 of the file with it, up to the next quote.
    @Test(arguments: chunkSizes)
    func textAfterAClosingQuoteCostsItsLineOnly(chunkSize: Int) throws {
        let text = "id,s\n1,\"ab\"cd\n2,two\n3,three\n4,\"four\"\n5,five\n6,six\n"
        let reads = try Self.read(text, dialect: .csv, chunkSize: chunkSize)
        #expect(reads == [
            Read(line: 2, offset: 5, raw: "1,\"ab\"cd", fields: ["1", "ab\"cd"], error: "textAfterClosingQuote 2:2@11"),
            Read(line: 3, offset: 14, raw: "2,two", fields: ["2", "two"]),
            Read(line: 4, offset: 20, raw: "3,three", fields: ["3", "three"]),
            Read(line: 5, offset: 28, raw: "4,\"four\"", fields: ["4", "four"]),
            Read(line: 6, offset: 37, raw: "5,five", fields: ["5", "five"]),
            Read(line: 7, offset: 44, raw: "6,six", fields: ["6", "six"]),
        ])
    }

    @Test(arguments: chunkSizes)
    func onTheLastLine(chunkSize: Int) throws {
        for ending in ["\n", ""] {
            let reads = try Self.read("a\n1,\"x\"y,z" + ending, chunkSize: chunkSize)
            #expect(reads == [
                Read(line: 1, offset: 0, raw: "a", fields: ["a"]),
                Read(line: 2, offset: 2, raw: "1,\"x\"y,z", fields: ["1", "x\"y,z"], error: "textAfterClosingQuote 2:2@7"),
            ], "final line ending \(ending.debugDescription)")
        }
    }

    /// CRLF: the record ends before the CR, and the LF is its terminator (not a blank line); a bare CR
    /// ends a line too.
    @Test(arguments: chunkSizes)
    func crlfAndBareCR(chunkSize: Int) throws {
        for ending in ["\r\n", "\r"] {
            let text = ["1,\"ab\"cd", "2,two", "3,\"x\"", ""].joined(separator: ending)
            let reads = try Self.read(text, chunkSize: chunkSize)
            let step = Int64(ending.utf8.count)
            #expect(reads == [
                Read(line: 1, offset: 0, raw: "1,\"ab\"cd", fields: ["1", "ab\"cd"], error: "textAfterClosingQuote 1:2@6"),
                Read(line: 2, offset: 8 + step, raw: "2,two", fields: ["2", "two"]),
                Read(line: 3, offset: 13 + 2 * step, raw: "3,\"x\"", fields: ["3", "x"]),
            ], "line ending \(ending.debugDescription)")
        }
    }

    /// A quoted field over two lines, then text after a closing quote on the third: the record starts two
    /// lines above the bad byte and ends with the bad byte's line.
    @Test(arguments: chunkSizes)
    func afterAFieldOverSeveralLines(chunkSize: Int) throws {
        let text = "1,\"two\nlines\",\"x\r\ny\"z\n2,\"b\"\n"
        let reads = try Self.read(text, chunkSize: chunkSize)
        #expect(reads == [
            Read(line: 1, offset: 0, raw: "1,\"two\nlines\",\"x\r\ny\"z", fields: ["1", "two\nlines", "x\r\ny\"z"],
                 error: "textAfterClosingQuote 3:3@20"),
            Read(line: 4, offset: 22, raw: "2,\"b\"", fields: ["2", "b"]),
        ])
    }

    /// A quote left open before a later quoted field: libcsv closes the field at that field's opening
    /// quote, so the text after it is the first malformed byte, and the record ends with its line (the
    /// lines between could as well be a value over several lines; the raw text shows them).
    @Test(arguments: chunkSizes)
    func aQuoteLeftOpenIsFoundAtTheNextQuotedField(chunkSize: Int) throws {
        let reads = try Self.read("1,\"open\n2,x\n3,\"three\"\n4,four\n", chunkSize: chunkSize)
        #expect(reads == [
            Read(line: 1, offset: 0, raw: "1,\"open\n2,x\n3,\"three\"", fields: ["1", "open\n2,x\n3,\"three"],
                 error: "textAfterClosingQuote 3:2@15"),
            Read(line: 4, offset: 22, raw: "4,four", fields: ["4", "four"]),
        ])
    }

    @Test(arguments: chunkSizes)
    func twoBadRecordsInARow(chunkSize: Int) throws {
        let text = "1,\"a\"b\n2,\"c\" \"d\n3,\"e\"\n"
        let reads = try Self.read(text, chunkSize: chunkSize)
        #expect(reads == [
            Read(line: 1, offset: 0, raw: "1,\"a\"b", fields: ["1", "a\"b"], error: "textAfterClosingQuote 1:2@5"),
            Read(line: 2, offset: 7, raw: "2,\"c\" \"d", fields: ["2", "c\" \"d"], error: "textAfterClosingQuote 2:2@12"),
            Read(line: 3, offset: 16, raw: "3,\"e\"", fields: ["3", "e"]),
        ])
    }

    /// A quote never closed used to read every line after it into its field: its record ends with the
    /// quote's line, and the lines after it, quotes and all, are read as records again.
    @Test(arguments: chunkSizes)
    func quoteNeverClosed(chunkSize: Int) throws {
        for ending in ["\n", "\r\n", "\r"] {
            // Inside the open field the later quotes come doubled, so it never closes.
            let text = ["a,b", "x,\"open", "2,\"\"", "3,c", "4,\"\"\"\""].joined(separator: ending)
            let reads = try Self.read(text, chunkSize: chunkSize)
            let step = Int64(ending.utf8.count)
            #expect(reads == [
                Read(line: 1, offset: 0, raw: "a,b", fields: ["a", "b"]),
                Read(line: 2, offset: 3 + step, raw: "x,\"open", fields: ["x", "open"], error: "unterminatedQuote 2:2@\(5 + step)"),
                Read(line: 3, offset: 10 + 2 * step, raw: "2,\"\"", fields: ["2", ""]),
                Read(line: 4, offset: 14 + 3 * step, raw: "3,c", fields: ["3", "c"]),
                Read(line: 5, offset: 17 + 4 * step, raw: "4,\"\"\"\"", fields: ["4", "\""]),
            ], "line ending \(ending.debugDescription)")
        }
    }

    @Test func quoteNeverClosedSaysWhatBecameOfTheLinesAfterIt() throws {
        func message(_ text: String) throws -> String? {
            let reader = try CSVReader(string: text, dialect: CSVDialect(hasHeader: false))
            var message: String?
            try reader.forEachRawRecord { record in
                do throws(CSVError) { try record.validateQuotes() } catch { message = message ?? error.message }
            }
            return message
        }
        #expect(try message("1,\"x\n2,c\n3,d") == "the quote that opens field 2 is never closed: the input ends 2 lines later; the record ends with this line and the lines after it are read as records")
        #expect(try message("1,\"x\n") == "the quote that opens field 2 is never closed: the input ends on the same line: is the file cut short?")
        #expect(try message("1,\"x") == "the quote that opens field 2 is never closed: the input ends on the same line: is the file cut short?")
    }

    /// The reader reads on as `next()` too, and its progress never goes back while it parses bytes again.
    @Test(arguments: chunkSizes)
    func nextReadsOnAndProgressReachesTheEnd(chunkSize: Int) throws {
        let text = "h\n1,\"a\"b\n2,\"open\n3,c\n"
        let reader = try CSVReader(string: text, chunkSize: chunkSize)
        var progress: [Int64] = []
        var lines: [Int] = []
        while let record = try reader.next() {
            lines.append(record.lineNumber)
            progress.append(reader.bytesRead)
        }
        #expect(lines == [2, 3, 4])
        #expect(progress == progress.sorted())
        #expect(reader.bytesRead == Int64(text.utf8.count))
    }

    /// A byte-order mark and skipped lines count in offsets and lines; a header is read first.
    @Test(arguments: chunkSizes)
    func byteOrderMarkSkippedLinesAndHeader(chunkSize: Int) throws {
        var dialect = CSVDialect.csv
        dialect.skipLines = 1
        let bytes = Array("\u{FEFF}Report \"Q3\"x\nid,s\n1,\"a\"b\n2,\"c\n3,d\n".utf8)
        let reader = try CSVReader(bytes: bytes, dialect: dialect, chunkSize: chunkSize)
        #expect(reader.header == ["id", "s"])
        let reads = try Self.read(bytes, dialect: dialect, chunkSize: chunkSize)
        #expect(reads == [
            Read(line: 3, offset: 21, raw: "1,\"a\"b", fields: ["1", "a\"b"], error: "textAfterClosingQuote 3:2@26"),
            Read(line: 4, offset: 28, raw: "2,\"c", fields: ["2", "c"], error: "unterminatedQuote 4:2@30"),
            Read(line: 5, offset: 33, raw: "3,d", fields: ["3", "d"]),
        ])
    }

    /// Windows-1252 is decoded after parsing: a byte above 0x7F in the bad record does not move anything.
    @Test(arguments: chunkSizes)
    func windows1252(chunkSize: Int) throws {
        let bytes: [UInt8] = Array("1,\"a\"".utf8) + [0x96] + Array("b\n2,\"\u{E9}\"\n".utf8)
        let reads = try Self.read(bytes, dialect: CSVDialect(hasHeader: false, encoding: .windows1252), chunkSize: chunkSize)
        #expect(reads.map(\.fields) == [["1", "a\"\u{2013}b"], ["2", "\u{C3}\u{A9}"]])
        #expect(reads.map(\.line) == [1, 2])
        #expect(reads.first?.error == "textAfterClosingQuote 1:2@5")
    }

    /// The record is cut at its line, so a stray quote no longer drags the lines after it past the record
    /// size limit; a quote never closed within the limit is still the error that stops the reader.
    @Test(arguments: chunkSizes)
    func recordLimit(chunkSize: Int) throws {
        var dialect = CSVDialect(hasHeader: false)
        dialect.maximumRecordBytes = 32
        let rows = (1...20).map { "\($0),row \($0)\n" }.joined()
        let reads = try Self.read("0,\"a\"b\n" + rows + "21,\"end\"\n", dialect: dialect, chunkSize: chunkSize)
        #expect(reads.count == 22)
        #expect(reads.map(\.line) == Array(1...22))
        let open = try CSVReader(string: "0,\"open\n" + rows, dialect: dialect, chunkSize: chunkSize)
        let error = try #require(throws: CSVError.self) { try open.next() }
        #expect(error.kind == .recordTooLarge && !error.isRecoverable)
    }

    /// A header with a malformed quote has garbled names: the reader cannot be made.
    @Test func aHeaderWithAMalformedQuoteIsAnError() throws {
        let stray = try #require(throws: CSVError.self) { try CSVReader(string: "a,\"b\"c\n1,2\n") }
        #expect(stray.kind == .textAfterClosingQuote && stray.line == 1 && !stray.isRecoverable)
        let open = try #require(throws: CSVError.self) { try CSVReader(string: "a,\"b\n1,2\n") }
        #expect(open.kind == .unterminatedQuote && open.line == 1 && !open.isRecoverable)
    }

    /// Strict mode still stops at the first malformed quote.
    @Test func strictModeStillStops() throws {
        let reader = try CSVReader(string: "1,\"a\"b\n2,c\n", dialect: CSVDialect(hasHeader: false, strict: true))
        let error = try #require(throws: CSVError.self) { try reader.next() }
        #expect(error.kind == .malformedQuote && !error.isRecoverable)
        #expect(throws: CSVError.self) { try reader.next() }
    }

    /// Reading a file, as the importer does when it reads a file again, gives the lines reading memory gives.
    @Test func aFileReadAgainGivesTheSameLines() throws {
        let text = "id,s\n1,\"ab\"cd\n2,two\n3,\"open\n4,four\n"
        let path = NSTemporaryDirectory() + "csvstream-resync-\(UUID().uuidString).csv"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        for chunkSize in Self.chunkSizes {
            let fromFile = try CSVReader(path: path, chunkSize: chunkSize)
            let fromMemory = try CSVReader(string: text, chunkSize: 5)
            let fileRecords = try fromFile.readAll()
            #expect(fileRecords.map(\.lineNumber) == [2, 3, 4, 5])
            #expect(fileRecords == (try fromMemory.readAll()))
            #expect(try fileRecords.map { try fromFile.rawText(of: $0) } == ["1,\"ab\"cd", "2,two", "3,\"open", "4,four"])
        }
    }
}
