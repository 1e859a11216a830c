import Foundation

/// Walks a ``FetchPredicate`` in memory; see `FetchPredicate+Evaluation.swift`
/// for the semantics.
///
/// For example:
///
/// ```swift
/// let evaluator = PredicateEvaluator(resolve: { _ in 3 })
/// try evaluator.evaluate(FetchPredicate(format: "priority > 2"))   // true
/// ```
struct PredicateEvaluator {
    let resolve: ([String]) throws -> PredicateValue
    /// The date `now()` stands for: one instant for everything this evaluator tests.
    var now = Date()

    func evaluate(_ predicate: FetchPredicate) throws -> Bool {
        switch predicate {
        case .truePredicate:
            return true
        case .falsePredicate:
            return false
        case .comparison(let comparison):
            return try evaluate(comparison)
        case .and(let operands):
            for operand in operands where try !evaluate(operand) { return false }
            return true
        case .or(let operands):
            for operand in operands where try evaluate(operand) { return true }
            return false
        case .not(let operand):
            return try !evaluate(operand)
        }
    }

    func evaluate(_ comparison: PredicateComparison) throws -> Bool {
        let left = try value(of: comparison.left)
        let right = try value(of: comparison.right)
        let test = try PredicateComparisonTest(comparison.op, comparison.options, right.constant)
        switch comparison.modifier {
        case .direct:
            return test.matches(left.constant)
        case .any:
            return try Self.collection(left, of: comparison).contains(where: test.matches)
        case .all:
            return try Self.collection(left, of: comparison).allSatisfy(test.matches)
        }
    }

    /// The elements `ANY`/`ALL`/`NONE` range over: a to-many value or a list (nil has none). A
    /// single value is refused, as NSPredicate refuses it: the modifier would mean nothing.
    private static func collection(_ left: PredicateValue, of comparison: PredicateComparison) throws -> [PredicateConstant] {
        switch left {
        case .collection, .scalar(.array), .scalar(.null):
            return left.elements
        case .scalar(let value):
            throw PredicateEvaluationError.invalidOperand("""
                ANY, ALL and NONE need a collection on the left, a key path through a to-many relationship \
                (ANY tags.name == 'x') or a list, but '\(comparison.left)' is the single value \(value); \
                compare it without the modifier
                """)
        }
    }

    func value(of expression: FetchExpression) throws -> PredicateValue {
        switch expression {
        case .constant(let constant):
            return .scalar(constant)
        case .evaluatedObject:
            return try resolve([])
        case .keyPath(let components):
            return try resolve(components)
        case .variable(let name, _):
            throw PredicateEvaluationError.unboundVariable(name)
        case .aggregate(let elements):
            return .scalar(.array(try elements.map { try value(of: $0).constant }))
        case .collectionOperator(let op, let base, let keyPath):
            return .scalar(try apply(op, to: base, keyPath: keyPath))
        case .subquery:
            throw PredicateEvaluationError.unsupported("SUBQUERY")
        case .now:
            return .scalar(.date(now))
        }
    }

    private func apply(
        _ op: PredicateCollectionOperator, to base: FetchExpression, keyPath: [String]
    ) throws -> PredicateConstant {
        let collection: PredicateValue
        switch base {
        case .keyPath(let components):
            collection = try resolve(components + keyPath)
        case .evaluatedObject:
            collection = try resolve(keyPath)
        default:
            guard keyPath.isEmpty else {
                throw PredicateEvaluationError.invalidOperand(
                    "a key path cannot follow @\(op.rawValue) on '\(base)' in memory")
            }
            collection = try value(of: base)
        }
        switch collection {
        case .scalar(.array), .scalar(.null), .collection:
            break
        case .scalar:
            throw PredicateEvaluationError.invalidOperand(
                "@\(op.rawValue) needs a to-many key path or a list, but '\(base)' is a single value")
        }
        let elements = collection.elements
        switch op {
        case .count:
            return .int(Int64(elements.count))
        case .sum:
            return try Self.sum(elements.filter { $0 != .null }, op: op)
        case .avg:
            let numbers = elements.filter { $0 != .null }
            guard !numbers.isEmpty else { return .null }
            guard case .double(let total) = try Self.sum(numbers, op: op).asDoubleConstant else { return .null }
            return .double(total / Double(numbers.count))
        case .min, .max:
            var best: PredicateConstant?
            for element in elements where element != .null {
                guard let current = best else {
                    best = element
                    continue
                }
                let order = PredicateConstant.order(element, current, options: [])
                if order == (op == .min ? .orderedAscending : .orderedDescending) { best = element }
            }
            return best ?? .null
        }
    }

    /// Adds numbers: an integer while every element is an integer or
    /// Boolean and the sum fits, a double otherwise.
    private static func sum(_ numbers: [PredicateConstant], op: PredicateCollectionOperator) throws -> PredicateConstant {
        var integer: Int64? = 0
        var double = 0.0
        for number in numbers {
            switch number {
            case .int, .bool:
                let value: Int64 = if case .int(let value) = number { value } else { number == .bool(true) ? 1 : 0 }
                double += Double(value)
                if let sum = integer {
                    let (result, overflow) = sum.addingReportingOverflow(value)
                    integer = overflow ? nil : result
                }
            case .double(let value):
                double += value
                integer = nil
            default:
                throw PredicateEvaluationError.invalidOperand("@\(op.rawValue) needs numbers, but found \(number.kindName)")
            }
        }
        return integer.map(PredicateConstant.int) ?? .double(double)
    }
}

extension PredicateConstant {
    /// An integer as a double; other values unchanged.
    fileprivate var asDoubleConstant: PredicateConstant {
        if case .int(let value) = self { return .double(Double(value)) }
        return self
    }
}
