/// How a comparison quantifies a to-many left side.
///
/// `SOME` is a synonym of `ANY`; `NONE x …` is parsed as `NOT (ANY x …)`,
/// as Foundation does, so there is no `none` case.
///
/// For example:
///
/// ```swift
/// let p = try FetchPredicate(format: "ALL employees.age >= 18")
/// // its comparison's modifier == .all
/// ```
public enum ComparisonModifier: String, Sendable, Hashable, CaseIterable {
    /// No modifier: the left value is compared as it is.
    case direct = ""
    /// `ANY` / `SOME`: at least one element satisfies the comparison.
    case any = "ANY"
    /// `ALL`: every element satisfies it (true for an empty collection).
    case all = "ALL"
}
