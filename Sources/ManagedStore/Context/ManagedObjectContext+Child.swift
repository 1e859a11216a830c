/// Child contexts: reading through the parent, saving into it.
extension ManagedObjectContext {
    /// The child's object for an object the parent (or its parents) inserted or changed, carrying
    /// the parent's current values; `nil` when the parent chain holds nothing unsaved for `id`.
    func mirror(of id: ObjectID, in parent: ManagedObjectContext) -> ManagedObject? {
        // The nearest ancestor whose object has unsaved changes: one that holds it unchanged (or not at
        // all) shows what its own parent shows, so the search goes on up (a grandchild used to read a
        // root's unsaved insert as nulls when the middle context had not read it).
        var level: ManagedObjectContext? = parent
        var found: ManagedObject?
        while let context = level {
            if let object = context.registeredObject(for: id), object.hasChanges {
                found = object
                break
            }
            level = context.parent
        }
        guard let source = found else { return nil }
        if source.isFault { source.fireFault() }
        let object = ManagedObject(entity: source.entity, id: id, context: self, values: source.values)
        object.committed = source.values
        registry[id] = object
        return object
    }

    /// Puts the parent's unsaved values on an object a child just read from the store.
    func overlayParent(_ parent: ManagedObjectContext, on object: ManagedObject) {
        guard let source = parent.registeredObject(for: object.objectID), source.hasChanges, !source.isFault else { return }
        object.values = source.values
        object.committed = source.values
    }

    /// The unsaved changes of the parent chain, as this child's objects (the parent's own take in its
    /// parents').
    func parentPendingChanges(of entity: Entity, _ request: FetchRequest) -> PendingChanges? {
        guard let parent, let pending = parent.pendingChanges(of: entity, request) else { return nil }
        var mine = PendingChanges()
        mine.inserted = pending.inserted.map { object(with: $0.objectID) }
        mine.updated = pending.updated.map { object(with: $0.objectID) }
        mine.deleted = pending.deleted
        return mine
    }

    /// Refuses a save whose changes reach an object the parent inserted (a temporary ID) and no longer
    /// holds, because the parent saved it (its ID is now permanent), rolled it back or deleted it since this
    /// child read it: the change would land on an object of no context and be lost. Refuses as well a
    /// change to the values of an object the parent chain deleted and has not saved: the delete would
    /// win when saved, and the change be lost without a word. (A link to such an object is not refused:
    /// the delete's rules take care of it when the parent saves, as they would in one context.)
    /// Checked before anything reaches the parent.
    func checkParentStillHolds(_ parent: ManagedObjectContext) throws(StoreError) {
        let mine = Set(insertedList.lazy.filter(\.isInserted).map(\.objectID))
        func check(_ id: ObjectID, _ what: @autoclosure () -> String, edited: Bool = false) throws(StoreError) {
            guard !mine.contains(id) else { return }
            let name = model.entity(id: id.entityID)?.name ?? "object"
            if id.isTemporary && parent.registeredObject(for: id) == nil {
                throw .invalidRequest("\(what()) the \(name) \(id), which the parent inserted and has since saved, "
                    + "rolled back or deleted, so this child's change cannot reach it; make a new child context after the parent saves, "
                    + "and make the change there")
            }
            if edited && parent.deletesAbove(id) {
                throw .invalidRequest("\(what()) the \(name) \(id), which the parent context (or one above it) deleted and has not saved, "
                    + "so the change would be lost when that delete is saved; roll the delete back there (rollback()) before making "
                    + "the change, or leave the \(name) alone")
            }
        }
        for object in updatedList where object.isUpdated && !object.isDeleted && !object.isFault {
            // Edited: its values changed, not only its to-many relationships (links the delete rules handle).
            try check(object.objectID, "this child changed", edited: object.committed != object.values)
        }
        for object in deletedList { try check(object.objectID, "this child deleted") }
        for list in [insertedList.filter(\.isInserted), updatedList.filter { $0.isUpdated && !$0.isDeleted && !$0.isFault }] {
            for object in list {
                for (i, column) in object.entity.columns.enumerated() where column.relationship != nil {
                    if case .object(let id) = object.values[i] { try check(id, "\(object.entity.name).\(column.name) points at") }
                }
            }
        }
        for pair in pendingJoins.keys {
            try check(pair.first, "a many-to-many change of this child joins")
            try check(pair.second, "a many-to-many change of this child joins")
        }
    }

    /// Whether this context or one of its parents deleted the object `id`, unsaved.
    private func deletesAbove(_ id: ObjectID) -> Bool {
        var level: ManagedObjectContext? = self
        while let context = level {
            if let object = context.registeredObject(for: id), object.isDeleted { return true }
            level = context.parent
        }
        return false
    }

    /// Pushes this child's changes into its parent: inserts, changed values (relationships through
    /// the parent's own upkeep), deletes and many-to-many changes.
    func saveIntoParent(_ parent: ManagedObjectContext) throws(StoreError) {
        try checkParentStillHolds(parent)
        // Inserted objects first, so relationships can point at them.
        var inserted: [ObjectID: ManagedObject] = [:]
        for object in insertedList where object.isInserted {
            inserted[object.objectID] = parent.insert(object.entity)
        }
        func inParent(_ id: ObjectID) -> ManagedObject { inserted[id] ?? parent.object(with: id) }
        func copy(_ object: ManagedObject, into target: ManagedObject, onlyChanged: Bool) throws(StoreError) {
            for (i, column) in object.entity.columns.enumerated() {
                let value = object.values[i]
                if onlyChanged, let committed = object.committed, committed[i] == value { continue }
                if let relationship = column.relationship {
                    if case .object(let id) = value {
                        parent.setToOne(target, relationship, column: i, to: inParent(id).objectID)
                    } else {
                        parent.setToOne(target, relationship, column: i, to: nil)
                    }
                } else {
                    target.setValue(value, at: i)
                }
            }
        }
        for object in insertedList where object.isInserted {
            try copy(object, into: inserted[object.objectID]!, onlyChanged: false)
        }
        for object in updatedList where object.isUpdated && !object.isDeleted && !object.isFault {
            try copy(object, into: inParent(object.objectID), onlyChanged: true)
        }
        for (pair, added) in pendingJoins {
            guard let table = model.joinTables.first(where: { $0.name == pair.table }) else { continue }
            // Find the relationship whose table this is, from the first object's side.
            let first = inParent(pair.first), second = inParent(pair.second)
            for (index, relationship) in first.entity.toManyRelationships.enumerated() {
                if case .joinTable(let t)? = first.entity.storage(of: relationship.name), t.name == table.name,
                   first.entity.destinationID(of: relationship.name) == second.entity.id {
                    try parent.addToMany(first, index: index, second, adding: added)
                    break
                }
            }
        }
        for object in deletedList {
            // checkParentStillHolds(_:) refused a temporary ID the parent let go of; a permanent one finds
            // the parent's object or a fault of it.
            let target = inParent(object.objectID)
            guard target.context === parent else { continue }
            parent.delete(target)
        }
        // Ordered relationships: the parent's sets take the child's order.
        for list in [insertedList, updatedList] {
            for object in list where (object.isInserted || object.isUpdated) && !object.isDeleted {
                for (index, relationship) in object.entity.toManyRelationships.enumerated() where relationship.isOrdered {
                    guard object.toMany.indices.contains(index), let members = object.toMany[index] else { continue }
                    let owner = object.isInserted ? inserted[object.objectID]! : inParent(object.objectID)
                    for (position, id) in members.ids.enumerated() {
                        try parent.move(inserted[id]?.objectID ?? id, to: position, in: owner, index: index)
                    }
                }
            }
        }
        // The child now matches its parent: references to its inserted objects (to-one values, loaded
        // to-many sets, of every object the child holds) take the parent's IDs first, while the old ones
        // still resolve, as a root context's save makes them permanent; then the objects themselves.
        let parentID: (ObjectID) -> ObjectID = { inserted[$0]?.objectID ?? $0 }
        for object in registry.values + insertedList.filter(\.isInserted) {
            object.remapTemporaryIDs(parentID, snapshot: true)
        }
        for object in insertedList where object.isInserted {
            object.objectID = inserted[object.objectID]!.objectID
            object.isInserted = false
            object.committed = object.values
            registry[object.objectID] = object
        }
        for object in updatedList where object.isUpdated {
            object.isUpdated = false
            // A fault changed only on its to-many side keeps the snapshot it has, if any.
            if !object.isFault { object.committed = object.values }
        }
        for object in deletedList {
            registry[object.objectID] = nil
            object.contextReference = nil
        }
        let change = ContextChange(inserted: insertedList.filter { !$0.isDeleted }, updated: updatedList, deleted: deletedList, isSave: true)
        clearChangeLists()
        notify(change)
        parent.processPendingChanges()
    }
}
