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
        return [relationship, inverse].allSatisfy { side in
            !side.isOrdered && side.isOptional && side.minCount == 0 && side.maxCount == 0
        }
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

    /// Lets go of the loaded to-many set at `index` of `id`'s object, if it is registered.
    private func unload(_ id: ObjectID, _ index: Int) {
        guard let object = registered(id), object.toMany.indices.contains(index) else { return }
        object.toMany[index] = nil
    }
}
