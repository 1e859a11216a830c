// One comparison of two compiled operands, with in-memory evaluation's answers.
//
// Native SQL, where it means the same and indexes stay usable:
// - `==`, `<`, `<=`, `>`, `>=` against a non-null constant of a comparable kind → `x = ?1`, …;
//   `!=` → `x IS NOT ?1` (nil differs from 5, as in memory); `== nil` → `x IS NULL`;
//   column against column → `a IS b`, `a IS NOT b`, `a < b`
// - `IN {…}` → `x IN (?1, ?2)` (plus `OR x IS NULL` for a nil element); an empty list → `0`
// - `BETWEEN {lo, hi}` → `x BETWEEN ?1 AND ?2`
// Through `SEEDSTORE_COMPARE(left, 'OP[flags]', right)` (the predicate layer's own code):
// - any comparison of strings with `[c]` or `[d]`
// - `CONTAINS`, `BEGINSWITH`, `ENDSWITH`, `LIKE`, `MATCHES`: without `[c]` or `[d]` on UTF-8
//   bytes (`LIKE`'s `?` one scalar), as SQLite's `instr` and `GLOB` test them, on a byte path that
//   makes no Swift strings
// Refused before this point (`SQLQueryBuilder+Kinds.swift`): an attribute against a constant of a
// kind it never compares with (`priority == '1'`, `name CONTAINS 5`).
// Settled at compile time:
// - other kinds that are never equal or ordered (two columns of such kinds, an object against a
//   string, NaN, …): `==` is `0` and `!=` is `1` (or, between two columns, "both nil"), so SQLite's
//   type affinities never turn `'5'` into `5`; an ordering or string operator with nil is `0`
// - comparisons of constants.

extension SQLQueryBuilder {
    mutating func compare(
        _ left: SQLOperand, _ op: ComparisonOperator, _ right: SQLOperand, options: ComparisonOptions
    ) throws(StoreError) -> SQLCondition {
        let options = options.stringOptions
        if case .constant(let a) = left, case .constant(let b) = right {
            do { return try op.evaluate(a, b, options: options) ? .true : .false } catch {
                throw .invalidRequest("\(a) \(op) \(b): \(error)")
            }
        }
        switch op {
        case .equalTo:
            return try equality(left, right, options: options, negated: false)
        case .notEqualTo:
            return try equality(left, right, options: options, negated: true)
        case .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo:
            return try ordering(left, op, right, options: options)
        case .between:
            return try between(left, right, options: options)
        case .in:
            return try membership(left, in: right, options: options)
        case .contains:
            switch left {
            case .list, .constant(.array):
                return try membership(right, in: left, options: options)
            default:
                return try stringTest(left, op, right, options: options)
            }
        case .beginsWith, .endsWith, .like, .matches:
            return try stringTest(left, op, right, options: options)
        }
    }

    // MARK: Equality

    /// `==` (or `!=` when `negated`): never NULL unless it is a plain `x = ?`.
    mutating func equality(
        _ left: SQLOperand, _ right: SQLOperand, options: ComparisonOptions, negated: Bool
    ) throws(StoreError) -> SQLCondition {
        let op: ComparisonOperator = negated ? .notEqualTo : .equalTo
        switch (left, right) {
        case (.list, _), (_, .list):
            throw .invalidRequest("a list {…} can only be compared with IN, CONTAINS or BETWEEN")
        case (.constant(let a), .constant(let b)):
            return try compare(.constant(a), op, .constant(b), options: options)
        case (.constant(.null), .value(let sql, _, _)), (.value(let sql, _, _), .constant(.null)):
            return SQLCondition(negated ? "\(sql) IS NOT NULL" : "\(sql) IS NULL", nullable: false, placeholders: false)
        case (.value(let sql, let kind, let isNullable), .constant(let constant)),
             (.constant(let constant), .value(let sql, let kind, let isNullable)):
            guard let constantKind = constant.sqlKind, kind.canEqual(constantKind) else { return negated ? .true : .false }
            if kind.comparesAsStrings(constantKind) && !options.isEmpty {
                return function(sql, op, options, bind(constant.sqlValue))
            }
            let placeholder = bind(constant.sqlValue)
            return negated
                ? SQLCondition("\(sql) IS NOT \(placeholder)", nullable: false, placeholders: true)
                : SQLCondition("\(sql) = \(placeholder)", nullable: isNullable, placeholders: true)
        case (.value(let a, let kindA, let nullableA), .value(let b, let kindB, let nullableB)):
            guard kindA.canEqual(kindB) else {
                // Values that are never equal, unless both are nil.
                guard nullableA && nullableB else { return negated ? .true : .false }
                return SQLCondition(negated ? "(\(a) IS NOT NULL OR \(b) IS NOT NULL)" : "(\(a) IS NULL AND \(b) IS NULL)",
                                    nullable: false, placeholders: false)
            }
            if kindA.comparesAsStrings(kindB) && !options.isEmpty { return function(a, op, options, b) }
            return SQLCondition(negated ? "\(a) IS NOT \(b)" : "\(a) IS \(b)", nullable: false, placeholders: false)
        }
    }

    // MARK: Order

    /// `<`, `<=`, `>`, `>=`: false with nil or values that do not order.
    private mutating func ordering(
        _ left: SQLOperand, _ op: ComparisonOperator, _ right: SQLOperand, options: ComparisonOptions
    ) throws(StoreError) -> SQLCondition {
        switch (left, right) {
        case (.list, _), (_, .list):
            throw .invalidRequest("a list {…} can only be compared with IN, CONTAINS or BETWEEN")
        case (.constant(let a), .constant(let b)):
            return try compare(.constant(a), op, .constant(b), options: options)
        case (.constant, .value):
            // Keep the column on the left (and a bound right side for SEEDSTORE_COMPARE's cache).
            return try ordering(right, op.flipped, left, options: options)
        case (.value(let sql, let kind, let isNullable), .constant(let constant)):
            guard let constantKind = constant.sqlKind, kind.canOrder(constantKind) else { return .false }
            if kind.comparesAsStrings(constantKind) && !options.isEmpty {
                return function(sql, op, options, bind(constant.sqlValue))
            }
            return SQLCondition("\(sql) \(op.rawValue) \(bind(constant.sqlValue))", nullable: isNullable, placeholders: true)
        case (.value(let a, let kindA, let nullableA), .value(let b, let kindB, let nullableB)):
            guard kindA.canOrder(kindB) else { return .false }
            if kindA.comparesAsStrings(kindB) && !options.isEmpty { return function(a, op, options, b) }
            return SQLCondition("\(a) \(op.rawValue) \(b)", nullable: nullableA || nullableB, placeholders: false)
        }
    }

    /// `BETWEEN {lower, upper}`: both ends inclusive.
    private mutating func between(_ left: SQLOperand, _ right: SQLOperand, options: ComparisonOptions) throws(StoreError) -> SQLCondition {
        let lower: SQLOperand, upper: SQLOperand
        switch right {
        case .constant(.array(let bounds)) where bounds.count == 2:
            (lower, upper) = (.constant(bounds[0]), .constant(bounds[1]))
        case .list(let bounds) where bounds.count == 2:
            (lower, upper) = (bounds[0], bounds[1])
        default:
            throw .invalidRequest("BETWEEN needs two bounds, such as BETWEEN {1, 10}")
        }
        // A bound that never orders with the value (nil, another kind) makes it false.
        if case .value(_, let kind, _) = left {
            for case .constant(let bound) in [lower, upper] {
                guard let boundKind = bound.sqlKind, kind.canOrder(boundKind) else { return .false }
            }
        }
        if case .value(let sql, let kind, let isNullable) = left, case .constant(let low) = lower, case .constant(let high) = upper,
           let lowKind = low.sqlKind, let highKind = high.sqlKind, kind.canOrder(lowKind), kind.canOrder(highKind),
           options.isEmpty || !(kind.comparesAsStrings(lowKind) || kind.comparesAsStrings(highKind)) {
            return SQLCondition("\(sql) BETWEEN \(bind(low.sqlValue)) AND \(bind(high.sqlValue))",
                                nullable: isNullable, placeholders: true)
        }
        return .and([try ordering(left, .greaterThanOrEqualTo, lower, options: options),
                     try ordering(left, .lessThanOrEqualTo, upper, options: options)])
    }

    // MARK: Membership

    /// `x IN {…}`: `x` equals an element (one value on the right is refused before this point).
    private mutating func membership(_ left: SQLOperand, in right: SQLOperand, options: ComparisonOptions) throws(StoreError) -> SQLCondition {
        let elements: [SQLOperand]
        switch right {
        case .constant(.array(let constants)):
            elements = constants.map(SQLOperand.constant)
        case .list(let operands):
            elements = operands
        case .constant, .value:
            return .false
        }
        guard case .value(let sql, let kind, let isNullable) = left else {
            var conditions: [SQLCondition] = []
            for element in elements { conditions.append(try equality(left, element, options: options, negated: false)) }
            return .or(conditions)
        }
        // Constants that compare natively go in one IN list; the rest are tested one by one.
        var natives: [PredicateConstant] = []
        var others: [SQLCondition] = []
        for element in elements {
            if case .constant(let constant) = element, constant != .null {
                guard let constantKind = constant.sqlKind, kind.canEqual(constantKind) else { continue }
                if options.isEmpty || !kind.comparesAsStrings(constantKind) {
                    if !natives.contains(constant) { natives.append(constant) }
                    continue
                }
            }
            others.append(try equality(left, element, options: options, negated: false))
        }
        var conditions: [SQLCondition] = []
        if natives.count == 1 {
            conditions.append(SQLCondition("\(sql) = \(bind(natives[0].sqlValue))", nullable: isNullable, placeholders: true))
        } else if natives.count > 1 {
            let placeholders = natives.map { bind($0.sqlValue) }.joined(separator: ", ")
            conditions.append(SQLCondition("\(sql) IN (\(placeholders))", nullable: isNullable, placeholders: true))
        }
        return .or(conditions + others)
    }

    // MARK: Strings

    /// `CONTAINS`, `BEGINSWITH`, `ENDSWITH`, `LIKE`, `MATCHES`: false unless both sides are
    /// strings.
    private mutating func stringTest(
        _ left: SQLOperand, _ op: ComparisonOperator, _ right: SQLOperand, options: ComparisonOptions
    ) throws(StoreError) -> SQLCondition {
        func isString(_ operand: SQLOperand) throws(StoreError) -> Bool {
            switch operand {
            case .constant(.string), .value(_, .string, _), .value(_, .any, _): return true
            case .constant, .value: return false
            case .list: throw .invalidRequest("a list {…} cannot be the operand of \(op)")
            }
        }
        // An invalid pattern fails whatever it is compared with, as in memory.
        if op == .matches, case .constant(let pattern) = right {
            do { _ = try op.evaluate("", pattern, options: options) } catch {
                throw .invalidRequest("MATCHES \(pattern): \(error)")
            }
        }
        // A pattern from a column is compiled per row even when the left side is no string, as in
        // memory, where an invalid one fails the evaluation.
        let patternFromColumn: Bool = if op == .matches, case .value = right { true } else { false }
        guard try isString(right), try isString(left) || patternFromColumn else { return .false }
        return function(sql(of: left), op, options, sql(of: right))
    }

    /// `SEEDSTORE_COMPARE(left, 'OP[flags]', right)`: 1 or 0, as in-memory evaluation decides.
    private func function(_ left: String, _ op: ComparisonOperator, _ options: ComparisonOptions, _ right: String) -> SQLCondition {
        SQLCondition("\(Connection.SeedStoreSQL.compare)(\(left), '\(op.rawValue)\(options.formatSuffix)', \(right))",
                     nullable: false, placeholders: true)
    }

    /// An operand's SQL: a constant becomes a placeholder.
    private mutating func sql(of operand: SQLOperand) -> String {
        switch operand {
        case .constant(let constant): bind(constant.sqlValue)
        case .value(let sql, _, _): sql
        case .list: "NULL"
        }
    }
}

extension ComparisonOperator {
    /// The operator with its operands swapped: `a < b` is `b > a`.
    fileprivate var flipped: ComparisonOperator {
        switch self {
        case .lessThan: .greaterThan
        case .lessThanOrEqualTo: .greaterThanOrEqualTo
        case .greaterThan: .lessThan
        case .greaterThanOrEqualTo: .lessThanOrEqualTo
        default: self
        }
    }
}
