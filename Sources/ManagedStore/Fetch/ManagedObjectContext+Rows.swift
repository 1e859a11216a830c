import Foundation

/// Dictionary results, and explaining what a request runs.
extension ManagedObjectContext {
    /// Fetches light rows of just the properties asked for: no managed objects are made.
    ///
    /// Selects only the requested columns (joining for to-one key paths), with aggregates,
    /// grouping, `HAVING` and `DISTINCT` done by SQLite. Like Core Data's dictionary results, rows
    /// come from the store: unsaved changes are not included.
    ///
    /// For example:
    ///
    /// ```swift
    /// var request = FetchRequest(entityName: "WellSummary")
    /// request.propertiesToFetch = [.key("uwi"), .key("well_name"), .key("surface_latitude"), .key("surface_longitude")]
    /// let rows = try context.fetchRows(request)
    /// ```
    public func fetchRows(_ request: FetchRequest) throws(StoreError) -> [ResultRow] {
        try request.checkPaging()
        let request = request.fixingNow(Date())
        let entity = try store.entity(named: request.entityName)
        let (query, codecs, keys) = try compileRows(request, entity: entity)
        var values = ContiguousArray<Value>()
        var count = 0
        do {
            let statement = try store.connection.cachedStatement(query.sql)
            try statement.bind(query.bindings)
            try codecs.withUnsafeBufferPointer { codecs throws(SQLiteError) in
                while try statement.step() {
                    for i in 0..<codecs.count { values.append(codecs[i].read(statement, Int32(i))) }
                    count += 1
                }
            }
        } catch { throw StoreError(error, storePath: store.path) }
        let storage = ResultStorage()
        storage.values = values
        return (0..<count).map { ResultRow(keys: keys, storage: storage, row: $0) }
    }

    /// The SQL of a dictionary request, the codecs of its columns and their names.
    ///
    /// Checks what SQLite would let through with a meaningless answer: with `propertiesToGroupBy`,
    /// every plain key fetched must be a group-by key (otherwise its value comes from an arbitrary
    /// row of the group); without it, plain keys and aggregates are not fetched together (the
    /// aggregates make one row of all objects, and a plain key's value would come from an
    /// arbitrary one); and `sum`/`average` need a numeric attribute. Result names must be
    /// unique, and sort keys and the having predicate of a grouped fetch may name only group-by
    /// keys and fetched aggregates (see `ManagedObjectContext+RowChecks.swift`).
    ///
    /// With `counting`, the statement is left unsorted and unpaged, for ``count(for:)`` to count
    /// its rows (`SELECT count(*) FROM (…)`).
    func compileRows(_ request: FetchRequest, entity: Entity, counting: Bool = false) throws(StoreError) -> (CompiledQuery, [ColumnCodec], ResultKeys) {
        store.prepareForQueries()
        var builder = SQLQueryBuilder(model: model, entity: entity)
        if request.propertiesToFetch.isEmpty && !request.propertiesToGroupBy.isEmpty {
            throw .invalidRequest("""
                a fetch grouped by \(Self.list(request.propertiesToGroupBy)) needs propertiesToFetch (--properties): \
                name the group-by keys and aggregates to fetch, such as \(request.propertiesToGroupBy[0]),count(*)
                """)
        }
        let properties = request.propertiesToFetch.isEmpty ? entity.columns.map { FetchProperty.key($0.name) } : request.propertiesToFetch
        var selects: [String] = []
        var codecs: [ColumnCodec] = []
        var names: [String] = []
        var plainKeys: [(keyPath: String, sql: String)] = []
        for property in properties {
            names.append(property.name)
            switch property {
            case .key(let keyPath):
                let (sql, column, owner) = try builder.column(forKeyPath: keyPath)
                selects.append(sql)
                codecs.append(ColumnCodec(column, entity: owner))
                plainKeys.append((keyPath, sql))
            case .expression(_, let function, let keyPath):
                try FetchProperty.checkArgument(keyPath, of: function)
                if function == .count && (keyPath == "*" || keyPath == "SELF") {
                    selects.append("count(*)")
                    codecs.append(.integer)
                    continue
                }
                let (sql, column, owner) = try builder.column(forKeyPath: keyPath)
                let codec = ColumnCodec(column, entity: owner)
                switch function {
                case .count:
                    selects.append("count(\(sql))")
                    codecs.append(.integer)
                case .sum, .average:
                    // A Boolean adds as the 0 and 1 it is stored as (how many are true), as `@sum` in a
                    // predicate and Core Data's `sum:` over an SQLite store do.
                    guard let type = column.attribute?.type, type.isAddable || type == .boolean else {
                        throw .invalidProperty(entity: entity.name, property: keyPath, reason: """
                            \(function.displayName)(\(keyPath)) adds numbers, but '\(keyPath)' is \(column.kindDescription(of: owner)); \
                            use \(function.displayName) on an Integer 16, Integer 32, Integer 64, Decimal, Double, Float or Boolean attribute, \
                            or count, min or max for other types
                            """)
                    }
                    if function == .sum {
                        // The sum of no values is 0, as `@sum` of an empty set is; SQL's sum() is NULL there.
                        // Apple does not document `sum:` over no rows, but Core Data's SQL logs show total(), 0.
                        selects.append("coalesce(sum(\(sql)), 0)")
                        codecs.append(codec == .integer || codec == .boolean ? .integer : .real)
                    } else {
                        selects.append("avg(\(sql))")
                        codecs.append(.real)
                    }
                case .min, .max:
                    // The attribute's own type: a Date for dates, a String for strings.
                    selects.append("\(function.rawValue)(\(sql))")
                    codecs.append(codec)
                }
            }
        }
        try checkUniqueNames(properties, entity: entity)
        let condition = try request.predicate.map { p throws(StoreError) in try builder.condition(p) }
        let groups = try request.propertiesToGroupBy.map { key throws(StoreError) in try builder.column(forKeyPath: key).sql }
        if !groups.isEmpty, let stray = plainKeys.first(where: { !groups.contains($0.sql) }) {
            throw .invalidProperty(entity: entity.name, property: stray.keyPath, reason: """
                fetched with propertiesToGroupBy \(Self.list(request.propertiesToGroupBy)) but neither grouped by nor aggregated, \
                so each group would show the value of an arbitrary row; add '\(stray.keyPath)' to the group-by keys \
                (--group-by \((request.propertiesToGroupBy + [stray.keyPath]).joined(separator: ","))), fetch an aggregate of it \
                such as max(\(stray.keyPath)) or count(\(stray.keyPath)), or leave it out
                """)
        }
        if groups.isEmpty, let stray = plainKeys.first, let aggregate = properties.first(where: { if case .expression = $0 { true } else { false } }) {
            // Without GROUP BY, aggregates make one row of the whole table, and SQLite takes a
            // plain column's value from an arbitrary row of it.
            throw .invalidProperty(entity: entity.name, property: stray.keyPath, reason: """
                fetched with the aggregate \(Self.text(aggregate)) but without propertiesToGroupBy, so the aggregates make \
                one row for all \(entity.name) objects and '\(stray.keyPath)' would show the value of an arbitrary one; \
                group by it to get one row per value (--group-by \(plainKeys.map(\.keyPath).joined(separator: ","))), \
                fetch an aggregate of it such as max(\(stray.keyPath)), or leave it out
                """)
        }
        var expressions: [String: String] = [:]
        for (property, select) in zip(properties, selects) {
            if case .expression(let name, _, _) = property { expressions[name] = select }
        }
        let sorts = counting ? [] : request.sortDescriptors
        var items = try rowOrder(sorts, expressions: expressions, groups: groups, selected: plainKeys.map(\.sql),
                                 request: request, entity: entity, builder: &builder)
        if !counting {
            if !groups.isEmpty || request.returnsDistinctResults {
                // Rows stand for groups or distinct values: no primary key to break ties with, so the result
                // columns in order do, after the sort keys (`count(*)` ties come by group key).
                items += (1...selects.count).map(String.init)
            } else if !items.contains("t0.Z_PK") {
                items.append("t0.Z_PK")
            }
        }
        let order = items.joined(separator: ", ")
        var sql = "SELECT \(request.returnsDistinctResults ? "DISTINCT " : "")\(selects.joined(separator: ", ")) FROM \(builder.fromClause)"
        if let condition { sql += " WHERE \(condition)" }
        if !groups.isEmpty { sql += " GROUP BY " + groups.joined(separator: ", ") }
        if let having = request.havingPredicate {
            guard !groups.isEmpty else {
                throw .invalidRequest("""
                    a havingPredicate (--having) filters groups, so it needs propertiesToGroupBy (--group-by); \
                    to filter rows, use the predicate (--where)
                    """)
            }
            let resultColumns = Dictionary(zip(names, selects), uniquingKeysWith: { first, _ in first })
            try checkHaving(having, names: Set(names), groups: groups, request: request, entity: entity, builder: &builder)
            sql += " HAVING " + (try builder.condition(having, resultColumns: resultColumns))
        }
        if !order.isEmpty { sql += " ORDER BY \(order)" }
        if !counting && (request.fetchLimit > 0 || request.fetchOffset > 0) {
            sql += " LIMIT \(request.fetchLimit > 0 ? request.fetchLimit : -1)"
            if request.fetchOffset > 0 { sql += " OFFSET \(request.fetchOffset)" }
        }
        return (CompiledQuery(sql: sql, bindings: builder.bindings), codecs, ResultKeys(names))
    }

    /// The statement a request runs first, its bound values and SQLite's query plan for it.
    ///
    /// For example:
    ///
    /// ```swift
    /// print(try context.explain(request))
    /// // SELECT t0.Z_PK FROM ZWELL t0 ORDER BY t0.ZWELL_NAME, t0.Z_PK
    /// // plan: SCAN t0 USING INDEX ZWELL_ZWELL_NAME_INDEX
    /// ```
    public func explain(_ request: FetchRequest) throws(StoreError) -> FetchExplanation {
        try request.checkPaging()
        let request = request.fixingNow(Date())
        let entity = try store.entity(named: request.entityName)
        let query: CompiledQuery
        switch request.resultType {
        case .dictionary:
            query = try compileRows(request, entity: entity).0
        case .count where request.countsRows:
            let rows = try compileRows(request, entity: entity, counting: true).0
            query = CompiledQuery(sql: "SELECT count(*) FROM (\(rows.sql))", bindings: rows.bindings)
        case .count:
            try checkUniqueNames(request.propertiesToFetch, entity: entity)
            var unsorted = request
            unsorted.sortDescriptors = []
            query = try compile(unsorted, entity: entity, select: .count, paging: false)
        case .managedObjectID:
            query = try compile(request, entity: entity, select: .ids, paging: true)
        case .managedObject:
            query = try compile(request, entity: entity, select: request.fetchBatchSize > 0 || !request.includesPropertyValues ? .ids : .objects(rowPlan(for: entity)), paging: true)
        }
        var plan: [String] = []
        do {
            var depth: [Int64: Int] = [0: 0]
            for row in try store.connection.rows("EXPLAIN QUERY PLAN " + query.sql, query.bindings) {
                let id = row[0].int64 ?? 0, parent = row[1].int64 ?? 0
                let level = (depth[parent] ?? 0) + (parent == 0 ? 0 : 1)
                depth[id] = level
                plan.append(String(repeating: "  ", count: level) + (row[3].string ?? ""))
            }
        } catch { throw StoreError(error, storePath: store.path) }
        return FetchExplanation(sql: query.sql, bindings: query.bindings, plan: plan)
    }
}

extension ManagedObjectContext {
    /// Key paths as a request lists them: `[state, details.zip]`.
    static func list(_ keyPaths: [String]) -> String {
        "[" + keyPaths.joined(separator: ", ") + "]"
    }
}

extension AttributeType {
    /// Whether `sum` and `average` apply: integers, decimals and floating point (not Booleans).
    fileprivate var isAddable: Bool { isInteger || self == .decimal || self == .double || self == .float }
}

extension Column {
    /// What the column holds, for messages: "a String attribute", "a to-one relationship".
    fileprivate func kindDescription(of owner: Entity) -> String {
        if let attribute { return "a \(attribute.type.rawValue) attribute of \(owner.name)" }
        return "a to-one relationship of \(owner.name)"
    }
}

/// What a request runs: its first statement, the values bound to it and SQLite's plan.
public struct FetchExplanation: Sendable, CustomStringConvertible {
    /// The first statement's SQL, with numbered placeholders (`?1`, `?2`, …).
    public let sql: String
    /// The values bound to the statement: `bindings[n - 1]` goes to placeholder `?n`.
    public let bindings: [SQLValue]
    /// `EXPLAIN QUERY PLAN` lines, indented by depth.
    public let plan: [String]

    public var description: String {
        var text = "SQL: \(sql)"
        if !bindings.isEmpty { text += "\nbound: " + bindings.map(\.description).joined(separator: ", ") }
        return text + "\nplan:\n" + plan.map { "  " + $0 }.joined(separator: "\n")
    }
}
