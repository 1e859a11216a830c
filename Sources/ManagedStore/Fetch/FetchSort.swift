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
        /// Ignoring case and diacritics, Unicode-aware.
        case caseInsensitive
        /// As people expect in lists: case-insensitive, numbers in digits compared by value (`file2 < file10`).
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
        (ascending ? "" : "-") + keyPath + (comparison == .binary ? "" : "[\(comparison.rawValue)]")
    }

    /// Reads a comma-separated list: `author,-title` or `author,title:desc`, where `-` (or `:desc`)
    /// means descending and a suffix `[c]` (case-insensitive) or `[l]` (localized) picks the comparison.
    public static func parseList(_ text: String) throws(StoreError) -> [FetchSort] {
        try text.split(separator: ",").map { part throws(StoreError) -> FetchSort in
            var item = part.trimmingCharacters(in: .whitespaces)
            var ascending = true
            if item.hasPrefix("-") { ascending = false; item.removeFirst() } else if item.hasPrefix("+") { item.removeFirst() }
            for (suffix, isAscending) in [(":desc", false), (" desc", false), (":asc", true), (" asc", true)] where item.lowercased().hasSuffix(suffix) {
                item.removeLast(suffix.count)
                ascending = isAscending
            }
            var comparison = Comparison.binary
            if item.hasSuffix("[c]") { comparison = .caseInsensitive; item.removeLast(3) } else if item.hasSuffix("[l]") { comparison = .localized; item.removeLast(3) }
            guard !item.isEmpty, item.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }) else {
                throw .invalidRequest("'\(part)' is not a sort key; write keys separated by commas, '-' before a key for descending (e.g. \"author,-title\")")
            }
            return FetchSort(item, ascending: ascending, comparison: comparison)
        }
    }
}
