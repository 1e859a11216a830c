import CSVStream
import Foundation
import ManagedStore
import SeedImport
import Testing

/// Null tokens apply to unquoted fields only, as in PostgreSQL's `COPY … CSV`: `"NULL"` is text and `""`
/// an empty string, while `NULL` and an empty field are null.
@Suite("Import: quoted values are never null")
struct ImportQuotedNullTests {
    static let model = """
        {"entities": [
          {"name": "Row", "attributes": [{"name": "a", "type": "String"}, {"name": "b", "type": "String"}, {"name": "c", "type": "String"},
                                         {"name": "n", "type": "Integer 32"}]}]}
        """

    /// Imports `text` as `Row` and returns its rows' values by `a`.
    static func rows(_ text: String, in scratch: ImportScratch, options: ImportOptions = ImportOptions(),
                     defaults: CSVOptions = CSVOptions()) throws -> [String: [String: Value]] {
        try scratch.write("rows.csv", text)
        try scratch.write("m.model.json", model)
        let objectModel = try ObjectModel(contentsOf: scratch.path("m.model.json"))
        let mapping = try ImportMapping.inferred(sources: [("Row", "rows.csv")], model: objectModel, defaults: defaults,
                                                 baseDirectory: scratch.url.path)
        _ = try SeedImporter(model: objectModel, mapping: mapping, options: options).run(into: scratch.path("rows.sqlite"))
        let (context, rows) = try StoreReader.objects(scratch.path("rows.sqlite"), "Row")
        defer { withExtendedLifetime(context) {} }
        var result: [String: [String: Value]] = [:]
        for row in rows {
            guard case .string(let key) = row["a"] else { continue }
            result[key] = ["b": row["b"], "c": row["c"], "n": row["n"]]
        }
        return result
    }

    @Test("csv-spectrum's null.csv: 3,\"NULL\",4 keeps the text NULL", .enabled(if: ImportFixtures.hasReal, ImportFixtures.realSkipReason))
    func csvSpectrumNull() throws {
        let base = ImportFixtures.real.appendingPathComponent("csv-spectrum/extra-from-history")
        let text = try String(contentsOf: base.appendingPathComponent("csvs/null.csv"), encoding: .utf8)
        let expected = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: base.appendingPathComponent("json/null.json"))) as? [[String: String]])
        let rows = try Self.rows(text, in: ImportScratch())
        #expect(rows.count == expected.count)
        for object in expected {
            let row = try #require(rows[object["a"]!])
            // null.json writes a null as "" (csv-spectrum's quirk): unquoted NULL and the empty field are null here.
            let b = object["b"]!
            #expect(row["b"] == (b.isEmpty ? .null : .string(b)), "row \(object["a"]!)")
            #expect(row["c"] == .string(object["c"]!))
        }
        #expect(rows["3"]?["b"] == .string("NULL"))
        #expect(rows["5"]?["b"] == .null)
    }

    @Test("text keeps its spaces by default (PostgreSQL's COPY writes a lone space unquoted); numbers drop them", arguments: [true, false])
    func spacesKeptByDefault(readsAhead: Bool) throws {
        var options = ImportOptions()
        options.readsAhead = readsAhead
        let csv = "a,b,c,n\n1, ,\t tab\t, 7 \n2,\" lead\",  ,\t\n3,  padded  ,NA ,\n"
        let rows = try Self.rows(csv, in: ImportScratch(), options: options)
        #expect(rows["1"]?["b"] == .string(" ") && rows["1"]?["c"] == .string("\t tab\t") && rows["1"]?["n"] == .integer(7))
        #expect(rows["2"]?["b"] == .string(" lead") && rows["2"]?["c"] == .string("  ") && rows["2"]?["n"] == .null,
                "spaces alone are text in a String attribute, and no value in an Integer one")
        #expect(rows["3"]?["b"] == .string("  padded  ") && rows["3"]?["c"] == .string("NA "), "'NA ' is not the null token NA")

        // With trimming, unquoted text loses its spaces (spaces alone make it empty, so null), quoted text keeps them.
        let trimmed = try Self.rows(csv, in: ImportScratch(), options: options, defaults: ImportQuoteTests.trimming)
        #expect(trimmed["1"]?["b"] == .null && trimmed["1"]?["c"] == .string("tab") && trimmed["1"]?["n"] == .integer(7))
        #expect(trimmed["2"]?["b"] == .string(" lead") && trimmed["2"]?["c"] == .null)
        #expect(trimmed["3"]?["b"] == .string("padded") && trimmed["3"]?["c"] == .null)
    }

    static let escapeAdvice = "If the file is such an export, re-run with --escape '\\' (or \"escape\": \"\\\\\" for the file in a mapping), which decodes the escapes and reads \\N as null; PostgreSQL's text format never quotes, so add --quote none for it"

    /// A user trial: MySQL's SELECT … INTO OUTFILE wrote NULL as \N and escaped line ends with a backslash;
    /// both were stored as text without a word.
    @Test("text that looks backslash-escaped (\\N alone, a trailing backslash) is named in one warning; quoted text is not")
    func backslashEscapesWarn() throws {
        let csv = Array(#"code,amount,note"#.utf8) + [0x0A] + Array(#"A,1,\N"#.utf8) + [0x0A] + Array(#"B,2,line1\"#.utf8) + [0x0A]
            + Array(#"C,3,"\N""#.utf8) + [0x0A] + Array(#"\N,4,C:\temp"#.utf8) + [0x0A]
        let summary = try ImportEncodingErrorTests.run(csv, name: "my.csv", in: ImportScratch())
        let escaped = summary.warnings.filter { $0.contains("backslash-escaped") }
        #expect(escaped.count == 1, "\(summary.warnings)")
        let warning = try #require(escaped.first)
        #expect(warning.hasPrefix(#"my.csv: 3 text values look backslash-escaped, as MySQL's SELECT … INTO OUTFILE and PostgreSQL's text-format COPY write them, and were stored as written: R.code 1 (the first "\N", line 5, column code); R.note 2 (the first "\N", line 2, column note). "#), "\(warning)")
        #expect(warning.hasSuffix(Self.escapeAdvice), "\(warning)")

        // With \N a null token, it is null, and nothing is said of it.
        var defaults = CSVOptions()
        defaults.nullTokens = ["", #"\N"#]
        let nulls = try ImportEncodingErrorTests.run(Array(#"code,amount,note"#.utf8) + [0x0A] + Array(#"A,1,\N"#.utf8) + [0x0A],
                                                     name: "my.csv", in: ImportScratch(), defaults: defaults)
        #expect(!nulls.warnings.contains { $0.contains("backslash") }, "\(nulls.warnings)")
        // A trailing backslash is still named, without advice about \N, a null token already.
        let trailing = try ImportEncodingErrorTests.run(Array(#"code,amount,note"#.utf8) + [0x0A] + Array(#"A,1,end\"#.utf8) + [0x0A],
                                                        name: "my.csv", in: ImportScratch(), defaults: defaults)
        let only = try #require(trailing.warnings.first { $0.contains("backslash-escaped") }, "\(trailing.warnings)")
        #expect(only.hasSuffix("going. " + Self.escapeAdvice), "\(only)")
    }

    @Test("a headerless file's warnings name the column by position, once")
    func headerlessColumnPlace() throws {
        let scratch = ImportScratch()
        try scratch.write("m.model.json", Self.model)
        try scratch.write("rows.csv", "1,NA, x\n")
        let mapping = try ImportMapping(json: Data("""
            {"format": 1, "model": "m.model.json", "files": [{"path": "rows.csv", "header": false,
             "targets": [{"entity": "Row", "columns": {"a": "1", "b": "2", "c": "3", "n": null}}]}]}
            """.utf8), baseDirectory: scratch.url.path)
        let summary = try SeedImporter(model: mapping.loadModel(), mapping: mapping, options: ImportOptions()).run(into: scratch.path("h.sqlite"))
        #expect(summary.warnings.contains { $0.contains("(the first \"NA\", line 1, column 2)") }, "\(summary.warnings)")
        #expect(summary.warnings.contains { $0.contains("(the first \" x\", line 1, column 3)") }, "\(summary.warnings)")
        #expect(!summary.warnings.contains { $0.contains("column column") }, "\(summary.warnings)")
    }

    @Test("unquoted text kept with spaces around it is counted in one warning per attribute that names --trim", arguments: [true, false])
    func paddedTextWarns(readsAhead: Bool) throws {
        var options = ImportOptions()
        options.readsAhead = readsAhead
        let csv = Array("code,amount,note\nA, 1 ,  001\nB,2,x\nC,3,\" quoted\"\nD,4,827\t\n".utf8)
        let summary = try ImportEncodingErrorTests.run(csv, name: "p.csv", in: ImportScratch(), options: options)
        let padded = summary.warnings.filter { $0.contains("spaces or tabs around") }
        #expect(padded.count == 1, "\(summary.warnings)")
        #expect(padded.first?.hasPrefix("p.csv: 2 text values have spaces or tabs around them, kept as written: R.note 2 (the first \"  001\", line 2, column note); ") == true, "\(padded)")
        #expect(padded.first?.contains("re-run with --trim") == true, "the amount's spaces are not data and the quoted text is meant")

        let trimmed = try ImportEncodingErrorTests.run(csv, name: "p.csv", in: ImportScratch(), options: options,
                                                       defaults: ImportQuoteTests.trimming)
        #expect(!trimmed.warnings.contains { $0.contains("spaces or tabs around") }, "\(trimmed.warnings)")
        // Kept by choice (--no-trim, "trim": false), the spaces are meant: no warning, and a saved mapping keeps the choice.
        var keeping = CSVOptions()
        keeping.trim = false
        let kept = try ImportEncodingErrorTests.run(csv, name: "p.csv", in: ImportScratch(), options: options, defaults: keeping)
        #expect(!kept.warnings.contains { $0.contains("spaces or tabs around") }, "\(kept.warnings)")
        #expect(keeping.isTrimSet && !CSVOptions().isTrimSet)
    }

    @Test("\"\" is an empty string, an empty field is null; both when read ahead or not", arguments: [true, false])
    func emptyQuoted(readsAhead: Bool) throws {
        var options = ImportOptions()
        options.readsAhead = readsAhead
        let rows = try Self.rows("a,b,c,n\n1,\"\",,\n2,,\"\",7\n3,\" NA \",NA,NULL\n", in: ImportScratch(), options: options)
        #expect(rows["1"]?["b"] == .string("") && rows["1"]?["c"] == .null && rows["1"]?["n"] == .null)
        #expect(rows["2"]?["b"] == .null && rows["2"]?["c"] == .string("") && rows["2"]?["n"] == .integer(7))
        #expect(rows["3"]?["b"] == .string(" NA "), "quoted: text as written, spaces and all")
        #expect(rows["3"]?["c"] == .null && rows["3"]?["n"] == .null)
    }

    /// A user trial: Namibia's code NA and a name NULL became null without a word (NA and NULL are null
    /// tokens by default). A number column's NA is not text, and an empty field is null as expected.
    @Test("text that a null word made null is counted in a warning per attribute, read ahead or not", arguments: [true, false])
    func textMadeNullWarns(readsAhead: Bool) throws {
        let scratch = ImportScratch()
        var options = ImportOptions()
        options.readsAhead = readsAhead
        try scratch.write("rows.csv", "a,b,c,n\nx,NA,,NA\ny,NULL,\"NA\",1\nz,ok,NA,2\n")
        try scratch.write("m.model.json", Self.model)
        let objectModel = try ObjectModel(contentsOf: scratch.path("m.model.json"))
        let mapping = try ImportMapping.inferred(sources: [("Row", "rows.csv")], model: objectModel, baseDirectory: scratch.url.path)
        let summary = try SeedImporter(model: objectModel, mapping: mapping, options: options).run(into: scratch.path("rows.sqlite"))
        let warnings = summary.warnings.filter { $0.contains("matched a null token") }
        #expect(warnings == [
            #"rows.csv → Row.b: 2 text values matched a null token and became null (the first "NA", line 2, column b); if they are text, make only empty fields null (--null '', or "nullTokens": [""] in a mapping), or quote them in the file"#,
            #"rows.csv → Row.c: 1 text value matched a null token and became null (the first "NA", line 4, column c); if it is text, make only empty fields null (--null '', or "nullTokens": [""] in a mapping), or quote it in the file"#,
        ], "\(summary.warnings)")
        // Only empty fields null: no warning, and the words are kept (n's NA is then no number: set aside).
        options.nullTokens = [""]
        options.onError = .skip
        options.rejectsPath = scratch.path("rejects.csv")
        let kept = try SeedImporter(model: objectModel, mapping: mapping, options: options).run(into: scratch.path("kept.sqlite"))
        #expect(!kept.warnings.contains { $0.contains("matched a null token") }, "\(kept.warnings)")
    }

    /// A user trial: the Northwind mapping, whose files name their null tokens, printed nine warnings about
    /// text those tokens made null. Tokens someone chose are meant; only the built-in NULL and NA may surprise.
    @Test("text made null by tokens the user chose (a column's, --null, the file's, the defaults') gives no warning", arguments: [true, false])
    func chosenTokensDoNotWarn(readsAhead: Bool) throws {
        let scratch = ImportScratch()
        try scratch.write("rows.csv", "a,b,c,n\nx,NA,NULL,1\ny,ok,NA,2\n")
        try scratch.write("m.model.json", Self.model)
        let objectModel = try ObjectModel(contentsOf: scratch.path("m.model.json"))
        var options = ImportOptions()
        options.readsAhead = readsAhead
        func run(_ mapping: ImportMapping, _ options: ImportOptions) throws -> ImportSummary {
            try SeedImporter(model: objectModel, mapping: mapping, options: options).run(into: scratch.path("rows-\(UUID().uuidString).sqlite"))
        }
        func mapping(defaults: String = "", file: String = "", columns: String = "") throws -> ImportMapping {
            try ImportMapping(json: Data("""
                {"format": 1\(defaults), "files": [{"path": "rows.csv"\(file), "targets": [{"entity": "Row"\(columns)}]}]}
                """.utf8), baseDirectory: scratch.url.path)
        }
        // The built-in tokens warn (textMadeNullWarns); the same tokens chosen anywhere do not.
        let tokens = #"["", "NULL", "NA"]"#
        #expect(try run(mapping(), options).warnings.filter { $0.contains("matched a null token") }.count == 2)
        var nullOption = options
        nullOption.nullTokens = ["", "NULL", "NA"]
        for (name, summary) in [
            ("--null", try run(mapping(), nullOption)),
            ("the file's", try run(mapping(file: #", "nullTokens": \#(tokens)"#), options)),
            ("the defaults'", try run(mapping(defaults: #", "defaults": {"nullTokens": \#(tokens)}"#), options)),
            ("the columns'", try run(mapping(columns: #", "columns": {"b": {"column": "b", "nullTokens": \#(tokens)}, "c": {"column": "c", "nullTokens": ["", "NA", "NULL"]}}"#), options)),
        ] {
            #expect(summary.objects["Row"]?.stored == 2)
            #expect(!summary.warnings.contains { $0.contains("matched a null token") }, "\(name): \(summary.warnings)")
        }
        // A column with its own tokens is quiet; another column of the file, on the built-in ones, still warns.
        let mixed = try run(mapping(columns: #", "columns": {"b": {"column": "b", "nullTokens": \#(tokens)}}"#), options)
        let warned = mixed.warnings.filter { $0.contains("matched a null token") }
        #expect(warned.count == 1 && warned[0].hasPrefix("rows.csv → Row.c: 2 text values matched a null token"), "\(mixed.warnings)")
    }

    @Test("a quoted empty value in a number attribute is a reject that says why")
    func quotedEmptyNumber() throws {
        let scratch = ImportScratch()
        let rows = try Self.rows("a,b,c,n\n1,x,y,\"\"\n2,x,y,\n", in: scratch, options: scratch.skipping())
        #expect(rows.keys.sorted() == ["2"])
        let records = try ImportRejectsTests.records(scratch.path("rejects.csv"))
        #expect(records[1][1] == "2" && records[1][4] == "n")
        #expect(records[1][6].contains("it is quoted, so it is text, not null: leave it unquoted to mean null"), "\(records[1][6])")
    }

    @Test("a quoted relationship key is a key, not an empty relationship")
    func quotedKey() throws {
        let scratch = ImportScratch()
        let model = try ImportFixtures.model("import-basics")
        try scratch.write("teams.csv", "code,name\nENG,Engines\n")
        try scratch.write("people.csv", "personID,name,Team\n1,Ada,\n2,Alan,\"\"\n")
        let mapping = try ImportMapping.inferred(sources: [("Team", "teams.csv"), ("Person", "people.csv")], model: model,
                                                 baseDirectory: scratch.url.path)
        guard case .targets(let people) = mapping.files[1].content, people[0].relationships["team"] != nil else {
            Issue.record("expected Team to fill the team relationship")
            return
        }
        let summary = try SeedImporter(model: model, mapping: mapping, options: scratch.skipping()).run(into: scratch.path("p.sqlite"))
        #expect(summary.rejects == 1)
        #expect(scratch.rejects.contains("no Team has code \"\""), "\(scratch.rejects)")
    }
}

/// A user trial: a quoted empty Integer key in a join file read `order: the key is an empty value is not
/// a number`, two reasons run together.
@Suite("Import: a key that does not convert says so in one sentence")
struct ImportKeyReasonTests {
    static let model = """
        {"entities": [
          {"name": "Order", "attributes": [{"name": "id", "type": "Integer 64"}],
           "relationships": [{"name": "items", "destination": "Item", "inverse": "orders", "toMany": true},
                             {"name": "lines", "destination": "Item", "inverse": "order", "toMany": true}]},
          {"name": "Item", "attributes": [{"name": "sku", "type": "String"}],
           "relationships": [{"name": "orders", "destination": "Order", "inverse": "items", "toMany": true},
                             {"name": "order", "destination": "Order", "inverse": "lines"}]}]}
        """

    @Test("a join file's quoted empty key, and a relationship column's, is empty and should be a whole number")
    func quotedEmptyKeys() throws {
        let scratch = ImportScratch()
        try scratch.write("m.json", Self.model)
        try scratch.write("orders.csv", "id\n1\n")
        try scratch.write("items.csv", "sku,order\nA,1\nB,\"\"\nC,1.5\n")
        try scratch.write("pairs.csv", "order,item\n1,A\n\"\",A\nx,A\n")
        let mapping = try ImportMapping(json: Data("""
            {"format": 1, "model": "m.json", "files": [
              {"path": "orders.csv", "targets": [{"entity": "Order", "key": "id"}]},
              {"path": "items.csv", "targets": [{"entity": "Item", "key": "sku", "relationships": {"order": {"column": "order", "destinationKey": "id"}}}]},
              {"path": "pairs.csv", "join": {"entity": "Order", "relationship": "items", "sourceColumn": "order", "sourceKey": "id",
                                             "destinationColumn": "item", "destinationKey": "sku"}}]}
            """.utf8), baseDirectory: scratch.url.path)
        let summary = try SeedImporter(model: try mapping.loadModel(), mapping: mapping, options: scratch.skipping()).run(into: scratch.path("s.sqlite"))
        #expect(summary.rejects == 4, "\(scratch.rejects)")
        let records = try ImportRejectsTests.records(scratch.path("rejects.csv"))
        let reasons = Dictionary(records.dropFirst().map { ("\($0[0]):\($0[1])", $0[6]) }, uniquingKeysWith: { a, _ in a })
        let empty = "the key is empty (it is quoted, so it is text, not null); it should be a whole number"
        #expect(reasons["pairs.csv:3"] == "order: " + empty, "\(reasons)")
        #expect(reasons["items.csv:3"] == "order: " + empty, "\(reasons)")
        #expect(reasons["pairs.csv:4"] == "order: the key is not valid: not a whole number", "\(reasons)")
        #expect(reasons["items.csv:4"]?.hasPrefix("order: the key is not valid: the value has a fraction") == true, "\(reasons)")
        #expect(!scratch.rejects.contains("the key is an empty") && !scratch.rejects.contains("the key is the value"), "\(scratch.rejects)")
    }
}
