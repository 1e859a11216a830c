/// How a CSV file is written: its delimiter, quote, header, trimming, text encoding and record terminator.
///
/// The defaults describe RFC 4180 CSV in UTF-8 with a header row. Records end at LF, CRLF or a bare CR
/// (all three may be mixed in one file); a UTF-8 byte-order mark at the start of the file is skipped.
///
/// For example:
///
/// ```swift
/// var dialect = CSVDialect.semicolon
/// dialect.encoding = .windows1252
/// let reader = try CSVReader(path: "export.csv", dialect: dialect)
/// ```
///
/// See <https://www.rfc-editor.org/rfc/rfc4180>.
public struct CSVDialect: Sendable, Hashable {
    /// The byte that separates fields (`,` by default). Must not be CR, LF, the quote or the record terminator.
    public var delimiter: UInt8
    /// The byte that opens and closes a quoted field (`"` by default); doubled inside a quoted field it stands for itself.
    ///
    /// Set it to ``CSVDialect/noQuote`` (NUL) for formats without quoting, such as Apple EPF.
    public var quote: UInt8
    /// Whether the first record is a header row; ``CSVReader`` then reads it eagerly into ``CSVReader/header``.
    public var hasHeader: Bool
    /// Whether spaces and tabs around unquoted fields, and between a closing quote and the next delimiter,
    /// are dropped. Spaces inside quotes are always kept.
    ///
    /// Trimming also lets a quote that follows `, ` open a quoted field (`a, "b, c"` gives `a` and `b, c`);
    /// without it that quote is data, as RFC 4180 says.
    public var trimsSpaces: Bool
    /// The text encoding fields are decoded with.
    public var encoding: TextEncoding
    /// Whether a quote in the wrong place (inside an unquoted field, or a byte other than a delimiter,
    /// line break, space or quote after a closing quote) or a quote still open at the end of the input is an
    /// error (``CSVError/Kind/malformedQuote``, ``CSVError/Kind/unterminatedQuote``). Strict errors end the
    /// reading.
    ///
    /// When `false` (the default), libcsv is lenient: a quote inside an unquoted field is data
    /// (`37°36'37.8"N` stays as it is), and a stray byte after a closing quote *keeps the field quoted*, so
    /// libcsv would read `"ab"x,d` and a line break on to the next quote of the file. The reader ends such a
    /// record with the line of the stray byte instead (`"ab"x,d` is one field `ab"x,d`), and a quote
    /// never closed ends its record with the quote's line, so the lines after either are read as records
    /// (``CSVRawRecord/validateQuotes()`` reports the record; not with ``RecordTerminator/controlBNewline``,
    /// whose lines are not records). Use strict mode to stop at such files.
    public var strict: Bool
    /// What ends a record.
    public var recordTerminator: RecordTerminator
    /// A byte that, at the very start of a record, marks the whole line as a comment to skip (`#` in EPF).
    /// `nil` means no comment lines.
    public var commentPrefix: UInt8?
    /// Lines before the first record (the header, with ``hasHeader``) that are not CSV: a title or notes
    /// above the table, as some exports write. They are skipped as written, quotes and all (a line ends
    /// at LF, CRLF or a bare CR), and line numbers still count them.
    ///
    /// ```swift
    /// var dialect = CSVDialect.csv
    /// dialect.skipLines = 2   // "Failed banks, as of 2023-05-01" and a blank line above the header
    /// ```
    public var skipLines = 0
    /// A byte that takes away the special meaning of the byte after it, as in MySQL's
    /// `SELECT … INTO OUTFILE` and PostgreSQL's text-format `COPY`, which write a backslash (`nil`, the
    /// default: RFC 4180, where only quotes are special).
    ///
    /// With an escape byte, an escaped delimiter, line feed, quote or escape byte is data; `\0`, `\b`, `\f`,
    /// `\n`, `\r`, `\t`, `\v` and `\Z` stand for NUL, backspace, form feed, LF, CR, tab, vertical tab and
    /// 0x1A, and any other escaped byte for itself (`\x41` is `x41`, as MySQL reads it). `\N` as a whole
    /// field, null, is handed over as the two bytes `\N`, unquoted, while a field holding any other escape
    /// is reported as quoted (``CSVRawRecord/isQuoted(at:)``): those two bytes unquoted mean null and
    /// nothing else. An empty field is an empty unquoted field. Every LF ends a line and a CR before it is
    /// part of the line end, unless the input says otherwise (an escaped CR: CRLF lines, MySQL's
    /// `LINES TERMINATED BY '\r\n'`, where a bare LF is data; an escaped LF: LF lines, where a CR before
    /// the LF is data; in its first 64 KiB, or CRLF line ends twice the bare LF ones there). A line end ends the record even inside an open quote (such exports escape the line
    /// ends in values), and ``CSVRawRecord/validateQuotes()`` reports that quote. A line of `\.` alone
    /// (PostgreSQL's end of data) is blank and ends the input. A field that starts with ``quote`` is
    /// quoted, as MySQL's `ENCLOSED BY` writes: set ``quote`` to ``noQuote`` for PostgreSQL's text format,
    /// which never quotes.
    ///
    /// ```swift
    /// var dialect = CSVDialect(delimiter: 0x09, quote: CSVDialect.noQuote)
    /// dialect.escape = UInt8(ascii: "\\")   // PostgreSQL: COPY wells TO '/tmp/wells.txt'
    /// ```
    public var escape: UInt8?
    /// How the lines of escaped text (``escape``) end, when the file does not tell it: `nil` (the
    /// default) looks at the text; ``EscapedLineEnd/carriageReturnLineFeed`` reads MySQL's
    /// `LINES TERMINATED BY '\r\n'` (a bare LF is text) and ``EscapedLineEnd/lineFeed`` its default (a
    /// CR before the LF is text), whatever the text says.
    ///
    /// ```swift
    /// dialect.escapedLineEnd = .carriageReturnLineFeed   // notes with LFs in a CRLF export
    /// ```
    public var escapedLineEnd: EscapedLineEnd?

    /// How the lines of escaped text end (``escapedLineEnd``).
    public enum EscapedLineEnd: String, Sendable, Hashable {
        /// LF: a CR before it is text.
        case lineFeed = "lf"
        /// CR LF: a bare LF is text.
        case carriageReturnLineFeed = "crlf"
    }
    /// The longest record the reader holds, in bytes as in the input (``defaultMaximumRecordBytes``). A
    /// record is held whole, and a quote never closed reads every line after it into one field until the
    /// input ends (where the reader ends the record with the quote's line and reads the lines after it
    /// again): past the limit first, the reader stops with ``CSVError/Kind/recordTooLarge``, naming the
    /// record and the quote still open, since it cannot tell that quote from a value really that long.
    public var maximumRecordBytes = CSVDialect.defaultMaximumRecordBytes
    /// The default ``maximumRecordBytes``: 16 MiB, far above any record a spreadsheet writes (a cell holds
    /// at most 32,767 characters in Excel).
    public static let defaultMaximumRecordBytes = 16 << 20

    /// What ends a record.
    public enum RecordTerminator: Sendable, Hashable {
        /// LF, CRLF or a bare CR (classic Mac), in any mix. Inside quotes they are data.
        case newline
        /// `\u{02}` followed by LF, as Apple's Enterprise Partner Feed writes; a bare CR or LF is data.
        case controlBNewline
    }

    /// The value of ``quote`` that turns quoting off (NUL: a NUL byte at the start of a field would still open a quote).
    public static let noQuote: UInt8 = 0

    /// Creates a dialect; every parameter has the RFC 4180 default.
    ///
    /// For example:
    ///
    /// ```swift
    /// let pipes = CSVDialect(delimiter: UInt8(ascii: "|"), hasHeader: false)
    /// ```
    public init(
        delimiter: UInt8 = UInt8(ascii: ","),
        quote: UInt8 = UInt8(ascii: "\""),
        hasHeader: Bool = true,
        trimsSpaces: Bool = false,
        encoding: TextEncoding = .utf8,
        strict: Bool = false,
        recordTerminator: RecordTerminator = .newline,
        commentPrefix: UInt8? = nil
    ) {
        self.delimiter = delimiter
        self.quote = quote
        self.hasHeader = hasHeader
        self.trimsSpaces = trimsSpaces
        self.encoding = encoding
        self.strict = strict
        self.recordTerminator = recordTerminator
        self.commentPrefix = commentPrefix
    }

    /// Comma-separated, `"`-quoted, with a header row (RFC 4180).
    public static let csv = CSVDialect()
    /// Tab-separated, `"`-quoted, with a header row.
    public static let tsv = CSVDialect(delimiter: 0x09)
    /// Semicolon-separated, `"`-quoted, with a header row (what spreadsheets in comma-decimal locales write).
    public static let semicolon = CSVDialect(delimiter: UInt8(ascii: ";"))
    /// Apple Enterprise Partner Feed: fields end at `\u{01}`, records at `\u{02}` + LF, no quoting,
    /// lines starting with `#` are comments, the first other record is the header.
    public static let epf = CSVDialect(
        delimiter: 0x01, quote: CSVDialect.noQuote, recordTerminator: .controlBNewline,
        commentPrefix: UInt8(ascii: "#"))

    /// Checks that the bytes can work together; a reader calls this before parsing.
    func validate() throws(CSVError) {
        var special: [UInt8] = [0x0A, 0x0D]
        if recordTerminator == .controlBNewline { special = [0x02] }
        let problem: String?
        if special.contains(delimiter) {
            problem = "the delimiter 0x\(delimiter.hexDigits) is also a record terminator"
        } else if quote != CSVDialect.noQuote && special.contains(quote) {
            problem = "the quote 0x\(quote.hexDigits) is also a record terminator"
        } else if delimiter == quote {
            problem = "the delimiter and the quote are the same byte (0x\(quote.hexDigits))"
        } else if let escape, escape == delimiter || escape == quote || special.contains(escape) || escape == 0x0D {
            problem = "the escape byte 0x\(escape.hexDigits) is also the delimiter, the quote or a line end"
        } else if escape != nil && recordTerminator != .newline {
            problem = "an escape byte is read only in files whose records end at line ends"
        } else if let commentPrefix, commentPrefix == delimiter || special.contains(commentPrefix) {
            problem = "the comment prefix 0x\(commentPrefix.hexDigits) is also a delimiter or terminator"
        } else {
            problem = nil
        }
        if let problem {
            throw CSVError(kind: .invalidDialect, message: problem)
        }
    }
}
