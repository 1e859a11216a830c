/// Why a file's header row cannot name columns: the file is empty, or the header line is blank.
enum _HeaderCheck {
    /// The problem with `header` as the reader gave it (nil for a file with no record at all), or nil
    /// when it names at least one column.
    ///
    /// ```swift
    /// _HeaderCheck.problem([""])   // "the header line is blank: …"
    /// ```
    static func problem(_ header: [String]?) -> String? {
        guard let header else { return "the file is empty (no header row, no rows): export it again, or leave it out of the import" }
        guard header.allSatisfy({ $0.allSatisfy(\.isWhitespace) }) else { return nil }
        if header.count == 1 {
            return "the header line is blank: the file holds only blank lines, or blank lines come before its header. "
                + "Remove them, or skip them with --skip-lines N (\"skipLines\" in a mapping)"
        }
        return "the header row names no column (\(header.count) empty names): give each column a name in the file's first line"
    }
}
