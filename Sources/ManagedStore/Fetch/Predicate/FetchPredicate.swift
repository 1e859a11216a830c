/// A condition on objects, as written in Apple's predicate format syntax:
/// Core Data's `NSPredicate` for SeedStore.
///
/// A predicate is a tree. Its leaves are comparisons between two
/// ``FetchExpression``s; its inner nodes combine them with `AND`, `OR` and
/// `NOT`. Parse one from a format string with ``init(format:_:)``, or build
/// one in code (see `FetchPredicate+Building.swift`). Its ``description`` is
/// a canonical format string that parses back to an equal tree.
///
/// The tree is shaped for compilation to SQL: key paths are lists of
/// components, values are typed ``PredicateConstant``s to bind, and `NONE`
/// is written as `NOT ANY`.
///
/// The name avoids `Predicate`, which Foundation already declares (its
/// `#Predicate` macro type): a client importing both modules would find an
/// unqualified `Predicate` ambiguous.
///
/// For example:
///
/// ```swift
/// let open = try FetchPredicate(format: "completed == NO AND priority <= %@", 2)
/// // open == .and([
/// //     .comparison(PredicateComparison(.keyPath(["completed"]), .equalTo, .constant(false))),
/// //     .comparison(PredicateComparison(.keyPath(["priority"]), .lessThanOrEqualTo, .constant(2))),
/// // ])
/// ```
public indirect enum FetchPredicate: Sendable, Hashable {
    /// `TRUEPREDICATE`: every object matches.
    case truePredicate
    /// `FALSEPREDICATE`: no object matches.
    case falsePredicate
    /// A comparison such as `name ==[c] 'ringo'` or `ANY tags.name IN %@`.
    case comparison(PredicateComparison)
    /// `a AND b AND …`. The parser gives two or more subpredicates; an empty
    /// list is true.
    case and([FetchPredicate])
    /// `a OR b OR …`. The parser gives two or more subpredicates; an empty
    /// list is false.
    case or([FetchPredicate])
    /// `NOT a`.
    case not(FetchPredicate)
}
