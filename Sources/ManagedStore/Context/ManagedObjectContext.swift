import Foundation
import Synchronization

/// Hands out context serials, so temporary IDs are unique across contexts (parents and children).
private let contextSerials = Atomic<Int64>(0)

/// A scratchpad of managed objects over a store: insert, fetch, change, delete, then save as one transaction.
///
/// A context keeps one object per row (uniquing), tracks what changed, keeps relationship inverses in
/// step, runs delete rules and validation on save, and can roll back or reset. It is not thread-safe.
///
/// For example:
///
/// ```swift
/// let context = ManagedObjectContext(store: store)
/// let task = try context.insert("Task")
/// task["task_description"] = .string("Go to the bank")
/// task["priority"] = .integer(1)
/// try context.save()
/// ```
public final class ManagedObjectContext {
    /// The store the context reads from (and, without a parent, saves to).
    public let store: PersistentStore
    /// The context a child context saves into; `nil` for a context over the store.
    public let parent: ManagedObjectContext?
    /// This context's serial: the high bits of its temporary keys.
    let serial: Int64
    /// The store's model.
    public var model: ObjectModel { store.model }
    /// Saved objects by ID.
    @exclusivity(unchecked) var registry = ObjectRegistry()
    /// Inserted objects in insertion order; temporary key `k` sits at index `k - 1 - temporaryBase`.
    var insertedList: [ManagedObject] = []
    var temporaryBase: Int64 = 0
    /// Inserted objects not yet saved, rolled back or deleted.
    var liveInserted = 0
    var updatedList: [ManagedObject] = []
    var deletedList: [ManagedObject] = []
    var pendingJoins: [JoinPair: Bool] = [:]
    var nextTemporaryKey: Int64 = 1
    /// Anything the app wants to keep with the context, as Core Data's `userInfo`.
    public var userInfo: [String: Any] = [:]
    /// Whether a save adds one to the `Z_OPT` (Core Data's optimistic-locking version) of each row it
    /// updates; `true` by default, as in Core Data. A seed import, which owns the store it writes, turns it
    /// off, so the store it writes is the same whatever its batch size (an object made in one batch and
    /// updated in the next would otherwise end at version 2, and at 1 when both fell in one batch).
    ///
    /// For example:
    ///
    /// ```swift
    /// let context = ManagedObjectContext(store: store)
    /// context.countsVersions = false   // every row keeps Z_OPT 1 through this context's saves
    /// ```
    public var countsVersions = true
    var observers: [Int: (ContextChange) -> Void] = [:]
    var nextObserverKey = 0
    /// Objects whose pending change observers were already told about.
    var notified = Set<ObjectIdentifier>()
    /// Faults fired since the context was made (each cost one statement unless batched).
    @exclusivity(unchecked) public internal(set) var faultsFired = 0
    /// Faults that had to read their row from the store (one statement each).
    @exclusivity(unchecked) public internal(set) var faultsFiredFromStore = 0
    /// Objects made from rows since the context was made.
    @exclusivity(unchecked) public internal(set) var objectsMaterialized = 0
    /// Join-table rows this context's saves have written since it was made: a pair the table already
    /// held (added again, or added twice) is not counted, so this is what many-to-many adds stored.
    ///
    /// For example:
    ///
    /// ```swift
    /// let before = context.joinRowsInserted
    /// try bank.add(tag, toKey: "tags")
    /// try bank.add(tag, toKey: "tags")   // the same pair: stored once
    /// try context.save()
    /// print(context.joinRowsInserted - before)   // 1
    /// ```
    public internal(set) var joinRowsInserted = 0

    /// Makes a context over `store`.
    public init(store: PersistentStore) {
        self.store = store
        self.parent = nil
        self.serial = contextSerials.add(1, ordering: .relaxed).newValue & 0x3F_FFFF
    }

    /// Makes a child context: it sees the parent's unsaved changes, and its ``save()`` pushes its
    /// changes into the parent (which a save of the parent then writes), as Core Data's child contexts do.
    ///
    /// A child's fetches, `fetchAll(_:)`, counts and to-many relationships take in the unsaved inserts,
    /// changes and deletes of every context above it. Its save refuses (``StoreError/invalidRequest(_:)``,
    /// nothing pushed) a change that could not land: one to an object a parent inserted and has since
    /// saved, rolled back or deleted, and an edit to the values of an object a parent deleted and has
    /// not saved (the delete would win). Links to such an object go through; the delete's rules take
    /// care of them when the parent saves, as in one context.
    ///
    /// For example:
    ///
    /// ```swift
    /// let editor = ManagedObjectContext(parent: context)
    /// let book = try editor.insert("Book")
    /// ...
    /// try editor.save()    // into `context`
    /// try context.save()   // into the store
    /// ```
    public init(parent: ManagedObjectContext) {
        self.store = parent.store
        self.parent = parent
        self.serial = contextSerials.add(1, ordering: .relaxed).newValue & 0x3F_FFFF
    }

    /// The temporary key of the `n`th object this context inserts.
    @inline(__always)
    func temporaryKey(_ n: Int64) -> Int64 { -((serial << 40) | n) }

    deinit {
        for object in registry.values { object.contextReference = nil }
        for object in insertedList { object.contextReference = nil }
    }

    // MARK: State

    /// Whether anything would be written by ``save()``.
    public var hasChanges: Bool {
        liveInserted > 0 || !deletedList.isEmpty || !pendingJoins.isEmpty || updatedList.contains { $0.isUpdated }
    }

    /// Objects inserted and not yet saved.
    public var insertedObjects: Set<ManagedObject> { Set(insertedList.filter { $0.isInserted }) }
    /// Saved objects with unsaved changes.
    public var updatedObjects: Set<ManagedObject> { Set(updatedList.filter { $0.isUpdated && !$0.isDeleted }) }
    /// Objects to be deleted by the next save.
    public var deletedObjects: Set<ManagedObject> { Set(deletedList) }
    /// Every object the context holds.
    public var registeredObjects: Set<ManagedObject> { Set(registry.values + insertedList.filter(\.isInserted)) }

    // MARK: Inserting and finding

    /// Inserts a new object of the entity called `entityName`, with its default values.
    public func insert(_ entityName: String) throws(StoreError) -> ManagedObject {
        insert(try store.entity(named: entityName))
    }

    /// Inserts a new object of `entity`, with its default values.
    ///
    /// - Complexity: O(number of columns).
    public func insert(_ entity: Entity) -> ManagedObject {
        insert(entity, values: entity.defaultValues)
    }

    /// Inserts a new object of `entity` with all its column values at once, by ordinal
    /// (attributes, then to-one relationships: ``Entity/columns``). The fast path of loaders.
    ///
    /// To-one values set this way do not update inverses held in memory; a save writes them as given.
    /// Float attributes keep their values rounded to 32 bits (``Value/stored(as:)``), as
    /// ``ManagedObject/setValue(_:at:)`` keeps them.
    ///
    /// For example:
    ///
    /// ```swift
    /// let task = context.insert(taskEntity, values: [.string("Go to the bank"), .integer(1), .bool(false)])
    /// ```
    ///
    /// - Precondition: `values.count == entity.columns.count`. A loader builds its rows from the entity's
    ///   columns, so another count is a programming error and stops the program with a message giving
    ///   both counts (this fast path does not throw); values of the wrong kind are reported by the save's
    ///   validation, as for any insert.
    /// - Complexity: O(1) apart from copying `values`.
    public func insert(_ entity: Entity, values: ContiguousArray<Value>) -> ManagedObject {
        guard values.count == entity.columns.count else { fatalError("\(entity.name) has \(entity.columns.count) columns, \(values.count) values given") }
        let id = ObjectID(entityID: entity.id, primaryKey: temporaryKey(nextTemporaryKey))
        nextTemporaryKey += 1
        var values = values
        for ordinal in entity.floatOrdinals { values[ordinal] = values[ordinal].stored(as: .float) }
        let object = ManagedObject(entity: entity, id: id, context: self, values: values)
        object.isInserted = true
        insertedList.append(object)
        liveInserted += 1
        return object
    }

    /// Inserts a new object and wraps it in its typed view.
    public func insert<T: ManagedObjectType>(_ type: T.Type) throws(StoreError) -> T {
        T(object: try insert(T.entityName))
    }

    /// The object with `id`: the registered one, or a fault that fires when a value is read.
    ///
    /// For example:
    ///
    /// ```swift
    /// let book = context.object(with: bookID)   // a fault until a value is read
    /// ```
    ///
    /// - Precondition: `id.entityID` is an entity of the model; an ID of another model stops the
    ///   program, as Core Data's `object(with:)` raises. For IDs that come from outside (a request,
    ///   a file), use ``existingObject(with:)``, which throws instead.
    /// - Complexity: O(1).
    public func object(with id: ObjectID) -> ManagedObject {
        if let object = registered(id) { return object }
        guard let entity = model.entity(id: id.entityID) else {
            fatalError("\(unknownEntity(id)) (object(with:) stops the program on this; existingObject(with:) throws it instead)")
        }
        if let parent, let mirror = mirror(of: id, in: parent) { return mirror }
        // An unknown temporary ID (an object rolled back or deleted) gets a detached fault.
        let mine = id.isTemporary && (-id.primaryKey) >> 40 == serial
        let object = ManagedObject(entity: entity, id: id, context: mine ? nil : self, values: nil)
        if !mine { registry[id] = object }
        return object
    }

    /// The object registered under `id` (saved or inserted), without making a fault.
    ///
    /// - Complexity: O(1).
    @inline(__always)
    func registered(_ id: ObjectID) -> ManagedObject? {
        guard id.isTemporary, (-id.primaryKey) >> 40 == serial else { return registry[id] }
        let index = Int((-id.primaryKey) & 0xFF_FFFF_FFFF) - 1 - Int(temporaryBase)
        guard index >= 0, index < insertedList.count else { return nil }
        let object = insertedList[index]
        return object.isInserted ? object : nil
    }

    /// The object with `id`, read from the store now; throws when no such row exists.
    ///
    /// For example:
    ///
    /// ```swift
    /// let book = try context.existingObject(with: ObjectID(entityID: bookEntity.id, primaryKey: 42))
    /// ```
    ///
    /// - Throws: ``StoreError/invalidRequest(_:)`` when the model has no entity `id.entityID` (an ID of
    ///   another model or store), when `id` is the temporary ID of an object this context (and its
    ///   parents) does not hold, or when the store has no such row; SQLite's error when reading fails.
    public func existingObject(with id: ObjectID) throws(StoreError) -> ManagedObject {
        guard let entity = model.entity(id: id.entityID) else { throw unknownEntity(id) }
        if id.isTemporary && !holdsInserted(id) {
            throw .invalidRequest("\(entity.name) \(id) is the temporary ID of an object this context does not hold "
                                  + "(inserted in another context and not saved yet, or rolled back or deleted); save the context that inserted it, "
                                  + "then look it up by its permanent objectID")
        }
        let object = object(with: id)
        if object.isFault {
            guard try loadRow(object) else {
                registry[id] = nil
                throw .invalidRequest("no \(object.entity.name) with primary key \(id.primaryKey) exists in the store")
            }
        }
        return object
    }

    /// The object registered under `id`, without making a fault.
    public func registeredObject(for id: ObjectID) -> ManagedObject? { registered(id) }

    /// The error for an ID whose entity number the model lacks.
    func unknownEntity(_ id: ObjectID) -> StoreError {
        .invalidRequest("the model has no entity number \(id.entityID) (it has 1...\(model.entities.count): "
                        + model.entities.map(\.name).joined(separator: ", ") + "), so there is no object \(id): "
                        + "the ID comes from another model or store; build IDs with the entity's id from this store's model (store.entity(named:).id)")
    }

    // MARK: Faults

    /// Fills a fault from the store; a row that is gone leaves null values.
    func fulfill(_ object: ManagedObject) {
        faultsFired += 1
        if let snapshot = object.committed {
            // The row came with the fetch: the snapshot is at hand, no statement needed.
            object.values = snapshot
            object.isFault = false
            return
        }
        if let parent, let source = parent.registeredObject(for: object.objectID), !source.isFault || source.committed != nil {
            // A child reads what its parent holds, unsaved changes included.
            let values = source.isFault ? source.committed! : source.values
            object.values = values
            object.committed = values
            object.isFault = false
            return
        }
        faultsFiredFromStore += 1
        if (try? loadRow(object)) != true {
            object.values = ContiguousArray(repeating: .null, count: object.entity.columns.count)
            object.isFault = false
        }
    }

    /// Reads one object's row by primary key through a cached statement.
    @discardableResult
    func loadRow(_ object: ManagedObject) throws(StoreError) -> Bool {
        let entity = object.entity
        let plan = rowPlan(for: entity)
        do {
            let statement = try store.connection.cachedStatement(plan.selectByKey)
            statement.bind(object.objectID.primaryKey, at: 1)
            defer { statement.reset() }
            guard try statement.step() else { return false }
            fill(object, from: statement, plan: plan, firstColumn: 0)
            return true
        } catch { throw StoreError(error, storePath: store.path) }
    }

    /// Fills `object` from the current row: `Z_OPT` at `firstColumn`, then the entity's columns.
    @inline(__always)
    func fill(_ object: ManagedObject, from statement: Statement, plan: RowPlan, firstColumn: Int32) {
        object.version = statement.int64(at: firstColumn)
        var values = ContiguousArray<Value>()
        values.reserveCapacity(plan.codecs.count)
        var column = firstColumn + 1
        for codec in plan.codecs {
            values.append(codec.read(statement, column))
            column += 1
        }
        object.values = values
        object.committed = values
        object.isFault = false
        objectsMaterialized += 1
        if let parent { overlayParent(parent, on: object) }
    }

    /// Makes or refreshes the object of the current row (`Z_PK` at `firstColumn`, then `Z_OPT` and the columns).
    /// An object with unsaved changes keeps them.
    @inline(__always)
    func materialize(_ statement: Statement, plan: RowPlan, firstColumn: Int32 = 0) -> ManagedObject {
        let id = ObjectID(entityID: plan.entity.id, primaryKey: statement.int64(at: firstColumn))
        let object = registry.object(for: id) { ManagedObject(entity: plan.entity, id: id, context: self, values: nil) }
        if object.isFault { fill(object, from: statement, plan: plan, firstColumn: firstColumn + 1) }
        return object
    }

    /// Turns `object` back into a fault to free its values (`mergeChanges: false` drops unsaved changes),
    /// or, with `mergeChanges: true`, re-reads the row and keeps the unsaved changes on top.
    public func refresh(_ object: ManagedObject, mergeChanges: Bool) {
        guard !object.isInserted, !object.isFault else { return }
        if mergeChanges {
            let changes = object.changedValues()
            _ = try? loadRow(object)
            for (key, value) in changes { if let i = object.entity.columnIndex(of: key) { object.values[i] = value } }
            return
        }
        if object.isDeleted { deletedList.removeAll { $0 === object }; object.isDeleted = false }
        discardRelationshipEdits(of: object)
        object.isUpdated = false
        object.values = []
        object.committed = nil
        object.toMany = []
        object.isFault = true
    }

    /// Before `object` drops its unsaved changes: the objects on the other side of a to-one it changed
    /// (the old and the new destination), and of its pending many-to-many links, hold loaded to-many sets
    /// that include the edit. Those sets are unloaded, to be read again from the store and the changes that
    /// remain, and the pending links go with the object's other changes.
    private func discardRelationshipEdits(of object: ManagedObject) {
        var touched: [ObjectID] = []
        if object.isUpdated, let committed = object.committed, committed.count == object.values.count {
            for (i, column) in object.entity.columns.enumerated() where column.relationship != nil && object.values[i] != committed[i] {
                for case .object(let id) in [object.values[i], committed[i]] { touched.append(id) }
            }
        }
        let id = object.objectID
        for pair in pendingJoins.keys where pair.first == id || pair.second == id {
            touched.append(pair.first == id ? pair.second : pair.first)
            pendingJoins[pair] = nil
        }
        for id in touched { registered(id)?.toMany = [] }
    }

    // MARK: Changes

    /// Records that `object` changed.
    @inline(__always)
    func noteChanged(_ object: ManagedObject) {
        guard !object.isInserted, !object.isUpdated else { return }
        object.isUpdated = true
        updatedList.append(object)
    }

    /// Marks `object` for deletion; the next save deletes its row and runs its relationships' delete rules.
    ///
    /// For example:
    ///
    /// ```swift
    /// context.delete(book)
    /// try context.save()
    /// ```
    ///
    /// Deleting an object again, or one whose deletion was saved, does nothing.
    ///
    /// - Precondition: `object` is registered in this context, as in Core Data (which raises on an object
    ///   of another context). An object of another context, or one its context let go (reset, released,
    ///   rolled back), is a programming error that stops the program naming the object: fetch it in this
    ///   context (``existingObject(with:)``) and delete that.
    public func delete(_ object: ManagedObject) {
        guard object.context === self else {
            if object.context == nil && object.isDeleted { return }
            let whose = object.context == nil ? object.detachedReason : "it belongs to another context"
            fatalError("cannot delete the \(object.entity.name) \(object.objectID) in this context: \(whose); "
                + "delete this context's copy, context.existingObject(with: objectID), instead")
        }
        guard !object.isDeleted else { return }
        if object.isInserted {
            // Never saved: forget it, and take it out of the relationships it joined.
            detachInserted(object)
            return
        }
        if object.isFault { object.fireFault() }
        object.isDeleted = true
        deletedList.append(object)
    }

    /// Drops every unsaved change: inserted objects go, updated and deleted ones return to their saved values.
    ///
    /// Observers (``observeChanges(_:)``, a ``FetchedResultsController``) hear of the way back: the
    /// inserted objects as deleted, the deleted ones as inserted, the updated ones as updated.
    ///
    /// For example:
    ///
    /// ```swift
    /// context.delete(book)
    /// context.rollback()   // book is back, and a controller showing books lists it again
    /// ```
    public func rollback() {
        let change = observers.isEmpty || !hasChanges ? nil : ContextChange(
            inserted: deletedList, updated: updatedList.filter { $0.isUpdated && !$0.isDeleted },
            deleted: insertedList.filter(\.isInserted), isSave: false)
        for object in insertedList where object.isInserted {
            object.isInserted = false
            object.contextReference = nil
        }
        for object in updatedList + deletedList {
            if let committed = object.committed { object.values = committed }
            object.isUpdated = false
            object.isDeleted = false
            object.toMany = []
        }
        // Loaded to-many sets may hold rolled-back changes: unload them all.
        for object in registry.values where !object.toMany.isEmpty { object.toMany = [] }
        clearChangeLists()
        if let change { notify(change) }
    }

    /// Empties the change lists: after a save, a rollback or a reset.
    func clearChangeLists() {
        insertedList = []
        temporaryBase = nextTemporaryKey - 1
        liveInserted = 0
        updatedList = []
        deletedList = []
        pendingJoins = [:]
        notified = []
    }

    /// Forgets every object and change: the context is as new. Objects it held can no longer be used.
    public func reset() {
        for object in registry.values { object.contextReference = nil }
        for object in insertedList { object.contextReference = nil }
        registry = ObjectRegistry()
        clearChangeLists()
    }

    // MARK: Fetching all

    /// Fetches every object of the entity called `entityName`, in primary-key order, with unsaved
    /// inserts included and unsaved deletes left out (in a child context, its parents' too).
    ///
    /// For example:
    ///
    /// ```swift
    /// let books = try context.fetchAll("Book")
    /// ```
    public func fetchAll(_ entityName: String) throws(StoreError) -> [ManagedObject] {
        // A child also sees its parents' unsaved inserts and deletes: the fetch path merges them.
        if parent != nil { return Array(try fetch(FetchRequest(entityName: entityName))) }
        let entity = try store.entity(named: entityName)
        let plan = rowPlan(for: entity)
        var result: [ManagedObject] = []
        do {
            let statement = try store.connection.cachedStatement(plan.selectAll)
            while try statement.step() {
                let object = materialize(statement, plan: plan)
                if !object.isDeleted { result.append(object) }
            }
        } catch { throw StoreError(error, storePath: store.path) }
        for object in insertedList where object.isInserted && object.entity === entity { result.append(object) }
        return result
    }

    // MARK: Row plans

    var rowPlans: [Int32: RowPlan] = [:]

    /// The statements and codecs to read rows of `entity`, made once per entity.
    func rowPlan(for entity: Entity) -> RowPlan {
        if let plan = rowPlans[entity.id] { return plan }
        let plan = RowPlan(entity: entity)
        rowPlans[entity.id] = plan
        return plan
    }
}

/// How to read rows of one entity: its column list, select statements and per-column codecs.
final class RowPlan {
    let entity: Entity
    let codecs: [ColumnCodec]
    /// `Z_PK, Z_OPT, <columns>` — the select list every full-object read uses.
    let selectList: String
    let selectAll: String
    let selectByKey: String

    init(entity: Entity) {
        self.entity = entity
        self.codecs = entity.columns.map { ColumnCodec($0, entity: entity) }
        let columns = entity.columns.map { "t0." + $0.columnName }
        self.selectList = (["t0.Z_PK", "t0.Z_OPT"] + columns).joined(separator: ", ")
        self.selectAll = "SELECT \(selectList) FROM \(entity.tableName) t0 ORDER BY t0.Z_PK"
        self.selectByKey = "SELECT t0.Z_OPT\(columns.isEmpty ? "" : ", " + columns.joined(separator: ", ")) FROM \(entity.tableName) t0 WHERE t0.Z_PK = ?"
    }
}

/// A pending change to a many-to-many join table, in a fixed orientation (columns in name order).
struct JoinPair: Hashable {
    let table: String
    let first: ObjectID
    let second: ObjectID
}

/// One join-table row to write: the table (its position in ``ObjectModel/joinTables``), the source
/// column's primary key, then the destination column's (the table's key order); a mirror is the other
/// way round of a symmetric table's pair, written with it but not counted.
struct JoinRow {
    var table: Int
    var source: Int64
    var destination: Int64
    var added: Bool
    var isMirror = false
}
