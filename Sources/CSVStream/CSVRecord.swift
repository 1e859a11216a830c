/// One record of a CSV file: its fields as Strings, and where it came from.
///
/// Records are reported as they are: a ragged record has fewer or more fields than the header (the
/// importer decides), and a blank line is a record with one empty field and ``isBlank`` set.
/// ``lineNumber`` is the 1-based line the record starts on, counting LF, CRLF and bare CR as one line
/// break each, including those inside quoted fields. ``byteRange`` covers the record's bytes without its
/// terminator; ``CSVReader/rawText(of:)`` turns it back into the original text for a rejects file.
///
/// The collection's elements are the fields, indexed from 0.
///
/// For example:
///
/// ```swift
/// while let record = try reader.next() {
///     guard record.count == 7 else {
///         rejects.append("\(record.lineNumber)\twrong field count\t\(try reader.rawText(of: record))")
///         continue
///     }
///     let name = record[0]
/// }
/// ```
public struct CSVRecord: Sendable, Hashable, RandomAccessCollection {
    /// The decoded fields, in file order.
    public var fields: [String]
    /// The 1-based line where the record starts.
    public var lineNumber: Int
    /// The offset of the record's first byte from the start of the input.
    public var byteOffset: Int64
    /// The length of the record's text in bytes, without its terminator.
    public var byteCount: Int
    /// Whether the record is a blank line (then ``fields`` is `[""]`).
    public var isBlank: Bool

    /// Creates a record.
    public init(fields: [String], lineNumber: Int, byteOffset: Int64, byteCount: Int, isBlank: Bool = false) {
        self.fields = fields
        self.lineNumber = lineNumber
        self.byteOffset = byteOffset
        self.byteCount = byteCount
        self.isBlank = isBlank
    }

    /// The record's bytes in the input, without the terminator (CR, LF, CRLF or `\u{02}` LF).
    public var byteRange: Range<Int64> { byteOffset..<(byteOffset + Int64(byteCount)) }

    /// Always 0.
    public var startIndex: Int { 0 }
    /// The number of fields.
    public var endIndex: Int { fields.count }

    /// The field at `position` (0-based); traps when out of range, as arrays do.
    public subscript(position: Int) -> String { fields[position] }

    /// The field at `index` (0-based), or `nil` when this (ragged) record is too short.
    ///
    /// For example:
    ///
    /// ```swift
    /// let fund = record.field(6) ?? ""
    /// ```
    public func field(_ index: Int) -> String? {
        fields.indices.contains(index) ? fields[index] : nil
    }

    /// The 1-based column error messages use for the field at 0-based `index`.
    public func column(ofField index: Int) -> Int { index + 1 }

    /// Where the field at 0-based `index` is, as `path:line:column` with the record's start line.
    ///
    /// For example:
    ///
    /// ```swift
    /// record.location(ofField: 4, path: "banklist.csv").description  // "banklist.csv:5:5"
    /// ```
    public func location(ofField index: Int, path: String? = nil) -> CSVLocation {
        CSVLocation(path: path, line: lineNumber, column: column(ofField: index))
    }
}
