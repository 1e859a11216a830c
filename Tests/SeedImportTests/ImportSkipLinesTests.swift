import Foundation
import ManagedStore
import Testing
@testable import SeedImport

/// Files with a title or notes above the header: `"skipLines"` and `--skip-lines`, and the messages that
/// point at the header's line when the first line names nothing.
@Suite("Import: lines above the header")
struct ImportSkipLinesTests {
    static let model = """
        {"entities": [{"name": "Item", "attributes": [{"name": "sku", "type": "String", "optional": false},
          {"name": "price", "type": "Double"}]}]}
        """
    static let csv = "Items export, 2026-11-26\n\"prepared by \"\"the shop\"\", unclosed\n\nsku,price\n001,1.5\n002,x\n003,2\n"

    @Test("a mapping's skipLines reads the header below them, and rejects keep the file's line numbers")
    func mapping() throws {
        let scratch = ImportScratch()
        try scratch.write("m.model.json", Self.model)
        try scratch.write("items.csv", Self.csv)
        let mapping = try ImportMapping(json: Data("""
            {"format": 1, "model": "m.model.json", "files": [{"path": "items.csv", "skipLines": 3, "targets": [{"entity": "Item", "key": "sku"}]}]}
            """.utf8), baseDirectory: scratch.url.path)
        let summary = try SeedImporter(model: try mapping.loadModel(), mapping: mapping, options: scratch.skipping())
            .run(into: scratch.path("A.sqlite"))
        #expect(summary.objects["Item"]?.stored == 2)
        #expect(scratch.rejects.contains("items.csv,6,2,Item,price,x,price: not a number,\"002,x\""), "\(scratch.rejects)")
    }

    @Test("without skipLines, the message says on which line the header looks to be")
    func guesses() throws {
        let scratch = ImportScratch()
        try scratch.write("m.model.json", Self.model)
        try scratch.write("items.csv", Self.csv.replacingOccurrences(of: "\"prepared by \"\"the shop\"\", unclosed", with: "prepared by the shop"))
        let hint = "the header looks like it is on line 4 (\"sku\", \"price\"): if the lines above it are not CSV (a title, notes), pass --skip-lines 3 (in a mapping, \"skipLines\": 3 for the file)"
        let mapping = try ImportMapping(json: Data("""
            {"format": 1, "model": "m.model.json", "files": [{"path": "items.csv", "targets": [{"entity": "Item", "key": "sku"}]}]}
            """.utf8), baseDirectory: scratch.url.path)
        #expect {
            _ = try SeedImporter(model: try mapping.loadModel(), mapping: mapping).run(into: scratch.path("B.sqlite"))
        } throws: { error in
            (error as? ImportError)?.problems.contains { $0.hasSuffix(hint) } == true
        }
        let model = try ObjectModel(contentsOf: scratch.path("m.model.json"))
        #expect {
            _ = try ImportMapping.inferred(sources: [("Item", scratch.path("items.csv"))], model: model)
        } throws: { error in
            (error as? ImportError)?.problems.contains { $0.hasSuffix(hint) } == true
        }
        #expect(!FileManager.default.fileExists(atPath: scratch.path("B.sqlite")))
    }

    @Test("--skip-lines, and a negative count refused")
    func commandLine() throws {
        guard ImportFixtures.hasCLI else { return }
        let scratch = ImportScratch()
        try scratch.write("m.model.json", Self.model)
        try scratch.write("items.csv", Self.csv)
        let result = try ImportCLI.run(["import", "--model", scratch.path("m.model.json"), "--out", scratch.path("C.sqlite"), "--progress", "none",
                                        "--skip-lines", "3", "--on-error", "skip", "--rejects", scratch.path("r.csv"), "Item=\(scratch.path("items.csv"))"])
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.contains("3 rows read, 2 imported, 1 rejected"), "\(result.output)")
        let negative = try ImportCLI.run(["import", "--model", scratch.path("m.model.json"), "--out", scratch.path("D.sqlite"),
                                          "--skip-lines=-1", "Item=\(scratch.path("items.csv"))"])
        #expect(negative.status == 64 && negative.errors.contains("--skip-lines takes 0 or more, not -1."), "\(negative.errors)")
    }

    @Test("\"skipLines\" takes a count of lines")
    func badValue() throws {
        for value in [0, 1, 2] {   // 0 and 1 once read as booleans and were refused (found by fuzzing)
            let mapping = try ImportMapping(json: Data(#"{"format": 1, "defaults": {"skipLines": \#(value)}, "files": [{"path": "a.csv", "targets": [{"entity": "A"}]}]}"#.utf8),
                                            baseDirectory: "/tmp")
            #expect(mapping.files.first?.options.skipLines == value)
        }
        for value in ["-1", "\"3\"", "true", "1.5"] {
            #expect(throws: (any Error).self, "\(value)") {
                try ImportMapping(json: Data(#"{"format": 1, "files": [{"path": "a.csv", "skipLines": \#(value), "targets": [{"entity": "A"}]}]}"#.utf8),
                                  baseDirectory: "/tmp")
            }
        }
    }

    @Test("Excel's sep= line names the delimiter and is skipped; a delimiter set elsewhere wins")
    func separatorLine() throws {
        let scratch = ImportScratch()
        func options(_ text: [UInt8], _ base: CSVOptions = CSVOptions()) throws -> CSVOptions {
            try Data(text).write(to: scratch.url.appendingPathComponent("s.csv"))
            return base.withSeparatorLine(of: scratch.path("s.csv"))
        }
        let semicolon = try options(Array("sep=;\r\nsku;price\r\n".utf8))
        #expect(semicolon.delimiter == UInt8(ascii: ";") && semicolon.skipLines == 1)
        let bom = try options([0xEF, 0xBB, 0xBF] + Array("SEP=|\nsku|price\n".utf8))
        #expect(bom.delimiter == UInt8(ascii: "|") && bom.skipLines == 1)
        let chosen = try options(Array("sep=;\nsku\tprice\n".utf8), CSVOptions(delimiter: 0x09))
        #expect(chosen.delimiter == 0x09 && chosen.skipLines == 1, "the delimiter a mapping or --delimiter set wins")
        var threeLines = CSVOptions()
        threeLines.skipLines = 3
        #expect(try options(Array("sep=;\ntitle\n\nsku;price\n".utf8), threeLines).skipLines == 3, "skipLines already counts the line")
        for text in ["sku,price\n", "sep=\nsku\n", "sep=;;\nsku\n", "sep", ""] {
            #expect(try options(Array(text.utf8)) == CSVOptions(), "\(text.debugDescription) is no separator line")
        }

        try scratch.write("m.model.json", Self.model)
        try scratch.write("items.csv", "sep=;\nsku;price\n001;1.5\n002;x\n")
        let model = try ObjectModel(contentsOf: scratch.path("m.model.json"))
        let mapping = try ImportMapping.inferred(sources: [("Item", scratch.path("items.csv"))], model: model)
        let summary = try SeedImporter(model: model, mapping: mapping, options: scratch.skipping()).run(into: scratch.path("E.sqlite"))
        #expect(summary.objects["Item"]?.stored == 1)
        #expect(scratch.rejects.contains("items.csv,4,2,Item,price,x,price: not a number,002;x"), "line 4 of the file: \(scratch.rejects)")
    }
}
