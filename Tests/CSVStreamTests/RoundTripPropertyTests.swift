import CSVStream
import PropertyBased
import Testing

/// Random documents written with RFC 4180 quoting read back to the same fields, line numbers and byte
/// offsets, whatever the chunk size and line ending.
@Suite("Round trip (property)")
struct RoundTripPropertyTests {
    /// Characters that stress the parser: delimiters, quotes, every line break, spaces, multi-byte UTF-8,
    /// a byte-order mark inside text, control characters.
    static let characters: [Character] = [
        "a", "b", "Z", "0", " ", "\t", ",", ";", "\"", "\n", "\r", "\r\n", "é", "€", "😀", "ʤ", "\u{FEFF}", "\u{01}",
        "#", "\\", "'",
    ]
    static let field = pick(characters).string(of: 0...6)
    static let record = field.array(of: 1...4)
    static let document = record.array(of: 1...6)
    static let lineEnding = pick(["\n", "\r\n", "\r"])
    static let chunkSize = Gen.int(in: 1...9)

    /// The text and each record's start offset in UTF-8 bytes.
    static func write(_ records: [[String]], lineEnding: String, finalLineEnding: Bool) -> (String, [Int]) {
        var starts: [Int] = []
        var text = ""
        for (index, record) in records.enumerated() {
            starts.append(text.utf8.count)
            text += writeCSV(
                [record], lineEnding: lineEnding, finalLineEnding: index < records.count - 1 || finalLineEnding)
        }
        return (text, starts)
    }

    /// 1 + the line breaks (LF, CRLF, CR) in the first `offset` bytes.
    static func line(at offset: Int, in bytes: [UInt8]) -> Int {
        var line = 1
        var previous: UInt8 = 0
        for byte in bytes[..<offset] {
            if byte == 0x0D || (byte == 0x0A && previous != 0x0D) { line += 1 }
            previous = byte
        }
        return line
    }

    @Test func fieldsLinesAndOffsetsSurviveAnyChunkSize() async {
        await propertyCheck(input: Self.document, Self.lineEnding, Self.chunkSize, Gen.bool) {
            records, lineEnding, chunkSize, finalLineEnding in
            recordingErrors {
                let (text, starts) = Self.write(records, lineEnding: lineEnding, finalLineEnding: finalLineEnding)
                let bytes = Array(text.utf8)
                let reader = try CSVReader(bytes: bytes, dialect: CSVDialect(hasHeader: false), chunkSize: chunkSize)
                let parsed = try reader.readAll()
                #expect(parsed.map(\.fields) == records)
                #expect(parsed.map(\.byteOffset) == starts.map(Int64.init))
                #expect(parsed.map(\.lineNumber) == starts.map { Self.line(at: $0, in: bytes) })
                for (index, record) in parsed.enumerated() {
                    let written = writeCSV([records[index]], finalLineEnding: false)
                    #expect(try reader.rawText(of: record) == written)
                }
            }
        }
    }

    @Test func chunkSizeNeverChangesTheOutcome() async {
        await propertyCheck(input: Self.document, Self.lineEnding, Self.chunkSize) { records, lineEnding, chunkSize in
            let bytes = Array(writeCSV(records, lineEnding: lineEnding).utf8)
            let dialect = CSVDialect(hasHeader: true)
            #expect(
                outcome(bytes, dialect: dialect, chunkSize: chunkSize)
                    == outcome(bytes, dialect: dialect, chunkSize: CSVReader.defaultChunkSize))
        }
    }

    @Test func otherDelimitersRoundTrip() async {
        await propertyCheck(input: Self.document, pick([Character]([",", "\t", ";", "\u{01}", "|"]))) {
            records, delimiter in
            recordingErrors {
                let text = writeCSV(records, lineEnding: "\r\n", delimiter: delimiter)
                let dialect = CSVDialect(delimiter: UInt8(ascii: delimiter.unicodeScalars.first!), hasHeader: false)
                let parsed = try parse(text, dialect: dialect, chunkSize: 4)
                #expect(parsed == records)
            }
        }
    }

    /// Documents whose chosen records are spoilt by text after a closing quote (after fields that may span
    /// lines), and that may end with a quote never closed before two plain lines: a spoilt record is
    /// reported at its bad byte and ends with that byte's line; every other record reads back as written,
    /// on its line and at its offset, whatever the chunk size and line ending.
    @Test func recordsAfterAMalformedQuoteReadBackAsWritten() async {
        await propertyCheck(input: Self.document, Gen.int(in: 0...63), Self.lineEnding, Self.chunkSize, Gen.bool, Gen.bool) {
            records, spoilt, lineEnding, chunkSize, endsOpen, finalLineEnding in
            recordingErrors {
                // Each record's text, expected fields, and bad byte (offset in its text, kind).
                var pieces: [(text: String, fields: [String], bad: (index: Int, kind: CSVError.Kind)?)] = []
                for (index, record) in records.enumerated() {
                    let good = writeCSV([record], finalLineEnding: false)
                    if spoilt & (1 << index) != 0 {
                        pieces.append((good + ",\"q\"z,w", record + ["q\"z,w"], (good.utf8.count + 4, .textAfterClosingQuote)))
                    } else {
                        pieces.append((good, record, nil))
                    }
                }
                if endsOpen {
                    let good = writeCSV([records[0]], finalLineEnding: false)
                    pieces.append((good + ",\"open", records[0] + ["open"], (good.utf8.count + 1, .unterminatedQuote)))
                    pieces.append(("tail,1", ["tail", "1"], nil))
                    pieces.append(("tail,2", ["tail", "2"], nil))
                }
                var text = ""
                var starts: [Int] = []
                for (index, piece) in pieces.enumerated() {
                    starts.append(text.utf8.count)
                    text += piece.text + (index < pieces.count - 1 || finalLineEnding ? lineEnding : "")
                }
                let bytes = Array(text.utf8)
                let reader = try CSVReader(bytes: bytes, dialect: CSVDialect(hasHeader: false), chunkSize: chunkSize)
                var index = 0
                try reader.forEachRawRecord { (record: CSVRawRecord) throws in
                    defer { index += 1 }
                    guard index < pieces.count else { return }
                    let piece = pieces[index]
                    #expect(record.byteOffset == Int64(starts[index]), "record \(index) of \(text.debugDescription)")
                    #expect(record.lineNumber == Self.line(at: starts[index], in: bytes), "record \(index) of \(text.debugDescription)")
                    #expect(reader.lastRecordRawText == piece.text, "record \(index) of \(text.debugDescription)")
                    #expect(try record.makeRecord().fields == piece.fields, "record \(index) of \(text.debugDescription)")
                    do throws(CSVError) {
                        try record.validateQuotes()
                        #expect(piece.bad == nil, "record \(index) of \(text.debugDescription) passes")
                    } catch {
                        let bad = starts[index] + (piece.bad?.index ?? -1)
                        #expect(error.kind == piece.bad?.kind && error.byteOffset == Int64(bad), "\(error) in \(text.debugDescription)")
                        #expect(error.line == Self.line(at: bad, in: bytes), "\(error) in \(text.debugDescription)")
                    }
                }
                #expect(index == pieces.count, "\(text.debugDescription)")
            }
        }
    }

    /// Documents of LF or CRLF lines whose chosen records (not the first, which tells the line ending) get
    /// an unquoted field with a lone CR in it (`u\rv`): such a record runs on to the next line end and is
    /// reported at its CR, with the CR's line and field; the CR counts as no line, so every other record
    /// reads back as written, on its line and at its offset, whatever the chunk size.
    @Test func aLoneCarriageReturnCostsOnlyItsRecord() async {
        await propertyCheck(input: Self.document, Gen.int(in: 0...63), pick(["\n", "\r\n"]), Self.chunkSize, Gen.bool) {
            records, spoilt, lineEnding, chunkSize, finalLineEnding in
            recordingErrors {
                var pieces: [(text: String, fields: [String], loneCR: Int?)] = []
                for (index, record) in records.enumerated() {
                    let good = writeCSV([record], finalLineEnding: false)
                    if index > 0 && spoilt & (1 << index) != 0 {
                        pieces.append((good + ",u\rv", record + ["u", "v"], good.utf8.count + 2))
                    } else {
                        pieces.append((good, record, nil))
                    }
                }
                var text = ""
                var starts: [Int] = []
                for (index, piece) in pieces.enumerated() {
                    starts.append(text.utf8.count)
                    text += piece.text + (index < pieces.count - 1 || finalLineEnding ? lineEnding : "")
                }
                let bytes = Array(text.utf8)
                let loneCRs = pieces.indices.compactMap { index in pieces[index].loneCR.map { starts[index] + $0 } }
                /// Lines as counted before, less the lone CRs before `offset`.
                func line(at offset: Int) -> Int {
                    Self.line(at: offset, in: bytes) - loneCRs.count { $0 < offset }
                }
                let reader = try CSVReader(bytes: bytes, dialect: CSVDialect(hasHeader: false), chunkSize: chunkSize)
                var index = 0
                try reader.forEachRawRecord { (record: CSVRawRecord) throws in
                    defer { index += 1 }
                    guard index < pieces.count else { return }
                    let piece = pieces[index]
                    #expect(record.byteOffset == Int64(starts[index]), "record \(index) of \(text.debugDescription)")
                    #expect(record.lineNumber == line(at: starts[index]), "record \(index) of \(text.debugDescription)")
                    #expect(reader.lastRecordRawText == piece.text, "record \(index) of \(text.debugDescription)")
                    do throws(CSVError) {
                        try record.validateLineEnds()
                        #expect(piece.loneCR == nil, "record \(index) of \(text.debugDescription) passes")
                        #expect(try record.makeRecord().fields == piece.fields, "record \(index) of \(text.debugDescription)")
                    } catch {
                        let cr = starts[index] + (piece.loneCR ?? -1)
                        #expect(error.kind == .loneCarriageReturn && error.byteOffset == Int64(cr), "\(error) in \(text.debugDescription)")
                        #expect(error.line == line(at: cr) && error.column == records[index].count + 1, "\(error) in \(text.debugDescription)")
                        #expect(record.count == piece.fields.count)
                    }
                }
                #expect(index == pieces.count, "\(text.debugDescription)")
            }
        }
    }
}
