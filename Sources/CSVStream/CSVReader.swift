#if canImport(Glibc)
import Glibc  // memchr
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads CSV records one at a time from a file or from memory, through libcsv, in fixed-size chunks.
///
/// The whole input is never loaded: the file is read with a fixed buffer (``defaultChunkSize``, 64 KiB)
/// and fed to libcsv's `csv_parse`. Quoting follows RFC 4180 (doubled quotes, delimiters and line breaks
/// inside quotes); records may end with LF, CRLF or a bare CR; a UTF-8 byte-order mark is skipped; the last
/// record needs no terminator. Fields are decoded with the dialect's ``CSVDialect/encoding``, strictly.
///
/// Swift's `Sequence` cannot throw, so iterate with ``next()`` or ``forEachRecord(_:)``. Every record knows
/// its 1-based start line and byte offset. Errors are ``CSVError``s with the path, line, field and byte
/// offset; an encoding error skips only its record (``CSVError/isRecoverable``), so a caller can log it with
/// ``lastRecordRawText`` and go on.
///
/// For example:
///
/// ```swift
/// let reader = try CSVReader(path: "banklist.csv", dialect: .csv)
/// print(reader.header ?? [])                 // ["Bank Name", "City ", …]
/// while let record = try reader.next() {
///     print(record.lineNumber, record[0])    // 2 Heartland Tri-State Bank
/// }
/// ```
///
/// A reader is not thread-safe; use it from one task at a time.
///
/// - Complexity: O(n) in the input. Per record: one `[String]` allocation plus one per field longer than
///   15 UTF-8 bytes (shorter Strings are stored inline). Parsing buffers are reused between records.
///   ``forEachRawRecord(_:)`` avoids the Strings altogether.
public final class CSVReader {
    /// The read buffer size used when none is given: 64 KiB.
    public static let defaultChunkSize = 64 * 1024

    /// How the input is written.
    public let dialect: CSVDialect
    /// The header row as written in the file (spaces kept), or `nil` when the dialect has no header or the
    /// input is empty.
    public private(set) var header: [String]?
    /// The header row's bytes as in the input (quotes and spaces kept, no terminator, no byte-order mark), or
    /// `nil` without a header: a caller can tell a row that repeats the header byte for byte (files
    /// concatenated with their headers) from data that merely reads the same (`"name"` under `name`).
    public private(set) var headerRawBytes: [UInt8]?

    let scanner: _RecordScanner
    /// Whether the delimiter, quote and escape byte are ASCII, which lets ``makeRecord()`` validate a record at once.
    private let hasASCIISyntax: Bool

    /// Opens a file and, when the dialect has a header, reads the header row.
    ///
    /// For example:
    ///
    /// ```swift
    /// let reader = try CSVReader(path: "data.tsv", dialect: .tsv)
    /// ```
    ///
    /// - Parameters:
    ///   - path: The file to read.
    ///   - dialect: How the file is written.
    ///   - chunkSize: The read buffer size in bytes (at least 1).
    /// - Throws: ``CSVError`` with kind ``CSVError/Kind/io`` when the file cannot be opened, or any error
    ///   the header row raises.
    public convenience init(path: String, dialect: CSVDialect = .csv, chunkSize: Int = CSVReader.defaultChunkSize)
        throws(CSVError)
    {
        try dialect.validate(path: path)
        try self.init(source: try _ByteSource(path: path), dialect: dialect, chunkSize: chunkSize)
    }

    /// Reads CSV from bytes in memory (chunked all the same, so tests exercise the file path).
    ///
    /// For example:
    ///
    /// ```swift
    /// let reader = try CSVReader(bytes: Array("a,b\n1,2\n".utf8), chunkSize: 3)
    /// ```
    public convenience init(bytes: [UInt8], dialect: CSVDialect = .csv, chunkSize: Int = CSVReader.defaultChunkSize)
        throws(CSVError)
    {
        try dialect.validate(path: nil)
        try self.init(source: _ByteSource(bytes: bytes), dialect: dialect, chunkSize: chunkSize)
    }

    /// Reads CSV from a string's UTF-8 bytes.
    ///
    /// For example:
    ///
    /// ```swift
    /// let reader = try CSVReader(string: "name,age\nAda,36\n")
    /// ```
    public convenience init(string: String, dialect: CSVDialect = .csv, chunkSize: Int = CSVReader.defaultChunkSize)
        throws(CSVError)
    {
        try self.init(bytes: Array(string.utf8), dialect: dialect, chunkSize: chunkSize)
    }

    init(source: _ByteSource, dialect: CSVDialect, chunkSize: Int) throws(CSVError) {
        self.dialect = dialect
        hasASCIISyntax = dialect.delimiter < 0x80 && dialect.quote < 0x80 && (dialect.escape ?? 0) < 0x80
        scanner = try _RecordScanner(source: source, dialect: dialect, chunkSize: chunkSize)
        if dialect.hasHeader, try scanner.advance() {
            do throws(CSVError) {
                header = try makeRecord().fields
                headerRawBytes = lastRecordRawBytes
                // The header's quotes are not values' (a quoted header is no sign the values are quoted).
                scanner.forgetEscapedCounts()
                // A header with a malformed quote has garbled names (`"a"b,c` is one name): no column can
                // be found by name.
                if !scanner.isBlank, let error = closingQuoteError() ?? unterminatedQuoteError() { throw error }
            } catch {
                var headerError = error
                headerError.isRecoverable = false  // there is no reader to go on with
                throw headerError
            }
        }
    }

    /// The file being read, or `nil` for input in memory.
    public var path: String? { scanner.source.path }

    /// The header with leading and trailing whitespace removed from each name (`"City "` becomes `"City"`).
    public var trimmedHeader: [String]? {
        header?.map(CSVReader.trimmingWhitespace)
    }

    /// Whether the input started with a UTF-8 byte-order mark (EF BB BF), which the reader skipped. The
    /// mark says the bytes are UTF-8, whatever ``CSVDialect/encoding`` says: read as Windows-1252 or
    /// Latin-1, the file's accented letters would come out garbled (`é` as `Ã©`), so a caller may warn.
    ///
    /// For example:
    ///
    /// ```swift
    /// let reader = try CSVReader(path: "people.csv", dialect: dialect)
    /// if reader.skippedByteOrderMark && dialect.encoding != .utf8 { print("warning: the file says it is UTF-8") }
    /// ```
    public var skippedByteOrderMark: Bool { scanner.skippedByteOrderMark }

    /// How many input bytes have been parsed so far (a byte-order mark included), for progress.
    public var bytesRead: Int64 { scanner.bytesConsumed }

    /// The size of the input when known (regular files and memory; `nil` for pipes).
    public var fileSize: Int64? { scanner.source.size }

    /// In a Latin-1 input, the bytes 0x80–0x9F of the records read so far (checked as a record's encoding
    /// is: ``next()``, ``CSVRawRecord/validateEncoding()``). Latin-1 reads them as invisible C1 control
    /// characters, Windows-1252 as `€`, `‘ ’ “ ”`, `–` and `—`: text holds the latter, so such bytes
    /// almost always mean the input is Windows-1252. 0 for other encodings.
    ///
    /// For example:
    ///
    /// ```swift
    /// let reader = try CSVReader(bytes: [0x61, 0x0A, 0x93, 0x78, 0x94, 0x0A], dialect: CSVDialect(encoding: .latin1))
    /// _ = try reader.readAll()
    /// reader.latin1ControlBytes   // 2, the first on line 2 (firstLatin1ControlLine)
    /// ```
    public private(set) var latin1ControlBytes = 0
    /// The line of the first of ``latin1ControlBytes``, or `nil` when there is none.
    public private(set) var firstLatin1ControlLine: Int?
    /// In an input read as Windows-1252 or Latin-1, the records that are not all ASCII and are valid UTF-8
    /// (``utf8LookingRecords``, the first on ``firstUTF8LookingLine``) and those that are not
    /// (``otherNonASCIIRecords``): when every such record is valid UTF-8, the input is almost surely UTF-8
    /// read in the wrong encoding (`ü` stored as `Ã¼`). 0 for UTF-8 input.
    ///
    /// ```swift
    /// let reader = try CSVReader(bytes: Array("a\nM\u{FC}nchen\n".utf8), dialect: CSVDialect(encoding: .windows1252))
    /// _ = try reader.readAll()
    /// reader.utf8LookingRecords   // 1, on line 2
    /// ```
    public private(set) var utf8LookingRecords = 0
    /// The line of the first of ``utf8LookingRecords``.
    public private(set) var firstUTF8LookingLine: Int?
    /// See ``utf8LookingRecords``.
    public private(set) var otherNonASCIIRecords = 0
    /// Of ``latin1ControlBytes``, those Windows-1252 leaves undefined too (0x81, 0x8D, 0x8F, 0x90, 0x9D):
    /// when they are all of them, the input is not Windows-1252 either.
    public private(set) var latin1ControlBytesUndefinedInWindows1252 = 0

    /// Records after the first whose line started with a UTF-8 byte-order mark: files joined with `cat`
    /// keep each one's mark, which is not data. It is skipped before parsing, as the input's own is (a
    /// quote after it opens a quoted field); ``firstDroppedByteOrderMarkLine`` is the first such record's line.
    ///
    /// ```swift
    /// let reader = try CSVReader(bytes: Array("a\nx\n\u{FEFF}y\n".utf8), dialect: .csv)
    /// try reader.readAll().map { $0.fields }   // [["x"], ["y"]]; reader.droppedByteOrderMarks == 1
    /// ```
    public var droppedByteOrderMarks: Int { scanner.droppedByteOrderMarks }
    /// The line of the first of ``droppedByteOrderMarks``.
    public var firstDroppedByteOrderMarkLine: Int? { scanner.firstDroppedByteOrderMarkLine }

    /// Counts the bytes 0x80–0x9F of a Latin-1 record that is not all ASCII (``latin1ControlBytes``).
    private func noteLatin1Controls(in raw: UnsafeBufferPointer<UInt8>) {
        var found = 0, first = -1, undefined = 0
        for index in raw.indices where raw[index] & 0xE0 == 0x80 {
            if first < 0 { first = index }
            found += 1
            switch raw[index] {
            case 0x81, 0x8D, 0x8F, 0x90, 0x9D: undefined += 1
            default: break
            }
        }
        guard found > 0 else { return }
        if firstLatin1ControlLine == nil { firstLatin1ControlLine = scanner.line(ofRecordByte: first, in: raw) }
        latin1ControlBytes += found
        latin1ControlBytesUndefinedInWindows1252 += undefined
    }

    /// ``bytesRead`` over ``fileSize``, from 0 to 1, when the size is known.
    public var progress: Double? {
        guard let fileSize else { return nil }
        return fileSize == 0 ? 1 : Double(bytesRead) / Double(fileSize)
    }

    /// The 0-based index of the header column called `name`, matching exactly first and then after trimming
    /// whitespace on both sides; `nil` when there is no such column or no header.
    ///
    /// For example:
    ///
    /// ```swift
    /// let city = reader.columnIndex(named: "City")  // 1, although the file says "City "
    /// ```
    ///
    /// - Complexity: O(number of columns); look indices up once, before the loop.
    public func columnIndex(named name: String) -> Int? {
        guard let header else { return nil }
        if let index = header.firstIndex(of: name) { return index }
        let wanted = CSVReader.trimmingWhitespace(name)
        return header.firstIndex { CSVReader.trimmingWhitespace($0) == wanted }
    }

    /// Reads the next record, or returns `nil` at the end of the input.
    ///
    /// Quoting is read as libcsv reads it unless the dialect is ``CSVDialect/strict``: a record with text
    /// after a closing quote (`"ab"cd`) or a quote never closed comes back with its fields as libcsv made
    /// them (`ab"cd`), without an error. To find such records, read with a strict dialect (which stops at
    /// the first), or read raw records and call ``CSVRawRecord/validateQuotes()`` (which reports each and
    /// goes on), as the importer does.
    ///
    /// After an error with ``CSVError/isRecoverable`` set, the record has been skipped and the next call
    /// goes on with the following one; after any other error, every later call throws it again.
    ///
    /// For example:
    ///
    /// ```swift
    /// while let record = try reader.next() {
    ///     guard !record.isBlank else { continue }
    ///     try insert(record)
    /// }
    /// ```
    ///
    /// - Complexity: O(length of the record).
    public func next() throws(CSVError) -> CSVRecord? {
        guard try scanner.advance() else { return nil }
        return try makeRecord()
    }

    /// Calls `body` with every remaining record, in order.
    ///
    /// For example:
    ///
    /// ```swift
    /// try reader.forEachRecord { record in rows += 1 }
    /// ```
    ///
    /// - Throws: The first ``CSVError`` (encoding errors included; use ``next()`` to skip them instead), or
    ///   whatever `body` throws.
    public func forEachRecord(_ body: (CSVRecord) throws -> Void) throws {
        while let record = try next() {
            try body(record)
        }
    }

    /// Reads every remaining record into an array: for small inputs and tests.
    ///
    /// For example:
    ///
    /// ```swift
    /// let rows = try CSVReader(string: "a\n1\n2\n").readAll().map(\.fields)  // [["1"], ["2"]]
    /// ```
    ///
    /// - Complexity: O(n) time and memory.
    public func readAll() throws(CSVError) -> [CSVRecord] {
        var records: [CSVRecord] = []
        while let record = try next() { records.append(record) }
        return records
    }

    /// Decodes the scanner's completed record.
    func makeRecord() throws(CSVError) -> CSVRecord {
        if scanner.loneCarriageReturn >= 0, let error = loneCarriageReturnError() { throw error }
        let buffer = scanner.record
        let length = scanner.recordLength
        if scanner.isBlank {
            return CSVRecord(
                fields: [""], lineNumber: scanner.recordLine, byteOffset: scanner.recordStart, byteCount: length,
                isBlank: true)
        }
        let count = buffer.fieldCount
        let encoding = dialect.encoding
        // One check of the whole raw record replaces a check per field: fields are the raw bytes minus
        // quotes, delimiters and trimmed spaces. ASCII stays ASCII; and when the delimiter and quote are ASCII,
        // removing them (they cannot sit inside a multi-byte sequence) keeps valid UTF-8 valid.
        let raw = buffer.rawBytes(count: buffer.rawCount)
        let fields: [String]
        if _UTF8Validator.isASCII(raw)
            || (encoding == .utf8 && hasASCIISyntax && _UTF8Validator.firstInvalidIndex(in: raw) == nil)
        {
            fields = [String](unsafeUninitializedCapacity: count) { storage, initialized in
                for index in 0..<count {
                    (storage.baseAddress! + index).initialize(to: String(decoding: buffer.field(index), as: UTF8.self))
                }
                initialized = count
            }
        } else {
            if encoding == .latin1 { noteLatin1Controls(in: raw) }
            var decoded: [String] = []
            decoded.reserveCapacity(count)
            for index in 0..<count {
                guard let field = encoding.decodeIfValid(buffer.field(index)) else {
                    throw encodingError(inField: index)
                }
                decoded.append(field)
            }
            fields = decoded
        }
        return CSVRecord(
            fields: fields, lineNumber: scanner.recordLine, byteOffset: scanner.recordStart, byteCount: length)
    }

    /// The index of the first field of the scanner's completed record holding a byte the encoding does not
    /// define, or `nil` when every field is valid.
    ///
    /// - Complexity: O(length of the record): one check of the raw bytes, field by field only when it fails.
    @inline(__always)
    func firstInvalidField() -> Int? {
        let encoding = dialect.encoding
        let buffer = scanner.record
        let raw = buffer.rawBytes(count: scanner.recordLength)
        if _UTF8Validator.isASCII(raw) { return nil }
        // A record of another encoding that reads as UTF-8: counted, to tell a UTF-8 file read wrongly.
        if encoding != .utf8 {
            if TextEncoding.utf8.firstInvalidByteIndex(in: raw) == nil {
                if firstUTF8LookingLine == nil { firstUTF8LookingLine = scanner.recordLine }
                utf8LookingRecords += 1
            } else {
                otherNonASCIIRecords += 1
            }
        }
        // Every byte is Latin-1; only 0x80–0x9F are counted, in records that are not all ASCII.
        if encoding == .latin1 {
            noteLatin1Controls(in: raw)
            return nil
        }
        // Fields are the raw bytes minus ASCII quotes, delimiters and spaces: with an ASCII delimiter and
        // quote, valid raw bytes make valid fields (see makeRecord()).
        if hasASCIISyntax && encoding.firstInvalidByteIndex(in: raw) == nil { return nil }
        for index in 0..<buffer.fieldCount where encoding.firstInvalidByteIndex(in: buffer.field(index)) != nil {
            return index
        }
        return nil
    }

    /// When the input ended inside one of the current record's quoted fields (a quote never closed), the
    /// error naming where the field opens; `nil` otherwise. The record ends with the quote's line and the
    /// lines after it are read as records (outside strict mode, which throws
    /// ``CSVError/Kind/unterminatedQuote`` while reading instead).
    func unterminatedQuoteError() -> CSVError? {
        // Escaped text ends a record at its line end, quote or not: closingQuoteError() reports it.
        guard scanner.endedInsideQuotes, scanner.escapedParser == nil else { return nil }
        let raw = scanner.record.rawBytes(count: scanner.recordLength)
        guard let opened = scanner.openQuote(in: raw) else { return nil }
        let line = scanner.line(ofRecordByte: opened.index, in: raw)
        let lastLine = scanner.line(ofRecordByte: raw.count, in: raw)
        let later = scanner.linesAfterUnclosedQuote
        let rest =
            later > 0
            ? "\(_RecordScanner.grouped(later)) line\(later == 1 ? "" : "s") later; the record ends with this line and the lines after it are read as records"
            : lastLine == line ? "on the same line: is the file cut short?"
            : "\(_RecordScanner.grouped(lastLine - line)) line\(lastLine - line == 1 ? "" : "s") later, all read into this field"
        var error = CSVError(
            kind: .unterminatedQuote,
            message: "the quote that opens field \(opened.field + 1) is never closed: the input ends \(rest)",
            line: line, byteOffset: scanner.recordStart + Int64(opened.index))
        error.path = path
        error.column = opened.field + 1
        error.recordLine = scanner.recordLine
        error.isRecoverable = true
        return error
    }

    /// When a bare CR in an unquoted field of the current record would have ended it in a file of LF or CRLF
    /// lines (the scanner ran the record on to the next line end), the error naming that CR's line and
    /// field; `nil` otherwise.
    func loneCarriageReturnError() -> CSVError? {
        let index = scanner.loneCarriageReturn
        guard index >= 0 else { return nil }
        let raw = scanner.record.rawBytes(count: scanner.recordLength)
        let line = scanner.line(ofRecordByte: index, in: raw)
        let ending = scanner.lineEnding == .carriageReturnLineFeed ? "CRLF" : "LF"
        return recordError(
            .loneCarriageReturn,
            "field \(scanner.loneCarriageReturnField + 1) on line \(line) holds a lone carriage return (CR, byte 0x0D, not followed by a line feed) outside quotes, in a file whose lines end with \(ending): it is not a line end here, so the record runs on to the next \(ending)",
            at: index, in: raw, field: scanner.loneCarriageReturnField)
    }

    /// The first closing quote of the current record followed by text other than the delimiter or a line
    /// end (see ``CSVRawRecord/validateQuotes()``), as an error; `nil` when there is none.
    func closingQuoteError() -> CSVError? {
        let raw = scanner.record.rawBytes(count: scanner.recordLength)
        if let escaped = scanner.escapedParser { return escapedQuoteError(escaped, raw: raw) }
        guard let base = raw.baseAddress, memchr(base, Int32(dialect.quote), raw.count) != nil else { return nil }
        var scan = _QuoteScan()
        guard let i = scan.nextStray(in: raw, delimiter: dialect.delimiter, quote: dialect.quote, trims: dialect.trimsSpaces)
        else { return nil }
        let line = scanner.line(ofRecordByte: i, in: raw)
        let shown = raw[i] >= 0x20 && raw[i] < 0x7F ? "'\(Character(Unicode.Scalar(raw[i])))'" : "byte 0x\(raw[i].hexDigits)"
        var message = "\(shown) follows the closing quote of field \(scan.field + 1) instead of the delimiter or a line end"
        if raw[i] == 0x20 || raw[i] == 0x09 {
            // `"Ann" ,`: a space after the quote, which a dialect that trims spaces drops.
            message += " (spaces around a quoted field are dropped only when the file trims: --trim, or \"trim\": true in a mapping)"
        }
        // A quoted field over several lines whose "closing" quote has text after it: most likely its opening
        // quote was never closed, and a later quote of the file (one opening another field) was taken for it.
        let opened = scanner.line(ofRecordByte: scan.openingQuote, in: raw)
        if opened < line {
            var lineStart = scan.openingQuote
            while lineStart > 0 && raw[lineStart - 1] != 0x0A && raw[lineStart - 1] != 0x0D { lineStart -= 1 }
            // Characters, not bytes: UTF-8 continuation bytes do not count.
            let character = 1 + raw[lineStart..<scan.openingQuote].count { $0 & 0xC0 != 0x80 }
            let later = line - opened
            message =
                "the quote that opens field \(scan.field + 1) on line \(opened) (character \(character)) is probably never closed there: "
                + "\(_RecordScanner.grouped(later)) line\(later == 1 ? "" : "s") later, on line \(line), \(shown) follows the quote taken as its closing one "
                + "instead of the delimiter or a line end, so lines \(opened) to \(line) were read as one record"
        }
        var error = CSVError(
            kind: .textAfterClosingQuote, message: message, line: line, byteOffset: scanner.recordStart + Int64(i))
        if opened < line { error.openingQuoteLine = opened }
        error.path = path
        error.column = scan.field + 1
        error.recordLine = scanner.recordLine
        error.isRecoverable = true
        return error
    }

    /// The escaped-format parser's first stray byte after a closing quote in the current record (see
    /// ``CSVRawRecord/validateQuotes()``), as an error; `nil` when there is none.
    func escapedQuoteError(_ escaped: _EscapedParser, raw: UnsafeBufferPointer<UInt8>) -> CSVError? {
        let open = escaped.unclosedQuoteIndex
        if open >= 0 && open < raw.count {
            var error = recordError(
                .unterminatedQuote,
                "the quote that opens field \(escaped.unclosedQuoteField + 1) is not closed on its line; text written with escapes "
                    + "escapes the line ends inside its values, so the record ends with the line (PostgreSQL's text format and MySQL's "
                    + "default OUTFILE never quote: there a value starting with \(Character(Unicode.Scalar(dialect.quote))) is text)",
                at: open, in: raw, field: escaped.unclosedQuoteField)
            error.escape = dialect.escape
            return error
        }
        let i = escaped.strayIndex
        guard i >= 0, i < raw.count else { return nil }
        let shown = raw[i] >= 0x20 && raw[i] < 0x7F ? "'\(Character(Unicode.Scalar(raw[i])))'" : "byte 0x\(raw[i].hexDigits)"
        let quote = Character(Unicode.Scalar(dialect.quote))
        return recordError(
            .textAfterClosingQuote,
            "\(shown) follows the closing quote of field \(escaped.strayField + 1) instead of the delimiter or a line end "
                + "(with an escape byte, a quote inside a quoted field is written escaped or doubled; if the file never quotes "
                + "its fields, as PostgreSQL's text format, a value starting with \(quote) is not quoted: read it without a quote byte)",
            at: i, in: raw, field: escaped.strayField)
    }

    /// A recoverable error about the current record, at byte `index` of its raw bytes `raw` (its line and
    /// offset), in 0-based `field`.
    func recordError(_ kind: CSVError.Kind, _ message: String, at index: Int, in raw: UnsafeBufferPointer<UInt8>, field: Int) -> CSVError {
        var error = CSVError(kind: kind, message: message, line: scanner.line(ofRecordByte: index, in: raw),
                             byteOffset: scanner.recordStart + Int64(index))
        error.path = path
        error.column = field + 1
        error.recordLine = scanner.recordLine
        error.isRecoverable = true
        return error
    }

    /// Records of escaped text (``CSVDialect/escape``) holding a field the quote opened (MySQL's
    /// `ENCLOSED BY`), and the first one's line: a file that never quotes (PostgreSQL's text format) has
    /// values starting with a quote read without it, so a caller may warn when the quote was not chosen.
    public var enclosedRecords: Int { scanner.enclosedRecords }
    public var firstEnclosedLine: Int? { scanner.firstEnclosedLine }
    /// Records of escaped text holding a doubled quote inside quotes, RFC 4180's way to write a quote,
    /// which neither MySQL nor PostgreSQL writes (a sign the file is plain CSV), and the first one's line.
    public var doubledQuoteRecords: Int { scanner.doubledQuoteRecords }
    public var firstDoubledQuoteLine: Int? { scanner.firstDoubledQuoteLine }
    /// The line of PostgreSQL's end-of-data marker (`\.` alone on a line) in escaped text, where reading
    /// stopped, and whether the input holds more after it (not read).
    public var endOfDataLine: Int? { scanner.endOfDataLine }
    /// In escaped text read with every LF a line end (nothing at its start said how lines end), how many
    /// lines ended with a bare LF and how many with CR LF: both may mean a MySQL export of CRLF lines whose
    /// text holds LFs, read as line ends.
    public var escapedLineEnds: (lineFeed: Int, carriageReturnLineFeed: Int) {
        (scanner.escapedParser?.bareLineFeedEnds ?? 0, scanner.escapedParser?.carriageReturnLineFeedEnds ?? 0)
    }
    public var hasBytesAfterEndOfData: Bool { scanner.hasBytesAfterEndOfData }

    /// The error for an undecodable field, located at the first bad byte of the field's raw text (or, should
    /// the raw text be valid where the unquoted field is not, at the field's first raw byte).
    func encodingError(inField index: Int) -> CSVError {
        let encoding = dialect.encoding
        let buffer = scanner.record
        let length = scanner.recordLength
        func rawStart(_ field: Int) -> Int {
            buffer.rawStart(
                of: field, length: length, delimiter: dialect.delimiter, quote: dialect.quote,
                trimsSpaces: dialect.trimsSpaces)
        }
        let raw = buffer.rawBytes(count: length)
        let start = Swift.min(rawStart(index), raw.count)
        let end = index + 1 < buffer.fieldCount ? Swift.max(start, Swift.min(rawStart(index + 1), raw.count)) : raw.count
        let span = UnsafeBufferPointer(rebasing: raw[start..<end])
        let rawIndex = encoding.firstInvalidByteIndex(in: span).map { start + $0 }
        let line = scanner.line(ofRecordByte: rawIndex ?? start, in: raw)
        let message: String
        if let rawIndex {
            message = encoding.invalidByteMessage(raw, at: rawIndex)
        } else {
            let field = buffer.field(index)
            message = encoding.invalidByteMessage(field, at: encoding.firstInvalidByteIndex(in: field) ?? 0)
        }
        var error = CSVError(
            kind: .invalidEncoding, message: message, line: line,
            byteOffset: scanner.recordStart + Int64(rawIndex ?? start))
        error.path = path
        error.column = index + 1
        error.recordLine = scanner.recordLine
        error.encoding = encoding
        error.isRecoverable = true
        return error
    }

    static func trimmingWhitespace(_ text: String) -> String {
        guard let first = text.firstIndex(where: { !$0.isWhitespace }),
            let last = text.lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return String(text[first...last])
    }
}

extension CSVDialect {
    func validate(path: String?) throws(CSVError) {
        do { try validate() } catch { throw error.at(path: path) }
    }
}
