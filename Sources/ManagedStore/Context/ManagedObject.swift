import Foundation

/// An object of an entity, registered in one context: its values by property, its state, its ID.
///
/// Values live in a flat array indexed by the entity's column ordinals; relationships to many
/// are loaded the first time they are read. A fault holds only its ID until a value is read.
///
/// For example:
///
/// ```swift
/// let task = try context.insert("Task")
/// task["task_description"] = .string("Go to the bank")
/// task.set("priority", Int32(1))
/// let priority: Int32? = task.get("priority")
/// ```
public final class ManagedObject: Hashable, CustomStringConvertible {
    /// The object's entity.
    public let entity: Entity
    /// The object's ID: temporary until the first save.
    public internal(set) var objectID: ObjectID
    /// The context the object is registered in; `nil` once the context was reset or went away, or
    /// the object was deleted and saved.
    public var context: ManagedObjectContext? { contextReference?.takeUnretainedValue() }
    /// The context, unretained: the context clears it when it lets the object go or goes itself,
    /// which spares a weak reference's atomic traffic on every object and every change.
    @exclusivity(unchecked) var contextReference: Unmanaged<ManagedObjectContext>?
    // The hot state skips dynamic exclusivity checks: a context is used from one task at a time
    // and no accessor hands out overlapping inout access to these properties.
    /// Current values by column ordinal (empty while a fault).
    @exclusivity(unchecked) var values: ContiguousArray<Value>
    /// The values last read from or saved to the store (`nil` for inserted objects): the snapshot.
    @exclusivity(unchecked) var committed: ContiguousArray<Value>?
    /// The row's `Z_OPT` when it was read.
    @exclusivity(unchecked) var version: Int64 = 0
    /// The primary key a save in progress gives an inserted object.
    var savedKey: Int64 = 0
    /// Loaded to-many relationships by to-many ordinal (`nil` entries are not loaded yet).
    var toMany: [ToManySet?] = []
    /// Whether the object holds only its ID.
    @exclusivity(unchecked) public internal(set) var isFault: Bool
    /// Whether the object was inserted and not yet saved.
    @exclusivity(unchecked) public internal(set) var isInserted = false
    /// Whether the object has unsaved changes to a saved row.
    @exclusivity(unchecked) public internal(set) var isUpdated = false
    /// Whether the object is deleted (pending a save, or saved).
    public internal(set) var isDeleted = false

    init(entity: Entity, id: ObjectID, context: ManagedObjectContext?, values: ContiguousArray<Value>?) {
        self.entity = entity
        self.objectID = id
        self.contextReference = context.map { Unmanaged.passUnretained($0) }
        if let values {
            self.values = values
            self.isFault = false
        } else {
            self.values = []
            self.isFault = true
        }
    }

    /// Whether the object has changes a save would write.
    public var hasChanges: Bool { isInserted || isUpdated || isDeleted }

    public static func == (lhs: ManagedObject, rhs: ManagedObject) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    public var description: String {
        let state = isFault ? "fault" : entity.columns.indices.map { "\(entity.columns[$0].name)=\(values[$0])" }.joined(separator: ", ")
        return "<\(entity.name) \(objectID): \(state)>"
    }

    // MARK: Values by ordinal (hot paths)

    /// The value at column ordinal `index`, firing the fault if needed.
    ///
    /// - Complexity: O(1) once the fault has fired.
    @inline(__always)
    public func value(at index: Int) -> Value {
        if isFault { fireFault() }
        return values[index]
    }

    /// Sets the attribute at column ordinal `index` and records the change (no inverse upkeep: use
    /// ``setValue(_:forKey:)`` or ``setObject(_:forKey:)`` for relationships). A Float attribute
    /// keeps the value rounded to 32 bits (``Value/stored(as:)``).
    @inline(__always)
    public func setValue(_ value: Value, at index: Int) {
        if isFault { fireFault() }
        let value = entity.stored(value, at: index)
        if isInserted {
            values[index] = value
            return
        }
        guard values[index] != value else { return }
        values[index] = value
        if !isUpdated { context?.noteChanged(self) }
    }

    /// Fills a fault from the store (or the row cache). Does nothing to an object that is not a fault.
    public func fireFault() {
        guard isFault else { return }
        guard let context else {
            // The context is gone: nothing can be read any more; the object reads as nulls.
            values = ContiguousArray(repeating: .null, count: entity.columns.count)
            isFault = false
            return
        }
        context.fulfill(self)
    }

    // MARK: Values by key

    /// The value of the attribute or to-one relationship `key`.
    ///
    /// Reading or writing a key the entity lacks is a programming error and stops the program with
    /// a message naming the entity's keys; use ``value(forKey:)`` to get a thrown error instead.
    public subscript(key: String) -> Value {
        get {
            guard let index = entity.columnIndex(of: key) else { preconditionFailure(unknownKeyMessage(key)) }
            return value(at: index)
        }
        set {
            do { try setValue(newValue, forKey: key) } catch { preconditionFailure("\(error)") }
        }
    }

    /// The value of the attribute or to-one relationship `key`, or an error naming the closest keys.
    public func value(forKey key: String) throws(StoreError) -> Value {
        guard let index = entity.columnIndex(of: key) else { throw unknownKey(key) }
        return value(at: index)
    }

    /// Sets the attribute or to-one relationship `key`; a to-one keeps its inverse in step.
    ///
    /// The value's type is checked when the context saves (Core Data's 1550), not here.
    public func setValue(_ value: Value, forKey key: String) throws(StoreError) {
        guard let index = entity.columnIndex(of: key) else { throw unknownKey(key) }
        if let relationship = entity.columns[index].relationship {
            switch value {
            case .null: context?.setToOne(self, relationship, column: index, to: nil)
            case .object(let id): context?.setToOne(self, relationship, column: index, to: id)
            default: setValue(value, at: index)   // a wrong kind: validation reports it on save
            }
        } else {
            setValue(value, at: index)
        }
    }

    /// The destination of the to-one relationship `key`.
    public func object(forKey key: String) throws(StoreError) -> ManagedObject? {
        guard case .object(let id) = try value(forKey: key) else { return nil }
        return context?.object(with: id)
    }

    /// Sets the destination of the to-one relationship `key` (and its inverse).
    public func setObject(_ object: ManagedObject?, forKey key: String) throws(StoreError) {
        try setValue(object.map { .object($0.objectID) } ?? .null, forKey: key)
    }

    /// The destinations of the to-many relationship `key`, loading them on first use.
    public func objects(forKey key: String) throws(StoreError) -> [ManagedObject] {
        guard case .toMany(let index)? = entity.slot(of: key) else { throw unknownKey(key) }
        guard let context else { return [] }
        return try context.toManyIDs(of: self, index: index).map { context.object(with: $0) }
    }

    /// Adds `object` to the to-many relationship `key` (and sets the inverse).
    public func add(_ object: ManagedObject, toKey key: String) throws(StoreError) {
        guard case .toMany(let index)? = entity.slot(of: key) else { throw unknownKey(key) }
        try context?.addToMany(self, index: index, object, adding: true)
    }

    /// Inserts `object` at `position` of the ordered to-many relationship `key` (and sets the inverse);
    /// an object already there moves. The order is saved (Core Data's `Z_FOK_` column).
    ///
    /// For example:
    ///
    /// ```swift
    /// try playlist.insert(song, at: 0, intoKey: "songs")   // first in the playlist
    /// ```
    public func insert(_ object: ManagedObject, at position: Int, intoKey key: String) throws(StoreError) {
        guard case .toMany(let index)? = entity.slot(of: key) else { throw unknownKey(key) }
        guard entity.toManyRelationships[index].isOrdered else {
            throw .invalidRequest("\(entity.name).\(key) is not ordered: use add(_:toKey:), or mark the relationship ordered in the model")
        }
        guard let context else { return }
        try context.addToMany(self, index: index, object, adding: true)
        try context.move(object.objectID, to: position, in: self, index: index)
    }

    /// Moves the member at `from` to `to` in the ordered to-many relationship `key`.
    ///
    /// For example:
    ///
    /// ```swift
    /// try playlist.moveObject(at: 3, to: 0, forKey: "songs")
    /// ```
    public func moveObject(at from: Int, to: Int, forKey key: String) throws(StoreError) {
        let members = try objects(forKey: key)
        guard members.indices.contains(from) else {
            throw .invalidRequest("\(entity.name).\(key) has \(members.count) members; there is none at \(from)")
        }
        try insert(members[from], at: to, intoKey: key)
    }

    /// Removes `object` from the to-many relationship `key` (and clears the inverse).
    public func remove(_ object: ManagedObject, fromKey key: String) throws(StoreError) {
        guard case .toMany(let index)? = entity.slot(of: key) else { throw unknownKey(key) }
        try context?.addToMany(self, index: index, object, adding: false)
    }

    /// The values that differ from the last saved ones, by key (every set value for an inserted object).
    public func changedValues() -> [String: Value] {
        if isFault { return [:] }
        var changes: [String: Value] = [:]
        for (i, column) in entity.columns.enumerated() where committed == nil || committed![i] != values[i] {
            changes[column.name] = values[i]
        }
        return changes
    }

    /// The values as last saved or read, by key.
    public func committedValues() -> [String: Value] {
        guard let committed else { return [:] }
        return Dictionary(uniqueKeysWithValues: entity.columns.enumerated().map { ($1.name, committed[$0]) })
    }

    func unknownKey(_ key: String) -> StoreError {
        entity.unknownKey(key)
    }

    func unknownKeyMessage(_ key: String) -> String {
        "entity \(entity.name) has no attribute or to-one relationship '\(key)'; its keys: " + entity.propertyNames.joined(separator: ", ")
    }
}

/// A loaded to-many relationship: destination IDs in order, with a set for membership.
struct ToManySet {
    private(set) var ids: [ObjectID] = []
    private var members: Set<ObjectID> = []

    init(_ ids: [ObjectID] = []) {
        for id in ids { insert(id) }
    }

    var count: Int { ids.count }
    func contains(_ id: ObjectID) -> Bool { members.contains(id) }

    mutating func insert(_ id: ObjectID) {
        if members.insert(id).inserted { ids.append(id) }
    }

    mutating func remove(_ id: ObjectID) {
        if members.remove(id) != nil, let i = ids.firstIndex(of: id) { ids.remove(at: i) }
    }

    /// Moves a member to `position` (clamped to the set).
    mutating func move(_ id: ObjectID, to position: Int) {
        guard let from = ids.firstIndex(of: id) else { return }
        ids.remove(at: from)
        ids.insert(id, at: max(0, min(position, ids.count)))
    }

    mutating func remap(_ permanent: (ObjectID) -> ObjectID) {
        guard ids.contains(where: \.isTemporary) else { return }
        self = ToManySet(ids.map(permanent))
    }
}
