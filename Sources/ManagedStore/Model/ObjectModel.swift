/// A checked set of entities: what a store holds and a context works with.
///
/// Making a model checks it whole and throws a ``ModelError`` listing every problem: unknown
/// destinations, missing or mismatched inverses, duplicate, invalid or reserved names.
///
/// For example:
///
/// ```swift
/// let model = try ObjectModel([
///     EntityDescription("Book", attributes: [
///         Attribute("title", .string, optional: false),
///         Attribute("author", .string, optional: false),
///         Attribute("copyright", .date),
///     ]),
/// ])
/// model.entity(named: "Book")?.tableName   // "ZBOOK"
/// ```
public final class ObjectModel: Sendable, CustomStringConvertible {
    /// The entities in name order, numbered 1... in that order (their `Z_ENT`), as Core Data numbers them.
    public let entities: [Entity]
    private let byName: [String: Entity]

    /// Names a property cannot take: they clash with a managed object's own members (as `description` does
    /// with `NSObject`'s in Core Data) or with the store's own columns.
    public static let reservedPropertyNames: Set<String> = [
        "description", "class", "entity", "objectID", "self", "hash", "superclass", "isFault", "context",
        "managedObjectContext", "isDeleted", "isInserted", "isUpdated", "hasChanges", "changedValues", "values",
        "debugDescription", "init", "type", "properties", "primaryKey", "z_pk", "z_ent", "z_opt",
    ]

    /// The most columns SQLite allows in a table (its default `SQLITE_MAX_COLUMN`, as Debian and Apple build it).
    static let maximumColumns = 2_000

    /// Checks `descriptions` and resolves them into a model.
    public init(_ descriptions: [EntityDescription]) throws(ModelError) {
        let problems = Self.problems(in: descriptions)
        guard problems.isEmpty else { throw ModelError(problems: problems.map(\.problem)) }
        var index: [String: Int] = [:]
        // Core Data numbers entities in name order; so do we, so Z_ENT and join-table names match its stores.
        let descriptions = descriptions.sorted { $0.name < $1.name }
        for (i, entity) in descriptions.enumerated() { index[entity.name] = i }

        // Storage: foreign keys, inverse foreign keys and join tables.
        var storage = [[String: RelationshipStorage]](repeating: [:], count: descriptions.count)
        var destinations = [[String: Int32]](repeating: [:], count: descriptions.count)
        func columnOrdinal(_ entity: EntityDescription, _ relationship: String) -> Int {
            entity.attributes.count + entity.relationships.filter { !$0.isToMany }.firstIndex { $0.name == relationship }!
        }
        for (i, entity) in descriptions.enumerated() {
            for relationship in entity.relationships {
                let d = index[relationship.destination]!
                destinations[i][relationship.name] = Int32(d + 1)
                let destination = descriptions[d]
                let inverse = destination.relationships.first { $0.name == relationship.inverse }!
                if !relationship.isToMany {
                    storage[i][relationship.name] = .foreignKey(column: columnOrdinal(entity, relationship.name))
                } else if !inverse.isToMany {
                    storage[i][relationship.name] = .inverseForeignKey(destinationColumn: columnOrdinal(destination, inverse.name))
                } else {
                    // The side whose (entity, relationship) sorts first owns the table's name.
                    let ownsName = (entity.name, relationship.name) <= (destination.name, inverse.name)
                    let (ownerEntity, ownerRelationship, otherEntity, otherRelationship) = ownsName
                        ? (i, relationship.name, d, inverse.name) : (d, inverse.name, i, relationship.name)
                    let table = "Z_\(ownerEntity + 1)\(ownerRelationship.uppercased())"
                    // Each column is named after the relationship that points at the entity it holds.
                    let ownerColumn = "Z_\(ownerEntity + 1)\(otherRelationship.uppercased())"
                    var otherColumn = "Z_\(otherEntity + 1)\(ownerRelationship.uppercased())"
                    // The same name twice: a relationship that is its own inverse (Z_1FRIENDS, Z_1FRIENDS1).
                    let isSymmetric = otherColumn == ownerColumn
                    if isSymmetric { otherColumn += "1" }
                    storage[i][relationship.name] = .joinTable(ownsName
                        ? JoinTable(name: table, sourceColumn: ownerColumn, destinationColumn: otherColumn, isSymmetric: isSymmetric)
                        : JoinTable(name: table, sourceColumn: otherColumn, destinationColumn: ownerColumn, isSymmetric: isSymmetric))
                }
            }
        }
        self.entities = descriptions.enumerated().map { i, description in
            Entity(description: description, id: Int32(i + 1), storage: storage[i], destinations: destinations[i])
        }
        var byName: [String: Entity] = [:]
        for entity in entities { byName[entity.name] = entity }
        self.byName = byName
    }

    /// The entity called `name`.
    ///
    /// - Complexity: O(1).
    public func entity(named name: String) -> Entity? { byName[name] }

    /// The entity numbered `id` (its `Z_ENT`).
    public func entity(id: Int32) -> Entity? {
        id >= 1 && Int(id) <= entities.count ? entities[Int(id) - 1] : nil
    }

    /// The descriptions the model was made from.
    public var entityDescriptions: [EntityDescription] { entities.map(\.entityDescription) }

    /// The version hash of each entity, by name.
    public var versionHashes: [String: [UInt8]] {
        Dictionary(uniqueKeysWithValues: entities.map { ($0.name, $0.versionHash) })
    }

    /// The join tables of the model's many-to-many relationships, each once.
    public var joinTables: [JoinTable] {
        var seen = Set<String>()
        var tables: [JoinTable] = []
        for entity in entities {
            for relationship in entity.toManyRelationships {
                if case .joinTable(let table)? = entity.storage(of: relationship.name), seen.insert(table.name).inserted {
                    tables.append(table)
                }
            }
        }
        return tables
    }

    public var description: String { "ObjectModel(" + entities.map(\.name).joined(separator: ", ") + ")" }

    /// A problem ``problems(in:)`` found, with the index of its entity in the descriptions and, for a
    /// property, the property's index among the entity's attributes then its relationships.
    struct PlacedProblem {
        let entity: Int
        let property: Int?
        let problem: ModelError.Problem
    }

    /// Every problem with `descriptions`, in model order: names and defaults entity by entity, then
    /// destinations and inverses.
    static func problems(in descriptions: [EntityDescription]) -> [PlacedProblem] {
        var problems: [PlacedProblem] = []
        func problem(_ i: Int, _ property: Int?, _ message: String) {
            let entity = descriptions[i]
            let name = property.map { $0 < entity.attributes.count ? entity.attributes[$0].name : entity.relationships[$0 - entity.attributes.count].name }
            problems.append(PlacedProblem(entity: i, property: property,
                                          problem: ModelError.Problem(entity: entity.name, property: name, message: message)))
        }
        var index: [String: Int] = [:]
        var tables: [String: String] = [:]
        for (i, entity) in descriptions.enumerated() {
            if !Self.isIdentifier(entity.name) {
                problem(i, nil, "the entity name is not a valid identifier (letters, digits and '_', not starting with a digit)")
            }
            if entity.name.hasPrefix("_") {
                // Its table would be Z_… (Z_METADATA, Z_PRIMARYKEY, a join table Z_1TAGS): Core Data's own.
                problem(i, nil, "'\(entity.name)' would be stored in table Z\(entity.name.uppercased()), among Core Data's own Z_ tables (Z_METADATA, Z_PRIMARYKEY, join tables); entity names start with a letter")
            }
            if index[entity.name] != nil {
                problem(i, nil, "a second entity has this name; entity names must be unique")
            } else {
                index[entity.name] = i
                let table = "Z" + entity.name.uppercased()
                if let other = tables[table] {
                    problem(i, nil, "its table \(table) would be entity \(other)'s table too; entity names may not differ only in case")
                }
                tables[table] = entity.name
            }
            var seen: Set<String> = []
            var columns: [String: String] = [:]
            for (p, name) in (entity.attributes.map(\.name) + entity.relationships.map(\.name)).enumerated() {
                if !Self.isIdentifier(name) {
                    problem(i, p, "the property name is not a valid identifier")
                }
                if name.hasPrefix("_") {
                    let plain = name.drop { $0 == "_" }
                    problem(i, p, "'\(name)' would be stored in column Z\(name.uppercased()), among Core Data's own Z_ columns (Z_PK, Z_ENT, Z_OPT); "
                            + "property names start with a letter: rename it, e.g. '\(plain.isEmpty ? "value" : String(plain))'")
                } else if Self.reservedPropertyNames.contains(name) || name.lowercased().hasPrefix("z_") {
                    problem(i, p, "'\(name)' is reserved (it clashes with a managed object's own member or a store column); rename it, e.g. '\(entity.name.prefix(1).lowercased() + entity.name.dropFirst())\(name.prefix(1).uppercased() + name.dropFirst())'")
                }
                if !seen.insert(name).inserted {
                    problem(i, p, "a second property has this name; property names must be unique within an entity")
                }
                let column = "Z" + name.uppercased()
                if let other = columns[column], other != name {
                    problem(i, p, "its column \(column) clashes with property '\(other)'; names may not differ only in case")
                }
                columns[column] = name
            }
            // Z_PK, Z_ENT and Z_OPT, an attribute's column each, and a to-one's foreign key each.
            let toOnes = entity.relationships.filter { !$0.isToMany }.count
            let tableColumns = 3 + entity.attributes.count + toOnes
            if tableColumns > Self.maximumColumns {
                problem(i, nil, "its table would have \(tableColumns) columns (\(entity.attributes.count) attributes, \(toOnes) to-one relationships "
                        + "and Core Data's 3), more than the \(Self.maximumColumns) SQLite allows in a table: split the entity into entities "
                        + "joined one-to-one (as WellSummary and WellDetail), which one CSV row can fill together")
            }
            for (p, attribute) in entity.attributes.enumerated() {
                if attribute.allowsExternalBinaryDataStorage && attribute.type != .binary {
                    problem(i, p, "only Binary attributes allow external storage, not \(attribute.type.rawValue); drop the flag or make the attribute Binary")
                }
                if let value = attribute.defaultValue, !value.fits(attribute.type) {
                    problem(i, p, "the default value \(value) (\(value.kindName)) does not fit type \(attribute.type.rawValue)")
                } else if case .decimal(let decimal)? = attribute.defaultValue, !Value.storesExactly(decimal) {
                    problem(i, p, "the default \(decimal) has more significant digits than the store keeps for a Decimal that is not a whole "
                            + "number within 64 bits (SQLite holds it as a double, about 15 digits, as in Core Data's stores): round it")
                }
            }
        }
        // Relationships: destinations and inverses.
        for (i, entity) in descriptions.enumerated() {
            for (r, relationship) in entity.relationships.enumerated() {
                let p = entity.attributes.count + r
                guard let destinationIndex = index[relationship.destination] else {
                    problem(i, p, "the destination entity '\(relationship.destination)' does not exist in the model")
                    continue
                }
                if relationship.minCount < 0 || relationship.maxCount < 0
                    || (relationship.maxCount > 0 && relationship.minCount > relationship.maxCount) {
                    problem(i, p, "min count \(relationship.minCount) and max count \(relationship.maxCount) do not make a range")
                }
                guard let inverseName = relationship.inverse else {
                    problem(i, p, "the relationship has no inverse, which SeedStore requires to keep both sides consistent: give it one on "
                            + "\(relationship.destination). Core Data allows none (Xcode warns), but an inverse changes the store's layout "
                            + "(a to-one inverse adds a foreign-key column to Z\(relationship.destination.uppercased())), so the app's model must get the same inverse")
                    continue
                }
                let destination = descriptions[destinationIndex]
                guard let inverse = destination.relationships.first(where: { $0.name == inverseName }) else {
                    problem(i, p, "the inverse '\(inverseName)' is not a relationship of \(destination.name)")
                    continue
                }
                if inverse.destination != entity.name || inverse.inverse != relationship.name {
                    problem(i, p, "the inverse \(destination.name).\(inverseName) does not point back (it goes to \(inverse.destination).\(inverse.inverse ?? "nil")); make the two relationships each other's inverse")
                }
            }
        }
        return problems
    }

    static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
        return name.unicodeScalars.allSatisfy { ($0.properties.isAlphabetic && $0.isASCII) || ("0"..."9").contains($0) || $0 == "_" }
    }
}
