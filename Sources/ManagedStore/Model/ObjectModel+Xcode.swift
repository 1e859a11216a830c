import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

extension ObjectModel {
    /// Loads a model from a file: SeedStore JSON (`.json`), an Xcode model bundle (`.xcdatamodeld`, whose
    /// current version is used), one Xcode model version (`.xcdatamodel`), or its `contents` XML.
    ///
    /// For example:
    ///
    /// ```swift
    /// let model = try ObjectModel(contentsOf: "FailedBankCD.xcdatamodeld")
    /// ```
    public convenience init(contentsOf path: String) throws(ModelError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ModelError.file(path, "no such file; pass a .json model, an .xcdatamodeld or an .xcdatamodel")
        }
        let url = URL(fileURLWithPath: path)
        if isDirectory.boolValue {
            if url.pathExtension == "xcdatamodeld" {
                let version = try Self.currentVersion(in: url)
                try self.init(xcdatamodelContents: version.appendingPathComponent("contents").path)
            } else {
                try self.init(xcdatamodelContents: url.appendingPathComponent("contents").path)
            }
            return
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ModelError.file(path, "cannot read the file")
        }
        if data.first(where: { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09) }) == UInt8(ascii: "<") {
            try self.init(xcdatamodelXML: data, file: path)
        } else {
            try self.init(json: data, file: path)
        }
    }

    /// Picks the current version of an `.xcdatamodeld`: the one `.xccurrentversion` names, else the only
    /// (or last by name) `.xcdatamodel` inside.
    static func currentVersion(in bundle: URL) throws(ModelError) -> URL {
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: bundle.path)) ?? [])
            .filter { $0.hasSuffix(".xcdatamodel") }.sorted()
        if let plist = FileManager.default.contents(atPath: bundle.appendingPathComponent(".xccurrentversion").path),
           let object = try? PropertyListSerialization.propertyList(from: plist, format: nil) as? [String: Any],
           let current = object["_XCCurrentVersionName"] as? String {
            guard versions.contains(current) else {
                throw ModelError.file(bundle.path, ".xccurrentversion names \(current), which is not in the bundle (found: \(versions.joined(separator: ", ")))")
            }
            return bundle.appendingPathComponent(current)
        }
        guard let last = versions.last else {
            throw ModelError.file(bundle.path, "the bundle holds no .xcdatamodel version")
        }
        return bundle.appendingPathComponent(last)
    }

    convenience init(xcdatamodelContents path: String) throws(ModelError) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ModelError.file(path, "cannot read the model's contents file")
        }
        try self.init(xcdatamodelXML: data, file: path)
    }

    /// Reads Xcode's `.xcdatamodel/contents` XML.
    public convenience init(xcdatamodelXML data: Data, file: String? = nil) throws(ModelError) {
        let reader = XcodeModelReader()
        let parser = XMLParser(data: data)
        parser.delegate = reader
        guard parser.parse() else {
            let reason = parser.parserError.map { "\($0.localizedDescription)" } ?? "unknown error"
            throw ModelError.file(file ?? "(xml)", "not a readable Xcode model (line \(parser.lineNumber)): \(reason)")
        }
        // The model's own checks (names, inverses) too, so every problem comes out at once, in entity order
        // with the reading problems first within an entity; a property refused while reading is not in the
        // entities, so none of the checks echoes one.
        let order = Dictionary(reader.entities.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        let problems = (reader.problems + Self.problems(in: reader.entities).map(\.problem)).enumerated()
            .sorted { (order[$0.element.entity] ?? -1, $0.offset) < (order[$1.element.entity] ?? -1, $1.offset) }.map(\.element)
        guard problems.isEmpty else { throw ModelError(problems: problems, file: file) }
        do { try self.init(reader.entities) } catch {
            var error = error
            error.file = file
            throw error
        }
    }
}

/// Collects entities from Xcode's model XML.
private final class XcodeModelReader: NSObject, XMLParserDelegate {
    var entities: [EntityDescription] = []
    var problems: [ModelError.Problem] = []
    /// Whether the parser is inside an `entity` element: a `composite` element's attributes are the
    /// composite's, not the entity's before it.
    private var inEntity = false

    func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
        if element == "entity" { inEntity = false }
    }

    func parser(_ parser: XMLParser, didStartElement element: String, namespaceURI: String?,
                qualifiedName: String?, attributes: [String: String] = [:]) {
        func yes(_ key: String, default value: Bool = false) -> Bool {
            attributes[key].map { $0 == "YES" } ?? value
        }
        switch element {
        case "entity":
            let name = attributes["name"] ?? "(unnamed)"
            if let parent = attributes["parentEntity"] {
                problems.append(.init(entity: name, property: nil, message: "entity inheritance (parent \(parent)) is not supported yet; flatten the entity"))
            }
            if yes("isAbstract") {
                problems.append(.init(entity: name, property: nil, message: "abstract entities are not supported (Core Data inserts none; they serve sub-entities, and inheritance is not supported yet): make it concrete, or leave it out"))
            }
            entities.append(EntityDescription(name))
            inEntity = true
        case "uniquenessConstraint":
            // Core Data merges (or refuses) objects equal on these; SeedStore does not enforce them.
            guard !entities.isEmpty else { return }
            problems.append(.init(entity: entities[entities.count - 1].name, property: nil,
                                  message: "uniqueness constraints are not enforced here: in a copy of the model, remove them and give the import a mapping key on the constrained attribute (rows with the same key then update one object, as Core Data's merge would)"))
        case "fetchIndex":
            guard !entities.isEmpty else { return }
            problems.append(.init(entity: entities[entities.count - 1].name, property: nil,
                                  message: "fetch indexes (\(attributes["name"] ?? "unnamed")) are not built here: in a copy of the model, mark the attribute indexed instead"))
        case "attribute":
            guard inEntity, !entities.isEmpty else { return }
            let entity = entities[entities.count - 1].name
            let name = attributes["name"] ?? "(unnamed)"
            // Core Data never stores a transient attribute: it has no column, whatever its type (Undefined
            // is a type only transient attributes take).
            if yes("transient") { return }
            if attributes["attributeType"] == "Composite" {
                problems.append(.init(entity: entity, property: name, message: "composite attributes (\(attributes["composite"] ?? "a composite")) are not supported: Core Data stores them in a layout of its own, which SeedStore does not write; in a copy of the model, replace it with plain attributes and import their values"))
                return
            }
            if attributes["attributeType"] == "Undefined" {
                problems.append(.init(entity: entity, property: name, message: "the type is Undefined, which Xcode allows only for transient attributes (never stored): give it a type, or mark it transient"))
                return
            }
            guard let typeName = attributes["attributeType"], let type = AttributeType(name: typeName) else {
                problems.append(.init(entity: entity, property: name, message: "unknown attribute type \(attributes["attributeType"] ?? "(none)")"))
                return
            }
            if yes("derived") {
                problems.append(.init(entity: entity, property: name, message: "derived attributes are not supported: Core Data computes the value on save (\(attributes["derivationExpression"] ?? "its derivation")), which SeedStore cannot; make it a plain attribute and import its value"))
                return
            }
            // Validation rules Core Data checks on save; SeedStore would store what breaks them.
            let rules = ["minValueString", "maxValueString", "regularExpressionString"].filter { attributes[$0] != nil }
            if !rules.isEmpty {
                problems.append(.init(entity: entity, property: name, message: "validation rules (\(rules.joined(separator: ", "))) are not checked here, so values that break them would be stored: remove them in a copy of the model, or check the data first"))
                return
            }
            var attribute = Attribute(name, type, optional: yes("optional"), indexed: yes("indexed"),
                                      valueTransformerName: attributes["valueTransformerName"],
                                      allowsExternalStorage: yes("allowsExternalBinaryDataStorage"))
            // Xcode writes a Date default as defaultDateTimeInterval (seconds since 2001), not as a string.
            if let text = attributes["defaultValueString"] ?? (type == .date ? attributes["defaultDateTimeInterval"] : nil) {
                guard let value = Value(defaultString: text, type: type) else {
                    problems.append(.init(entity: entity, property: name, message: "the default '\(text)' cannot be read as \(type.rawValue)"))
                    return
                }
                attribute.defaultValue = value
            }
            entities[entities.count - 1].attributes.append(attribute)
        case "relationship":
            guard inEntity, !entities.isEmpty else { return }
            let entity = entities[entities.count - 1].name
            let name = attributes["name"] ?? "(unnamed)"
            let rule = attributes["deletionRule"].flatMap(DeleteRule.init(name:)) ?? .nullify
            if yes("transient") { return }
            guard let destination = attributes["destinationEntity"] else {
                problems.append(.init(entity: entity, property: name, message: "the relationship has no destinationEntity"))
                return
            }
            entities[entities.count - 1].relationships.append(Relationship(
                name, to: destination, inverse: attributes["inverseName"], toMany: yes("toMany"), deleteRule: rule,
                optional: yes("optional"), minCount: attributes["minCount"].flatMap(Int.init) ?? 0,
                maxCount: yes("toMany") ? attributes["maxCount"].flatMap(Int.init) ?? 0 : 0, ordered: yes("ordered")))
        default:
            break
        }
    }
}
