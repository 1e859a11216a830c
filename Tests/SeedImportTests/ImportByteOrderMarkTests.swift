import CSVStream
import Foundation
import ManagedStore
@testable import SeedImport
import Testing

/// A UTF-8 byte-order mark in a file read as Windows-1252 or Latin-1 is worth a warning: the mark says
/// the file is UTF-8, and read otherwise its accented letters come out garbled.
@Suite("Import: a byte-order mark against the encoding")
struct ImportByteOrderMarkTests {
    static let model = """
        {"entities": [{"name": "E", "attributes": [{"name": "a", "type": "String"}, {"name": "n", "type": "Integer 32"}]}]}
        """

    static func scratch() throws -> (ImportScratch, ObjectModel) {
        let scratch = ImportScratch()
        try scratch.write("m.model.json", model)
        try Data([0xEF, 0xBB, 0xBF] + Array("a,n\nCafé,1\n".utf8)).write(to: URL(fileURLWithPath: scratch.path("bom.csv")))
        try scratch.write("plain.csv", "a,n\nx,1\n")
        return (scratch, try ObjectModel(contentsOf: scratch.path("m.model.json")))
    }

    @Test("the reader tells whether it skipped a byte-order mark")
    func readerFlag() throws {
        let (scratch, _) = try Self.scratch()
        var dialect = CSVDialect.csv
        dialect.encoding = .windows1252
        #expect(try CSVReader(path: scratch.path("bom.csv"), dialect: dialect).skippedByteOrderMark)
        #expect(try CSVReader(path: scratch.path("bom.csv"), dialect: dialect).header == ["a", "n"], "skipped whatever the encoding")
        #expect(try !CSVReader(path: scratch.path("plain.csv"), dialect: dialect).skippedByteOrderMark)
    }

    @Test("the plan warns for a BOM read as windows-1252 or latin-1, naming the setting; not for UTF-8",
          arguments: [(TextEncoding.windows1252, true), (.latin1, false), (.utf8, true)])
    func planWarning(encoding: TextEncoding, fromOption: Bool) throws {
        let (scratch, model) = try Self.scratch()
        var csv = CSVOptions()
        csv.encoding = encoding
        var options = ImportOptions()
        if fromOption { options.encoding = encoding }
        let mapping = ImportMapping(files: [FileMapping(path: "bom.csv", options: fromOption ? CSVOptions() : csv,
                                                        content: .targets([TargetMapping(entity: "E")])),
                                            FileMapping(path: "plain.csv", options: fromOption ? CSVOptions() : csv,
                                                        content: .targets([TargetMapping(entity: "E")]))],
                                    baseDirectory: scratch.url.path)
        let plan = try _ImportPlanner.plan(model: model, mapping: mapping, options: options)
        if encoding == .utf8 {
            #expect(plan.warnings.isEmpty)
        } else {
            let setting = fromOption ? "--encoding" : "the mapping's \"encoding\""
            #expect(plan.warnings == ["bom.csv starts with a UTF-8 byte-order mark but is read as \(encoding.displayName) (\(setting)): the mark says the file is UTF-8, so letters beyond ASCII would come out garbled (é as Ã©); if it is UTF-8, read it as utf-8"])
        }
    }

    /// The plan's warnings reach the summary with the mapping's and the session's.
    @Test("the summary carries the warning")
    func summaryWarning() throws {
        let (scratch, model) = try Self.scratch()
        var options = ImportOptions()
        options.encoding = .windows1252
        let mapping = try ImportMapping.inferred(sources: [("E", "bom.csv")], model: model, baseDirectory: scratch.url.path)
        let summary = try SeedImporter(model: model, mapping: mapping, options: options).run(into: scratch.path("s.sqlite"))
        #expect(summary.warnings.contains { $0.hasPrefix("bom.csv starts with a UTF-8 byte-order mark but is read as Windows-1252") }, "\(summary.warnings)")
    }
}
