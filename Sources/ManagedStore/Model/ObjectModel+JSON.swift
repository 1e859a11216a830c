import Foundation

extension ObjectModel {
    /// Reads a model from JSON text in SeedStore's model format (see the README's "Model files").
    ///
    /// For example:
    ///
    /// ```swift
    /// let model = try ObjectModel(json: Data("""
    /// {"entities": [{"name": "Task", "attributes": [
    ///     {"name": "task_description", "type": "String", "optional": false},
    ///     {"name": "priority", "type": "Integer 32", "optional": false, "default": 5}]}]}
    /// """.utf8))
    /// ```
    public convenience init(json: Data, file: String? = nil) throws(ModelError) {
        let root: Any
        do { root = try JSONSyntaxError.parse(json) } catch {
            throw ModelError.file(file ?? "(json)", "\(error); \(error.hint)")
        }
        guard let object = root as? [String: Any], let entities = object["entities"] as? [[String: Any]] else {
            throw ModelError.file(file ?? "(json)", "expected an object with an \"entities\" array")
        }
        var descriptions: [EntityDescription] = []
        var problems: [ModelError.Problem] = []
        for entity in entities {
            guard let name = entity["name"] as? String else {
                problems.append(.init(entity: "(unnamed)", property: nil, message: "an entity has no \"name\""))
                continue
            }
            var description = EntityDescription(name)
            for attribute in entity["attributes"] as? [[String: Any]] ?? [] {
                let attributeName = attribute["name"] as? String ?? "(unnamed)"
                guard let typeName = attribute["type"] as? String, let type = AttributeType(name: typeName) else {
                    problems.append(.init(entity: name, property: attributeName,
                                          message: "unknown or missing \"type\" \(attribute["type"].map { "\($0)" } ?? ""); use one of " + AttributeType.allCases.map(\.rawValue).joined(separator: ", ")))
                    continue
                }
                var parsed = Attribute(attributeName, type,
                                       optional: attribute["optional"] as? Bool ?? true,
                                       indexed: attribute["indexed"] as? Bool ?? false,
                                       valueTransformerName: attribute["transformer"] as? String)
                if let raw = attribute["default"], !(raw is NSNull) {
                    guard let value = Value(jsonDefault: raw, type: type) else {
                        problems.append(.init(entity: name, property: attributeName,
                                              message: "the default \(raw) cannot be read as \(type.rawValue)"))
                        continue
                    }
                    parsed.defaultValue = value
                }
                description.attributes.append(parsed)
            }
            for relationship in entity["relationships"] as? [[String: Any]] ?? [] {
                let relationshipName = relationship["name"] as? String ?? "(unnamed)"
                guard let destination = relationship["destination"] as? String else {
                    problems.append(.init(entity: name, property: relationshipName, message: "missing \"destination\""))
                    continue
                }
                var rule = DeleteRule.nullify
                if let ruleName = relationship["deleteRule"] as? String {
                    guard let parsedRule = DeleteRule(name: ruleName) else {
                        problems.append(.init(entity: name, property: relationshipName,
                                              message: "unknown delete rule '\(ruleName)'; use nullify, cascade, deny or noAction"))
                        continue
                    }
                    rule = parsedRule
                }
                description.relationships.append(Relationship(
                    relationshipName, to: destination, inverse: relationship["inverse"] as? String,
                    toMany: relationship["toMany"] as? Bool ?? false, deleteRule: rule,
                    optional: relationship["optional"] as? Bool ?? true,
                    minCount: relationship["minCount"] as? Int ?? 0, maxCount: relationship["maxCount"] as? Int ?? 0,
                    ordered: relationship["ordered"] as? Bool ?? false))
            }
            descriptions.append(description)
        }
        guard problems.isEmpty else { throw ModelError(problems: problems, file: file) }
        do { try self.init(descriptions) } catch {
            var error = error
            error.file = file
            throw error
        }
    }

    /// The model as JSON in SeedStore's model format: what ``init(json:file:)`` reads back.
    public func jsonData() -> Data {
        let entities: [[String: Any]] = entities.map { entity in
            var object: [String: Any] = ["name": entity.name]
            object["attributes"] = entity.attributes.map { attribute -> [String: Any] in
                var a: [String: Any] = ["name": attribute.name, "type": attribute.type.rawValue,
                                        "optional": attribute.isOptional]
                if attribute.isIndexed { a["indexed"] = true }
                if let transformer = attribute.valueTransformerName { a["transformer"] = transformer }
                if let value = attribute.defaultValue, let json = value.jsonDefault { a["default"] = json }
                return a
            }
            object["relationships"] = entity.relationships.map { relationship -> [String: Any] in
                var r: [String: Any] = ["name": relationship.name, "destination": relationship.destination,
                                        "toMany": relationship.isToMany, "deleteRule": relationship.deleteRule.rawValue,
                                        "optional": relationship.isOptional]
                if let inverse = relationship.inverse { r["inverse"] = inverse }
                if relationship.minCount != 0 { r["minCount"] = relationship.minCount }
                if relationship.maxCount != 0 { r["maxCount"] = relationship.maxCount }
                if relationship.isOrdered { r["ordered"] = true }
                return r
            }
            return object
        }
        return (try? JSONSerialization.data(withJSONObject: ["entities": entities], options: [.prettyPrinted, .sortedKeys])) ?? Data()
    }
}

extension Value {
    /// Reads a default value from JSON (a number, string or boolean) for an attribute of `type`.
    init?(jsonDefault raw: Any, type: AttributeType) {
        if let text = raw as? String {
            self.init(defaultString: text, type: type)
            return
        }
        if let number = raw as? NSNumber {
            if type == .boolean {
                self = .bool(number.boolValue)
            } else if type.isInteger {
                self = .integer(number.int64Value)
            } else if type == .double || type == .float {
                self = .double(number.doubleValue)
            } else if type == .decimal {
                self = .decimal(number.decimalValue)
            } else if type == .date {
                self = .date(Date(timeIntervalSinceReferenceDate: number.doubleValue))
            } else {
                return nil
            }
            return
        }
        return nil
    }

    /// Reads a default value written as text (Xcode's `defaultValueString`).
    init?(defaultString text: String, type: AttributeType) {
        switch type {
        case .integer16, .integer32, .integer64:
            guard let v = Int64(text.trimmingCharacters(in: .whitespaces)) else { return nil }
            self = .integer(v)
        case .double, .float:
            guard let v = Double(text.trimmingCharacters(in: .whitespaces)) else { return nil }
            self = .double(v)
        case .decimal:
            guard let v = Decimal(string: text) else { return nil }
            self = .decimal(v)
        case .boolean:
            switch text.lowercased() {
            case "yes", "true", "1": self = .bool(true)
            case "no", "false", "0": self = .bool(false)
            default: return nil
            }
        case .string: self = .string(text)
        case .date:
            guard let v = Double(text) else { return nil }
            self = .date(Date(timeIntervalSinceReferenceDate: v))
        case .uuid:
            guard let v = UUID(uuidString: text) else { return nil }
            self = .uuid(v)
        case .uri:
            guard let v = URL(string: text) else { return nil }
            self = .uri(v)
        case .binary, .transformable:
            return nil
        }
    }

    /// The value as a JSON default (dates as seconds since 2001).
    var jsonDefault: Any? {
        switch self {
        case .integer(let v): v
        case .double(let v): v
        case .decimal(let v): "\(v)"
        case .string(let v): v
        case .bool(let v): v
        case .date(let v): v.timeIntervalSinceReferenceDate
        case .uuid(let v): v.uuidString
        case .uri(let v): v.absoluteString
        case .null, .data, .object: nil
        }
    }
}
