import CSVStream
import Foundation
import ManagedStore
import SeedImport
import Testing

/// Bytes the file's encoding does not define, and strict-mode quote errors: the error names the file, line,
/// column, entity and attribute (or the column nothing reads), and the offending byte's offset.
@Suite("Import: bytes the encoding does not define")
struct ImportEncodingErrorTests {
    static let modelJSON = """
        {"entities": [{"name": "R", "attributes": [
          {"name": "code", "type": "String"}, {"name": "amount", "type": "Integer 32"}, {"name": "note", "type": "String"}]}]}
        """
    /// The issue's file: `caf` + 0xE9 (Latin-1 é) in the note of line 3, at byte offset 31.
    static let enc = Array("code,amount,note\nA,1,ok\nB,2,caf".utf8) + [0xE9] + Array("\n".utf8)

    /// Writes `bytes` as `name` and the model, and imports `R=name` without a mapping file.
    static func run(_ bytes: [UInt8], name: String = "enc.csv", in scratch: ImportScratch, options: ImportOptions = ImportOptions(),
                    model json: String = modelJSON, defaults: CSVOptions = CSVOptions()) throws -> ImportSummary {
        try Data(bytes).write(to: URL(fileURLWithPath: scratch.path(name)))
        try scratch.write("m.model.json", json)
        let model = try ObjectModel(contentsOf: scratch.path("m.model.json"))
        let mapping = try ImportMapping.inferred(sources: [("R", name)], model: model, defaults: defaults, baseDirectory: scratch.url.path)
        return try SeedImporter(model: model, mapping: mapping, options: options).run(into: scratch.path("x.sqlite"))
    }

    @Test("abort names file:line:column, entity, attribute, value and the bad byte's offset, with an --encoding hint",
          arguments: [true, false])
    func abort(readsAhead: Bool) throws {
        let scratch = ImportScratch()
        var options = ImportOptions()
        options.readsAhead = readsAhead
        let error = try #require(throws: ImportError.self) { try Self.run(Self.enc, in: scratch, options: options) }
        #expect(error.kind == .badRow)
        #expect(error.file == "enc.csv" && error.line == 3 && error.column == 3)
        #expect(error.entity == "R" && error.attribute == "note")
        #expect(error.byteOffset == 31 && Self.enc[31] == 0xE9)
        #expect(error.description.hasPrefix("enc.csv:3:3: R.note (\"note\" = \"caf\u{FFFD}\"): byte 0xE9 is not valid UTF-8 (byte offset 31)\n"),
                "\(error)")
        #expect(error.hint?.contains("--encoding windows1252") == true)
        #expect(error.hint?.contains("no store was created at \(scratch.path("x.sqlite"))") == true, "there was none to keep: \(error.hint ?? "")")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("x.sqlite")))
    }

    @Test("a bad byte in a number column is an encoding error, not 'not a number'")
    func numberColumn() throws {
        let bytes = Array("code,amount,note\nA,1".utf8) + [0xB2] + Array(",ok\n".utf8)
        let error = try #require(throws: ImportError.self) { try Self.run(bytes, in: ImportScratch()) }
        #expect(error.attribute == "amount" && error.column == 2)
        #expect(error.reason == "byte 0xB2 is not valid UTF-8")
        #expect(error.byteOffset == Int64(bytes.firstIndex(of: 0xB2)!))
    }

    @Test("a column no attribute reads is checked too, and named by its header")
    func unmappedColumn() throws {
        let model = """
            {"entities": [{"name": "R", "attributes": [{"name": "code", "type": "String"}, {"name": "amount", "type": "Integer 32"}]}]}
            """
        let error = try #require(throws: ImportError.self) { try Self.run(Self.enc, in: ImportScratch(), model: model) }
        #expect(error.kind == .badRow && error.line == 3 && error.column == 3)
        #expect(error.columnName == "note" && error.entity == nil && error.attribute == nil)
        #expect(error.byteOffset == 31)
        #expect(error.description.hasPrefix("enc.csv:3:3: \"note\" = \"caf\u{FFFD}\": byte 0xE9 is not valid UTF-8 (byte offset 31)"), "\(error)")

        let scratch = ImportScratch()
        let summary = try Self.run(Self.enc, in: scratch, options: scratch.skipping(), model: model)
        #expect(summary.rejects == 1 && summary.objects["R"]?.stored == 1)
        let records = try ImportRejectsTests.records(scratch.path("rejects.csv"), encoding: .latin1)
        #expect(Array(records[1][1...4]) == ["3", "3", "", ""], "line, column, no entity, no attribute")
        #expect(records[1][6].hasPrefix("note: byte 0xE9 is not valid UTF-8 (byte offset 31). The file is probably Windows-1252"))
        #expect(records[1][7] == "B,2,caf\u{E9}", "the raw bytes, read back as Latin-1")
    }

    @Test("Windows-1252 and Latin-1 read the same file; Windows-1252's undefined 0x81 is named with its offset")
    func otherEncodings() throws {
        var options = ImportOptions()
        options.encoding = .latin1
        let scratch = ImportScratch()
        #expect(try Self.run(Self.enc, in: scratch, options: options).objects["R"]?.stored == 2)
        options.encoding = .windows1252
        let bytes = Array("code,amount,note\nA,1,".utf8) + [0x81] + Array("\n".utf8)
        let error = try #require(throws: ImportError.self) { try Self.run(bytes, in: ImportScratch(), options: options) }
        #expect(error.reason == "byte 0x81 is not valid Windows-1252" && error.byteOffset == 21)
    }

    @Test("a bad byte in the header is a mapping problem naming file, line 1, field and byte offset, with an --encoding hint")
    func header() throws {
        let bytes = Array("code,amount,not".utf8) + [0xE9] + Array("\nA,1,ok\n".utf8)
        let error = try #require(throws: ImportError.self) { try Self.run(bytes, in: ImportScratch()) }
        #expect(error.kind == .mapping)
        #expect(error.problems == ["enc.csv:1:3: the header cannot be read: byte 0xE9 is not valid UTF-8 (byte offset 15)"])
        #expect(error.hint?.contains("--encoding windows1252") == true)
        #expect(error.hint?.contains("Entity=path.csv") == false)

        // Through a mapping file, the same problem with the hint.
        let scratch = ImportScratch()
        try Data(bytes).write(to: URL(fileURLWithPath: scratch.path("enc.csv")))
        try scratch.write("m.model.json", Self.modelJSON)
        let mapping = try ImportMapping(json: Data("""
            {"format": 1, "model": "m.model.json", "files": [{"path": "enc.csv", "targets": [{"entity": "R"}]}]}
            """.utf8), baseDirectory: scratch.url.path)
        let planned = try #require(throws: ImportError.self) {
            try SeedImporter(model: try mapping.loadModel(), mapping: mapping).run(into: scratch.path("x.sqlite"))
        }
        #expect(planned.problems.first?.hasPrefix("enc.csv:1:3: the header cannot be read: byte 0xE9 is not valid UTF-8 (byte offset 15). The file is probably Windows-1252") == true,
                "\(planned)")
    }

    @Test("a strict-mode quote error names line, field and byte offset")
    func strictQuote() throws {
        let scratch = ImportScratch()
        let text = "code,amount,note\nA,1,ok\nB,2,say \"hi\"\n"
        try scratch.write("q.csv", text)
        try scratch.write("m.model.json", Self.modelJSON)
        let mapping = try ImportMapping(json: Data("""
            {"format": 1, "model": "m.model.json", "defaults": {"strict": true}, "files": [{"path": "q.csv", "targets": [{"entity": "R"}]}]}
            """.utf8), baseDirectory: scratch.url.path)
        let error = try #require(throws: ImportError.self) {
            try SeedImporter(model: try mapping.loadModel(), mapping: mapping).run(into: scratch.path("x.sqlite"))
        }
        let offset = Array(text.utf8).firstIndex(of: UInt8(ascii: "\""))!
        #expect(error.kind == .input && error.line == 3 && error.column == 3)
        #expect(error.byteOffset == Int64(offset))
        #expect(error.description.hasPrefix("q.csv:3:3: a quote (0x22) inside an unquoted field, or a stray quote after a quoted field (byte offset \(offset))"),
                "\(error)")
    }
}
