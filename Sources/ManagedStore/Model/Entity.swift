/// Where a property lives in an object's storage.
public enum PropertySlot: Sendable, Hashable {
    /// An attribute or to-one relationship: index into the object's flat value array and the table's columns.
    case column(Int)
    /// A to-many relationship: index into ``Entity/toManyRelationships``.
    case toMany(Int)
}

/// How a relationship is kept in the SQLite file.
public enum RelationshipStorage: Sendable, Hashable {
    /// A to-one: a foreign-key column in the source's own table, at this column ordinal.
    case foreignKey(column: Int)
    /// A one-to-many: the destination's foreign-key column (its to-one inverse), at this ordinal of the destination.
    case inverseForeignKey(destinationColumn: Int)
    /// A many-to-many: a join table with one column per side.
    case joinTable(JoinTable)
}

/// A many-to-many join table, named as Core Data names it (`Z_1TAGS`).
///
/// A relationship that is its own inverse (`Person.friends`, inverse `friends`) has one table whose
/// second column takes a `1` (`Z_1FRIENDS`, `Z_1FRIENDS1`). Linking a and b links b and a too, so the
/// table keeps the pair both ways round, (a, b) and (b, a), and (a, a) once: each object's friends are
/// then the rows whose source column holds it, as they are for any other many-to-many. A row whose
/// mirror is missing (a store written by something that keeps one row a pair) still counts both ways:
/// reads go through ``pairsSQL(orderColumn:)``.
public struct JoinTable: Sendable, Hashable {
    /// The table's name.
    public let name: String
    /// The column that holds the source object's `Z_PK`.
    public let sourceColumn: String
    /// The column that holds the destination object's `Z_PK`.
    public let destinationColumn: String
    /// Whether the table is a relationship's that is its own inverse, so each pair goes both ways.
    public let isSymmetric: Bool

    init(name: String, sourceColumn: String, destinationColumn: String, isSymmetric: Bool = false) {
        self.name = name
        self.sourceColumn = sourceColumn
        self.destinationColumn = destinationColumn
        self.isSymmetric = isSymmetric
    }

    /// What to read the table's pairs from, in `FROM` or `JOIN`: the table itself, or for a symmetric
    /// one, its rows plus the mirror of each row whose mirror is missing (with no position), under the
    /// table's column names. `orderColumn` is the `Z_FOK_` column to carry along, if any.
    ///
    /// For example, for `Z_1FRIENDS`:
    ///
    /// ```sql
    /// (SELECT Z_1FRIENDS, Z_1FRIENDS1 FROM Z_1FRIENDS UNION ALL SELECT m.Z_1FRIENDS1, m.Z_1FRIENDS FROM Z_1FRIENDS m
    ///  WHERE NOT EXISTS (SELECT 1 FROM Z_1FRIENDS r WHERE r.Z_1FRIENDS = m.Z_1FRIENDS1 AND r.Z_1FRIENDS1 = m.Z_1FRIENDS))
    /// ```
    public func pairsSQL(orderColumn: String? = nil) -> String {
        guard isSymmetric else { return name }
        let (s, d) = (sourceColumn, destinationColumn)
        let position = orderColumn.map { (", \($0)", ", NULL") } ?? ("", "")
        return "(SELECT \(s), \(d)\(position.0) FROM \(name) UNION ALL SELECT m.\(d), m.\(s)\(position.1) FROM \(name) m "
            + "WHERE NOT EXISTS (SELECT 1 FROM \(name) r WHERE r.\(s) = m.\(d) AND r.\(d) = m.\(s)))"
    }
}

/// A stored column of an entity: an attribute or a to-one relationship's foreign key.
public struct Column: Sendable, Hashable {
    /// The property's name.
    public let name: String
    /// The SQLite column name (`ZTITLE`).
    public let columnName: String
    /// The attribute, when the column stores one.
    public let attribute: Attribute?
    /// The relationship, when the column is a to-one foreign key.
    public let relationship: Relationship?
    /// The declared SQLite type.
    public var sqlType: String { attribute?.type.sqlType ?? "INTEGER" }
}

/// An entity resolved by its ``ObjectModel``: its number, table, columns and relationship storage.
///
/// Values of an object are kept by column ordinal; look an ordinal up once per request, not per row.
///
/// For example:
///
/// ```swift
/// let book = model.entity(named: "Book")!
/// book.tableName                       // "ZBOOK"
/// book.slot(of: "title")               // .column(0) when title is its first attribute
/// ```
public final class Entity: Sendable, CustomStringConvertible {
    /// The entity's name.
    public let name: String
    /// Its number: the `Z_ENT` of its rows (1-based, in model order).
    public let id: Int32
    /// Its table: `Z` + upper-cased name.
    public let tableName: String
    /// The description it was made from.
    public let entityDescription: EntityDescription
    /// The attributes.
    public var attributes: [Attribute] { entityDescription.attributes }
    /// The relationships.
    public var relationships: [Relationship] { entityDescription.relationships }
    /// The stored columns in ordinal order: attributes first, then to-one relationships.
    public let columns: [Column]
    /// The to-many relationships in ordinal order.
    public let toManyRelationships: [Relationship]
    /// Per column, what a save checks: kept small so validating a large save copies nothing.
    let columnRules: [ColumnRule]
    /// The ordinals of the Float attributes, whose values are rounded to 32 bits as they are set
    /// (``Value/stored(as:)``); empty for most entities, so other entities pay nothing.
    let floatOrdinals: [Int]
    /// The values a new object starts with: each attribute's default, or null.
    public let defaultValues: ContiguousArray<Value>
    /// A 32-byte hash of what makes the stored layout: names, types and relationships.
    public let versionHash: [UInt8]
    let slots: [String: PropertySlot]
    let storage: [String: RelationshipStorage]
    let destinations: [String: Int32]

    init(description: EntityDescription, id: Int32, storage: [String: RelationshipStorage],
         destinations: [String: Int32]) {
        self.name = description.name
        self.id = id
        self.tableName = "Z" + description.name.uppercased()
        self.entityDescription = description
        var columns: [Column] = description.attributes.map {
            Column(name: $0.name, columnName: $0.columnName, attribute: $0, relationship: nil)
        }
        for relationship in description.relationships where !relationship.isToMany {
            columns.append(Column(name: relationship.name, columnName: relationship.columnName, attribute: nil,
                                  relationship: relationship))
        }
        self.columns = columns
        self.columnRules = columns.map { column in
            if let attribute = column.attribute { return .attribute(attribute.type, optional: attribute.isOptional) }
            return .toOne(destination: destinations[column.name] ?? 0, optional: column.relationship?.isOptional ?? true)
        }
        self.floatOrdinals = columns.indices.filter { columns[$0].attribute?.type == .float }
        self.defaultValues = ContiguousArray(columns.map { column in
            (column.attribute?.defaultValue ?? .null).stored(as: column.attribute?.type ?? .string)
        })
        self.toManyRelationships = description.relationships.filter(\.isToMany)
        var slots: [String: PropertySlot] = [:]
        for (i, column) in columns.enumerated() { slots[column.name] = .column(i) }
        for (i, relationship) in toManyRelationships.enumerated() { slots[relationship.name] = .toMany(i) }
        self.slots = slots
        self.storage = storage
        self.destinations = destinations
        self.versionHash = Self.hash(of: description)
    }

    /// `value` as the column at `ordinal` holds it: rounded to 32 bits in a Float attribute
    /// (``Value/stored(as:)``), as it is elsewhere.
    ///
    /// - Complexity: O(1); a check of one flag for an entity without Float attributes.
    @inline(__always)
    func stored(_ value: Value, at ordinal: Int) -> Value {
        guard !floatOrdinals.isEmpty, case .attribute(.float, _) = columnRules[ordinal] else { return value }
        return value.stored(as: .float)
    }

    /// Where the property called `name` lives, or `nil` when the entity has none.
    ///
    /// - Complexity: O(1).
    public func slot(of name: String) -> PropertySlot? { slots[name] }

    /// The column ordinal of an attribute or to-one relationship.
    public func columnIndex(of name: String) -> Int? {
        if case .column(let i)? = slots[name] { return i }
        return nil
    }

    /// The attribute called `name`.
    public func attribute(named name: String) -> Attribute? {
        columnIndex(of: name).flatMap { columns[$0].attribute }
    }

    /// The relationship called `name`.
    public func relationship(named name: String) -> Relationship? {
        relationships.first { $0.name == name }
    }

    /// How the relationship called `name` is stored.
    public func storage(of name: String) -> RelationshipStorage? { storage[name] }

    /// The entity number of the relationship's destination.
    public func destinationID(of name: String) -> Int32? { destinations[name] }

    /// Every property name: attributes, then relationships.
    public var propertyNames: [String] { attributes.map(\.name) + relationships.map(\.name) }

    public var description: String { "Entity \(name) (\(tableName), Z_ENT \(id))" }

    static func hash(of description: EntityDescription) -> [UInt8] {
        var text = "entity:\(description.name)\n"
        // What Core Data's version hashes cover: a property's name and optionality; an attribute's type; a
        // relationship's destination, inverse, counts (and whether it is ordered). Defaults, indexes and
        // delete rules are left out, as there.
        for attribute in description.attributes.sorted(by: { $0.name < $1.name }) {
            text += "attribute:\(attribute.name):\(attribute.type.rawValue):\(attribute.isOptional ? "optional" : "required")\n"
        }
        for relationship in description.relationships.sorted(by: { $0.name < $1.name }) {
            text += "relationship:\(relationship.name):\(relationship.destination):"
            text += "\(relationship.isToMany ? "many" : "one"):\(relationship.isOrdered ? "ordered" : "set"):"
            text += "\(relationship.isOptional ? "optional" : "required"):\(relationship.inverse ?? ""):\(relationship.minCount):\(relationship.maxCount)\n"
        }
        return SHA256.hash(Array(text.utf8))
    }
}

/// What validation checks of one column.
enum ColumnRule: Sendable, Hashable {
    case attribute(AttributeType, optional: Bool)
    case toOne(destination: Int32, optional: Bool)
}
