/// Everything that can go wrong while reading CSV, with where it happened and what to do about it.
///
/// `line` and `column` are 1-based; `column` is the field index (1 is the first field), not a character
/// position. `byteOffset` counts from the first byte of the file (a byte-order mark included).
///
/// For example:
///
/// ```swift
/// do {
///     while let record = try reader.next() { try importRow(record) }
/// } catch let error as CSVError {
///     print(error)  // banklist.csv:5:5: byte 0x96 at byte offset 361 is not valid UTF-8 …
/// }
/// ```
public struct CSVError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What kind of problem it is.
    public enum Kind: String, Sendable, Equatable {
        /// Bytes that are not valid in the dialect's ``CSVDialect/encoding``.
        case invalidEncoding
        /// Strict mode: a quote inside an unquoted field, or a byte other than a delimiter, terminator,
        /// space or quote right after a closing quote.
        case malformedQuote
        /// The file ends inside a quoted field: in strict mode while reading; otherwise the record ends with
        /// the line of the quote never closed, the lines after it are read as records again, and
        /// ``CSVRawRecord/validateQuotes()`` says where the quote opens.
        case unterminatedQuote
        /// Any mode but strict: text between a closing quote and the delimiter or line end (`"x"y` or,
        /// without trimming, `"x" `). Non-strict libcsv reads such text as data of a field still in quotes,
        /// on to the next quote in the file; the reader ends the record with the line the text is on instead,
        /// so the lines after it are records of their own, and ``CSVRawRecord/validateQuotes()`` finds it.
        case textAfterClosingQuote
        /// A carriage return (CR) not followed by a line feed, in an unquoted field of a file whose records
        /// end with LF or CRLF. Taken as a line end it would split the record (and make up one from the text
        /// after it); the reader runs the record on to the file's next line end instead, reports it (the
        /// record is skipped, ``CSVError/isRecoverable``), and counts no line for the CR.
        case loneCarriageReturn
        /// The file could not be opened, read or re-read.
        case io
        /// A field grew beyond what memory allows (libcsv `CSV_ENOMEM`/`CSV_ETOOBIG`).
        case fieldTooLarge
        /// A record grew past ``CSVDialect/maximumRecordBytes`` without ending: almost always a quote never
        /// closed. The reader stops (the next record cannot be found).
        case recordTooLarge
        /// The ``CSVDialect`` is contradictory (say, delimiter equal to quote).
        case invalidDialect
        /// The file is in an encoding the reader cannot decode: UTF-16 or UTF-32, by its byte-order mark
        /// (what Excel writes as "Unicode Text").
        case unsupportedEncoding
    }

    /// What kind of problem it is.
    public var kind: Kind
    /// The specific finding, for example `byte 0x96 is not valid UTF-8` or `No such file or directory`.
    public var message: String
    /// The file being read, when reading a file.
    public var path: String?
    /// The 1-based line of the offending byte.
    public var line: Int?
    /// The 1-based field index within its record.
    public var column: Int?
    /// The offset of the offending byte from the start of the input.
    public var byteOffset: Int64?
    /// The 1-based line where the offending record starts (differs from ``line`` inside multi-line quoted fields).
    public var recordLine: Int?
    /// For ``Kind/textAfterClosingQuote`` in a quoted field over several lines: the line of the quote that
    /// opens the field, probably never closed there (``line`` is where the text after a later quote gave it away).
    public var openingQuoteLine: Int?
    /// The encoding the bytes were decoded with, for ``Kind/invalidEncoding``.
    public var encoding: TextEncoding?
    /// The escape byte the text was read with (``CSVDialect/escape``), for quote errors' hints.
    public var escape: UInt8?
    /// Whether the reader has skipped the offending record and ``CSVReader/next()`` can go on with the
    /// next one (true for encoding errors); otherwise the reader is finished and rethrows this error.
    public var isRecoverable: Bool

    /// Creates an error; readers fill in the location.
    public init(
        kind: Kind, message: String, path: String? = nil, line: Int? = nil, column: Int? = nil,
        byteOffset: Int64? = nil, recordLine: Int? = nil, encoding: TextEncoding? = nil,
        isRecoverable: Bool = false
    ) {
        self.kind = kind
        self.message = message
        self.path = path
        self.line = line
        self.column = column
        self.byteOffset = byteOffset
        self.recordLine = recordLine
        self.encoding = encoding
        self.isRecoverable = isRecoverable
    }

    /// Where it happened, as `path:line:column` (the parts that are known).
    public var location: CSVLocation {
        CSVLocation(path: path, line: line, column: column)
    }

    /// What a person can do about it.
    public var hint: String {
        switch kind {
        case .invalidEncoding:
            switch encoding ?? .utf8 {
            case .utf8:
                return
                    "The file is probably Windows-1252 or Latin-1: re-run with --encoding \(TextEncoding.windows1252.rawValue) (or \(TextEncoding.latin1.rawValue); CSVDialect.encoding from Swift), or re-save it as UTF-8."
            case .windows1252:
                return
                    "Windows-1252 leaves 0x81, 0x8D, 0x8F, 0x90 and 0x9D undefined, so the file is probably in another encoding: check whether it is UTF-8 or Latin-1. --encoding \(TextEncoding.latin1.rawValue) (CSVDialect.encoding from Swift) accepts every byte, but reads 0x80–0x9F as invisible control characters, not as Windows-1252's € and quotes."
            case .latin1:
                return "Latin-1 accepts every byte, so this should not happen; please report it."
            }
        case .malformedQuote:
            return
                "Quote fields that contain quotes and double the inner quotes (\"say \"\"hi\"\"\"), or read without strict mode to keep stray quotes as data."
        case .textAfterClosingQuote:
            if let openingQuoteLine {
                return
                    "Close the quote on line \(openingQuoteLine), or double it if it is data (\"5'10\"\"\"): the lines up to this one are in the record's raw text. The record ends with this line; the lines after it are read as records of their own."
            }
            return
                "Nothing may stand between a closing quote and the delimiter: quote the whole value and double its inner quotes (\"x\"\"y\"), or remove what follows the quote. The record ends with this line; the lines after it are read as records of their own."
        case .unterminatedQuote:
            if let escape {
                let mark = String(Character(Unicode.Scalar(escape)))
                return "Escape the quote if it is data (\(mark)\"), or close it on its line; if the file never quotes its values, read it "
                    + "without a quote byte (--quote none). The record ends with its line; the lines after it are read as records of their own."
            }
            return
                "Close the quote, or double it if it is data (\"5'10\"\"\"); a file cut short ends inside its last record."
        case .loneCarriageReturn:
            return
                "Quote the field to keep the carriage return as data, or remove the CR (in a file of LF lines, tr -d '\\r' < in.csv > out.csv removes them all). The record's raw text holds the part after the CR."
        case .io:
            return "Check that the path exists and is a readable file."
        case .fieldTooLarge:
            return
                "A field is too large to hold in memory; a quote never closed may have read the lines after it into the field."
        case .recordTooLarge:
            // The reader names the column when a quote is open; otherwise no quote explains the length.
            let limit = "raise the limit (--max-record-size, or maxRecordSize in a mapping; CSVDialect.maximumRecordBytes from Swift)"
            if column != nil {
                return
                    "A quote that is never closed reads the lines after it as data: close it, or double it if it is data (\"5'10\"\"\"). If the records really are this long, \(limit)."
            }
            return
                "No quote is open: the record itself is this long. If that is right, \(limit); if not, check the file's line ends (lines ending in a character the reader does not take for one read as a single record)."
        case .invalidDialect:
            return
                "Choose a delimiter, quote and comment prefix that differ from each other and from the record terminator."
        case .unsupportedEncoding:
            // iconv's name: without a byte-order mark it must be told the byte order (its UTF-16 is then big-endian).
            let wide = message.contains("UTF-32") ? "UTF-32" : "UTF-16"
            let from = !message.contains("without a byte-order mark") ? wide : wide + (message.contains("little-endian") ? "LE" : "BE")
            return "Convert it to UTF-8 first (iconv -f \(from) -t UTF-8 in.csv > out.csv; in Excel, save as \"CSV UTF-8\")."
        }
    }

    /// A one-paragraph report: location, finding, offsets, and what to do next.
    public var description: String {
        var text = ""
        let place = location.description
        if !place.isEmpty { text += place + ": " }
        text += message
        var context: [String] = []
        if let byteOffset { context.append("byte offset \(byteOffset)") }
        if let column { context.append("field \(column)") }
        if let recordLine, recordLine != line { context.append("in the record starting on line \(recordLine)") }
        if !context.isEmpty { text += " (" + context.joined(separator: ", ") + ")" }
        text += ". " + hint
        return text
    }
}
