import CSVStream
import Foundation

/// What to import: for each CSV file, the entities one row fills and how columns become attributes and
/// relationships; or a join file that fills a many-to-many relationship. Format 1, as
/// `seedstore generate` writes it (see docs/mapping.md).
///
/// For example:
///
/// ```swift
/// let mapping = try ImportMapping(contentsOf: "/tmp/wells/wells.mapping.json")
/// mapping.files.map(\.path)        // ["operators.csv", "wells.csv", "wells.csv"]
/// mapping.modelPath                // "/tmp/wells/wells.model.json"
/// ```
public struct ImportMapping: Sendable {
    /// The mapping format this version reads.
    public static let currentFormat = 1

    /// The model file named by the mapping, as written (relative to ``baseDirectory``).
    public var model: String?
    /// The dialect files use unless they say otherwise.
    public var defaults: CSVOptions
    /// The files, in the order written; the importer runs them in dependency order.
    public var files: [FileMapping]
    /// The directory relative paths are resolved against: the mapping file's.
    public var baseDirectory: String
    /// The mapping file, for messages (`nil` for a mapping made in code).
    public var source: String?
    /// Notes about the mapping that do not stop an import, such as header columns that no attribute takes
    /// in a mapping ``inferred(sources:model:defaults:baseDirectory:)`` from headers. The importer repeats
    /// them in ``ImportSummary/warnings``.
    ///
    /// For example:
    ///
    /// ```swift
    /// mapping.warnings  // ["people.csv → Person: no attribute takes the column \"Shoe size\" (…)"]
    /// ```
    public var warnings: [String] = []
    /// Whether the mapping was made from the files' headers (``inferred(sources:model:defaults:baseDirectory:)``):
    /// messages then send the user to the files and options, or to a mapping saved from it, as there is
    /// no mapping file to fix.
    var isMadeFromHeaders = false

    /// Makes a mapping in code.
    public init(model: String? = nil, defaults: CSVOptions = CSVOptions(), files: [FileMapping],
                baseDirectory: String = FileManager.default.currentDirectoryPath, source: String? = nil) {
        self.model = model
        self.defaults = defaults
        self.files = files
        self.baseDirectory = baseDirectory
        self.source = source
    }

    /// The model file's path, resolved against ``baseDirectory``.
    public var modelPath: String? { model.map(resolve) }

    /// A path from the mapping, resolved against ``baseDirectory`` (absolute paths stay as they are).
    public func resolve(_ path: String) -> String {
        path.hasPrefix("/") ? path : URL(fileURLWithPath: baseDirectory).appendingPathComponent(path).path
    }
}

/// How CSV files are written: the `defaults` of a mapping, or one file's overrides merged in.
///
/// For example:
///
/// ```swift
/// var options = CSVOptions()
/// options.encoding = .windows1252
/// options.nullTokens = ["", "NA"]
/// ```
public struct CSVOptions: Sendable, Hashable {
    /// The field delimiter (`,`; a `.tsv` file with none set reads tab: ``forFile(_:)``).
    public var delimiter: UInt8 { didSet { isDelimiterSet = true } }
    /// Whether ``delimiter`` was set (by a mapping, an option or code) rather than left at `,`.
    public private(set) var isDelimiterSet: Bool
    /// The byte that opens and closes quoted fields (`"`); doubled inside one it stands for itself.
    public var quote: UInt8 { didSet { isQuoteSet = true } }
    /// Whether ``quote`` was set (by a mapping, an option or code) rather than left at `"`: with an
    /// ``escape`` byte, quoted values are then taken as meant (MySQL's `ENCLOSED BY`), not warned about.
    public private(set) var isQuoteSet: Bool
    /// Whether a misplaced or unclosed quote is an error (naming line and byte offset) instead of data.
    public var strict: Bool
    /// The text encoding.
    public var encoding: TextEncoding
    /// Whether the first record names the columns. Without a header, columns are named by 1-based
    /// position (`"3"`).
    public var hasHeader: Bool
    /// Unquoted field values that mean "no value".
    public var nullTokens: [String] { didSet { isNullTokensSet = true } }
    /// Whether ``nullTokens`` were chosen (by a mapping, an option or code) rather than left at
    /// ``defaultNullTokens``: text the defaults' `NULL` or `NA` made null is then warned about, since the
    /// user may not know they are null tokens; tokens someone chose are taken as meant.
    public private(set) var isNullTokensSet: Bool
    /// Whether spaces and tabs around unquoted text, and outside quotes, are dropped (off by default: text
    /// keeps them). Text inside quotes is kept as written, and non-text values never keep them.
    public var trim: Bool { didSet { isTrimSet = true } }
    /// The escape byte of text written as MySQL's `SELECT … INTO OUTFILE` and PostgreSQL's text-format
    /// `COPY` write it (a backslash), or `nil` (the default) for RFC 4180 CSV, where only quotes are
    /// special. With one, `\N` is null, an escaped delimiter or line end is data, `\t` and `\n` are a tab
    /// and a line feed (``CSVDialect/escape``), and only `\N` is null unless null tokens are chosen (an
    /// empty field is then an empty string); a field that starts with ``quote`` is quoted, as MySQL's
    /// `ENCLOSED BY` writes: PostgreSQL's text format never quotes, so read it with ``CSVDialect/noQuote``.
    ///
    /// ```swift
    /// var options = CSVOptions(delimiter: 0x09, quote: CSVDialect.noQuote)
    /// options.escape = UInt8(ascii: "\\")   // PostgreSQL: COPY wells TO '/tmp/wells.txt'
    /// ```
    public var escape: UInt8?
    /// How the lines of a file read with an ``escape`` end, when the text does not tell it
    /// (``CSVDialect/escapedLineEnd``): `crlf` for MySQL's `LINES TERMINATED BY '\r\n'` whose text holds
    /// LFs, `lf` for its default; `nil` looks at the text. Only with an escape.
    ///
    /// ```swift
    /// options.escapedLineEnd = .carriageReturnLineFeed
    /// ```
    public var escapedLineEnd: CSVDialect.EscapedLineEnd?
    /// The time zone of Date values written without one (`2023-01-05 14:03`), for every Date column of
    /// the file: an IANA name (`Europe/Berlin`) or a fixed offset (`+05:30`); `nil` reads them as UTC.
    /// Values that name their zone keep it; epoch numbers are instants.
    public var timeZone: String?
    /// Whether ``trim`` was chosen (by a mapping, an option or code) rather than left off by default: text
    /// kept with spaces around it is then taken as meant, not warned about.
    public private(set) var isTrimSet: Bool
    /// Whether numbers are written with a decimal comma, as spreadsheets in much of Europe write them:
    /// `1.234,5` is 1234.5 (`.` groups thousands, in threes). Integer, Double, Float and Decimal
    /// attributes read numbers so; dates and text are unaffected. Usually with `;` as the delimiter;
    /// with `,` such values need quotes.
    ///
    /// ```swift
    /// var options = CSVOptions(delimiter: UInt8(ascii: ";"))
    /// options.decimalComma = true   // "1.234,50" reads as 1234.5
    /// ```
    public var decimalComma = false
    /// Lines above the header (or the first record) that are not CSV, such as a report's title:
    /// skipped as written (``CSVDialect/skipLines``); line numbers still count them.
    ///
    /// ```swift
    /// var options = CSVOptions()
    /// options.skipLines = 3   // a title, a date line and a blank line above the header
    /// ```
    public var skipLines = 0
    /// The longest record read, in bytes (``CSVDialect/maximumRecordBytes``: a quote not closed within it
    /// stops there rather than reading the rest of the file into memory).
    public var maximumRecordBytes = CSVDialect.defaultMaximumRecordBytes

    /// The null tokens when neither the mapping nor the command line names any.
    public static let defaultNullTokens = ["", "NULL", "NA"]

    /// A dialect; the defaults read RFC 4180 CSV in UTF-8 with a header and the default null tokens, text
    /// kept with its spaces (`trim` off, as in PostgreSQL's `COPY`, SQLite's `.import` and pandas).
    ///
    /// ```swift
    /// let tabs = CSVOptions(delimiter: UInt8(ascii: "\t"), encoding: .windows1252)
    /// ```
    public init(delimiter: UInt8 = UInt8(ascii: ","), quote: UInt8 = UInt8(ascii: "\""), strict: Bool = false,
                encoding: TextEncoding = .utf8, hasHeader: Bool = true,
                nullTokens: [String] = CSVOptions.defaultNullTokens, trim: Bool = false) {
        self.delimiter = delimiter
        self.isDelimiterSet = delimiter != UInt8(ascii: ",")
        self.quote = quote
        self.isQuoteSet = quote != UInt8(ascii: "\"")
        self.strict = strict
        self.encoding = encoding
        self.hasHeader = hasHeader
        self.nullTokens = nullTokens
        self.isNullTokensSet = nullTokens != CSVOptions.defaultNullTokens
        self.trim = trim
        self.isTrimSet = trim
    }

    /// The CSVStream dialect. With ``trim``, libcsv skips spaces and tabs around fields, which trims
    /// unquoted text and lets `"x" ,` (a space after a closing quote) end the field: without it, non-strict
    /// libcsv takes the space as data of a field still in quotes, and the record is a bad row that ends
    /// with its line. What is inside quotes is kept either way; numbers, dates and other non-text values
    /// are read without the spaces around them whatever ``trim`` says (``_FieldConverter/fieldBytes(_:)``).
    public var dialect: CSVDialect {
        var dialect = CSVDialect(delimiter: delimiter, quote: quote, hasHeader: hasHeader, trimsSpaces: trim, encoding: encoding, strict: strict)
        dialect.maximumRecordBytes = maximumRecordBytes
        dialect.skipLines = skipLines
        dialect.escape = escape
        dialect.escapedLineEnd = escape == nil ? nil : escapedLineEnd
        return dialect
    }

    /// The options for the file at `path`: a `.tsv` file (any case) whose delimiter was set nowhere reads
    /// tab-separated; any other file, or one with a delimiter set, as these options say.
    ///
    /// For example:
    ///
    /// ```swift
    /// CSVOptions().forFile("wells.tsv").delimiter   // 0x09
    /// CSVOptions().forFile("wells.csv").delimiter   // 0x2C (",")
    /// ```
    public func forFile(_ path: String) -> CSVOptions {
        guard !isDelimiterSet, path.lowercased().hasSuffix(".tsv") else { return self }
        var options = self
        options.delimiter = 0x09
        return options
    }

    /// These options for the file whose bytes are at `path`, when it starts with Excel's separator line
    /// (`sep=;`, after a UTF-8 byte-order mark if any): that line is skipped (unless ``skipLines``
    /// already skips lines), and its byte becomes the delimiter unless one was set (a mapping's or
    /// `--delimiter`, which win). Any other file gets these options as they are.
    ///
    /// ```swift
    /// // export.csv: "sep=;\nid;name\n1;x\n"
    /// CSVOptions().withSeparatorLine(of: "export.csv").delimiter   // 0x3B (";"), skipLines 1
    /// ```
    public func withSeparatorLine(of path: String) -> CSVOptions {
        guard let handle = FileHandle(forReadingAtPath: path) else { return self }
        defer { try? handle.close() }
        guard var bytes = try? handle.read(upToCount: 16).map(Array.init) else { return self }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        guard bytes.count >= 6, bytes[0..<4].map({ $0 | 0x20 }) == Array("sep=".utf8),
              bytes[5] == 0x0A || bytes[5] == 0x0D, bytes[4] != 0x0A, bytes[4] != 0x0D else { return self }
        var options = self
        if !isDelimiterSet { options.delimiter = bytes[4] }
        if skipLines == 0 { options.skipLines = 1 }
        return options
    }

    /// The byte a quote or escape is written as: what ``byte(_:)`` reads, or ``CSVDialect/noQuote`` (0) for
    /// `none` (any case), which turns quoting or escapes off.
    ///
    /// ```swift
    /// CSVOptions.byteOrNone("none")   // 0
    /// CSVOptions.byteOrNone("\\")     // 0x5C
    /// ```
    public static func byteOrNone(_ text: String) -> UInt8? {
        text.lowercased() == "none" ? CSVDialect.noQuote : byte(text)
    }

    /// The null tokens read with these options from `tokens` (a column's own, or ``nullTokens``): as they
    /// are, or with an ``escape`` byte, none in place of the defaults, whose empty field, `NULL` and `NA`
    /// are text in such files (`\N` is null there whatever the tokens: the planner adds it). Tokens
    /// someone chose apply as chosen: `--null ''` makes empty fields null, as PostgreSQL's `NULL ''` writes them.
    ///
    /// ```swift
    /// var options = CSVOptions()
    /// options.escape = UInt8(ascii: "\\")
    /// options.nullTokens(reading: CSVOptions.defaultNullTokens)   // []
    /// ```
    public func nullTokens(reading tokens: [String]) -> [String] {
        guard escape != nil else { return tokens }
        return tokens == CSVOptions.defaultNullTokens && !isNullTokensSet ? [] : tokens
    }

    /// The byte a delimiter or quote is written as: one ASCII character, `\t` or `tab`, or `\xHH`
    /// (`\x01` for Hive's ^A); `nil` for anything else, or for a line break.
    ///
    /// For example:
    ///
    /// ```swift
    /// CSVOptions.byte("\\x01")   // 0x01
    /// CSVOptions.byte(";")      // 0x3B
    /// ```
    public static func byte(_ text: String) -> UInt8? {
        if text == "\\t" || text == "\t" || text.lowercased() == "tab" { return 0x09 }
        var byte: UInt8?
        if text.count == 4, text.lowercased().hasPrefix("\\x"), let value = UInt8(text.dropFirst(2), radix: 16) {
            byte = value
        } else if text.utf8.count == 1 {
            byte = text.utf8.first
        }
        guard let byte, byte < 0x80, byte != 0x0A, byte != 0x0D else { return nil }
        return byte
    }
}

/// One entry of a mapping's `files`: a CSV file and what its rows fill.
///
/// For example:
///
/// ```swift
/// var options = CSVOptions()
/// options.encoding = .windows1252
/// let banks = FileMapping(path: "banklist.csv", options: options,
///                         content: .targets([TargetMapping(entity: "FailedBankDetails", key: "cert")]))
/// ```
public struct FileMapping: Sendable {
    /// What the rows of a file fill.
    public enum Content: Sendable {
        /// Objects of one or more entities per row, joined one-to-one by links.
        case targets([TargetMapping])
        /// Pairs of keys that fill a to-many relationship (many-to-many through a join CSV).
        case join(JoinMapping)
    }

    /// The file's path as written (relative to the mapping's directory).
    public var path: String
    /// The file's dialect: the mapping's defaults with the file's overrides.
    public var options: CSVOptions
    /// What the rows fill.
    public var content: Content

    /// A file of the mapping and what its rows fill.
    ///
    /// ```swift
    /// let wells = FileMapping(path: "wells.csv", content: .targets([TargetMapping(entity: "Well", key: "uwi")]))
    /// ```
    public init(path: String, options: CSVOptions = CSVOptions(), content: Content) {
        self.path = path
        self.options = options
        self.content = content
    }

    /// The entities the file fills.
    public var entities: [String] {
        switch content {
        case .targets(let targets): targets.map(\.entity)
        case .join: []
        }
    }
}

/// One entity a row fills.
///
/// For example, the FDIC list's details, keyed by Cert:
///
/// ```swift
/// TargetMapping(entity: "FailedBankDetails", key: "cert",
///               columns: ["cert": ColumnMapping("Cert"),
///                         "closeDate": ColumnMapping("Closing Date", format: "d-MMM-yy", pivotYear: 2000)])
/// ```
public struct TargetMapping: Sendable {
    /// The entity's name.
    public var entity: String
    /// The attribute that identifies an object: a later row with the same key updates it (upsert).
    public var key: String?
    /// Attributes whose column is not found by name, or that need a format; `column == nil` leaves
    /// the attribute out. Other attributes take the column whose folded name matches theirs.
    public var columns: [String: ColumnMapping]
    /// To-one relationships filled from a column that holds the destination's key.
    public var relationships: [String: RelationshipMapping]
    /// A to-one relationship to the object another target of the same row made (one-to-one split).
    public var link: LinkMapping?

    /// A target filling `entity`, columns matched to attributes by name unless `columns` says otherwise.
    ///
    /// ```swift
    /// let well = TargetMapping(entity: "Well", key: "uwi",
    ///                          relationships: ["operator": RelationshipMapping(column: "operator_id", destinationKey: "operator_id")])
    /// ```
    public init(entity: String, key: String? = nil, columns: [String: ColumnMapping] = [:],
                relationships: [String: RelationshipMapping] = [:], link: LinkMapping? = nil) {
        self.entity = entity
        self.key = key
        self.columns = columns
        self.relationships = relationships
        self.link = link
    }
}

/// Where an attribute's value comes from, and how to read it.
///
/// For example:
///
/// ```swift
/// let closing = ColumnMapping("Closing Date", format: "d-MMM-yy", pivotYear: 2000)
/// let built = ColumnMapping("Construction Date", formats: ["d-MMM-yy", "d-MMM-yyyy"], pivotYear: 1900)
/// let leftOut = ColumnMapping(nil)
/// ```
public struct ColumnMapping: Sendable, Hashable {
    /// The CSV column (header name, trimmed and folded when matching); `nil` leaves the attribute out.
    public var column: String?
    /// The date formats (Date attributes only), tried in order for each value: see ``DateFormat``. Empty:
    /// ISO 8601.
    public var formats: [String]
    /// The date format, when there is one (the first of ``formats``; setting it replaces them).
    public var format: String? {
        get { formats.first }
        set { formats = newValue.map { [$0] } ?? [] }
    }
    /// The start of the hundred years two-digit years fall in (see ``DateFormat/pivotYear``).
    public var pivotYear: Int?
    /// Null tokens for this column, replacing the file's.
    public var nullTokens: [String]?
    /// More words a Boolean column writes for true and for false (`["ja"]`, `["nein"]`), read besides
    /// true/false, yes/no, y/n, t/f and 1/0, in any ASCII case. Boolean attributes only.
    ///
    /// ```swift
    /// var active = ColumnMapping("Aktiv")
    /// active.trueValues = ["ja"]
    /// active.falseValues = ["nein"]
    /// ```
    public var trueValues: [String]?
    /// More words for false: see ``trueValues``.
    public var falseValues: [String]?
    /// The time zone of this Date column's values written without one, replacing the file's
    /// (``CSVOptions/timeZone``) and `--time-zone` for it: a column a server wrote in UTC beside local
    /// times. An IANA name or a fixed offset. Date attributes only.
    ///
    /// ```swift
    /// var logged = ColumnMapping("logged_at_utc")
    /// logged.timeZone = "UTC"   // the file's other dates are local
    /// ```
    public var timeZone: String?

    /// The attribute read from `column` (`nil`: left out), with one date `format` at most.
    ///
    /// ```swift
    /// let closed = ColumnMapping("Closing Date", format: "d-MMM-yy", pivotYear: 1950)
    /// ```
    public init(_ column: String?, format: String? = nil, pivotYear: Int? = nil, nullTokens: [String]? = nil) {
        self.init(column, formats: format.map { [$0] } ?? [], pivotYear: pivotYear, nullTokens: nullTokens)
    }

    /// A column whose dates come in several formats, the first that reads a value winning.
    public init(_ column: String?, formats: [String], pivotYear: Int? = nil, nullTokens: [String]? = nil) {
        self.column = column
        self.formats = formats
        self.pivotYear = pivotYear
        self.nullTokens = nullTokens
    }
}

/// A to-one relationship filled from a column holding the destination object's key.
///
/// For example:
///
/// ```swift
/// let well = TargetMapping(entity: "Well", key: "uwi",
///                          relationships: ["operator": RelationshipMapping(column: "operator_id", destinationKey: "operator_id")])
/// ```
public struct RelationshipMapping: Sendable, Hashable {
    /// The CSV column with the key (`operator_id`).
    public var column: String
    /// The destination's attribute the key matches (`operator_id` of `Operator`).
    public var destinationKey: String
    /// Null tokens for this column, replacing the file's.
    public var nullTokens: [String]?

    /// A relationship filled from `column`, whose values are keys of the destination's `destinationKey`.
    ///
    /// ```swift
    /// let owner = RelationshipMapping(column: "operator_id", destinationKey: "operator_id")
    /// ```
    public init(column: String, destinationKey: String, nullTokens: [String]? = nil) {
        self.column = column
        self.destinationKey = destinationKey
        self.nullTokens = nullTokens
    }
}

/// Joins a target to another target of the same row through a relationship, both sides set.
///
/// For example:
///
/// ```swift
/// let detail = TargetMapping(entity: "WellDetail", key: "uwi",
///                            link: LinkMapping(relationship: "summary", target: "WellSummary"))
/// ```
public struct LinkMapping: Sendable, Hashable {
    /// The relationship of the target that declares the link (`summary` of `WellDetail`).
    public var relationship: String
    /// The other target's entity (`WellSummary`).
    public var target: String

    /// A link through `relationship` to the object the row's `target` made.
    public init(relationship: String, target: String) {
        self.relationship = relationship
        self.target = target
    }
}

/// A join file: each row adds one destination to a to-many relationship of one source object.
///
/// For example:
///
/// ```swift
/// let tags = JoinMapping(entity: "FailedBankDetails", relationship: "tags", sourceColumn: "cert", sourceKey: "cert",
///                        destinationColumn: "tag", destinationKey: "name")
/// ```
public struct JoinMapping: Sendable, Hashable {
    /// The source entity (`FailedBankDetails`).
    public var entity: String
    /// Its to-many relationship (`tags`).
    public var relationship: String
    /// The column holding the source's key (`cert`), matched against ``sourceKey``.
    public var sourceColumn: String
    /// The source entity's attribute the key matches.
    public var sourceKey: String
    /// The column holding the destination's key (`tag`).
    public var destinationColumn: String
    /// The destination entity's attribute the key matches (`name` of `Tag`).
    public var destinationKey: String

    /// A join file adding, for each row, the destination its `destinationColumn` names to the `relationship`
    /// of the source its `sourceColumn` names.
    public init(entity: String, relationship: String, sourceColumn: String, sourceKey: String,
                destinationColumn: String, destinationKey: String) {
        self.entity = entity
        self.relationship = relationship
        self.sourceColumn = sourceColumn
        self.sourceKey = sourceKey
        self.destinationColumn = destinationColumn
        self.destinationKey = destinationKey
    }
}

/// Header matching: names are trimmed, then case, spaces, `_`, `-` and other punctuation are folded, so
/// `operator_id`, `Operator ID`, `operatorId` and `OPERATOR-ID ` all match.
///
/// For example:
///
/// ```swift
/// HeaderName.fold("Closing Date ")   // "closingdate"
/// HeaderName.fold("API#")            // "api"
/// ```
public enum HeaderName {
    /// The folded form of a header or attribute name: lower-cased letters and digits only. A control
    /// character other than a line break or tab (a NUL, an escape) is kept, so a header holding one
    /// matches no attribute by folding: `t\0ask` is a damaged header, not `task`.
    public static func fold(_ name: String) -> String {
        String(name.unicodeScalars.filter { keeps($0) }.map { Character($0) }).lowercased()
    }

    private static func keeps(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) { return true }
        return scalar.properties.generalCategory == .control && !["\t", "\n", "\r"].contains(scalar)
    }

    /// Says that `columns` of `header` all match `name` once case, spaces and `_` are set aside, and what
    /// to do: the import would read the first and drop the others' values.
    /// `inMapping`: the name comes from a mapping file, which can name the column exactly.
    /// `relationship`: the columns hold the key of a to-one (its name and the destination's key attribute),
    /// which a mapping names under `"relationships"` rather than `"columns"`.
    static func ambiguityProblem(_ name: String, header: [String], columns: [Int], inMapping: Bool,
                                 relationship: (name: String, destinationKey: String)? = nil) -> String {
        let listed = columns.map { "\"\(header[$0])\" (column \($0 + 1))" }
        let first = header[columns[0]].trimmingCharacters(in: .whitespaces)
        let entry = relationship.map { "\"relationships\": {\"\($0.name)\": {\"column\": \"\(first)\", \"destinationKey\": \"\($0.destinationKey)\"}}" }
            ?? "\"columns\": {\"\(name)\": \"\(first)\"}"
        let fix = inMapping ? "name the column exactly in the mapping (\(entry))"
            : relationship == nil ? "write a mapping file that names the column exactly (docs/mapping.md)"
            : "write a mapping file that names the column exactly (\(entry); docs/mapping.md)"
        return "\(listed.dropLast().joined(separator: ", ")) and \(listed.last!) \(columns.count == 2 ? "both" : "all") match \"\(name)\" once case, spaces and '_' are set aside, "
            + "so which one to read is unclear; rename or drop all but one, or " + fix
    }

    /// The index of the header matching `name`: exactly (after trimming) first, then folded;
    /// without a header, `name` is a 1-based position.
    public static func index(of name: String, in header: [String]?, columnCount: Int) -> Int? {
        Lookup(header: header, columnCount: columnCount).index(of: name)
    }

    /// One header's names, trimmed and folded once, so that finding many names in a wide file (1,500
    /// columns) takes a hash lookup each rather than a pass over the header that trims and folds every name.
    ///
    /// For example:
    ///
    /// ```swift
    /// let lookup = HeaderName.Lookup(header: ["uwi", "Well Name"], columnCount: 2)
    /// lookup.index(of: "well_name")   // 1
    /// ```
    public struct Lookup: Sendable {
        private let columnCount: Int
        private let hasHeader: Bool
        private var exact: [String: Int] = [:]
        private var folded: [String: Int] = [:]
        private var exactCounts: [String: Int] = [:]
        private var foldedCounts: [String: Int] = [:]
        private var header: [String] = []

        /// The lookup for `header`, or, without one, for 1-based positions up to `columnCount`.
        public init(header: [String]?, columnCount: Int) {
            self.columnCount = columnCount
            hasHeader = header != nil
            guard let header else { return }
            self.header = header
            // The first column of a name wins, as in a pass from the left.
            for (index, name) in header.enumerated().reversed() {
                let trimmed = name.trimmingCharacters(in: .whitespaces)
                exact[trimmed] = index
                exactCounts[trimmed, default: 0] += 1
                let key = HeaderName.fold(name)
                folded[key] = index
                foldedCounts[key, default: 0] += 1
            }
        }

        /// The index of the column `name` means: exactly (after trimming) first, then folded; without a
        /// header, `name` is a 1-based position.
        public func index(of name: String) -> Int? {
            let trimmed = name.trimmingCharacters(in: .whitespaces)
            guard hasHeader else {
                guard let position = Int(trimmed), position >= 1, position <= columnCount else { return nil }
                return position - 1
            }
            if let index = exact[trimmed] { return index }
            let key = HeaderName.fold(name)
            guard !key.isEmpty else { return nil }
            return folded[key]
        }

        /// How many columns the header names `name` exactly (after trimming).
        public func count(of name: String) -> Int {
            exactCounts[name.trimmingCharacters(in: .whitespaces)] ?? 0
        }

        /// The columns `name` could mean when it means more than one, else `nil`: the columns named
        /// exactly `name` when there are several, or, with none named exactly, the columns whose names
        /// fold to it (`Menge_` and `MENGE` for `menge`). ``index(of:)`` picks the first; which one the
        /// user meant is a guess.
        ///
        /// ```swift
        /// HeaderName.Lookup(header: ["id", "Menge_", "MENGE"], columnCount: 3).ambiguity(of: "menge")   // [1, 2]
        /// HeaderName.Lookup(header: ["menge", "MENGE"], columnCount: 2).ambiguity(of: "menge")          // nil: one exact
        /// ```
        public func ambiguity(of name: String) -> [Int]? {
            guard hasHeader else { return nil }
            let trimmed = name.trimmingCharacters(in: .whitespaces)
            if let count = exactCounts[trimmed] {
                guard count > 1 else { return nil }
                return header.indices.filter { header[$0].trimmingCharacters(in: .whitespaces) == trimmed }
            }
            let key = HeaderName.fold(name)
            guard !key.isEmpty, (foldedCounts[key] ?? 0) > 1 else { return nil }
            return header.indices.filter { HeaderName.fold(header[$0]) == key }
        }
    }
}
