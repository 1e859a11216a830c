import Foundation

/// One key of a fetch's sort order: a key path, a direction and how strings compare.
///
/// Named `FetchSort` because Foundation already has a `SortDescriptor`.
///
/// For example:
///
/// ```swift
/// request.sortDescriptors = [FetchSort("author"), FetchSort("title", ascending: false, comparison: .caseInsensitive)]
/// let parsed = try FetchSort.parseList("author,-title")   // "-" means descending
/// ```
public struct FetchSort: Sendable, Hashable, CustomStringConvertible {
    /// How strings compare.
    public enum Comparison: String, Sendable, Hashable {
        /// By Unicode scalar values (SQLite's BINARY collation).
        case binary
        /// Ignoring case (Unicode case folding), diacritics kept: Foundation's
        /// `caseInsensitiveCompare(_:)`, Core Data's case-insensitive sort. Strings differing only in
        /// case are equal, so the next sort key decides. `[c]`, as `<[c]` compares.
        case caseInsensitive
        /// Ignoring diacritics (`é` is `e`), case kept. `[d]`, as `<[d]` compares.
        case diacriticInsensitive
        /// Ignoring case and diacritics. `[cd]`, as `<[cd]` compares.
        case caseDiacriticInsensitive
        /// As people expect in lists (`localizedStandardCompare(_:)`): case- and diacritic-insensitive,
        /// numbers in digits compared by value (`file2 < file10`); strings that differ never tie.
        case localized
    }

    /// The key path: an attribute, or a path through to-one relationships (`details.closeDate`).
    public var keyPath: String
    /// Whether smaller values come first (`true`) or last (`false`).
    public var ascending: Bool
    /// How string values compare; other types ignore it.
    public var comparison: Comparison

    /// A sort key on `keyPath`, ascending and by binary comparison unless told otherwise.
    ///
    /// For example:
    ///
    /// ```swift
    /// let byAuthor = FetchSort("author")
    /// let newestFirst = FetchSort("details.closeDate", ascending: false)
    /// let byTitle = FetchSort("title", comparison: .localized)
    /// ```
    public init(_ keyPath: String, ascending: Bool = true, comparison: Comparison = .binary) {
        self.keyPath = keyPath
        self.ascending = ascending
        self.comparison = comparison
    }

    /// The key path's components.
    public var components: [String] { keyPath.split(separator: ".").map(String.init) }

    public var description: String {
        (ascending ? "" : "-") + keyPath + (comparison.flags.map { "[\($0)]" } ?? "")
    }

    /// Reads a comma-separated list: `author,-title` or `author,title:desc`, where `-` (or `:desc`)
    /// means descending and a suffix picks the comparison: `[c]` (case-insensitive), `[d]`
    /// (diacritic-insensitive), `[cd]` (both) or `[l]` (localized).
    ///
    /// A leading `-` or `+` that contradicts a `:asc` or `:desc` suffix is refused, as is a suffix
    /// after `:` that is no direction.
    public static func parseList(_ text: String) throws(StoreError) -> [FetchSort] {
        try text.split(separator: ",").map { part throws(StoreError) -> FetchSort in
            var item = part.trimmingCharacters(in: .whitespaces)
            var prefix: Character?
            if item.hasPrefix("-") || item.hasPrefix("+") { prefix = item.removeFirst() }
            var suffix: (text: String, ascending: Bool)?
            for (text, isAscending) in [(":desc", false), (" desc", false), (":asc", true), (" asc", true)] where item.lowercased().hasSuffix(text) {
                item.removeLast(text.count)
                suffix = (String(text.dropFirst()), isAscending)
                break
            }
            if suffix == nil, let colon = item.lastIndex(of: ":") {
                let direction = item[item.index(after: colon)...]
                throw .invalidRequest("'\(part)': unknown sort direction '\(direction)'; write \(item[..<colon]):asc or \(item[..<colon]):desc, or a leading '-' for descending (-\(item[..<colon]))")
            }
            if let prefix, let suffix, (prefix == "-") == suffix.ascending {
                throw .invalidRequest("'\(part)' says both '\(prefix)' (\(prefix == "-" ? "descending" : "ascending")) and ':\(suffix.text)' (\(suffix.ascending ? "ascending" : "descending")); write one of them")
            }
            let ascending = suffix?.ascending ?? (prefix != "-")
            var comparison = Comparison.binary
            if let open = item.lastIndex(of: "["), item.hasSuffix("]") {
                let flags = item[item.index(after: open)..<item.index(before: item.endIndex)].lowercased()
                guard let parsed = Comparison(flags: flags) else {
                    throw .invalidRequest("'\(part)': unknown sort comparison '[\(flags)]'; write [c] (case-insensitive), [d] (diacritic-insensitive), [cd] (both) or [l] (localized)")
                }
                comparison = parsed
                item = String(item[..<open])
            }
            guard !item.isEmpty, item.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }) else {
                throw .invalidRequest("'\(part)' is not a sort key; write keys separated by commas, '-' before a key for descending (e.g. \"author,-title\")")
            }
            return FetchSort(item, ascending: ascending, comparison: comparison)
        }
    }
}

extension FetchSort.Comparison {
    /// The comparison a sort key's suffix names: `c`, `d`, `cd` (or `dc`), `l`.
    init?(flags: String) {
        switch flags {
        case "c": self = .caseInsensitive
        case "d": self = .diacriticInsensitive
        case "cd", "dc": self = .caseDiacriticInsensitive
        case "l": self = .localized
        default: return nil
        }
    }

    /// The suffix that names it, nil for binary.
    var flags: String? {
        switch self {
        case .binary: nil
        case .caseInsensitive: "c"
        case .diacriticInsensitive: "d"
        case .caseDiacriticInsensitive: "cd"
        case .localized: "l"
        }
    }
}
