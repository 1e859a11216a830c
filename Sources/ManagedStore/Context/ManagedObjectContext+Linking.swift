/// Many-to-many pairs of saved objects written straight to the join table: the bulk path of a loader
/// that links objects it saved earlier (the seed importer's join files).
extension ManagedObjectContext {
    /// Whether ``linkSaved(_:by:of:)`` can add pairs to a relationship: a many-to-many, unordered on
    /// both sides, whose sides are optional and set no count limits, so no object has to be loaded or
    /// validated to add a pair.
    ///
    /// ```swift
    /// if context.canLinkSaved(by: "tags", of: book) { try context.linkSaved(pairs, by: "tags", of: book) }
    /// ```
    public func canLinkSaved(by name: String, of entity: Entity) -> Bool {
        guard let relationship = entity.relationship(named: name), relationship.isToMany,
              case .joinTable? = entity.storage(of: name),
              let (_, inverse) = inverse(of: relationship, from: entity), inverse.isToMany else { return false }
        return relationship.takesMembersUnchecked && inverse.takesMembersUnchecked
    }

    /// Adds pairs of saved objects to a many-to-many relationship by writing its join table directly,
    /// in one transaction, and returns the rows inserted (a pair the table holds already adds none).
    ///
    /// The objects are not registered, faulted or marked changed, which is what makes this cheaper than
    /// ``ManagedObject/add(_:toKey:)`` for hundreds of thousands of pairs: a registered object whose set
    /// is loaded lets it go, so its next read takes in the new members from the store. The rows are
    /// written in the join table's key order (see ``save()``).
    ///
    /// ```swift
    /// let book = try store.entity(named: "Book")
    /// let added = try context.linkSaved([(owner: bookID, member: tagID)], by: "tags", of: book)
    /// ```
    ///
    /// - Throws: ``StoreError/invalidRequest(_:)`` when ``canLinkSaved(by:of:)`` is false, the context is a
    ///   child or read-only, or an ID is not a saved object of the relationship's two entities; SQLite's
    ///   error when writing fails (the transaction is rolled back).
    @discardableResult
    public func linkSaved(_ pairs: [(owner: ObjectID, member: ObjectID)], by name: String, of entity: Entity) throws(StoreError) -> Int {
        guard canLinkSaved(by: name, of: entity), case .joinTable(let table)? = entity.storage(of: name),
              let relationship = entity.relationship(named: name), let (destination, inverse) = inverse(of: relationship, from: entity),
              let index = entity.toManyRelationships.firstIndex(where: { $0.name == name }),
              let inverseIndex = destination.toManyRelationships.firstIndex(where: { $0.name == inverse.name }),
              let tableIndex = model.joinTables.firstIndex(where: { $0.name == table.name }) else {
            throw .invalidRequest("\(entity.name).\(name) is not an unordered many-to-many without count rules: add its members with add(_:toKey:)")
        }
        guard parent == nil, !store.isReadOnly else {
            throw .invalidRequest("linkSaved writes the store directly: use add(_:toKey:) in a child or read-only context")
        }
        // The pair as the join table's key: this side's column is `table.sourceColumn` when it is the
        // model's own orientation of the table.
        let ownerIsSource = model.joinTables[tableIndex].sourceColumn == table.sourceColumn
        var rows: [JoinRow] = []
        rows.reserveCapacity(pairs.count)
        for (owner, member) in pairs {
            guard owner.entityID == entity.id, member.entityID == destination.id, !owner.isTemporary, !member.isTemporary else {
                throw .invalidRequest("\(entity.name).\(name) links saved \(entity.name) and \(destination.name) objects, not \(owner) and \(member)")
            }
            rows.append(ownerIsSource
                        ? JoinRow(table: tableIndex, source: owner.primaryKey, destination: member.primaryKey, added: true)
                        : JoinRow(table: tableIndex, source: member.primaryKey, destination: owner.primaryKey, added: true))
        }
        var inserted = 0
        try inWriteTransaction { inserted = try writeJoinRows(&rows) }
        joinRowsInserted += inserted
        if registry.count > 0 {
            for (owner, member) in pairs {
                unload(owner, index)
                unload(member, inverseIndex)
            }
        }
        return inserted
    }

    /// Whether ``relateSaved(_:by:of:)`` can set a to-one relationship: one whose inverse is an
    /// unordered to-many without count rules (or that has none), so no object has to be loaded,
    /// validated or taken from another owner to set it.
    ///
    /// ```swift
    /// if context.canRelateSaved(by: "manager", of: employee) { try context.relateSaved(pairs, by: "manager", of: employee) }
    /// ```
    public func canRelateSaved(by name: String, of entity: Entity) -> Bool {
        guard let relationship = entity.relationship(named: name), !relationship.isToMany,
              case .column? = entity.slot(of: name) else { return false }
        guard relationship.inverse != nil else { return true }
        guard let (_, inverse) = inverse(of: relationship, from: entity), inverse.isToMany else { return false }
        return inverse.takesMembersUnchecked
    }

    /// Sets a to-one relationship of saved objects by writing their rows directly, in one transaction,
    /// and returns the rows changed (one already pointing at its destination is left as it is).
    ///
    /// Each changed row's `Z_OPT` goes up by one, as a save's update does. None of the objects may be
    /// registered with unsaved changes; a registered one turns back into a fault, and a registered
    /// destination lets go of its loaded inverse set, so the next reads take in the new values. The rows
    /// are written in primary-key order.
    ///
    /// ```swift
    /// let employee = try store.entity(named: "Employee")
    /// try context.relateSaved([(object: reportID, destination: managerID)], by: "manager", of: employee)
    /// ```
    ///
    /// - Throws: ``StoreError/invalidRequest(_:)`` when ``canRelateSaved(by:of:)`` is false, the context is
    ///   a child or read-only, an ID is not a saved object of the relationship's two entities, or an
    ///   object has unsaved changes; SQLite's error when writing fails (the transaction is rolled back).
    @discardableResult
    public func relateSaved(_ pairs: [(object: ObjectID, destination: ObjectID)], by name: String, of entity: Entity) throws(StoreError) -> Int {
        guard canRelateSaved(by: name, of: entity), case .column(let column)? = entity.slot(of: name),
              let relationship = entity.relationship(named: name),
              let destinationID = entity.destinationID(of: name) else {
            throw .invalidRequest("\(entity.name).\(name) is not a to-one whose inverse is an unordered to-many without count rules: set it on the object")
        }
        guard parent == nil, !store.isReadOnly else {
            throw .invalidRequest("relateSaved writes the store directly: set the relationship on the object in a child or read-only context")
        }
        var rows: [(primaryKey: Int64, destination: Int64)] = []
        rows.reserveCapacity(pairs.count)
        for (object, destination) in pairs {
            guard object.entityID == entity.id, destination.entityID == destinationID, !object.isTemporary, !destination.isTemporary else {
                throw .invalidRequest("\(entity.name).\(name) relates saved \(entity.name) and \(relationship.destination) objects, not \(object) and \(destination)")
            }
            if let registered = registered(object), registered.isUpdated || registered.isDeleted {
                throw .invalidRequest("\(object) has unsaved changes: save them before relating it with relateSaved")
            }
            rows.append((object.primaryKey, destination.primaryKey))
        }
        rows.sort { $0.primaryKey < $1.primaryKey }
        let connection = store.connection
        let columnName = entity.columns[column].columnName
        var changed = 0
        try inWriteTransaction {
            let statement = try connection.cachedStatement(
                "UPDATE \(entity.tableName) SET \(countsVersions ? "Z_OPT = Z_OPT + 1, " : "")\(columnName) = ?1 WHERE Z_PK = ?2 AND \(columnName) IS NOT ?1")
            for row in rows {
                statement.reset()
                statement.bind(row.destination, at: 1)
                statement.bind(row.primaryKey, at: 2)
                try statement.run()
                changed += connection.changes
            }
        }
        if registry.count > 0 {
            for (object, _) in pairs {
                if let registered = registered(object), !registered.isFault { refresh(registered, mergeChanges: false) }
            }
            // The new destinations' loaded inverse sets, and the old ones' (not read here): every one.
            if let (destination, inverse) = inverse(of: relationship, from: entity),
               let inverseIndex = destination.toManyRelationships.firstIndex(where: { $0.name == inverse.name }) {
                for object in registry.values where object.entity === destination && object.toMany.indices.contains(inverseIndex) {
                    object.toMany[inverseIndex] = nil
                }
            }
        }
        return changed
    }

    /// Lets go of the loaded to-many set at `index` of `id`'s object, if it is registered.
    private func unload(_ id: ObjectID, _ index: Int) {
        guard let object = registered(id), object.toMany.indices.contains(index) else { return }
        object.toMany[index] = nil
    }
}

extension Relationship {
    /// Whether members can join this to-many without loading or validating its set: unordered (no
    /// positions to number), optional, and no count limits.
    var takesMembersUnchecked: Bool { !isOrdered && isOptional && minCount == 0 && maxCount == 0 }
}
