import Foundation
import ManagedStore
import SeedImport
import Testing

/// A chosen delimiter and quote, from the mapping or the command line.
@Suite("Import: delimiters and quotes")
struct ImportDialectTests {
    static let model = ImportUpsertTests.model

    /// Teams written with `delimiter` and `quote`: a delimiter, a doubled quote and a line break inside
    /// quotes.
    static func teams(delimiter: String, quote: String) -> String {
        let rows = [["code", "name"], ["ENG", "\(quote)Engines\(delimiter) Ltd\(quote)"],
                    ["MIT", "\(quote)The \(quote)\(quote)Institute\(quote)\(quote)\(quote)"], ["DEC", "\(quote)Digital\nEquipment\(quote)"]]
        return rows.map { $0.joined(separator: delimiter) }.joined(separator: "\n") + "\n"
    }

    static let expected = ["ENG": "Engines\(Character(Unicode.Scalar(1))) Ltd", "MIT": "The 'Institute'", "DEC": "Digital\nEquipment"]

    @Test("a mapping names \\x01 as the delimiter and ' as the quote", arguments: [#""\\x01""#, #""\u0001""#])
    func mapping(delimiter: String) throws {
        let scratch = ImportScratch()
        try scratch.write("teams.txt", Self.teams(delimiter: "\u{01}", quote: "'"))
        let mapping = try ImportMapping(json: Data("""
            {"format": 1, "defaults": {"delimiter": \(delimiter), "quote": "'"},
             "files": [{"path": "teams.txt", "targets": [{"entity": "Team", "key": "code"}]}]}
            """.utf8), baseDirectory: scratch.url.path)
        _ = try SeedImporter(model: Self.model, mapping: mapping).run(into: scratch.path("Teams.sqlite"))
        #expect(try ImportUpsertTests.teams(scratch.path("Teams.sqlite")) == Self.expected)
    }

    @Test("a semicolon and a quote chosen per file override the defaults")
    func perFile() throws {
        let scratch = ImportScratch()
        try scratch.write("teams.csv", Self.teams(delimiter: ";", quote: "'"))
        let mapping = try ImportMapping(json: Data("""
            {"format": 1, "defaults": {"delimiter": "\\t"},
             "files": [{"path": "teams.csv", "delimiter": ";", "quote": "'", "targets": [{"entity": "Team", "key": "code"}]}]}
            """.utf8), baseDirectory: scratch.url.path)
        _ = try SeedImporter(model: Self.model, mapping: mapping).run(into: scratch.path("Teams.sqlite"))
        let teams = try ImportUpsertTests.teams(scratch.path("Teams.sqlite"))
        #expect(teams["ENG"] == "Engines; Ltd")
        #expect(teams["MIT"] == "The 'Institute'")
    }

    @Test("a quote equal to the delimiter, or not one byte, is a mapping problem")
    func badChoices() throws {
        for (defaults, message) in [(#"{"delimiter": ";", "quote": ";"}"#, "the quote and the delimiter are both ';'"),
                                    (#"{"quote": "«»"}"#, "is not a one-byte quote"),
                                    (#"{"delimiter": "\\x0A"}"#, "is not a one-byte delimiter")] {
            #expect(throws: ImportError.self) {
                _ = try ImportMapping(json: Data("""
                    {"format": 1, "defaults": \(defaults), "files": [{"path": "t.csv", "targets": [{"entity": "Team"}]}]}
                    """.utf8), baseDirectory: "/tmp")
            }
            do {
                _ = try ImportMapping(json: Data("""
                    {"format": 1, "defaults": \(defaults), "files": [{"path": "t.csv", "targets": [{"entity": "Team"}]}]}
                    """.utf8), baseDirectory: "/tmp")
            } catch {
                #expect("\(error)".contains(message), "\(error)")
            }
        }
    }

    @Test("a header naming a used column twice is a mapping problem; an unused repeat is not")
    func repeatedHeaderNames() throws {
        let scratch = ImportScratch()
        try scratch.write("twice.csv", "code,name,code\nENG,Engines,X\n")
        try scratch.write("spare.csv", "code,name,,\nENG,Engines,,\n")
        func run(_ file: String) throws {
            let mapping = try ImportMapping(json: Data("""
                {"format": 1, "files": [{"path": "\(file)", "targets": [{"entity": "Team", "key": "code"}]}]}
                """.utf8), baseDirectory: scratch.url.path)
            _ = try SeedImporter(model: Self.model, mapping: mapping).run(into: scratch.path("Teams.sqlite"))
        }
        do {
            try run("twice.csv")
            Issue.record("a repeated column the mapping reads should stop the import")
        } catch let error as ImportError {
            #expect(error.kind == .mapping)
            #expect(error.problems.joined().contains("the header names \"code\" 2 times (columns 1, 3)"))
        }
        try run("spare.csv")
        #expect(try ImportUpsertTests.teams(scratch.path("Teams.sqlite")) == ["ENG": "Engines"])
    }

    @Test("CSVOptions.byte reads characters, \\t and \\xHH, and refuses line breaks")
    func bytes() {
        #expect(CSVOptions.byte(",") == 0x2C)
        #expect(CSVOptions.byte("\\t") == 0x09 && CSVOptions.byte("tab") == 0x09 && CSVOptions.byte("\t") == 0x09)
        #expect(CSVOptions.byte("\\x01") == 0x01 && CSVOptions.byte("\\X1f") == 0x1F)
        #expect(CSVOptions.byte("\n") == nil && CSVOptions.byte("\\x0d") == nil)
        #expect(CSVOptions.byte("é") == nil && CSVOptions.byte(";;") == nil && CSVOptions.byte("\\xZZ") == nil)
    }

    @Test("the CLI's --delimiter \\x01 and --quote override the mapping", .enabled(if: ImportFixtures.hasCLI, ImportFixtures.cliSkipReason))
    func commandLine() throws {
        let scratch = ImportScratch()
        try scratch.write("teams.txt", Self.teams(delimiter: "\u{01}", quote: "'"))
        let result = try ImportCLI.run([
            "import", "--model", ImportFixtures.path("models/import-basics.model.json"), "--out", scratch.path("Teams.sqlite"),
            "--progress", "none", "--delimiter", "\\x01", "--quote", "'", "Team=\(scratch.path("teams.txt"))",
        ])
        #expect(result.status == 0, "\(result.errors)")
        #expect(try ImportUpsertTests.teams(scratch.path("Teams.sqlite")) == Self.expected)
        let clash = try ImportCLI.run(["import", "--model", "m.json", "--out", "x.sqlite", "--delimiter", "'", "--quote", "'", "Team=t.csv"])
        #expect(clash.status == 64)
        #expect(clash.errors.contains("they must differ"))
    }
}
