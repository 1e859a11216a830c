import Foundation
import Testing
@testable import ManagedStore

/// The model JSON format's checks: unknown keys at every level, mistyped values, and every
/// problem of a file reported together, in file order, each with its place in the file.
@Suite struct ModelJSONTests {
    /// The problems reading `json` reports, as printed; empty when it loads.
    func problems(_ json: String) -> [String] {
        do { _ = try ObjectModel(json: Data(json.utf8), file: "m.json"); return [] } catch {
            return error.problems.map(\.description)
        }
    }

    static let entityKeys = "(expected one of attributes, name, relationships)"
    static let attributeKeys = "(expected one of allowsExternalStorage, default, indexed, name, optional, transformer, type)"
    static let relationshipKeys = "(expected one of deleteRule, destination, inverse, maxCount, minCount, name, optional, ordered, toMany)"

    @Test("an unknown key at the top level names the nearest key")
    func unknownTopLevelKey() {
        #expect(problems(#"{"entites": []}"#) == [
            #"(model): unknown key "entites"; did you mean "entities"? (expected one of entities)"#,
            #"(model): expected an object with an "entities" array"#,
        ])
    }

    @Test("an unknown key in an entity is refused instead of leaving it without attributes")
    func unknownEntityKey() {
        #expect(problems(#"{"entities": [{"name": "Well", "atributes": [{"name": "uwi", "type": "String"}]}]}"#) == [
            #"entities[0] (Well): unknown key "atributes"; did you mean "attributes"? \#(Self.entityKeys)"#,
        ])
    }

    @Test("unknown keys in an attribute are refused instead of dropping the setting")
    func unknownAttributeKeys() {
        let json = #"""
            {"entities": [{"name": "Well", "attributes": [
                {"name": "name", "type": "String"},
                {"name": "uwi", "type": "String", "optinal": false, "indexd": true, "precision": 3}]}]}
            """#
        #expect(problems(json) == [
            #"entities[0] (Well).attributes[1] (uwi): unknown key "indexd"; did you mean "indexed"? \#(Self.attributeKeys)"#,
            #"entities[0] (Well).attributes[1] (uwi): unknown key "optinal"; did you mean "optional"? \#(Self.attributeKeys)"#,
            #"entities[0] (Well).attributes[1] (uwi): unknown key "precision" \#(Self.attributeKeys)"#,
        ])
    }

    @Test("an unknown key in a relationship is refused, and its inverse is still checked")
    func unknownRelationshipKey() {
        let json = #"""
            {"entities": [
              {"name": "Operator", "relationships": [{"name": "wells", "destination": "Well", "inverse": "operator", "toMnay": true}]},
              {"name": "Well", "relationships": [{"name": "operator", "destination": "Operator", "inverse": "wells"}]}]}
            """#
        #expect(problems(json) == [
            #"entities[0] (Operator).relationships[0] (wells): unknown key "toMnay"; did you mean "toMany"? \#(Self.relationshipKeys)"#,
        ])
    }

    @Test("every problem of a file is reported together, in file order, reading and model checks alike")
    func everyProblemAtOnce() {
        let json = #"""
            {"entities": [
              {"name": "Well",
               "attributes": [
                 {"name": "uwi", "type": "Strng", "optional": false},
                 {"name": "self", "type": "String", "indexed": "yes"},
                 {"name": "depth", "type": "Double", "default": "deep"}],
               "relationships": [
                 {"name": "operator", "destination": "Operator", "inverse": "wells", "deleteRule": "Cascde"},
                 {"name": "field", "destination": "Field", "inverse": "wells"}]},
              {"name": "Operator", "attributes": [{"name": "name"}],
               "relationships": [{"name": "wells", "destination": "Well", "inverse": "operator", "toMany": true}],
               "abstract": true}]}
            """#
        #expect(problems(json) == [
            #"entities[0] (Well).attributes[0] (uwi): unknown "type" "Strng"; did you mean "String"? (expected one of Integer 16, Integer 32, Integer 64, Decimal, Double, Float, String, Boolean, Date, Binary, Transformable, URI, UUID)"#,
            #"entities[0] (Well).attributes[1] (self): "indexed" must be true or false, not "yes""#,
            #"entities[0] (Well).attributes[1] (self): 'self' is reserved (it clashes with a managed object's own member or a store column); rename it, e.g. 'wellSelf'"#,
            #"entities[0] (Well).attributes[2] (depth): the default "deep" cannot be read as Double: write a number"#,
            #"entities[0] (Well).relationships[0] (operator): unknown "deleteRule" "Cascde"; did you mean "Cascade"? (expected one of Nullify, Cascade, Deny, No Action)"#,
            #"entities[0] (Well).relationships[1] (field): the destination entity 'Field' does not exist in the model"#,
            #"entities[1] (Operator): unknown key "abstract" \#(Self.entityKeys)"#,
            #"entities[1] (Operator).attributes[0] (name): "type" is missing (expected one of Integer 16, Integer 32, Integer 64, Decimal, Double, Float, String, Boolean, Date, Binary, Transformable, URI, UUID)"#,
        ])
    }

    /// A user trial: the README's model example named a destination it did not define, so copying it failed.
    @Test("the README's model example is a model")
    func readmeExample() throws {
        let readme = try String(contentsOf: Fixtures.repository.appendingPathComponent("README.md"), encoding: .utf8)
        let start = try #require(readme.range(of: "```json\n")), end = try #require(readme.range(of: "```", range: start.upperBound..<readme.endIndex))
        let model = try ObjectModel(json: Data(readme[start.upperBound..<end.lowerBound].utf8))
        #expect(Set(model.entities.map(\.name)) == ["Task", "Operator", "Well"])
    }

    /// A user trial: an attribute `_pk` (column Z_PK) and entities `C` and `c` (both table ZC) passed the
    /// check and failed in SQLite, naming the import's hidden temporary file.
    @Test("names whose columns or tables would clash in SQLite are refused up front")
    func columnAndTableClashes() {
        let json = #"""
            {"entities": [
              {"name": "C", "attributes": [{"name": "name", "type": "String"}, {"name": "_pk", "type": "Integer 32"}, {"name": "__", "type": "String"}]},
              {"name": "c", "attributes": [{"name": "x", "type": "String"}]},
              {"name": "_METADATA", "attributes": [{"name": "x", "type": "String"}]}]}
            """#
        #expect(problems(json) == [
            "entities[0] (C).attributes[1] (_pk): '_pk' would be stored in column Z_PK, among Core Data's own Z_ columns (Z_PK, Z_ENT, Z_OPT); property names start with a letter: rename it, e.g. 'pk'",
            "entities[0] (C).attributes[2] (__): '__' would be stored in column Z__, among Core Data's own Z_ columns (Z_PK, Z_ENT, Z_OPT); property names start with a letter: rename it, e.g. 'value'",
            "entities[1] (c): its table ZC would be entity C's table too; entity names may not differ only in case",
            "entities[2] (_METADATA): '_METADATA' would be stored in table Z_METADATA, among Core Data's own Z_ tables (Z_METADATA, Z_PRIMARYKEY, join tables); entity names start with a letter",
        ])
    }

    /// A user trial: "2020-01-01T00:00:00Z" as a Date default read "cannot be read as Date", with no word
    /// on the seconds since 2001 it wanted.
    @Test("a Date default is seconds since 2001 or ISO 8601 in UTC; anything else says how to write it")
    func dateDefaults() throws {
        func model(_ value: String) -> String {
            #"{"entities": [{"name": "Task", "attributes": [{"name": "due", "type": "Date", "default": \#(value)}]}]}"#
        }
        for (value, seconds) in [("599529600", 599_529_600.0), (#""599529600""#, 599_529_600), (#""2020-01-01""#, 599_529_600),
                                 (#""2020-01-01T12:00:00Z""#, 599_572_800), (#""2020-01-01T12:00:00.5+01:00""#, 599_569_200.5)] {
            let parsed = try ObjectModel(json: Data(model(value).utf8))
            #expect(parsed.entity(named: "Task")?.attributes.first?.defaultValue == .date(Date(timeIntervalSinceReferenceDate: seconds)), "\(value)")
        }
        // A user trial: these were misread without a word (time dropped, hour 25 and February 30 taken,
        // the fraction cut to milliseconds, the year 1000 on the Julian calendar).
        for value in ["2020-01-01 12:00:00", "2020-01-01T12:00", "2020-01-01T25:00:00Z", "2020-02-30", "2020-01-01T12:00:00", "2020-1-1"] {
            #expect(problems(model("\"\(value)\"")).count == 1, "\(value)")
        }
        let exact = try ObjectModel(json: Data(model(#""2020-01-01T12:00:00.123456Z""#).utf8))
        #expect(exact.entity(named: "Task")?.attributes.first?.defaultValue == .date(Date(timeIntervalSinceReferenceDate: 599_572_800.123456)))
        let early = try ObjectModel(json: Data(model(#""1000-01-01""#).utf8))
        #expect(early.entity(named: "Task")?.attributes.first?.defaultValue?.description == "1000-01-01T00:00:00Z", "proleptic Gregorian, as the importer reads dates")
        let before2001 = try ObjectModel(json: Data(model(#""1969-12-31T23:59:59.25Z""#).utf8))
        #expect(before2001.entity(named: "Task")?.attributes.first?.defaultValue == .date(Date(timeIntervalSinceReferenceDate: -978_307_200.75)))
        #expect(problems(model(#""next week""#)) == [
            #"entities[0] (Task).attributes[0] (due): the default "next week" cannot be read as Date: write seconds since 2001-01-01 (599529600 for 2020-01-01), or ISO 8601 in UTC ("2020-01-01", "2020-01-01T12:00:00Z")"#,
        ])
    }

    /// A user trial: 2.9 for an Integer default was stored as 2, 2 for a Boolean as true, and a Decimal
    /// default with 17 digits as the 16 a double keeps, all without a word.
    @Test("a default that is not the value exactly (a fraction for an integer, 2 for a Boolean, digits a Decimal loses) is refused")
    func inexactDefaults() throws {
        func model(_ type: String, _ value: String) -> String {
            #"{"entities": [{"name": "T", "attributes": [{"name": "a", "type": "\#(type)", "default": \#(value)}]}]}"#
        }
        for (type, value) in [("Integer 16", "2.9"), ("Integer 64", "-1.99"), ("Integer 32", "true"), ("Boolean", "2"), ("Boolean", "0.5"),
                              ("Integer 64", "9223372036854775808"), ("Integer 64", "18446744073709551615"), ("Date", "1e300"), ("Date", "-1e12"), ("Decimal", "1e128"),
                              ("Decimal", #""0.12345678901234567""#), ("Decimal", "0.12345678901234567"), ("Transformable", #""x""#)] {
            #expect(problems(model(type, value)).count == 1, "\(type) \(value)")
        }
        #expect(problems(model("Transformable", #""x""#)).first?.hasSuffix("(Transformable attributes take no default here)") == true)
        for (type, value, expected) in [("Integer 16", "3.0", Value.integer(3)), ("Integer 64", "-7", .integer(-7)), ("Boolean", "1", .bool(true)),
                                        ("Boolean", "false", .bool(false)), ("Decimal", #""12345678901234567""#, .decimal(Decimal(string: "12345678901234567")!)),
                                        ("Decimal", #""0.1""#, .decimal(Decimal(string: "0.1")!)),
                                        ("Integer 64", "-9223372036854775808", .integer(Int64.min)), ("Integer 64", "9223372036854775807", .integer(Int64.max)),
                                        ("Decimal", "9007199254740993", .decimal(Decimal(string: "9007199254740993")!)),
                                        // Foundation reads these digits as a decimal number whose doubleValue is one ulp off.
                                        ("Double", "0.12345678901234567", .double(Double("0.12345678901234567")!)),
                                        ("Double", "-2.2250738585072014e-308", .double(-2.2250738585072014e-308)),
                                        ("Decimal", "0.25", .decimal(Decimal(string: "0.25")!))] {
            let parsed = try ObjectModel(json: Data(model(type, value).utf8))
            #expect(parsed.entity(named: "T")?.attributes.first?.defaultValue == expected, "\(type) \(value)")
            // A store keeps its model as JSON: the default reads back from it.
            let again = try ObjectModel(json: parsed.jsonData())
            #expect(again.entity(named: "T")?.attributes.first?.defaultValue == expected, "\(type) \(value) read back")
        }
    }

    @Test("a relationship without a destination is reported once, not again through its inverse")
    func missingDestinationDoesNotEcho() {
        let json = #"""
            {"entities": [
              {"name": "Well", "relationships": [{"name": "region", "inverse": "wells"}]},
              {"name": "Region", "relationships": [{"name": "wells", "destination": "Well", "inverse": "region", "toMany": true}]},
              {"attributes": []}]}
            """#
        #expect(problems(json) == [
            #"entities[0] (Well).relationships[0] (region): "destination" is missing; name the entity it points to"#,
            #"entities[2]: the entity has no "name"; give it one"#,
        ])
    }

    @Test("the error names the file and counts the problems")
    func errorNamesTheFile() {
        #expect {
            _ = try ObjectModel(json: Data(#"{"entities": [{"name": "A", "atributes": [], "relationship": []}]}"#.utf8), file: "m.json")
        } throws: { error in
            "\(error)".hasPrefix("invalid model m.json (2 problems)\n  - entities[0] (A): unknown key \"atributes\"")
        }
    }

    @Test("every model file in the repository, and what jsonData writes, still loads")
    func repositoryModelsLoad() throws {
        let directory = Fixtures.local.appendingPathComponent("models")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".json") }
        #expect(files.count >= 6)
        for file in files {
            let model = try ObjectModel(contentsOf: directory.appendingPathComponent(file).path)
            let again = try ObjectModel(json: model.jsonData())
            #expect(again.entityDescriptions == model.entityDescriptions, "\(file)")
        }
        // Every key jsonData can write, minCount, maxCount, ordered, transformer and null inverse included.
        let written = try ObjectModel([
            EntityDescription("A", attributes: [Attribute("blob", .transformable, valueTransformerName: "JSONValueTransformer"),
                                                Attribute("n", .integer16, optional: false, defaultValue: .integer(3), indexed: true)],
                              relationships: [Relationship("bs", to: "B", inverse: "a", toMany: true, minCount: 1, maxCount: 4, ordered: true)]),
            EntityDescription("B", relationships: [Relationship("a", to: "A", inverse: "bs", deleteRule: .cascade, optional: false)]),
        ])
        #expect(try ObjectModel(json: written.jsonData()).entityDescriptions == written.entityDescriptions)
    }
}
