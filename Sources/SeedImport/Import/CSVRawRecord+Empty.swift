import CSVStream
import Foundation

extension CSVRawRecord {
    /// Whether the record holds nothing but delimiters, spaces and tabs: a blank line, only delimiters
    /// (`,,,`), or a line of spaces (`  , ,,`, an editor's or a spreadsheet's leftover), whether or not the
    /// file trims. Such records are skipped and counted ("blank skipped" in the summary).
    ///
    /// Quoted empty fields (`"",""`) are values (empty strings), so they do not make a record empty. In
    /// text written with escapes (`escaped`: MySQL's and PostgreSQL's exports) every field is a value, an
    /// empty one an empty string: only a blank line is empty, and in a file of one column (`columns`) not
    /// even that, unless it is PostgreSQL's end-of-data marker (`endOfData`, its line).
    ///
    /// For example:
    ///
    /// ```swift
    /// if record.isEmptyRow(delimiter: file.options.delimiter) { file.blankRows += 1 }
    /// ```
    ///
    /// - Complexity: O(1) for a record whose first byte is data; O(length) at most.
    @inline(__always)
    func isEmptyRow(delimiter: UInt8, escaped: Bool = false, columns: Int = 0, endOfData: Int? = nil) -> Bool {
        if escaped { return isBlank && (columns != 1 || endOfData == lineNumber) }
        if isBlank || byteCount < count { return true }
        return withRawBytes { raw in raw.allSatisfy { $0 == delimiter || $0 == 0x20 || $0 == 0x09 } }
    }
}

/// A file's header line, to spot it again among the rows: files concatenated with their headers repeat it.
///
/// A row repeats the header only when its bytes are the header line's bytes exactly (a UTF-8 byte-order
/// mark before them allowed: the second file's own), and only in a file of several columns: in a file of
/// one column, a value equal to the column name is plausible data (a tag called `name`), and a quoted
/// `"name"` under `name` is data in any file.
///
/// ```swift
/// let echo = _HeaderEcho(file.header, raw: reader.headerRawBytes)
/// if let echo, record.repeats(echo) { file.noteRepeatedHeader(line: record.lineNumber, reporting: 5) }
/// ```
struct _HeaderEcho: Sendable {
    /// The header line's bytes, without its terminator.
    let raw: [UInt8]

    /// `nil` for a file without a header, of one column, or whose names are all empty.
    init?(_ header: [String]?, raw: [UInt8]?) {
        guard let header, header.count > 1, header.contains(where: { !$0.isEmpty }), let raw else { return nil }
        self.raw = raw
    }
}

extension CSVRawRecord {
    /// Whether the record's bytes are the header line's (after a UTF-8 byte-order mark, if any).
    ///
    /// - Complexity: O(1) for a row whose length differs from the header's (most rows); one comparison of
    ///   the bytes otherwise.
    @inline(__always)
    func repeats(_ header: _HeaderEcho) -> Bool {
        let length = header.raw.count
        guard byteCount == length || byteCount == length + 3 else { return false }
        return withRawBytes { raw in
            let marked = raw.count == length + 3
            if marked && !(raw[0] == 0xEF && raw[1] == 0xBB && raw[2] == 0xBF) { return false }
            return header.raw.withUnsafeBufferPointer { header in
                length == 0 || memcmp(header.baseAddress!, raw.baseAddress! + (marked ? 3 : 0), length) == 0
            }
        }
    }
}
