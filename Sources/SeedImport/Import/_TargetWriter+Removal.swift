import CSVStream
import Foundation
import ManagedStore

/// Skip mode: removing what rows rejected once the file had been read made, and what that takes along
/// (delete rules, one-to-one partners, cascaded rows).
extension _TargetWriter {
    /// Saves while rejected rows are being removed. In skip mode, objects the removals left invalid (a
    /// required to-one whose destination a delete rule took) are removed in turn, their rows set aside
    /// with the others, and the save tried again; anything else still fails the import. The rows of
    /// removed objects are looked for (a read of the files) only when `findingRows`: once, at the end,
    /// not at every batch (with a small batch size that was a read of the files per batch).
    func saveRemovals(findingRows: Bool = true) throws(ImportError) {
        while true {
            do {
                try save()
                break
            } catch {
                guard session.options.onError == .skip, !error.validationFailures.isEmpty else { throw error }
                var removed = false
                for failure in error.validationFailures {
                    guard let object = context.registeredObject(for: failure.objectID), !object.isDeleted,
                          !cascadedIDs.contains(object.objectID) else { continue }
                    context.delete(object)
                    try forget(object)
                    removed = true
                }
                guard removed else { throw error }
                try forgetCascaded()
            }
        }
        if findingRows { try rejectCascadedRows() }
    }

    /// The objects pending removals take with them through Cascade rules: their keys are forgotten, so no
    /// later row or join file links to an object that is gone, and they are named in a summary warning.
    func forgetCascaded() throws(ImportError) {
        // Until nothing new: objects removed for pointing at a cascaded one may cascade further.
        while true {
            let cascaded: [ManagedObject]
            do { cascaded = try context.objectsCascadedByPendingDeletes() } catch {
                throw deniedRemoval(error)
            }
            let new = cascaded.filter { !cascadedIDs.contains($0.objectID) }
            if new.isEmpty { return }
            // What the rows of these objects wrote to earlier objects is taken back first, one object at a
            // time: a partner given back leaves the closure, which is then computed again.
            if !writes.isEmpty, !linesByRowObject.isEmpty {
                var changed = false
                for object in new where linesByRowObject[object.objectID] != nil {
                    let before = objectsTakenBack
                    try takeBackWritesOfRows(of: object)
                    if objectsTakenBack != before {
                        changed = true
                        break
                    }
                }
                if changed { continue }
            }
            for object in new { try forget(object) }
        }
    }

    /// The error for removals a Deny rule refuses, naming the objects by their keys, the rule, and the
    /// objects that point at them (the engine's own words name object IDs and advise saving again).
    func deniedRemoval(_ error: StoreError) -> ImportError {
        guard case .validation(let failures) = error else {
            return ImportError(.store, reason: "removing rejected rows failed: \(error)")
        }
        let denied = failures.filter { $0.code == .deleteDenied }
        guard !denied.isEmpty else { return ImportError(.store, reason: "removing rejected rows failed: \(error)") }
        let shown = denied.prefix(3).map { failure -> String in
            guard let object = context.registeredObject(for: failure.objectID) else { return "a \(failure.entity) (\(failure.key) is Deny)" }
            let pointing = ((try? object.objects(forKey: failure.key)) ?? (try? object.object(forKey: failure.key)).flatMap { $0 }.map { [$0] } ?? [])
                .filter { !$0.isDeleted && !cascadedIDs.contains($0.objectID) }
            let names = pointing.prefix(3).map(describe)
            return "\(describe(object)), which the rejected rows of \(file.displayPath) made or named, cannot go: its \(failure.key) is Deny and "
                + "\(pointing.count) \(pointing.first?.entity.name ?? "object")\(pointing.count == 1 ? " still points" : "s still point") at it"
                + (names.isEmpty ? "" : " (\(names.joined(separator: ", "))\(pointing.count > names.count ? ", …" : ""))")
        }
        return ImportError(.store, reason: "skip mode cannot set the rejected rows aside: " + shown.joined(separator: "; ")
                               + (denied.count > shown.count ? "; and \(denied.count - shown.count) more" : ""),
                           hint: "A Deny rule keeps an object while others point at it, so the rows that made it cannot be set aside alone. Fix the rows that made it (--on-error abort stops at the first, with its reason), or make the rule Nullify or Cascade. Nothing was written.")
    }

    /// An object for messages: its entity and the key a target fills it by (`Node k "A"`), or its entity alone.
    func describe(_ object: ManagedObject) -> String {
        for name in keyAttributes(of: object.entity.name).sorted() {
            guard let ordinal = object.entity.columnIndex(of: name) else { continue }
            return "\(object.entity.name) \(name) \(_ImportSession.describe(object.value(at: ordinal)))"
        }
        return "a \(object.entity.name)"
    }

    /// Forgets an object removed along with rejected rows: its keys, and (by key) its rows for the
    /// rejects file, or, without a key, its name for the summary.
    func forget(_ object: ManagedObject, reason: String? = nil, naming relationship: (name: String, destination: _KeyIndex, value: Value)? = nil,
                rowRejected: Bool = false) throws(ImportError) {
        guard cascadedIDs.insert(object.objectID).inserted else { return }
        // Its keyed link partners, as they are before its rows' writes are taken back (which may let go of them).
        noteOrphanCandidates(of: object)
        if !writes.isEmpty { try takeBackWritesOfRows(of: object) }
        let reason = reason ?? "its \(object.entity.name) went with the rejected rows of \(file.displayPath) (a Cascade delete rule took it, or an object it requires)"
        do {
            for index in session.plan.indexes.values where index.entity.name == object.entity.name {
                try vacate(index, object.value(at: index.ordinal), of: object)
            }
            // Its rows are found again by the key of a target that fills the entity (one keyed through its
            // link included); a relationship's index alone does not lead back to a row.
            var located = false
            for name in keyAttributes(of: object.entity.name) {
                guard let ordinal = object.entity.columnIndex(of: name) else { continue }
                // By bytes, as the key indexes compare (Swift's String == would make "é" and "e\u{301}" one).
                let key = _KeyBytes.with(object.value(at: ordinal)) { Array($0) }
                if cascadedKeyValues[_IndexKey(entity: object.entity.name, attribute: name), default: [:]][key] == nil {
                    cascadedKeyValues[_IndexKey(entity: object.entity.name, attribute: name), default: [:]][key] = _CascadeCause(reason: reason, relationship: relationship)
                }
                located = true
            }
            if !located && !rowRejected { cascadedKeys.append("\(object.entity.name) \(object.objectID)") }
        }
        try unlinked(object)
    }

    /// Removes, in turn, the objects whose rows name a removed object in a relationship column: a delete
    /// rule would clear that relationship (or leave it pointing at nothing) and the row would pass for
    /// imported with a value it does not hold. Their rows go to the rejects file; so do rows naming them.
    func unlinked(_ object: ManagedObject) throws(ImportError) {
        unlinkWork.append(object)
        guard !unlinking else { return }
        unlinking = true
        defer { unlinking = false }
        while let removed = unlinkWork.popLast() {
            // The objects its row made with it, linked one-to-one (a ShelfInfo with its Shelf): that row is
            // set aside, so they go too, whatever the delete rule would leave of them.
            for ordinal in linkedColumns[removed.entity.name] ?? [] {
                guard case .object(let id) = removed.value(at: ordinal), !cascadedIDs.contains(id) else { continue }
                let partner = try session.existing(id)
                guard !partner.isDeleted else { continue }
                context.delete(partner)
                changes += 1
                try forget(partner, reason: "the \(removed.entity.name) its row made went with the rejected rows of \(file.displayPath)", rowRejected: true)
            }
            noteOrphanCandidates(of: removed)
            // A one-to-one under No Action: the partner keeps a foreign key to an object that is gone. The
            // import is taking back the row that linked them, so the partner lets go (as Nullify would).
            for relationship in removed.entity.relationships where relationship.deleteRule == .noAction && !relationship.isToMany {
                guard let column = removed.entity.columnIndex(of: relationship.name), case .object(let id) = removed.value(at: column),
                      let inverse = relationship.inverse, !cascadedIDs.contains(id) else { continue }
                let partner = try session.existing(id)
                guard !partner.isDeleted, let inverseColumn = partner.entity.columnIndex(of: inverse),
                      partner.value(at: inverseColumn) == .object(removed.objectID) else { continue }
                partner.setValue(.null, at: inverseColumn)
                changes += 1
            }
            try releaseFormerPartners(of: removed)
            guard !removed.objectID.isTemporary, let filled = filledRelationships[removed.entity.tableName] else { continue }
            for relationship in filled {
                // Every row is saved while removals run (forward references are set afterwards): the
                // store's foreign keys still hold what the rows named.
                var pointers = try storedPointers(to: removed, in: relationship.source.tableName, column: relationship.column,
                                                  finding: "the rows that name a removed \(removed.entity.name)")
                // Pointers moved to this object since the last save (not in the store yet), but not those a
                // move took to another object since (a delete rule may have cleared one: it stays).
                pointers += repointed[removed.objectID] ?? []
                pointers = pointers.filter { id in
                    guard let pointer = try? session.existing(id) else { return false }
                    if case .object(let current) = pointer.value(at: relationship.ordinal) { return current == removed.objectID }
                    return true
                }
                let destination = relationship.destination
                let value = removed.value(at: destination.ordinal)
                // A destination found by a value that is not its key: the rows named the value, which another
                // object may hold now (``vacate`` passed it on). They point at that one instead.
                if destination.isPopulated, let entry = destination.find(value), destination.objectID(entry) != removed.objectID {
                    for id in pointers where !cascadedIDs.contains(id) {
                        let pointer = try session.existing(id)
                        guard !pointer.isDeleted else { continue }
                        // Through the context, so a one-to-one's other side (and a former partner) follows.
                        let holder = try session.existing(destination.objectID(entry))
                        repointed[holder.objectID, default: []].append(id)
                        do { try pointer.setObject(holder, forKey: relationship.name) } catch {
                            throw ImportError(.store, reason: "moving \(relationship.source.name).\(relationship.name) to the next holder of a rejected row's value failed: \(error)")
                        }
                        changes += 1
                    }
                    continue
                }
                let named = "\(destination.entity.name) with \(destination.attribute) \(_ImportSession.describe(value))"
                for id in pointers where !cascadedIDs.contains(id) {
                    let pointer = try session.existing(id)
                    guard !pointer.isDeleted else { continue }
                    context.delete(pointer)
                    changes += 1
                    try forget(pointer, reason: "its \(relationship.name) names \(named), whose row was rejected",
                               naming: (relationship.name, destination, value))
                }
            }
        }
    }

    /// The saved objects of `table` whose to-one `column` names `removed`; `finding` words the error.
    func storedPointers(to removed: ManagedObject, in table: String, column: String, finding: String) throws(ImportError) -> [ObjectID] {
        var pointers: [ObjectID] = []
        do {
            let statement = try session.store.connection.cachedStatement("SELECT Z_PK, Z_ENT FROM \(table) WHERE \(column) = ?")
            defer { statement.reset() }
            statement.bind(removed.objectID.primaryKey, at: 1)
            while try statement.step() {
                pointers.append(ObjectID(entityID: Int32(truncatingIfNeeded: statement.int64(at: 1)), primaryKey: statement.int64(at: 0)))
            }
        } catch {
            throw ImportError(.store, reason: "finding \(finding) failed: \(error)")
        }
        return pointers
    }

    /// Lets go of a removed object on behalf of its *former* one-to-one partners: objects a later row's link
    /// left pointing at it because their side is required (a link does not strip a partner of a required
    /// destination). Delete rules reach only the current partner, so their column would name a row that
    /// is gone: an optional one is cleared, and an object that requires it goes too, its rows set aside.
    func releaseFormerPartners(of removed: ManagedObject) throws(ImportError) {
        guard !removed.objectID.isTemporary, let links = linkColumnsTo[removed.entity.name] else { return }
        for link in links {
            let pointers = try storedPointers(to: removed, in: link.source.tableName, column: link.source.columns[link.ordinal].columnName,
                                              finding: "the former partners of a removed \(removed.entity.name)")
            for id in pointers where !cascadedIDs.contains(id) && removed.value(at: link.back) != .object(id) {
                let pointer = try session.existing(id)
                guard !pointer.isDeleted, pointer.value(at: link.ordinal) == .object(removed.objectID) else { continue }
                changes += 1
                if link.isOptional {
                    pointer.setValue(.null, at: link.ordinal)
                } else {
                    context.delete(pointer)
                    try forget(pointer, reason: "its \(link.name) is required, and its \(removed.entity.name) went with the rejected rows of \(file.displayPath) (a later row had linked that \(removed.entity.name) to another \(pointer.entity.name))")
                }
            }
        }
    }

    /// The key attributes of the targets, in this file and the ones before it, that fill `entity`.
    func keyAttributes(of entity: String) -> Set<String> {
        var names = Set<String>()
        for plan in session.plan.files where plan.position <= file.position {
            for target in plan.targets where target.entity.name == entity {
                if let name = target.keyAttribute { names.insert(name) }
            }
        }
        return names
    }

    /// Reads each file so far that fills an entity by one of `indexKeys` again, and calls `body` for every
    /// row not set aside, with the target and key attribute, the record, and its key as the import made it
    /// (a null token becomes the attribute's default, or no key) and that key's bytes (the key indexes
    /// compare bytes). `body` returns whether it is done with the record. `purpose` words a read error.
    func forEachKeyedRow(
        filling indexKeys: Set<_IndexKey>, purpose: String,
        _ body: (_ plan: _FilePlan, _ target: _TargetPlan, _ field: _FieldPlan, _ attribute: String,
                 _ record: CSVRawRecord, _ reader: CSVReader, _ key: Value, _ bytes: [UInt8]) throws -> Bool
    ) throws(ImportError) {
        for plan in session.plan.files where plan.position <= file.position && plan.join == nil {
            var wanted: [(target: _TargetPlan, field: _FieldPlan, attribute: String)] = []
            for target in plan.targets {
                guard let attribute = target.keyAttribute, indexKeys.contains(_IndexKey(entity: target.entity.name, attribute: attribute)),
                      let ordinal = target.entity.columnIndex(of: attribute),
                      let field = target.fields.first(where: { $0.ordinal == ordinal }) else { continue }
                wanted.append((target, field, attribute))
            }
            guard !wanted.isEmpty else { continue }
            do {
                let reader = try CSVReader(path: plan.path, dialect: plan.options.dialect)
                try reader.forEachRawRecord { record in
                    guard !plan.rejectedLines.contains(record.lineNumber) else { return }
                    for wanted in wanted {
                        guard let key = Self.key(wanted.field, of: wanted.target, in: record) else { continue }
                        if try body(plan, wanted.target, wanted.field, wanted.attribute, record, reader, key, _KeyBytes.with(key) { Array($0) }) {
                            return
                        }
                    }
                }
            } catch let error as ImportError {
                throw error
            } catch {
                throw ImportError(.input, reason: "cannot read the file again \(purpose): \(error)", file: plan.displayPath)
            }
        }
    }

    /// Notes the keyed link partners of a removed object: ``removeOrphanedPartners()`` looks at them.
    func noteOrphanCandidates(of removed: ManagedObject) {
        for ordinal in keyedLinkedColumns[removed.entity.name] ?? [] {
            if case .object(let id) = removed.value(at: ordinal), !cascadedIDs.contains(id) { orphanCandidates.append(id) }
        }
    }

    /// Removes the keyed link partners of removed objects (``orphanCandidates``) that no row standing has
    /// the key of (each file so far that fills their entity is read again): only rows set aside made them.
    /// Returns whether it removed any; rows naming them then go in turn.
    func removeOrphanedPartners() throws(ImportError) -> Bool {
        guard !orphanCandidates.isEmpty else { return false }
        // The rows of objects removed so far are set aside first: they no longer stand.
        try rejectCascadedRows()
        var candidates: [_IndexKey: [[UInt8]: ObjectID]] = [:]
        for id in orphanCandidates where !cascadedIDs.contains(id) {
            guard let object = try? session.existing(id), !object.isDeleted else { continue }
            for name in keyAttributes(of: object.entity.name) {
                guard let ordinal = object.entity.columnIndex(of: name) else { continue }
                let key = _KeyBytes.with(object.value(at: ordinal)) { Array($0) }
                candidates[_IndexKey(entity: object.entity.name, attribute: name), default: [:]][key] = id
            }
        }
        orphanCandidates = []
        guard !candidates.isEmpty else { return false }
        var standing = Set<ObjectID>()
        try forEachKeyedRow(filling: Set(candidates.keys), purpose: "for the partners of rows set aside") {
            _, target, _, attribute, _, _, _, bytes in
            if let id = candidates[_IndexKey(entity: target.entity.name, attribute: attribute)]?[bytes] { standing.insert(id) }
            return false
        }
        var removed = false
        for id in Set(candidates.values.flatMap(\.values)).sorted(by: { ($0.entityID, $0.primaryKey) < ($1.entityID, $1.primaryKey) })
        where !standing.contains(id) && !cascadedIDs.contains(id) {
            guard let object = try? session.existing(id), !object.isDeleted else { continue }
            context.delete(object)
            changes += 1
            try forget(object, reason: "every row with its key was set aside with the rejected rows of \(file.displayPath)", rowRejected: true)
            // Its rows were set aside for its partner's key: it no longer counts as inserted.
            if let t = targets.indices.first(where: { targets[$0].entity.name == object.entity.name && keys[$0] != nil }) {
                inserted[t] -= 1
            } else if let target = session.plan.files.lazy.filter({ $0.position < self.file.position })
                .flatMap(\.targets).first(where: { $0.entity.name == object.entity.name && $0.key != nil }) {
                target.inserted -= 1
            }
            removed = true
        }
        // Rows that stand now may be set aside by later removals: those partners are looked at again.
        orphanCandidates = Array(standing)
        return removed
    }

    /// The key a record holds in `field`, as the import made it: a null token becomes the target's
    /// default for the attribute, or no key.
    static func key(_ field: _FieldPlan, of target: _TargetPlan, in record: CSVRawRecord) -> Value? {
        guard field.field < record.count else { return nil }
        return record.withBytes(at: field.field) { raw in
            let bytes = field.converter.fieldBytes(raw)
            if field.nulls.matches(bytes) && !record.isQuoted(at: field.field) {
                return field.nullValue >= 0 ? target.nullValues[field.nullValue] : nil
            }
            return field.converter.convert(bytes)
        }
    }

    /// Of `target`'s relationships into `destination`, the one whose column comes first in `record` and
    /// holds `value`: a row naming a removed key in two columns (manager and buddy) is reported at the first.
    static func firstColumn(naming value: Value, in destination: _KeyIndex, of target: _TargetPlan, record: CSVRawRecord) -> Int? {
        let wanted = _KeyBytes.with(value) { Array($0) }
        return target.relationships.indices
            .filter { target.relationships[$0].index === destination && target.relationships[$0].field < record.count }
            .sorted { target.relationships[$0].field < target.relationships[$1].field }
            .first { r in
                let relationship = target.relationships[r]
                let key: Value? = record.withBytes(at: relationship.field) { raw in
                    let bytes = relationship.converter.fieldBytes(raw)
                    if relationship.nulls.matches(bytes) && !record.isQuoted(at: relationship.field) { return nil }
                    return relationship.converter.convert(bytes)
                }
                return key.map { _KeyBytes.with($0) { Array($0) } } == wanted
            }
    }

    /// Sets aside the rows that made objects Cascade rules removed: each file so far that fills their
    /// entity by the key is read again, and every row with one of their keys goes to the rejects file.
    /// Rows already set aside are skipped. (Without a key, ``cascadedKeys`` names the objects instead.)
    func rejectCascadedRows() throws(ImportError) {
        guard !cascadedKeyValues.isEmpty else { return }
        defer { cascadedKeyValues = [:] }
        // The first row of a key inserted its object (files and rows in import order); later ones updated it.
        var seen: [_IndexKey: Set<[UInt8]>] = [:]
        try forEachKeyedRow(filling: Set(cascadedKeyValues.keys), purpose: "for rows removed through Cascade rules") {
            plan, target, field, attribute, record, reader, key, bytes in
            let indexKey = _IndexKey(entity: target.entity.name, attribute: attribute)
            guard let cause = cascadedKeyValues[indexKey]?[bytes] else { return false }
            // Named through a relationship column of this row: the reject points at that column.
            let failure: _RowFailure
            if let (name, destination, value) = cause.relationship,
               let r = Self.firstColumn(naming: value, in: destination, of: target, record: record)
                   ?? target.relationshipNames.firstIndex(of: name).flatMap({ target.relationships[$0].index === destination ? $0 : nil }) {
                failure = _RowFailure(field: target.relationships[r].field, entity: target.entity.name, attribute: target.relationshipNames[r],
                                      reason: "no \(destination.entity.name) has \(destination.attribute) \(_ImportSession.describe(value)) but in rows set aside",
                                      value: value.description)
            } else {
                failure = _RowFailure(field: field.field, entity: target.entity.name, attribute: attribute, reason: cause.reason, value: key.description)
            }
            try session.reject(plan, line: record.lineNumber, failure, raw: { reader.lastRecordRawBytes })
            if plan === file { rowsImported -= 1 } else { plan.rowsImported -= 1 }
            if seen[indexKey, default: []].insert(bytes).inserted {
                target.inserted -= 1
            } else {
                target.updated -= 1
            }
            // The row's other objects a removal took already (a Cascade rule, or the link that made them with
            // the object found): the row is visited once, by its first such target, so their counts go here.
            for other in plan.targets where other !== target {
                guard let (goneKey, goneBytes) = goneObject(of: other, in: plan, record: record) else { continue }
                if seen[goneKey, default: []].insert(goneBytes).inserted {
                    other.inserted -= 1
                } else {
                    other.updated -= 1
                }
            }
            // The row's other keyed objects: if no row standing has their keys, they go too.
            for other in plan.targets where other !== target {
                guard let index = other.key, let name = other.keyAttribute, let ordinal = other.entity.columnIndex(of: name),
                      let keyField = other.fields.first(where: { $0.ordinal == ordinal }),
                      let value = Self.key(keyField, of: other, in: record) else { continue }
                if let entry = index.find(value) {
                    orphanCandidates.append(index.objectID(entry))
                } else if index.isReleased, let holder = try session.firstHolder(of: value, in: index, besides: ObjectID(entityID: 0, primaryKey: 0)) {
                    // An earlier file's index, freed after its last file: the store finds the object.
                    orphanCandidates.append(holder.objectID)
                }
            }
            return true
        }
        // Join files read before this one: a pair with a removed object is gone from the join table (the
        // save takes it), so its row is set aside too and the pair no longer counts.
        for plan in session.plan.files where plan.position < file.position {
            guard let join = plan.join else { continue }
            let sources = cascadedKeyValues[_IndexKey(entity: join.sourceIndex.entity.name, attribute: join.sourceIndex.attribute)]
            let destinations = cascadedKeyValues[_IndexKey(entity: join.destinationIndex.entity.name, attribute: join.destinationIndex.attribute)]
            guard sources != nil || destinations != nil else { continue }
            var pairs = Set<[UInt8]>()
            do {
                let reader = try CSVReader(path: plan.path, dialect: plan.options.dialect)
                try reader.forEachRawRecord { record in
                    guard !plan.rejectedLines.contains(record.lineNumber), record.count > max(join.sourceField, join.destinationField) else { return }
                    func key(_ field: Int, _ converter: _FieldConverter) -> (value: Value, bytes: [UInt8])? {
                        let value: Value? = record.withBytes(at: field) { raw in
                            let bytes = converter.fieldBytes(raw)
                            if join.nulls.matches(bytes) && !record.isQuoted(at: field) { return nil }
                            return converter.convert(bytes)
                        }
                        return value.map { value in (value, _KeyBytes.with(value) { Array($0) }) }
                    }
                    guard let source = key(join.sourceField, join.sourceConverter),
                          let destination = key(join.destinationField, join.destinationConverter) else { return }
                    let (reason, field, index, value): (String, Int, _KeyIndex, Value)
                    if let why = sources?[source.bytes] {
                        (reason, field, index, value) = (why.reason, join.sourceField, join.sourceIndex, source.value)
                    } else if let why = destinations?[destination.bytes] {
                        (reason, field, index, value) = (why.reason, join.destinationField, join.destinationIndex, destination.value)
                    } else {
                        return
                    }
                    try session.reject(
                        plan, line: record.lineNumber,
                        _RowFailure(field: field, entity: index.entity.name, attribute: index.attribute, reason: reason,
                                    value: value.description),
                        raw: { reader.lastRecordRawBytes })
                    plan.rowsImported -= 1
                    // A repeated pair was stored, and counted, once.
                    let pair = withUnsafeBytes(of: source.bytes.count) { Array($0) } + source.bytes + destination.bytes
                    if pairs.insert(pair).inserted { plan.joinsAdded = max(0, plan.joinsAdded - 1) }
                }
            } catch let error as ImportError {
                throw error
            } catch {
                throw ImportError(.input, reason: "cannot read the join file again for pairs removed with rejected rows: \(error)", file: plan.displayPath)
            }
        }
    }

    /// The key (as ``rejectCascadedRows()`` counts rows by) of the object `target` made or updated from
    /// `record`, when a removal took that object: its key is among ``cascadedKeyValues``, or, for a target
    /// without a key found through its link, the key of the linked object it went with.
    func goneObject(of target: _TargetPlan, in plan: _FilePlan, record: CSVRawRecord) -> (_IndexKey, [UInt8])? {
        func cascaded(_ keyed: _TargetPlan) -> (_IndexKey, [UInt8])? {
            guard let name = keyed.keyAttribute, let ordinal = keyed.entity.columnIndex(of: name),
                  let field = keyed.fields.first(where: { $0.ordinal == ordinal }),
                  let value = Self.key(field, of: keyed, in: record) else { return nil }
            let indexKey = _IndexKey(entity: keyed.entity.name, attribute: name)
            let bytes = _KeyBytes.with(value) { Array($0) }
            return cascadedKeyValues[indexKey]?[bytes] == nil ? nil : (indexKey, bytes)
        }
        if target.keyAttribute != nil { return cascaded(target) }
        // Without a key, found through its link (a DeptInfo with its Dept): one object per key of the linked
        // target, which goes with that target's object.
        guard let through = target.keyThrough, let (linkedKey, bytes) = cascaded(plan.targets[through]) else { return nil }
        return (_IndexKey(entity: target.entity.name, attribute: "\(linkedKey.entity).\(linkedKey.attribute)"), bytes)
    }

    /// Deletes the objects a rejected row inserted (delete rules apply) and forgets their keys.
    func removeObjects(of reference: _ForwardReference) throws(ImportError) {
        rowsImported -= 1
        for t in 0..<targetCount {
            guard let id = forwardObjects[reference.objectsAt + t] else { continue }
            guard !cascadedIDs.contains(id) else {
                // Gone already with another rejected row (it named that row's object): the rows found for
                // such objects skip this one, rejected here, so its insert is taken back here.
                inserted[t] -= 1
                continue
            }
            let object = try session.existing(id)
            // A later row that stands upserted the object: it is that row's now, as if that row had inserted
            // it (and goes with that row, should it be rejected in turn).
            if let key = keys[t], let entry = key.find(object.value(at: key.ordinal)), key.objectID(entry) == id,
               let writers = laterWriters[t][entry], let heir = writers.first(where: { $0 > reference.line && !file.rejectedLines.contains($0) }) {
                updated[t] -= 1
                keptForLaterRows.append((id, t, reference.line, writers))
                // The later row updated what the rejected one made: without it, that row inserts.
                session.needsRerun = true
                // The heir's references share their row's slots: the first found sets them for all.
                if let j = try forwardIndex(ofLine: heir) { forwardObjects[forward[j].objectsAt + t] = id }
                continue
            }
            if let key = keys[t], let entry = key.find(object.value(at: key.ordinal)) {
                key.remove(entry)
                noteVacated(object.value(at: key.ordinal))
            }
            context.delete(object)
            for index in populates[t] { try vacate(index, object.value(at: index.ordinal), of: object) }
            inserted[t] -= 1
            changes += 1
            try unlinked(object)
        }
    }

    /// Removes the objects kept for later rows (``keptForLaterRows``) whose later rows were all rejected
    /// since; returns whether it removed any.
    func removeKeptObjectsOfRejectedRows() throws(ImportError) -> Bool {
        var removed = false
        var remaining: [(id: ObjectID, target: Int, line: Int, writers: [Int])] = []
        for kept in keptForLaterRows {
            if kept.writers.contains(where: { $0 > kept.line && !file.rejectedLines.contains($0) }) {
                remaining.append(kept)
                continue
            }
            // Gone already when the later row inserted it in turn (its forward reference took it along).
            guard !cascadedIDs.contains(kept.id), let object = try? session.existing(kept.id), !object.isDeleted else { continue }
            context.delete(object)
            inserted[kept.target] -= 1
            updated[kept.target] += 1
            changes += 1
            try forget(object, reason: "its \(object.entity.name) went with the rejected rows of \(file.displayPath) (the row that made it, and every later row with its key, were rejected)", rowRejected: true)
            removed = true
        }
        keptForLaterRows = remaining
        return removed
    }
}
