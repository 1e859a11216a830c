/// A key path collection operator: `@count`, `@sum`, `@avg`, `@min`, `@max`.
///
/// For example:
///
/// ```swift
/// let busy = try FetchPredicate(format: "tasks.@count > 3")
/// let rich = try FetchPredicate(format: "employees.@avg.salary >= 50000")
/// ```
public enum PredicateCollectionOperator: String, Sendable, Hashable, CaseIterable {
    /// `@count`: the number of elements.
    case count
    /// `@sum`: the sum of the (non-null) elements.
    case sum
    /// `@avg`: the mean of the (non-null) elements.
    case avg
    /// `@min`: the least element.
    case min
    /// `@max`: the greatest element.
    case max
}
