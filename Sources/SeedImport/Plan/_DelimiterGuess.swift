/// The delimiter a file more likely uses when its header, read with `,`, is one column whose name holds
/// `;`, a tab or `|`: the usual sign of a file from a locale that writes `;`, or a TSV.
///
/// For example:
///
/// ```swift
/// _DelimiterGuess.suggestion(header: ["id;name;age"], delimiter: UInt8(ascii: ","))
/// // "the header reads as one column holding ';': the file looks ';'-separated; pass --delimiter ';' (in a mapping, \"delimiter\": \";\" for the file)"
/// ```
enum _DelimiterGuess {
    /// The bytes looked for, most common first.
    static let candidates: [UInt8] = [UInt8(ascii: ","), UInt8(ascii: ";"), 0x09, UInt8(ascii: "|")]

    /// The likelier delimiter, or `nil` when the header has several columns or its one name holds none of
    /// the candidates other than `delimiter` (a file read with `;` whose header holds `,` is named too: a
    /// `--delimiter` meant for another file).
    static func delimiter(header: [String]?, delimiter: UInt8) -> UInt8? {
        guard let header, header.count == 1 else { return nil }
        let bytes = Array(header[0].utf8)
        let others = candidates.filter { $0 != delimiter }
        let counts = others.map { candidate in bytes.lazy.filter { $0 == candidate }.count }
        guard let best = counts.indices.max(by: { counts[$0] < counts[$1] }), counts[best] > 0 else { return nil }
        return others[best]
    }

    /// What to say after a message about the header's columns, or `nil` when no other delimiter is likelier.
    static func suggestion(header: [String]?, delimiter: UInt8) -> String? {
        guard let guess = self.delimiter(header: header, delimiter: delimiter) else { return nil }
        let shown = guess == 0x09 ? "\\t" : String(Unicode.Scalar(guess))
        // Read with something other than the default: likely an option meant for the import's other files.
        let others = delimiter == UInt8(ascii: ",") ? ""
            : "; --delimiter applies to every file, so files with different delimiters need a mapping that gives each its own (--save-mapping writes one)"
        return "the header reads as one column holding '\(shown)': the file looks '\(shown)'-separated; pass --delimiter '\(shown)' (in a mapping, \"delimiter\": \"\(shown)\" for the file)" + others
    }
}
