// What a dictionary request may name, checked once when it is compiled (never per row): result
// names must be unique, and a grouped or distinct fetch may sort and filter its groups only by
// what each group has one value of.

extension ManagedObjectContext {
    /// Refuses two fetched properties with the same result name (`name,name`, `count(*) as n,
    /// sum(age) as n`): a row could hold only one of their values under that name.
    func checkUniqueNames(_ properties: [FetchProperty], entity: Entity) throws(StoreError) {
        var seen: [String: FetchProperty] = [:]
        for property in properties {
            guard let first = seen[property.name] else {
                seen[property.name] = property
                continue
            }
            let name = property.name
            // A name that is not the one that collides (avg(fund) is already avg_fund unnamed).
            func alias(_ function: FetchProperty.Function, _ keyPath: String) -> String {
                let plain = "\(function.displayName)_\(Self.aliasStem(keyPath))"
                return plain == name ? plain + "_2" : plain
            }
            let advice: String
            switch (first, property) {
            case (.key, .key):
                advice = "leave out the repeat"
            case (.expression(_, let function, let keyPath), .key), (.key, .expression(_, let function, let keyPath)):
                advice = "give the aggregate another name with 'as', such as \(function.displayName)(\(keyPath)) as \(alias(function, keyPath))"
            case (.expression, .expression(_, let function, let keyPath)):
                advice = "give each aggregate its own name with 'as', such as \(function.displayName)(\(keyPath)) as \(alias(function, keyPath))"
            }
            throw .invalidProperty(entity: entity.name, property: name, reason: """
                fetched twice under the result name '\(name)' (\(Self.text(first)) and \(Self.text(property))), \
                but each value of a result row needs its own name; \(advice)
                """)
        }
    }

    /// The ORDER BY items of a dictionary fetch's sort keys (no tie-breaker).
    ///
    /// A key that names a fetched aggregate (`n` of `count(*) as n`) orders by that aggregate. In a
    /// grouped fetch every other key must be a group-by key, and in a distinct fetch a fetched
    /// property: anything else would order by the value of an arbitrary row of each group.
    func rowOrder(
        _ sorts: [FetchSort], expressions: [String: String], groups: [String], selected: [String],
        request: FetchRequest, entity: Entity, builder: inout SQLQueryBuilder
    ) throws(StoreError) -> [String] {
        var items: [String] = []
        for sort in sorts {
            if let sql = expressions[sort.keyPath] {
                // An aggregate's type is not known here: the collation applies as written (it only
                // affects text).
                items.append(SQLQueryBuilder.orderItem(sql, sort, isString: true))
                continue
            }
            let item = try builder.orderBy([sort], tieBreakers: [])
            let aliases = expressions.keys.sorted()
            let named = aliases.isEmpty ? "" : " or a fetched aggregate's name (\(aliases.joined(separator: ", ")))"
            if !groups.isEmpty, !groups.contains(try builder.column(forKeyPath: sort.keyPath).sql) {
                throw .invalidProperty(entity: entity.name, property: sort.keyPath, reason: """
                    sorts a fetch grouped by \(Self.list(request.propertiesToGroupBy)) but is neither a group-by key nor \
                    a fetched aggregate, so the order would come from an arbitrary row of each group; sort by a group-by \
                    key (\(request.propertiesToGroupBy.joined(separator: ", ")))\(named), or fetch an aggregate of it with \
                    a name and sort by the name (--properties ...,"max(\(sort.keyPath)) as last" --sort last)
                    """)
            }
            if groups.isEmpty, request.returnsDistinctResults, !selected.contains(try builder.column(forKeyPath: sort.keyPath).sql) {
                throw .invalidProperty(entity: entity.name, property: sort.keyPath, reason: """
                    sorts a distinct fetch but is not fetched, so the order would come from an arbitrary one of the \
                    rows each distinct row stands for; sort by a fetched property\(named), or fetch '\(sort.keyPath)' too
                    """)
            }
            items.append(item)
        }
        return items
    }

    /// Refuses what a HAVING predicate cannot mean: a key that is neither a group-by key nor a
    /// fetched property's name, and to-many tests (ANY, ALL, NONE, `@count`, SUBQUERY), `SELF` or
    /// variables, which SQLite would evaluate on one arbitrary row of each group.
    func checkHaving(
        _ having: FetchPredicate, names: Set<String>, groups: [String], request: FetchRequest, entity: Entity,
        builder: inout SQLQueryBuilder
    ) throws(StoreError) {
        let keys = request.propertiesToGroupBy.joined(separator: ", ")
        func usable(_ example: String) -> String {
            "the having predicate may name group-by keys (\(keys)) and aggregates fetched with a name (\(example))"
        }
        func refuse(_ comparison: PredicateComparison, _ what: String) -> StoreError {
            .invalidRequest("""
                the having predicate '\(comparison)' \(what), which SQLite would evaluate on one arbitrary row of each \
                group; \(usable("--properties ...,\"count(*) as n\" --having \"n > 2\"")); to test rows before they are \
                grouped, use the predicate (--where '\(comparison)')
                """)
        }
        func check(_ expression: FetchExpression, in comparison: PredicateComparison, builder: inout SQLQueryBuilder) throws(StoreError) {
            switch expression {
            case .constant, .now:
                return
            case .aggregate(let elements):
                for element in elements { try check(element, in: comparison, builder: &builder) }
            case .keyPath(let path):
                let key = path.joined(separator: ".")
                if names.contains(key) { return }
                let sql: String
                do {
                    sql = try builder.column(forKeyPath: key).sql
                } catch {
                    if case .unknownKey = error { throw error }
                    throw refuse(comparison, "tests '\(key)', which has many values per object")
                }
                guard groups.contains(sql) else {
                    throw .invalidProperty(entity: entity.name, property: key, reason: """
                        named in the having predicate '\(comparison)' of a fetch grouped by \(Self.list(request.propertiesToGroupBy)) \
                        but neither a group-by key nor a fetched aggregate, so SQLite would test it on one arbitrary row of \
                        each group; \(usable("--properties ...,\"max(\(key)) as last\" --having 'last ...'")); to test \
                        rows before they are grouped, use the predicate (--where '\(comparison)')
                        """)
                }
            case .evaluatedObject, .variable:
                throw refuse(comparison, "tests an object (SELF or a variable)")
            case .collectionOperator, .subquery:
                throw refuse(comparison, "tests a to-many relationship")
            }
        }
        switch having {
        case .truePredicate, .falsePredicate:
            return
        case .comparison(let comparison):
            if comparison.modifier != .direct { throw refuse(comparison, "tests a to-many relationship with ANY, ALL or NONE") }
            try check(comparison.left, in: comparison, builder: &builder)
            try check(comparison.right, in: comparison, builder: &builder)
        case .and(let operands), .or(let operands):
            for operand in operands {
                try checkHaving(operand, names: names, groups: groups, request: request, entity: entity, builder: &builder)
            }
        case .not(let operand):
            try checkHaving(operand, names: names, groups: groups, request: request, entity: entity, builder: &builder)
        }
    }

    /// A property as the command line writes it: `name`, `count(*) as n`.
    static func text(_ property: FetchProperty) -> String {
        switch property {
        case .key(let keyPath): "'\(keyPath)'"
        case .expression(let name, let function, let keyPath): "'\(function.displayName)(\(keyPath)) as \(name)'"
        }
    }

    /// A key path as part of a suggested name: `details_zip`, `all` for `*`.
    private static func aliasStem(_ keyPath: String) -> String {
        keyPath == "*" ? "all" : keyPath.replacingOccurrences(of: ".", with: "_")
    }
}
