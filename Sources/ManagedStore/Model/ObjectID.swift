/// The identity of a managed object: its entity and its primary key.
///
/// Objects inserted and not yet saved have a temporary ID (a negative key); a save replaces it
/// with a permanent one, the row's `Z_PK`.
///
/// For example:
///
/// ```swift
/// let task = context.insert("Task")
/// task.objectID.isTemporary        // true
/// try context.save()
/// task.objectID.primaryKey         // 1
/// ```
public struct ObjectID: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The entity's number (`Z_ENT`, 1-based).
    public let entityID: Int32
    /// The row's `Z_PK`, or a negative number for a temporary ID.
    public let primaryKey: Int64

    /// The ID of the row `primaryKey` of the entity numbered `entityID`; a negative key makes a temporary ID.
    ///
    /// For example:
    ///
    /// ```swift
    /// let id = ObjectID(entityID: store.model.entity(named: "Task")!.id, primaryKey: 1)
    /// let task = try context.existingObject(with: id)
    /// ```
    public init(entityID: Int32, primaryKey: Int64) {
        self.entityID = entityID
        self.primaryKey = primaryKey
    }

    /// Whether the ID belongs to an object not yet saved.
    public var isTemporary: Bool { primaryKey < 0 }

    public var description: String { isTemporary ? "\(entityID)/t\(-primaryKey)" : "\(entityID)/p\(primaryKey)" }

    /// Orders IDs by entity number, then by primary key.
    public static func < (lhs: ObjectID, rhs: ObjectID) -> Bool {
        (lhs.entityID, lhs.primaryKey) < (rhs.entityID, rhs.primaryKey)
    }
}
