import CSVStream
import Foundation
import ManagedStore

/// Rows read and converted ahead, handed over in chunks.
///
/// Values are `Sendable`; a chunk carries, per row, its place in the file and either the converted values
/// (one array per target, relationship key columns holding the key's value until the writer looks it up),
/// a reason it cannot be imported, or the note that it is blank.
struct _RowChunk: Sendable {
    /// One row's place and outcome.
    struct Row: Sendable {
        enum Status: Sendable {
            /// Converted: the values start at this index of ``_RowChunk/values`` (one array per target).
            case converted(Int)
            /// A blank line, or a record whose fields are all empty.
            case blank
            /// A record that repeats the header (files concatenated with their headers): skipped, counted.
            case repeatedHeader
            /// Cannot be imported; `raw` is the record's original bytes.
            case failed(_RowFailure, raw: [UInt8], keys: [_SetAsideKey] = [])
        }

        var line: Int
        var byteOffset: Int64
        var byteCount: Int
        var status: Status
    }

    var rows: [Row] = []
    var values: [ContiguousArray<Value>] = []
    /// Input bytes parsed when the chunk was handed over, for progress.
    var bytesRead: Int64 = 0
    /// A failure that ends the file after these rows (a strict-mode quote error, an I/O error).
    var error: CSVError?
    /// Rows holding a value in a column the header leaves unnamed (which nothing reads), the first such
    /// row's line, and the columns such values were in.
    var unnamedValueRows = 0
    var firstUnnamedValueLine: Int?
    var unnamedValueColumns: Set<Int> = []
    /// Text values a built-in non-empty null token made null (`NA`, `NULL`), by target and field (``_FieldTally/slot(_:_:)``).
    var textNulls: [Int: _FieldTally] = [:]
    /// Numbers read with `,` as a thousands separator in a file not split by commas, by target and field (rarely any).
    var commaGrouped: [Int: _FieldTally] = [:]
    /// Unquoted text kept with spaces or tabs around it, by target and field (``_FieldPlan/countsPadding``).
    var paddedText: [Int: _FieldTally] = [:]
    /// Text that looks backslash-escaped, by target and field (``_FieldPlan/countsEscapes``).
    var escapedText: [Int: _FieldTally] = [:]
    /// Whole numbers written with leading zeros, by target and field (``_FieldPlan/countsLeadingZeros``).
    var leadingZeros: [Int: _FieldTally] = [:]
}

/// Values of one attribute that the summary warns about (rarely any): how many, and the first one's line,
/// its text as written and the value it was read as. Counted per chunk as rows are read, then per file.
///
/// - Text that a built-in null token other than `""` made null (`NULL`, `NA`, when no one chose the tokens:
///   ``_FieldPlan/countsTextNulls``): such tokens are words a text may be (Namibia's code is NA).
/// - Numbers read with `,` as a thousands separator in a `;`-, tab- or otherwise not comma-separated file read without a decimal comma
///   (`1,250` → 1250): valid grouping, but the usual sign of a decimal comma read as something else.
/// - Unquoted text kept with spaces or tabs around it in a file that does not trim (``_FieldPlan/countsPadding``):
///   data to PostgreSQL, filler to a fixed-width export.
/// - Unquoted text that looks backslash-escaped (``_FieldPlan/countsEscapes``): `\N` alone, a trailing backslash.
struct _FieldTally: Sendable {
    var count: Int
    let line: Int
    let text: String
    let value: Value

    /// The key of target `t`'s field `f` (by position in its ``_TargetPlan/fields``).
    static func slot(_ t: Int, _ f: Int) -> Int { t << 16 | f }
    /// The target and field of `slot`.
    static func place(_ slot: Int) -> (target: Int, field: Int) { (slot >> 16, slot & 0xFFFF) }

    /// Counts one value in `tallies`: its text is made only for an attribute's first.
    static func note(_ tallies: inout [Int: _FieldTally], _ slot: Int, line: Int, text: () -> String, value: Value) {
        if tallies[slot] != nil {
            tallies[slot]!.count += 1
        } else {
            tallies[slot] = _FieldTally(count: 1, line: line, text: text(), value: value)
        }
    }

    /// Adds `other`'s counts to `tallies`, keeping each attribute's first value.
    static func merge(_ other: [Int: _FieldTally], into tallies: inout [Int: _FieldTally]) {
        for (slot, tally) in other {
            if tallies[slot] != nil { tallies[slot]!.count += tally.count } else { tallies[slot] = tally }
        }
    }
}

/// A bounded hand-over between the reading thread and the writing one.
final class _ChunkQueue: @unchecked Sendable {
    // Every stored property is guarded by `condition`.
    private let condition = NSCondition()
    private var chunks: [_RowChunk] = []
    private var finished = false
    private var cancelled = false
    private let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// Waits for room, then adds `chunk`; `false` when the writer has given up.
    func put(_ chunk: _RowChunk) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while chunks.count >= capacity && !cancelled { condition.wait() }
        guard !cancelled else { return false }
        chunks.append(chunk)
        condition.broadcast()
        return true
    }

    /// The reader is done: no more chunks.
    func finish() {
        condition.lock()
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    /// The writer stops: a waiting reader wakes up and gives up.
    func cancel() {
        condition.lock()
        cancelled = true
        chunks.removeAll()
        condition.broadcast()
        condition.unlock()
    }

    /// The next chunk, waiting for one; `nil` once the reader is done and every chunk was taken.
    func take() -> _RowChunk? {
        condition.lock()
        defer { condition.unlock() }
        while chunks.isEmpty && !finished && !cancelled { condition.wait() }
        guard !chunks.isEmpty else { return nil }
        let chunk = chunks.removeFirst()
        condition.broadcast()
        return chunk
    }
}

/// Reads a file's records and converts their fields: on the caller's thread, or on a thread of its own so
/// that parsing and converting (about half the work) overlap with inserting and saving.
///
/// It touches only its reader and the plans, which are read-only while it runs; the writer keeps the
/// context, the store and the key indexes. Everything it hands over is a ``_RowChunk`` of Sendable values.
final class _RowReader: @unchecked Sendable {
    // Confined to the reading thread between `start()` and the end of its work; the writer waits for that
    // end (``waitUntilDone()``) before it touches the reader or the plans again.
    private let reader: CSVReader
    private let file: _FilePlan
    let queue: _ChunkQueue
    private let done = DispatchSemaphore(value: 0)

    // The plans as arrays of trivially copyable values, read per row.
    private let targetCount: Int
    private let trim: Bool
    private let delimiter: UInt8
    /// Whether a field counts text that looks backslash-escaped (``_FieldPlan/countsEscapes``).
    private let watchesEscapes: Bool
    /// Whether the file is written with escapes (``CSVOptions/escape``): every field is a value.
    private let escaped: Bool
    private let quote: UInt8
    /// Whether text kept with spaces around it is counted for a warning: not when the file chose to keep
    /// it (`--no-trim`, `"trim": false`).
    private let warnsPadding: Bool
    private let columnCount: Int
    private let fieldPlans: [[_FieldPlan]]
    private let relationshipPlans: [[_RelationshipPlan]]
    private let nullValues: [[Value]]
    private let attributeNames: [[String]]
    private let conversionHints: [[String?]]
    private let columnNullTokens: [[[String]?]]
    private let relationshipNames: [[String]]
    private let entityNames: [String]
    private let columnCounts: [Int]
    /// The model's non-null defaults: a row's values start as nulls plus these (cheaper than copying an
    /// array of Values).
    private let presets: [[(Int, Value)]]
    private let encoding: TextEncoding
    /// Per field, the first target's entity and attribute (or relationship) it fills; `nil` for a column
    /// nothing reads. For messages about bytes the encoding does not define.
    private let fieldOwners: [(entity: String, attribute: String)?]
    /// Rows an earlier run rejected late: set aside here with the same reason.
    private let excluded: _FailureTable
    /// The header, to skip rows that repeat it.
    private let headerEcho: _HeaderEcho?
    /// Columns the header leaves unnamed and nothing reads: a value in one is not imported, so it is counted.
    private let unnamedColumns: [Int]
    /// Per target and field, whether a number read with thousands grouping is counted (``_FieldTally``):
    /// numeric attributes of a file not split by commas read without a decimal comma (`,` groups), or of
    /// a comma-separated file read with one (`.` groups).
    private let commaWatched: [[Bool]]
    /// The thousands separator ``commaWatched`` looks for (`,`, or `.` with a decimal comma) and the decimal
    /// mark whose presence makes a value unambiguous (`1,250.00`, `1.234,5`).
    private let groupMark: UInt8
    private let decimalMark: UInt8
    /// The chunk being filled.
    @exclusivity(unchecked) private var chunk = _RowChunk()

    /// Rows per chunk: large enough to make the hand-over cheap, small enough to keep memory flat.
    static let chunkRows = 512

    init(reader: CSVReader, file: _FilePlan, queue: _ChunkQueue) {
        self.reader = reader
        self.file = file
        self.queue = queue
        let targets = file.targets
        targetCount = targets.count
        trim = file.options.trim
        delimiter = file.options.delimiter
        escaped = file.options.escape != nil
        watchesEscapes = file.targets.contains { $0.fields.contains(where: \.countsEscapes) }
        quote = file.options.quote
        warnsPadding = !file.options.isTrimSet
        columnCount = file.columnCount
        fieldPlans = targets.map(\.fields)
        relationshipPlans = targets.map(\.relationships)
        nullValues = targets.map(\.nullValues)
        attributeNames = targets.map(\.attributeNames)
        conversionHints = targets.map(\.conversionHints)
        columnNullTokens = targets.map(\.columnNullTokens)
        relationshipNames = targets.map(\.relationshipNames)
        entityNames = targets.map(\.entity.name)
        columnCounts = targets.map(\.defaults.count)
        presets = targets.map { target in
            target.defaults.indices.compactMap { target.defaults[$0].isNull ? nil : ($0, target.defaults[$0]) }
        }
        encoding = file.options.encoding
        var owners = [(entity: String, attribute: String)?](repeating: nil, count: file.columnCount)
        for target in targets {
            let names = Array(zip(target.fields.map(\.field), target.attributeNames))
                + Array(zip(target.relationships.map(\.field), target.relationshipNames))
            for (field, name) in names where owners.indices.contains(field) && owners[field] == nil {
                owners[field] = (target.entity.name, name)
            }
        }
        fieldOwners = owners
        excluded = file.excluded
        // An escaped export's rows are its table's, as COPY FROM reads them: one equal to the header too.
        headerEcho = file.options.escape == nil ? _HeaderEcho(file.header, raw: reader.headerRawBytes) : nil
        unnamedColumns = file.unnamedColumns
        // In a comma-separated file a number holding ',' is quoted, and `"1,250"` is the usual US grouping;
        // in a file split by ';', tabs or '|', it is as often a decimal comma (Excel writes the locale's
        // mark in its tab-delimited text too).
        let otherDelimiter = file.options.delimiter != UInt8(ascii: ",")
        // With --decimal-comma, the other way round: `4.500` in a comma-separated file is 4500, which a file
        // written with decimal points means as 4.5 (the option given for another file).
        let dotGrouped = file.options.decimalComma && !otherDelimiter
        groupMark = dotGrouped ? UInt8(ascii: ".") : UInt8(ascii: ",")
        decimalMark = dotGrouped ? UInt8(ascii: ",") : UInt8(ascii: ".")
        commaWatched = targets.map { $0.fields.map { dotGrouped ? $0.converter.readsDotGrouping : otherDelimiter && $0.converter.readsCommaGrouping } }
    }

    /// Reads on a thread of its own, handing chunks to the queue; ``waitUntilDone()`` waits for its end.
    func start() {
        let thread = Thread { [self] in
            defer { done.signal() }
            defer { queue.finish() }
            try? read { chunk in queue.put(chunk) }
        }
        thread.stackSize = 1 << 20
        thread.start()
    }

    func waitUntilDone() { done.wait() }

    private struct Stop: Error {}

    /// Reads every record, handing each full chunk (and the last one) to `deliver`, which returns `false`
    /// to stop. Used on the reading thread, or on the caller's when ``ImportOptions/readsAhead`` is off.
    func read(deliver: (inout _RowChunk) throws -> Bool) throws {
        newChunk()
        do {
            try reader.forEachRawRecord { record in
                let status = convert(record)
                chunk.rows.append(_RowChunk.Row(line: record.lineNumber, byteOffset: record.byteOffset,
                                                byteCount: record.byteCount, status: status))
                if chunk.rows.count >= Self.chunkRows {
                    chunk.bytesRead = reader.bytesRead
                    let more = try deliver(&chunk)
                    newChunk()
                    guard more else { throw Stop() }
                }
            }
        } catch is Stop {
            return
        } catch let error as CSVError {
            chunk.error = error
        }
        // Any other error is the writer's, thrown by `deliver`: it goes on up as it is.
        chunk.bytesRead = reader.bytesRead
        _ = try deliver(&chunk)
        chunk = _RowChunk()
    }

    private func newChunk() {
        chunk = _RowChunk()
        chunk.rows.reserveCapacity(Self.chunkRows)
        chunk.values.reserveCapacity(Self.chunkRows * targetCount)
    }

    private func display(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        _ImportSession.display(bytes, encoding: encoding)
    }

    /// The keys a row set aside as it is read would have made, by index, so that a later row naming one
    /// is told the key is only in rows set aside (``_TargetWriter/setAsideKeys``). Only for failed rows.
    private func setAsideKeys(of record: CSVRawRecord) -> [_SetAsideKey] {
        var keys: [_SetAsideKey] = []
        for target in file.targets {
            for index in [target.key].compactMap({ $0 }) + target.populates {
                guard let field = target.fields.first(where: { $0.ordinal == index.ordinal }),
                      let value = _TargetWriter.key(field, of: target, in: record) else { continue }
                keys.append(_SetAsideKey(index, value))
            }
        }
        return keys
    }

    /// Converts one record: its values go into the chunk (one array per target); returns what became of it.
    private func convert(_ record: CSVRawRecord) -> _RowChunk.Row.Status {
        if record.isEmptyRow(delimiter: delimiter, escaped: escaped, columns: columnCount, endOfData: reader.endOfDataLine) { return .blank }
        if let headerEcho, record.repeats(headerEcho) { return .repeatedHeader }
        if !excluded.isEmpty, let failure = excluded[record.lineNumber] { return .failed(failure, raw: reader.lastRecordRawBytes, keys: setAsideKeys(of: record)) }
        // Every column, read or not: a byte the encoding does not define makes the row bad; so does text
        // after a closing quote, checked first as it also explains a wrong field count (`"a"b,c` is one field).
        if let failure = _RowFailure(validating: record, file: file, owner: { $0 < fieldOwners.count ? fieldOwners[$0] : nil }) {
            return .failed(failure, raw: reader.lastRecordRawBytes, keys: setAsideKeys(of: record))
        }
        guard record.count == columnCount else {
            let raw = reader.lastRecordRawBytes
            return .failed(_RowFailure(fieldCount: record, columns: columnCount, file: file, raw: raw), raw: raw, keys: setAsideKeys(of: record))
        }
        let trim = self.trim
        if !unnamedColumns.isEmpty {
            var holds = false
            for column in unnamedColumns where record.withBytes(at: column, { raw in !(trim ? _trimmed(raw) : raw).isEmpty }) {
                holds = true
                chunk.unnamedValueColumns.insert(column)
            }
            if holds {
                chunk.unnamedValueRows += 1
                if chunk.firstUnnamedValueLine == nil { chunk.firstUnnamedValueLine = record.lineNumber }
            }
        }
        let first = chunk.values.count
        // Escape sequences inside text (`\\`, `\n`, `\t`, `\r`) are looked for only in a record holding a
        // backslash: one memchr a record, where a field's own test is two bytes.
        let hasBackslash = watchesEscapes && record.withRawBytes { raw in
            raw.baseAddress.map { memchr($0, 0x5C, raw.count) != nil } ?? false
        }
        for t in 0..<targetCount {
            var values = ContiguousArray<Value>(repeating: .null, count: columnCounts[t])
            for (ordinal, value) in presets[t] { values[ordinal] = value }
            let fields = fieldPlans[t]
            let nulls = nullValues[t]
            let watched = commaWatched[t]
            for f in fields.indices {
                let field = fields[f]
                let ok = record.withBytes(at: field.field) { raw -> Bool in
                    let bytes = field.converter.fieldBytes(raw)
                    // Null tokens, the empty one included, apply to unquoted fields only: "NULL" and "" are text.
                    if field.nulls.matches(bytes) && !record.isQuoted(at: field.field) {
                        guard field.nullValue >= 0 else { return false }
                        values[field.ordinal] = nulls[field.nullValue]
                        if field.countsTextNulls, !bytes.isEmpty {
                            _FieldTally.note(&chunk.textNulls, _FieldTally.slot(t, f), line: record.lineNumber, text: { display(bytes) }, value: .null)
                        }
                        return true
                    }
                    guard let value = field.converter.convert(bytes) else { return false }
                    values[field.ordinal] = value
                    // `00501`, `-007`: a zero, then a digit, after a sign if any.
                    if field.countsLeadingZeros, let base = bytes.baseAddress, bytes.count > 1,
                       case let start = base[0] == 0x2B || base[0] == 0x2D ? 1 : 0, bytes.count > start + 1,
                       base[start] == 0x30, base[start + 1] &- 0x30 < 10 {
                        _FieldTally.note(&chunk.leadingZeros, _FieldTally.slot(t, f), line: record.lineNumber, text: { display(bytes) }, value: value)
                    }
                    if field.countsPadding, let base = bytes.baseAddress, !bytes.isEmpty,
                       base[0] == 0x20 || base[0] == 0x09 || base[bytes.count - 1] == 0x20 || base[bytes.count - 1] == 0x09,
                       !record.isQuoted(at: field.field) {
                        // ` "Ann"`: a quoted field after a space, which is text with its quotes unless the file trims.
                        if Self.isSpacedQuote(bytes, quote: quote) { return false }
                        if warnsPadding { _FieldTally.note(&chunk.paddedText, _FieldTally.slot(t, f), line: record.lineNumber, text: { display(bytes) }, value: value) }
                    }
                    // `\N` alone, or a trailing backslash (two bytes' test for most values; quoted text is meant).
                    if field.countsEscapes, let base = bytes.baseAddress, !bytes.isEmpty,
                       base[bytes.count - 1] == 0x5C || (bytes.count == 2 && base[0] == 0x5C && base[1] == UInt8(ascii: "N"))
                        || (hasBackslash && Self.holdsEscapeSequence(bytes)),
                       !record.isQuoted(at: field.field) {
                        _FieldTally.note(&chunk.escapedText, _FieldTally.slot(t, f), line: record.lineNumber, text: { display(bytes) }, value: value)
                    }
                    if watched[f], let base = bytes.baseAddress, memchr(base, Int32(groupMark), bytes.count) != nil,
                       memchr(base, Int32(decimalMark), bytes.count) == nil,
                       // With a decimal comma in a comma file, a quoted value could have held one: only unquoted ones tell.
                       groupMark != UInt8(ascii: ".") || !record.isQuoted(at: field.field) {
                        _FieldTally.note(&chunk.commaGrouped, _FieldTally.slot(t, f), line: record.lineNumber,
                                         text: { String(decoding: bytes, as: UTF8.self) }, value: value)
                    }
                    return true
                }
                if !ok {
                    let failure = record.withBytes(at: field.field) { raw in
                        let bytes = field.converter.fieldBytes(raw)
                        let reason: String
                        var hint: String?
                        // ` "Ann"` in this field, or this field the end of a quoted value split at its delimiter.
                        if !trim, !record.isQuoted(at: field.field), Self.isSpacedQuote(raw, quote: quote)
                            || (Self.isSplitQuoteEnd(raw, quote: quote)
                                && _RowFailure.quoteAfterSpace(reader.lastRecordRawBytes, delimiter: delimiter, quote: quote)) {
                            reason = Self.spacedQuoteReason
                        } else if !field.nulls.matches(bytes) {
                            // Quoted, a null word is text whatever the tokens: the note would mislead.
                            reason = field.converter.explain(bytes)
                                + (record.isQuoted(at: field.field) ? "" : Self.nullWordNote(bytes, columnTokens: columnNullTokens[t][f]))
                            hint = conversionHints[t][f]
                        } else if record.isQuoted(at: field.field) {
                            reason = field.converter.explain(bytes) + " (it is quoted, so it is text, not null: leave it unquoted to mean null)"
                            hint = conversionHints[t][f]
                        } else {
                            reason = "a value is required (the attribute is not optional and has no default)"
                        }
                        return _RowFailure(field: field.field, entity: entityNames[t], attribute: attributeNames[t][f],
                                           reason: reason, value: display(bytes), hint: hint)
                    }
                    chunk.values.removeSubrange(first...)
                    return .failed(failure, raw: reader.lastRecordRawBytes, keys: setAsideKeys(of: record))
                }
            }
            // Relationship columns: the key's value goes in the foreign-key slot; the writer looks it up.
            let relationships = relationshipPlans[t]
            for r in relationships.indices {
                let relationship = relationships[r]
                let failure: _RowFailure? = record.withBytes(at: relationship.field) { raw in
                    let bytes = relationship.converter.fieldBytes(raw)
                    if relationship.nulls.matches(bytes) && !record.isQuoted(at: relationship.field) {
                        guard !relationship.isOptional else { return nil }
                        return _RowFailure(field: relationship.field, entity: entityNames[t], attribute: relationshipNames[t][r],
                                           reason: "the relationship is required and the key is empty", value: display(bytes))
                    }
                    guard let key = relationship.converter.convert(bytes) else {
                        return _RowFailure(field: relationship.field, entity: entityNames[t], attribute: relationshipNames[t][r],
                                           reason: relationship.converter.explainKey(bytes, quoted: record.isQuoted(at: relationship.field)),
                                           value: display(bytes))
                    }
                    values[relationship.ordinal] = key
                    return nil
                }
                if let failure {
                    chunk.values.removeSubrange(first...)
                    return .failed(failure, raw: reader.lastRecordRawBytes, keys: setAsideKeys(of: record))
                }
            }
            chunk.values.append(values)
        }
        return .converted(first)
    }

    /// Whether an unquoted field's bytes are a quoted value with spaces or tabs before its opening quote
    /// (` "Ann"`, ` "Lido` of ` "Lido, Kreuzberg"` split at its comma) or after its closing one (`"1" `):
    /// hand-written CSV puts a space after each delimiter; RFC 4180, and a file that does not trim, read
    /// the spaces and the quotes as text.
    ///
    /// ```swift
    /// _RowReader.isSpacedQuote(bytes, quote: UInt8(ascii: "\""))   // true for ` "Ann"`, false for `"Ann"` or ` Ann`
    /// ```
    ///
    /// Text that merely starts with a quote after a space (` "hi" he said`, ` "Big" Joe`, a lone ` "`) is
    /// not one: quoted is what opens with the quote and either closes with it or holds no other (the
    /// first half of a split value).
    static func isSpacedQuote(_ bytes: UnsafeBufferPointer<UInt8>, quote: UInt8) -> Bool {
        var start = 0, end = bytes.count
        while start < end && (bytes[start] == 0x20 || bytes[start] == 0x09) { start += 1 }
        while end > start && (bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09) { end -= 1 }
        guard end - start >= 2, bytes[start] == quote, start > 0 || end < bytes.count else { return false }
        let closes = bytes[end - 1] == quote
        return closes || (start > 0 && !bytes[(start + 1)..<end].contains(quote))
    }

    /// Whether an unquoted field's bytes are the second half of a quoted value split at a delimiter
    /// (` Kreuzberg"` of `1, "Lido, Kreuzberg"`): they end with the quote and hold no other.
    static func isSplitQuoteEnd(_ bytes: UnsafeBufferPointer<UInt8>, quote: UInt8) -> Bool {
        var end = bytes.count
        while end > 0 && (bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09) { end -= 1 }
        return end >= 2 && bytes[end - 1] == quote && !bytes[..<(end - 1)].contains(quote)
    }

    /// Whether text holds `\\`, `\n`, `\t` or `\r`: how MySQL's and PostgreSQL's text exports write a
    /// backslash, a line feed, a tab and a carriage return; not in what looks like a Windows path.
    ///
    /// ```swift
    /// holdsEscapeSequence(bytes)   // true for `line1\nline2`
    /// ```
    static func holdsEscapeSequence(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count >= 2 else { return false }
        // A Windows path (`C:\temp\new`, `\\server\share`) is not counted: its backslashes are its own. Its
        // escaped form (`C:\\temp`, `\\\\server`), which doubles them, is.
        if bytes.count >= 3 && bytes[0] == 0x5C && bytes[1] == 0x5C && bytes[2] != 0x5C { return false }
        for i in 1..<(bytes.count - 1) where bytes[i] == 0x5C && bytes[i - 1] == UInt8(ascii: ":") && bytes[i + 1] != 0x5C { return false }
        for i in 0..<(bytes.count - 1) where bytes[i] == 0x5C {
            switch bytes[i + 1] {
            case 0x5C, UInt8(ascii: "n"), UInt8(ascii: "t"), UInt8(ascii: "r"): return true
            default: continue
            }
        }
        return false
    }

    /// The reason of a field ``isSpacedQuote(_:quote:)`` finds.
    static let spacedQuoteReason = "the value is quoted with spaces around the quotes, which a file that keeps text as written reads "
        + "as text, quotes included; if the file puts a space after each delimiter, re-run with --trim (or \"trim\": true for the "
        + "file in a mapping), which drops spaces around quoted fields"

    /// Words files write for "no value" (NULL, NA, N/A, None, nil, \\N): when one is not a null token of the
    /// file (`--null` replaces the defaults), or of the column when its mapping gives it `columnTokens`
    /// (which then replace the file's), a note that says so; empty otherwise.
    ///
    /// ```swift
    /// nullWordNote(bytes, columnTokens: ["", "N/A"])  // " (NULL is not a null token of this column: …)"
    /// ```
    static func nullWordNote(_ bytes: UnsafeBufferPointer<UInt8>, columnTokens: [String]? = nil) -> String {
        guard bytes.count <= 4, let word = String(bytes: bytes, encoding: .utf8),
              ["null", "na", "n/a", "none", "nil", "\\n"].contains(word.lowercased()) else { return "" }
        // Not a word: MySQL's and PostgreSQL's text exports write null so, with their other escapes.
        if word == "\\N" {
            return " (\\N is the null of MySQL's SELECT … INTO OUTFILE and PostgreSQL's text-format COPY: re-run with --escape '\\', "
                + "which also decodes their other backslash escapes; PostgreSQL's text format never quotes, so add --quote none for it)"
        }
        guard let columnTokens else {
            return " (\(word) is not a null token of this file: --null, or \"nullTokens\" in a mapping, sets them and replaces the defaults, so name every one)"
        }
        let listed = columnTokens.map { "\"\($0)\"" }.joined(separator: ", ")
        return " (\(word) is not a null token of this column: its \"nullTokens\" in the mapping, \(columnTokens.isEmpty ? "an empty list" : listed), "
            + "replace the file's and --null for it, so name every one there)"
    }
}
