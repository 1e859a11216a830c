import CSVStream
import Foundation
import ManagedStore

/// Values that mean "no value" for one column, compared as bytes after trimming.
///
/// Trivially copyable: up to ``maximumTokens`` tokens (besides the empty one) of up to 16 bytes each are
/// packed into integers, so plans holding it copy for free in the row loop. Tokens of 17 to 32 bytes
/// (MySQL's zero datetime, `0000-00-00 00:00:00`) are compared out of line, from a list held unretained
/// (``_LongNullTokens``).
struct _NullTokens: Sendable {
    /// How many non-empty tokens fit.
    static let maximumTokens = 4
    /// The longest token, in UTF-8 bytes.
    static let maximumLength = 32

    let matchesEmpty: Bool
    /// With an escape byte, the two bytes `\N` (the escape and `N`, little-endian), which the reader hands
    /// over unquoted for a null and for nothing else; 0 without one.
    private var escapedNull: UInt16 = 0
    private var count: UInt8 = 0
    private var lengths: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)
    private var words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
    /// The tokens longer than 16 bytes, compared only for a field that long; `nil` when there are none.
    private var long: Unmanaged<_LongNullTokens>?
    private var longest: UInt8 = 0

    /// Why `tokens` cannot be packed (too many, or one too long), for a message; `nil` when they fit.
    /// A mapping file's lists are checked with its other keys, so one run reports every problem.
    ///
    /// ```swift
    /// _NullTokens.limitProblem(["", "NA"])   // nil
    /// _NullTokens.limitProblem(["a", "b", "c", "d", "e"])   // "at most 4 tokens besides \"\" are supported, … (5 tokens besides \"\")"
    /// ```
    static func limitProblem(_ tokens: [String]) -> String? {
        var found: [String] = []
        let others = Set(tokens.filter { !$0.isEmpty }.map { Array($0.utf8) })
        if others.count > maximumTokens { found.append("\(others.count) tokens besides \"\"") }
        for token in tokens where token.utf8.count > maximumLength {
            found.append("\"\(VisibleText.escaped(token))\" is \(token.utf8.count) bytes")
        }
        guard !found.isEmpty else { return nil }
        return "at most \(maximumTokens) tokens besides \"\" are supported, each at most \(maximumLength) bytes (\(found.joined(separator: "; ")))"
    }

    /// Packs `tokens`, and with an `escape` byte the escaped null `\N` besides them; `nil` when there are
    /// too many or one is too long (``limitProblem(_:)`` says which).
    init?(_ tokens: [String], escape: UInt8? = nil) {
        matchesEmpty = tokens.contains("")
        if let escape { escapedNull = UInt16(escape) | UInt16(UInt8(ascii: "N")) << 8 }
        let others = Array(Set(tokens.filter { !$0.isEmpty }.map { Array($0.utf8) })).sorted { $0.lexicographicallyPrecedes($1) }
        guard others.count <= Self.maximumTokens, others.allSatisfy({ $0.count <= Self.maximumLength }) else { return nil }
        count = UInt8(others.count)
        var lengths = [UInt8](repeating: 0, count: 4)
        var words = [UInt64](repeating: 0, count: 8)
        for (i, token) in others.enumerated() where token.count <= 16 {
            lengths[i] = UInt8(token.count)
            (words[2 * i], words[2 * i + 1]) = Self.pack(token.withUnsafeBufferPointer { $0 })
        }
        self.lengths = (lengths[0], lengths[1], lengths[2], lengths[3])
        self.words = (words[0], words[1], words[2], words[3], words[4], words[5], words[6], words[7])
        let longTokens = others.filter { $0.count > 16 }
        if !longTokens.isEmpty { long = _LongNullTokens.interned(longTokens) }
        longest = UInt8(others.map(\.count).max() ?? 0)
    }

    /// Up to 16 bytes as two little-endian words, zero-padded.
    @inline(__always)
    private static func pack(_ bytes: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64) {
        var low: UInt64 = 0, high: UInt64 = 0
        for (i, byte) in bytes.enumerated() {
            if i < 8 { low |= UInt64(byte) << (8 * UInt64(i)) } else { high |= UInt64(byte) << (8 * UInt64(i - 8)) }
        }
        return (low, high)
    }

    @inline(__always)
    func matches(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if bytes.isEmpty { return matchesEmpty }
        if escapedNull != 0 && bytes.count == 2 && UInt16(bytes[0]) | UInt16(bytes[1]) << 8 == escapedNull { return true }
        if bytes.count > Int(longest) { return false }
        if bytes.count > 16 { return matchesLong(bytes) }
        let length = UInt8(bytes.count)
        let (low, high) = Self.pack(bytes)
        if count > 0 && lengths.0 == length && words.0 == low && words.1 == high { return true }
        if count > 1 && lengths.1 == length && words.2 == low && words.3 == high { return true }
        if count > 2 && lengths.2 == length && words.4 == low && words.5 == high { return true }
        if count > 3 && lengths.3 == length && words.6 == low && words.7 == high { return true }
        return false
    }

    /// ``matches(_:)`` for 17 to 32 bytes: kept out of line, so the row loop inlines the short case alone.
    @inline(never)
    private func matchesLong(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let long else { return false }
        return long._withUnsafeGuaranteedRef { $0.tokens.contains { $0.elementsEqual(bytes) } }
    }
}

/// Null tokens of 17 to 32 bytes, for ``_NullTokens``: one instance per distinct list, kept for the
/// process's life (a few per mapping at most), so a token list can hold it unretained and stay trivially
/// copyable.
final class _LongNullTokens: @unchecked Sendable {
    let tokens: [[UInt8]]

    private init(_ tokens: [[UInt8]]) { self.tokens = tokens }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var lists: [[[UInt8]]: _LongNullTokens] = [:]

    /// The one instance for `tokens`.
    ///
    /// ```swift
    /// let long = _LongNullTokens.interned([Array("0000-00-00 00:00:00".utf8)])
    /// ```
    static func interned(_ tokens: [[UInt8]]) -> Unmanaged<_LongNullTokens> {
        lock.lock()
        defer { lock.unlock() }
        if let list = lists[tokens] { return .passUnretained(list) }
        let list = _LongNullTokens(tokens)
        lists[tokens] = list
        return .passUnretained(list)
    }
}

/// Trims spaces and tabs on both sides of a field.
@inline(__always)
func _trimmed(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
    guard let base = bytes.baseAddress else { return bytes }
    var start = 0
    var end = bytes.count
    while start < end && (base[start] == 0x20 || base[start] == 0x09) { start += 1 }
    while end > start && (base[end - 1] == 0x20 || base[end - 1] == 0x09) { end -= 1 }
    if start == 0 && end == bytes.count { return bytes }
    return UnsafeBufferPointer(start: base + start, count: end - start)
}

/// One attribute filled from one column.
///
/// Trivially copyable: what is not a number lives in the target's side tables (``_TargetPlan/nullValues``,
/// ``_TargetPlan/attributeNames``), so walking the fields of a row retains nothing.
struct _FieldPlan {
    /// The 0-based field index in the record.
    let field: Int
    /// The attribute's column ordinal.
    let ordinal: Int
    let converter: _FieldConverter
    let nulls: _NullTokens
    /// Where a null goes: an index into ``_TargetPlan/nullValues`` (the model's default, or `.null` for an
    /// optional attribute), or -1 when the attribute is required and has no default (a reject).
    let nullValue: Int
    /// Whether text a non-empty null token makes null is counted for a warning (``_FieldTally``): a String
    /// attribute whose tokens are the built-in defaults (`NULL`, `NA`), which the user did not choose.
    /// Decided once per column, so the row loop tests one flag.
    var countsTextNulls = false
    /// Whether unquoted text kept with spaces or tabs around it is looked at: a String attribute of a file
    /// that does not trim, where padding is either data (PostgreSQL's `'  x'`) or a fixed-width export's
    /// filler the user would rather drop (`--trim`): counted for a warning (``_FieldTally``) unless the
    /// file chose not to trim, and refused when it surrounds quotes (` "Ann"`).
    var countsPadding = false
    /// Whether text that looks backslash-escaped is counted for a warning (``_FieldTally``): `\N` alone
    /// (MySQL's and PostgreSQL's text-format null) or a value ending in a backslash (an escaped delimiter
    /// or line end). A String attribute: other types refuse such values with their own reason.
    var countsEscapes = false
    /// Whether whole numbers written with leading zeros (`00501`) are counted for a warning (``_FieldTally``):
    /// an Integer attribute stores 501, which is right for a quantity and loses a code (a ZIP code, an ID).
    var countsLeadingZeros = false
    /// Whether the column reads two-digit years with the default pivot (nobody chose one): after the
    /// import, values after today are named (``_ImportSession/futureTwoDigitYearNotes()``), since 45
    /// reads as 2045 there.
    var checksFutureYears = false
}

/// One to-one relationship filled from a column holding the destination's key.
///
/// Trivially copyable: the index is held unretained (the plan keeps it alive) and the name lives in
/// ``_TargetPlan/relationshipNames``.
struct _RelationshipPlan {
    let field: Int
    /// The foreign-key column ordinal.
    let ordinal: Int
    /// Converts the column into the destination key attribute's type.
    let converter: _FieldConverter
    let nulls: _NullTokens
    private let indexReference: Unmanaged<_KeyIndex>
    let isOptional: Bool
    /// An earlier target of the same row that fills the destination with this key (-1: none), so a row
    /// can make an object and point at it.
    let sameRowTarget: Int
    /// Whether this file fills the destination too, so a key may name a row further down the file: such
    /// a forward reference is resolved when the file has been read (``_TargetWriter``).
    let destinationInFile: Bool
    /// Whether the inverse is to-one too (one-to-one): the destination then holds this object in a
    /// column of its own, so the relationship is set through the context, which keeps both sides (and a
    /// former partner's) in step, not by its column alone.
    var isOneToOne = false
    /// For a one-to-one: the destination's column of the inverse.
    var inverseOrdinal = -1

    init(field: Int, ordinal: Int, converter: _FieldConverter, nulls: _NullTokens, index: _KeyIndex, isOptional: Bool,
         sameRowTarget: Int, destinationInFile: Bool) {
        self.field = field
        self.ordinal = ordinal
        self.converter = converter
        self.nulls = nulls
        self.indexReference = Unmanaged.passUnretained(index)
        self.isOptional = isOptional
        self.sameRowTarget = sameRowTarget
        self.destinationInFile = destinationInFile
    }

    /// The destination's key index.
    @inline(__always)
    var index: _KeyIndex { indexReference._withUnsafeGuaranteedRef { $0 } }
}

/// How a target's object joins another target's object of the same row.
struct _LinkPlan {
    /// The other target (index in the file's targets).
    let other: Int
    /// This target's to-one column, when the link relationship is to-one.
    let ordinal: Int?
    /// The other target's to-one column of the inverse, when that is to-one.
    let inverseOrdinal: Int?
    /// The to-many relationship name to add through, for many-to-many links.
    let toManyName: String?
}

/// One entity a file's rows fill: everything decided before the first row.
final class _TargetPlan {
    let entity: Entity
    let index: Int
    var fields: [_FieldPlan] = []
    var relationships: [_RelationshipPlan] = []
    var link: _LinkPlan?
    /// The upsert key: the index and the ordinal of the key attribute.
    var key: _KeyIndex?
    /// The upsert key's attribute name (also for a target keyed through its link, which has no index).
    var keyAttribute: String?
    /// The earlier target of the row whose object this one is linked to one-to-one and keyed like:
    /// this target's object is that object's linked one (no index of its own), or new when that is new.
    var keyThrough: Int?
    /// Whether a row repeating the key counts as a duplicate in the summary (not for a target without a
    /// key of its own, found through its link).
    var reportsDuplicates = true
    /// Other indexes filled with this target's objects (destination keys of later files).
    var populates: [_KeyIndex] = []
    /// The values a new object starts with (the model's defaults).
    let defaults: ContiguousArray<Value>
    /// What nulls become, by ``_FieldPlan/nullValue``.
    var nullValues: [Value] = []
    /// The attribute of each field, by position in ``fields``.
    var attributeNames: [String] = []
    /// Required attributes without a default that this file has no column for: it fills an entity an
    /// earlier file fills, by key, so its rows may update objects; a row that would insert one is a reject
    /// (``_TargetWriter/newObjectLacksRequired()``).
    var unmappedRequired: [String] = []
    /// What to do when a field's value does not convert, by position in ``fields``, when something
    /// specific helps (a date column read as ISO 8601 for want of a `format`); mostly `nil`.
    var conversionHints: [String?] = []
    /// The null tokens a field's column mapping gives (its `nullTokens`, which replace the file's for that
    /// column), by position in ``fields``; `nil` where the file's apply. For messages.
    var columnNullTokens: [[String]?] = []
    /// The name of each relationship, by position in ``relationships``.
    var relationshipNames: [String] = []
    /// Per relationship, the first file that fills its destination but runs after this one (its path as
    /// the mapping writes it), for the message of a key no object has: files filling the same entity run
    /// in the mapping's order, so such a file's keys are not there yet.
    var relationshipLaterFillers: [String?] = []
    /// Objects the trivially copyable plans point at without retaining them (date formats).
    var keepAlive: [AnyObject] = []
    /// Ordinals a row sets, for updating an existing object (upserts); one-to-one relationships are set
    /// apart (``oneToOne``).
    var mappedOrdinals: [Int] = []
    /// The positions in ``relationships`` of one-to-one relationships.
    var oneToOne: [Int] = []

    var inserted = 0
    var updated = 0
    /// Duplicate keys within one file: count and the first few lines.
    var duplicateCount = 0
    var duplicateLines: [Int] = []

    init(entity: Entity, index: Int) {
        self.entity = entity
        self.index = index
        self.defaults = entity.defaultValues
    }
}

/// A join file's plan: keys of both sides and the to-many relationship to add through.
struct _JoinPlan {
    let sourceField: Int
    let destinationField: Int
    let sourceConverter: _FieldConverter
    let destinationConverter: _FieldConverter
    let sourceIndex: _KeyIndex
    let destinationIndex: _KeyIndex
    let relationship: String
    let entity: Entity
    let destination: Entity
    let nulls: _NullTokens
}

/// One file, ready to run: its reader settings, header, targets or join, and the indexes it frees.
final class _FilePlan {
    let mapping: FileMapping
    /// The resolved path.
    let path: String
    /// The path as written, for messages.
    let displayPath: String
    /// Its place in run order.
    let position: Int
    let options: CSVOptions
    var header: [String]? {
        didSet { headerLookup = nil }
    }
    /// ``header``'s names, for finding columns by name (made at the first lookup).
    var columns: HeaderName.Lookup {
        if let headerLookup { return headerLookup }
        let lookup = HeaderName.Lookup(header: header, columnCount: columnCount)
        headerLookup = lookup
        return lookup
    }
    private var headerLookup: HeaderName.Lookup?
    /// Rows holding a value in a column the header leaves unnamed, the first such row's line, and those
    /// columns (targets only).
    var unnamedValueRows = 0
    var firstUnnamedValueLine: Int?
    /// String values non-empty null tokens made null, by target and field (``_FieldTally/slot(_:_:)``).
    var textNulls: [Int: _FieldTally] = [:]
    var unnamedValueColumns: Set<Int> = []
    /// Numbers read with `,` as a thousands separator in a file not split by commas, per attribute (targets only).
    var commaGrouped: [Int: _FieldTally] = [:]
    /// Unquoted text kept with spaces or tabs around it, per attribute (targets only).
    var paddedText: [Int: _FieldTally] = [:]
    /// Text that looks backslash-escaped (`\N`, a trailing backslash), per attribute (targets only).
    var escapedText: [Int: _FieldTally] = [:]
    /// Whole numbers written with leading zeros, which an Integer attribute drops, per attribute (targets only).
    var leadingZeros: [Int: _FieldTally] = [:]
    var columnCount = 0 {
        didSet { headerLookup = nil }
    }
    var targets: [_TargetPlan] = []
    var join: _JoinPlan?
    /// Indexes no later file needs: dropped when this file is done.
    var releases: [_IndexKey] = []
    var size: Int64 = 0
    /// The file's size and modification time when the import first planned it: each pass checks them, so a
    /// file written meanwhile stops the import rather than filling entities from two versions of it.
    var fingerprint: _Fingerprint?
    /// Objects the join plan's converters point at without retaining them.
    var keepAlive: [AnyObject] = []

    var rowsRead = 0
    var rowsImported = 0
    var blankRows = 0
    /// Rows that repeat the header (files concatenated with their headers), skipped; the first few lines.
    var repeatedHeaders = 0
    var repeatedHeaderLines: [Int] = []
    var rejects = 0
    /// Of ``rejects``, rows whose values read but whose keys did not hold: a key naming no object, a row
    /// taken along with one, a partner taken (the others did not read: a value, the field count, the encoding).
    var relationshipRejects = 0
    /// The lines set aside so far, so a row is never set aside twice (8 bytes a reject).
    var rejectedLines = _LineSet()
    var joinsAdded = 0
    /// Rows an earlier run of this import rejected once their file had been read, by line, with why: this
    /// run sets them aside as it reads them, before they change anything (see ``_ImportSession/needsRerun``).
    var excluded = _FailureTable()
    /// In skip mode, in a file that fills a relationship from its own rows, the rows that changed an object
    /// that existed before them (an upsert, a one-to-one partner): rejecting one of them late calls for a
    /// run without it.
    var touchedLines = _LineSet()

    init(mapping: FileMapping, path: String, displayPath: String, position: Int, options: CSVOptions) {
        self.mapping = mapping
        self.path = path
        self.displayPath = displayPath
        self.position = position
        self.options = options
    }

    /// Counts a row that repeats the header, keeping its line among the first `reporting`.
    func noteRepeatedHeader(line: Int, reporting: Int) {
        repeatedHeaders += 1
        if repeatedHeaderLines.count < reporting { repeatedHeaderLines.append(line) }
    }

    /// The columns the header leaves unnamed (empty, or spaces) that no target reads.
    var unnamedColumns: [Int] {
        guard let header else { return [] }
        let read = Set(targets.flatMap { $0.fields.map(\.field) + $0.relationships.map(\.field) })
        return header.indices.filter { header[$0].trimmingCharacters(in: .whitespaces).isEmpty && !read.contains($0) }
    }

    /// Notes, once the file has been read, values in columns the header leaves unnamed: nothing reads them.
    var unnamedValuesWarning: String? {
        guard unnamedValueRows > 0, let line = firstUnnamedValueLine else { return nil }
        let columns = unnamedValueColumns.sorted().map { String($0 + 1) }
        let which = columns.count == 1 ? "column \(columns[0]) has" : "columns \(columns.joined(separator: ", ")) have"
        let rows = unnamedValueRows == 1 ? "1 row (line \(line))" : "\(_ProgressReporter.grouped(unnamedValueRows)) rows (the first on line \(line))"
        let remedy = columns.count == 1 ? "name the column in the header and map it to an attribute" : "name the columns in the header and map them to attributes"
        return "\(displayPath): \(which) no name in the header but values in \(rows), which are not imported: \(remedy)"
    }

    /// The warnings of the file's ``_FieldTally`` counts, once it has been read, one per attribute and kind:
    /// text that a built-in null token other than the empty one made null (`NA` is a null token by default, and
    /// Namibia's country code too), numbers read with `,` grouping thousands in a file not split by commas, then
    /// unquoted text kept with spaces around it in a file that does not trim.
    var tallyWarnings: [String] {
        func name(_ slot: Int) -> (String, _FieldPlan) {
            let (t, f) = _FieldTally.place(slot)
            return ("\(displayPath) → \(targets[t].entity.name).\(targets[t].attributeNames[f])", targets[t].fields[f])
        }
        let nulls = textNulls.sorted { $0.key < $1.key }.map { slot, tally in
            let (place, field) = name(slot)
            let text = tally.count == 1 ? "1 text value" : "\(_ProgressReporter.grouped(tally.count)) text values"
            return "\(place): \(text) matched a null token and became null "
                + "(the first \"\(tally.text)\", line \(tally.line), \(columnPlace(field.field))); if \(tally.count == 1 ? "it is" : "they are") text, "
                + "make only empty fields null (--null '', or \"nullTokens\": [\"\"] in a mapping), or quote \(tally.count == 1 ? "it" : "them") in the file"
        }
        let grouped = commaGrouped.sorted { $0.key < $1.key }.map { slot, tally in
            let values = tally.count == 1 ? "1 value" : "\(_ProgressReporter.grouped(tally.count)) values"
            let read: String
            switch tally.value {
            case .double(let number) where number == number.rounded() && abs(number) < 1e15: read = String(Int64(number))
            case .double(let number): read = String(number)
            case .integer(let number): read = String(number)
            default: read = tally.value.description
            }
            if options.decimalComma {
                return "\(name(slot).0): \(values) read with '.' as a thousands separator (--decimal-comma) in a ','-separated file "
                    + "(first at line \(tally.line): \"\(tally.text)\" → \(read)), where a decimal comma would need quotes; if '.' is the decimal "
                    + "mark there, this file is not written with decimal commas: leave out --decimal-comma for it (give each file its "
                    + "\"decimalComma\" in a mapping)"
            }
            let separated = options.delimiter == 0x09 ? "tab-separated" : "'\(VisibleText.escaped(String(UnicodeScalar(options.delimiter))))'-separated"
            return "\(name(slot).0): \(values) read with ',' as a thousands separator in a \(separated) file "
                + "(first at line \(tally.line): \"\(tally.text)\" → \(read)); if ',' is the decimal mark there, re-run with --decimal-comma "
                + "(or \"decimalComma\": true for the file in a mapping)"
        }
        // Padding and backslash escapes are properties of the file (a fixed-width export pads every column,
        // a MySQL export escapes every one): one warning for all its attributes, each with its count and first.
        func fileWide(_ tallies: [Int: _FieldTally]) -> (total: Int, items: String)? {
            guard !tallies.isEmpty else { return nil }
            let items = tallies.sorted { $0.key < $1.key }.map { slot, tally in
                let (t, f) = _FieldTally.place(slot)
                return "\(targets[t].entity.name).\(targets[t].attributeNames[f]) \(_ProgressReporter.grouped(tally.count)) "
                    + "(the first \"\(tally.text)\", line \(tally.line), \(columnPlace(targets[t].fields[f].field)))"
            }
            return (tallies.values.reduce(0) { $0 + $1.count }, items.joined(separator: "; "))
        }
        let padded = fileWide(paddedText).map { total, items in
            "\(displayPath): \(total == 1 ? "1 text value has" : "\(_ProgressReporter.grouped(total)) text values have") "
                + "spaces or tabs around \(total == 1 ? "it" : "them"), kept as written: \(items); "
                + "if the file pads its values, re-run with --trim (or \"trim\": true for the file in a mapping)"
        }
        let escaped = fileWide(escapedText).map { total, items in
            "\(displayPath): \(total == 1 ? "1 text value looks" : "\(_ProgressReporter.grouped(total)) text values look") "
                + "backslash-escaped, as MySQL's SELECT … INTO OUTFILE and PostgreSQL's text-format COPY write them, and "
                + "\(total == 1 ? "was" : "were") stored as written: \(items). Read as RFC 4180 CSV (quotes, doubled quotes), "
                + "\\N is the text \\N, and a backslash before a delimiter or line end does not keep the value going. "
                + "If the file is such an export, re-run with --escape '\\' (or \"escape\": \"\\\\\" for the file in a mapping), "
                + "which decodes the escapes and reads \\N as null; PostgreSQL's text format never quotes, so add --quote none for it"
        }
        let zeros = leadingZeros.sorted { $0.key < $1.key }.map { slot, tally in
            let (place, field) = name(slot)
            let values = tally.count == 1 ? "1 value" : "\(_ProgressReporter.grouped(tally.count)) values"
            return "\(place): \(values) written with leading zeros lost them as whole numbers (the first \"\(tally.text)\" → \(tally.value.description), "
                + "line \(tally.line), \(columnPlace(field.field))); if \(tally.count == 1 ? "it is a code" : "they are codes") (a ZIP code, an ID), "
                + "make the attribute a String, which keeps them"
        }
        return nulls + grouped + zeros + [padded, escaped].compactMap { $0 }
    }

    /// The header name of field `index` (or its 1-based position without a header).
    func columnName(_ index: Int) -> String {
        headerName(index) ?? "column \(index + 1)"
    }

    /// Field `index` as a place in a message: `column Well Name`, or `column 2` without a header name.
    func columnPlace(_ index: Int) -> String {
        "column " + (headerName(index) ?? String(index + 1))
    }

    /// The header's name of field `index`, trimmed; `nil` without a header or when it is blank.
    private func headerName(_ index: Int) -> String? {
        guard let header, index < header.count else { return nil }
        let name = header[index].trimmingCharacters(in: .whitespaces)
        return name.isEmpty ? nil : name
    }
}

/// An index's identity: entity and attribute.
struct _IndexKey: Hashable, Comparable {
    let entity: String
    let attribute: String

    static func < (lhs: _IndexKey, rhs: _IndexKey) -> Bool { (lhs.entity, lhs.attribute) < (rhs.entity, rhs.attribute) }
}

/// Line numbers, mostly added in increasing order: a sorted array, so a file of many bad rows costs 8
/// bytes for each. Lines that come out of order wait in a small set and are merged in once it holds an
/// eighth as many, so lines added in decreasing order (a chain of rejections settled from its end) do
/// not sort the array again at every lookup.
struct _LineSet {
    private var lines: [Int] = []
    private var outOfOrder = Set<Int>()

    mutating func insert(_ line: Int) {
        if let last = lines.last, line <= last {
            guard !contains(line) else { return }
            outOfOrder.insert(line)
            if outOfOrder.count > 64 + lines.count / 8 { merge() }
        } else {
            lines.append(line)
        }
    }

    func contains(_ line: Int) -> Bool {
        if !outOfOrder.isEmpty && outOfOrder.contains(line) { return true }
        let low = lines._partitionPoint { $0 >= line }
        return low < lines.count && lines[low] == line
    }

    /// Merges the waiting lines into the sorted array.
    private mutating func merge() {
        let waiting = outOfOrder.sorted()
        outOfOrder = []
        var merged: [Int] = []
        merged.reserveCapacity(lines.count + waiting.count)
        var i = 0, j = 0
        while i < lines.count || j < waiting.count {
            if j == waiting.count || i < lines.count && lines[i] < waiting[j] {
                merged.append(lines[i])
                i += 1
            } else {
                merged.append(waiting[j])
                j += 1
            }
        }
        lines = merged
    }
}

/// A file's size, modification and change times, to tell whether it changed between two reads (the change
/// time also moves when a rewrite sets the modification time back, as `touch -d` does).
struct _Fingerprint: Equatable {
    let size: Int64
    let seconds: Int
    let nanoseconds: Int
    let changeSeconds: Int
    let changeNanoseconds: Int

    /// The file at `path` as it is now; `nil` when it cannot be read.
    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        size = Int64(info.st_size)
        seconds = info.st_mtim.tv_sec
        nanoseconds = info.st_mtim.tv_nsec
        changeSeconds = info.st_ctim.tv_sec
        changeNanoseconds = info.st_ctim.tv_nsec
    }
}
