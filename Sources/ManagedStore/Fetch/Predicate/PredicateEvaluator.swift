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
    /// The objects behind key paths, which `SUBQUERY` ranges over; without them it throws.
    var graph: PredicateObjectGraph?
    /// The object each enclosing `SUBQUERY`'s variable stands for.
    var bound: [String: AnyObject] = [:]

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
        case .variable(let name, let keyPath):
            guard let graph, let element = bound[name] else { throw PredicateEvaluationError.unboundVariable(name) }
            return try graph.value(element, keyPath)
        case .aggregate(let elements):
            return .scalar(.array(try elements.map { try value(of: $0).constant }))
        case .collectionOperator(let op, let base, let keyPath):
            return .scalar(try apply(op, to: base, keyPath: keyPath))
        case .subquery(let collection, let variable, let predicate):
            let (graph, kept) = try subquery(collection, variable, predicate)
            return .collection(try kept.map { try graph.value($0, []).constant })
        case .now:
            return .scalar(.date(now))
        }
    }

    /// The objects of `collection` for which `predicate` holds with `variable` bound to each.
    private func subquery(
        _ collection: FetchExpression, _ variable: String, _ predicate: FetchPredicate
    ) throws -> (PredicateObjectGraph, [AnyObject]) {
        guard let graph else { throw PredicateEvaluationError.unsupported("SUBQUERY") }
        let elements: [AnyObject]
        switch collection {
        case .keyPath(let components):
            elements = try graph.objects(nil, components)
        case .variable(let name, let components) where bound[name] != nil:
            elements = try graph.objects(bound[name], components)
        default:
            throw PredicateEvaluationError.invalidOperand(
                "SUBQUERY ranges over a to-many key path (or one from an enclosing SUBQUERY's variable), not '\(collection)'")
        }
        var inner = self
        var kept: [AnyObject] = []
        for element in elements {
            inner.bound[variable] = element
            if try inner.evaluate(predicate) { kept.append(element) }
        }
        return (graph, kept)
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
        case .variable(let name, let components) where bound[name] != nil:
            collection = try value(of: .variable(name, keyPath: components + keyPath))
        case .subquery(let subqueryCollection, let variable, let predicate) where !keyPath.isEmpty:
            // `SUBQUERY(…).@sum.pages`: the key path from each object the subquery kept.
            let (graph, kept) = try subquery(subqueryCollection, variable, predicate)
            collection = .collection(try kept.flatMap { try graph.value($0, keyPath).elements })
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

/// The objects behind a predicate's key paths, for evaluating `SUBQUERY` in memory: a context gives
/// its managed objects; a plain resolver of key paths has none.
///
/// For example, the context's fetch builds one over its objects:
///
/// ```swift
/// let graph = PredicateObjectGraph(
///     objects: { from, keyPath in context.objects(reachedFrom: (from as? ManagedObject) ?? object, along: keyPath) },
///     value: { element, keyPath in context.predicateValue(of: element as! ManagedObject, keyPath) })
/// ```
struct PredicateObjectGraph {
    /// The objects `keyPath` reaches from an object (`nil`: the evaluated object), in order.
    let objects: (_ from: AnyObject?, _ keyPath: [String]) throws -> [AnyObject]
    /// The value of `keyPath` from an object, as the evaluator's resolver gives it (`[]`: the object).
    let value: (_ of: AnyObject, _ keyPath: [String]) throws -> PredicateValue
}
