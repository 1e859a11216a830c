/// A record's fields as undecoded bytes, lent to the body of ``CSVReader/forEachRawRecord(_:)``: the fast
/// path for callers that convert numbers straight from bytes or skip most columns.
///
/// The view points into the reader's reusable buffers, so it is valid only while `body` runs; using it
/// after the reader has moved on to another record traps. Bytes are the field's content after unquoting (doubled quotes already single).
///
/// For example:
///
/// ```swift
/// var total = 0
/// try reader.forEachRawRecord { record in
///     total += record.withBytes(at: 3) { bytes in bytes.count }
///     let name = try record.string(at: 0)
/// }
/// ```
public struct CSVRawRecord {
    private let reader: CSVReader
    private let generation: Int
    /// The number of fields (1 for a blank line).
    public let count: Int
    /// The 1-based line where the record starts.
    public let lineNumber: Int
    /// The offset of the record's first byte.
    public let byteOffset: Int64
    /// The length of the record's text without its terminator.
    public let byteCount: Int
    /// Whether the record is a blank line.
    public let isBlank: Bool

    init(reader: CSVReader) {
        let scanner = reader.scanner
        self.reader = reader
        generation = scanner.generation
        isBlank = scanner.isBlank
        count = scanner.isBlank ? 1 : scanner.record.fieldCount
        lineNumber = scanner.recordLine
        byteOffset = scanner.recordStart
        byteCount = scanner.recordLength
    }

    /// Calls `body` with the bytes of field `index` (0-based), after unquoting.
    ///
    /// For example:
    ///
    /// ```swift
    /// let isEmpty = record.withBytes(at: 2) { $0.isEmpty }
    /// ```
    ///
    /// - Complexity: O(1) plus `body`.
    public func withBytes<Result>(at index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows
        -> Result
    {
        checkValid()
        precondition(index >= 0 && index < count, "field index \(index) out of range 0..<\(count)")
        if isBlank { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
        return try body(reader.scanner.record.field(index))
    }

    /// Whether field `index` (0-based) was quoted in the input: `""` is a quoted empty field, an empty
    /// unquoted one is not. A caller that gives unquoted text a special meaning (null tokens such as
    /// `NULL`, as PostgreSQL's `COPY … CSV` does) can keep quoted text as it is.
    ///
    /// For example:
    ///
    /// ```swift
    /// // a,"NULL",,""
    /// record.isQuoted(at: 1)  // true
    /// record.isQuoted(at: 2)  // false
    /// record.isQuoted(at: 3)  // true
    /// ```
    ///
    /// - Complexity: O(1) for an empty field; otherwise one pass over the record's raw bytes the first time
    ///   a record is asked, then O(1).
    public func isQuoted(at index: Int) -> Bool {
        checkValid()
        precondition(index >= 0 && index < count, "field index \(index) out of range 0..<\(count)")
        if isBlank { return false }
        let dialect = reader.dialect
        return reader.scanner.record.isQuoted(
            index, length: byteCount, delimiter: dialect.delimiter, quote: dialect.quote,
            trimsSpaces: dialect.trimsSpaces)
    }

    /// Checks every field against the dialect's encoding, without creating Strings.
    ///
    /// A record of ASCII bytes (and, in UTF-8, any valid record) passes with one check of its raw bytes;
    /// only a record with a bad byte is looked at field by field, to name the first bad one.
    ///
    /// For example:
    ///
    /// ```swift
    /// try reader.forEachRawRecord { record in
    ///     do { try record.validateEncoding() } catch { print(error.byteOffset ?? 0); return }
    ///     total += record.withBytes(at: 3) { $0.count }
    /// }
    /// ```
    ///
    /// - Throws: ``CSVError`` (``CSVError/Kind/invalidEncoding``) naming the first field with a bad byte
    ///   (``CSVError/column``), that byte's line and offset in the input.
    /// - Complexity: O(length of the record); no allocation unless it throws.
    public func validateEncoding() throws(CSVError) {
        checkValid()
        if isBlank { return }
        if let index = reader.firstInvalidField() { throw reader.encodingError(inField: index) }
    }

    /// Checks that every closing quote is followed by the delimiter, a line end or the end of the record
    /// (with ``CSVDialect/trimsSpaces``, after spaces and tabs), and that the last record does not end
    /// inside a quoted field.
    ///
    /// Strict mode refuses anything else while parsing. Without it, libcsv keeps a field open after
    /// `"x"y` or (not trimming) `"x" `, taking delimiters and line ends as data up to the next quote of
    /// the file: the reader ends such a record with the line of the byte after the quote instead (the
    /// record may start lines before it, in a field over several lines), and this check says where it went
    /// wrong. Likewise a quote never closed: its record ends with the quote's line. The lines after either
    /// are read as records of their own.
    ///
    /// For example:
    ///
    /// ```swift
    /// try reader.forEachRawRecord { record in
    ///     do { try record.validateQuotes() } catch { print(error.line ?? 0, error.byteOffset ?? 0); return }
    /// }
    /// ```
    ///
    /// - Throws: ``CSVError`` (``CSVError/Kind/textAfterClosingQuote``) with the field (``CSVError/column``),
    ///   the line and byte offset of the first byte after the closing quote; or
    ///   (``CSVError/Kind/unterminatedQuote``) with the field, line and byte offset of the quote never closed.
    /// - Complexity: O(length of the record) when it holds a quote; one `memchr` otherwise.
    public func validateQuotes() throws(CSVError) {
        checkValid()
        if isBlank { return }
        if let error = reader.closingQuoteError() { throw error }
        if let error = reader.unterminatedQuoteError() { throw error }
    }

    /// Checks that no carriage return (CR) outside quotes stands alone in a file whose lines end with LF or
    /// CRLF. Such a CR is not taken as a line end (it would split the record silently and make a record
    /// of the text after it): the record runs on to the file's next line end, and this check reports it.
    /// Files whose lines all end with a bare CR are read as usual. ``CSVReader/next()`` throws the same
    /// error (recoverable).
    ///
    /// For example:
    ///
    /// ```swift
    /// // "a,b\nx1,Muster\rstr. 5\nx2,ok\n": the record on line 2 is `x1,Muster\rstr. 5`
    /// try reader.forEachRawRecord { record in
    ///     do { try record.validateLineEnds() } catch { print(error.line ?? 0, error.column ?? 0); return }  // 2 2
    /// }
    /// ```
    ///
    /// - Throws: ``CSVError`` (``CSVError/Kind/loneCarriageReturn``) with the CR's line, field
    ///   (``CSVError/column``) and byte offset.
    /// - Complexity: O(1) for a record without such a CR.
    @inline(__always)
    public func validateLineEnds() throws(CSVError) {
        checkValid()
        if reader.scanner.loneCarriageReturn >= 0, let error = reader.loneCarriageReturnError() { throw error }
    }

    /// Calls `body` with the record's raw bytes as in the input, without the terminator.
    public func withRawBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        checkValid()
        return try body(reader.scanner.record.rawBytes(count: byteCount))
    }

    /// Decodes field `index` (0-based) with the dialect's encoding.
    ///
    /// For example:
    ///
    /// ```swift
    /// let city = try record.string(at: 1)
    /// ```
    ///
    /// - Throws: ``CSVError`` (``CSVError/Kind/invalidEncoding``) located at the bad byte.
    public func string(at index: Int) throws(CSVError) -> String {
        checkValid()
        precondition(index >= 0 && index < count, "field index \(index) out of range 0..<\(count)")
        if isBlank { return "" }
        guard let string = reader.dialect.encoding.decodeIfValid(reader.scanner.record.field(index)) else {
            throw reader.encodingError(inField: index)
        }
        return string
    }

    /// Decodes every field into a ``CSVRecord``.
    public func makeRecord() throws(CSVError) -> CSVRecord {
        checkValid()
        return try reader.makeRecord()
    }

    private func checkValid() {
        precondition(
            reader.scanner.generation == generation,
            "a CSVRawRecord was used after the forEachRawRecord body it was lent to returned")
    }
}

@available(*, unavailable, message: "CSVRawRecord points into its reader's buffers")
extension CSVRawRecord: Sendable {}

extension CSVReader {
    /// Calls `body` with every remaining record as undecoded bytes, without creating Strings.
    ///
    /// For example:
    ///
    /// ```swift
    /// var rows = 0
    /// try reader.forEachRawRecord { _ in rows += 1 }
    /// ```
    ///
    /// - Complexity: O(n); no allocation per record.
    public func forEachRawRecord(_ body: (CSVRawRecord) throws -> Void) throws {
        while try scanner.advance() {
            try body(CSVRawRecord(reader: self))
        }
    }
}
