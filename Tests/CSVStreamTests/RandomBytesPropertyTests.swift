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

    /// The property above found a joined file's byte-order mark at a record's start read as data when a
    /// chunk ended inside it, and dropped when one did not.
    @Test("a byte-order mark at a record's start is dropped whatever the chunk size; a partial one is data")
    func byteOrderMarkAcrossChunks() throws {
        let mark: [UInt8] = [0xEF, 0xBB, 0xBF]
        /// Bytes as Latin-1 reads them: one character each.
        func latin1(_ bytes: [UInt8]) -> String { String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) })) }
        let cases: [(bytes: [UInt8], fields: [[[UInt8]]], dropped: Int)] = [
            (Array("a\n".utf8) + mark + Array("b\n".utf8), [[Array("a".utf8)], [Array("b".utf8)]], 1),
            (Array("a\n".utf8) + mark, [[Array("a".utf8)]], 1),
            (Array("a\n".utf8) + mark + Array("\"q,r\",s\n".utf8), [[Array("a".utf8)], [Array("q,r".utf8), Array("s".utf8)]], 1),
            (Array("a\n".utf8) + [0xEF, 0xBB] + Array("x\n".utf8), [[Array("a".utf8)], [[0xEF, 0xBB] + Array("x".utf8)]], 0),
            (Array("a\n".utf8) + [0xEF], [[Array("a".utf8)], [[0xEF]]], 0),
        ]
        for (bytes, fields, dropped) in cases {
            for chunkSize in 1...8 {
                let reader = try CSVReader(bytes: bytes, dialect: CSVDialect(hasHeader: false, encoding: .latin1), chunkSize: chunkSize)
                let read = try reader.readAll().map(\.fields)
                #expect(read == fields.map { $0.map(latin1) }, "\(bytes) in chunks of \(chunkSize)")
                #expect(reader.droppedByteOrderMarks == dropped, "\(bytes) in chunks of \(chunkSize)")
            }
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
            guard !startsLikeUnmarkedWideText(bytes) else { return }
            recordingErrors {
                let reader = try CSVReader(
                    bytes: bytes, dialect: CSVDialect(hasHeader: false, encoding: .latin1), chunkSize: chunkSize)
                var previousEnd: Int64 = 0
                var previousLine = 0
                // A lone CR in a file of LF lines skips its record (recoverable): read on past it.
                func next() throws -> CSVRecord? {
                    while true {
                        do throws(CSVError) { return try reader.next() } catch {
                            guard error.kind == .loneCarriageReturn else { throw error }
                            #expect(error.isRecoverable)
                        }
                    }
                }
                while let record = try next() {
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

    /// Nothing is lost, whatever the bytes: each record starts right after one line end (CR, LF or CRLF)
    /// that follows the record before, on the line those bytes start; a malformed quote ends its record
    /// with the line it is on, so a quote error is on its record's last line.
    @Test func recordsFollowEachOtherLineByLine() async {
        await propertyCheck(count: 300, input: Self.focused, Gen.bool, Gen.int(in: 1...5)) { bytes, trims, chunkSize in
            guard !startsLikeUnmarkedWideText(bytes) else { return }
            recordingErrors {
                let dialect = CSVDialect(hasHeader: false, trimsSpaces: trims, encoding: .latin1)
                let reader = try CSVReader(bytes: bytes, dialect: dialect, chunkSize: chunkSize)
                let lineEnds: Set<[UInt8]> = [[0x0A], [0x0D], [0x0D, 0x0A]]
                var end: Int?
                // Lines the reader did not count: each lone CR it ran a record on past (in a file of LF or
                // CRLF lines) is one, so after such a record the count drops by at least one and at most
                // its CRs.
                var uncounted = 0
                var loneCarriageReturns: Int?
                try reader.forEachRawRecord { record in
                    let start = Int(record.byteOffset)
                    var gap = Array(bytes[(end ?? (reader.skippedByteOrderMark ? 3 : 0))..<start])
                    // A joined file's byte-order mark at a record's start is dropped, not lost.
                    if gap.count >= 3, gap.suffix(3) == [0xEF, 0xBB, 0xBF], reader.droppedByteOrderMarks > 0 { gap.removeLast(3) }
                    #expect(end == nil ? gap.isEmpty : lineEnds.contains(gap), "before line \(record.lineNumber): \(gap)")
                    let line = RoundTripPropertyTests.line(at: start, in: bytes)
                    if let crs = loneCarriageReturns {
                        #expect(line - record.lineNumber > uncounted && line - record.lineNumber <= uncounted + crs)
                        uncounted = line - record.lineNumber
                    } else {
                        #expect(record.lineNumber == line - uncounted)
                    }
                    loneCarriageReturns = nil
                    do throws(CSVError) { try record.validateLineEnds() } catch {
                        #expect(error.byteOffset.map { bytes[Int($0)] } == 0x0D, "\(error)")
                        loneCarriageReturns = bytes[start..<(start + record.byteCount)].count { $0 == 0x0D }
                        end = start + record.byteCount
                        return
                    }
                    let lastLine = RoundTripPropertyTests.line(at: start + record.byteCount, in: bytes) - uncounted
                    do throws(CSVError) { try record.validateQuotes() } catch {
                        #expect(error.line == lastLine, "\(error)")
                    }
                    end = start + record.byteCount
                }
                // After the last record: its line end, and then only spaces and tabs a trimming libcsv drops.
                var rest = bytes[(end ?? (reader.skippedByteOrderMark ? 3 : 0))...]
                if end != nil, let lineEnd = lineEnds.sorted(by: { $0.count > $1.count }).first(where: rest.starts(with:)) {
                    rest = rest.dropFirst(lineEnd.count)
                }
                if reader.droppedByteOrderMarks > 0, rest.starts(with: [0xEF, 0xBB, 0xBF]) { rest = rest.dropFirst(3) }
                #expect(rest.allSatisfy { trims && ($0 == 0x20 || $0 == 0x09) }, "after the last record: \(Array(rest))")
            }
        }
    }
}
