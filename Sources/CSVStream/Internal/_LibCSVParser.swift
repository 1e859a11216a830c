import CLibCSV

/// The one place libcsv is called: a `csv_parser` set up for a ``CSVDialect``, whose callbacks append
/// fields and row ends to a ``_RecordBuffer`` passed as the `void *` context (no capturing closures).
///
/// Options used (see `csv.h`):
/// - `CSV_REPALL_NL` always, so every unquoted CR or LF that starts a line ends a (possibly empty) row;
///   ``_RecordScanner`` turns those into blank-line records or drops the LF of a CRLF.
/// - `CSV_STRICT | CSV_STRICT_FINI` in strict mode.
/// - A space function that says "no byte is a space" unless the dialect trims: libcsv trims spaces and tabs
///   around unquoted fields by default.
/// - For `\u{02}`-terminated records (EPF), a terminator function that accepts only `\u{02}`.
///
/// - `CSV_EMPTY_IS_NULL`, so an empty unquoted field arrives as a null pointer and `""` as a real one:
///   both read as an empty string, and ``_RecordBuffer`` keeps the difference (``CSVRawRecord/isQuoted(at:)``).
///
/// `CSV_APPEND_NULL` is not needed (fields are copied by length).
final class _LibCSVParser {
    private let parser: UnsafeMutablePointer<csv_parser>
    private let context: UnsafeMutableRawPointer
    /// Keeps the record buffer alive for as long as the context pointer is used.
    private let record: _RecordBuffer
    /// With an escape byte (``CSVDialect/escape``), the parser used in libcsv's place.
    let escaped: _EscapedParser?

    init(dialect: CSVDialect, record: _RecordBuffer) throws(CSVError) {
        self.record = record
        escaped = dialect.escape.map { _EscapedParser(dialect: dialect, escape: $0, record: record) }
        context = Unmanaged.passUnretained(record).toOpaque()
        parser = .allocate(capacity: 1)
        var options = UInt8(CSV_REPALL_NL | CSV_EMPTY_IS_NULL)
        if dialect.strict { options |= UInt8(CSV_STRICT | CSV_STRICT_FINI) }
        guard csv_init(parser, options) == 0 else {
            parser.deallocate()
            throw CSVError(kind: .fieldTooLarge, message: "libcsv could not be initialised")
        }
        csv_set_delim(parser, dialect.delimiter)
        csv_set_quote(parser, dialect.quote)
        // libcsv grows its field buffer linearly by this block size; 128 bytes (the default) makes
        // long fields quadratic.
        csv_set_blk_size(parser, 64 * 1024)
        if !dialect.trimsSpaces {
            csv_set_space_func(parser) { _ in 0 }
        }
        if dialect.recordTerminator == .controlBNewline {
            csv_set_term_func(parser) { $0 == 0x02 ? 1 : 0 }
        }
    }

    deinit {
        csv_free(parser)
        parser.deallocate()
    }

    /// Feeds bytes; returns how many were consumed (fewer than `count` only on an error).
    ///
    /// - Complexity: O(count).
    @inline(__always)
    func parse(_ bytes: UnsafePointer<UInt8>, count: Int) -> Int {
        if let escaped { return escaped.parse(bytes, count: count) }
        return csv_parse(parser, bytes, count, _LibCSVParser.onField, _LibCSVParser.onRowEnd, context)
    }

    /// Ends the input: submits a last record that had no terminator, and resets the parser to the start of
    /// a row (which is how the reader also ends a record where libcsv would not, outside strict mode).
    /// Returns `false` on a strict-mode error (a quoted field still open).
    func finish() -> Bool {
        if let escaped { return escaped.finish() }
        return csv_fini(parser, _LibCSVParser.onField, _LibCSVParser.onRowEnd, context) == 0
    }

    /// Whether the input so far ends inside a quoted field (libcsv's `FIELD_BEGUN` state with `quoted`
    /// set): a closing quote would be `FIELD_MIGHT_HAVE_ENDED`. At the end of the input, a quote never closed.
    var isInsideQuotedField: Bool {
        if let escaped { return escaped.isInsideQuotedField }
        return parser.pointee.pstate == 2 && parser.pointee.quoted != 0
    }

    /// The error libcsv reports after ``parse(_:count:)`` stopped early.
    var error: CSVError.Kind {
        if let escaped, let failure = escaped.failure { return failure == .unterminatedQuote ? .unterminatedQuote : .malformedQuote }
        return switch csv_error(parser) {
        case CSV_EPARSE: .malformedQuote
        default: .fieldTooLarge
        }
    }

    /// libcsv's message for its current error.
    var errorMessage: String {
        if let escaped, let failure = escaped.failure {
            return failure == .unterminatedQuote ? "a quote is still open at the line end" : "text after a closing quote"
        }
        return String(cString: csv_strerror(csv_error(parser)))
    }

    /// Field callback: `void cb1(void *field, size_t length, void *context)`.
    private static let onField: @convention(c) (UnsafeMutableRawPointer?, Int, UnsafeMutableRawPointer?) -> Void = {
        field, length, context in
        // `_withUnsafeGuaranteedRef` skips a retain/release pair per field (12% of the time otherwise);
        // the parser keeps the buffer alive.
        Unmanaged<_RecordBuffer>.fromOpaque(context!)._withUnsafeGuaranteedRef { $0.appendField(field, length) }
    }

    /// Row callback: `void cb2(int terminator, void *context)`.
    private static let onRowEnd: @convention(c) (Int32, UnsafeMutableRawPointer?) -> Void = { _, context in
        Unmanaged<_RecordBuffer>.fromOpaque(context!)._withUnsafeGuaranteedRef { $0.rowEnded = true }
    }
}
