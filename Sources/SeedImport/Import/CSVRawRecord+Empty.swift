import CSVStream
import Foundation

extension CSVRawRecord {
    /// Whether every field of the record is empty once trimmed: a blank line, only delimiters (`,,,`), or,
    /// when the file trims, only delimiters, spaces and tabs (`  , ,,`). Such records are skipped and counted.
    ///
    /// Quoted empty fields (`"",""`) are values (empty strings), so they do not make a record empty.
    ///
    /// For example:
    ///
    /// ```swift
    /// if record.isEmptyRow(trimming: file.options.trim, delimiter: file.options.delimiter) { file.blankRows += 1 }
    /// ```
    ///
    /// - Complexity: O(1) for a record whose first byte is data; O(length) at most.
    @inline(__always)
    func isEmptyRow(trimming: Bool, delimiter: UInt8) -> Bool {
        if isBlank || byteCount < count { return true }
        guard trimming else { return false }
        return withRawBytes { raw in raw.allSatisfy { $0 == delimiter || $0 == 0x20 || $0 == 0x09 } }
    }
}

/// A file's header, to spot it again among the rows: files concatenated with their headers repeat it.
///
/// ```swift
/// let echo = _HeaderEcho(file.header)
/// if let echo, record.repeats(echo) { file.noteRepeatedHeader(line: record.lineNumber, reporting: 5) }
/// ```
struct _HeaderEcho: Sendable {
    /// The first name's UTF-8 bytes, trimmed: most rows differ from it in their first byte.
    let first: [UInt8]
    /// Every name, trimmed of whitespace.
    let names: [String]

    /// `nil` for a file without a header, or one whose names are all empty.
    init?(_ header: [String]?) {
        guard let header, header.contains(where: { !$0.isEmpty }) else { return nil }
        // As header names are matched elsewhere (the planner, the mapping).
        names = header.map { $0.trimmingCharacters(in: .whitespaces) }
        first = Array(names[0].utf8)
    }
}

extension CSVRawRecord {
    /// Whether the record repeats the header, name for name once trimmed.
    ///
    /// - Complexity: one comparison of the first field for most rows; all fields decoded only when the
    ///   first one matches.
    @inline(__always)
    func repeats(_ header: _HeaderEcho) -> Bool {
        guard count == header.names.count else { return false }
        let first = withBytes(at: 0) { raw in _trimmed(raw).elementsEqual(header.first) }
        guard first else { return false }
        return (0..<count).allSatisfy { index in (try? string(at: index))?.trimmingCharacters(in: .whitespaces) == header.names[index] }
    }
}
