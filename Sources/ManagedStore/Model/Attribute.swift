import Foundation

/// An attribute of an entity: a name, a type, and the rules its values follow.
///
/// For example:
///
/// ```swift
/// let title = Attribute("title", .string, optional: false, indexed: true)
/// let copyright = Attribute("copyright", .date)
/// ```
public struct Attribute: Sendable, Hashable {
    /// The attribute's name, as the app spells it (`task_description`).
    public var name: String
    /// Its Core Data type.
    public var type: AttributeType
    /// Whether a save accepts a nil value. Core Data's default is `true`.
    public var isOptional: Bool
    /// The value a newly inserted object starts with.
    public var defaultValue: Value?
    /// Whether the seed store gets an index on the column.
    public var isIndexed: Bool
    /// For `.transformable`: the name a ``ValueTransformers`` registration goes by.
    public var valueTransformerName: String?
    /// For `.binary`: Xcode's "Allows External Storage". Core Data keeps such values in its own format
    /// (a marker byte, then the bytes or the name of a file beside the store), which SeedStore does not
    /// write: the column stays NULL, and a save that gives the attribute a value is refused.
    public var allowsExternalBinaryDataStorage: Bool

    /// An attribute called `name` of `type`: optional, with no default value, not indexed and,
    /// for `.transformable`, storing `Data` unchanged unless told otherwise.
    ///
    /// For example:
    ///
    /// ```swift
    /// let priority = Attribute("priority", .integer32, optional: false, defaultValue: .integer(5))
    /// let tags = Attribute("tags", .transformable, valueTransformerName: JSONValueTransformer.name)
    /// let photo = Attribute("photo", .binary, allowsExternalStorage: true)   // left NULL; the app sets it
    /// ```
    public init(_ name: String, _ type: AttributeType, optional: Bool = true, defaultValue: Value? = nil,
                indexed: Bool = false, valueTransformerName: String? = nil, allowsExternalStorage: Bool = false) {
        self.name = name
        self.type = type
        self.isOptional = optional
        self.defaultValue = defaultValue
        self.isIndexed = indexed
        self.valueTransformerName = valueTransformerName
        self.allowsExternalBinaryDataStorage = allowsExternalStorage
    }

    /// Why a value for an attribute that allows external storage is not written, for the messages that
    /// refuse one.
    public static let externalStorageReason = "Core Data keeps the values of an attribute that allows external storage "
        + "in its own external-storage format (a marker byte, then the bytes or a file beside the store), which SeedStore does not write"

    /// The column Core Data's layout gives the attribute: `Z` + upper-cased name.
    public var columnName: String { "Z" + name.uppercased() }
}

/// What happens to the destination objects when the source object is deleted.
public enum DeleteRule: String, Sendable, Hashable, Codable, CaseIterable {
    /// Clear the inverse on each destination (Core Data's default).
    case nullify = "Nullify"
    /// Delete each destination too.
    case cascade = "Cascade"
    /// Refuse to delete while any destination exists.
    case deny = "Deny"
    /// Do nothing; the destinations keep a dangling inverse.
    case noAction = "No Action"

    /// Reads `Nullify`, `cascade`, `No Action`, `noAction` and the like.
    public init?(name: String) {
        switch name.lowercased().filter(\.isLetter) {
        case "nullify": self = .nullify
        case "cascade": self = .cascade
        case "deny": self = .deny
        case "noaction", "none": self = .noAction
        default: return nil
        }
    }
}

/// A relationship from one entity to another, with its inverse.
///
/// For example:
///
/// ```swift
/// let details = Relationship("details", to: "FailedBankDetails", inverse: "info", deleteRule: .cascade)
/// let tags = Relationship("tags", to: "Tag", inverse: "bankdetails", toMany: true)
/// ```
public struct Relationship: Sendable, Hashable {
    /// The relationship's name.
    public var name: String
    /// The destination entity's name.
    public var destination: String
    /// The name of the inverse relationship on the destination.
    public var inverse: String?
    /// Whether it holds many destinations.
    public var isToMany: Bool
    /// What deleting the source does to the destinations.
    public var deleteRule: DeleteRule
    /// Whether a save accepts no destination (to-one) or an empty set (to-many, with `minCount` 0).
    public var isOptional: Bool
    /// The least number of destinations a save accepts (to-many); 0 means no minimum.
    public var minCount: Int
    /// The most destinations a save accepts (to-many); 0 means no maximum.
    public var maxCount: Int
    /// Whether a to-many relationship keeps its destinations in order.
    public var isOrdered: Bool

    /// A relationship called `name` to the entity `destination`, with `inverse` on it: to-one, optional,
    /// nullifying, unordered and without count limits unless told otherwise.
    ///
    /// For example:
    ///
    /// ```swift
    /// let info = Relationship("info", to: "FailedBankInfo", inverse: "details")
    /// let steps = Relationship("steps", to: "Step", inverse: "recipe", toMany: true, ordered: true)
    /// ```
    public init(_ name: String, to destination: String, inverse: String?, toMany: Bool = false,
                deleteRule: DeleteRule = .nullify, optional: Bool = true, minCount: Int = 0, maxCount: Int = 0,
                ordered: Bool = false) {
        self.name = name
        self.destination = destination
        self.inverse = inverse
        self.isToMany = toMany
        self.deleteRule = deleteRule
        self.isOptional = optional
        self.minCount = minCount
        self.maxCount = maxCount
        self.isOrdered = ordered
    }

    /// The foreign-key column of a to-one relationship: `Z` + upper-cased name.
    public var columnName: String { "Z" + name.uppercased() }
}

/// The description of an entity, as a model file or Swift code states it.
///
/// An ``ObjectModel`` checks a list of these and resolves them into ``Entity`` values.
///
/// For example:
///
/// ```swift
/// let task = EntityDescription("Task", attributes: [
///     Attribute("task_description", .string, optional: false),
///     Attribute("priority", .integer32, optional: false, defaultValue: .integer(5)),
///     Attribute("completed", .boolean, optional: false, defaultValue: .bool(false)),
/// ])
/// ```
public struct EntityDescription: Sendable, Hashable {
    /// The entity's name (`Task`).
    public var name: String
    /// Its attributes, in declared order.
    public var attributes: [Attribute]
    /// Its relationships, in declared order.
    public var relationships: [Relationship]

    /// An entity called `name` with `attributes` and `relationships`, in that order.
    ///
    /// For example:
    ///
    /// ```swift
    /// let tag = EntityDescription("Tag", attributes: [Attribute("name", .string, optional: false)],
    ///                             relationships: [Relationship("books", to: "Book", inverse: "tags", toMany: true)])
    /// ```
    public init(_ name: String, attributes: [Attribute] = [], relationships: [Relationship] = []) {
        self.name = name
        self.attributes = attributes
        self.relationships = relationships
    }
}
