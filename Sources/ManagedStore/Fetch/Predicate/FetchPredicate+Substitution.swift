import Foundation

// Substitution of `$VARIABLE`s, and of `now()` by the instant of a fetch.

extension FetchPredicate {
    /// The predicate with its `$VARIABLE`s replaced by values or key paths.
    ///
    /// A value replaces `$NAME` with a constant; a
    /// ``PredicateArgument/keyPath(_:)`` replaces `$NAME` (and `$NAME.rest`)
    /// with a key path. Variables missing from `variables` stay, as does the
    /// variable a `SUBQUERY` binds inside its predicate, and `$NAME.rest` for
    /// a value (a value has no keys). A list that becomes all constants
    /// becomes an array constant, as if it had been parsed that way.
    ///
    /// For example:
    ///
    /// ```swift
    /// let template = try FetchPredicate(format: "date > $DATE AND owner == $USER")
    /// let p = template.substituting(["DATE": .date(Date()), "USER": "ringo"])
    /// ```
    public func substituting(_ variables: [String: PredicateArgument]) -> FetchPredicate {
        if variables.isEmpty { return self }
        return mappingExpressions { $0.substituting(variables) }
    }

    /// The predicate with every `now()` replaced by `date`: what a fetch does
    /// once, so that the SQL and the in-memory test of unsaved objects see one
    /// instant.
    ///
    /// For example:
    ///
    /// ```swift
    /// let due = try FetchPredicate(format: "dueDate < now()")
    /// let fixed = due.substitutingNow(Date())   // dueDate < CAST(…, "NSDate")
    /// ```
    public func substitutingNow(_ date: Date) -> FetchPredicate {
        mappingExpressions { $0.substitutingNow(date) }
    }

    /// The predicate with `transform` applied to both sides of each comparison.
    private func mappingExpressions(_ transform: (FetchExpression) -> FetchExpression) -> FetchPredicate {
        switch self {
        case .truePredicate, .falsePredicate:
            return self
        case .comparison(var comparison):
            comparison.left = transform(comparison.left)
            comparison.right = transform(comparison.right)
            return .comparison(comparison)
        case .and(let operands):
            return .and(operands.map { $0.mappingExpressions(transform) })
        case .or(let operands):
            return .or(operands.map { $0.mappingExpressions(transform) })
        case .not(let operand):
            return .not(operand.mappingExpressions(transform))
        }
    }

    /// The names of the variables that are still free: not substituted and
    /// not bound by a `SUBQUERY`.
    ///
    /// For example:
    ///
    /// ```swift
    /// try FetchPredicate(format: "date > $DATE").variableNames   // ["DATE"]
    /// ```
    public var variableNames: Set<String> {
        switch self {
        case .truePredicate, .falsePredicate:
            return []
        case .comparison(let comparison):
            return comparison.left.variableNames.union(comparison.right.variableNames)
        case .and(let operands), .or(let operands):
            return operands.reduce(into: []) { $0.formUnion($1.variableNames) }
        case .not(let operand):
            return operand.variableNames
        }
    }
}

extension FetchExpression {
    /// The expression with its variables replaced; see
    /// ``FetchPredicate/substituting(_:)``.
    public func substituting(_ variables: [String: PredicateArgument]) -> FetchExpression {
        switch self {
        case .constant, .evaluatedObject, .keyPath, .now:
            return self
        case .variable(let name, let keyPath):
            switch variables[name] {
            case .value(let constant)? where keyPath.isEmpty:
                return .constant(constant)
            case .keyPath(let path)?:
                guard let base = FetchExpression.keyPath(parsing: path) else { return self }
                guard case .keyPath(let components) = base else { return keyPath.isEmpty ? base : .keyPath(keyPath) }
                return .keyPath(components + keyPath)
            default:
                return self
            }
        case .aggregate(let elements):
            return .list(elements.map { $0.substituting(variables) })
        case .collectionOperator(let op, let base, let keyPath):
            return .collectionOperator(op, of: base.substituting(variables), keyPath: keyPath)
        case .subquery(let collection, let variable, let predicate):
            var inner = variables
            inner[variable] = nil
            return .subquery(
                collection: collection.substituting(variables), variable: variable,
                predicate: predicate.substituting(inner))
        }
    }

    /// The free variables of the expression.
    public var variableNames: Set<String> {
        switch self {
        case .constant, .evaluatedObject, .keyPath, .now:
            return []
        case .variable(let name, _):
            return [name]
        case .aggregate(let elements):
            return elements.reduce(into: []) { $0.formUnion($1.variableNames) }
        case .collectionOperator(_, let base, _):
            return base.variableNames
        case .subquery(let collection, let variable, let predicate):
            return collection.variableNames.union(predicate.variableNames.subtracting([variable]))
        }
    }

    /// The expression with every `now()` replaced by `date`; see
    /// ``FetchPredicate/substitutingNow(_:)``.
    public func substitutingNow(_ date: Date) -> FetchExpression {
        switch self {
        case .now:
            return .constant(.date(date))
        case .constant, .evaluatedObject, .keyPath, .variable:
            return self
        case .aggregate(let elements):
            return .list(elements.map { $0.substitutingNow(date) })
        case .collectionOperator(let op, let base, let keyPath):
            return .collectionOperator(op, of: base.substitutingNow(date), keyPath: keyPath)
        case .subquery(let collection, let variable, let predicate):
            return .subquery(
                collection: collection.substitutingNow(date), variable: variable,
                predicate: predicate.substitutingNow(date))
        }
    }
}
