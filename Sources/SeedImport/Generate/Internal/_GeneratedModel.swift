/// A managed object model as the engine's model JSON describes it, built in
/// code by each data set and written next to its CSV files.
struct _GeneratedModel {
    struct Attribute {
        var name: String
        var type: String
        var optional = true
        var indexed = false
        var defaultValue: _OrderedJSON?
    }

    struct Relationship {
        var name: String
        var destination: String
        var inverse: String
        var toMany = false
        var deleteRule: String
    }

    struct Entity {
        var name: String
        var attributes: [Attribute]
        var relationships: [Relationship] = []
    }

    var entities: [Entity]

    /// Names the engine reserves for itself; attributes must avoid them.
    static let reservedNames: Set<String> = [
        "description", "class", "entity", "objectID", "self", "hash", "superclass",
        "isFault", "context", "managedObjectContext", "isDeleted", "isInserted",
        "isUpdated", "hasChanges", "changedValues", "values", "debugDescription",
        "init", "type", "properties", "primaryKey",
    ]

    /// Checks what the engine will check on load: no reserved names, and
    /// every relationship's inverse exists and points back.
    func validate() {
        let byName = Dictionary(uniqueKeysWithValues: entities.map { ($0.name, $0) })
        for entity in entities {
            let names = entity.attributes.map(\.name) + entity.relationships.map(\.name)
            precondition(Set(names).count == names.count, "\(entity.name) repeats a property name")
            for name in names {
                precondition(
                    !Self.reservedNames.contains(name) && !name.lowercased().hasPrefix("z_"),
                    "\(entity.name).\(name) is reserved by the engine")
            }
            for relationship in entity.relationships {
                let inverse = byName[relationship.destination]?.relationships.first {
                    $0.name == relationship.inverse
                }
                precondition(
                    inverse?.destination == entity.name && inverse?.inverse == relationship.name,
                    "\(entity.name).\(relationship.name) has no matching inverse")
            }
        }
    }

    var json: _OrderedJSON {
        .object([
            (
                key: "entities",
                value: .array(
                    entities.map { entity in
                        .object([
                            (key: "name", value: .string(entity.name)),
                            (key: "attributes", value: .array(entity.attributes.map(Self.json))),
                            (key: "relationships", value: .array(entity.relationships.map(Self.json))),
                        ])
                    })
            )
        ])
    }

    private static func json(_ attribute: Attribute) -> _OrderedJSON {
        var members: [(key: String, value: _OrderedJSON)] = [
            (key: "name", value: .string(attribute.name)),
            (key: "type", value: .string(attribute.type)),
            (key: "optional", value: .bool(attribute.optional)),
        ]
        if attribute.indexed { members.append((key: "indexed", value: .bool(true))) }
        if let value = attribute.defaultValue { members.append((key: "default", value: value)) }
        return .object(members)
    }

    private static func json(_ relationship: Relationship) -> _OrderedJSON {
        .object([
            (key: "name", value: .string(relationship.name)),
            (key: "destination", value: .string(relationship.destination)),
            (key: "inverse", value: .string(relationship.inverse)),
            (key: "toMany", value: .bool(relationship.toMany)),
            (key: "deleteRule", value: .string(relationship.deleteRule)),
        ])
    }
}
