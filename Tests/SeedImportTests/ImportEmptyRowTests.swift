import Foundation
import ManagedStore
import SeedImport
import Testing

/// Records whose fields are all empty once trimmed are skipped and counted; an empty file is named as such.
@Suite("Import: empty records and files")
struct ImportEmptyRowTests {
    @Test("records of only delimiters, spaces and tabs are skipped when trimming", arguments: [true, false])
    func whitespaceRecords(readsAhead: Bool) throws {
        let scratch = ImportScratch()
        var options = ImportOptions()
        options.readsAhead = readsAhead
        let csv = "code,amount,note\nA,1,x\n   ,  ,\t\n,,\nB,2,y\n\"\",,\n"
        let summary = try ImportEncodingErrorTests.run(Array(csv.utf8), name: "e.csv", in: scratch, options: options,
                                                       model: ImportQuoteTests.model)
        #expect(summary.files.first?.blankRows == 2)
        #expect(summary.objects["R"]?.stored == 3, "a quoted empty code is a value, so its record is not empty")
        #expect(try ImportQuoteTests.notes(scratch) == ["A": "x", "B": "y", "": ""])
    }

    @Test("without trimming, spaces are values: the record is imported or rejected, not skipped")
    func whitespaceKeptWithoutTrim() throws {
        let scratch = ImportScratch()
        try scratch.write("e.csv", "code,amount,note\nA,1,x\n   ,,\t\n")
        try scratch.write("m.model.json", ImportQuoteTests.model)
        let model = try ObjectModel(contentsOf: scratch.path("m.model.json"))
        var defaults = CSVOptions()
        defaults.trim = false
        let mapping = try ImportMapping.inferred(sources: [("R", "e.csv")], model: model, defaults: defaults, baseDirectory: scratch.url.path)
        let summary = try SeedImporter(model: model, mapping: mapping).run(into: scratch.path("x.sqlite"))
        #expect(summary.files.first?.blankRows == 0)
        #expect(summary.objects["R"]?.stored == 2)
    }

    @Test("an empty file without a mapping says it is empty")
    func emptyFile() throws {
        let scratch = ImportScratch()
        let error = try #require(throws: ImportError.self) {
            try ImportEncodingErrorTests.run([], name: "empty.csv", in: scratch, model: ImportQuoteTests.model)
        }
        #expect(error.kind == .mapping)
        #expect(error.problems == ["empty.csv: the file is empty: it has no header row"])
    }
}
