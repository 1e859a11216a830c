import CSVStream

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
