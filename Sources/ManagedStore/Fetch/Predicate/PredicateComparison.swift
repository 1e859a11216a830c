/// One comparison of a predicate: `[modifier] left operator[options] right`.
///
/// A constant may stand on either side (`40 > age` keeps the constant on the
/// left). The ``modifier`` applies to the left side, which is then a to-many
/// key path; `NONE` parses as `NOT` around an ``ComparisonModifier/any``
/// comparison.
///
/// For example, `ANY employees.firstName LIKE[c] 'matt*'` is:
///
/// ```swift
/// PredicateComparison(
///     .keyPath(["employees", "firstName"]), .like, .constant("matt*"),
///     options: .caseInsensitive, modifier: .any
/// )
/// ```
public struct PredicateComparison: Sendable, Hashable {
    /// How the left side's collection is quantified.
    public var modifier: ComparisonModifier
    /// The left operand.
    public var left: FetchExpression
    /// The operator.
    public var op: ComparisonOperator
    /// The right operand. For `BETWEEN` it is a two-element list or array.
    public var right: FetchExpression
    /// The `[c]`, `[d]` and `[n]` flags written after the operator.
    public var options: ComparisonOptions

    /// Creates a comparison.
    ///
    /// For example:
    ///
    /// ```swift
    /// let adult = PredicateComparison(.keyPath(["age"]), .greaterThanOrEqualTo, .constant(18))
    /// ```
    public init(
        _ left: FetchExpression,
        _ op: ComparisonOperator,
        _ right: FetchExpression,
        options: ComparisonOptions = [],
        modifier: ComparisonModifier = .direct
    ) {
        self.modifier = modifier
        self.left = left
        self.op = op
        self.right = right
        self.options = options
    }
}
