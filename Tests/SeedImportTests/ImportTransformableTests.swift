import Foundation
import ManagedStore
import SeedImport
import Testing

/// Transformable attributes from CSV: a JSON cell through the named transformer, Base64 without one.
@Suite("Import: transformable attributes")
struct ImportTransformableTests {
    static func model(transformer: String) throws -> ObjectModel {
        try ObjectModel(json: Data("""
            {"entities": [{"name": "Book", "attributes": [
              {"name": "title", "type": "String", "optional": false},
              {"name": "tags", "type": "Transformable", "transformer": "\(transformer)"},
              {"name": "cover", "type": "Transformable"}
            ]}]}
            """.utf8))
    }

    static func run(_ csv: String, transformer: String = JSONValueTransformer.name, options: ImportOptions = ImportOptions(),
                    in scratch: ImportScratch) throws -> ImportSummary {
        try scratch.write("books.csv", csv)
        let mapping = try ImportMapping(json: Data("""
            {"format": 1, "files": [{"path": "books.csv", "targets": [{"entity": "Book"}]}]}
            """.utf8), baseDirectory: scratch.url.path)
        return try SeedImporter(model: model(transformer: transformer), mapping: mapping, options: options)
            .run(into: scratch.path("Books.sqlite"))
    }

    @Test("a JSON cell goes through the transformer and reads back; a Base64 cell fills one without a transformer")
    func jsonAndBase64() throws {
        let scratch = ImportScratch()
        let cover = Data([0, 1, 2, 250, 251]).base64EncodedString()
        let summary = try Self.run("""
            title,tags,cover
            Emma,"[""classic"", ""novel""]",\(cover)
            Dune,"{""series"": ""Dune"", ""volume"": 1}",
            Ulysses,\"\"\"modernist\"\"\",
            Blank,,
            """, in: scratch)
        #expect(summary.rejects == 0)
        let (context, books) = try StoreReader.objects(scratch.path("Books.sqlite"), "Book")
        defer { withExtendedLifetime(context) {} }
        var byTitle: [String: ManagedObject] = [:]
        for book in books { if case .string(let title) = book["title"] { byTitle[title] = book } }
        #expect(try byTitle["Emma"]?.transformedValue(forKey: "tags") as? [String] == ["classic", "novel"])
        let dune = try byTitle["Dune"]?.transformedValue(forKey: "tags") as? [String: Any]
        #expect(dune?["series"] as? String == "Dune")
        #expect((dune?["volume"] as? NSNumber)?.intValue == 1)
        #expect(try byTitle["Ulysses"]?.transformedValue(forKey: "tags") as? String == "modernist")
        #expect(byTitle["Blank"]?["tags"] == .null)
        #expect(byTitle["Emma"]?["cover"] == .data(Data([0, 1, 2, 250, 251])))
        #expect(byTitle["Dune"]?["cover"] == .null)
    }

    @Test("a cell that is not JSON is a reject naming the transformer")
    func notJSON() throws {
        let scratch = ImportScratch()
        let options = scratch.skipping()
        let summary = try Self.run("title,tags,cover\nEmma,[classic,\nDune,[],\n", options: options, in: scratch)
        #expect(summary.rejects == 1)
        let rejects = scratch.rejects
        #expect(rejects.contains("books.csv,2,"))
        #expect(rejects.contains("not valid JSON"), "\(rejects)")
        #expect(rejects.contains("(a JSONValueTransformer attribute reads a JSON value"))
    }

    /// A user trial: Foundation's parser took `[1,]` (stored as `[1]`) and kept the last of repeated keys.
    @Test("a trailing comma or a repeated key is a reject that says so; nothing is stored changed without a word")
    func notQuiteJSON() throws {
        let scratch = ImportScratch()
        let summary = try Self.run(#"""
            title,tags,cover
            A,"[1,]",
            B,"{""a"":1,""a"":2}",
            C,"{""a"":1,""\u0061"":2}",
            D,"[{""a"":1},{""a"":2}]",

            """#, options: scratch.skipping(), in: scratch)
        #expect(summary.rejects == 3)
        let rejects = scratch.rejects
        #expect(rejects.contains("a comma before a closing bracket, which JSON does not allow"), "\(rejects)")
        #expect(rejects.contains(#"the key ""a"" appears twice in one object"#) && rejects.contains(#"the key ""\u0061"" appears twice"#), "\(rejects)")
        #expect(!rejects.contains("books.csv,5,"), "the same key in two objects is fine")
    }

    @Test("an unregistered transformer is a mapping problem that says how to register it")
    func unregistered() throws {
        let scratch = ImportScratch()
        do {
            _ = try Self.run("title,tags,cover\nEmma,[],\n", transformer: "NoSuchTransformer", in: scratch)
            Issue.record("the plan should fail")
        } catch let error as ImportError {
            #expect(error.kind == .mapping)
            #expect("\(error)".contains("tags is Transformable through 'NoSuchTransformer', which is not registered"))
            #expect("\(error)".contains("ValueTransformers.register"))
        }
    }
}
