/// The bytes of the record being assembled: field contents (unquoted, as libcsv hands them over), where
/// each field ends, whether an empty field was quoted, and the record's raw input bytes. Reused from record
/// to record, so steady-state parsing allocates nothing here.
///
/// Where each field starts in the raw bytes, and whether it was quoted, is worked out only when asked
/// (``locateFields(length:delimiter:quote:trimsSpaces:)``): one pass over the raw bytes, at most once per record.
///
/// libcsv's callbacks reach it through the `void *` context pointer (see ``_LibCSVParser``).
final class _RecordBuffer {
    /// Field contents, back to back.
    private(set) var bytes: UnsafeMutablePointer<UInt8>
    private var bytesCapacity: Int
    private(set) var bytesCount = 0

    /// `fieldEnds[i]` is the end of field `i` in ``bytes``.
    private(set) var fieldEnds: UnsafeMutablePointer<Int>
    private var fieldCapacity: Int
    private(set) var fieldCount = 0
    /// `emptyQuoted[i]` is 1 when field `i` is `""`: libcsv (with `CSV_EMPTY_IS_NULL`) hands an empty
    /// unquoted field over as a null pointer and an empty quoted one as a real one. Costs a byte store per field.
    private var emptyQuoted: UnsafeMutablePointer<UInt8>

    /// Per field, located on demand: the offset of its first raw byte shifted left by one, with bit 0 set
    /// when the field is quoted. Valid while ``isLocated`` holds.
    private var rawStarts: UnsafeMutablePointer<Int>
    private var rawStartsCapacity = 0
    private var isLocated = false

    /// The record's input bytes as read (quotes, delimiters and terminator included).
    private(set) var raw: UnsafeMutablePointer<UInt8>
    private var rawCapacity: Int
    private(set) var rawCount = 0

    /// Set by libcsv's end-of-row callback.
    var rowEnded = false

    init() {
        bytesCapacity = 1024
        bytes = .allocate(capacity: bytesCapacity)
        fieldCapacity = 64
        fieldEnds = .allocate(capacity: fieldCapacity)
        emptyQuoted = .allocate(capacity: fieldCapacity)
        rawStarts = .allocate(capacity: 0)
        rawCapacity = 1024
        raw = .allocate(capacity: rawCapacity)
    }

    deinit {
        bytes.deallocate()
        fieldEnds.deallocate()
        emptyQuoted.deallocate()
        rawStarts.deallocate()
        raw.deallocate()
    }

    /// Forgets the record, keeping the memory.
    @inline(__always)
    func reset() {
        bytesCount = 0
        fieldCount = 0
        rawCount = 0
        rowEnded = false
        isLocated = false
    }

    /// Forgets the fields, keeping the raw bytes: for parsing the record again from its raw capture.
    func resetFields() {
        bytesCount = 0
        fieldCount = 0
        rowEnded = false
        isLocated = false
    }

    /// Drops the last byte of the last field: the line end that libcsv took as data of a quoted field,
    /// when the reader ends the record at that line (see ``_RecordScanner``).
    func dropLastFieldByte() {
        guard fieldCount > 0, fieldEnds[fieldCount - 1] > (fieldCount == 1 ? 0 : fieldEnds[fieldCount - 2]) else {
            return
        }
        fieldEnds[fieldCount - 1] -= 1
        bytesCount -= 1
    }

    /// Appends one field (libcsv's field callback). `source` is `nil` only for an empty unquoted field.
    ///
    /// - Complexity: amortized O(length).
    @inline(__always)
    func appendField(_ source: UnsafeRawPointer?, _ length: Int) {
        if bytesCount + length > bytesCapacity { growBytes(to: bytesCount + length) }
        if fieldCount == fieldCapacity { growFields() }
        if length > 0, let source {
            (bytes + bytesCount).update(from: source.assumingMemoryBound(to: UInt8.self), count: length)
            bytesCount += length
        }
        fieldEnds[fieldCount] = bytesCount
        emptyQuoted[fieldCount] = length == 0 && source != nil ? 1 : 0
        fieldCount += 1
    }

    /// What an escaped-format field (``_EscapedParser``) is, for ``isQuoted(_:length:delimiter:quote:trimsSpaces:)``.
    enum EscapedFieldKind {
        /// Unquoted text without escapes (an empty field too), and `\N`: null tokens apply.
        case plain
        /// Quoted, or holding an escape: text as it is.
        case literal
    }

    /// Appends one field of escaped-format text, with where it starts in the raw bytes: the parser knows,
    /// so the fields are located as they come (``locateFields(length:delimiter:quote:trimsSpaces:)``, which
    /// knows no escapes, is never run for them).
    ///
    /// - Complexity: amortized O(length).
    func appendEscapedField(_ source: UnsafePointer<UInt8>, _ length: Int, kind: EscapedFieldKind, rawStart: Int) {
        if rawStartsCapacity <= fieldCount {
            let capacity = Swift.max(fieldCapacity, 2 * rawStartsCapacity, fieldCount + 1)
            let grown = UnsafeMutablePointer<Int>.allocate(capacity: capacity)
            grown.update(from: rawStarts, count: fieldCount)
            rawStarts.deallocate()
            rawStarts = grown
            rawStartsCapacity = capacity
        }
        rawStarts[fieldCount] = rawStart << 1 | (kind == .literal ? 1 : 0)
        appendField(kind == .plain && length == 0 ? nil : UnsafeRawPointer(source), length)
        isLocated = true
    }

    /// Appends input bytes to the raw capture.
    ///
    /// - Complexity: amortized O(length).
    @inline(__always)
    func appendRaw(_ source: UnsafePointer<UInt8>, _ length: Int) {
        if rawCount + length > rawCapacity { growRaw(to: rawCount + length) }
        (raw + rawCount).update(from: source, count: length)
        rawCount += length
    }

    /// The bytes of field `index`.
    @inline(__always)
    func field(_ index: Int) -> UnsafeBufferPointer<UInt8> {
        let start = index == 0 ? 0 : fieldEnds[index - 1]
        return UnsafeBufferPointer(start: bytes + start, count: fieldEnds[index] - start)
    }

    /// Whether field `index` was quoted in the input. An empty field answers from what libcsv reported; any
    /// other locates the fields in the raw bytes (once per record).
    ///
    /// - Complexity: O(1), or O(`length`) the first time a non-empty field of a record is asked about.
    @inline(__always)
    func isQuoted(_ index: Int, length: Int, delimiter: UInt8, quote: UInt8, trimsSpaces: Bool) -> Bool {
        let start = index == 0 ? 0 : fieldEnds[index - 1]
        if fieldEnds[index] == start { return emptyQuoted[index] != 0 }
        if !isLocated { locateFields(length: length, delimiter: delimiter, quote: quote, trimsSpaces: trimsSpaces) }
        return rawStarts[index] & 1 != 0
    }

    /// The offset in the raw bytes where field `index` starts (its opening quote, when quoted).
    func rawStart(of index: Int, length: Int, delimiter: UInt8, quote: UInt8, trimsSpaces: Bool) -> Int {
        if !isLocated { locateFields(length: length, delimiter: delimiter, quote: quote, trimsSpaces: trimsSpaces) }
        return rawStarts[index] >> 1
    }

    /// Finds where each field starts in the first `length` raw bytes, and whether it is quoted, by following
    /// libcsv's states (`libcsv.c`, `csv_parse`): a field is quoted when its first byte (after spaces and
    /// tabs, if libcsv trims) is the quote; inside, a doubled quote is data; a closing quote followed (after
    /// trimmed spaces) by a delimiter ends it, and followed by anything else is data that keeps the field
    /// quoted (lenient mode). An unquoted field ends at the next delimiter. Fields the scan does not reach
    /// (which libcsv would not produce) are reported unquoted, at the end.
    ///
    /// - Complexity: O(`length`).
    func locateFields(length: Int, delimiter: UInt8, quote: UInt8, trimsSpaces: Bool) {
        if rawStartsCapacity < fieldCount {
            rawStarts.deallocate()
            rawStartsCapacity = Swift.max(fieldCount, fieldCapacity)
            rawStarts = .allocate(capacity: rawStartsCapacity)
        }
        let raw = self.raw
        let end = Swift.min(length, rawCount)
        @inline(__always) func isSpace(_ byte: UInt8) -> Bool {
            trimsSpaces && (byte == 0x20 || byte == 0x09) && byte != delimiter
        }
        var i = 0
        var field = 0
        while field < fieldCount {
            while i < end && isSpace(raw[i]) { i += 1 }
            let quoted = i < end && raw[i] == quote
            rawStarts[field] = i << 1 | (quoted ? 1 : 0)
            field += 1
            guard quoted else {
                while i < end && raw[i] != delimiter { i += 1 }
                i += 1  // past the delimiter
                continue
            }
            i += 1
            var afterQuote = false  // libcsv's FIELD_MIGHT_HAVE_ENDED
            var spaces = 0
            scan: while i < end {
                let byte = raw[i]
                i += 1
                if !afterQuote {
                    if byte == quote {
                        afterQuote = true
                        spaces = 0
                    }
                } else if byte == delimiter {
                    break scan
                } else if isSpace(byte) {
                    spaces += 1
                } else if byte == quote {
                    if spaces > 0 { spaces = 0 } else { afterQuote = false }  // a doubled quote
                } else {
                    afterQuote = false  // lenient: a stray byte after a quote is data
                }
            }
        }
        isLocated = true
    }

    /// The first `count` captured raw bytes.
    func rawBytes(count: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: raw, count: min(count, rawCount))
    }

    private func growBytes(to needed: Int) {
        bytesCapacity = Swift.max(needed, bytesCapacity * 2)
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: bytesCapacity)
        grown.update(from: bytes, count: bytesCount)
        bytes.deallocate()
        bytes = grown
    }

    private func growFields() {
        fieldCapacity *= 2
        let grown = UnsafeMutablePointer<Int>.allocate(capacity: fieldCapacity)
        grown.update(from: fieldEnds, count: fieldCount)
        fieldEnds.deallocate()
        fieldEnds = grown
        let grownFlags = UnsafeMutablePointer<UInt8>.allocate(capacity: fieldCapacity)
        grownFlags.update(from: emptyQuoted, count: fieldCount)
        emptyQuoted.deallocate()
        emptyQuoted = grownFlags
    }

    private func growRaw(to needed: Int) {
        rawCapacity = Swift.max(needed, rawCapacity * 2)
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: rawCapacity)
        grown.update(from: raw, count: rawCount)
        raw.deallocate()
        raw = grown
    }
}
