/// The flags in brackets after a comparison operator: `[c]`, `[d]`, `[n]`
/// and combinations such as `[cd]`.
///
/// They apply to string comparisons only; numbers and dates ignore them.
///
/// For example:
///
/// ```swift
/// let search = try FetchPredicate(format: "task_description CONTAINS[cd] %@", "bank")
/// // its comparison's options == [.caseInsensitive, .diacriticInsensitive]
/// ```
public struct ComparisonOptions: OptionSet, Sendable, Hashable {
    /// The flags as bits: 1 for `[c]`, 2 for `[d]`, 4 for `[n]`.
    public let rawValue: UInt8

    /// The options whose bits are set in `rawValue`.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// `[c]`: case-insensitive, with Unicode case folding.
    public static let caseInsensitive = ComparisonOptions(rawValue: 1 << 0)
    /// `[d]`: diacritic-insensitive (`é` matches `e`).
    public static let diacriticInsensitive = ComparisonOptions(rawValue: 1 << 1)
    /// `[n]`: the strings are known to be normalized. A hint only: it
    /// changes nothing in evaluation.
    public static let normalized = ComparisonOptions(rawValue: 1 << 2)
}

extension ComparisonOptions {
    /// The options that change a string comparison (`[n]` changes nothing). Empty, the
    /// comparison is by UTF-8 bytes.
    var stringOptions: ComparisonOptions { intersection([.caseInsensitive, .diacriticInsensitive]) }
}
