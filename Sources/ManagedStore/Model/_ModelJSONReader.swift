import Foundation

/// Reads model JSON into entity descriptions, collecting every problem with its place
/// (`entities[0] (Well).attributes[3] (uwi)`): unknown keys, missing or mistyped values, then the
/// model's own checks (names, inverses), all in one list in file order.
///
/// A value that cannot be read gets a stand-in (an attribute of unknown type reads as a string) so
/// the rest of the model is still checked. A stand-in name or destination is not checked again, and
/// neither is a relationship whose inverse has one: their problems would only echo the one reported.
struct _ModelJSONReader {
    /// The keys each object of the format may have.
    static let modelKeys = JSONKeys(["entities"])
    static let entityKeys = JSONKeys(["name", "attributes", "relationships"])
    static let attributeKeys = JSONKeys(["name", "type", "optional", "indexed", "default", "transformer",
                                         "allowsExternalStorage"])
    static let relationshipKeys = JSONKeys(["name", "destination", "inverse", "toMany", "deleteRule", "optional",
                                            "minCount", "maxCount", "ordered"])

    /// An entity (by index in the file, -1 for the whole model) or one of its properties (by index
    /// among its attributes then its relationships).
    struct Item: Hashable, Comparable {
        let entity: Int
        let property: Int?

        static func < (a: Item, b: Item) -> Bool {
            (a.entity, a.property ?? -1) < (b.entity, b.property ?? -1)
        }
    }

    private(set) var descriptions: [EntityDescription] = []
    private var problems: [(item: Item, problem: ModelError.Problem)] = []
    /// Each entity's place, and each of its properties', as the file has them.
    private var places: [(entity: String, properties: [String])] = []
    /// Items whose name or destination is a stand-in.
    private var standIns: Set<Item> = []

    /// Reads `root`, the parsed JSON of a model file.
    mutating func read(_ root: Any) {
        guard let object = root as? [String: Any] else {
            problem(Item(entity: -1, property: nil), "expected an object with an \"entities\" array")
            return
        }
        unknownKeys(object, Self.modelKeys, Item(entity: -1, property: nil))
        guard let entities = object["entities"] as? [Any] else {
            problem(Item(entity: -1, property: nil), "expected an object with an \"entities\" array")
            return
        }
        for (i, raw) in entities.enumerated() { entity(raw, i) }
    }

    /// The problems found reading, then those of the model's own checks, in file order.
    func allProblems() -> [ModelError.Problem] {
        var found = problems
        for placed in ObjectModel.problems(in: descriptions) {
            let item = Item(entity: placed.entity, property: placed.property)
            guard !standIns.contains(item), !invertsStandIn(item) else { continue }
            let place = placed.property.map { places[item.entity].properties[$0] } ?? places[item.entity].entity
            found.append((item, ModelError.Problem(entity: placed.problem.entity, property: placed.problem.property,
                                                   message: placed.problem.message, place: place)))
        }
        // A stable sort: within an item, reading problems come first, then the checks' in their order.
        return found.enumerated().sorted { ($0.element.item, $0.offset) < ($1.element.item, $1.offset) }.map(\.element.problem)
    }

    /// Whether `item` is a relationship whose inverse has a stand-in name or destination.
    private func invertsStandIn(_ item: Item) -> Bool {
        let entity = descriptions[item.entity]
        guard let p = item.property, p >= entity.attributes.count else { return false }
        let relationship = entity.relationships[p - entity.attributes.count]
        guard let d = descriptions.firstIndex(where: { $0.name == relationship.destination }),
              let r = descriptions[d].relationships.firstIndex(where: { $0.name == relationship.inverse }) else { return false }
        return standIns.contains(Item(entity: d, property: descriptions[d].attributes.count + r))
    }

    private mutating func problem(_ item: Item, _ message: String) {
        let place = item.entity < 0 ? nil : item.property.map { places[item.entity].properties[$0] } ?? places[item.entity].entity
        // Without a name, the entity or property goes by its index, as in its place.
        var entity = item.entity < 0 ? "(model)" : descriptions[item.entity].name
        if entity.isEmpty { entity = "entities[\(item.entity)]" }
        var property: String?
        if let p = item.property {
            let description = descriptions[item.entity]
            let attributes = description.attributes.count
            property = p < attributes ? description.attributes[p].name : description.relationships[p - attributes].name
            if property == "" { property = p < attributes ? "attributes[\(p)]" : "relationships[\(p - attributes)]" }
        }
        problems.append((item, ModelError.Problem(entity: entity, property: property, message: message, place: place)))
    }

    private mutating func unknownKeys(_ object: [String: Any], _ keys: JSONKeys, _ item: Item) {
        for message in keys.problems(in: object) { problem(item, message) }
    }

    private mutating func entity(_ raw: Any, _ i: Int) {
        let object = raw as? [String: Any] ?? [:]
        let name = object["name"] as? String
        descriptions.append(EntityDescription(name ?? ""))
        places.append((entity: "entities[\(i)]" + (name.map { " (\($0))" } ?? ""), properties: []))
        let item = Item(entity: i, property: nil)
        guard raw is [String: Any] else {
            standIns.insert(item)
            problem(item, "expected an object with a \"name\", \"attributes\" and \"relationships\"")
            return
        }
        unknownKeys(object, Self.entityKeys, item)
        if name == nil {
            standIns.insert(item)
            problem(item, object["name"] == nil ? "the entity has no \"name\"; give it one" : "\"name\" must be a string")
        }
        // Every property's place and stand-in first: problems are placed and named through them.
        let attributes = list(object, "attributes", item)
        let relationships = list(object, "relationships", item)
        places[i].properties = attributes.enumerated().map { propertyPlace(i, "attributes", $0, $1) }
            + relationships.enumerated().map { propertyPlace(i, "relationships", $0, $1) }
        descriptions[i].attributes = attributes.map { Attribute(($0 as? [String: Any])?["name"] as? String ?? "", .string) }
        descriptions[i].relationships = relationships.map {
            Relationship(($0 as? [String: Any])?["name"] as? String ?? "", to: "", inverse: nil)
        }
        for (j, raw) in attributes.enumerated() { attribute(raw, Item(entity: i, property: j)) }
        for (j, raw) in relationships.enumerated() { relationship(raw, Item(entity: i, property: attributes.count + j), j) }
    }

    private func propertyPlace(_ i: Int, _ key: String, _ j: Int, _ raw: Any) -> String {
        places[i].entity + ".\(key)[\(j)]" + (((raw as? [String: Any])?["name"] as? String).map { " (\($0))" } ?? "")
    }

    /// The array under `key` (empty when absent), or empty with a problem when it is not one.
    private mutating func list(_ object: [String: Any], _ key: String, _ item: Item) -> [Any] {
        guard let raw = object[key], !(raw is NSNull) else { return [] }
        guard let list = raw as? [Any] else {
            problem(item, "\"\(key)\" must be an array of objects")
            return []
        }
        return list
    }

    /// Checks what every property object needs: to be an object, with a string "name". Returns the object.
    private mutating func property(_ raw: Any, _ keys: JSONKeys, _ item: Item, kind: String) -> [String: Any]? {
        guard let object = raw as? [String: Any] else {
            standIns.insert(item)
            problem(item, "expected an object with a \"name\" (a \(kind))")
            return nil
        }
        unknownKeys(object, keys, item)
        if !(object["name"] is String) {
            standIns.insert(item)
            problem(item, object["name"] == nil ? "the \(kind) has no \"name\"; give it one" : "\"name\" must be a string")
        }
        return object
    }

    /// How a default of `type` is written, for the message of one that does not read.
    static func defaultForms(_ type: AttributeType) -> String {
        switch type {
        case .date: ": write seconds since 2001-01-01 (599529600 for 2020-01-01), or ISO 8601 in UTC (\"2020-01-01\", \"2020-01-01T12:00:00Z\")"
        case .boolean: ": write true or false (or 1 or 0)"
        case .integer16, .integer32, .integer64: ": write a whole number"
        case .double, .float, .decimal: ": write a number"
        case .uuid: ": write a UUID (8-4-4-4-12 hexadecimal digits)"
        case .binary, .transformable: " (\(type.rawValue) attributes take no default here)"
        default: ""
        }
    }

    private mutating func attribute(_ raw: Any, _ item: Item) {
        guard let object = property(raw, Self.attributeKeys, item, kind: "attribute") else { return }
        var attribute = descriptions[item.entity].attributes[item.property!]
        attribute.isOptional = bool(object, "optional", item) ?? true
        attribute.isIndexed = bool(object, "indexed", item) ?? false
        attribute.valueTransformerName = string(object, "transformer", item)
        attribute.allowsExternalBinaryDataStorage = bool(object, "allowsExternalStorage", item) ?? false
        let types = AttributeType.allCases.map(\.rawValue)
        if let typeName = string(object, "type", item) {
            if let type = AttributeType(name: typeName) {
                attribute.type = type
                if let raw = object["default"], !(raw is NSNull) {
                    if let value = Value(jsonDefault: raw, type: type) {
                        attribute.defaultValue = value
                    } else {
                        problem(item, "the default \(Self.json(raw)) cannot be read as \(type.rawValue)" + Self.defaultForms(type))
                    }
                }
            } else {
                problem(item, Self.unknown("type", typeName, among: types))
            }
        } else if object["type"] == nil {
            problem(item, "\"type\" is missing (expected one of \(types.joined(separator: ", ")))")
        }
        descriptions[item.entity].attributes[item.property!] = attribute
    }

    private mutating func relationship(_ raw: Any, _ item: Item, _ r: Int) {
        guard let object = property(raw, Self.relationshipKeys, item, kind: "relationship") else { return }
        var relationship = descriptions[item.entity].relationships[r]
        if let destination = string(object, "destination", item) {
            relationship.destination = destination
        } else {
            standIns.insert(item)
            if object["destination"] == nil { problem(item, "\"destination\" is missing; name the entity it points to") }
        }
        relationship.inverse = string(object, "inverse", item)
        relationship.isToMany = bool(object, "toMany", item) ?? false
        if let ruleName = string(object, "deleteRule", item) {
            if let rule = DeleteRule(name: ruleName) {
                relationship.deleteRule = rule
            } else {
                problem(item, Self.unknown("deleteRule", ruleName, among: ["Nullify", "Cascade", "Deny", "No Action"]))
            }
        }
        relationship.isOptional = bool(object, "optional", item) ?? true
        relationship.minCount = int(object, "minCount", item) ?? 0
        relationship.maxCount = int(object, "maxCount", item) ?? 0
        relationship.isOrdered = bool(object, "ordered", item) ?? false
        descriptions[item.entity].relationships[r] = relationship
    }

    /// The string under `key`: nil when absent or null, and with a problem when it is not a string.
    private mutating func string(_ object: [String: Any], _ key: String, _ item: Item) -> String? {
        guard let raw = object[key], !(raw is NSNull) else { return nil }
        guard let text = raw as? String else {
            problem(item, "\"\(key)\" must be a string, not \(Self.json(raw))")
            return nil
        }
        return text
    }

    /// The boolean under `key`: nil when absent or null, and with a problem when it is not true or false.
    private mutating func bool(_ object: [String: Any], _ key: String, _ item: Item) -> Bool? {
        guard let raw = object[key], !(raw is NSNull) else { return nil }
        guard !(raw is String), let flag = raw as? Bool else {
            problem(item, "\"\(key)\" must be true or false, not \(Self.json(raw))")
            return nil
        }
        return flag
    }

    /// The whole number under `key`: nil when absent or null, and with a problem when it is not one.
    private mutating func int(_ object: [String: Any], _ key: String, _ item: Item) -> Int? {
        guard let raw = object[key], !(raw is NSNull) else { return nil }
        guard !(raw is String), let number = raw as? NSNumber, let value = Int(exactly: number.doubleValue) else {
            problem(item, "\"\(key)\" must be a whole number, not \(Self.json(raw))")
            return nil
        }
        return value
    }

    /// The message for a `value` of `key` that is none of `allowed`, naming the nearest when one is close.
    private static func unknown(_ key: String, _ value: String, among allowed: [String]) -> String {
        let hint = closestNames(to: value, in: allowed, limit: 1).first.map { "; did you mean \"\($0)\"?" } ?? ""
        return "unknown \"\(key)\" \"\(value)\"\(hint) (expected one of \(allowed.joined(separator: ", ")))"
    }

    /// A value as the file wrote it, near enough: strings quoted.
    private static func json(_ raw: Any) -> String {
        if let text = raw as? String { return "\"\(text)\"" }
        if let data = try? JSONSerialization.data(withJSONObject: raw, options: [.fragmentsAllowed, .sortedKeys]) {
            return String(decoding: data, as: UTF8.self)
        }
        return "\(raw)"
    }
}
