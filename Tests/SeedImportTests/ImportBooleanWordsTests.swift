import Foundation
import ManagedStore
import Testing
@testable import SeedImport

/// Boolean columns written with words of their own (`ja`/`nein`), from the mapping or the command line.
@Suite("Import: boolean words")
struct ImportBooleanWordsTests {
    /// Converts `text` (nil: did not convert, with the reason) with a Boolean converter given `words`.
    static func read(_ text: String, true trueValues: [String]?, false falseValues: [String]?) throws -> (Value?, String) {
        var keepAlive: [AnyObject] = []
        let converter = try _FieldConverter.make(for: Attribute("active", .boolean), format: nil, encoding: .utf8,
                                                 trueValues: trueValues, falseValues: falseValues, keepAlive: &keepAlive).get()
        return withExtendedLifetime(keepAlive) {
            Array(text.utf8).withUnsafeBufferPointer { (converter.convert($0), converter.explain($0)) }
        }
    }

    static func problem(_ type: AttributeType = .boolean, true trueValues: [String]?, false falseValues: [String]?) -> String? {
        var keepAlive: [AnyObject] = []
        guard case .failure(let problem) = _FieldConverter.make(for: Attribute("active", type), format: nil, encoding: .utf8,
                                                                trueValues: trueValues, falseValues: falseValues, keepAlive: &keepAlive) else { return nil }
        return problem.message
    }

    /// A user trial: `--true-value ' ja '` was accepted but could never match, as a field's spaces are dropped.
    @Test("words given with spaces around them match the field without them")
    func spacedWords() throws {
        #expect(try Self.read("ja", true: [" ja "], false: ["\tnein"]).0 == .bool(true))
        #expect(try Self.read(" nein ", true: [" ja "], false: ["\tnein"]).0 == nil, "the field's spaces are dropped before it gets here")
        #expect(try Self.read("nein", true: [" ja "], false: ["\tnein"]).0 == .bool(false))
        #expect(Self.problem(true: ["  "], false: nil)?.contains("holds an empty word") == true)
    }

    @Test("the column's words read in any ASCII case, besides the built-in ones")
    func reads() throws {
        #expect(try Self.read("ja", true: ["ja"], false: ["nein"]).0 == .bool(true))
        #expect(try Self.read("NEIN", true: ["ja"], false: ["nein"]).0 == .bool(false))
        #expect(try Self.read("Oui", true: ["ja", "oui"], false: nil).0 == .bool(true))
        #expect(try Self.read("sí", true: ["sí"], false: ["no"]).0 == .bool(true), "non-ASCII bytes compare as written")
        #expect(try Self.read("yes", true: ["ja"], false: ["nein"]).0 == .bool(true), "the built-in words still read")
        #expect(try Self.read("0", true: ["ja"], false: ["nein"]).0 == .bool(false))
        #expect(try Self.read("jein", true: ["ja"], false: ["nein"]).0 == nil)
        #expect(try Self.read("jein", true: ["ja"], false: ["nein"]).1 == "not a boolean (true/false, yes/no, y/n, t/f or 1/0, any case, or ja/nein)")
        #expect(try Self.read("x", true: ["ja", "oui"], false: nil).1.hasSuffix("or ja or oui for true)"))
    }

    @Test("without words, the reason says how to give them")
    func hint() throws {
        let (value, reason) = try Self.read("ja", true: nil, false: nil)
        #expect(value == nil)
        #expect(reason.contains("\"trueValues\" and \"falseValues\" in a mapping, or --true-value and --false-value"))
    }

    @Test("words that cannot be read are mapping problems")
    func problems() {
        #expect(Self.problem(.string, true: ["ja"], false: nil) == "\"trueValues\" and \"falseValues\" apply to Boolean attributes only; active is String")
        #expect(Self.problem(true: ["no"], false: nil) == "active: trueValues holds \"no\", which already reads as false")
        #expect(Self.problem(true: ["ja"], false: ["JA"]) == "active: \"ja\" is in both trueValues and falseValues")
        #expect(Self.problem(true: [""], false: nil)?.contains("an empty word") == true)
        #expect(Self.problem(true: ["Yes"], false: nil) == nil, "a built-in word for the same value is harmless")
    }

    @Test("a mapping's trueValues/falseValues and the CLI's --true-value/--false-value import a German export")
    func endToEnd() throws {
        let scratch = ImportScratch()
        try scratch.write("m.model.json", """
            {"entities": [{"name": "Item", "attributes": [{"name": "sku", "type": "String", "optional": false},
              {"name": "active", "type": "Boolean"}, {"name": "archived", "type": "Boolean"}]}]}
            """)
        try scratch.write("items.csv", "sku;Aktiv;archived\n001;ja;nein\n002;Nein;J\n003;vielleicht;0\n")
        let mapping = try ImportMapping(json: Data("""
            {"format": 1, "model": "m.model.json",
             "files": [{"path": "items.csv", "delimiter": ";", "targets": [{"entity": "Item", "key": "sku",
               "columns": {"active": {"column": "Aktiv", "trueValues": ["ja"], "falseValues": ["nein"]},
                           "archived": {"column": "archived", "trueValues": ["J"], "falseValues": ["nein"]}}}]}]}
            """.utf8), baseDirectory: scratch.url.path)
        let summary = try SeedImporter(model: try mapping.loadModel(), mapping: mapping, options: scratch.skipping())
            .run(into: scratch.path("A.sqlite"))
        #expect(summary.rejects == 1)
        #expect(scratch.rejects.contains("items.csv,4,2,Item,active,vielleicht,\"Aktiv: not a boolean (true/false, yes/no, y/n, t/f or 1/0, any case, or ja/nein)\""), "\(scratch.rejects)")
        #expect(try StoreReader.scalar(scratch.path("A.sqlite"), "SELECT group_concat(ZSKU || ':' || ZACTIVE || ZARCHIVED) FROM ZITEM")?.string == "001:10,002:01")

        guard ImportFixtures.hasCLI else { return }
        try scratch.write("items.csv", "sku;active;archived\n001;ja;nein\n002;Nein;J\n003;vielleicht;0\n")
        let result = try ImportCLI.run(["import", "--model", scratch.path("m.model.json"), "--out", scratch.path("B.sqlite"),
                                        "--progress", "none", "--delimiter", ";", "--true-value", "ja", "--true-value", "j",
                                        "--false-value", "nein", "Item=\(scratch.path("items.csv"))", "--on-error", "skip",
                                        "--rejects", scratch.path("b.csv")])
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.contains("3 rows read, 2 imported, 1 rejected"), "\(result.output)")
        #expect(try StoreReader.scalar(scratch.path("B.sqlite"), "SELECT group_concat(ZSKU || ':' || ZACTIVE || ZARCHIVED) FROM ZITEM")?.string == "001:10,002:01")
        let conflict = try ImportCLI.run(["import", "--model", scratch.path("m.model.json"), "--out", scratch.path("C.sqlite"),
                                          "--progress", "none", "--delimiter", ";", "--true-value", "n", "Item=\(scratch.path("items.csv"))"])
        // Options are checked as usage, naming the option (a user read "Fix the mapping" with no mapping given).
        #expect(conflict.status == 64 && conflict.errors.contains("--true-value holds \"n\", which already reads as false"), "\(conflict.errors)")
        #expect(!conflict.errors.contains("Fix the mapping"), "\(conflict.errors)")
        let both = try ImportCLI.run(["import", "--model", scratch.path("m.model.json"), "--out", scratch.path("C.sqlite"),
                                      "--true-value", "ja", "--false-value", "JA", "Item=\(scratch.path("items.csv"))"])
        #expect(both.status == 64 && both.errors.contains("\"ja\" is in both --true-value and --false-value"), "\(both.errors)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("C.sqlite")))
    }
}
