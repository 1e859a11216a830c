import CSQLite

/// Batch boundaries of bulk loaders: save the inserts, then forget everything.
extension ManagedObjectContext {
    /// Saves the pending changes and resets the context in one step: the batch boundary of a loader
    /// that inserts many objects and keeps only their IDs (the seed importer).
    ///
    /// When inserts are the only pending changes (no updates, deletes, join-table changes, observers
    /// or parent), the objects are validated and written exactly as ``save()`` writes them, with two
    /// savings a reset makes possible: text is bound from one reused buffer rather than copied by SQLite
    /// per value, and the saved objects are not registered or snapshotted, since the reset forgets them.
    /// Each keeps its permanent ``ManagedObject/objectID``, so the caller can record it. Otherwise this is
    /// ``save()`` followed by ``reset()``. On failure nothing is written and the context keeps its changes.
    ///
    /// For example:
    ///
    /// ```swift
    /// var pending: [ManagedObject] = []
    /// for row in rows {
    ///     pending.append(context.insert(entity, values: row))
    ///     if pending.count == 10_000 {
    ///         try context.saveAndReset()
    ///         keys += pending.map(\.objectID)   // permanent now
    ///         pending.removeAll()
    ///     }
    /// }
    /// ```
    public func saveAndReset() throws(StoreError) {
        guard parent == nil, observers.isEmpty, deletedList.isEmpty, pendingJoins.isEmpty,
              !updatedList.contains(where: { $0.isUpdated }), !store.isReadOnly else {
            try save()
            reset()
            return
        }
        guard liveInserted > 0 else {
            reset()
            return
        }
        var failures: [ValidationFailure] = []
        for object in insertedList where object.isInserted { failures += try validate(object) }
        guard failures.isEmpty else { throw .validation(failures) }
        try inWriteTransaction {
            let byEntity = insertedByEntity()
            try assignPrimaryKeys(byEntity)
            try writeInserts(byEntity)
        }
        for object in insertedList where object.isInserted {
            object.objectID = ObjectID(entityID: object.entity.id, primaryKey: object.savedKey)
            object.isInserted = false
        }
        reset()
    }

    /// The inserted objects by entity number, in insertion order.
    func insertedByEntity() -> [[ManagedObject]] {
        var byEntity = [[ManagedObject]](repeating: [], count: model.entities.count + 1)
        for object in insertedList where object.isInserted { byEntity[Int(object.entity.id)].append(object) }
        return byEntity
    }

    /// Gives each inserted object its primary key from `Z_PRIMARYKEY` (one read and one write per
    /// entity), all before any INSERT, so a to-one can point at an object of an entity written later.
    func assignPrimaryKeys(_ byEntity: [[ManagedObject]]) throws {
        let connection = store.connection
        for (entityIndex, objects) in byEntity.enumerated() where !objects.isEmpty {
            let entityID = Int64(entityIndex)
            var next = try connection.scalar("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?", [.integer(entityID)])?.int64 ?? 0
            for object in objects {
                next += 1
                object.savedKey = next
            }
            try connection.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?", [.integer(next), .integer(entityID)])
        }
    }

    /// The INSERTs of a save: one cached statement per entity; to-ones bind their saved keys, text binds
    /// from one reused buffer instead of a copy per value.
    func writeInserts(_ byEntity: [[ManagedObject]]) throws {
        let connection = store.connection
        let text = _BulkTextBuffer()
        for (entityIndex, objects) in byEntity.enumerated() where !objects.isEmpty {
            let entity = model.entities[entityIndex - 1]
            let entityID = Int64(entity.id)
            let columns = entity.columns.map(\.columnName)
            let sql = "INSERT INTO \(entity.tableName) (Z_PK, Z_ENT, Z_OPT\(columns.map { ", " + $0 }.joined())) VALUES (?, ?, 1\(String(repeating: ", ?", count: columns.count)))"
            let statement = try connection.cachedStatement(sql)
            let handle = statement.handle
            let logs = connection.sqlDebugLevel >= 2
            // No statement may point into the buffer once it is gone.
            defer { sqlite3_clear_bindings(handle) }
            for object in objects {
                statement.reset()
                statement.bind(object.savedKey, at: 1)
                statement.bind(entityID, at: 2)
                object.values.withUnsafeBufferPointer { values in
                    // Text goes into one buffer first (it must not move while bound), then binds without copies.
                    if !logs { text.fill(values) }
                    var nextText = 0
                    for i in values.indices {
                        let index = Int32(i + 3)
                        switch values[i] {
                        case .object(let id):
                            statement.bind(permanent(id).primaryKey, at: index)
                        case .string where !logs:
                            let (start, count) = text.span(nextText)
                            nextText += 1
                            _ = sqlite3_bind_text64(handle, index, start, sqlite3_uint64(count), _seedstore_sqlite_static(), UInt8(SQLITE_UTF8))
                        default:
                            statement.bind(value: values[i], at: index)
                        }
                    }
                }
                try statement.run()
            }
        }
    }
}

/// The text values of one row, back to back in a reused buffer, so they can be bound without a copy each.
private final class _BulkTextBuffer {
    // One save's buffer, used on its thread only: no dynamic exclusivity checks on each row's appends
    // (they were a third of this buffer's time).
    @exclusivity(unchecked) private var bytes: UnsafeMutablePointer<CChar>
    @exclusivity(unchecked) private var capacity: Int
    @exclusivity(unchecked) private var spans: [(start: Int, count: Int)] = []

    init() {
        capacity = 4096
        bytes = .allocate(capacity: capacity)
    }

    /// Copies every `.string` of `values`, in order.
    func fill(_ values: UnsafeBufferPointer<Value>) {
        spans.removeAll(keepingCapacity: true)
        var needed = 0
        for value in values { if case .string(let text) = value { needed += text.utf8.count } }
        if needed > capacity {
            bytes.deallocate()
            capacity = max(needed, capacity * 2)
            bytes = .allocate(capacity: capacity)
        }
        var offset = 0
        for value in values {
            guard case .string(var text) = value else { continue }
            let count = text.withUTF8 { utf8 in
                if let base = utf8.baseAddress {
                    UnsafeMutableRawPointer(bytes + offset).copyMemory(from: base, byteCount: utf8.count)
                }
                return utf8.count
            }
            spans.append((offset, count))
            offset += count
        }
    }

    /// The `n`th string's bytes.
    func span(_ n: Int) -> (UnsafePointer<CChar>, Int) {
        (UnsafePointer(bytes + spans[n].start), spans[n].count)
    }

    deinit { bytes.deallocate() }
}
