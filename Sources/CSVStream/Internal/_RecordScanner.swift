/// Drives libcsv over fixed-size chunks and knows where every record starts.
///
/// libcsv does not report positions, so each chunk is fed in *segments* that end just after a CR or LF
/// (or `\u{02}` for EPF). libcsv can end a row only on such a byte, so when its row callback fires during a
/// segment the record ended at the segment's last byte. Counting CR, LF and CRLF while splitting gives line
/// numbers for free, quoted newlines included, and the segments are appended to a raw capture of the record.
///
/// Chunk boundaries never matter: segments simply stop at the end of a chunk, and the only look-behind
/// (LF after CR) uses the previous byte, which survives across chunks.
///
/// Outside strict mode a malformed quote does not take the records after it (see ``resynchronizes``): a
/// record whose line ends while libcsv is still in a quoted field has that line checked (``_QuoteScan``)
/// and, when text follows a closing quote on it, the record ends with that line; a quote never closed
/// before the end of the input ends its record with the quote's line, and the bytes after that line are
/// parsed again from the record's raw capture. Records that end on their first line never pay for this.
///
/// A file's line ends are told by its first record end: LF, CRLF or a bare CR. In a file of LF or CRLF
/// lines, a bare CR that libcsv takes as a record end (one in an unquoted field; quoted, it is data) is not
/// a line end: the record runs on to the file's next line end, so nothing after the CR becomes a record of
/// its own, the CR is not counted as a line, and ``loneCarriageReturn`` says where it is (the reader reports
/// it as an error). Records that end with LF pay one byte test for this; those that end with a CR, a look
/// at the next byte.
///
/// - Complexity: O(n) in the input; one `csv_parse` call per line, one byte test per input byte. A record
///   of several lines is also scanned once for its quotes; after a quote never closed, the bytes after its
///   line are parsed a second time (at most ``CSVDialect/maximumRecordBytes``, once per input: the text a
///   quote never closed holds has its quotes doubled, so parsed again it cannot end inside quotes again).
final class _RecordScanner {
    let dialect: CSVDialect
    let source: _ByteSource
    /// The record being assembled, or the last one completed until ``advance()`` is called again.
    let record = _RecordBuffer()
    private let parser: _LibCSVParser

    private let chunk: UnsafeMutablePointer<UInt8>
    private let chunkSize: Int
    private var chunkCount = 0
    private var chunkPosition = 0
    /// The input offset of `chunk[0]`.
    private var chunkOffset: Int64 = 0
    /// Bytes served before the source: those read ahead while looking for a byte-order mark, and those
    /// after the line of a quote never closed, parsed again (see ``finishInput()``).
    private var pending: [UInt8] = []
    /// The first byte of ``pending`` not yet served.
    private var pendingStart = 0
    /// The end of the furthest byte parsed, for ``bytesConsumed`` while bytes are parsed again.
    private var furthestConsumed: Int64 = 0

    /// A third stop byte beside CR and LF (`\u{02}` for EPF; LF again otherwise).
    private let extraStop: UInt8
    /// CR, or LF again with an escape byte, where a CR ends no line unless an LF follows (``_EscapedParser``).
    private let carriageReturnStop: UInt8
    /// The escaped-format parser, when the dialect has an escape byte.
    let escapedParser: _EscapedParser?
    /// The 1-based line of the next byte.
    private var line = 1
    private var previousByte: UInt8 = 0
    /// Whether libcsv is between records (nothing of the next record fed yet).
    private var atBoundary = true
    /// The first bytes of a byte-order mark a chunk ended with at a record's start, and their offset: the
    /// next chunk tells whether they are a joined file's mark (dropped) or data.
    private var heldMark: [UInt8] = []
    private var heldMarkOffset: Int64 = 0
    /// Whether the last chunk ended right after a mark dropped at a record's start: the record starts in
    /// this one, and is not tested again for a comment.
    private var markEndedChunk = false
    /// UTF-8's byte-order mark.
    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
    private var inComment = false
    /// After an EPF `\u{02}`, the LF that follows belongs to the terminator.
    private var skipsNewline = false
    private var finished = false
    /// A parse failure ends the scan; it is thrown again on every later call.
    private var failure: CSVError?
    /// Whether a record ends with the line of a malformed quote (non-strict mode, newline terminators).
    private let resynchronizes: Bool
    /// The quotes of the record being assembled, scanned line by line once it spans lines. Unchecked: only
    /// this scanner touches it, one access at a time, and a checked access cost every record a runtime
    /// call (the optimizer hoisted one to the top of ``advance()``).
    @exclusivity(unchecked) private var quoteScan = _QuoteScan()
    /// The ``recordStart`` of the record ``quoteScan`` belongs to (-1: none yet).
    private var quoteScanRecord: Int64 = -1
    /// How the input's records end, told by the first record end; `nil` until then.
    private(set) var lineEnding: LineEnding?

    /// The completed record's 1-based first line.
    private(set) var recordLine = 1
    /// The completed record's first byte.
    private(set) var recordStart: Int64 = 0
    /// The completed record's length without its terminator.
    private(set) var recordLength = 0
    /// Whether the completed record is a blank line.
    private(set) var isBlank = false
    /// Bumped for every completed record, so raw views can tell they are stale.
    private(set) var generation = 0
    /// Whether the input started with a UTF-8 byte-order mark, which was skipped.
    private(set) var skippedByteOrderMark = false
    /// Whether the completed record ended with the input inside a quoted field (not strict mode, which fails).
    var endedInsideQuotes: Bool { insideQuotesGeneration == generation }
    /// The ``generation`` of the record that ended with the input inside a quoted field, if any (a record
    /// that starts sets nothing, so that the per-record path stays as it was).
    private var insideQuotesGeneration = -1
    /// The raw index of the first bare CR in the completed record that libcsv took as a record end in a file
    /// of LF or CRLF lines (see the type's notes), or -1.
    private(set) var loneCarriageReturn = -1
    /// The 0-based field that bare CR ends (libcsv's fields before it, less one).
    private(set) var loneCarriageReturnField = 0

    /// When the completed record holds a quote never closed and was ended with the quote's line: how many
    /// lines after that quote the input ends (the bytes after the line are read as records again); 0 otherwise.
    private(set) var linesAfterUnclosedQuote = 0

    init(source: _ByteSource, dialect: CSVDialect, chunkSize: Int) throws(CSVError) {
        self.source = source
        self.dialect = dialect
        do {
            parser = try _LibCSVParser(dialect: dialect, record: record)
        } catch {
            throw error.at(path: source.path)
        }
        self.chunkSize = Swift.max(1, chunkSize)
        escapedParser = parser.escaped
        resynchronizes = !dialect.strict && dialect.recordTerminator == .newline && dialect.escape == nil
        carriageReturnStop = dialect.escape == nil ? 0x0D : 0x0A
        extraStop = dialect.recordTerminator == .controlBNewline ? 0x02 : 0x0A
        chunk = .allocate(capacity: self.chunkSize)  // from here on, deinit frees it even if init throws
        try skipByteOrderMark()
        if let escaped = escapedParser {
            if let chosen = dialect.escapedLineEnd {
                escaped.fixLineEnds(chosen)
            } else if source.size != nil, let sample = try? source.bytes(in: 0..<Self.lineEndSample) {
                escaped.presetLineEnds(from: sample, hasHeader: dialect.hasHeader)
            }
        }
    }

    deinit { chunk.deallocate() }

    /// How far parsing has got, in input bytes (bytes parsed again count once).
    var bytesConsumed: Int64 { Swift.max(furthestConsumed, chunkOffset + Int64(chunkPosition)) }

    /// Records of escaped text (``CSVDialect/escape``) holding a field the quote opens and closes, and the
    /// first one's line: read as MySQL's `ENCLOSED BY` writes them, which a file that never quotes did not mean.
    private(set) var enclosedRecords = 0
    private(set) var firstEnclosedLine: Int?
    /// Records of escaped text holding a doubled quote inside quotes (RFC 4180's escape, which MySQL and
    /// PostgreSQL never write), and the first one's line.
    private(set) var doubledQuoteRecords = 0
    private(set) var firstDoubledQuoteLine: Int?
    /// The line of PostgreSQL's end-of-data marker (`\.`), which ends the data, and whether anything
    /// follows it (not read).
    private(set) var endOfDataLine: Int?
    private(set) var hasBytesAfterEndOfData = false

    /// How much of a seekable input the escaped parser's line ends are told from (``_EscapedParser/presetLineEnds(from:)``).
    static let lineEndSample: Int64 = 64 << 10

    /// Forgets the escaped-text counts so far (the header's).
    func forgetEscapedCounts() {
        enclosedRecords = 0
        firstEnclosedLine = nil
        doubledQuoteRecords = 0
        firstDoubledQuoteLine = nil
    }

    /// Counts what the escaped parser saw in the record just completed; after the end-of-data marker,
    /// ends the input (looking only at whether a byte follows).
    private func noteEscapedRecord(_ escaped: _EscapedParser) throws(CSVError) {
        // A record whose quote is still open at its line end was not read as quoted: it is reported.
        if escaped.recordQuoted && escaped.unclosedQuoteIndex < 0 {
            enclosedRecords += 1
            if firstEnclosedLine == nil { firstEnclosedLine = recordLine }
        }
        if escaped.recordDoubledQuote {
            doubledQuoteRecords += 1
            if firstDoubledQuoteLine == nil { firstDoubledQuoteLine = recordLine }
        }
        if escaped.endOfData && endOfDataLine == nil {
            endOfDataLine = recordLine
            if !finished { hasBytesAfterEndOfData = try peekByte() != nil }
            finished = true
        }
    }

    /// Records past the input's start whose line began with a UTF-8 byte-order mark (files joined with
    /// `cat`, each with its own), which was skipped before parsing, as the input's own is, and the first
    /// one's line.
    private(set) var droppedByteOrderMarks = 0
    private(set) var firstDroppedByteOrderMarkLine: Int?

    /// Reads up to the end of the next record. Returns `false` at the end of the input.
    ///
    /// - Complexity: O(length of the record and any comment lines or CRLF tails before it).
    func advance() throws(CSVError) -> Bool {
        if let failure { throw failure }
        if finished { return false }
        while true {
            if chunkPosition == chunkCount {
                chunkOffset += Int64(chunkCount)
                chunkPosition = 0
                chunkCount = try refill()
                if chunkCount == 0 { return try finishInput() }
            }
            let start = chunkPosition
            var end = start
            let stop: UInt8?
            if escapedParser == nil {
                // libcsv's path, as it was before escaped text: a stored stop byte here cost 0.8% of an import.
                let extraStop = extraStop
                while end < chunkCount {
                    let byte = chunk[end]
                    if byte <= 0x0D && (byte == 0x0A || byte == 0x0D || byte == extraStop) { break }
                    end += 1
                }
            } else {
                // Escaped text: only an LF stops a segment (a CR is told by the parser).
                while end < chunkCount && chunk[end] != 0x0A { end += 1 }
            }
            if end < chunkCount {
                stop = chunk[end]
                end += 1
            } else {
                stop = nil
            }
            chunkPosition = end
            if try consume(chunk + start, count: end - start, offset: chunkOffset + Int64(start), stop: stop) {
                generation &+= 1
                if let escaped = escapedParser { try noteEscapedRecord(escaped) }
                return true
            }
        }
    }

    /// Handles one segment: bytes that end with the stop byte `stop`, or at the chunk's end when `nil`.
    /// Returns whether a record is complete.
    @inline(__always)
    private func consume(_ bytes: UnsafePointer<UInt8>, count: Int, offset: Int64, stop: UInt8?) throws(CSVError)
        -> Bool
    {
        var bytes = bytes, count = count, offset = offset
        var byteBeforeLast = count >= 2 ? bytes[count - 2] : previousByte
        if atBoundary {
            if skipsNewline {
                skipsNewline = false
                if bytes[0] == 0x0A {  // the segment is exactly "\n"
                    noteLineBreak(0x0A, after: previousByte)
                    previousByte = 0x0A
                    return false
                }
            }
            // A byte-order mark's first bytes held from the chunk before (below): resolved first, so the line
            // they start is read as it would be in one chunk.
            var markBytes = 0
            if !heldMark.isEmpty {
                let need = 3 - heldMark.count, seen = min(need, count)
                // A line break is never part of a mark: a segment it ends must complete the mark to be one.
                guard (0..<seen).allSatisfy({ bytes[$0] == Self.byteOrderMark[heldMark.count + $0] }), seen == need || stop == nil else {
                    // Not a mark after all: the bytes held are data, ahead of these.
                    let combined = heldMark + UnsafeBufferPointer(start: bytes, count: count)
                    let start = heldMarkOffset
                    heldMark = []
                    return try combined.withUnsafeBufferPointer { buffer throws(CSVError) in
                        try consume(buffer.baseAddress!, count: buffer.count, offset: start, stop: stop)
                    }
                }
                if seen < need {
                    heldMark += UnsafeBufferPointer(start: bytes, count: seen)
                    previousByte = bytes[count - 1]
                    return false
                }
                heldMark = []
                markBytes = need
            }
            // A comment line, or one of the lines before the table (`skipLines`): read past, never parsed.
            // Not after a mark the chunk before ended with: in one chunk, the mark is what the test saw.
            let afterMark = markEndedChunk
            markEndedChunk = false
            if !inComment, !afterMark, line <= dialect.skipLines { inComment = true }
            if !inComment, !afterMark, markBytes == 0, let prefix = dialect.commentPrefix, bytes[0] == prefix { inComment = true }
            if inComment {
                if let stop {
                    noteLineBreak(stop, after: byteBeforeLast)
                    if stop != 0x02 { inComment = false }
                }
                previousByte = bytes[count - 1]
                return false
            }
            record.reset()
            loneCarriageReturn = -1
            // A joined file's byte-order mark (`cat a.csv b.csv`) is not data: skipped as the input's own is,
            // before the parser sees it, so a quote after it still opens a quoted field. A mark split over
            // chunks is held until the next chunk tells, so the chunk size never changes what is read.
            if markBytes == 0 && bytes[0] == 0xEF && count >= 3 && bytes[1] == 0xBB && bytes[2] == 0xBF {
                markBytes = 3
            } else if markBytes == 0 && bytes[0] == 0xEF && stop == nil && count < 3 && !finished && (count == 1 || bytes[1] == 0xBB) {
                // The chunk ends inside what may be a mark: held for the next.
                heldMark = Array(UnsafeBufferPointer(start: bytes, count: count))
                heldMarkOffset = offset
                previousByte = bytes[count - 1]
                return false
            }
            if markBytes > 0 {
                bytes += markBytes
                count -= markBytes
                offset += Int64(markBytes)
                droppedByteOrderMarks += 1
                if firstDroppedByteOrderMarkLine == nil { firstDroppedByteOrderMarkLine = line }
                // The chunk ended with the mark: the record starts in the next one.
                if count == 0 {
                    previousByte = 0xBF
                    markEndedChunk = true
                    return false
                }
                byteBeforeLast = count >= 2 ? bytes[count - 2] : previousByte
            }
            recordStart = offset
            recordLine = line
            atBoundary = false
        }
        record.appendRaw(bytes, count)
        if record.rawCount > dialect.maximumRecordBytes { throw fail(tooLargeError()) }
        let consumed = parser.parse(bytes, count: count)
        if consumed < count {
            throw fail(
                CSVError(
                    kind: parser.error, message: parseErrorMessage(bytes[consumed]), path: source.path, line: line,
                    column: record.fieldCount + 1, byteOffset: offset + Int64(consumed), recordLine: recordLine))
        }
        if let stop { noteLineBreak(stop, after: byteBeforeLast) }
        previousByte = bytes[count - 1]
        guard record.rowEnded else {
            // A line ended inside a quoted field: a record of several lines, or a malformed quote.
            if stop != nil && resynchronizes && lineHasStrayByte() { return endRecordAtLineEnd() }
            return false
        }
        if stop == 0x0D || lineEnding == nil, try continuesPastCarriageReturn(stop) { return false }
        atBoundary = true
        if stop == 0x02 { skipsNewline = true }
        if record.fieldCount == 0 {
            // CSV_REPALL_NL reports the LF of a CRLF as an empty row of its own: not a record.
            if count == 1 && stop == 0x0A && byteBeforeLast == 0x0D && escapedParser == nil { return false }
            isBlank = true
        } else {
            isBlank = false
        }
        recordLength = record.rawCount - (escapedParser?.terminatorLength ?? 1)  // without the stop byte that ended the row
        return true
    }

    /// How a file's records end.
    enum LineEnding {
        case lineFeed, carriageReturnLineFeed, carriageReturn
    }

    /// At a row end, before the record is complete: learns the file's line ending from its first record
    /// end, and when a bare CR (`stop`, not followed by LF) ended the row in a file of LF or CRLF lines, keeps
    /// the record going to the next line end (libcsv goes on appending fields), takes back the line the CR
    /// was counted as, and remembers the CR. Returns whether the record goes on.
    ///
    /// - Complexity: O(1); may read the next chunk to see the byte after a CR (which ``advance()`` would read next).
    private func continuesPastCarriageReturn(_ stop: UInt8?) throws(CSVError) -> Bool {
        guard dialect.recordTerminator == .newline else { return false }
        guard stop == 0x0D else {
            if stop == 0x0A && lineEnding == nil { lineEnding = .lineFeed }
            return false
        }
        guard let next = try peekByte() else { return false }  // a CR at the end of the input ends the record
        if next == 0x0A {
            if lineEnding == nil { lineEnding = .carriageReturnLineFeed }
            return false
        }
        guard let lineEnding else {
            lineEnding = .carriageReturn
            return false
        }
        guard lineEnding != .carriageReturn else { return false }
        if loneCarriageReturn < 0 {
            loneCarriageReturn = record.rawCount - 1
            loneCarriageReturnField = Swift.max(0, record.fieldCount - 1)
        }
        line -= 1
        record.rowEnded = false
        return true
    }

    /// The next input byte, without consuming it; reads the next chunk when this one is used up. `nil` at
    /// the end of the input.
    private func peekByte() throws(CSVError) -> UInt8? {
        if chunkPosition == chunkCount {
            chunkOffset += Int64(chunkCount)
            chunkPosition = 0
            chunkCount = try refill()
            if chunkCount == 0 { return nil }
        }
        return chunk[chunkPosition]
    }

    /// Counts a line break: LF (unless it ends a CRLF) and CR each start a new line.
    @inline(__always)
    private func noteLineBreak(_ stop: UInt8, after previous: UInt8) {
        // With an escape byte only LF stops a segment, and every LF is a line.
        if stop == 0x0D || (stop == 0x0A && (previous != 0x0D || carriageReturnStop == 0x0A)) { line += 1 }
    }

    /// Scans the record's bytes since the last call (its latest line) for a byte that follows a closing quote
    /// without being the delimiter or a line end (see ``_QuoteScan``).
    ///
    /// - Complexity: O(length of the line).
    private func lineHasStrayByte() -> Bool {
        resumeQuoteScan() != nil
    }

    /// Goes on with ``quoteScan`` over the record's raw bytes so far (from their start for a new record);
    /// returns the first stray byte found, if any.
    private func resumeQuoteScan() -> Int? {
        if quoteScanRecord != recordStart {
            quoteScan = _QuoteScan()
            quoteScanRecord = recordStart
        }
        return quoteScan.nextStray(
            in: record.rawBytes(count: record.rawCount), delimiter: dialect.delimiter, quote: dialect.quote,
            trims: dialect.trimsSpaces)
    }

    /// Ends the record with the line just fed, whose line end libcsv read as data of a field kept open by
    /// text after its closing quote: that field and the row are submitted, without the line end, and the
    /// next line starts a record of its own.
    private func endRecordAtLineEnd() -> Bool {
        _ = parser.finish()  // submits the open field and the row, and resets the parser
        record.dropLastFieldByte()
        atBoundary = true
        isBlank = false
        recordLength = record.rawCount - 1  // without the stop byte (an LF after a CR comes on its own)
        return true
    }

    /// At the end of the input: lets libcsv submit a last record without a terminator.
    private func finishInput() throws(CSVError) -> Bool {
        finished = true
        if !heldMark.isEmpty {
            // The input ended inside what might have been a mark: those bytes are a last record's data.
            let held = heldMark, start = heldMarkOffset
            heldMark = []
            if try held.withUnsafeBufferPointer({ buffer throws(CSVError) in
                try consume(buffer.baseAddress!, count: buffer.count, offset: start, stop: nil)
            }) { return true }
        }
        if atBoundary { return false }
        let insideQuotes = parser.isInsideQuotedField
        if insideQuotes { insideQuotesGeneration = generation &+ 1 }  // the record completed next
        linesAfterUnclosedQuote = 0
        if insideQuotes && resynchronizes, let lineEnd = unclosedQuoteLineEnd() {
            return try endRecord(atUnclosedQuoteLineEnd: lineEnd)
        }
        guard parser.finish() else {
            throw fail(
                CSVError(
                    kind: .unterminatedQuote,
                    message: "the input ends inside a quoted field that starts in the record on line \(recordLine)",
                    path: source.path, line: line, column: record.fieldCount + 1, byteOffset: bytesConsumed,
                    recordLine: recordLine))
        }
        // After a lone CR the record is complete even when libcsv holds no row (only spaces it trims).
        guard record.rowEnded || loneCarriageReturn >= 0 else { return false }
        atBoundary = true
        // The escaped parser ends a last line of `\.` alone with no fields: blank, as with a line end.
        isBlank = escapedParser != nil && record.fieldCount == 0
        recordLength = record.rawCount
        generation &+= 1
        if let escaped = escapedParser { try noteEscapedRecord(escaped) }
        return true
    }

    /// When the input ended inside a quoted field whose opening quote has a line end after it, and no text
    /// follows a closing quote (that would be the error, on the record's last line, every line before it
    /// having been checked as it ended): the raw index of that line end (its CR or LF) and the index just
    /// past it (past both bytes of a CRLF).
    private func unclosedQuoteLineEnd() -> (index: Int, next: Int)? {
        guard resumeQuoteScan() == nil, quoteScan.state == .quoted else { return nil }
        let raw = record.rawBytes(count: record.rawCount)
        guard let index = raw[(quoteScan.openingQuote + 1)...].firstIndex(where: { $0 == 0x0A || $0 == 0x0D }) else {
            return nil
        }
        let next = raw[index] == 0x0D && index + 1 < raw.count && raw[index + 1] == 0x0A ? index + 2 : index + 1
        return (index, next)
    }

    /// Ends the record with the line of its quote never closed, and serves the bytes after that line again,
    /// to be read as records with their own lines and offsets. The record's fields are parsed again from its
    /// raw capture up to the line end (the raw bytes stay for ``recordLength``).
    ///
    /// The bytes served again hold no quote that could open a field they leave open (inside the quoted
    /// field every quote came doubled, or a line with text after a closing quote would have ended the
    /// record), so this happens at most once per input and the input is parsed at most twice.
    private func endRecord(atUnclosedQuoteLineEnd lineEnd: (index: Int, next: Int)) throws(CSVError) -> Bool {
        let raw = record.rawBytes(count: record.rawCount)
        let quoteLine = line(ofRecordByte: quoteScan.openingQuote, in: raw)
        let lastLine = line(ofRecordByte: raw.count, in: raw)
        furthestConsumed = Swift.max(furthestConsumed, bytesConsumed)
        pending = Array(raw[lineEnd.next...])
        pendingStart = 0
        chunkOffset = recordStart + Int64(lineEnd.next)
        chunkPosition = 0
        chunkCount = 0
        line = line(ofRecordByte: lineEnd.next, in: raw)
        previousByte = raw[lineEnd.next - 1]
        linesAfterUnclosedQuote = pending.isEmpty ? 0 : lastLine - quoteLine

        _ = parser.finish()  // resets libcsv; the field and row it submits are dropped next
        record.resetFields()
        let consumed = parser.parse(record.raw, count: lineEnd.index)
        if consumed < lineEnd.index {
            throw fail(
                CSVError(
                    kind: parser.error, message: "libcsv stopped: \(parser.errorMessage)", path: source.path,
                    line: recordLine, byteOffset: recordStart + Int64(consumed), recordLine: recordLine))
        }
        _ = parser.finish()
        finished = false
        atBoundary = true
        isBlank = false
        recordLength = lineEnd.index
        generation &+= 1
        return true
    }

    /// Copies the next chunk into the buffer, serving read-ahead bytes first.
    private func refill() throws(CSVError) -> Int {
        if pendingStart < pending.count {
            let count = Swift.min(chunkSize, pending.count - pendingStart)
            pending.withUnsafeBufferPointer { bytes in
                chunk.update(from: bytes.baseAddress! + pendingStart, count: count)
            }
            pendingStart += count
            if pendingStart == pending.count {
                pending = []
                pendingStart = 0
            }
            return count
        }
        return try source.readChunk(into: UnsafeMutableRawBufferPointer(start: chunk, count: chunkSize))
    }

    /// Drops a UTF-8 byte-order mark (EF BB BF) at the start; offsets still count it. A UTF-16 or UTF-32
    /// mark is an error: read as any encoding the reader knows, every other byte would be a NUL.
    private func skipByteOrderMark() throws(CSVError) {
        var head: [UInt8] = []
        let byte = UnsafeMutableRawBufferPointer.allocate(byteCount: 1, alignment: 1)
        defer { byte.deallocate() }
        while head.count < 4, try source.readChunk(into: byte) == 1 {
            head.append(byte[0])
        }
        if head.starts(with: [0xEF, 0xBB, 0xBF]) {
            chunkOffset = 3
            skippedByteOrderMark = true
            pending = Array(head.dropFirst(3))
            return
        }
        let wide: String? =
            head.starts(with: [0xFF, 0xFE, 0x00, 0x00]) ? "UTF-32 (little-endian)"
            : head.starts(with: [0x00, 0x00, 0xFE, 0xFF]) ? "UTF-32 (big-endian)"
            : head.starts(with: [0xFF, 0xFE]) ? "UTF-16 (little-endian)"
            : head.starts(with: [0xFE, 0xFF]) ? "UTF-16 (big-endian)" : nil
        if let wide {
            throw fail(CSVError(
                kind: .unsupportedEncoding,
                message: "the file is \(wide), by the byte-order mark it starts with; the reader takes UTF-8, Windows-1252 and Latin-1",
                path: source.path, line: 1, byteOffset: 0))
        }
        // Without a mark, UTF-16 or UTF-32 text of ASCII characters has NULs beside every character: no
        // text in the encodings read starts so, and read as one, every value would hold NULs.
        if head.count == 4, let (encoding, nuls) = Self.unmarkedWide(head) {
            throw fail(CSVError(
                kind: .unsupportedEncoding,
                message: "the file looks like \(encoding) without a byte-order mark: \(nuls) of its start is a NUL; the reader takes UTF-8, Windows-1252 and Latin-1",
                path: source.path, line: 1, byteOffset: 0))
        }
        pending = head
    }

    /// The encoding of a start that reads as two UTF-16 characters below U+0100 and not NUL (`u\0w\0`),
    /// or as one such UTF-32 character (`u\0\0\0`), with which of its bytes are NULs; or nil.
    static func unmarkedWide(_ head: [UInt8]) -> (encoding: String, nuls: String)? {
        if head[0] != 0, head[1] == 0, head[2] == 0, head[3] == 0 { return ("UTF-32 (little-endian)", "every byte but the first") }
        if head[0] == 0, head[1] == 0, head[2] == 0, head[3] != 0 { return ("UTF-32 (big-endian)", "every byte but the fourth") }
        if head[1] == 0, head[3] == 0, head[0] != 0, head[2] != 0 { return ("UTF-16 (little-endian)", "every other byte") }
        if head[0] == 0, head[2] == 0, head[1] != 0, head[3] != 0 { return ("UTF-16 (big-endian)", "every other byte") }
        return nil
    }

    /// Remembers a failure so that later calls throw it again; the raw text of the failing record, up to
    /// where parsing stopped, stays available.
    private func fail(_ error: CSVError) -> CSVError {
        finished = true
        recordLength = record.rawCount
        failure = error
        return error
    }

    /// The line of byte `offset` of the current record's raw bytes: the record's first line plus the line
    /// breaks (LF, CRLF or CR) before it.
    func line(ofRecordByte offset: Int, in raw: UnsafeBufferPointer<UInt8>) -> Int {
        var line = recordLine
        if escapedParser != nil { return line + raw[..<offset].count { $0 == 0x0A } }
        var previous: UInt8 = 0
        for byte in raw[..<offset] {
            if byte == 0x0D || (byte == 0x0A && previous != 0x0D) { line += 1 }
            previous = byte
        }
        // The bare CR the record runs on past is not a line end (see the type's notes).
        if loneCarriageReturn >= 0 && loneCarriageReturn < offset { line -= 1 }
        return line
    }

    /// The quote that opens a field still open at the end of `raw` (a record's bytes so far), and that
    /// field's index; `nil` when every quoted field closes. A quote at a field's start opens it (after
    /// spaces and tabs when trimming), a doubled quote inside is data, a lone one closes it; text after a
    /// closing quote keeps the field open, as libcsv does (see ``_QuoteScan``).
    func openQuote(in raw: UnsafeBufferPointer<UInt8>) -> (index: Int, field: Int)? {
        if let escaped = escapedParser {
            return escaped.openQuoteIndex >= 0 && escaped.openQuoteIndex < raw.count
                ? (escaped.openQuoteIndex, escaped.openQuoteField) : nil
        }
        var scan = _QuoteScan()
        while scan.nextStray(in: raw, delimiter: dialect.delimiter, quote: dialect.quote, trims: dialect.trimsSpaces)
            != nil
        {}
        return scan.state == .quoted ? (scan.openingQuote, scan.field) : nil
    }

    /// The record has grown past ``CSVDialect/maximumRecordBytes``: where it starts and, when one is open,
    /// the quote that keeps it going.
    private func tooLargeError() -> CSVError {
        let raw = record.rawBytes(count: record.rawCount)
        let limit = dialect.maximumRecordBytes
        let shown = limit % (1 << 20) == 0 ? "\(limit >> 20) MiB" : "\(Self.grouped(limit)) bytes"
        var message = "the record that starts on line \(recordLine) passes \(shown) without ending"
        var error = CSVError(kind: .recordTooLarge, message: message, path: source.path, line: recordLine,
                             byteOffset: recordStart, recordLine: recordLine)
        if let open = openQuote(in: raw) {
            let opened = line(ofRecordByte: open.index, in: raw), now = line(ofRecordByte: raw.count, in: raw)
            message += now == opened
                ? ": the quote that opens field \(open.field + 1) on line \(opened) is still open on that line"
                : ": the quote that opens field \(open.field + 1) on line \(opened) is still open \(Self.grouped(now - opened)) line\(now - opened == 1 ? "" : "s") later"
            error.message = message
            error.line = opened
            error.column = open.field + 1
            error.byteOffset = recordStart + Int64(open.index)
        }
        return error
    }

    /// `1234567` as `1,234,567`, whatever the locale (as Measure's `TextTable.grouped`, which this
    /// module, depending on libcsv alone, does not import).
    static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var result = value < 0 ? "-" : ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return result
    }

    private func parseErrorMessage(_ byte: UInt8) -> String {
        if let escaped = escapedParser, escaped.failure == .unterminatedQuote {
            return "the quote that opens field \(escaped.openQuoteField + 1) is still open at the line end, where text written with "
                + "escapes escapes its line ends; if the file never quotes its values, read it without a quote byte (--quote none)"
        }
        switch parser.error {
        case .malformedQuote:
            if byte == dialect.quote {
                return "a quote (0x\(byte.hexDigits)) inside an unquoted field, or a stray quote after a quoted field"
            }
            return
                "byte 0x\(byte.hexDigits) follows a closing quote; only a delimiter, a line break or a doubled quote may"
        default:
            return "libcsv stopped: \(parser.errorMessage)"
        }
    }
}

extension CSVError {
    /// The same error with the path filled in when it had none.
    func at(path: String?) -> CSVError {
        var copy = self
        if copy.path == nil { copy.path = path }
        return copy
    }
}
