import Foundation

/// An object of an entity, registered in one context: its values by property, its state, its ID.
///
/// Values live in a flat array indexed by the entity's column ordinals; relationships to many
/// are loaded the first time they are read. A fault holds only its ID until a value is read.
///
/// An object does not keep its context alive. Once the context is reset or released (or the object's
/// deletion saved), the key-based accessors that change it or follow its relationships throw
/// ``StoreError/invalidRequest(_:)``, as does reading a fault whose row was never read; values read
/// before (a fetch reads rows with the objects by default) stay readable.
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
    /// Whether the object was a fault without a snapshot when its context was gone, so its values are
    /// nulls it never read.
    var readWithoutContext = false

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
            // The context is gone. A fault fetched with its row fires from that snapshot, as it would
            // with the context; one without reads as nulls through the ordinal accessors, and the
            // key-based ones throw (``liveContext()``).
            if let committed, committed.count == entity.columns.count {
                values = committed
            } else {
                values = ContiguousArray(repeating: .null, count: entity.columns.count)
                readWithoutContext = true
            }
            isFault = false
            return
        }
        context.fulfill(self)
    }

    // MARK: Values by key

    /// The value of the attribute or to-one relationship `key`.
    ///
    /// For example:
    ///
    /// ```swift
    /// book["title"] = .string("Emma")
    /// if case .string(let title) = book["title"] { print(title) }
    /// ```
    ///
    /// - Precondition: `key` is an attribute or to-one relationship of the entity, a value set is one
    ///   ``setValue(_:forKey:)`` accepts, and the object is in a context (or, to read, holds its row).
    ///   Anything else is a programming error and stops the program with the error ``value(forKey:)`` or
    ///   ``setValue(_:forKey:)`` would throw (the entity's closest keys, the API a to-many key needs, or
    ///   why the object is in no context); call those to get a thrown ``StoreError`` instead, for keys
    ///   that come from input.
    public subscript(key: String) -> Value {
        get {
            do { return try value(forKey: key) } catch { fatalError(trapMessage(error, "the subscript", throwing: "value(forKey:)")) }
        }
        set {
            do { try setValue(newValue, forKey: key) } catch { fatalError(trapMessage(error, "the subscript", throwing: "setValue(_:forKey:)")) }
        }
    }

    /// The value of the attribute or to-one relationship `key`.
    ///
    /// For example:
    ///
    /// ```swift
    /// let title = try book.value(forKey: "title")   // .string("Emma")
    /// ```
    ///
    /// - Throws: ``StoreError/unknownKey(entity:key:suggestions:)`` naming the closest keys for a key
    ///   the entity lacks; ``StoreError/invalidProperty(entity:property:reason:)`` for a to-many
    ///   relationship, saying to read it with ``objects(forKey:)``; ``StoreError/invalidRequest(_:)`` for
    ///   a fault whose context is gone (reset or released) and whose row was never read. Values read while
    ///   the context lived stay readable, a fetched fault's row included.
    public func value(forKey key: String) throws(StoreError) -> Value {
        let index = try columnIndex(of: key, for: .value)
        // Values read while the context lived stay readable (a fault fetched with its row included); a
        // fault's without it would be nulls it never read.
        if context == nil {
            if isFault { fireFault() }
            if readWithoutContext { _ = try liveContext() }
        }
        return value(at: index)
    }

    /// Sets the attribute or to-one relationship `key`; a to-one keeps its inverse in step.
    ///
    /// The value's type is checked when the context saves (Core Data's 1550), not here; a to-one's
    /// destination is checked here: it must be an object of this context (or, in a child context, one
    /// its parent inserted), as in Core Data.
    ///
    /// For example:
    ///
    /// ```swift
    /// try book.setValue(.string("Emma"), forKey: "title")
    /// try book.setValue(.object(author.objectID), forKey: "author")
    /// ```
    ///
    /// - Throws: ``StoreError/unknownKey(entity:key:suggestions:)`` for a key the entity lacks;
    ///   ``StoreError/invalidProperty(entity:property:reason:)`` for a to-many relationship, or for a
    ///   to-one set to the ID of an unsaved object of another context or of an entity the model lacks.
    public func setValue(_ value: Value, forKey key: String) throws(StoreError) {
        let index = try columnIndex(of: key, for: .value)
        let context = try liveContext()
        if let relationship = entity.columns[index].relationship {
            switch value {
            case .null: context.setToOne(self, relationship, column: index, to: nil)
            case .object(let id):
                try context.checkDestination(id, of: self, key: key)
                context.setToOne(self, relationship, column: index, to: id)
            default: setValue(value, at: index)   // a wrong kind: validation reports it on save
            }
        } else {
            setValue(value, at: index)
        }
    }

    /// The destination of the to-one relationship `key`.
    ///
    /// For example:
    ///
    /// ```swift
    /// let author = try book.object(forKey: "author")
    /// ```
    ///
    /// - Throws: ``StoreError/unknownKey(entity:key:suggestions:)`` for a key the entity lacks;
    ///   ``StoreError/invalidProperty(entity:property:reason:)`` for an attribute or a to-many
    ///   relationship, naming the API to use.
    public func object(forKey key: String) throws(StoreError) -> ManagedObject? {
        let index = try columnIndex(of: key, for: .toOne)
        let context = try liveContext()
        guard case .object(let id) = value(at: index) else { return nil }
        return context.object(with: id)
    }

    /// Sets the destination of the to-one relationship `key` (and its inverse).
    ///
    /// For example:
    ///
    /// ```swift
    /// try book.setObject(author, forKey: "author")
    /// ```
    ///
    /// - Throws: ``StoreError/invalidProperty(entity:property:reason:)`` when `object` belongs to
    ///   another context (Core Data's "Illegal attempt to establish a relationship between objects in
    ///   different contexts": fetch it in this context, or look it up with
    ///   ``ManagedObjectContext/existingObject(with:)``), when `key` is an attribute or a to-many
    ///   relationship; ``StoreError/unknownKey(entity:key:suggestions:)`` for a key the entity lacks.
    public func setObject(_ object: ManagedObject?, forKey key: String) throws(StoreError) {
        _ = try columnIndex(of: key, for: .toOne)
        if let object { try checkSameContext(object, key: key) }
        try setValue(object.map { .object($0.objectID) } ?? .null, forKey: key)
    }

    /// The destinations of the to-many relationship `key`, loading them on first use.
    ///
    /// For example:
    ///
    /// ```swift
    /// for book in try author.objects(forKey: "books") { print(book["title"]) }
    /// ```
    ///
    /// - Throws: ``StoreError/unknownKey(entity:key:suggestions:)`` for a key the entity lacks;
    ///   ``StoreError/invalidProperty(entity:property:reason:)`` for an attribute or a to-one
    ///   relationship, naming the API to use.
    public func objects(forKey key: String) throws(StoreError) -> [ManagedObject] {
        let index = try toManyIndex(of: key)
        let context = try liveContext()
        return try context.toManyIDs(of: self, index: index).map { context.object(with: $0) }
    }

    /// Adds `object` to the to-many relationship `key` (and sets the inverse).
    ///
    /// For example:
    ///
    /// ```swift
    /// try author.add(book, toKey: "books")
    /// ```
    ///
    /// - Throws: ``StoreError/invalidProperty(entity:property:reason:)`` when `object` belongs to
    ///   another context (fetch it in this one, or use ``ManagedObjectContext/existingObject(with:)``),
    ///   or when `key` is not a to-many relationship; ``StoreError/invalidRequest(_:)`` when `object`
    ///   is of another entity than the relationship holds.
    public func add(_ object: ManagedObject, toKey key: String) throws(StoreError) {
        let index = try toManyIndex(of: key)
        let context = try liveContext()
        try checkSameContext(object, key: key)
        try context.addToMany(self, index: index, object, adding: true)
    }

    /// Inserts `object` at `position` of the ordered to-many relationship `key` (and sets the inverse);
    /// an object already there moves. The order is saved (Core Data's `Z_FOK_` column).
    ///
    /// For example:
    ///
    /// ```swift
    /// try playlist.insert(song, at: 0, intoKey: "songs")   // first in the playlist
    /// ```
    ///
    /// - Throws: ``StoreError/invalidRequest(_:)`` when the relationship is not ordered, or when
    ///   `position` is outside `0...count` (`count` puts it at the end; Core Data's `NSRangeException`);
    ///   ``StoreError/invalidProperty(entity:property:reason:)`` when `object` belongs to another
    ///   context or `key` is not a to-many relationship.
    public func insert(_ object: ManagedObject, at position: Int, intoKey key: String) throws(StoreError) {
        let index = try toManyIndex(of: key)
        guard entity.toManyRelationships[index].isOrdered else {
            throw .invalidRequest("\(entity.name).\(key) is not ordered: use add(_:toKey:), or mark the relationship ordered in the model")
        }
        let context = try liveContext()
        try checkSameContext(object, key: key)
        let count = try context.toManyIDs(of: self, index: index).count
        guard position >= 0 && position <= count else {
            throw .invalidRequest("\(entity.name).\(key) has \(count) members, so the positions are 0...\(count) (\(count): at the end), not \(position); nothing was changed")
        }
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
    ///
    /// - Throws: ``StoreError/invalidRequest(_:)`` when `from` or `to` is not a position of the set
    ///   (`0..<count`, Core Data's `NSRangeException`) or the relationship is not ordered.
    public func moveObject(at from: Int, to: Int, forKey key: String) throws(StoreError) {
        let members = try objects(forKey: key)
        guard members.indices.contains(from) else {
            throw .invalidRequest("\(entity.name).\(key) has \(members.count) members; there is none at \(from)")
        }
        guard members.indices.contains(to) else {
            throw .invalidRequest("\(entity.name).\(key) has \(members.count) members, so a member can move to positions 0...\(members.count - 1), not \(to); nothing was changed")
        }
        try insert(members[from], at: to, intoKey: key)
    }

    /// Removes `object` from the to-many relationship `key` (and clears the inverse).
    ///
    /// For example:
    ///
    /// ```swift
    /// try author.remove(book, fromKey: "books")
    /// ```
    ///
    /// - Throws: ``StoreError/invalidProperty(entity:property:reason:)`` when `object` belongs to
    ///   another context or `key` is not a to-many relationship.
    public func remove(_ object: ManagedObject, fromKey key: String) throws(StoreError) {
        let index = try toManyIndex(of: key)
        let context = try liveContext()
        try checkSameContext(object, key: key)
        try context.addToMany(self, index: index, object, adding: false)
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

    /// What an accessor needs `key` to be.
    enum KeyUse {
        /// An attribute or to-one relationship (``value(forKey:)``, ``setValue(_:forKey:)``).
        case value
        /// A to-one relationship (``object(forKey:)``, ``setObject(_:forKey:)``).
        case toOne
    }

    /// The column ordinal of `key`, or the error saying what `key` is and which API it needs.
    func columnIndex(of key: String, for use: KeyUse) throws(StoreError) -> Int {
        switch entity.slot(of: key) {
        case .column(let index)?:
            if use == .toOne, let attribute = entity.columns[index].attribute {
                throw .invalidProperty(entity: entity.name, property: key, reason:
                    "is an attribute (\(attribute.type.rawValue)), not a relationship: read it with value(forKey:) or get(_:), set it with setValue(_:forKey:) or set(_:_:)")
            }
            return index
        case .toMany(let index)?:
            let relationship = entity.toManyRelationships[index]
            throw .invalidProperty(entity: entity.name, property: key, reason:
                "is a to-many relationship (to \(relationship.destination)): read it with objects(forKey:), change it with add(_:toKey:) and remove(_:fromKey:)"
                + (relationship.isOrdered ? ", or insert(_:at:intoKey:) and moveObject(at:to:forKey:)" : ""))
        case nil:
            throw unknownKey(key)
        }
    }

    /// The to-many ordinal of `key`, or the error saying what `key` is and which API it needs.
    func toManyIndex(of key: String) throws(StoreError) -> Int {
        switch entity.slot(of: key) {
        case .toMany(let index)?:
            return index
        case .column(let index)?:
            let column = entity.columns[index]
            let reason = if let relationship = column.relationship {
                "is a to-one relationship (to \(relationship.destination)), not a to-many: read it with object(forKey:), set it with setObject(_:forKey:)"
            } else {
                "is an attribute (\(column.attribute.map(\.type.rawValue) ?? "?")), not a to-many relationship: read it with value(forKey:) or get(_:), set it with setValue(_:forKey:) or set(_:_:)"
            }
            throw .invalidProperty(entity: entity.name, property: key, reason: reason)
        case nil:
            throw unknownKey(key)
        }
    }

    /// Points the to-one values (with `snapshot`, the snapshot's too) and the loaded to-many sets that hold
    /// temporary IDs at `newID` of them: once a save gave inserted objects their new IDs, the permanent
    /// ones of a store or the parent's of a child context.
    /// A fault has no values to remap, but may hold loaded sets (an ordered one that took a member).
    @inline(__always)
    func remapTemporaryIDs(_ newID: (ObjectID) -> ObjectID, snapshot: Bool = false) {
        if !isFault {
            let firstToOne = entity.attributes.count
            for i in firstToOne..<values.count {
                if case .object(let id) = values[i], id.isTemporary { values[i] = .object(newID(id)) }
            }
            if snapshot, var row = committed, row.count == values.count {
                for i in firstToOne..<row.count {
                    if case .object(let id) = row[i], id.isTemporary { row[i] = .object(newID(id)) }
                }
                committed = row
            }
        }
        remapLoadedSets(newID)
    }

    /// Points the loaded to-many sets that hold temporary IDs at `newID` of them.
    @inline(__always)
    func remapLoadedSets(_ newID: (ObjectID) -> ObjectID) {
        for i in toMany.indices where toMany[i] != nil { toMany[i]!.remap(newID) }
    }

    /// This object's context, or, when it is in none, the error the key-based accessors throw: a change
    /// would never be saved, relationships cannot be followed, and a fault's values cannot be read.
    func liveContext() throws(StoreError) -> ManagedObjectContext {
        if let context { return context }
        throw .invalidRequest("the \(entity.name) \(objectID) is in no context: \(detachedReason); a reference kept past that reads "
            + "nothing and saves nothing, so fetch the object again in a live context (existingObject(with: objectID) once it is saved)")
    }

    /// Why an object is in no context, for messages.
    var detachedReason: String {
        if isDeleted && objectID.isTemporary { return "it was inserted, then deleted before any save" }
        if isDeleted { return "it was deleted and the deletion saved" }
        if objectID.isTemporary { return "it was inserted and never saved (rolled back, or its context was reset or released)" }
        return "its context was reset or released (a ManagedObject does not keep its context alive: keep the context while you use its objects)"
    }

    /// Refuses a destination that is not registered in this object's context: Core Data's "Illegal
    /// attempt to establish a relationship between objects in different contexts". The object's own
    /// context is checked first (``liveContext()``).
    func checkSameContext(_ destination: ManagedObject, key: String) throws(StoreError) {
        guard let context, destination.context !== context else { return }
        let other = destination.entity.name
        let whose: String
        if destination.context == nil {
            whose = "is in no context (it was deleted and saved, rolled back, or its context was reset or released)"
        } else if let owner = destination.context, context.hasAncestor(owner) {
            whose = "belongs to this context's parent: a child context has its own copies; use context.object(with: \(other.lowercased()).objectID) to get this context's copy"
        } else if let owner = destination.context, owner.hasAncestor(context) {
            whose = "belongs to a child of this context: save the child first, then use context.object(with: \(other.lowercased()).objectID)"
        } else {
            whose = "belongs to another context"
        }
        throw .invalidProperty(entity: entity.name, property: key, reason:
            "cannot point at \(other) \(destination.objectID): the \(other) object \(whose). Objects of different contexts cannot be related "
            + "(the store would get a key of another context); fetch the \(other) in this context, or look it up with "
            + "existingObject(with: objectID) once it is saved")
    }

    /// The message of a non-throwing accessor that stops the program, pointing at the throwing one.
    func trapMessage(_ error: StoreError, _ accessor: String, throwing alternative: String) -> String {
        "\(error) (\(accessor) stops the program on this; \(alternative) throws it instead)"
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
