import CSVStream
import Foundation
import ManagedStore
import SeedImport
import Testing

/// Exports written with backslash escapes: PostgreSQL's text-format `COPY` and MySQL's
/// `SELECT … INTO OUTFILE`, read with an escape byte (`--escape '\'`, `"escape"` in a mapping).
@Suite("Import: backslash-escaped exports")
struct ImportEscapeTests {
    static let model = """
        {"entities": [
          {"name": "T", "attributes": [{"name": "id", "type": "Integer 64"}, {"name": "name", "type": "String", "optional": true},
                                       {"name": "note", "type": "String", "optional": true}, {"name": "born", "type": "Date", "optional": true},
                                       {"name": "score", "type": "Decimal", "optional": true}]}]}
        """

    /// Written by PostgreSQL 15.18: `\copy t to 't.txt' with (format text, header true)` of rows inserted as
    /// (1, 'Ann', E'line1\nline2', '2001-02-03', 1.5), (2, E'tab\there', E'back\\slash', null, null),
    /// (3, '', E'cr\rhere', '1999-12-31', -2), (4, '\N', E'\\N', '2020-01-01', 0),
    /// (5, E'quote "x"', 'comma, here', '2020-01-02', 3), (6, 'München', E'trailing\\', '2020-01-03', 4),
    /// (7, '  padded  ', 'NULL', '2020-01-04', 5).
    static let postgres = #"""
        id	name	note	born	score
        1	Ann	line1\nline2	2001-02-03	1.5
        2	tab\there	back\\slash	\N	\N
        3		cr\rhere	1999-12-31	-2
        4	\\N	\\N	2020-01-01	0
        5	quote "x"	comma, here	2020-01-02	3
        6	München	trailing\\	2020-01-03	4
        7	  padded  	NULL	2020-01-04	5

        """#

    /// Imports `text` as `T` with `defaults` and returns the summary and the rows by id.
    static func rows(_ text: String, defaults: CSVOptions, options: ImportOptions = ImportOptions(),
                     in scratch: ImportScratch = ImportScratch()) throws -> (ImportSummary, [Int64: [String: Value]]) {
        try scratch.write("t.txt", text)
        try scratch.write("m.model.json", model)
        let objectModel = try ObjectModel(contentsOf: scratch.path("m.model.json"))
        let mapping = try ImportMapping.inferred(sources: [("T", "t.txt")], model: objectModel, defaults: defaults,
                                                 baseDirectory: scratch.url.path)
        let summary = try SeedImporter(model: objectModel, mapping: mapping, options: options).run(into: scratch.path("t.sqlite"))
        let (context, objects) = try StoreReader.objects(scratch.path("t.sqlite"), "T")
        defer { withExtendedLifetime(context) {} }
        var rows: [Int64: [String: Value]] = [:]
        for object in objects {
            guard case .integer(let id) = object["id"] else { continue }
            rows[id] = ["name": object["name"], "note": object["note"], "born": object["born"], "score": object["score"]]
        }
        return (summary, rows)
    }

    static var postgresOptions: CSVOptions {
        var options = CSVOptions(delimiter: 0x09, quote: CSVDialect.noQuote)
        options.escape = UInt8(ascii: "\\")
        return options
    }

    @Test("PostgreSQL's text COPY reads back exactly: \\N null, '' an empty string, NULL and \\\\N text", arguments: [true, false])
    func postgresTextCopy(readsAhead: Bool) throws {
        var options = ImportOptions()
        options.readsAhead = readsAhead
        let (summary, rows) = try Self.rows(Self.postgres, defaults: Self.postgresOptions, options: options)
        #expect(summary.rejects == 0)
        #expect(rows.count == 7)
        #expect(rows[1]?["note"] == .string("line1\nline2"))
        #expect(rows[2]?["name"] == .string("tab\there") && rows[2]?["note"] == .string("back\\slash"))
        #expect(rows[2]?["born"] == .null && rows[2]?["score"] == .null)
        #expect(rows[3]?["name"] == .string(""), "an empty field is an empty string")
        #expect(rows[3]?["note"] == .string("cr\rhere"))
        #expect(rows[4]?["name"] == .string("\\N") && rows[4]?["note"] == .string("\\N"))
        #expect(rows[5]?["name"] == .string("quote \"x\""))
        #expect(rows[6]?["name"] == .string("München") && rows[6]?["note"] == .string("trailing\\"))
        #expect(rows[7]?["name"] == .string("  padded  ") && rows[7]?["note"] == .string("NULL"), "NULL is text in such a file")
        #expect(rows[1]?["born"] == .date(Date.utc(2001, 2, 3)))
        #expect(!summary.warnings.contains { $0.contains("backslash") }, "\(summary.warnings)")
    }

    @Test("without --escape, PostgreSQL's \\N in a Date column is refused naming --escape")
    func withoutEscapeNamesIt() throws {
        let error = try #require(throws: ImportError.self) {
            _ = try Self.rows(Self.postgres, defaults: CSVOptions(delimiter: 0x09))
        }
        #expect(error.description.contains("re-run with --escape '\\'"), "\(error)")
    }

    @Test("MySQL's OUTFILE with OPTIONALLY ENCLOSED BY '\"': escaped quotes, line ends and delimiters, \\N null")
    func mysqlEnclosed() throws {
        var defaults = CSVOptions()
        defaults.escape = UInt8(ascii: "\\")
        let text = #"""
            "id","name","note","born","score"
            1,"Ann \"the\" Smith","two\
            lines",\N,1.50
            2,"a,b","back\\slash","2020-01-02",\N
            3,"","NULL","2020-01-03",7

            """#
        let (summary, rows) = try Self.rows(text, defaults: defaults)
        #expect(summary.rejects == 0)
        #expect(rows[1]?["name"] == .string("Ann \"the\" Smith") && rows[1]?["note"] == .string("two\nlines"))
        #expect(rows[1]?["born"] == .null)
        #expect(rows[2]?["name"] == .string("a,b") && rows[2]?["note"] == .string("back\\slash") && rows[2]?["score"] == .null)
        #expect(rows[3]?["name"] == .string("") && rows[3]?["note"] == .string("NULL"))
    }

    @Test("null tokens chosen with an escape byte: \\N stays null, the tokens apply to plain text, escaped text is literal")
    func chosenTokens() throws {
        var defaults = Self.postgresOptions
        defaults.nullTokens = ["NA"]
        let text = "id\tname\tnote\tborn\tscore\n1\tNA\t\\N\t\\N\t\\N\n2\t\\NA\t\t2020-01-01\t1\n"
        let (_, rows) = try Self.rows(text, defaults: defaults)
        #expect(rows[1]?["name"] == .null && rows[1]?["note"] == .null)
        #expect(rows[2]?["name"] == .string("NA"), "an escaped letter makes the text literal")
        #expect(rows[2]?["note"] == .string(""))
    }

    @Test("a bad row after a value over two lines is rejected with its own line and its text as written")
    func rejectLines() throws {
        let scratch = ImportScratch()
        var options = scratch.skipping()
        options.rejectsPath = scratch.path("rejects.csv")
        let text = "id\tname\tnote\tborn\tscore\n1\tA\tone\\\ntwo\t\\N\t1\n2\tB\tx\tnot a date\t2\n3\tC\ty\t\\N\t3\n"
        let (summary, rows) = try Self.rows(text, defaults: Self.postgresOptions, options: options, in: scratch)
        #expect(summary.rejects == 1)
        #expect(rows[1]?["note"] == .string("one\ntwo") && rows[3] != nil)
        let rejects = try String(contentsOfFile: scratch.path("rejects.csv"), encoding: .utf8)
        #expect(rejects.contains("\nt.txt,4,4,T,born,not a date,"), "\(rejects)")
        #expect(rejects.contains("2\tB\tx\tnot a date\t2"), "\(rejects)")
    }

    @Test("a mapping's \"escape\" and \"quote\": \"none\" are read, and written back as given")
    func mappingKeys() throws {
        let scratch = ImportScratch()
        try scratch.write("m.model.json", Self.model)
        try scratch.write("t.txt", Self.postgres)
        let json = #"""
            {"format": 1, "model": "m.model.json",
             "files": [{"path": "t.txt", "delimiter": "\t", "quote": "none", "escape": "\\", "targets": [{"entity": "T", "key": "id"}]}]}
            """#
        let mapping = try ImportMapping(json: Data(json.utf8), baseDirectory: scratch.url.path)
        #expect(mapping.files[0].options.escape == UInt8(ascii: "\\") && mapping.files[0].options.quote == CSVDialect.noQuote)
        let written = mapping.jsonData(relativeTo: scratch.url.path)
        let text = String(decoding: written, as: UTF8.self)
        #expect(text.contains(#""quote": "none""#) && text.contains(#""escape": "\\""#), "\(text)")
        let again = try ImportMapping(json: written, baseDirectory: scratch.url.path)
        #expect(again.files[0].options == mapping.files[0].options)

        let bad = #"{"format": 1, "model": "m.model.json", "files": [{"path": "t.txt", "escape": ",", "targets": [{"entity": "T"}]}]}"#
        let error = try #require(throws: ImportError.self) { try ImportMapping(json: Data(bad.utf8), baseDirectory: scratch.url.path) }
        #expect(error.description.contains("the escape and the delimiter are both ','"), "\(error)")
    }
}

/// What user trial V found reading real PostgreSQL exports and MySQL-style files with `--escape`.
@Suite("Import: backslash-escaped exports, trial V")
struct ImportEscapeTrialTests {
    static let model = """
        {"entities": [{"name": "R", "attributes": [{"name": "id", "type": "Integer 64"}, {"name": "name", "type": "String", "optional": true},
                                                   {"name": "n", "type": "Integer 32", "optional": true}]}]}
        """

    static func run(_ text: String, _ defaults: CSVOptions, options: ImportOptions? = nil,
                    in scratch: ImportScratch = ImportScratch()) throws -> (ImportSummary, [Int64: [String: Value]]) {
        try scratch.write("m.model.json", model)
        try scratch.write("r.tsv", text)
        let objectModel = try ObjectModel(contentsOf: scratch.path("m.model.json"))
        let mapping = try ImportMapping.inferred(sources: [("R", "r.tsv")], model: objectModel, defaults: defaults, baseDirectory: scratch.url.path)
        let summary = try SeedImporter(model: objectModel, mapping: mapping, options: options ?? scratch.skipping()).run(into: scratch.path("r.sqlite"))
        let (context, objects) = try StoreReader.objects(scratch.path("r.sqlite"), "R")
        defer { withExtendedLifetime(context) {} }
        var rows: [Int64: [String: Value]] = [:]
        for object in objects { if case .integer(let id) = object["id"] { rows[id] = ["name": object["name"], "n": object["n"]] } }
        return (summary, rows)
    }

    static var postgres: CSVOptions { ImportEscapeTests.postgresOptions }
    static var escapedKeepingQuote: CSVOptions {
        var options = CSVOptions(delimiter: 0x09)
        options.escape = UInt8(ascii: "\\")
        return options
    }

    @Test("a quote never closed on its line is one bad row naming --quote none (unless the quote was chosen); the lines after it are read")
    func unclosedQuoteTakesOneRow() throws {
        var text = "id\tname\tn\n"
        for i in 1...100 { text += "\(i)\t\(i == 10 ? "\"" : "name \(i)")\t\(i)\n" }
        let scratch = ImportScratch()
        let (summary, rows) = try Self.run(text, Self.escapedKeepingQuote, in: scratch)
        #expect(summary.rejects == 1 && rows.count == 99)
        #expect(scratch.rejects.contains("r.tsv,11,2,R,name,"), "\(scratch.rejects)")
        #expect(scratch.rejects.contains("--quote none"), "\(scratch.rejects)")
        // The open quote read no value as quoted: the warning for quoted values does not count it.
        #expect(summary.warnings.allSatisfy { !$0.contains("read as quoted") }, "\(summary.warnings)")
        // A quote the user chose: the file quotes, so the reject does not send them to --quote none.
        var chosen = Self.escapedKeepingQuote
        chosen.quote = UInt8(ascii: "\"")
        let again = ImportScratch()
        let (chosenSummary, _) = try Self.run(text, chosen, in: again)
        #expect(chosenSummary.rejects == 1)
        #expect(again.rejects.contains("r.tsv,11,2,R,name,") && !again.rejects.contains("--quote none"), "\(again.rejects)")
        #expect(again.rejects.contains("Escape the quote if it is data (\\\"\")"), "\(again.rejects)")
    }

    @Test("--null '' makes empty fields null, as PostgreSQL's COPY … (NULL '') writes them; \\N stays null")
    func chosenEmptyToken() throws {
        var defaults = Self.postgres
        defaults.nullTokens = [""]
        let (summary, rows) = try Self.run("id\tname\tn\n1\t\t\n2\t\\N\t\\N\n3\tNULL\t3\n", defaults)
        #expect(summary.rejects == 0)
        #expect(rows[1]?["name"] == .null && rows[1]?["n"] == .null)
        #expect(rows[2]?["name"] == .null && rows[3]?["name"] == .string("NULL"))
        // Without it, an empty field is an empty string, and an empty number a reject.
        let scratch = ImportScratch()
        let (plain, kept) = try Self.run("id\tname\tn\n1\t\t\n", Self.postgres, in: scratch)
        #expect(plain.rejects == 1 && kept.isEmpty, "\(scratch.rejects)")
    }

    @Test("rows of empty strings or spaces are rows, and so is an empty line in a file of one column")
    func everyRowIsARow() throws {
        let (summary, rows) = try Self.run("id\tname\tn\n1\t\t1\n2\t \t2\n", Self.postgres)
        #expect(summary.rejects == 0 && rows[1]?["name"] == .string("") && rows[2]?["name"] == .string(" "))
        let scratch = ImportScratch()
        try scratch.write("m.model.json", #"{"entities": [{"name": "T", "attributes": [{"name": "tag", "type": "String", "optional": true}]}]}"#)
        try scratch.write("t.tsv", "tag\na\n\n  \nb\n\\.\n")
        let model = try ObjectModel(contentsOf: scratch.path("m.model.json"))
        let mapping = try ImportMapping.inferred(sources: [("T", "t.tsv")], model: model, defaults: Self.postgres, baseDirectory: scratch.url.path)
        let one = try SeedImporter(model: model, mapping: mapping).run(into: scratch.path("t.sqlite"))
        #expect(one.objects["T"]?.stored == 4, "a, '', '  ' and b; the end-of-data line is not a row: \(one)")
    }

    @Test("values read as quoted while the quote is the default are named with --quote none; a chosen quote says nothing")
    func quotedValuesWarn() throws {
        let text = "id\tname\tn\n1\t\"abc\"\t1\n2\tplain\t2\n"
        let (summary, rows) = try Self.run(text, Self.escapedKeepingQuote)
        #expect(rows[1]?["name"] == .string("abc"))
        let warning = try #require(summary.warnings.first { $0.contains("read as quoted") }, "\(summary.warnings)")
        #expect(warning.hasPrefix("r.tsv: 1 row (line 2) holds values that start with \", read as quoted") && warning.contains("--quote none"))
        var chosen = Self.escapedKeepingQuote
        chosen.quote = UInt8(ascii: "\"")
        #expect(try Self.run(text, chosen).0.warnings.allSatisfy { !$0.contains("read as quoted") })
        // Doubled quotes: the file is likely plain CSV.
        let csv = try Self.run("id\tname\tn\n1\t\"say \"\"hi\"\"\"\t1\n", Self.escapedKeepingQuote).0
        #expect(csv.warnings.contains { $0.contains("a doubled quote inside quotes") && $0.contains("without --escape") }, "\(csv.warnings)")
    }

    @Test("PostgreSQL's end-of-data line ends the data; lines after it are named, not read")
    func endOfData() throws {
        let (summary, rows) = try Self.run("id\tname\tn\n1\ta\t1\n\\.\n2\tb\t2\n", Self.postgres)
        #expect(rows.count == 1)
        // The end-of-data line is no row of the table: not read as one, nor a blank one skipped.
        #expect(summary.files.first?.rowsRead == 1 && summary.files.first?.blankRows == 0, "\(summary.files)")
        #expect(summary.warnings.contains { $0 == "r.tsv: line 3 is \\. alone, PostgreSQL's end of data, so the lines after it were not read" },
                "\(summary.warnings)")
    }

    @Test("MySQL's LINES TERMINATED BY '\\r\\n': an LF in text is data, an escaped CR is a CR")
    func crlfLines() throws {
        let (summary, rows) = try Self.run("id\tname\tn\r\n1\tline1\nline2\t1\r\n2\ta\\\rb\t2\r\n", Self.postgres)
        #expect(summary.rejects == 0)
        #expect(rows[1]?["name"] == .string("line1\nline2") && rows[2]?["name"] == .string("a\rb"))
    }

    @Test("trial W: a row equal to the header is a row; lines ending both ways are named; an escaped Windows path looks escaped")
    func trialW() throws {
        let (same, rows) = try Self.run("id\tname\tn\n1\tname\t\\N\nid\tname\tn\n", Self.postgres)
        #expect(same.rejects == 1 && rows[1] != nil, "the repeat is a row (here a bad one: id is no number), not skipped: \(same)")
        let (mixed, _) = try Self.run("id\tname\tn\r\n1\ta\n2\tb\t2\r\n3\tc\t3\n", Self.postgres)
        #expect(mixed.warnings.contains { $0.hasPrefix("r.tsv: 2 lines end with CR LF and 2 with LF alone, all read as line ends") }, "\(mixed.warnings)")
        let (path, _) = try Self.run("id\tname\tn\n1\tC:\\\\Users\\\\bob\t1\n", CSVOptions(delimiter: 0x09))
        #expect(path.warnings.contains { $0.contains("backslash-escaped") && $0.contains("C:\\\\Users") }, "\(path.warnings)")
    }

    @Test("without --escape, text holding \\n, \\t or \\\\ is named (not a Windows path); a row split at a backslash-escaped delimiter names --escape")
    func hintsWithoutEscape() throws {
        let (summary, _) = try Self.run("id\tname\tn\n1\tline1\\nline2\t1\n2\tC:\\temp\t2\n", CSVOptions(delimiter: 0x09))
        let warning = try #require(summary.warnings.first { $0.contains("backslash-escaped") }, "\(summary.warnings)")
        #expect(warning.contains("R.name 1 (the first \"line1\\nline2\", line 2"), "\(warning)")
        let scratch = ImportScratch()
        _ = try Self.run("id\tname\tn\n1\ta\\\tb\t1\n", CSVOptions(delimiter: 0x09), in: scratch)
        #expect(scratch.rejects.contains("A backslash stands before a tab in the row") && scratch.rejects.contains("--escape"), "\(scratch.rejects)")
    }
}

@Suite("Import: --escape on the command line", .enabled(if: ImportFixtures.hasCLI, ImportFixtures.cliSkipReason))
struct ImportEscapeCLITests {
    /// `seedstore import --model` (the suite's model) `--out out`, then `arguments`, then `T=file`, in `scratch`.
    static func importing(_ file: String, out: String, _ arguments: [String], in scratch: ImportScratch) throws -> CLIResult {
        try scratch.write("m.model.json", ImportEscapeTests.model)
        return try ImportCLI.run(["import", "--model", scratch.path("m.model.json"), "--out", scratch.path(out)] + arguments + ["T=" + scratch.path(file)])
    }

    @Test("--escape '\\' --quote none reads PostgreSQL's text COPY; --save-mapping keeps both")
    func postgres() throws {
        let scratch = ImportScratch()
        try scratch.write("t.tsv", ImportEscapeTests.postgres)
        let result = try Self.importing("t.tsv", out: "t.sqlite", ["--progress", "none", "--escape", "\\", "--quote", "none",
                                        "--save-mapping", scratch.path("saved.json")], in: scratch)
        #expect(result.status == 0, "\(result.errors)")
        #expect(try StoreReader.scalar(scratch.path("t.sqlite"), "SELECT count(*) FROM ZT WHERE ZBORN IS NULL") == .integer(1))
        #expect(try StoreReader.scalar(scratch.path("t.sqlite"), "SELECT ZNOTE FROM ZT WHERE ZID = 1") == .text("line1\nline2"))
        let saved = try String(contentsOfFile: scratch.path("saved.json"), encoding: .utf8)
        #expect(saved.contains(#""escape": "\\""#) && saved.contains(#""quote": "none""#), "\(saved)")
    }

    @Test("--line-end crlf reads a CRLF export whose values hold LFs; a mapping's \"lineEnd\" too, written back; only with an escape")
    func lineEnd() throws {
        let scratch = ImportScratch()
        try scratch.write("t.tsv", "id\tname\r\n1\ta\nb\nc\r\n2\td\ne\nf\r\n")
        let result = try Self.importing("t.tsv", out: "t.sqlite", ["--progress", "none",
                                        "--escape", "\\", "--quote", "none", "--line-end", "crlf", "--save-mapping", scratch.path("s.json")], in: scratch)
        #expect(result.status == 0, "\(result.errors)")
        #expect(try StoreReader.scalar(scratch.path("t.sqlite"), "SELECT ZNAME FROM ZT WHERE ZID = 2") == .text("d\ne\nf"))
        let saved = try String(contentsOfFile: scratch.path("s.json"), encoding: .utf8)
        #expect(saved.contains(#""lineEnd": "crlf""#), "\(saved)")
        let again = try ImportCLI.run(["import", "--mapping", scratch.path("s.json"), "--out", scratch.path("u.sqlite"), "--progress", "none"])
        #expect(again.status == 0, "\(again.errors)")
        #expect(try StoreReader.scalar(scratch.path("u.sqlite"), "SELECT count(*) FROM ZT") == .integer(2))
        let plain = try Self.importing("t.tsv", out: "v.sqlite", ["--line-end", "crlf"], in: scratch)
        #expect(plain.status == 64 && plain.errors.hasPrefix("error: --line-end applies to files read with an escape"), "\(plain.errors)")
        let bad = #"{"format": 1, "model": "m.model.json", "files": [{"path": "t.tsv", "lineEnd": "crlf", "targets": [{"entity": "T"}]}]}"#
        let error = try #require(throws: ImportError.self) { try ImportMapping(json: Data(bad.utf8), baseDirectory: scratch.url.path) }
        #expect(error.description.contains(#""lineEnd" applies to files read with an escape"#), "\(error)")
    }

    @Test("an option taken as the value of --null, --true-value or --false-value is a usage error; a line break is no escape")
    func optionsTakenAsValues() throws {
        let scratch = ImportScratch()
        try scratch.write("t.csv", "id\n1\n")
        for arguments in [["--null", "--trim"], ["--true-value", "--no-trim"], ["--null", "-h"], ["--escape", "\n"]] {
            let result = try Self.importing("t.csv", out: "t.sqlite", arguments, in: scratch)
            #expect(result.status == 64, "\(arguments): \(result.errors)")
            #expect(result.errors.hasPrefix("error: \(arguments[0]) "), "\(result.errors)")
        }
    }

    @Test("--escape is checked against each file's own delimiter: ',' suits a .tsv file, '\\t' does not")
    func againstEachFile() throws {
        let scratch = ImportScratch()
        try scratch.write("t.tsv", "id\tname\n1\ta,\tb\n")
        let ok = try Self.importing("t.tsv", out: "t.sqlite", ["--progress", "none",
                                    "--escape", ","], in: scratch)
        #expect(ok.status == 0, "\(ok.errors)")
        #expect(try StoreReader.scalar(scratch.path("t.sqlite"), "SELECT ZNAME FROM ZT") == .text("a\tb"))
        let tab = try Self.importing("t.tsv", out: "u.sqlite", ["--progress", "none",
                                     "--escape", "\\t"], in: scratch)
        #expect(tab.status == 64 && tab.errors.hasPrefix("error: --escape and the delimiter of "), "\(tab.errors)")
    }

    @Test("--escape that is not one character, or is the delimiter or quote, is a usage error", arguments: [
        (["--escape", "xy"], "--escape takes one ASCII character"),
        (["--escape", ","], "--escape and the delimiter of "),
        (["--escape", "|", "--delimiter", "|"], "--escape and --delimiter are both '|'"),
        (["--escape", "'", "--quote", "'"], "--escape and --quote are both '''"),
    ])
    func usage(arguments: [String], message: String) throws {
        let scratch = ImportScratch()
        try scratch.write("t.csv", "id\n1\n")
        let result = try Self.importing("t.csv", out: "t.sqlite", arguments, in: scratch)
        #expect(result.status == 64)
        #expect(result.errors.contains(message), "\(result.errors)")
    }
}
