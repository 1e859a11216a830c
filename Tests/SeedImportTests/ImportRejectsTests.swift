import CSVStream
import Foundation
import ManagedStore
@testable import SeedImport
import Testing

/// Skip mode: bad rows go to the rejects file with their line, place, reason and original text.
@Suite("Import: rejects in skip mode")
struct ImportRejectsTests {
    static func skipping(into scratch: ImportScratch, rejects: String? = nil, readsAhead: Bool = true) throws -> ImportSummary {
        let mapping = try ImportFixtures.mapping("people-bad")
        var options = ImportOptions()
        options.onError = .skip
        options.readsAhead = readsAhead
        options.rejectsPath = rejects
        return try SeedImporter(model: try mapping.loadModel(), mapping: mapping, options: options).run(into: scratch.path("People.sqlite"))
    }

    /// The rejects file's records, parsed (fields may hold quoted line breaks).
    static func records(_ path: String, encoding: TextEncoding = .utf8) throws -> [[String]] {
        var dialect = CSVDialect.csv
        dialect.encoding = encoding
        let reader = try CSVReader(path: path, dialect: dialect)
        var records: [[String]] = [reader.header ?? []]
        while let record = try reader.next() { records.append(record.fields) }
        return records
    }

    /// Rows are rejected as read (a bad value) and once their file has been read (a forward key that
    /// never came, and rows naming what only such rows make): the file lists them by file and line anyway,
    /// their bytes as written (a Windows-1252 byte, a quoted line break).
    @Test("the rejects file is in file and line order, whenever each row was rejected", arguments: [1, 10_000])
    func lineOrder(batchSize: Int) throws {
        let scratch = ImportScratch()
        try scratch.write("m.json", """
            {"entities":[{"name":"Dept","attributes":[{"name":"code","type":"String","optional":false}]},
              {"name":"Emp","attributes":[{"name":"code","type":"String","optional":false},{"name":"age","type":"Integer 32"}],
              "relationships":[{"name":"manager","destination":"Emp","inverse":"reports"},{"name":"reports","destination":"Emp","inverse":"manager","toMany":true}]}]}
            """)
        try scratch.write("depts.csv", "code\nD1\n\"D2\n")
        // Rejected as read: lines 4 (a quoted line break), 6 and 10 (a Windows-1252 é); once the file was
        // read: 2 (NOPE never comes), 3 and 8 (naming what only those make), 9; then depts.csv's line 3.
        var emps = Data("code,age,manager\nE1,1,NOPE\nE2,2,E1\nE3,\"multi\nline\",\nE4,x,\nE5,5,\nE6,6,E2\nE7,7,E99\n".utf8)
        emps.append(contentsOf: [0x45, 0x38, 0x2C, 0xE9, 0x2C, 0x0A])
        try emps.write(to: URL(fileURLWithPath: scratch.path("emps.csv")))
        let mapping = try ImportMapping(json: Data(#"""
            {"format": 1, "model": "m.json", "files": [
              {"path": "emps.csv", "encoding": "windows-1252", "targets": [{"entity": "Emp", "key": "code", "relationships": {"manager": {"column": "manager", "destinationKey": "code"}}}]},
              {"path": "depts.csv", "targets": [{"entity": "Dept", "key": "code"}]}]}
            """#.utf8), baseDirectory: scratch.url.path)
        let summary = try SeedImporter(model: try mapping.loadModel(), mapping: mapping, options: scratch.skipping(batchSize: batchSize))
            .run(into: scratch.path("s.sqlite"))
        let records = try Self.records(scratch.path("rejects.csv"), encoding: .windows1252)
        let places = records.dropFirst().map { "\($0[0]):\($0[1])" }
        #expect(places == ["emps.csv:2", "emps.csv:3", "emps.csv:4", "emps.csv:6", "emps.csv:8", "emps.csv:9", "emps.csv:10", "depts.csv:3"],
                "\(records)")
        #expect(summary.rejects == places.count)
        let raw = try Data(contentsOf: URL(fileURLWithPath: scratch.path("rejects.csv")))
        #expect(raw.range(of: Data([0x45, 0x38, 0x2C, 0xE9, 0x2C])) != nil, "the Windows-1252 byte as written")
        #expect(records.dropFirst().first { $0[1] == "4" }?[7] == "E3,\"multi\nline\",")
    }

    @Test("ragged rows, bad values and unknown keys are set aside with the right line numbers",
          arguments: [true, false])
    func rejects(readsAhead: Bool) throws {
        let scratch = ImportScratch()
        let summary = try Self.skipping(into: scratch, rejects: scratch.path("rejects.csv"), readsAhead: readsAhead)
        let file = try #require(summary.files.first { $0.path.hasSuffix("people-bad.csv") })
        #expect(file.rowsRead == 14)
        #expect(file.rejects == 9)
        #expect(file.blankRows == 2, "a blank line and a record of empty fields")
        #expect(file.rowsImported == 3)
        #expect(summary.rejects == 9)
        #expect(summary.rejectsFile == scratch.path("rejects.csv"))

        let records = try Self.records(scratch.path("rejects.csv"))
        #expect(records[0] == ["file", "line", "column", "entity", "attribute", "value", "reason", "raw"])
        let byLine = Dictionary(uniqueKeysWithValues: records.dropFirst().map { (Int($0[1])!, $0) })
        #expect(byLine.keys.sorted() == [3, 4, 5, 6, 8, 9, 10, 11, 12])
        #expect(Array(byLine[3]![2...5]) == ["6", "Person", "height", "1,78"])
        #expect(byLine[3]?[6].hasPrefix("Height: not a number") == true)
        #expect(byLine[3]?[7] == "2,Alan Turing,,00501,41,\"1,78\",Y,1912-06-23,ENG,5", "the raw text as in the file")
        #expect(byLine[4]?[6] == "the record has 8 fields; the header has 10. A field is missing, or a value runs over lines without quotes.")
        // No column to blame; the file fills one entity, which the reject names (a user trial found it empty).
        #expect(byLine[4]?[2] == "" && byLine[4]?[3] == "Person" && byLine[4]?[4] == "")
        #expect(byLine[5]?[4] == "team" && byLine[5]?[6].contains("no Team has code \"ZZZ\"") == true)
        #expect(byLine[6]?[6] == "Age: not a whole number")
        #expect(byLine[8]?[6] == "Age: 40000 is outside Integer 16's range -32768...32767")
        #expect(byLine[9]?[6].contains("a value is required") == true)
        #expect(byLine[10]?[6].contains("not a boolean") == true)
        #expect(byLine[11]?[6].contains("there is no month 13") == true)
        #expect(byLine[12]?[6] == "the record has 11 fields; the header has 10. A value holding a \",\" must be in quotes (or the header lacks a column).",
                "no delimiter is followed by a space: no field is named")
        #expect(byLine[12]?[7] == "11,\"Multi\nLine\",,,70,1.70,1,1951-01-01,DEC,extra,field", "a record over two lines")

        let (context, people) = try StoreReader.objects(scratch.path("People.sqlite"), "Person")
        #expect(people.map { $0["personID"] }.sorted { $0.description < $1.description } == [.integer(1), .integer(12), .integer(6)])
        withExtendedLifetime(context) {}
    }

    /// Exports that forgot to quote a value holding the delimiter (Northwind's `24, place Kléber`): the
    /// reason names the two fields the value became, when a space follows the delimiter outside quotes.
    @Test("a record with too many fields names the value its unquoted delimiter split", arguments: [true, false])
    func splitValueHint(trim: Bool) throws {
        let scratch = ImportScratch()
        try scratch.write("m.model.json", """
            {"entities": [{"name": "C", "attributes": [{"name": "code", "type": "String"}, {"name": "address", "type": "String"},
              {"name": "city", "type": "String"}]}]}
            """)
        let csv = """
            code,address,city
            A,"1, rue Haute",Paris
            B,24, place Kléber,Strasbourg
            C,"5, Main St",Ely,x, y
            D,5,Ely,x
            E,Oslo
            F,, Ely,x

            """
        try scratch.write("c.csv", csv)
        try scratch.write("t.csv", "code\taddress\tcity\nF\tG, H\tI\nK\tL\t M\tN\n")
        let mapping = try ImportMapping(json: Data("""
            {"format": 1, "model": "m.model.json", "defaults": {"trim": \(trim)}, "files": [
              {"path": "c.csv", "targets": [{"entity": "C"}]},
              {"path": "t.csv", "delimiter": "\\t", "targets": [{"entity": "C"}]}]}
            """.utf8), baseDirectory: scratch.url.path)
        var options = ImportOptions()
        options.onError = .skip
        options.rejectsPath = scratch.path("rejects.csv")
        let summary = try SeedImporter(model: try mapping.loadModel(), mapping: mapping, options: options).run(into: scratch.path("C.sqlite"))
        #expect(summary.objects["C"]?.stored == 2, "A, and F's record of three fields")
        let reasons = try Self.records(scratch.path("rejects.csv")).dropFirst().map { "\($0[0]):\($0[1]) \($0[6])" }
        #expect(reasons == [
            "c.csv:3 the record has 4 fields; the header has 3. Fields 2 (address) and 3 look like one value split at its \",\": \"24, place Kléber\" must be in quotes.",
            "c.csv:4 the record has 5 fields; the header has 3. Fields 4 and 5 look like one value split at its \",\": \"x, y\" must be in quotes.",
            "c.csv:5 the record has 4 fields; the header has 3. A value holding a \",\" must be in quotes (or the header lacks a column).",
            "c.csv:6 the record has 2 fields; the header has 3. A field is missing, or a value runs over lines without quotes.",
            "c.csv:7 the record has 4 fields; the header has 3. A value holding a \",\" must be in quotes (or the header lacks a column).",
            "t.csv:3 the record has 4 fields; the header has 3. Fields 2 (address) and 3 look like one value split at its tab: \"L\t M\" must be in quotes.",
        ], "the quoted \"1, rue Haute\" and \"5, Main St\" are one field each; a comma in a tab file splits nothing")
    }

    @Test("without --rejects, rejects go next to the store, and only when there are some")
    func defaultRejectsFile() throws {
        let scratch = ImportScratch()
        let summary = try Self.skipping(into: scratch)
        #expect(summary.rejectsFile == scratch.path("People.rejects.csv"))
        #expect(FileManager.default.fileExists(atPath: scratch.path("People.rejects.csv")))

        let clean = ImportScratch()
        let mapping = try ImportFixtures.mapping("people")
        var options = ImportOptions()
        options.onError = .skip
        let cleanSummary = try SeedImporter(model: try mapping.loadModel(), mapping: mapping, options: options)
            .run(into: clean.path("People.sqlite"))
        #expect(cleanSummary.rejects == 0 && cleanSummary.rejectsFile == nil)
        #expect(clean.files == ["People.sqlite"])
    }

    /// A user trial: a skip run's People.rejects.csv stayed next to the store a later abort-mode import
    /// (which writes no rejects) replaced, passing for that import's.
    @Test("an abort-mode import removes an earlier run's default rejects file, and keeps a file that is not one")
    func abortRemovesEarlierDefaultRejects() throws {
        let scratch = ImportScratch()
        _ = try Self.skipping(into: scratch)
        #expect(FileManager.default.fileExists(atPath: scratch.path("People.rejects.csv")))
        let mapping = try ImportFixtures.mapping("people")
        let summary = try SeedImporter(model: try mapping.loadModel(), mapping: mapping).run(into: scratch.path("People.sqlite"))
        #expect(!FileManager.default.fileExists(atPath: scratch.path("People.rejects.csv")))
        #expect(summary.warnings.contains("removed \(scratch.path("People.rejects.csv")), the rejected rows of an earlier import of this store, which no longer go with it"),
                "\(summary.warnings)")
        // A new store beside it (People.db) does not own People.rejects.csv: kept (a user trial lost another store's).
        _ = try Self.skipping(into: scratch)
        _ = try SeedImporter(model: try mapping.loadModel(), mapping: mapping).run(into: scratch.path("People.db"))
        #expect(FileManager.default.fileExists(atPath: scratch.path("People.rejects.csv")))
        // Not a rejects file (the user's own notes under that name): kept, without a word.
        try scratch.write("People.rejects.csv", "my notes\n")
        let again = try SeedImporter(model: try mapping.loadModel(), mapping: mapping).run(into: scratch.path("People.sqlite"))
        #expect(try String(contentsOfFile: scratch.path("People.rejects.csv"), encoding: .utf8) == "my notes\n")
        #expect(!again.warnings.contains { $0.contains("rejects") }, "\(again.warnings)")
    }

    @Test("bytes the encoding does not define are a reject, with a hint")
    func encoding() throws {
        let scratch = ImportScratch()
        var bytes = Array("code,name\nENG,Analytical Engines\nFC,First".utf8)
        bytes += [0x96]
        bytes += Array("Citizens\nDEC,Digital\n".utf8)
        try Data(bytes).write(to: URL(fileURLWithPath: scratch.path("teams.csv")))
        let mapping = try ImportMapping(json: Data("""
            {"format": 1, "files": [{"path": "teams.csv", "targets": [{"entity": "Team", "key": "code"}]}]}
            """.utf8), baseDirectory: scratch.url.path)
        let model = try ImportFixtures.model("import-basics")
        var options = ImportOptions()
        options.onError = .skip
        options.rejectsPath = scratch.path("rejects.csv")
        let summary = try SeedImporter(model: model, mapping: mapping, options: options).run(into: scratch.path("Teams.sqlite"))
        #expect(summary.rejects == 1)
        #expect(summary.objects["Team"]?.stored == 2)
        // The raw column keeps the file's own bytes (0x96 included), so read the rejects file as Latin-1.
        let records = try Self.records(scratch.path("rejects.csv"), encoding: .latin1)
        #expect(records[1][1] == "3" && records[1][4] == "name")
        #expect(records[1][6].contains("byte 0x96 is not valid UTF-8 (byte offset \(bytes.firstIndex(of: 0x96)!))"))
        #expect(records[1][6].contains("--encoding windows1252"))
        #expect(Array(records[1][7].unicodeScalars.map { UInt8($0.value) }) == Array("FC,First".utf8) + [0x96] + Array("Citizens".utf8),
                "the raw column holds the record's original bytes, not U+FFFD")

        options.encoding = .windows1252
        options.rejectsPath = scratch.path("rejects-1252.csv")
        let decoded = try SeedImporter(model: model, mapping: mapping, options: options).run(into: scratch.path("Teams.sqlite"))
        #expect(decoded.rejects == 0)
        let (context, teams) = try StoreReader.objects(scratch.path("Teams.sqlite"), "Team")
        #expect(teams.contains { $0["name"] == .string("First\u{2013}Citizens") })
        withExtendedLifetime(context) {}
    }
}

/// The rejects file is CSV that reads back: every field holding a delimiter, a quote or a line break is quoted.
@Suite("Import: quoting in the rejects file")
struct RejectsQuotingTests {
    /// A fuzzer found "3\r\n4" written bare: "\r\n" is one Character, equal to neither "\r" nor "\n".
    @Test("CR LF, CR, LF, commas, quotes and edge spaces are quoted; plain text is not",
          arguments: ["3\r\n4", "5\r6", "1\n2", "a,b", "say \"hi\"", " lead", "trail "])
    func quoted(field: String) throws {
        let quoted = _RejectsWriter.quote(field)
        #expect(quoted == "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\"")
        let reader = try CSVReader(data: Data(("x," + quoted + ",y\n").utf8), dialect: CSVDialect(hasHeader: false))
        var fields: [String] = []
        try reader.forEachRecord { record in fields = record.fields }
        #expect(fields == ["x", field, "y"], "it reads back")
        #expect(_RejectsWriter.quote("plain text") == "plain text")
    }
}
