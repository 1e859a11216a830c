// Building predicates in code, without a format string.

extension FetchPredicate {
    /// A comparison predicate.
    ///
    /// For example:
    ///
    /// ```swift
    /// let urgent = FetchPredicate.compare(.key("priority"), .equalTo, .constant(1))
    /// let named = FetchPredicate.compare(.key("name"), .beginsWith, .constant("ben"), options: .caseInsensitive)
    /// let anyTag = FetchPredicate.compare(.key("tags.name"), .equalTo, .constant("home"), modifier: .any)
    /// ```
    public static func compare(
        _ left: FetchExpression,
        _ op: ComparisonOperator,
        _ right: FetchExpression,
        options: ComparisonOptions = [],
        modifier: ComparisonModifier = .direct
    ) -> FetchPredicate {
        .comparison(PredicateComparison(left, op, right, options: options, modifier: modifier))
    }

    /// Both predicates; `AND`s on either side are flattened into one.
    ///
    /// For example:
    ///
    /// ```swift
    /// let open = try FetchPredicate(format: "completed == NO")
    /// let urgent = try FetchPredicate(format: "priority == 1")
    /// let todo = open && urgent   // completed == NO AND priority == 1
    /// ```
    public static func && (lhs: FetchPredicate, rhs: FetchPredicate) -> FetchPredicate {
        .and(lhs.operands(ifAnd: true) + rhs.operands(ifAnd: true))
    }

    /// Either predicate; `OR`s on either side are flattened into one.
    ///
    /// For example:
    ///
    /// ```swift
    /// let edges = try FetchPredicate(format: "age < 18") || FetchPredicate(format: "age > 65")
    /// ```
    public static func || (lhs: FetchPredicate, rhs: FetchPredicate) -> FetchPredicate {
        .or(lhs.operands(ifAnd: false) + rhs.operands(ifAnd: false))
    }

    /// The negation of a predicate.
    ///
    /// For example:
    ///
    /// ```swift
    /// let notDone = !(try FetchPredicate(format: "completed == YES"))   // NOT completed == YES
    /// ```
    public static prefix func ! (operand: FetchPredicate) -> FetchPredicate {
        .not(operand)
    }

    private func operands(ifAnd: Bool) -> [FetchPredicate] {
        switch self {
        case .and(let operands) where ifAnd && operands.count > 1: return operands
        case .or(let operands) where !ifAnd && operands.count > 1: return operands
        default: return [self]
        }
    }
}

extension FetchExpression {
    /// A key path from a dotted string: `.key("department.name")` is
    /// `.keyPath(["department", "name"])`, and `.key("")` is `SELF`.
    ///
    /// For example:
    ///
    /// ```swift
    /// let p = FetchPredicate.compare(.key("department.name"), .equalTo, .constant("Sales"))
    /// ```
    public static func key(_ path: String) -> FetchExpression {
        path.isEmpty ? .evaluatedObject : .keyPath(path.split(separator: ".", omittingEmptySubsequences: false).map(String.init))
    }
}
