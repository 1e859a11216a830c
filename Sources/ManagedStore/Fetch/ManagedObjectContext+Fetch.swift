import Foundation

/// Running fetch requests: SQL with bound values, then the context's unsaved changes on top.
extension ManagedObjectContext {
    /// Fetches the objects a request matches, sorted, with the context's unsaved changes taken in.
    ///
    /// With `fetchBatchSize` N > 0 the first statement selects only primary keys and the returned
    /// collection loads N rows at a time; see ``FetchedObjects``. A negative `fetchLimit`,
    /// `fetchOffset` or `fetchBatchSize` throws ``StoreError/invalidRequest(_:)``, and so does a request
    /// whose ``FetchRequest/resultType`` asks for something else than objects, naming the call that
    /// returns it (``fetchRows(_:)``, ``fetchObjectIDs(_:)``, ``count(for:)``).
    ///
    /// For example:
    ///
    /// ```swift
    /// var request = FetchRequest(entityName: "Task")
    /// request.predicate = try FetchPredicate(format: "task_description CONTAINS[cd] %@", "bank")
    /// let tasks = try context.fetch(request)
    /// ```
    public func fetch(_ request: FetchRequest) throws(StoreError) -> FetchedObjects {
        try request.checkPaging()
        let call: String? = switch request.resultType {
        case .managedObject: nil
        case .dictionary: "fetchRows(_:)"
        case .managedObjectID: "fetchObjectIDs(_:)"
        case .count: "count(for:)"
        }
        if let call {
            throw .invalidRequest("the request's resultType is .\(request.resultType.rawValue), but fetch(_:) returns managed objects: "
                + "run it with \(call), or set resultType to .managedObject")
        }
        let request = request.fixingNow(Date())
        let entity = try store.entity(named: request.entityName)
        let plan = rowPlan(for: entity)
        // Checked up front: a batched fetch prefetches as batches load, where errors cannot surface.
        try checkPrefetchKeyPaths(request.relationshipKeyPathsForPrefetching, from: entity)
        let pending = pendingChanges(of: entity, request)
        if request.fetchBatchSize > 0 {
            let ids = try matchingIDs(request, entity: entity, pending: pending)
            return FetchedObjects(storage: .batched(BatchLoader(
                context: self, plan: plan, ids: ids, batchSize: request.fetchBatchSize,
                prefetch: request.relationshipKeyPathsForPrefetching)))
        }
        var objects: [ManagedObject]
        if !request.includesPropertyValues {
            objects = try matchingIDs(request, entity: entity, pending: pending).map { object(with: $0) }
        } else {
            let query = try compile(request, entity: entity, select: .objects(plan), paging: pending == nil)
            objects = []
            let asFaults = request.returnsObjectsAsFaults
            try run(query) { statement in
                let object = materialize(statement, plan: plan)
                if asFaults && !object.hasChanges && object.committed != nil && object.toMany.isEmpty {
                    // Core Data's default: a fault whose snapshot is at hand; firing it costs no statement.
                    object.values = []
                    object.isFault = true
                }
                objects.append(object)
            }
            if let pending { objects = try merge(objects, pending, request) }
        }
        if !request.relationshipKeyPathsForPrefetching.isEmpty {
            try prefetch(request.relationshipKeyPathsForPrefetching, for: objects)
        }
        return FetchedObjects(storage: .array(objects))
    }

    /// Fetches the IDs of the objects a request matches, in order: one statement, nothing materialised.
    public func fetchObjectIDs(_ request: FetchRequest) throws(StoreError) -> [ObjectID] {
        try request.checkPaging()
        let request = request.fixingNow(Date())
        let entity = try store.entity(named: request.entityName)
        return try matchingIDs(request, entity: entity, pending: pendingChanges(of: entity, request))
    }

    /// Counts the objects a request matches, unsaved changes included; materialises nothing.
    ///
    /// A request that groups, filters groups or drops duplicate rows (``FetchRequest/propertiesToGroupBy``,
    /// ``FetchRequest/havingPredicate``, ``FetchRequest/returnsDistinctResults``, or aggregates in
    /// ``FetchRequest/propertiesToFetch``) counts the rows its dictionary fetch returns, from the
    /// store as ``fetchRows(_:)`` reads them: `SELECT count(*) FROM (<the grouped query>)`.
    ///
    /// For example:
    ///
    /// ```swift
    /// var request = FetchRequest(entityName: "FailedBankInfo")
    /// request.propertiesToFetch = [.key("state")]
    /// request.returnsDistinctResults = true
    /// let states = try context.count(for: request)   // distinct states, not banks
    /// ```
    public func count(for request: FetchRequest) throws(StoreError) -> Int {
        try request.checkPaging()
        let request = request.fixingNow(Date())
        let entity = try store.entity(named: request.entityName)
        if request.countsRows {
            let rows = try compileRows(request, entity: entity, counting: true).0
            let query = CompiledQuery(sql: "SELECT count(*) FROM (\(rows.sql))", bindings: rows.bindings)
            var total = 0
            try run(query) { total = Int($0.int64(at: 0)) }
            return page(total, request)
        }
        // The properties do not change a plain count, but a request that names two under one name is refused all the same.
        try checkUniqueNames(request.propertiesToFetch, entity: entity)
        if let pending = pendingChanges(of: entity, request) {
            return try matchingIDs(request, entity: entity, pending: pending).count
        }
        var unsorted = request
        unsorted.sortDescriptors = []
        let query = try compile(unsorted, entity: entity, select: .count, paging: false)
        var total = 0
        try run(query) { total = Int($0.int64(at: 0)) }
        return page(total, request)
    }

    /// A count of `total` matches after the request's offset and limit.
    private func page(_ total: Int, _ request: FetchRequest) -> Int {
        var total = total
        if request.fetchOffset > 0 { total = max(0, total - request.fetchOffset) }
        if request.fetchLimit > 0 { total = min(total, request.fetchLimit) }
        return total
    }

    /// The IDs a request matches, sorted; unsaved changes merged when `pending` says so.
    func matchingIDs(_ request: FetchRequest, entity: Entity, pending: PendingChanges?) throws(StoreError) -> [ObjectID] {
        guard pending == nil else { return try matchingEntries(request, entity: entity, pending: pending).map(\.id) }
        let query = try compile(request, entity: entity, select: .ids, paging: true)
        var ids: [ObjectID] = []
        let entityID = entity.id
        do {
            // A tight loop: this list can hold every row of the table.
            let statement = try store.connection.cachedStatement(query.sql)
            try statement.bind(query.bindings)
            while try statement.step() { ids.append(ObjectID(entityID: entityID, primaryKey: statement.int64(at: 0))) }
        } catch { throw StoreError(error, storePath: store.path) }
        return ids
    }

    /// The IDs a request matches with their sort-key values, sorted and paged; one statement, then
    /// the unsaved changes in `pending` applied in memory.
    func matchingEntries(_ request: FetchRequest, entity: Entity, pending: PendingChanges?) throws(StoreError) -> [(id: ObjectID, keys: [Value])] {
        let query = try compile(request, entity: entity, select: .idsAndSortKeys, paging: pending == nil)
        var entries: [(id: ObjectID, keys: [Value])] = []
        let codecs = query.sortCodecs
        try run(query) { statement in
            let id = ObjectID(entityID: entity.id, primaryKey: statement.int64(at: 0))
            entries.append((id, codecs.enumerated().map { $1.read(statement, Int32($0 + 1)) }))
        }
        guard let pending else { return entries }
        let changed = Set(pending.updated.map(\.objectID)).union(pending.deleted)
        entries.removeAll { changed.contains($0.id) }
        for object in pending.updated + pending.inserted where try matches(object, request.predicate) {
            entries.append((object.objectID, request.sortDescriptors.map { sortValue(of: object, $0) }))
        }
        entries.sort { a, b in precedes(a.keys, a.id, b.keys, b.id, request.sortDescriptors) }
        return page(entries, request)
    }

    /// Loads the rows of `ids` (one statement) and returns their objects in the same order.
    func loadBatch(_ ids: [ObjectID], plan: RowPlan) -> [ManagedObject] {
        var missing: [Int64] = []
        for id in ids where !id.isTemporary {
            if let object = registered(id), !object.isFault { continue }
            missing.append(id.primaryKey)
        }
        if !missing.isEmpty {
            let placeholders = Array(repeating: "?", count: missing.count).joined(separator: ", ")
            let sql = "SELECT \(plan.selectList) FROM \(plan.entity.tableName) t0 WHERE t0.Z_PK IN (\(placeholders))"
            if let statement = try? store.connection.cachedStatement(sql) {
                for (i, key) in missing.enumerated() { statement.bind(key, at: Int32(i + 1)) }
                while (try? statement.step()) == true { _ = materialize(statement, plan: plan) }
                statement.reset()
            }
        }
        return ids.map { object(with: $0) }
    }

    /// Turns unchanged objects back into faults, freeing their values; returns their IDs.
    func turnIntoFaults(_ objects: [ManagedObject]) -> [ObjectID] {
        var ids: [ObjectID] = []
        for object in objects where !object.hasChanges {
            object.values = []
            object.committed = nil
            object.toMany = []
            object.isFault = true
            ids.append(object.objectID)
        }
        return ids
    }

    /// Forgets the objects under `ids` that nothing outside the context refers to any more.
    func forgetUnshared(_ ids: [ObjectID]) {
        for id in ids { registry.removeIfUnshared(id) }
    }

    /// Runs `body` inside one read transaction, so a storm of faults or small fetches takes SQLite's
    /// lock once instead of once per statement.
    ///
    /// For example:
    ///
    /// ```swift
    /// try context.performRead { for id in ids { _ = context.object(with: id)["name"] } }
    /// ```
    public func performRead<T>(_ body: () throws -> T) throws -> T {
        try store.connection.readTransaction(body)
    }

    // MARK: Compiling

    enum Selection {
        case ids
        case idsAndSortKeys
        case objects(RowPlan)
        case count
    }

    struct CompiledQuery {
        let sql: String
        let bindings: [SQLValue]
        var sortCodecs: [ColumnCodec] = []
    }

    func compile(_ request: FetchRequest, entity: Entity, select: Selection, paging: Bool) throws(StoreError) -> CompiledQuery {
        store.prepareForQueries()
        var builder = SQLQueryBuilder(model: model, entity: entity)
        let condition = try request.predicate.map { p throws(StoreError) in try builder.condition(p) }
        var columns: String
        var sortCodecs: [ColumnCodec] = []
        var order = ""
        switch select {
        case .ids:
            columns = "t0.Z_PK"
        case .idsAndSortKeys:
            columns = "t0.Z_PK"
            for sort in request.sortDescriptors {
                let (sql, column, owner) = try builder.column(forKeyPath: sort.keyPath)
                columns += ", " + sql
                sortCodecs.append(ColumnCodec(column, entity: owner))
            }
        case .objects(let plan):
            columns = plan.selectList
        case .count:
            columns = "count(*)"
        }
        if case .count = select {} else {
            order = try builder.orderBy(request.sortDescriptors)
        }
        var sql = "SELECT \(columns) FROM \(builder.fromClause)"
        if let condition { sql += " WHERE \(condition)" }
        if !order.isEmpty { sql += " ORDER BY \(order)" }
        if paging && (request.fetchLimit > 0 || request.fetchOffset > 0) {
            // Integers from the request, not user text: safe to write into the SQL.
            sql += " LIMIT \(request.fetchLimit > 0 ? request.fetchLimit : -1)"
            if request.fetchOffset > 0 { sql += " OFFSET \(request.fetchOffset)" }
        }
        return CompiledQuery(sql: sql, bindings: builder.bindings, sortCodecs: sortCodecs)
    }

    /// Runs a compiled query, calling `row` for each row.
    func run(_ query: CompiledQuery, _ row: (Statement) throws(StoreError) -> Void) throws(StoreError) {
        do {
            let statement = try store.connection.cachedStatement(query.sql)
            try statement.bind(query.bindings)
            while try statement.step() { try row(statement) }
        } catch let error as SQLiteError {
            throw StoreError(error, storePath: store.path)
        } catch {
            throw error as! StoreError
        }
    }

    // MARK: Unsaved changes

    struct PendingChanges {
        var inserted: [ManagedObject] = []
        var updated: [ManagedObject] = []
        var deleted: Set<ObjectID> = []
    }

    /// The unsaved changes to `entity` a request must take in (a child's own and its parents'), or
    /// `nil` when there are none.
    func pendingChanges(of entity: Entity, _ request: FetchRequest) -> PendingChanges? {
        guard request.includesPendingChanges else { return nil }
        let inherited = parentPendingChanges(of: entity, request)
        guard hasChanges || inherited != nil else { return nil }
        var pending = inherited ?? PendingChanges()
        for object in insertedList where object.isInserted && object.entity === entity { pending.inserted.append(object) }
        for object in updatedList where object.isUpdated && !object.isDeleted && object.entity === entity { pending.updated.append(object) }
        for object in deletedList where object.entity === entity { pending.deleted.insert(object.objectID) }
        // Owners that lost a member to a delete are tested in memory, where their sets leave it out; SQL
        // would still count it (`employees.@count`, `ANY employees.name`).
        if request.predicate != nil { pending.updated += ownersOfDeletedMembers(of: entity) }
        // Each object once; what is deleted is neither inserted nor updated.
        var seen = Set<ObjectIdentifier>()
        pending.inserted = pending.inserted.filter { !pending.deleted.contains($0.objectID) && seen.insert(ObjectIdentifier($0)).inserted }
        pending.updated = pending.updated.filter { !pending.deleted.contains($0.objectID) && seen.insert(ObjectIdentifier($0)).inserted }
        return pending.inserted.isEmpty && pending.updated.isEmpty && pending.deleted.isEmpty ? nil : pending
    }

    /// The objects of `entity` a pending delete takes a member from, through a to-many relationship
    /// (the deleted object's to-one or many-to-many inverse); deleted ones left out.
    private func ownersOfDeletedMembers(of entity: Entity) -> [ManagedObject] {
        var owners: [ManagedObject] = []
        for deleted in deletedList {
            for relationship in deleted.entity.relationships where relationship.destination == entity.name {
                guard let (_, inverse) = self.inverse(of: relationship, from: deleted.entity), inverse.isToMany else { continue }
                let ids: [ObjectID]
                switch deleted.entity.slot(of: relationship.name) {
                case .column(let column)?:
                    // A deleted object keeps its values until the save, so its to-one still names the owner.
                    guard case .object(let id) = deleted.value(at: column) else { continue }
                    ids = [id]
                case .toMany(let index)?:
                    ids = (try? toManyIDs(of: deleted, index: index)) ?? []
                default:
                    continue
                }
                for id in ids {
                    let owner = object(with: id)
                    if !owner.isDeleted { owners.append(owner) }
                }
            }
        }
        return owners
    }

    /// Takes unsaved changes into a fetched list: deleted objects out, changed and inserted ones
    /// in or out by the predicate, then sorted and paged in memory.
    func merge(_ fetched: [ManagedObject], _ pending: PendingChanges, _ request: FetchRequest) throws(StoreError) -> [ManagedObject] {
        let changed = Set(pending.updated.map(\.objectID)).union(pending.deleted)
        var objects = fetched.filter { !changed.contains($0.objectID) }
        for object in pending.updated + pending.inserted where try matches(object, request.predicate) {
            objects.append(object)
        }
        let keyed: [(object: ManagedObject, keys: [Value])] = objects.map { object in
            (object, request.sortDescriptors.map { sort in sortValue(of: object, sort) })
        }
        let sorted = keyed.sorted { a, b in precedes(a.keys, a.object.objectID, b.keys, b.object.objectID, request.sortDescriptors) }
        return page(sorted.map { $0.object }, request)
    }

    func page<T>(_ items: [T], _ request: FetchRequest) -> [T] {
        let start = min(items.count, request.fetchOffset)
        let end = request.fetchLimit > 0 ? min(items.count, start + request.fetchLimit) : items.count
        return Array(items[start..<end])
    }

    /// Whether `object` matches `predicate`, evaluated in memory over its current values.
    func matches(_ object: ManagedObject, _ predicate: FetchPredicate?) throws(StoreError) -> Bool {
        guard let predicate else { return true }
        do {
            let graph = PredicateObjectGraph(
                objects: { from, keyPath in self.objects(reachedFrom: (from as? ManagedObject) ?? object, along: keyPath) },
                value: { element, keyPath in self.predicateValue(of: element as! ManagedObject, keyPath) })
            return try predicate.evaluate({ keyPath in self.predicateValue(of: object, keyPath) }, graph: graph)
        } catch {
            throw .invalidRequest("the predicate \(predicate) cannot be evaluated on unsaved \(object.entity.name) objects: \(error)")
        }
    }

    /// The value of a key path on an object, for in-memory predicate evaluation: a collection once a
    /// to-many relationship is crossed.
    func predicateValue(of object: ManagedObject, _ keyPath: [String]) -> PredicateValue {
        if keyPath.isEmpty { return .scalar(.int(object.objectID.primaryKey)) }
        var current: [ManagedObject] = [object]
        var isCollection = false
        for (depth, key) in keyPath.enumerated() {
            let last = depth == keyPath.count - 1
            var next: [ManagedObject] = []
            var leaves: [PredicateConstant] = []
            for item in current {
                switch item.entity.slot(of: key) {
                case .column(let index)?:
                    let value = item.value(at: index)
                    if last {
                        leaves.append(value.predicateConstant)
                    } else if case .object(let id) = value {
                        next.append(self.object(with: id))
                    } else if !isCollection {
                        return .scalar(.null)
                    }
                case .toMany(let index)?:
                    isCollection = true
                    let ids = (try? toManyIDs(of: item, index: index)) ?? []
                    if last { leaves += ids.map { .int($0.primaryKey) } } else { next += ids.map { self.object(with: $0) } }
                default:
                    return .scalar(.null)
                }
            }
            if last { return isCollection ? .collection(leaves) : .scalar(leaves.first ?? .null) }
            current = next
        }
        return .scalar(.null)
    }

    /// The objects `keyPath` reaches from `object` through to-one and to-many relationships, in
    /// order (a SUBQUERY's elements); an attribute or a nil to-one on the way reaches none.
    func objects(reachedFrom object: ManagedObject, along keyPath: [String]) -> [ManagedObject] {
        var current = [object]
        for key in keyPath {
            var next: [ManagedObject] = []
            for item in current {
                switch item.entity.slot(of: key) {
                case .column(let index)?:
                    if case .object(let id) = item.value(at: index) { next.append(self.object(with: id)) }
                case .toMany(let index)?:
                    next += ((try? toManyIDs(of: item, index: index)) ?? []).map { self.object(with: $0) }
                default:
                    break
                }
            }
            current = next
        }
        return current
    }

    /// The value of a sort key on an object (through to-one relationships).
    func sortValue(of object: ManagedObject, _ sort: FetchSort) -> Value {
        var current = object
        let components = sort.components
        for (depth, key) in components.enumerated() {
            guard let index = current.entity.columnIndex(of: key) else { return .null }
            let value = current.value(at: index)
            if depth == components.count - 1 { return value }
            guard case .object(let id) = value else { return .null }
            current = self.object(with: id)
        }
        return .null
    }

    /// Whether a row with sort values `a` (and ID) comes before one with `b`, as SQL would order them.
    func precedes(_ a: [Value], _ aID: ObjectID, _ b: [Value], _ bID: ObjectID, _ sorts: [FetchSort]) -> Bool {
        for (i, sort) in sorts.enumerated() {
            let order = ValueOrdering.compare(a[i], b[i], sort.comparison)
            if order != 0 { return sort.ascending ? order < 0 : order > 0 }
        }
        // Ties: saved rows by primary key, then unsaved ones in insertion order.
        if aID.isTemporary != bID.isTemporary { return !aID.isTemporary }
        return aID.isTemporary ? aID.primaryKey > bID.primaryKey : aID.primaryKey < bID.primaryKey
    }
}

/// Orders values as SQLite does for the store's columns and SeedStore's collations.
enum ValueOrdering {
    /// -1, 0 or 1; nulls first, numbers numerically, strings by the given comparison.
    static func compare(_ a: Value, _ b: Value, _ comparison: FetchSort.Comparison) -> Int {
        switch (a, b) {
        case (.null, .null): return 0
        case (.null, _): return -1
        case (_, .null): return 1
        case (.string(let x), .string(let y)):
            // The very order SQLite's collations use, so in-memory merges sort as SQL does.
            return SeedStoreCollation.order(x, y, comparison)
        default:
            if let x = number(a), let y = number(b) { return x < y ? -1 : (x > y ? 1 : 0) }
            // Mixed kinds: SQLite orders numbers before text before blobs.
            return rank(a) < rank(b) ? -1 : (rank(a) > rank(b) ? 1 : 0)
        }
    }

    static func number(_ value: Value) -> Double? {
        switch value {
        case .integer(let v): Double(v)
        case .double(let v): v
        case .bool(let v): v ? 1 : 0
        case .date(let v): v.timeIntervalSinceReferenceDate
        case .decimal(let v): NSDecimalNumber(decimal: v).doubleValue
        case .object(let id): Double(id.primaryKey)
        default: nil
        }
    }

    static func rank(_ value: Value) -> Int {
        switch value {
        case .null: 0
        case .string, .uri: 2
        case .data, .uuid: 3
        default: 1
        }
    }
}

extension FetchRequest {
    /// The request with `now()` in its predicates fixed to `date`: a fetch takes the time once, so
    /// its SQL and its in-memory test of unsaved objects see the same instant.
    func fixingNow(_ date: Date) -> FetchRequest {
        var request = self
        request.predicate = predicate?.substitutingNow(date)
        request.havingPredicate = havingPredicate?.substitutingNow(date)
        return request
    }
}
