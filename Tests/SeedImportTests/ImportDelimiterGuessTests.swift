import Foundation
import ManagedStore
@testable import SeedImport
import Testing

/// A `.tsv` file reads tab-separated unless a delimiter is given; a header that reads as one column
/// holding `;`, a tab or `|` makes the messages suggest that delimiter.
@Suite("Import: delimiters guessed and suggested")
struct ImportDelimiterGuessTests {
    static let model = """
        {"entities": [{"name": "E", "attributes": [{"name": "a", "type": "String"}, {"name": "n", "type": "Integer 32"}]}]}
        """

    static func scratch(_ files: [String: String]) throws -> (ImportScratch, ObjectModel) {
        let scratch = ImportScratch()
        try scratch.write("m.model.json", model)
        for (name, text) in files { try scratch.write(name, text) }
        return (scratch, try ObjectModel(contentsOf: scratch.path("m.model.json")))
    }

    static func problems(_ body: () throws -> Void) -> [String] {
        do { try body() } catch let error as ImportError { return error.problems } catch { return ["\(error)"] }
        return []
    }

    @Test("the likelier delimiter of a one-column header")
    func guesses() {
        let comma = UInt8(ascii: ",")
        #expect(_DelimiterGuess.delimiter(header: ["id;name;age"], delimiter: comma) == UInt8(ascii: ";"))
        #expect(_DelimiterGuess.delimiter(header: ["id\tname"], delimiter: comma) == 0x09)
        #expect(_DelimiterGuess.delimiter(header: ["id|name|a;b"], delimiter: comma) == UInt8(ascii: "|"), "the most frequent")
        #expect(_DelimiterGuess.delimiter(header: ["id;name", "age"], delimiter: comma) == nil, "several columns")
        // Read with another delimiter (--delimiter meant for another file): the header's own is named, with why (a user trial).
        #expect(_DelimiterGuess.delimiter(header: ["id;name"], delimiter: UInt8(ascii: "|")) == UInt8(ascii: ";"))
        #expect(_DelimiterGuess.delimiter(header: ["code,name"], delimiter: UInt8(ascii: ";")) == comma)
        #expect(_DelimiterGuess.suggestion(header: ["code,name"], delimiter: UInt8(ascii: ";"))?
            .hasSuffix("pass --delimiter ',' (in a mapping, \"delimiter\": \",\" for the file); --delimiter applies to every file, so files with different delimiters need a mapping that gives each its own (--save-mapping writes one)") == true)
        #expect(_DelimiterGuess.delimiter(header: ["idname"], delimiter: comma) == nil)
        #expect(_DelimiterGuess.suggestion(header: ["a\tn"], delimiter: comma)
            == "the header reads as one column holding '\\t': the file looks '\\t'-separated; pass --delimiter '\\t' (in a mapping, \"delimiter\": \"\\t\" for the file)")
    }

    @Test("a ;-separated file imported by header names: the problem suggests --delimiter ';'")
    func inferredSuggestion() throws {
        let (scratch, model) = try Self.scratch(["e.csv": "a;n\nx;1\n"])
        let problems = Self.problems {
            _ = try ImportMapping.inferred(sources: [("E", "e.csv")], model: model, baseDirectory: scratch.url.path)
        }
        #expect(problems.count == 1)
        #expect(problems.first?.hasSuffix("; the header reads as one column holding ';': the file looks ';'-separated; pass --delimiter ';' (in a mapping, \"delimiter\": \";\" for the file)") == true, "\(problems)")
    }

    @Test("a |-separated file in a mapping: the column problems suggest the delimiter")
    func mappingSuggestion() throws {
        let (scratch, model) = try Self.scratch(["e.csv": "a|n\nx|1\n"])
        let mapping = ImportMapping(files: [FileMapping(path: "e.csv", content: .targets([TargetMapping(entity: "E", columns: ["a": ColumnMapping("a")])]))],
                                    baseDirectory: scratch.url.path)
        let problems = Self.problems {
            _ = try SeedImporter(model: model, mapping: mapping).run(into: scratch.path("s.sqlite"))
        }
        #expect(problems.count == 1)
        #expect(problems.first?.contains("the column \"a\" named for a is not in the file (the header has: \"a|n\"); the header reads as one column holding '|'") == true, "\(problems)")
    }

    @Test("a .tsv file reads tab-separated when no delimiter is given, and as given otherwise")
    func tsvDefault() throws {
        let (scratch, model) = try Self.scratch(["e.tsv": "a\tn\nx, y\t1\n", "c.TSV": "a,n\nz,2\n"])
        let inferred = try ImportMapping.inferred(sources: [("E", "e.tsv")], model: model, baseDirectory: scratch.url.path)
        _ = try SeedImporter(model: model, mapping: inferred).run(into: scratch.path("s.sqlite"))
        let (context, rows) = try StoreReader.objects(scratch.path("s.sqlite"), "E")
        #expect(rows.map { $0["a"] } == [.string("x, y")] && rows.map { $0["n"] } == [.integer(1)])
        withExtendedLifetime(context) {}

        // A delimiter given anywhere wins: the mapping's defaults here.
        var defaults = CSVOptions()
        defaults.delimiter = UInt8(ascii: ",")
        let given = ImportMapping(defaults: defaults, files: [FileMapping(path: "c.TSV", options: defaults, content: .targets([TargetMapping(entity: "E")]))],
                                  baseDirectory: scratch.url.path)
        _ = try SeedImporter(model: model, mapping: given).run(into: scratch.path("c.sqlite"))
        #expect(try StoreReader.scalar(scratch.path("c.sqlite"), "SELECT ZA || ':' || ZN FROM ZE") == .text("z:2"))
        #expect(CSVOptions().forFile("x.tsv").delimiter == 0x09)
        #expect(CSVOptions().forFile("x.csv").delimiter == UInt8(ascii: ","))
        #expect(CSVOptions(delimiter: UInt8(ascii: ";")).forFile("x.tsv").delimiter == UInt8(ascii: ";"))
    }
}
