/// Saving: delete rules, validation, then one SQLite transaction.
extension ManagedObjectContext {
    /// Writes every pending change to the store in one transaction.
    ///
    /// Delete rules run first (deny refuses, cascade deletes, nullify clears inverses), then every
    /// inserted and updated object is validated; all problems are reported together (Core Data's 1560).
    /// A failed save writes nothing and keeps the pending changes so the caller can fix and retry.
    ///
    /// While another connection or process holds the store's write lock, the save waits for it up to
    /// 5 s (SQLite's busy timeout), then throws ``StoreError/inUse(path:)``: nothing was written, and
    /// the same save can be tried again.
    ///
    /// For example:
    ///
    /// ```swift
    /// do { try context.save() } catch {
    ///     switch error {
    ///     case .validation(let failures): failures.forEach { print($0) }
    ///     case .inUse: break   // another writer: retry later
    ///     default: throw error
    ///     }
    /// }
    /// ```
    public func save() throws(StoreError) {
        guard hasChanges else { return }
        guard parent != nil || !store.isReadOnly else { throw .readOnly(path: store.path) }

        // 1. The deletion closure (cascade) and deny checks, without changing anything yet.
        let (deleting, cascaded, refusals) = try deletionClosure()
        guard refusals.isEmpty else { throw .validation(refusals) }

        // 2. Apply cascades and nullify inverses of what goes.
        for object in cascaded where !object.isDeleted {
            if object.isInserted { detachInserted(object) } else { delete(object) }
        }
        for object in deletedList {
            for relationship in object.entity.relationships where relationship.deleteRule == .nullify {
                nullifyInverses(of: object, relationship, sparing: deleting)
            }
        }

        // 3. Validate what stays.
        var failures: [ValidationFailure] = []
        for object in insertedList where object.isInserted { failures += try validate(object) }
        for object in updatedList where object.isUpdated && !object.isDeleted {
            // A fault changed only in its to-many relationships (members added from the other side, or
            // by a join): its values are the saved ones, but its counts still have to hold.
            failures += try object.isFault ? validateToManyCounts(object) : validate(object)
        }
        guard failures.isEmpty else { throw .validation(failures) }
        try writeSavedChanges()
    }

    /// The objects the pending deletions would take with them through Cascade rules, as the next save
    /// computes them (deleted objects themselves not included); nothing changes.
    ///
    /// For example:
    ///
    /// ```swift
    /// context.delete(manager)
    /// for report in try context.objectsCascadedByPendingDeletes() { print(report.objectID) }
    /// ```
    ///
    /// - Throws: ``StoreError`` when a relationship cannot be read, or `.validation` when a Deny rule
    ///   refuses a deletion.
    public func objectsCascadedByPendingDeletes() throws(StoreError) -> [ManagedObject] {
        let (_, cascaded, failures) = try deletionClosure()
        guard failures.isEmpty else { throw .validation(failures) }
        return cascaded
    }

    /// Step 1 of a save: every object the pending deletions reach through Cascade rules, and the Deny rules
    /// they break.
    private func deletionClosure() throws(StoreError) -> (deleting: Set<ObjectID>, cascaded: [ManagedObject], failures: [ValidationFailure]) {
        var deleting = Set(deletedList.map(\.objectID))
        var cascaded: [ManagedObject] = []
        var failures: [ValidationFailure] = []
        var worklist = deletedList
        while let object = worklist.popLast() {
            for relationship in object.entity.relationships {
                let targets = try destinations(of: object, relationship)
                switch relationship.deleteRule {
                case .deny:
                    let remaining = targets.filter { !deleting.contains($0) }
                    if !remaining.isEmpty {
                        failures.append(ValidationFailure(
                            code: .deleteDenied, entity: object.entity.name, objectID: object.objectID, key: relationship.name,
                            message: "denies deletion while it has \(remaining.count) \(relationship.destination) destination(s); delete or unlink them first"))
                    }
                case .cascade:
                    for id in targets where deleting.insert(id).inserted {
                        let target = self.object(with: id)
                        cascaded.append(target)
                        worklist.append(target)
                    }
                case .nullify, .noAction:
                    break
                }
            }
        }
        return (deleting, cascaded, failures)
    }

    /// Steps 4 and on of a save: write the validated changes.
    private func writeSavedChanges() throws(StoreError) {
        // 4. Write: into the parent for a child context, else into the store.
        if let parent {
            try saveIntoParent(parent)
            return
        }
        // A rolled-back save wrote no join rows.
        let joinRowsBefore = joinRowsInserted
        do { try inWriteTransaction { try writeChanges() } } catch {
            joinRowsInserted = joinRowsBefore
            throw error
        }

        // 5. The store has it: make IDs permanent and snapshots current.
        didSave()
    }

    /// Runs `body` in one immediate transaction (rolled back if it throws), as a save's typed error.
    func inWriteTransaction(_ body: () throws -> Void) throws(StoreError) {
        do {
            try store.connection.transaction(.immediate, body)
        } catch let error as StoreError {
            throw error
        } catch let error as SQLiteError {
            throw StoreError(error, storePath: store.path)
        } catch {
            throw .invalidRequest("save failed: \(error)")
        }
    }

    /// The destination IDs of `relationship` on `object`, with unsaved changes.
    private func destinations(of object: ManagedObject, _ relationship: Relationship) throws(StoreError) -> [ObjectID] {
        switch object.entity.slot(of: relationship.name) {
        case .column(let column)?:
            if case .object(let id) = object.value(at: column) { return [id] }
            return []
        case .toMany(let index)?:
            return try toManyIDs(of: object, index: index)
        default:
            return []
        }
    }

    /// Clears the inverse of `relationship` on each destination of a deleted `object`.
    private func nullifyInverses(of object: ManagedObject, _ relationship: Relationship, sparing deleting: Set<ObjectID>) {
        guard let (destination, inverse) = self.inverse(of: relationship, from: object.entity),
              let targets = try? destinations(of: object, relationship) else { return }
        for id in targets where !deleting.contains(id) {
            let target = self.object(with: id)
            switch destination.slot(of: inverse.name) {
            case .column(let column)?:
                if case .object(let current) = target.value(at: column), current == object.objectID {
                    target.setValue(.null, at: column)
                }
            case .toMany(let index)?:
                // An owner whose set has count rules loses the member for real and is checked with the
                // rest (Core Data refuses a delete that leaves too few with 1580); others change only
                // if their set is loaded.
                let counted = inverse.minCount > 0 || inverse.maxCount > 0 || !inverse.isOptional
                if counted { _ = try? toManyIDs(of: target, index: index) }
                if target.toMany.indices.contains(index), target.toMany[index] != nil {
                    target.toMany[index]!.remove(object.objectID)
                }
                if counted && !target.isDeleted { noteChanged(target) }
            default:
                break
            }
        }
    }

    /// Every validation problem of one object.
    func validate(_ object: ManagedObject) throws(StoreError) -> [ValidationFailure] {
        var failures: [ValidationFailure] = []
        let entity = object.entity
        func fail(_ code: ValidationFailure.Code, _ key: String, _ message: String) {
            failures.append(ValidationFailure(code: code, entity: entity.name, objectID: object.objectID, key: key, message: message))
        }
        let values = object.values
        for (i, rule) in entity.columnRules.enumerated() {
            let value = values[i]
            switch rule {
            case .attribute(let type, let optional):
                if value.isNull {
                    if !optional { fail(.missingMandatoryProperty, entity.columns[i].name, "is a required value (\(type.rawValue)) and is nil") }
                } else if entity.columns[i].attribute?.allowsExternalBinaryDataStorage == true {
                    fail(.invalidValue, entity.columns[i].name, "allows external storage and must stay nil: \(Attribute.externalStorageReason); leave it nil and let the app set it")
                } else if !value.fits(type) {
                    let name = entity.columns[i].name
                    if case .double(let v) = value, v.isNaN {
                        fail(.invalidValue, name, "is NaN, which SQLite cannot store (it stores NaN as NULL, so the value would read back nil); set nil or a number")
                    } else if case .integer(let v) = value, type == .boolean {
                        fail(.invalidValue, name, "holds the integer \(v) where Boolean is expected: SQLite would keep \(v), which reads as YES but no '\(name) == YES' matches; set .bool(\(v != 0)) (or 0 or 1)")
                    } else if case .integer(let v) = value, let range = type.integerRange {
                        fail(v > range.upperBound ? .numberTooLarge : .numberTooSmall, name,
                             "is \(v), outside \(type.rawValue)'s range \(range.lowerBound)...\(range.upperBound)")
                    } else if case .double(let v) = value, type == .float {
                        let largest = Float.greatestFiniteMagnitude
                        fail(v > 0 ? .numberTooLarge : .numberTooSmall, name,
                             "is \(v), outside \(type.rawValue)'s range \(-largest)...\(largest)")
                    } else {
                        fail(.invalidValue, name, "holds \(value.kindNameWithArticle) (\(value)) where \(type.rawValue) is expected")
                    }
                }
            case .toOne(let destination, let optional):
                switch value {
                case .null:
                    if !optional { fail(.missingMandatoryProperty, entity.columns[i].name, "is a required relationship to \(entity.columns[i].relationship!.destination) and is nil") }
                case .object(let id):
                    if id.entityID != destination {
                        fail(.invalidValue, entity.columns[i].name, "points at a \(model.entity(id: id.entityID)?.name ?? "?") object where \(entity.columns[i].relationship!.destination) is expected")
                    } else if id.isTemporary && !holdsInserted(id) {
                        // Set by ordinal or at insert: the temporary key of another context's object would be written as a dangling key.
                        fail(.invalidValue, entity.columns[i].name, "points at \(id), an unsaved object this context does not hold (inserted in another context, "
                             + "rolled back or deleted); set it to an object of this context: fetch it here, or save its context and use existingObject(with:)")
                    }
                default:
                    fail(.invalidValue, entity.columns[i].name, "holds \(value.kindNameWithArticle) where a \(entity.columns[i].relationship!.destination) object is expected")
                }
            }
        }
        return failures + (try validateToManyCounts(object))
    }

    /// The count rules of an object's to-many relationships (optional or not, minimum, maximum): loads
    /// only the sets that have such rules.
    func validateToManyCounts(_ object: ManagedObject) throws(StoreError) -> [ValidationFailure] {
        var failures: [ValidationFailure] = []
        for (index, relationship) in object.entity.toManyRelationships.enumerated()
        where relationship.minCount > 0 || relationship.maxCount > 0 || !relationship.isOptional {
            func fail(_ code: ValidationFailure.Code, _ message: String) {
                failures.append(ValidationFailure(code: code, entity: object.entity.name, objectID: object.objectID, key: relationship.name, message: message))
            }
            let count = try toManyIDs(of: object, index: index).count
            if count == 0 && !relationship.isOptional {
                fail(.missingMandatoryProperty, "is a required relationship and is empty")
            } else if count > 0 && relationship.minCount > 0 && count < relationship.minCount {
                fail(.tooFewDestinations, "has \(count) destination(s); at least \(relationship.minCount) are required")
            } else if relationship.maxCount > 0 && count > relationship.maxCount {
                fail(.tooManyDestinations, "has \(count) destination(s); at most \(relationship.maxCount) are allowed")
            }
        }
        return failures
    }

    /// The saved form of an ID: an inserted object's temporary ID becomes the key the save gives it.
    @inline(__always)
    func permanent(_ id: ObjectID) -> ObjectID {
        guard id.isTemporary, let object = registered(id), object.savedKey > 0 else { return id }
        return ObjectID(entityID: id.entityID, primaryKey: object.savedKey)
    }

    /// Writes inserts, updates, deletes and join-table changes. Inserted objects get their keys in
    /// `savedKey`; nothing else in the context changes, so a failure leaves it as it was.
    private func writeChanges() throws {
        let connection = store.connection

        let byEntity = insertedByEntity()
        try assignPrimaryKeys(byEntity)
        try writeInserts(byEntity)

        // Updates: only the columns that changed, with an optimistic-locking check on Z_OPT.
        for object in updatedList where object.isUpdated && !object.isDeleted && !object.isFault {
            guard let committed = object.committed else { continue }
            let changed = object.values.indices.filter { object.values[$0] != committed[$0] }
            if changed.isEmpty { continue }
            let entity = object.entity
            let sets = changed.map { entity.columns[$0].columnName + " = ?" }.joined(separator: ", ")
            let version = countsVersions ? "Z_OPT = Z_OPT + 1, " : ""
            let statement = try connection.cachedStatement("UPDATE \(entity.tableName) SET \(version)\(sets) WHERE Z_PK = ? AND Z_OPT = ?")
            for (n, i) in changed.enumerated() {
                if case .object(let id) = object.values[i] {
                    statement.bind(permanent(id).primaryKey, at: Int32(n + 1))
                } else {
                    statement.bind(value: object.values[i], at: Int32(n + 1))
                }
            }
            statement.bind(object.objectID.primaryKey, at: Int32(changed.count + 1))
            statement.bind(object.version, at: Int32(changed.count + 2))
            try statement.run()
            if connection.changes == 0 { throw StoreError.conflict(entity: entity.name, primaryKey: object.objectID.primaryKey) }
        }

        // Deletes, with their join-table rows. A row whose values were read is checked as an update is:
        // deleting what another writer changed since would destroy its change (Core Data's 133020). A row
        // gone already loses nothing.
        for object in deletedList {
            let entity = object.entity
            let key = SQLValue.integer(object.objectID.primaryKey)
            if object.committed != nil {
                try connection.execute("DELETE FROM \(entity.tableName) WHERE Z_PK = ? AND Z_OPT = ?", [key, .integer(object.version)])
                if connection.changes == 0, try connection.scalar("SELECT 1 FROM \(entity.tableName) WHERE Z_PK = ?", [key]) != nil {
                    throw StoreError.conflict(entity: entity.name, primaryKey: object.objectID.primaryKey)
                }
            } else {
                try connection.execute("DELETE FROM \(entity.tableName) WHERE Z_PK = ?", [key])
            }
            for relationship in entity.toManyRelationships {
                if case .joinTable(let table)? = entity.storage(of: relationship.name) {
                    // A symmetric table holds the object in either column.
                    let also = table.isSymmetric ? " OR \(table.destinationColumn) = ?1" : ""
                    try connection.execute("DELETE FROM \(table.name) WHERE \(table.sourceColumn) = ?1\(also)", [.integer(object.objectID.primaryKey)])
                }
            }
        }

        try writeJoins()
        try writePositions()
    }

    /// Join-table changes (``writeJoinRows(_:)``).
    private func writeJoins() throws {
        guard !pendingJoins.isEmpty else { return }
        let deletedIDs = Set(deletedList.map(\.objectID))
        let joinTables = model.joinTables
        var tables: [String: Int] = [:]
        for (n, table) in joinTables.enumerated() { tables[table.name] = n }
        var rows: [JoinRow] = []
        rows.reserveCapacity(pendingJoins.count)
        for (pair, added) in pendingJoins where !deletedIDs.contains(pair.first) && !deletedIDs.contains(pair.second) {
            guard let n = tables[pair.table] else { continue }
            // `joinPair` put the pair's objects in column-name order.
            let first = permanent(pair.first).primaryKey, second = permanent(pair.second).primaryKey
            let table = joinTables[n]
            rows.append(table.sourceColumn < table.destinationColumn
                        ? JoinRow(table: n, source: first, destination: second, added: added)
                        : JoinRow(table: n, source: second, destination: first, added: added))
        }
        joinRowsInserted += try writeJoinRows(&rows)
    }

    /// Writes join-table rows in the order of each table's key, and returns how many were inserted (a
    /// pair the table holds already is not): a batch of pairs then reaches each page of the primary-key
    /// index once, in order, rather than at random places of a B-tree that outgrows SQLite's page cache,
    /// and the rows land in the same order whatever order the pairs came in. Each table's statements are
    /// looked up once. Runs inside the caller's transaction.
    ///
    /// A symmetric table's pair (``JoinTable/isSymmetric``) is written or removed both ways round and
    /// counts once, whichever way round it came: (a, b) and (b, a) are one pair.
    func writeJoinRows(_ rows: inout [JoinRow]) throws(SQLiteError) -> Int {
        let connection = store.connection
        let joinTables = model.joinTables
        if joinTables.contains(where: \.isSymmetric) {
            for n in rows.indices where joinTables[rows[n].table].isSymmetric {
                let row = rows[n]
                rows[n] = JoinRow(table: row.table, source: min(row.source, row.destination),
                                  destination: max(row.source, row.destination), added: row.added)
                if row.source != row.destination {
                    rows.append(JoinRow(table: row.table, source: rows[n].destination, destination: rows[n].source,
                                        added: row.added, isMirror: true))
                }
            }
        }
        // A pair's own row before a mirror of the same key, so the count is the same whatever the order.
        rows.sort { ($0.table, $0.source, $0.destination, $0.isMirror ? 1 : 0) < ($1.table, $1.source, $1.destination, $1.isMirror ? 1 : 0) }
        var inserted = 0
        var current = -1
        var inserting: Statement?
        var deleting: Statement?
        for row in rows {
            if row.table != current {
                current = row.table
                let table = joinTables[row.table]
                let columns = (table.sourceColumn, table.destinationColumn)
                inserting = try connection.cachedStatement("INSERT OR IGNORE INTO \(table.name) (\(columns.0), \(columns.1)) VALUES (?, ?)")
                deleting = try connection.cachedStatement("DELETE FROM \(table.name) WHERE \(columns.0) = ? AND \(columns.1) = ?")
            }
            guard let statement = row.added ? inserting : deleting else { continue }
            statement.reset()
            statement.bind(row.source, at: 1)
            statement.bind(row.destination, at: 2)
            try statement.run()
            if row.added && !row.isMirror { inserted += connection.changes }
        }
        return inserted
    }

    /// Positions of ordered to-many relationships (``PersistentStore/orderColumn(of:in:)``): every
    /// changed owner whose set is loaded numbers all its members; a member linked to an owner whose set
    /// is not loaded loses its old position, so it follows the positioned members (a new join row has
    /// none to lose).
    private func writePositions() throws {
        guard !store.orderColumnNames.isEmpty else { return }
        let connection = store.connection
        for owner in model.entities {
            for (index, relationship) in owner.toManyRelationships.enumerated() {
                guard let column = store.orderColumn(of: relationship, in: owner),
                      let destination = model.entity(id: owner.destinationID(of: relationship.name)!) else { continue }
                var positioned = Set<ObjectID>()
                let storage = owner.storage(of: relationship.name)
                // A member of a one-to-many has one owner; of a many-to-many, a position per owner.
                let isJoin = if case .joinTable? = storage { true } else { false }
                let numberingSQL = if case .joinTable(let table)? = storage {
                    "UPDATE \(table.name) SET \(column) = ? WHERE \(table.destinationColumn) = ? AND \(table.sourceColumn) = ?"
                } else {
                    "UPDATE \(destination.tableName) SET \(column) = ? WHERE Z_PK = ?"
                }
                for list in [insertedList, updatedList] {
                    for object in list where object.entity === owner && !object.isDeleted && (object.isInserted || object.isUpdated) {
                        guard object.toMany.indices.contains(index), let members = object.toMany[index] else { continue }
                        for (n, id) in members.ids.enumerated() where isJoin || positioned.insert(id).inserted {
                            let numbering = try connection.cachedStatement(numberingSQL)
                            numbering.bind(Int64(n + 1) * 1024, at: 1)
                            numbering.bind(permanent(id).primaryKey, at: 2)
                            if isJoin { numbering.bind(permanent(object.objectID).primaryKey, at: 3) }
                            try numbering.run()
                        }
                    }
                }
                guard case .inverseForeignKey(let foreignKey)? = storage else { continue }
                for member in updatedList where member.entity === destination && member.isUpdated && !member.isDeleted && !member.isFault {
                    guard let committed = member.committed, committed[foreignKey] != member.values[foreignKey],
                          !positioned.contains(member.objectID) else { continue }
                    let clearing = try connection.cachedStatement("UPDATE \(destination.tableName) SET \(column) = NULL WHERE Z_PK = ?")
                    clearing.bind(member.objectID.primaryKey, at: 1)
                    try clearing.run()
                }
            }
        }
    }

    /// After a commit: permanent IDs, current snapshots, empty change lists.
    private func didSave() {
        var change = observers.isEmpty ? nil : ContextChange(
            inserted: insertedList.filter(\.isInserted), updated: updatedList.filter { $0.isUpdated && !$0.isDeleted },
            deleted: deletedList, isSave: true)
        if change != nil {
            for object in insertedList where object.isInserted {
                change!.savedIDs[object.objectID] = ObjectID(entityID: object.entity.id, primaryKey: object.savedKey)
            }
        }
        // References to inserted objects first, while their temporary IDs still resolve: the changed
        // objects' values and sets, then the sets of every other object (an owner that took a member from
        // its to-one side is not changed itself).
        for list in [insertedList, updatedList] {
            for object in list where object.isInserted || object.isUpdated {
                object.remapTemporaryIDs(permanent)
            }
        }
        if liveInserted > 0 {
            for object in registry.values where !object.toMany.isEmpty && !object.isUpdated { object.remapLoadedSets(permanent) }
        }
        registry.reserveCapacity(registry.count + liveInserted)
        for object in insertedList where object.isInserted {
            object.objectID = ObjectID(entityID: object.entity.id, primaryKey: object.savedKey)
            object.version = 1
            object.committed = object.values
            object.isInserted = false
            registry[object.objectID] = object
        }
        for object in updatedList where object.isUpdated && !object.isDeleted {
            object.isUpdated = false
            // A fault changed only on its to-many side wrote no row: it keeps its snapshot, if any.
            guard !object.isFault else { continue }
            if countsVersions && object.committed != object.values { object.version += 1 }
            object.committed = object.values
        }
        for object in deletedList {
            registry[object.objectID] = nil
            object.contextReference = nil
        }
        clearChangeLists()
        if let change { notify(change) }
    }
}
