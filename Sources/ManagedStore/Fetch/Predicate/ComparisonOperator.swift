/// The operator of a ``PredicateComparison``.
///
/// Every spelling of the format syntax maps to one case: `==` and `=` to
/// ``equalTo``, `!=` and `<>` to ``notEqualTo``, `<=` and `=<` to
/// ``lessThanOrEqualTo``, `>=` and `=>` to ``greaterThanOrEqualTo``. Keyword
/// operators are case-insensitive.
///
/// For example:
///
/// ```swift
/// let op: ComparisonOperator = .beginsWith   // written BEGINSWITH
/// print(op)                                   // "BEGINSWITH"
/// ```
public enum ComparisonOperator: String, Sendable, Hashable, CaseIterable {
    /// `==`, `=`.
    case equalTo = "=="
    /// `!=`, `<>`.
    case notEqualTo = "!="
    /// `<`.
    case lessThan = "<"
    /// `<=`, `=<`.
    case lessThanOrEqualTo = "<="
    /// `>`.
    case greaterThan = ">"
    /// `>=`, `=>`.
    case greaterThanOrEqualTo = ">="
    /// `MATCHES`: the whole left string matches the right ICU regular expression.
    case matches = "MATCHES"
    /// `LIKE`: `*` matches any run, `?` one Unicode scalar (one character of
    /// the folded strings with `[c]` or `[d]`), `\` escapes the next one; `%`
    /// and `_` are ordinary characters.
    case like = "LIKE"
    /// `BEGINSWITH`.
    case beginsWith = "BEGINSWITH"
    /// `ENDSWITH`.
    case endsWith = "ENDSWITH"
    /// `IN`: the left value is an element of the right collection (a list,
    /// an array or a to-many key path; one value, a string too, is an error).
    case `in` = "IN"
    /// `CONTAINS`: the left string contains the right one, or the left
    /// collection contains the right value.
    case contains = "CONTAINS"
    /// `BETWEEN`: `lower <= left && left <= upper` for a right side `{lower, upper}`.
    case between = "BETWEEN"
}

extension ComparisonOperator: CustomStringConvertible {
    /// The canonical spelling, as ``FetchPredicate/description`` writes it.
    public var description: String { rawValue }
}
