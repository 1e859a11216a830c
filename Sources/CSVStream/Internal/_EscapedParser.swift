#if canImport(Glibc)
import Glibc  // memmove
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Splits text written with an escape byte (``CSVDialect/escape``, a backslash in MySQL's
/// `SELECT … INTO OUTFILE` and PostgreSQL's text-format `COPY`) into fields, in place of libcsv, which
/// knows no escapes: an escaped delimiter or line end is data, where libcsv would split the record there.
///
/// What it reads:
/// - The escape byte and the byte after it stand for that byte, except `\0` (NUL), `\b`, `\f`, `\n`,
///   `\r`, `\t`, `\v` and `\Z` (0x1A), which stand for the control characters MySQL and PostgreSQL write
///   them for. An escaped delimiter, quote, line feed or escape byte is itself.
/// - `\N` as a whole unquoted field (null) is handed over as those two bytes, unquoted; a field holding
///   any other escape is reported as quoted (its text is literal, never a null token), so the two bytes
///   unquoted mean null and nothing else. An empty field is an empty unquoted field.
/// - A field that starts with the quote byte (MySQL's `ENCLOSED BY`) is quoted: inside, the delimiter is
///   data, an escaped or doubled quote is a quote, and a lone quote closes it. A byte other than the
///   delimiter or a line end after the closing quote is *stray* (the field goes on, unquoted, and
///   ``strayIndex`` says where: the reader reports the record).
/// - A line end ends the record, inside an open quote too (such exports escape the line ends in values:
///   a quote open there opened no quoted field, and ``unclosedQuoteIndex`` says where, for the reader to
///   report, instead of the quote taking the rest of the file). Every LF ends a line, and a CR before it
///   is part of the line end, unless the file says otherwise (``presetLineEnds(from:hasHeader:)``): in a
///   file of CRLF lines (MySQL's `LINES TERMINATED BY '\r\n'`) a bare LF is data, in a file of LF lines a
///   CR before the LF is.
/// - A line that is exactly `\.` (PostgreSQL's end-of-data marker) is a blank line and ends the data
///   (``endOfData``).
///
/// Strict mode stops at a stray byte or a quote open at a line end. Like libcsv it keeps its state
/// between calls, so input may be split anywhere; unlike libcsv it knows where each field starts in the
/// record's raw bytes, which it records in the buffer as it goes.
///
/// - Complexity: O(n), one pass over the input; fields are built in a reused scratch buffer.
final class _EscapedParser {
    private let record: _RecordBuffer
    private let delimiter: UInt8
    private let quote: UInt8
    private let escape: UInt8
    private let trims: Bool
    private let strict: Bool

    /// The field being built.
    private var field: UnsafeMutablePointer<UInt8>
    private var fieldCapacity = 256
    private var fieldLength = 0

    /// Nothing of the current field seen yet (spaces trimmed at its start aside).
    private var atFieldStart = true
    /// Nothing of the current record seen yet.
    private var atRecordStart = true
    private var inQuotes = false
    /// Just after a quote inside a quoted field: the field's end, or the first of a doubled quote.
    private var afterQuote = false
    private var quoted = false
    private var escaping = false
    private var hadEscape = false
    /// The field so far is `\N` alone.
    private var nullMarker = false
    /// An unescaped CR outside quotes, held back until the next byte tells a line end from data, and its raw index.
    private var pendingCR = false
    private var pendingCRIndex = 0
    /// Trailing spaces and tabs of the field that were not escaped (dropped at its end when trimming).
    private var trailingSpaces = 0
    /// The raw index of the current field's first byte.
    private var fieldRawStart = 0

    /// The raw index of the quote that opened a field still open, and that field, for errors.
    private(set) var openQuoteIndex = -1
    private(set) var openQuoteField = 0
    /// The raw index of the first stray byte after a closing quote in the record, and its field; -1: none.
    private(set) var strayIndex = -1
    private(set) var strayField = 0
    /// The raw index of a quote still open at the record's line end (or the input's end), and its field;
    /// -1: none. The record ends with its line all the same (see ``endLine(at:terminator:)``).
    private(set) var unclosedQuoteIndex = -1
    private(set) var unclosedQuoteField = 0
    /// Whether the record holds a field the quote opens, and a doubled quote inside one (RFC 4180's
    /// escape, which neither MySQL nor PostgreSQL writes), for the reader's counts.
    private(set) var recordQuoted = false
    private(set) var recordDoubledQuote = false
    /// Whether the record was PostgreSQL's end-of-data marker, `\.` alone on its line.
    private(set) var endOfData = false
    /// Whether the record being read is the header (``CSVDialect/hasHeader``), whose line may end with
    /// a bare LF in a file of CRLF lines (`echo header; cat export`): names hold no line end.
    private var headerLine: Bool
    /// How the file's lines end (``presetLineEnds(from:hasHeader:)``): in a file of CRLF lines a bare LF is data, in a
    /// file of LF lines a CR before the LF is; `unknown`, every LF ends a line, after a CR or not.
    private var lineEnds = LineEnds.unknown
    /// Whether ``lineEnds`` was chosen (``fixLineEnds(_:)``): nothing in the text changes it then.
    private var lineEndsFixed = false
    /// With ``LineEnds/unknown``, the line ends read so far that were a bare LF, and a CR and an LF: both
    /// in one file may be a MySQL export of CRLF lines whose text holds LFs, which were read as line ends.
    private(set) var bareLineFeedEnds = 0
    private(set) var carriageReturnLineFeedEnds = 0
    enum LineEnds { case unknown, lineFeed, carriageReturnLineFeed }
    /// How many bytes of the completed record's raw text its line end takes (1 for LF, 2 for CRLF).
    private(set) var terminatorLength = 1
    /// Why strict mode stopped, if it did: text after a closing quote, or a quote open at a line end.
    private(set) var failure: CSVError.Kind?
    var failed: Bool { failure != nil }

    init(dialect: CSVDialect, escape: UInt8, record: _RecordBuffer) {
        self.record = record
        delimiter = dialect.delimiter
        quote = dialect.quote
        self.escape = escape
        trims = dialect.trimsSpaces
        strict = dialect.strict
        headerLine = dialect.hasHeader
        field = .allocate(capacity: fieldCapacity)
    }

    deinit { field.deallocate() }

    /// Tells how the file's lines end from its first bytes (`sample`), whatever the chunk size. MySQL
    /// escapes the first byte of its line terminator and writes other CRs and LFs in text as they are:
    /// - an escaped CR (and no escaped LF): CRLF lines (`LINES TERMINATED BY '\r\n'`), where a bare LF is text;
    /// - an escaped LF (and no escaped CR): LF lines, where a CR before the LF is text;
    /// - else, when LF after CR ends at least two lines and twice as many as a bare LF does (the header's
    ///   line end, with `hasHeader`, not counted: `echo header; cat export` writes it apart): CRLF lines;
    /// - else every LF ends a line and a CR before it is part of the line end (``LineEnds/unknown``), which
    ///   reads PostgreSQL's files, LF or CRLF, and MySQL's but for an LF in the text of a CRLF export with
    ///   few rows (counted: ``bareLineFeedEnds``, ``carriageReturnLineFeedEnds``); an escaped CR or LF
    ///   met later decides then.
    func presetLineEnds(from sample: [UInt8], hasHeader: Bool) {
        var escapedCR = false, escapedLF = false, afterCR = 0, bare = 0
        var escapes = 0  // the run of escape bytes before the current byte
        var firstLineEnd = true
        for (i, byte) in sample.enumerated() {
            let escaped = escapes % 2 == 1
            if byte == 0x0D && escaped { escapedCR = true }
            if byte == 0x0A {
                if escaped {
                    escapedLF = true
                } else {
                    let crlf = i > 0 && sample[i - 1] == 0x0D && !(i > 1 && sample[i - 2] == escape)
                    if !(firstLineEnd && hasHeader) { if crlf { afterCR += 1 } else { bare += 1 } }
                    firstLineEnd = false
                }
            }
            escapes = byte == escape ? escapes + 1 : 0
        }
        if escapedCR && !escapedLF {
            lineEnds = .carriageReturnLineFeed
        } else if escapedLF && !escapedCR {
            lineEnds = .lineFeed
        } else if !escapedCR && afterCR >= 2 && afterCR >= 2 * bare {
            lineEnds = .carriageReturnLineFeed
        }
    }

    /// Reads lines as `chosen` says (``CSVDialect/escapedLineEnd``), whatever the text says.
    func fixLineEnds(_ chosen: CSVDialect.EscapedLineEnd) {
        lineEnds = chosen == .lineFeed ? .lineFeed : .carriageReturnLineFeed
        lineEndsFixed = true
    }

    /// Whether the input so far ends inside a quoted field.
    var isInsideQuotedField: Bool { inQuotes }

    /// Parses `count` bytes that the scanner has just appended to the record's raw capture; returns how
    /// many were consumed (fewer only when strict mode stops at a misplaced quote).
    func parse(_ bytes: UnsafePointer<UInt8>, count: Int) -> Int {
        let base = record.rawCount - count
        var i = 0
        while i < count {
            let byte = bytes[i]
            let rawIndex = base + i
            i += 1
            if atRecordStart { startRecord() }
            if escaping {
                escaping = false
                // An escaped CR or LF met while nothing has told how lines end tells it now.
                if lineEnds == .unknown && !lineEndsFixed && (byte == 0x0D || byte == 0x0A) {
                    lineEnds = byte == 0x0D ? .carriageReturnLineFeed : .lineFeed
                }
                takeEscaped(byte)
                continue
            }
            if pendingCR {
                pendingCR = false
                if byte == 0x0A && lineEnds != .lineFeed {  // CRLF: a line end, but in a file of LF lines
                    if lineEnds == .unknown { carriageReturnLineFeedEnds += 1 }
                    if !endLine(at: rawIndex, terminator: 2) { return i - 1 }
                    continue
                }
                if !takeCarriageReturnAsData() { return i - 1 }
            }
            // A bare LF ends the line in a file of LF lines; in a file of CRLF lines it is data (MySQL's
            // LINES TERMINATED BY '\r\n' leaves it unescaped).
            if byte == 0x0A && (lineEnds != .carriageReturnLineFeed || headerLine) {
                if lineEnds == .unknown { bareLineFeedEnds += 1 }
                if !endLine(at: rawIndex, terminator: 1) { return i - 1 }
                continue
            }
            if byte == 0x0D {
                pendingCR = true
                pendingCRIndex = rawIndex
                continue
            }
            if afterQuote {
                afterQuote = false
                if byte == quote {  // a doubled quote
                    inQuotes = true
                    recordDoubledQuote = true
                    append(quote, space: false)
                    continue
                }
                if trims && (byte == 0x20 || byte == 0x09) && byte != delimiter {
                    afterQuote = true
                    continue
                }
                if byte != delimiter && !takeStray(at: rawIndex) { return i - 1 }
            }
            if inQuotes {
                if byte == escape {
                    escaping = true
                } else if byte == quote {
                    inQuotes = false
                    afterQuote = true
                    openQuoteIndex = -1
                } else {
                    append(byte, space: false)
                }
                continue
            }
            if byte == delimiter {
                if atFieldStart { fieldRawStart = rawIndex }
                endField()
                continue
            }
            // `\N` then spaces, in a file that trims: still null unless more text follows (kept after N then).
            if nullMarker && trims && (byte == 0x20 || byte == 0x09) {
                append(byte, space: true)
                continue
            }
            flushNullMarker()
            if byte == escape {
                escaping = true
                if atFieldStart { beginField(at: rawIndex) }
                continue
            }
            if atFieldStart {
                if trims && (byte == 0x20 || byte == 0x09) { continue }
                beginField(at: rawIndex)
                if byte == quote && quote != CSVDialect.noQuote {
                    quoted = true
                    inQuotes = true
                    recordQuoted = true
                    openQuoteIndex = rawIndex
                    openQuoteField = record.fieldCount
                    continue
                }
            }
            append(byte, space: byte == 0x20 || byte == 0x09)
        }
        return count
    }

    /// A byte other than the delimiter after a closing quote: the quote was data and the field goes on
    /// unquoted; the first such byte of the record is remembered for ``CSVRawRecord/validateQuotes()``.
    /// Returns `false` when strict mode stops there.
    private func takeStray(at rawIndex: Int) -> Bool {
        if strayIndex < 0 {
            strayIndex = rawIndex
            strayField = record.fieldCount
        }
        if strict {
            failure = .textAfterClosingQuote
            return false
        }
        append(quote, space: false)
        quoted = false
        return true
    }

    /// A CR not followed by the line feed of a line end: data. Returns `false` when strict mode stops (a
    /// CR after a closing quote).
    private func takeCarriageReturnAsData() -> Bool {
        flushNullMarker()
        if afterQuote {
            afterQuote = false
            if !takeStray(at: pendingCRIndex) { return false }
        }
        if atFieldStart { beginField(at: pendingCRIndex) }
        append(0x0D, space: false)
        return true
    }

    /// A line end (`terminator` bytes ending at `rawIndex`) ends the record, even inside an open quote:
    /// such exports escape line ends inside values, so a quote still open there opened no quoted field,
    /// and the record is reported (``unclosedQuoteIndex``) rather than run on through the file. Returns
    /// `false` when strict mode stops there.
    private func endLine(at rawIndex: Int, terminator: Int) -> Bool {
        afterQuote = false
        if inQuotes {
            if unclosedQuoteIndex < 0 {
                unclosedQuoteIndex = openQuoteIndex
                unclosedQuoteField = openQuoteField
            }
            inQuotes = false
            if strict {
                failure = .unterminatedQuote
                return false
            }
        }
        if atFieldStart { fieldRawStart = rawIndex - terminator + 1 }
        endRecord(terminator: terminator)
        return true
    }

    /// Ends the input: a record without a final line end is submitted. Returns `false` in strict mode when
    /// a quoted field is still open.
    func finish() -> Bool {
        defer { reset() }
        if atRecordStart { return true }
        if escaping {  // a lone escape byte at the very end stands for itself
            escaping = false
            append(escape, space: false)
        }
        // A final CR is a line end.
        if pendingCR { pendingCR = false }
        if inQuotes {
            if strict { return false }
            if unclosedQuoteIndex < 0 {
                unclosedQuoteIndex = openQuoteIndex
                unclosedQuoteField = openQuoteField
            }
            inQuotes = false
        }
        endRecord(terminator: 0)
        return true
    }

    private func reset() {
        atRecordStart = true
        atFieldStart = true
        inQuotes = false
        afterQuote = false
        escaping = false
        pendingCR = false
        nullMarker = false
    }

    private func startRecord() {
        atRecordStart = false
        atFieldStart = true
        openQuoteIndex = -1
        strayIndex = -1
        unclosedQuoteIndex = -1
        recordQuoted = false
        recordDoubledQuote = false
        failure = nil
        terminatorLength = 1
    }

    /// `\N` followed by more than a line end or delimiter: the N was only an escaped N.
    @inline(__always)
    private func flushNullMarker() {
        guard nullMarker else { return }
        nullMarker = false
        // Spaces held after the marker (a file that trims) come after the N.
        let held = fieldLength
        append(UInt8(ascii: "N"), space: false)
        if held > 0 {
            memmove(field + 1, field, held)
            field[0] = UInt8(ascii: "N")
            trailingSpaces = held
        }
    }

    private func beginField(at rawIndex: Int) {
        atFieldStart = false
        fieldRawStart = rawIndex
    }

    @inline(__always)
    private func takeEscaped(_ byte: UInt8) {
        let decoded: UInt8
        switch byte {
        case UInt8(ascii: "N") where fieldLength == 0 && !hadEscape && !quoted:
            hadEscape = true
            nullMarker = true
            return
        case UInt8(ascii: "0"): decoded = 0x00
        case UInt8(ascii: "b"): decoded = 0x08
        case UInt8(ascii: "f"): decoded = 0x0C
        case UInt8(ascii: "n"): decoded = 0x0A
        case UInt8(ascii: "r"): decoded = 0x0D
        case UInt8(ascii: "t"): decoded = 0x09
        case UInt8(ascii: "v"): decoded = 0x0B
        case UInt8(ascii: "Z"): decoded = 0x1A
        default: decoded = byte
        }
        hadEscape = true
        append(decoded, space: false)
    }

    @inline(__always)
    private func append(_ byte: UInt8, space: Bool) {
        if fieldLength == fieldCapacity {
            fieldCapacity *= 2
            let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: fieldCapacity)
            grown.update(from: field, count: fieldLength)
            field.deallocate()
            field = grown
        }
        field[fieldLength] = byte
        fieldLength += 1
        trailingSpaces = space ? trailingSpaces + 1 : 0
    }

    /// Submits the current field and starts the next.
    private func endField() {
        if afterQuote { afterQuote = false }
        var length = fieldLength
        if trims && !quoted { length -= trailingSpaces }
        if nullMarker {
            // `\N` alone: handed over as written, unquoted (text holding an escape is reported quoted, so
            // these two bytes unquoted mean null and nothing else).
            field[0] = escape
            field[1] = UInt8(ascii: "N")
            length = 2
        }
        let kind: _RecordBuffer.EscapedFieldKind = !nullMarker && (quoted || hadEscape) ? .literal : .plain
        record.appendEscapedField(field, length, kind: kind, rawStart: fieldRawStart)
        fieldLength = 0
        trailingSpaces = 0
        quoted = false
        hadEscape = false
        nullMarker = false
        atFieldStart = true
    }

    /// Ends the record at a line end of `terminator` bytes (0 at the end of the input).
    private func endRecord(terminator: Int) {
        let endOfLine = record.rawCount - (terminator > 0 ? 1 : 0) - (terminator == 2 ? 1 : 0)
        // A line with nothing on it is blank (no fields, as libcsv reports it); so is PostgreSQL's `\.`.
        let isBlankLine = record.fieldCount == 0 && atFieldStart && fieldLength == 0 && !nullMarker && !hadEscape
        let isEndMarker = record.fieldCount == 0 && fieldLength == 1 && hadEscape && !quoted
            && field[0] == UInt8(ascii: ".") && endOfLine == 2
        if isEndMarker { endOfData = true }
        if isBlankLine || isEndMarker {
            fieldLength = 0
            hadEscape = false
            atFieldStart = true
        } else {
            endField()
        }
        terminatorLength = terminator
        record.rowEnded = true
        atRecordStart = true
        headerLine = false
    }
}
