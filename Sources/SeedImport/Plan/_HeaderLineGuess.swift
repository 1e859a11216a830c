import CSVStream

/// The line a file's header is more likely on when the first record names no attribute: the usual sign
/// of a title or notes above the table, which ``CSVOptions/skipLines`` skips.
///
/// For example:
///
/// ```swift
/// _HeaderLineGuess.suggestion(path: "export.csv", options: options, names: ["sku", "price"])
/// // "the header looks like it is on line 4 (\"sku\", \"price\"): if the lines above it are not CSV (a title,
/// //  notes), pass --skip-lines 3 (in a mapping, \"skipLines\": 3 for the file)"
/// ```
enum _HeaderLineGuess {
    /// How many records after the first are looked at.
    static let recordsLookedAt = 25

    /// The 1-based line, and the matching fields, of the record among the first few after the header that
    /// names the most of `names` (the first such, and at least one); `nil` when none does or the file
    /// cannot be read.
    static func line(path: String, options: CSVOptions, names: [String]) -> (line: Int, columns: [String])? {
        var dialect = options.dialect
        dialect.hasHeader = false
        guard let reader = try? CSVReader(path: path, dialect: dialect) else { return nil }
        let folded = Set(names.map(HeaderName.fold))
        var best: (line: Int, columns: [String], matches: Int)?
        for index in 0...recordsLookedAt {
            guard let record = try? reader.next() else { break }
            let matched = record.fields.filter { folded.contains(HeaderName.fold($0)) }
            // The first record is the header that did not match; a later one must match more than it.
            if index > 0, !matched.isEmpty, matched.count > (best?.matches ?? 0) {
                best = (record.lineNumber, matched, matched.count)
            }
        }
        return best.map { ($0.line, $0.columns) }
    }

    /// What to say after a message about a header that names no attribute, or `nil` when no later line
    /// looks like the header.
    static func suggestion(path: String, options: CSVOptions, names: [String]) -> String? {
        guard let (line, columns) = line(path: path, options: options, names: names) else { return nil }
        let skip = line - 1
        let shown = columns.prefix(3).map { "\"\($0)\"" }.joined(separator: ", ") + (columns.count > 3 ? ", …" : "")
        return "the header looks like it is on line \(line) (\(shown)): if the lines above it are not CSV (a title, notes), pass --skip-lines \(skip) (in a mapping, \"skipLines\": \(skip) for the file)"
    }
}
