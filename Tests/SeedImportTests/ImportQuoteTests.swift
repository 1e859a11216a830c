import Foundation
import ManagedStore
import SeedImport
import Testing

/// A closing quote followed by spaces ends the field when trimming; followed by anything else, the record
/// is a bad row with its place, never silently kept, and it ends with that line: the rows after it are read.
@Suite("Import: text after a closing quote")
struct ImportQuoteTests {
    static let model = """
        {"entities": [{"name": "R", "attributes": [
          {"name": "code", "type": "String"}, {"name": "amount", "type": "Integer 32"}, {"name": "note", "type": "String"}]}]}
        """

    /// code → note, read back from the store.
    static func notes(_ scratch: ImportScratch) throws -> [String: String] {
        let (context, objects) = try StoreReader.objects(scratch.path("x.sqlite"), "R")
        defer { withExtendedLifetime(context) {} }
        var notes: [String: String] = [:]
        for object in objects {
            guard case .string(let code) = object["code"] else { continue }
            if case .string(let note) = object["note"] { notes[code] = note } else { notes[code] = "" }
        }
        return notes
    }

    /// Defaults that trim (`--trim`, `"trim": true`).
    static var trimming: CSVOptions {
        var defaults = CSVOptions()
        defaults.trim = true
        return defaults
    }

    @Test("with trimming, a space after a closing quote ends the field", arguments: [true, false])
    func spaceAfterQuote(readsAhead: Bool) throws {
        let scratch = ImportScratch()
        var options = ImportOptions()
        options.readsAhead = readsAhead
        let summary = try ImportEncodingErrorTests.run(Array("code,amount,note\nA,1,\"x\" \nB,2,c\nC,3,d\n".utf8), name: "q.csv",
                                                       in: scratch, options: options, model: Self.model, defaults: Self.trimming)
        #expect(summary.objects["R"]?.stored == 3)
        #expect(try Self.notes(scratch) == ["A": "x", "B": "c", "C": "d"])
    }

    /// A user trial: with text kept as written (the default), hand-written CSV with a space after each
    /// comma stored ` "Ann"` with its quotes, refused `"1"` as "not a whole number", and split `"Ann, B"`
    /// with a hint about a missing quote; none named --trim, with which all of them import.
    @Test("spaces around quoted fields name --trim: in a text value, a number, a split value and after a closing quote",
          arguments: [
            ("code,amount,note\nA,1, \"Ann\"\n", "note"),
            ("code,amount,note\n\"A\", \"1\",x\n", "amount"),
            ("code,amount,note\nA,1, \"Ann, B\"\n", "split"),
            ("code,amount,note\nA,1,\"x\" \n", "after"),
          ])
    func spacesAroundQuotes(csv: String, place: String) throws {
        let error = try #require(throws: ImportError.self) {
            try ImportEncodingErrorTests.run(Array(csv.utf8), name: "q.csv", in: ImportScratch(), model: Self.model)
        }
        #expect(error.line == 2, "\(error)")
        #expect(error.description.contains("--trim"), "\(error)")
        switch place {
        case "note", "amount":
            #expect(error.attribute == place && error.description.contains("the value is quoted with spaces around the quotes"), "\(error)")
        case "split":
            #expect(error.description.contains("A quoted field follows a space after a \",\""), "\(error)")
        default:
            #expect(error.description.contains("' ' follows the closing quote") && error.description.contains("dropped only when the file trims"), "\(error)")
        }
        // With trimming, each imports.
        let summary = try ImportEncodingErrorTests.run(Array(csv.utf8), name: "q.csv", in: ImportScratch(), model: Self.model,
                                                       defaults: Self.trimming)
        #expect(summary.objects["R"]?.stored == 1)
    }

    /// A user trial: `1, "Lido, Kreuzberg"` under a header of three columns split at the quoted comma into
    /// exactly three fields and was stored so, `' "Lido'` and `' Kreuzberg"'`, with only a padding warning.
    @Test("a quoted value split at its comma into the header's field count is a reject naming --trim, whichever field fails first")
    func spacedQuoteSplitToTheCount() throws {
        for header in ["code,note,amount", "code,amount,note"] {
            let csv = Array("\(header)\nA, \"Lido, Kreuzberg\"\n".utf8)
            let error = try #require(throws: ImportError.self) {
                try ImportEncodingErrorTests.run(csv, name: "q.csv", in: ImportScratch(), model: Self.model)
            }
            #expect(error.line == 2 && error.description.contains("the value is quoted with spaces around the quotes"), "\(header): \(error)")
            #expect(error.description.contains("re-run with --trim"), "\(error)")
        }
    }

    /// A check of that fix: text that merely starts with a quote after a space was refused as a spaced quote.
    @Test("text starting with a quote after a space, not a quoted value, is imported as written",
          arguments: ["A,1, \"hi\" he said", "A,1, \"Big\" Joe", "A,1, \"", "A,1,5' 10\"", "A,1, 6' 2\""])
    func quoteInsideText(row: String) throws {
        let scratch = ImportScratch()
        let summary = try ImportEncodingErrorTests.run(Array("code,amount,note\n\(row)\n".utf8), name: "q.csv", in: scratch, model: Self.model)
        #expect(summary.objects["R"]?.stored == 1)
        #expect(try Self.notes(scratch)["A"] == String(row.dropFirst(4)))
    }

    @Test("text after a closing quote aborts with the place; skip mode sets its line aside and reads on")
    func textAfterQuote() throws {
        let csv = Array("code,amount,note\nA,1,\"x\"y\nB,2,c\nC,3,\"d\"\nD,4,e\n".utf8)
        let error = try #require(throws: ImportError.self) {
            try ImportEncodingErrorTests.run(csv, name: "q.csv", in: ImportScratch(), model: Self.model)
        }
        #expect(error.kind == .badRow)
        #expect(error.file == "q.csv" && error.line == 2 && error.column == 3 && error.byteOffset == 24)
        #expect(error.description.contains("'y' follows the closing quote of field 3"), "\(error)")

        let scratch = ImportScratch()
        var options = ImportOptions()
        options.onError = .skip
        options.rejectsPath = scratch.path("rejects.csv")
        let summary = try ImportEncodingErrorTests.run(csv, name: "q.csv", in: scratch, options: options, model: Self.model)
        #expect(summary.rejects == 1)
        #expect(try Self.notes(scratch) == ["B": "c", "C": "d", "D": "e"])
        let rejects = try String(contentsOfFile: scratch.path("rejects.csv"), encoding: .utf8)
        #expect(rejects.hasSuffix(",\"A,1,\"\"x\"\"y\"\n"), "the raw text is the record's line alone: \(rejects)")
    }

    /// The user trial: a quote never closed on line 2 took lines 3 and 4 with it up to the quote opening a
    /// field on line 5, and the message named only the text after that quote ("The record ends with this line").
    @Test("a quote left open over lines is named where it opens, and where the error showed")
    func quoteLeftOpenOverLines() throws {
        let csv = Array("a,b\nx1,\"unterminated\nx2,plain\nx3,plain\nx4,\"Junked, fish\"\nx5,ok\n".utf8)
        let model = #"{"entities":[{"name":"R","attributes":[{"name":"a","type":"String"},{"name":"b","type":"String"}]}]}"#
        let error = try #require(throws: ImportError.self) {
            try ImportEncodingErrorTests.run(csv, name: "uq.csv", in: ImportScratch(), model: model)
        }
        #expect(error.file == "uq.csv" && error.line == 2 && error.column == 2, "\(error)")
        #expect(error.description.contains(
            "the quote that opens field 2 on line 2 (character 4) is probably never closed there: 3 lines later, on line 5, 'J' follows the quote taken as its closing one instead of the delimiter or a line end, so lines 2 to 5 were read as one record"),
                "\(error)")
        #expect(error.description.contains("Close the quote on line 2, or double it if it is data"), "\(error)")

        // Skip mode: 2 rows read from 5 lines, explained by the reject's raw text holding lines 2 to 5.
        let scratch = ImportScratch()
        var options = ImportOptions()
        options.onError = .skip
        options.rejectsPath = scratch.path("rejects.csv")
        let summary = try ImportEncodingErrorTests.run(csv, name: "uq.csv", in: scratch, options: options, model: model)
        #expect(summary.rowsRead == 2 && summary.rejects == 1, "\(summary)")
        let rejects = try String(contentsOfFile: scratch.path("rejects.csv"), encoding: .utf8)
        #expect(rejects.hasSuffix(",\"x1,\"\"unterminated\nx2,plain\nx3,plain\nx4,\"\"Junked, fish\"\"\"\n"), "\(rejects)")
    }

    /// A quoted field over one line with text after its closing quote keeps the short message.
    @Test("text after a closing quote on the quote's own line is named as before")
    func textAfterQuoteOnItsLine() throws {
        let error = try #require(throws: ImportError.self) {
            try ImportEncodingErrorTests.run(Array("code,amount,note\nA,1,\"x\ny\"\nB,2,\"z\"w\n".utf8), name: "q.csv",
                                             in: ImportScratch(), model: Self.model)
        }
        #expect(error.description.contains("'w' follows the closing quote of field 3 instead of the delimiter or a line end"), "\(error)")
    }

    /// The user trial: `1,"ab"cd` took rows 2 to 4 of the file with it (3 rows read, 2 imported).
    @Test("skip mode: a stray quote costs its own row only", arguments: [true, false])
    func strayQuoteCostsOneRow(readsAhead: Bool) throws {
        let model = #"{"entities":[{"name":"R","attributes":[{"name":"id","type":"Integer 32"},{"name":"s","type":"String"}]}]}"#
        let scratch = ImportScratch()
        var options = ImportOptions()
        options.onError = .skip
        options.readsAhead = readsAhead
        options.rejectsPath = scratch.path("q.csv")
        let summary = try ImportEncodingErrorTests.run(Array("id,s\n1,\"ab\"cd\n2,two\n3,three\n4,\"four\"\n5,five\n6,six\n".utf8),
                                                       name: "sq.csv", in: scratch, options: options, model: model)
        #expect(summary.rowsRead == 6 && summary.files.first?.rowsImported == 5 && summary.rejects == 1, "\(summary)")
        let (context, objects) = try StoreReader.objects(scratch.path("x.sqlite"), "R")
        defer { withExtendedLifetime(context) {} }
        #expect(Set(objects.compactMap { object -> String? in
            guard case .string(let s) = object["s"] else { return nil }
            return s
        }) == ["two", "three", "four", "five", "six"])
        let rejects = try String(contentsOfFile: scratch.path("q.csv"), encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(rejects.count == 2, "\(rejects)")
        #expect(rejects.last?.hasPrefix("sq.csv,2,2,R,s,\"ab\"\"cd\",\"s: 'c' follows the closing quote of field 2") == true, "\(rejects)")
        #expect(rejects.last?.hasSuffix(",\"1,\"\"ab\"\"cd\"") == true, "the raw text is 1,\"ab\"cd: \(rejects)")
    }

    /// Skip mode reads a file again to find the rows standing for a key (here Info L2's, when the row that
    /// made it last is rejected late): the second reading must see the rows after a stray quote on the
    /// lines the first gave them, or N1's row would pass for a rejected one and L2 would go.
    @Test("a file read again after a stray quote gives its rows the same lines")
    func readAgainAfterAStrayQuote() throws {
        let scratch = ImportScratch()
        let (summary, rejects, store) = try ImportRemovalChainTests.run(model: ImportRemovalChainTests.noteInfoModel, mapping: ImportRemovalChainTests.noteInfoMapping, files: ["n.csv": "code,mgr,lcode\nX0,\"a\"b,L9\nN1,,L2\nN2,N7,L2\n"], in: scratch)
        #expect(rejects.map { $0.split(separator: ",", omittingEmptySubsequences: false).dropFirst().first ?? "" } == ["2", "4"],
                "one line each: \(rejects)")
        #expect(summary.rejects == 2)
        #expect(try StoreReader.scalar(store, "SELECT group_concat(ZCODE) FROM ZNOTE") == .text("N1"))
        #expect(try StoreReader.scalar(store, "SELECT group_concat(ZLCODE) FROM ZINFO") == .text("L2"))
    }

    @Test("the quote check comes before the field count, so a record with text after a quote is named for it")
    func quoteBeforeFieldCount() throws {
        let csv = Array("code,amount,note\nA,\"1\"y,x\nB,2,c\n".utf8)
        let error = try #require(throws: ImportError.self) {
            try ImportEncodingErrorTests.run(csv, name: "q.csv", in: ImportScratch(), model: Self.model)
        }
        #expect(error.line == 2 && error.column == 2 && error.byteOffset == 22, "\(error)")
        #expect(error.description.contains("'y' follows the closing quote of field 2"), "\(error)")
        // Trimming lets a value start with spaces before its opening quote; text after the quote is then located too.
        let lead = try #require(throws: ImportError.self) {
            try ImportEncodingErrorTests.run(Array("code,amount,note\nA, \"Acme\" Inc,x\n".utf8), name: "q.csv", in: ImportScratch(), model: Self.model,
                                             defaults: Self.trimming)
        }
        #expect(lead.line == 2 && lead.column == 2 && lead.description.contains("'I' follows the closing quote"), "\(lead)")
    }

    @Test("a header with text after a closing quote is a mapping problem on line 1, not an empty import")
    func headerQuote() throws {
        let error = try #require(throws: ImportError.self) {
            try ImportEncodingErrorTests.run(Array("code,\"amount\"x,note\nA,1,x\n".utf8), name: "h.csv", in: ImportScratch(), model: Self.model)
        }
        #expect(error.kind == .mapping)
        #expect(error.problems.first?.hasPrefix("h.csv:1:2: the header cannot be read: 'x' follows the closing quote of field 2") == true,
                "\(error.problems)")
        #expect(error.problems.first?.contains("(byte offset 13)") == true, "\(error.problems)")
    }

    /// Non-strict reading used to take a quote never closed as one value holding the rest of the file: the
    /// import succeeded with one row where there were thousands. The row is bad, named at the quote; its
    /// record ends with the quote's line, so skip mode imports the rows after it.
    @Test("a quote never closed aborts at the quote; skip mode imports the rows after it", arguments: [true, false])
    func quoteNeverClosed(readsAhead: Bool) throws {
        let rows = (1...2_000).map { "E\($0),\($0),row \($0)\n" }.joined()
        let csv = Array(("code,amount,note\nA,1,x\nB,2,\"open\n" + rows).utf8)
        var options = ImportOptions()
        options.readsAhead = readsAhead
        let scratch = ImportScratch()
        let error = try #require(throws: ImportError.self) {
            try ImportEncodingErrorTests.run(csv, name: "q.csv", in: scratch, options: options, model: Self.model)
        }
        #expect(error.kind == .badRow)
        #expect(error.line == 3 && error.column == 3 && error.byteOffset == 27, "the opening quote: \(error)")
        #expect(error.description.contains("the quote that opens field 3 is never closed: the input ends 2,001 lines later; the record ends with this line and the lines after it are read as records"),
                "\(error)")
        #expect(error.value == "open", "the field up to its line end: \(error)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("x.sqlite")))

        let skipping = ImportScratch()
        options.onError = .skip
        options.rejectsPath = skipping.path("rejects.csv")
        let summary = try ImportEncodingErrorTests.run(csv, name: "q.csv", in: skipping, options: options, model: Self.model)
        #expect(summary.rowsRead == 2_002 && summary.rejects == 1, "\(summary)")
        let notes = try Self.notes(skipping)
        #expect(notes.count == 2_001 && notes["E2000"] == "row 2000" && notes["B"] == nil)
        let rejects = try String(contentsOfFile: skipping.path("rejects.csv"), encoding: .utf8)
        #expect(rejects.hasPrefix("file,line,column,entity,attribute,value,reason,raw\nq.csv,3,3,R,note,open,"), "\(rejects)")
        #expect(rejects.hasSuffix(",\"B,2,\"\"open\"\n"), "the raw text is the quote's line: \(rejects)")
    }

    @Test("a file cut short inside its last quoted field: skip mode keeps the rows before and sets the last aside")
    func cutShort() throws {
        let scratch = ImportScratch()
        var options = ImportOptions()
        options.onError = .skip
        options.rejectsPath = scratch.path("rejects.csv")
        let summary = try ImportEncodingErrorTests.run(Array("code,amount,note\nA,1,x\nB,2,\"y\"\nC,3,\"cut sh".utf8), name: "q.csv",
                                                       in: scratch, options: options, model: Self.model)
        #expect(summary.rejects == 1)
        #expect(try Self.notes(scratch) == ["A": "x", "B": "y"])
        let rejects = try String(contentsOfFile: scratch.path("rejects.csv"), encoding: .utf8)
        #expect(rejects.contains("q.csv,4,3,R,note,cut sh,\"note: the quote that opens field 3 is never closed: the input ends on the same line: is the file cut short? (byte offset 35)."),
                "\(rejects)")
        #expect(rejects.hasSuffix(",\"C,3,\"\"cut sh\"\n"), "the raw text, as in the file: \(rejects)")
    }

    @Test("a record past the limit stops the import in either mode, naming the quote left open")
    func recordLimit() throws {
        let rows = (1...200).map { "E\($0),\($0),row \($0)\n" }.joined()
        let csv = Array(("code,amount,note\nA,1,x\nB,2,\"open\n" + rows).utf8)
        for onError in [ErrorPolicy.abort, .skip] {
            let scratch = ImportScratch()
            var options = ImportOptions(onError: onError, rejectsPath: onError == .skip ? scratch.path("rejects.csv") : nil)
            options.maximumRecordBytes = 1_024
            let error = try #require(throws: ImportError.self) {
                try ImportEncodingErrorTests.run(csv, name: "q.csv", in: scratch, options: options, model: Self.model)
            }
            #expect(error.line == 3 && error.column == 3, "\(error)")
            #expect(error.description.contains("the record that starts on line 3 passes 1,024 bytes without ending: the quote that opens field 3 on line 3 is still open"),
                    "\(error)")
            #expect(error.description.contains("--max-record-size"), "\(error)")
            #expect(!FileManager.default.fileExists(atPath: scratch.path("x.sqlite")))
        }
    }
}
