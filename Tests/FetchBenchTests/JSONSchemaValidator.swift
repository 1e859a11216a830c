import Foundation

/// Any JSON value, decoded so that integers stay distinct from other numbers.
indirect enum JSONValue: Decodable, Equatable {
    case null, bool(Bool), integer(Int64), number(Double), string(String), array([JSONValue]), object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Int64.self) { self = .integer(value) }
        else if let value = try? container.decode(Double.self) { self = .number(value) }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode([JSONValue].self) { self = .array(value) }
        else { self = .object(try container.decode([String: JSONValue].self)) }
    }

    static func parse(_ data: Data) throws -> JSONValue { try JSONDecoder().decode(JSONValue.self, from: data) }

    subscript(key: String) -> JSONValue? { if case .object(let members) = self { members[key] } else { nil } }

    var objectKeys: [String] { if case .object(let members) = self { Array(members.keys) } else { [] } }
}

/// A JSON Schema validator for the subset `docs/bench-report.schema.json` uses: `type` (one or a list),
/// `required`, `properties`, `additionalProperties` (boolean or schema), `items`, `minimum`, `const`,
/// `enum` and local `$ref`s (`#/$defs/name`). Annotations (`description`, `format`, `title`) are ignored.
struct JSONSchemaValidator {
    let root: JSONValue

    /// Every violation, as `path: problem`.
    func validate(_ value: JSONValue) -> [String] {
        var problems: [String] = []
        check(value, against: root, at: "$", into: &problems)
        return problems
    }

    private func resolve(_ schema: JSONValue) -> JSONValue {
        guard case .string(let ref)? = schema["$ref"] else { return schema }
        var node = root
        for part in ref.dropFirst(2).split(separator: "/") { node = node[String(part)] ?? .null }
        return node
    }

    private func check(_ value: JSONValue, against rawSchema: JSONValue, at path: String, into problems: inout [String]) {
        let schema = resolve(rawSchema)
        if let type = schema["type"] {
            let allowed: [String]
            switch type {
            case .string(let one): allowed = [one]
            case .array(let many): allowed = many.compactMap { if case .string(let s) = $0 { s } else { nil } }
            default: allowed = []
            }
            if !allowed.contains(where: { matches(value, type: $0) }) {
                problems.append("\(path): expected \(allowed.joined(separator: " or ")), found \(value)")
                return
            }
        }
        if let constant = schema["const"], constant != value { problems.append("\(path): expected \(constant)") }
        if case .array(let options)? = schema["enum"], !options.contains(value) { problems.append("\(path): not one of \(options)") }
        if let minimum = schema["minimum"].flatMap(number), let actual = number(value), actual < minimum {
            problems.append("\(path): \(actual) is below the minimum \(minimum)")
        }
        if let minimum = schema["exclusiveMinimum"].flatMap(number), let actual = number(value), actual <= minimum {
            problems.append("\(path): \(actual) is not above the exclusive minimum \(minimum)")
        }
        if case .object(let members) = value {
            if case .array(let required)? = schema["required"] {
                for case .string(let key) in required where members[key] == nil { problems.append("\(path): missing required key '\(key)'") }
            }
            let properties: [String: JSONValue]
            if case .object(let declared)? = schema["properties"] { properties = declared } else { properties = [:] }
            for (key, member) in members.sorted(by: { $0.key < $1.key }) {
                if let property = properties[key] {
                    check(member, against: property, at: "\(path).\(key)", into: &problems)
                } else if let additional = schema["additionalProperties"] {
                    if additional == .bool(false) { problems.append("\(path): undocumented key '\(key)'") }
                    else if case .object = additional { check(member, against: additional, at: "\(path).\(key)", into: &problems) }
                }
            }
        }
        if case .array(let elements) = value, let items = schema["items"] {
            for (i, element) in elements.enumerated() { check(element, against: items, at: "\(path)[\(i)]", into: &problems) }
        }
    }

    private func matches(_ value: JSONValue, type: String) -> Bool {
        switch (type, value) {
        case ("null", .null), ("boolean", .bool), ("integer", .integer), ("number", .integer), ("number", .number),
             ("string", .string), ("array", .array), ("object", .object): true
        default: false
        }
    }

    private func number(_ value: JSONValue) -> Double? {
        switch value {
        case .integer(let i): Double(i)
        case .number(let d): d
        default: nil
        }
    }
}
