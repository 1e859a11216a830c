/// A predicate that cannot be evaluated in memory.
///
/// In-memory evaluation (``FetchPredicate/evaluate(_:)``) throws it, for a
/// predicate the evaluator does not support or whose operands do not fit
/// their operator; any error thrown by the resolver passes through as it is.
/// Parsing throws ``PredicateParseError`` instead, which carries the
/// position in the format string.
///
/// For example:
///
/// ```swift
/// let p = try FetchPredicate(format: "date > $DATE")
/// try p.evaluate(with: [:])   // throws .unboundVariable("DATE")
/// ```
public enum PredicateEvaluationError: Error, Sendable, Hashable {
    /// `$NAME` was not substituted (see ``FetchPredicate/substituting(_:)``).
    case unboundVariable(String)
    /// The evaluator does not support this construct in memory, such as `SUBQUERY`.
    case unsupported(String)
    /// A `MATCHES` pattern is not a valid ICU regular expression.
    case invalidRegularExpression(String)
    /// An operand does not fit its operator, such as a `BETWEEN` bound that is
    /// not a two-element list, or `@count` of a single value.
    case invalidOperand(String)
}

extension PredicateEvaluationError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .unboundVariable(let name):
            return "variable $\(name) has no value: substitute it before evaluating"
        case .unsupported(let what):
            return "\(what) is not supported in memory"
        case .invalidRegularExpression(let pattern):
            return "invalid regular expression '\(pattern)' for MATCHES"
        case .invalidOperand(let message):
            return message
        }
    }
}
