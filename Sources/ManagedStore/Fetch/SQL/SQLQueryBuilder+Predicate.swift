// Predicates to SQL conditions: the tree, key paths and constants, and the to-many forms
// (ANY/ALL/NONE, membership, collection operators, SUBQUERY) as correlated subqueries.
//
// - `ANY tags.name == 'x'` → `EXISTS (SELECT 1 FROM <tags> WHERE <link to t0> AND <cond>)`
// - `ALL tags.name == 'x'` → `NOT EXISTS (SELECT 1 FROM <tags> WHERE <link> AND NOT coalesce(<cond>, 0))`
// - `NONE …` parses as `NOT ANY …`
// - `tags CONTAINS %@`, `%@ IN tags` → membership: `ANY` with `==`
// - `tags.@count > 2` → `(SELECT count(*) FROM <tags> WHERE <link>) > ?1`; `@sum`, `@avg`, `@min`,
//   `@max` likewise, `@sum` being 0 for no elements as in memory
// - `SUBQUERY(tags, $t, <p>).@count` → a count over the tags for which `<p>` holds, `$t` naming
//   the subquery's row; bare key paths inside `<p>` still start at the evaluated object
//
// A `<tags>` is the destination table (one-to-many, linked by its foreign key) or the join table
// (many-to-many), the destination table joined only when one of its columns is read.

extension SQLQueryBuilder {
    /// The SQL boolean expression of `predicate` (without the word WHERE), its placeholders
    /// numbered after ``bindings`` so far and their values appended there; joins it needs are
    /// added to ``fromClause``.
    ///
    /// For example, for Tasks, `task_description CONTAINS[cd] %@ AND priority <= 2` gives
    /// `SEEDSTORE_COMPARE(t0.ZTASK_DESCRIPTION, 'CONTAINS[cd]', ?1) AND t0.ZPRIORITY <= ?2`.
    ///
    /// - Throws: ``StoreError/unknownKey(entity:key:suggestions:)`` for a key the model lacks,
    ///   ``StoreError/invalidProperty(entity:property:reason:)`` for an attribute compared with a
    ///   constant of a kind it never compares with (`priority == '1'`, `closeDate > '2010-01-01'`,
    ///   `name CONTAINS 5`), ``StoreError/invalidRequest(_:)`` for a to-many key path without
    ///   ANY/ALL/NONE/@count/SUBQUERY, an unsubstituted `$VARIABLE`, an invalid MATCHES pattern or
    ///   BETWEEN bounds, and the like.
    public mutating func condition(_ predicate: FetchPredicate) throws(StoreError) -> String {
        let free = predicate.variableNames.sorted()
        if !free.isEmpty {
            let names = free.map { "$" + $0 }.joined(separator: ", ")
            throw .invalidRequest("""
                the predicate uses \(names) but \(free.count == 1 ? "it has" : "they have") no value: substitute \
                with predicate.substituting(["\(free[0])": …]) before fetching
                """)
        }
        return try compile(predicate.substitutingNow(now), in: SQLContext(place: Self.root)).sql
    }

    /// The condition of a HAVING predicate of a grouped dictionary fetch: besides key paths, it
    /// may name result columns (`"count"` for `count(t0.Z_PK)`), which are compared as SQLite
    /// compares them, their types being unknown.
    ///
    /// For example:
    ///
    /// ```swift
    /// let having = try builder.condition(FetchPredicate(format: "count > 1"), resultColumns: ["count": "count(t0.Z_PK)"])
    /// // count(t0.Z_PK) > ?1
    /// ```
    public mutating func condition(_ predicate: FetchPredicate, resultColumns: [String: String]) throws(StoreError) -> String {
        let saved = self.resultColumns
        self.resultColumns = resultColumns
        defer { self.resultColumns = saved }
        return try condition(predicate)
    }

    mutating func compile(_ predicate: FetchPredicate, in context: SQLContext) throws(StoreError) -> SQLCondition {
        switch predicate {
        case .truePredicate:
            return .true
        case .falsePredicate:
            return .false
        case .comparison(let comparison):
            return try compile(comparison, in: context)
        case .and(let operands):
            var conditions: [SQLCondition] = []
            for operand in operands { conditions.append(try compile(operand, in: context)) }
            return .and(conditions)
        case .or(let operands):
            var conditions: [SQLCondition] = []
            for operand in operands { conditions.append(try compile(operand, in: context)) }
            return .or(conditions)
        case .not(let operand):
            return try compile(operand, in: context).negated
        }
    }

    // MARK: Comparisons

    mutating func compile(_ comparison: PredicateComparison, in context: SQLContext) throws(StoreError) -> SQLCondition {
        if comparison.left.isConstantOnly && comparison.right.isConstantOnly {
            do {
                return try PredicateEvaluator(resolve: { _ in .scalar(.null) }, now: now).evaluate(comparison) ? .true : .false
            } catch {
                throw .invalidRequest("\(comparison): \(error)")
            }
        }
        // A right side that cannot make a test (a bad MATCHES pattern, BETWEEN without two bounds)
        // fails the predicate whatever the left side is, as in memory. (IN one value is refused
        // below, in words that name the left side.)
        if case .constant(let right) = comparison.right, comparison.op != .in {
            do { _ = try PredicateComparisonTest(comparison.op, comparison.options, right) } catch {
                throw .invalidRequest("\(comparison): \(error)")
            }
        }
        // An attribute against a constant of a kind it never compares with (`cert == '15741'`).
        try checkKinds(comparison, in: context)
        if comparison.modifier != .direct {
            return try quantified(comparison, in: context)
        }
        // Membership: `tags CONTAINS %@`, `%@ IN tags.name`.
        if comparison.op == .contains, let collection = try toManyPath(comparison.left, in: context) {
            return try membership(collection, comparison.right, options: comparison.options, elementOnLeft: true, in: context)
        }
        if comparison.op == .in, let collection = try toManyPath(comparison.right, in: context) {
            return try membership(collection, comparison.left, options: comparison.options, elementOnLeft: false, in: context)
        }
        let left = try operand(comparison.left, in: context)
        let right = try operand(comparison.right, in: context)
        if comparison.op == .in { try requireCollection(right, of: comparison, left: left, in: context) }
        return try compare(left, comparison.op, right, options: comparison.options)
    }

    /// Refuses `x IN y` where `y` is one value (`age IN 3`, `name IN 'text'`, `age IN zip`): IN
    /// tests membership, so its right side is a list, an array or a to-many key path, as in memory
    /// (a string is no collection: `'text' CONTAINS name` tests for a part of it, when `name` is
    /// text; for another kind the advice is a list, `age IN {1, 2}`). Nil is allowed, and false,
    /// as in memory.
    private func requireCollection(_ right: SQLOperand, of comparison: PredicateComparison, left: SQLOperand, in context: SQLContext) throws(StoreError) {
        let advice = "IN needs a collection on the right: a list such as {1, 2}, an array argument (IN %@) or a to-many key path"
        // CONTAINS needs text on both sides: only then is it the way to test for a part.
        let substring = ", or \(comparison.right) CONTAINS \(comparison.left) to test whether it is part of the text"
        let list = ", or a list of values: \(comparison.left) IN {\(Self.listExample(left))}"
        switch right {
        case .list, .constant(.array), .constant(.null):
            return
        case .constant(let value):
            let more = if case .string = value { Self.isText(left) ? substring : list } else { "" }
            throw .invalidRequest("\(comparison): \(advice), but got the single value \(value); use == to compare with one value\(more)")
        case .value(_, let kind, _):
            let entity = node(context.place).entity.name
            let more = (kind == .string || kind == .any) && Self.isText(left) ? substring : ""
            let reason = "\(advice), but '\(comparison.right)' has one value per \(entity) (no to-many relationship on its way); "
                + "use == to compare with it\(more)"
            guard case .keyPath(let path) = comparison.right else { throw .invalidRequest("\(comparison): \(reason)") }
            throw .invalidProperty(entity: entity, property: path.joined(separator: "."), reason: "in '\(comparison)': \(reason)")
        }
    }

    /// Whether an operand is (or may be) text, so CONTAINS could test it for a part.
    private static func isText(_ operand: SQLOperand) -> Bool {
        switch operand {
        case .value(_, let kind, _): kind == .string || kind == .any
        case .constant(.string): true
        case .constant(.array(let elements)): !elements.isEmpty && elements.allSatisfy { if case .string = $0 { true } else { false } }
        case .list(let operands): operands.allSatisfy(isText)
        case .constant: false
        }
    }

    /// Example list elements of the left side's kind, for advice.
    private static func listExample(_ operand: SQLOperand) -> String {
        guard case .value(_, let kind, _) = operand else { return "1, 2" }
        return switch kind {
        case .boolean: "YES, NO"
        case .date: "CAST(700000000, \"NSDate\"), CAST(700086400, \"NSDate\")"
        default: "1, 2"
        }
    }

    /// Refuses ANY/ALL/NONE over one value (`ANY age == 3`): the modifiers range over a
    /// collection, as NSPredicate requires ("must be either an NSArray or NSSet").
    private func quantifierError(_ comparison: PredicateComparison, in context: SQLContext) -> StoreError {
        let advice = "ANY, ALL and NONE need a collection on the left: a key path through a to-many relationship (such as ANY tags.name == 'x') or a list"
        let entity = node(context.place).entity
        guard case .keyPath(let path) = comparison.left else {
            return .invalidRequest("\(comparison): \(advice), but '\(comparison.left)' is a single value; compare it without the modifier")
        }
        let toMany = entity.relationships.filter(\.isToMany).map(\.name)
        let reason = "in '\(comparison)': \(advice), but '\(path.joined(separator: "."))' has one value per \(entity.name) "
            + "(no to-many relationship on its way); compare it without the modifier"
            + (toMany.isEmpty ? "" : ", or use a to-many relationship of \(entity.name): " + toMany.joined(separator: ", "))
        return .invalidProperty(entity: entity.name, property: path.joined(separator: "."), reason: reason)
    }

    /// `ANY`/`ALL` comparisons: over the elements of a to-many key path or a list; a key path
    /// with no to-many step (one value per object) throws, as in memory.
    private mutating func quantified(_ comparison: PredicateComparison, in context: SQLContext) throws(StoreError) -> SQLCondition {
        let isAny = comparison.modifier == .any
        guard let (start, path) = try toManyPath(comparison.left, in: context) else {
            let left = try operand(comparison.left, in: context)
            let right = try operand(comparison.right, in: context)
            if comparison.op == .in { try requireCollection(right, of: comparison, left: left, in: context) }
            let elements: [SQLOperand]
            switch left {
            case .constant(.null): elements = []
            case .constant(.array(let constants)): elements = constants.map(SQLOperand.constant)
            case .list(let operands): elements = operands
            case .constant, .value: throw quantifierError(comparison, in: context)
            }
            var conditions: [SQLCondition] = []
            for element in elements {
                conditions.append(try compare(element, comparison.op, right, options: comparison.options))
            }
            return isAny ? .or(conditions) : .and(conditions)
        }
        let (end, _, scope) = try resolve(path, from: start, collection: true)
        let right = try operand(comparison.right, in: context)
        if comparison.op == .in { try requireCollection(right, of: comparison, left: SQLOperand(end), in: context) }
        let condition = try compare(SQLOperand(end), comparison.op, right, options: comparison.options)
        if isAny {
            return exists(scope!, where: condition)
        }
        return exists(scope!, where: condition.negated).negated
    }

    /// `collection CONTAINS x` or `x IN collection` for a to-many key path: some element equals `x`.
    private mutating func membership(
        _ collection: (SQLPlace, [String]), _ other: FetchExpression, options: ComparisonOptions,
        elementOnLeft: Bool, in context: SQLContext
    ) throws(StoreError) -> SQLCondition {
        let (end, _, scope) = try resolve(collection.1, from: collection.0, collection: true)
        let element = SQLOperand(end)
        let value = try operand(other, in: context)
        let condition = elementOnLeft
            ? try equality(element, value, options: options.stringOptions, negated: false)
            : try equality(value, element, options: options.stringOptions, negated: false)
        return exists(scope!, where: condition)
    }

    /// `EXISTS (SELECT 1 FROM <scope> WHERE <link> AND <condition>)`.
    private mutating func exists(_ scope: Int, where condition: SQLCondition) -> SQLCondition {
        SQLCondition("EXISTS (\(subquery(scope, select: "1", where: condition)))",
                     nullable: false, placeholders: condition.hasPlaceholders)
    }

    /// The text of a subquery over `scope`: its rows tied to the enclosing object, filtered.
    func subquery(_ scope: Int, select: String, where condition: SQLCondition?) -> String {
        let scope = scopes[scope]
        var filters = [scope.link ?? "1"]
        if let condition, !condition.isTrue { filters.append(condition.shape == .or ? "(\(condition.sql))" : condition.sql) }
        return "SELECT \(select) FROM \(scope.fromClause) WHERE \(filters.joined(separator: " AND "))"
    }

    /// The start and the components of a key path that takes a to-many step, or nil for any
    /// other expression.
    private func toManyPath(_ expression: FetchExpression, in context: SQLContext) throws(StoreError) -> (SQLPlace, [String])? {
        guard let (start, path) = try objectPath(expression, in: context) else { return nil }
        return crossesToMany(path, from: node(start).entity) ? (start, path) : nil
    }

    /// Where a key path or variable path starts, and its components; nil for other expressions.
    private func objectPath(_ expression: FetchExpression, in context: SQLContext) throws(StoreError) -> (SQLPlace, [String])? {
        switch expression {
        case .keyPath(let path):
            return (context.place, path)
        case .evaluatedObject:
            return (context.place, [])
        case .variable(let name, let path):
            let variable = try self.variable(name, in: context)
            guard case .object = variable.end else {
                if path.isEmpty { return nil }
                throw .invalidRequest("$\(name) stands for a value, not an object, so it has no key '\(path[0])'")
            }
            return (variable.place, path)
        default:
            return nil
        }
    }

    private func variable(_ name: String, in context: SQLContext) throws(StoreError) -> SQLContext.Variable {
        guard let variable = context.variables[name] else {
            throw .invalidRequest("$\(name) has no value: substitute it with predicate.substituting([\"\(name)\": …]) before fetching")
        }
        return variable
    }

    // MARK: Operands

    mutating func operand(_ expression: FetchExpression, in context: SQLContext) throws(StoreError) -> SQLOperand {
        if expression.isConstantOnly {
            do {
                return .constant(try PredicateEvaluator(resolve: { _ in .scalar(.null) }, now: now).value(of: expression).constant)
            } catch {
                throw .invalidRequest("\(expression): \(error)")
            }
        }
        switch expression {
        case .constant(let constant):
            return .constant(constant)
        case .now:
            return .constant(.date(now))
        case .keyPath(let path) where context.place == Self.root && resultColumns[path.joined(separator: ".")] != nil:
            return .value(sql: resultColumns[path.joined(separator: ".")]!, kind: .any, isNullable: true)
        case .evaluatedObject, .keyPath, .variable:
            if case .variable(let name, let path) = expression, path.isEmpty {
                return SQLOperand(try variable(name, in: context).end)
            }
            let (start, path) = try objectPath(expression, in: context)!
            return SQLOperand(try resolve(path, from: start, collection: false).end)
        case .aggregate(let elements):
            var operands: [SQLOperand] = []
            for element in elements { operands.append(try operand(element, in: context)) }
            return .list(operands)
        case .collectionOperator(let op, let base, let keyPath):
            return try aggregate(op, of: base, keyPath: keyPath, in: context)
        case .subquery(let collection, let variable, _):
            throw .invalidRequest("SUBQUERY(\(collection), $\(variable), …) is a collection: compare its count, as in SUBQUERY(…).@count > 0")
        }
    }

    /// `@count`, `@sum`, `@avg`, `@min`, `@max` of a to-many key path or a SUBQUERY: a scalar subquery.
    private mutating func aggregate(
        _ op: PredicateCollectionOperator, of base: FetchExpression, keyPath: [String], in context: SQLContext
    ) throws(StoreError) -> SQLOperand {
        let end: SQLKeyPathEnd, scope: Int
        var filter: SQLCondition?
        if case .subquery(let collection, let variable, let predicate) = base {
            let (element, elementPlace, subqueryScope, condition) = try subquery(collection, variable, predicate, in: context)
            filter = condition
            scope = subqueryScope
            if keyPath.isEmpty {
                end = element
            } else {
                guard case .object = element else {
                    throw .invalidRequest("@\(op.rawValue).\(keyPath.joined(separator: ".")): the SUBQUERY's elements are values, not objects")
                }
                end = try resolve(keyPath, from: elementPlace, collection: true, within: scope).end
            }
        } else {
            let resolved = try objectPath(base, in: context).map { start, path throws(StoreError) in
                try resolve(path + keyPath, from: start, collection: true)
            }
            guard let resolved, let subquery = resolved.subquery else {
                throw .invalidRequest("@\(op.rawValue) needs a to-many key path, such as tags.@\(op.rawValue)\(op == .count ? "" : ".name"); '\(base)' is a single value")
            }
            end = resolved.end
            scope = subquery
        }
        let kind = end.kind
        let select: String, resultKind: SQLKind, isNullable: Bool
        switch op {
        case .count:
            (select, resultKind, isNullable) = ("count(*)", .number, false)
        case .sum, .avg:
            guard kind == .number || kind == .boolean else {
                throw .invalidRequest("@\(op.rawValue) adds numbers, but \(keyPathDescription(base, keyPath)) holds \(kind) values")
            }
            (select, resultKind, isNullable) = op == .sum
                ? ("coalesce(sum(\(end.sql)), 0)", .number, false) : ("avg(\(end.sql))", .number, true)
        case .min, .max:
            guard kind != .data && kind != .uuid else {
                throw .invalidRequest("@\(op.rawValue) needs values that order, but \(keyPathDescription(base, keyPath)) holds \(kind) values")
            }
            (select, resultKind, isNullable) = ("\(op.rawValue)(\(end.sql))", kind, true)
        }
        let sql = "(\(subquery(scope, select: select, where: filter)))"
        return .value(sql: sql, kind: resultKind, isNullable: isNullable)
    }

    private func keyPathDescription(_ base: FetchExpression, _ keyPath: [String]) -> String {
        keyPath.isEmpty ? "'\(base)'" : "'\(base).\(keyPath.joined(separator: "."))'"
    }

    /// `SUBQUERY(collection, $variable, predicate)`: the scope over the collection's elements, the
    /// element `$variable` names, and the predicate's condition with `$variable` bound.
    private mutating func subquery(
        _ collection: FetchExpression, _ variable: String, _ predicate: FetchPredicate, in context: SQLContext
    ) throws(StoreError) -> (SQLKeyPathEnd, SQLPlace, Int, SQLCondition) {
        let resolved = try objectPath(collection, in: context).map { start, path throws(StoreError) in
            try resolve(path, from: start, collection: true)
        }
        guard let (end, place, scope) = resolved, scope != nil else {
            throw .invalidRequest("SUBQUERY needs a to-many key path as its collection, such as SUBQUERY(tags, $t, $t.name == 'x'); '\(collection)' is not one")
        }
        var inner = context
        inner.variables[variable] = SQLContext.Variable(place: place, end: end)
        let condition = try compile(predicate, in: inner)
        return (end, place, scope!, condition)
    }
}
