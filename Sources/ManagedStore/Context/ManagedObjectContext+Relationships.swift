/// Relationship upkeep: setting one side sets the inverse; to-many sets load lazily and take in unsaved changes.
extension ManagedObjectContext {
    /// The inverse relationship of `relationship` (from `entity`) and the destination entity.
    func inverse(of relationship: Relationship, from entity: Entity) -> (Entity, Relationship)? {
        guard let destinationID = entity.destinationID(of: relationship.name),
              let destination = model.entity(id: destinationID),
              let name = relationship.inverse, let inverse = destination.relationship(named: name) else { return nil }
        return (destination, inverse)
    }

    /// Whether `context` is this context's parent, or its parent's, and so on.
    func hasAncestor(_ context: ManagedObjectContext) -> Bool {
        var current = parent
        while let ancestor = current {
            if ancestor === context { return true }
            current = ancestor.parent
        }
        return false
    }

    /// Whether a temporary `id` is an object this context or one of its parents inserted and still holds:
    /// the only temporary IDs a save can turn into keys.
    func holdsInserted(_ id: ObjectID) -> Bool {
        var current: ManagedObjectContext? = self
        while let context = current {
            if context.registered(id) != nil { return true }
            current = context.parent
        }
        return false
    }

    /// Refuses `id` as the destination of `owner`'s to-one `key` when it names an entity the model
    /// lacks, or an unsaved object of another context (whose temporary key would reach the store as a
    /// dangling foreign key).
    func checkDestination(_ id: ObjectID, of owner: ManagedObject, key: String) throws(StoreError) {
        guard let destination = model.entity(id: id.entityID) else {
            throw .invalidProperty(entity: owner.entity.name, property: key, reason:
                "cannot point at \(id): the model has no entity number \(id.entityID) (it has 1...\(model.entities.count)); the ID comes from another model or store")
        }
        guard !id.isTemporary || holdsInserted(id) else {
            throw .invalidProperty(entity: owner.entity.name, property: key, reason:
                "cannot point at \(destination.name) \(id): it is the temporary ID of an object this context does not hold "
                + "(inserted in another context and not saved, or rolled back or deleted). Objects of different contexts cannot be related; "
                + "fetch the \(destination.name) in this context, or save its context and look it up with existingObject(with: objectID)")
        }
    }

    /// Sets the to-one `relationship` of `object` (at `column`) to `newID`, keeping inverses in step.
    func setToOne(_ object: ManagedObject, _ relationship: Relationship, column: Int, to newID: ObjectID?) {
        if object.isFault { object.fireFault() }
        let oldID: ObjectID? = if case .object(let id) = object.values[column] { id } else { nil }
        guard oldID != newID else { return }
        object.setValue(newID.map(Value.object) ?? .null, at: column)
        guard let (destination, inverse) = self.inverse(of: relationship, from: object.entity) else { return }
        // A one-to-one's former destination holds this object in a column of its own: clear it even when
        // it is not registered (a saved row the context let go of); a to-many set is derived from this
        // side's column, so only a loaded one needs the change.
        if let oldID, let old = inverse.isToMany ? registered(oldID) : self.object(with: oldID) {
            unlink(old, inverse, destination: destination, from: object.objectID)
        }
        guard let newID else { return }
        let new = self.object(with: newID)
        if inverse.isToMany {
            if case .toMany(let index)? = destination.slot(of: inverse.name) {
                if new.toMany.indices.contains(index), new.toMany[index] != nil { new.toMany[index]!.insert(object.objectID) }
                noteChanged(new)
            }
        } else if let inverseColumn = destination.columnIndex(of: inverse.name) {
            if new.isFault { new.fireFault() }
            // One-to-one: the destination's former partner loses it (faulted in if the context let go of it).
            if case .object(let previous) = new.values[inverseColumn], previous != object.objectID {
                let partner = self.object(with: previous)
                if partner.isFault { partner.fireFault() }
                if case .object(let current) = partner.values[column], current == new.objectID { partner.setValue(.null, at: column) }
            }
            new.setValue(.object(object.objectID), at: inverseColumn)
        }
    }

    /// Takes `id` out of `holder`'s side of a relationship (`inverse`, belonging to `destination`).
    private func unlink(_ holder: ManagedObject, _ inverse: Relationship, destination: Entity, from id: ObjectID) {
        switch destination.slot(of: inverse.name) {
        case .toMany(let index)?:
            if holder.toMany.indices.contains(index), holder.toMany[index] != nil { holder.toMany[index]!.remove(id) }
            noteChanged(holder)
        case .column(let column)?:
            if holder.isFault { holder.fireFault() }
            if case .object(let current) = holder.values[column], current == id { holder.setValue(.null, at: column) }
        default:
            break
        }
    }

    /// Adds `member` to (or removes it from) the to-many relationship at `index` of `owner`.
    func addToMany(_ owner: ManagedObject, index: Int, _ member: ManagedObject, adding: Bool) throws(StoreError) {
        let relationship = owner.entity.toManyRelationships[index]
        guard member.entity.id == owner.entity.destinationID(of: relationship.name) else {
            throw .invalidRequest("\(owner.entity.name).\(relationship.name) holds \(relationship.destination) objects, not \(member.entity.name)")
        }
        guard let (destination, inverse) = self.inverse(of: relationship, from: owner.entity) else { return }
        // An ordered set is loaded first, so members land in the order they are added.
        if relationship.isOrdered && adding { _ = try toManyIDs(of: owner, index: index) }
        if !inverse.isToMany, let column = destination.columnIndex(of: inverse.name) {
            // One-to-many: the member's to-one is the truth; setting it updates this set.
            if adding {
                setToOne(member, inverse, column: column, to: owner.objectID)
            } else if case .object(let current) = member.value(at: column), current == owner.objectID {
                setToOne(member, inverse, column: column, to: nil)
            }
            return
        }
        // Many-to-many: both loaded sets, and a pending join-table change.
        guard case .joinTable(let table)? = owner.entity.storage(of: relationship.name),
              case .toMany(let inverseIndex)? = destination.slot(of: inverse.name) else { return }
        update(owner, index, member.objectID, adding)
        update(member, inverseIndex, owner.objectID, adding)
        pendingJoins[joinPair(table, owner.objectID, member.objectID)] = adding
        noteChanged(owner)
        noteChanged(member)
    }

    /// Moves member `id` to `position` (clamped) of the loaded ordered to-many at `index` of `owner`.
    func move(_ id: ObjectID, to position: Int, in owner: ManagedObject, index: Int) throws(StoreError) {
        _ = try toManyIDs(of: owner, index: index)
        guard owner.toMany[index]!.contains(id) else { return }
        owner.toMany[index]!.move(id, to: position)
        noteChanged(owner)
    }

    private func update(_ object: ManagedObject, _ index: Int, _ id: ObjectID, _ adding: Bool) {
        guard object.toMany.indices.contains(index), object.toMany[index] != nil else { return }
        if adding { object.toMany[index]!.insert(id) } else { object.toMany[index]!.remove(id) }
    }

    /// The join-table pair for `owner` (on the table's source column side) and `member`, in fixed
    /// orientation; a symmetric table's pair is the same whichever side it was changed from (lower ID first).
    func joinPair(_ table: JoinTable, _ owner: ObjectID, _ member: ObjectID) -> JoinPair {
        if table.isSymmetric { return JoinPair(table: table.name, first: min(owner, member), second: max(owner, member)) }
        return table.sourceColumn < table.destinationColumn
            ? JoinPair(table: table.name, first: owner, second: member)
            : JoinPair(table: table.name, first: member, second: owner)
    }

    /// The IDs in the to-many relationship at `index` of `object`: read from the store once, with the
    /// context's unsaved changes applied.
    func toManyIDs(of object: ManagedObject, index: Int) throws(StoreError) -> [ObjectID] {
        if object.toMany.indices.contains(index), object.toMany[index] != nil {
            removeDeletedMembers(from: &object.toMany[index]!)
            return object.toMany[index]!.ids
        }
        let relationship = object.entity.toManyRelationships[index]
        let destinationID = object.entity.destinationID(of: relationship.name)!
        let destination = model.entity(id: destinationID)!
        var ids: [ObjectID] = []
        if !object.objectID.isTemporary {
            let sql: String
            switch object.entity.storage(of: relationship.name) {
            case .inverseForeignKey(let column)?:
                // Ordered: by position, members without one after, in insertion order.
                let order = store.positionOrdering(of: relationship, in: object.entity)
                sql = "SELECT Z_PK FROM \(destination.tableName) WHERE \(destination.columns[column].columnName) = ? ORDER BY \(order)Z_PK"
            case .joinTable(let table)?:
                let order = store.positionOrdering(of: relationship, in: object.entity)
                let pairs = table.pairsSQL(orderColumn: store.orderColumn(of: relationship, in: object.entity))
                sql = "SELECT \(table.destinationColumn) FROM \(pairs) WHERE \(table.sourceColumn) = ? ORDER BY \(order)\(table.destinationColumn)"
            default:
                return []
            }
            do {
                let statement = try store.connection.cachedStatement(sql)
                statement.bind(object.objectID.primaryKey, at: 1)
                while try statement.step() { ids.append(ObjectID(entityID: destinationID, primaryKey: statement.int64(at: 0))) }
            } catch { throw StoreError(error, storePath: store.path) }
        }
        return setToMany(of: object, index: index, storedIDs: ids)
    }

    /// Records `storedIDs` (what the store holds) as the loaded to-many relationship at `index` of
    /// `object`, with the unsaved changes of this context and of its parents applied; returns the IDs.
    @discardableResult
    func setToMany(of object: ManagedObject, index: Int, storedIDs: [ObjectID]) -> [ObjectID] {
        // A child starts from what its parent sees: members the parent chain inserted, re-pointed or
        // deleted (a child's own earlier save among them) are not in the store yet.
        var set = parent?.toManyView(of: object.objectID, entity: object.entity, index: index, storedIDs: storedIDs) ?? ToManySet(storedIDs)
        applyUnsavedChanges(to: &set, of: object.objectID, entity: object.entity, index: index)
        store(set, in: object, index)
        return set.ids
    }

    /// The to-many relationship at `index` of the object `id` (an `entity`) as this context sees it, given
    /// what the store holds: its loaded set, else its parent's view with this context's changes applied.
    /// Loads and registers nothing.
    private func toManyView(of id: ObjectID, entity: Entity, index: Int, storedIDs: [ObjectID]) -> ToManySet {
        if let object = registered(id), object.toMany.indices.contains(index), object.toMany[index] != nil {
            removeDeletedMembers(from: &object.toMany[index]!)
            return object.toMany[index]!
        }
        var set = parent?.toManyView(of: id, entity: entity, index: index, storedIDs: storedIDs) ?? ToManySet(storedIDs)
        applyUnsavedChanges(to: &set, of: id, entity: entity, index: index)
        return set
    }

    /// Applies this context's unsaved changes to `set`, the to-many relationship at `index` of the
    /// object `id` (an `entity`): members whose to-one now points at it or away, join-table changes, deletes.
    private func applyUnsavedChanges(to set: inout ToManySet, of id: ObjectID, entity: Entity, index: Int) {
        let relationship = entity.toManyRelationships[index]
        let destination = model.entity(id: entity.destinationID(of: relationship.name)!)!
        switch entity.storage(of: relationship.name) {
        case .inverseForeignKey(let column)?:
            // Unsaved changes: members whose to-one now points here, or no longer does.
            for list in [insertedList, updatedList] {
                for candidate in list where candidate.entity === destination && !candidate.isFault && (candidate.isInserted || candidate.isUpdated) {
                    if case .object(let target) = candidate.values[column], target == id, !candidate.isDeleted {
                        set.insert(candidate.objectID)
                    } else {
                        set.remove(candidate.objectID)
                    }
                }
            }
        case .joinTable(let table)?:
            for (pair, added) in pendingJoins where pair.table == table.name {
                let ownerFirst = table.sourceColumn < table.destinationColumn
                let (mine, theirs) = ownerFirst ? (pair.first, pair.second) : (pair.second, pair.first)
                // A symmetric pair belongs to both of its objects.
                let other: ObjectID? = mine == id ? theirs : table.isSymmetric && theirs == id ? mine : nil
                guard let other else { continue }
                if added { set.insert(other) } else { set.remove(other) }
            }
        default:
            break
        }
        removeDeletedMembers(from: &set)
    }

    /// Leaves out of `set` the members this context deleted, unsaved: a set loaded before a delete drops
    /// the member when next read, as one loaded after it never had it (a rollback reloads every set).
    private func removeDeletedMembers(from set: inout ToManySet) {
        guard !deletedList.isEmpty else { return }
        // Look up the fewer of the two (a delete rule loads the to-many of every object it deletes, so
        // walking every deletion each time would be quadratic). An ID of another entity is never a member.
        if set.count < deletedList.count {
            for member in set.ids where registered(member)?.isDeleted == true { set.remove(member) }
        } else {
            for deleted in deletedList { set.remove(deleted.objectID) }
        }
    }

    private func store(_ set: ToManySet, in object: ManagedObject, _ index: Int) {
        if object.toMany.count < object.entity.toManyRelationships.count {
            object.toMany += Array(repeating: nil, count: object.entity.toManyRelationships.count - object.toMany.count)
        }
        object.toMany[index] = set
    }

    /// Forgets an inserted, unsaved object: out of the registry and out of every relationship it joined.
    func detachInserted(_ object: ManagedObject) {
        for relationship in object.entity.relationships {
            switch object.entity.slot(of: relationship.name) {
            case .column(let column)?:
                if let relationship = object.entity.columns[column].relationship {
                    setToOne(object, relationship, column: column, to: nil)
                }
            case .toMany(let index)?:
                for id in (try? toManyIDs(of: object, index: index)) ?? [] {
                    try? addToMany(object, index: index, self.object(with: id), adding: false)
                }
            default:
                break
            }
        }
        pendingJoins = pendingJoins.filter { $0.key.first != object.objectID && $0.key.second != object.objectID }
        object.isInserted = false
        liveInserted -= 1
        object.isDeleted = true
        object.contextReference = nil
    }
}
