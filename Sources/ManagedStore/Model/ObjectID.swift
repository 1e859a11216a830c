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

    public init(entityID: Int32, primaryKey: Int64) {
        self.entityID = entityID
        self.primaryKey = primaryKey
    }

    /// Whether the ID belongs to an object not yet saved.
    public var isTemporary: Bool { primaryKey < 0 }

    public var description: String { isTemporary ? "\(entityID)/t\(-primaryKey)" : "\(entityID)/p\(primaryKey)" }

    public static func < (lhs: ObjectID, rhs: ObjectID) -> Bool {
        (lhs.entityID, lhs.primaryKey) < (rhs.entityID, rhs.primaryKey)
    }
}
