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
                                                       model: ImportQuoteTests.model, defaults: ImportQuoteTests.trimming)
        #expect(summary.files.first?.blankRows == 2)
        #expect(summary.objects["R"]?.stored == 3, "a quoted empty code is a value, so its record is not empty")
        #expect(try ImportQuoteTests.notes(scratch) == ["A": "x", "B": "y", "": ""])
    }

    /// A user trial: with text kept as written (the default), a line of spaces at the end of a file made a
    /// one-field record and stopped the import, and `  ,  ,  ` rows became objects named with spaces.
    @Test("records of only delimiters, spaces and tabs are skipped without trimming too, and a quoted space is a value",
          arguments: [true, false])
    func whitespaceRecordsWithoutTrim(readsAhead: Bool) throws {
        let scratch = ImportScratch()
        var options = ImportOptions()
        options.readsAhead = readsAhead
        let csv = "code,amount,note\nA,1,x\n   ,,\t\n  \n\t,\t,\t\nB,2, y\n\" \",,\n"
        let summary = try ImportEncodingErrorTests.run(Array(csv.utf8), name: "e.csv", in: scratch, options: options,
                                                       model: ImportQuoteTests.model)
        #expect(summary.files.first?.blankRows == 3)
        #expect(summary.objects["R"]?.stored == 3)
        #expect(try ImportQuoteTests.notes(scratch) == ["A": "x", "B": " y", " ": ""])
    }

    @Test("an empty file without a mapping says it is empty")
    func emptyFile() throws {
        let scratch = ImportScratch()
        let error = try #require(throws: ImportError.self) {
            try ImportEncodingErrorTests.run([], name: "empty.csv", in: scratch, model: ImportQuoteTests.model)
        }
        #expect(error.kind == .mapping)
        #expect(error.problems == ["empty.csv: the file is empty (no header row, no rows): export it again, or leave it out of the import"])
    }

    /// A trial (helper-68): a file of blank lines reported its header as "" and four mapping problems; an
    /// empty file's error said to fix the mapping; a header-only file imported 0 rows without a word.
    @Test("a file of blank lines, an empty file and a header-only file each say what they are")
    func blankEmptyAndHeaderOnlyFiles() throws {
        let scratch = ImportScratch()
        let blank = try #require(throws: ImportError.self) {
            try ImportEncodingErrorTests.run(Array("\n\n  \n".utf8), name: "blank.csv", in: scratch, model: ImportQuoteTests.model)
        }
        #expect(blank.problems == ["blank.csv: the header line is blank: the file holds only blank lines, or blank lines come before its header. "
            + "Remove them, or skip them with --skip-lines N (\"skipLines\" in a mapping)"], "\(blank.problems)")
        let empty = try #require(throws: ImportError.self) {
            try ImportEncodingErrorTests.run([], name: "empty.csv", in: scratch, model: ImportQuoteTests.model)
        }
        #expect(!"\(empty)".contains("Fix the mapping"), "the mapping is not at fault: \(empty)")
        let headerOnly = try ImportEncodingErrorTests.run(Array("code,amount,note\n".utf8), name: "h.csv", in: scratch, model: ImportQuoteTests.model)
        #expect(headerOnly.warnings.contains("h.csv: a header and no rows, so nothing was imported from it"), "\(headerOnly.warnings)")
        // A trial (helper-70): blank lines under the header read as rows, and the warning was lost.
        let blankRows = try ImportEncodingErrorTests.run(Array("code,amount,note\n\n\n".utf8), name: "hb.csv", in: scratch, model: ImportQuoteTests.model)
        #expect(blankRows.warnings.contains("hb.csv: a header and no rows (2 blank lines), so nothing was imported from it"), "\(blankRows.warnings)")

        // Through a mapping file: the file is at fault, not the mapping.
        try scratch.write("e.mapping.json", #"{"format": 1, "model": "m.model.json", "files": [{"path": "empty.csv", "targets": [{"entity": "R"}]}]}"#)
        let model = try ObjectModel(contentsOf: scratch.path("m.model.json"))
        let mapping = try ImportMapping(contentsOf: scratch.path("e.mapping.json"))
        let mapped = try #require(throws: ImportError.self) {
            try SeedImporter(model: model, mapping: mapping, options: ImportOptions()).run(into: scratch.path("y.sqlite"))
        }
        #expect(mapped.reason.hasPrefix("an input file cannot be imported (1 problem)"), "\(mapped)")
        #expect(mapped.hint == "Fix the file named above, or the mapping's path to it; nothing was written.", "\(mapped)")
    }

    /// Exports concatenated with `cat` repeat the header: with text attributes only, that row used to be
    /// imported as an object whose values are the column names.
    @Test("rows that repeat the header are skipped and counted with their lines, in target and join files", arguments: [true, false])
    func repeatedHeaders(readsAhead: Bool) throws {
        let scratch = ImportScratch()
        var options = ImportOptions()
        options.readsAhead = readsAhead
        // The header line repeated byte for byte (once after a byte-order mark, as `cat` leaves a second
        // UTF-8 export's); a value equal to the first name alone is data.
        let csv = "code,amount ,note\nA,1,x\ncode,amount ,note\nB,2,y\n\u{FEFF}code,amount ,note\ncode,3,z\n"
        let model = """
            {"entities": [{"name": "R", "attributes": [
              {"name": "code", "type": "String"}, {"name": "amount", "type": "String"}, {"name": "note", "type": "String"}]}]}
            """
        let summary = try ImportEncodingErrorTests.run(Array(csv.utf8), name: "r.csv", in: scratch, options: options, model: model)
        let file = try #require(summary.files.first)
        #expect(file.repeatedHeaders == 2 && file.repeatedHeaderLines == [3, 5])
        #expect(file.rowsRead == 5 && file.rowsImported == 3)
        #expect(summary.objects["R"]?.stored == 3)
        #expect(try ImportQuoteTests.notes(scratch) == ["A": "x", "B": "y", "code": "z"])
        #expect(summary.description.contains("r.csv → R: 5 rows read, 3 imported, 2 repeating the header skipped (lines 3, 5)"), "\(summary)")
        let decoded = try JSONDecoder().decode(ImportSummary.self, from: JSONEncoder().encode(summary))
        #expect(decoded.files.first?.repeatedHeaderLines == [3, 5])
        #expect(summary.warnings.contains { $0.hasPrefix("r.csv: 1 row began with a UTF-8 byte-order mark (line 5)") }, "\(summary.warnings)")
    }

    /// A user trial: `cat` of two Excel exports, the second's header removed, left its byte-order mark
    /// at the start of a data row, stored in the key (`\u{FEFF}BER2`, which no later lookup finds).
    @Test("a byte-order mark starting a data row is dropped from its first value and named in a warning", arguments: [true, false])
    func byteOrderMarkInARow(readsAhead: Bool) throws {
        let scratch = ImportScratch()
        var options = ImportOptions()
        options.readsAhead = readsAhead
        // A check of that fix: a quote right after the mark must still open a quoted field.
        let csv = "code,amount,note\nA,1,x\n\u{FEFF}B,2,y\n\"\u{FEFF}C\",3,z\n\u{FEFF}\"D\",4,\"q, r\"\n"
        let summary = try ImportEncodingErrorTests.run(Array(csv.utf8), name: "j.csv", in: scratch, options: options, model: ImportQuoteTests.model)
        #expect(try ImportQuoteTests.notes(scratch) == ["A": "x", "B": "y", "\u{FEFF}C": "z", "D": "q, r"], "inside quotes it is data")
        #expect(summary.warnings.contains { $0.hasPrefix("j.csv: 2 rows began with a UTF-8 byte-order mark (the first on line 3), the start of another file") },
                "\(summary.warnings)")
    }

    /// The user trial: in a file of one column `name`, rows `name` and `"name"` (tags called "name") were
    /// dropped as repeated headers.
    @Test("a one-column file keeps rows equal to its header; a row repeats the header only byte for byte", arguments: [true, false])
    func rowsThatOnlyReadLikeTheHeader(readsAhead: Bool) throws {
        let model = #"{"entities":[{"name":"R","attributes":[{"name":"name","type":"String"}]}]}"#
        let twoColumns = #"{"entities":[{"name":"R","attributes":[{"name":"code","type":"String"},{"name":"note","type":"String"}]}]}"#
        var options = ImportOptions()
        options.readsAhead = readsAhead
        let scratch = ImportScratch()
        let summary = try ImportEncodingErrorTests.run(Array("name\nred\nname\n\"name\"\nblue\n".utf8), name: "tg.csv", in: scratch,
                                                       options: options, model: model)
        let file = try #require(summary.files.first)
        #expect(file.repeatedHeaders == nil && file.rowsImported == 4, "\(summary)")
        #expect(summary.objects["R"]?.stored == 4)

        // Several columns: the quoted spelling and a spaced one are data; the exact line is a header.
        let multi = ImportScratch()
        let csv = "code,note\nA,x\n\"code\",note\ncode , note\ncode,note\nB,y\n"
        let second = try ImportEncodingErrorTests.run(Array(csv.utf8), name: "r.csv", in: multi, options: options, model: twoColumns)
        let rows = try #require(second.files.first)
        #expect(rows.repeatedHeaders == 1 && rows.repeatedHeaderLines == [5] && rows.rowsImported == 4, "\(second)")
        #expect(second.description.contains("1 repeating the header skipped (line 5)"), "\(second)")
    }

    @Test("a join file's repeated header is skipped too")
    func repeatedHeaderInAJoinFile() throws {
        let scratch = ImportScratch()
        var lines = 0
        let summary = try ImportJoinRepeatTests.importBanks(into: scratch.path("B.sqlite"), in: scratch) { text in
            let rows = text.split(separator: "\n")
            lines = rows.count
            return text + (rows.first ?? "") + "\n" + rows.dropFirst().prefix(3).joined(separator: "\n") + "\n"
        }
        let join = try #require(summary.files.first { $0.path == "bank_tags.csv" })
        #expect(join.repeatedHeaders == 1 && join.rejects == 0, "\(summary)")
        #expect(join.repeatedHeaderLines == [lines + 1])
    }
}
