/// Prefetching: the destinations of a key path load for many objects in one statement.
extension ManagedObjectContext {
    /// Loads the destinations of each key path (`operator`, `details.tags`) for `objects`, one
    /// statement per relationship step, and records to-many sets as loaded.
    ///
    /// For example:
    ///
    /// ```swift
    /// try context.prefetch(["operator"], for: Array(wells))
    /// ```
    ///
    /// - Throws: ``StoreError/unknownKey(entity:key:suggestions:)`` for a key the entity lacks,
    ///   ``StoreError/invalidProperty(entity:property:reason:)`` for an attribute on the way.
    public func prefetch(_ keyPaths: [String], for objects: [ManagedObject]) throws(StoreError) {
        if let entity = objects.first?.entity { try checkPrefetchKeyPaths(keyPaths, from: entity) }
        for keyPath in keyPaths {
            var level = objects
            for key in keyPath.split(separator: ".").map(String.init) {
                guard let first = level.first else { break }
                level = try prefetchStep(key, of: first.entity, for: level)
            }
        }
    }

    /// Checks that every step of each key path is a relationship, before any statement runs and
    /// whether or not anything matches: an unknown key gets the suggestions a predicate's gets, an
    /// attribute is named as one, with the relationships that could be meant.
    package func checkPrefetchKeyPaths(_ keyPaths: [String], from root: Entity) throws(StoreError) {
        for keyPath in keyPaths {
            var entity = root
            for key in keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init) {
                guard !key.isEmpty else {
                    throw .invalidRequest("'\(keyPath)' is not a key path to prefetch: write relationship names separated by dots, such as details.tags")
                }
                // Only relationships can be prefetched, so only their names are suggested.
                guard entity.slot(of: key) != nil else { throw entity.unknownKey(key, among: entity.relationships.map(\.name)) }
                guard entity.relationship(named: key) != nil, let destinationID = entity.destinationID(of: key),
                      let destination = model.entity(id: destinationID) else {
                    let relationships = entity.relationships.map(\.name)
                    throw .invalidProperty(entity: root.name, property: keyPath, reason: """
                        '\(key)' is an attribute of \(entity.name), not a relationship: prefetching loads related objects \
                        (attributes come with the objects themselves); \
                        \(relationships.isEmpty ? "\(entity.name) has no relationships" : "relationships of \(entity.name): " + relationships.joined(separator: ", "))
                        """)
                }
                entity = destination
            }
        }
    }

    /// Prefetches one relationship of `entity` for `owners`; returns the destinations.
    private func prefetchStep(_ key: String, of entity: Entity, for owners: [ManagedObject]) throws(StoreError) -> [ManagedObject] {
        guard let relationship = entity.relationship(named: key),
              let destinationID = entity.destinationID(of: key), let destination = model.entity(id: destinationID) else {
            // checkPrefetchKeyPaths(_:from:) has refused it already.
            throw entity.unknownKey(key)
        }
        let plan = rowPlan(for: destination)
        switch (entity.slot(of: key), entity.storage(of: key)) {
        case (.column(let column)?, _):
            // To-one: every destination not yet in memory, by primary key.
            var seen = Set<ObjectID>()
            var missing: [Int64] = []
            var destinations: [ManagedObject] = []
            for owner in owners {
                guard case .object(let id) = owner.value(at: column), seen.insert(id).inserted else { continue }
                if let object = registered(id), !object.isFault || object.committed != nil {
                    destinations.append(object)
                } else if !id.isTemporary {
                    missing.append(id.primaryKey)
                }
            }
            if !missing.isEmpty {
                try runKeyList("SELECT \(plan.selectList) FROM \(destination.tableName) t0 WHERE t0.Z_PK IN (SELECT value FROM json_each(?))", missing) { statement in
                    destinations.append(materialize(statement, plan: plan))
                }
            }
            return destinations
        case (.toMany(let index)?, .inverseForeignKey(let column)?):
            let owned = owners.filter { !$0.objectID.isTemporary }
            var members: [Int64: [ObjectID]] = [:]
            var destinations: [ManagedObject] = []
            let foreignKey = destination.columns[column].columnName
            let order = store.positionOrdering(of: relationship, in: entity, alias: "t0")
            try runKeyList("SELECT \(plan.selectList), t0.\(foreignKey) FROM \(destination.tableName) t0 WHERE t0.\(foreignKey) IN (SELECT value FROM json_each(?)) ORDER BY \(order)t0.Z_PK", owned.map(\.objectID.primaryKey)) { statement in
                let object = materialize(statement, plan: plan)
                members[statement.int64(at: Int32(plan.codecs.count + 2)), default: []].append(object.objectID)
                destinations.append(object)
            }
            for owner in owners where !(owner.toMany.indices.contains(index) && owner.toMany[index] != nil) {
                setToMany(of: owner, index: index, storedIDs: members[owner.objectID.primaryKey] ?? [])
            }
            return destinations
        case (.toMany(let index)?, .joinTable(let table)?):
            let owned = owners.filter { !$0.objectID.isTemporary }
            let order = store.positionOrdering(of: relationship, in: entity, alias: "j")
            var members: [Int64: [ObjectID]] = [:]
            var destinations: [ObjectID: ManagedObject] = [:]
            let pairs = table.pairsSQL(orderColumn: store.orderColumn(of: relationship, in: entity))
            try runKeyList("SELECT \(plan.selectList), j.\(table.sourceColumn) FROM \(destination.tableName) t0 JOIN \(pairs) j ON j.\(table.destinationColumn) = t0.Z_PK WHERE j.\(table.sourceColumn) IN (SELECT value FROM json_each(?)) ORDER BY \(order)t0.Z_PK", owned.map(\.objectID.primaryKey)) { statement in
                let object = materialize(statement, plan: plan)
                members[statement.int64(at: Int32(plan.codecs.count + 2)), default: []].append(object.objectID)
                destinations[object.objectID] = object
            }
            for owner in owners where !(owner.toMany.indices.contains(index) && owner.toMany[index] != nil) {
                setToMany(of: owner, index: index, storedIDs: members[owner.objectID.primaryKey] ?? [])
            }
            return Array(destinations.values)
        default:
            return []
        }
    }

    /// Runs `sql`, whose one parameter is a JSON array of keys, calling `row` per row.
    private func runKeyList(_ sql: String, _ keys: [Int64], _ row: (Statement) -> Void) throws(StoreError) {
        guard !keys.isEmpty else { return }
        let json = "[" + keys.map(String.init).joined(separator: ",") + "]"
        do {
            let statement = try store.connection.cachedStatement(sql)
            statement.bind(json, at: 1)
            while try statement.step() { row(statement) }
        } catch { throw StoreError(error, storePath: store.path) }
    }
}
