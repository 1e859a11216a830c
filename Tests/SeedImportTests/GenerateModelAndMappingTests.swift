import Foundation
import SeedImport
import Testing

/// The model and mapping files: valid JSON the engine and importer accept.
@Suite("Generate: model and mapping files")
struct GenerateModelAndMappingTests {
    static let expectedEntities: [DataSetKind: [String]] = [
        .wells: ["Operator", "Well", "WellSummary", "WellDetail"],
        .banks: ["FailedBankInfo", "FailedBankDetails", "Tag"],
        .books: ["Book"],
        .tasks: ["Task"],
    ]
    static let types: Set<String> = [
        "Integer 16", "Integer 32", "Integer 64", "Decimal", "Double", "Float", "String", "Boolean",
        "Date", "Binary", "Transformable", "URI", "UUID",
    ]
    static let deleteRules: Set<String> = ["Nullify", "Cascade", "Deny", "No Action"]
    static let reserved: Set<String> = [
        "description", "class", "entity", "objectID", "self", "hash", "superclass", "isFault",
        "context", "managedObjectContext", "isDeleted", "isInserted", "isUpdated", "hasChanges",
        "changedValues", "values", "debugDescription", "init", "type", "properties", "primaryKey",
    ]

    /// Header matching as the importer does it: trimmed, case, spaces and
    /// underscores folded.
    static func fold(_ name: String) -> String {
        name.trimmingCharacters(in: .whitespaces).lowercased().filter { $0 != " " && $0 != "_" }
    }

    struct Entity {
        var attributes: [String: [String: Any]]
        var relationships: [String: [String: Any]]
    }

    static func entities(_ model: [String: Any]) -> [String: Entity] {
        var result: [String: Entity] = [:]
        for entity in model["entities"] as? [[String: Any]] ?? [] {
            let attributes = (entity["attributes"] as? [[String: Any]] ?? []).map {
                ($0["name"] as! String, $0)
            }
            let relationships = (entity["relationships"] as? [[String: Any]] ?? []).map {
                ($0["name"] as! String, $0)
            }
            result[entity["name"] as! String] = Entity(
                attributes: Dictionary(uniqueKeysWithValues: attributes),
                relationships: Dictionary(uniqueKeysWithValues: relationships))
        }
        return result
    }

    @Test("the model is well formed", arguments: DataSetKind.allCases)
    func model(kind: DataSetKind) throws {
        let scratch = try GenerateScratch()
        defer { scratch.remove() }
        let dataSet = try DataSetGenerator.generate(kind, rows: 50, into: scratch.url)
        let model = try scratch.json(dataSet.modelFile.name)
        let order = (model["entities"] as? [[String: Any]] ?? []).map { $0["name"] as! String }
        #expect(order == Self.expectedEntities[kind])
        let entities = Self.entities(model)
        for (name, entity) in entities {
            for (attributeName, attribute) in entity.attributes {
                #expect(!Self.reserved.contains(attributeName) && !attributeName.lowercased().hasPrefix("z_"))
                #expect(Self.types.contains(attribute["type"] as? String ?? ""), "\(name).\(attributeName)")
            }
            for (relationshipName, relationship) in entity.relationships {
                #expect(Self.deleteRules.contains(relationship["deleteRule"] as? String ?? ""))
                let destination = try #require(entities[relationship["destination"] as? String ?? ""])
                let inverse = try #require(
                    destination.relationships[relationship["inverse"] as? String ?? ""])
                #expect(inverse["destination"] as? String == name, "\(name).\(relationshipName)")
                #expect(inverse["inverse"] as? String == relationshipName, "\(name).\(relationshipName)")
            }
        }
    }

    @Test("the wells model mirrors the CSV columns")
    func wellsModel() throws {
        let scratch = try GenerateScratch()
        defer { scratch.remove() }
        _ = try DataSetGenerator.generate(.wells, rows: 50, into: scratch.url)
        let header = try scratch.records("wells.csv")[0]
        let model = try scratch.json("wells.model.json")
        let wells = (model["entities"] as! [[String: Any]])[1]["attributes"] as! [[String: Any]]
        #expect(wells.map { $0["name"] as! String } == header)
        let entities = Self.entities(model)
        let summary = Set(entities["WellSummary"]!.attributes.keys)
        let details = Set(entities["WellDetail"]!.attributes.keys)
        #expect(summary == ["uwi", "well_name", "surface_latitude", "surface_longitude"])
        #expect(summary.intersection(details) == ["uwi"])
        #expect(summary.union(details) == Set(header))
        let types = entities["Well"]!.attributes.mapValues { $0["type"] as! String }
        #expect(types["surface_latitude"] == "Double" && types["spud_date"] == "Date")
        #expect(types["directional_flag"] == "Boolean" && types["licence_number"] == "String")
        #expect(entities["Operator"]!.relationships["wells"]?["deleteRule"] as? String == "Deny")
        #expect(entities["WellSummary"]!.relationships["details"]?["deleteRule"] as? String == "Cascade")
    }

    @Test(
        "the mapping refers to files, entities, attributes and columns that exist",
        arguments: DataSetKind.allCases)
    func mapping(kind: DataSetKind) throws {
        let scratch = try GenerateScratch()
        defer { scratch.remove() }
        let dataSet = try DataSetGenerator.generate(kind, rows: 50, into: scratch.url)
        let mapping = try scratch.json(dataSet.mappingFile.name)
        #expect(mapping["format"] as? Int == 1)
        #expect(mapping["model"] as? String == dataSet.modelFile.name)
        let defaults = try #require(mapping["defaults"] as? [String: Any])
        #expect(defaults["delimiter"] as? String == "," && defaults["encoding"] as? String == "utf-8")
        let entities = Self.entities(try scratch.json(dataSet.modelFile.name))
        let files = try #require(mapping["files"] as? [[String: Any]])
        #expect(Set(files.map { $0["path"] as! String }) == Set(dataSet.csvFiles.map(\.name)))
        var filled: Set<String> = []
        for file in files {
            let path = file["path"] as! String
            let header = Set(try scratch.records(path)[0].map(Self.fold))
            if let join = file["join"] as? [String: Any] {
                let entity = try #require(entities[join["entity"] as! String])
                #expect(entity.relationships[join["relationship"] as! String]?["toMany"] as? Bool == true)
                #expect(header.contains(Self.fold(join["sourceColumn"] as! String)))
                #expect(header.contains(Self.fold(join["destinationColumn"] as! String)))
                continue
            }
            for target in file["targets"] as? [[String: Any]] ?? [] {
                let name = target["entity"] as! String
                let entity = try #require(entities[name])
                filled.insert(name)
                if let key = target["key"] as? String { #expect(entity.attributes[key] != nil) }
                if let link = target["link"] as? [String: Any] {
                    #expect(entity.relationships[link["relationship"] as! String] != nil)
                }
                for (relationship, spec) in target["relationships"] as? [String: [String: Any]] ?? [:] {
                    let destination = entity.relationships[relationship]?["destination"] as? String
                    #expect(entities[destination ?? ""]?.attributes[spec["destinationKey"] as! String] != nil)
                    #expect(header.contains(Self.fold(spec["column"] as! String)))
                }
                let overrides = target["columns"] as? [String: Any] ?? [:]
                for (attribute, spec) in overrides {
                    #expect(entity.attributes[attribute] != nil, "\(name).\(attribute)")
                    let column = spec as? String ?? (spec as? [String: Any])?["column"] as? String ?? ""
                    #expect(header.contains(Self.fold(column)), "\(path): \(column)")
                }
                // Every mandatory attribute without a default gets a column.
                for (attribute, spec) in entity.attributes
                where spec["optional"] as? Bool == false && spec["default"] == nil {
                    #expect(
                        overrides[attribute] != nil || header.contains(Self.fold(attribute)),
                        "\(name).\(attribute) has no column in \(path)")
                }
            }
        }
        #expect(filled == Set(entities.keys))
    }

    @Test("the banks mapping reads Windows-1252 and pivots two-digit years")
    func banksMapping() throws {
        let scratch = try GenerateScratch()
        defer { scratch.remove() }
        _ = try DataSetGenerator.generate(.banks, rows: 20, into: scratch.url)
        let files = try scratch.json("banks.mapping.json")["files"] as! [[String: Any]]
        #expect(files[0]["path"] as? String == "banklist.csv")
        #expect(files[0]["encoding"] as? String == "windows-1252")
        let details = (files[0]["targets"] as! [[String: Any]])[0]
        let closeDate = (details["columns"] as! [String: Any])["closeDate"] as! [String: Any]
        #expect(closeDate["format"] as? String == "d-MMM-yy")
        #expect(closeDate["pivotYear"] as? Int == 2000)
    }
}
