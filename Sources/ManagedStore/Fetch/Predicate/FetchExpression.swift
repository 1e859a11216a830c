/// An operand of a comparison: a constant, a key path, a variable, a list,
/// a collection operator, a subquery or `now()`.
///
/// Key paths are lists of components, relative to the evaluated object;
/// constants are typed values to bind.
///
/// The name avoids `PredicateExpression` and `Expression`, which Foundation
/// already declares.
///
/// For example, the operands of
/// `SUBQUERY(residents, $x, $x.firstname == "Jane").@count != 0` are:
///
/// ```swift
/// let left = FetchExpression.collectionOperator(
///     .count,
///     of: .subquery(
///         collection: .keyPath(["residents"]),
///         variable: "x",
///         predicate: .comparison(PredicateComparison(
///             .variable("x", keyPath: ["firstname"]), .equalTo, .constant("Jane")
///         ))
///     )
/// )
/// let right = FetchExpression.constant(0)
/// ```
public indirect enum FetchExpression: Sendable, Hashable {
    /// A typed value: a literal or an argument.
    case constant(PredicateConstant)
    /// `SELF`: the object being evaluated.
    case evaluatedObject
    /// A key path from the evaluated object: `department.name` is
    /// `["department", "name"]`. Never empty (that is ``evaluatedObject``).
    case keyPath([String])
    /// `$NAME`, optionally followed by a key path (`$x.firstname`). Either a
    /// substitution variable (see ``FetchPredicate/substituting(_:)``) or the
    /// variable of an enclosing ``subquery(collection:variable:predicate:)``.
    case variable(String, keyPath: [String] = [])
    /// A literal list `{a, b}` with at least one element that is not a
    /// constant. A list of constants is a ``PredicateConstant/array(_:)``.
    case aggregate([FetchExpression])
    /// `base.@op` or `base.@op.rest.of.path`: `employees.@sum.salary` is
    /// `.collectionOperator(.sum, of: .keyPath(["employees"]), keyPath: ["salary"])`,
    /// `employees.@count` has an empty `keyPath`.
    case collectionOperator(PredicateCollectionOperator, of: FetchExpression, keyPath: [String] = [])
    /// `SUBQUERY(collection, $variable, predicate)`: the elements of
    /// `collection` for which `predicate`, with `$variable` bound to the
    /// element, is true. Usually followed by `.@count`.
    case subquery(collection: FetchExpression, variable: String, predicate: FetchPredicate)
    /// `now()`, NSExpression's function for the current date: one instant per
    /// fetch, the same for every object it tests, in SQL (a bound parameter)
    /// and in memory. See ``FetchPredicate/substitutingNow(_:)``.
    case now
}
