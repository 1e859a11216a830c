import Foundation
import ManagedStore
import SeedImport
import Testing

/// Keys: a later row with the same key updates the object; repeats within one file are reported.
@Suite("Import: upserts and duplicate keys")
struct ImportUpsertTests {
    static let model = try! ObjectModel(contentsOf: ImportFixtures.path("models/import-basics.model.json"))

    static func mapping(_ json: String, in scratch: ImportScratch) throws -> ImportMapping {
        try ImportMapping(json: Data(json.utf8), baseDirectory: scratch.url.path)
    }

    static func teams(_ store: String) throws -> [String: String] {
        let (context, teams) = try StoreReader.objects(store, "Team")
        defer { withExtendedLifetime(context) {} }
        var byCode: [String: String] = [:]
        for team in teams {
            guard case .string(let code) = team["code"], case .string(let name) = team["name"] else { continue }
            byCode[code] = name
        }
        return byCode
    }

    @Test("a repeated key updates the first object, and the repeat is reported with its line")
    func withinAFile() throws {
        let scratch = ImportScratch()
        let mapping = try Self.mapping("""
            {"format": 1, "files": [{"path": "\(ImportFixtures.path("csv/teams.csv"))", "targets": [{"entity": "Team", "key": "code"}]}]}
            """, in: scratch)
        let summary = try SeedImporter(model: Self.model, mapping: mapping).run(into: scratch.path("Teams.sqlite"))
        #expect(summary.objects["Team"]?.stored == 6)
        #expect(summary.objects["Team"]?.inserted == 6)
        #expect(summary.objects["Team"]?.updated == 1)
        #expect(summary.duplicates.count == 1)
        #expect(summary.duplicates.first?.count == 1)
        #expect(summary.duplicates.first?.lines == [8])
        #expect(summary.duplicates.first?.key == "code")
        #expect(summary.description.contains("duplicates: 1 row in \(ImportFixtures.path("csv/teams.csv")) repeats the Team.code key of an earlier row (line 8) and updates its object"),
                "\(summary.description)")
        #expect(try Self.teams(scratch.path("Teams.sqlite"))["ENG"] == "Analytical Engines Ltd")
    }

    /// A user trial read "7 repeated T.id keys" as seven keys; it counted rows (repeating two keys).
    @Test("the summary counts rows that repeat a key, not keys")
    func duplicateWording() throws {
        let scratch = ImportScratch()
        try scratch.write("teams.csv", "code,name\nA,1\nB,2\nA,3\nA,4\nB,5\n")
        let mapping = try Self.mapping("""
            {"format": 1, "files": [{"path": "teams.csv", "targets": [{"entity": "Team", "key": "code"}]}]}
            """, in: scratch)
        let summary = try SeedImporter(model: Self.model, mapping: mapping).run(into: scratch.path("Teams.sqlite"))
        #expect(summary.duplicates.first?.count == 3)
        #expect(summary.description.contains("  duplicates: 3 rows in teams.csv repeat the Team.code key of an earlier row (lines 4, 5, 6) and update its object"),
                "\(summary.description)")
    }

    @Test("keys repeat across batches: the saved object is read back and updated", arguments: [true, false])
    func acrossBatches(readsAhead: Bool) throws {
        let scratch = ImportScratch()
        var text = "code,name\n"
        for i in 1...25 { text += "T\(i),Team \(i)\n" }
        text += "T3,Third again\nT25,Last again\nT3,Third once more\n"
        try scratch.write("teams.csv", text)
        let mapping = try Self.mapping("""
            {"format": 1, "files": [{"path": "teams.csv", "targets": [{"entity": "Team", "key": "code"}]}]}
            """, in: scratch)
        var options = ImportOptions()
        options.batchSize = 4
        options.reportedLines = 2
        options.readsAhead = readsAhead
        let summary = try SeedImporter(model: Self.model, mapping: mapping, options: options).run(into: scratch.path("Teams.sqlite"))
        #expect(summary.objects["Team"]?.stored == 25)
        #expect(summary.objects["Team"]?.updated == 3)
        #expect(summary.duplicates.first?.count == 3)
        #expect(summary.duplicates.first?.lines == [27, 28], "the first few lines only")
        let teams = try Self.teams(scratch.path("Teams.sqlite"))
        #expect(teams["T3"] == "Third once more" && teams["T25"] == "Last again" && teams["T24"] == "Team 24")
    }

    @Test("a later file with the same keys updates without a duplicate report")
    func acrossFiles() throws {
        let scratch = ImportScratch()
        try scratch.write("a.csv", "code,name\nENG,Engines\nMIT,Institute\n")
        try scratch.write("b.csv", "code,name,founded\nMIT,Massachusetts Institute of Technology,1861-04-10\nDEC,Digital,1957-08-23\n")
        let mapping = try Self.mapping("""
            {"format": 1, "files": [
              {"path": "a.csv", "targets": [{"entity": "Team", "key": "code"}]},
              {"path": "b.csv", "targets": [{"entity": "Team", "key": "code"}]}
            ]}
            """, in: scratch)
        let summary = try SeedImporter(model: Self.model, mapping: mapping).run(into: scratch.path("Teams.sqlite"))
        #expect(summary.duplicates.isEmpty)
        #expect(summary.objects["Team"]?.stored == 3)
        #expect(summary.objects["Team"]?.updated == 1)
        #expect(try Self.teams(scratch.path("Teams.sqlite")) == [
            "ENG": "Engines", "MIT": "Massachusetts Institute of Technology", "DEC": "Digital",
        ])
    }

    @Test("one row makes a team and a person pointing at it; later rows find the saved team", arguments: [true, false])
    func sameRowReferences(readsAhead: Bool) throws {
        let scratch = ImportScratch()
        var text = "team,team_name,person_id,name\n"
        for i in 1...12 { text += "T\(i % 3),Team \(i % 3),\(i),Person \(i)\n" }
        try scratch.write("people.csv", text)
        let mapping = try Self.mapping("""
            {"format": 1, "files": [{"path": "people.csv", "targets": [
              {"entity": "Team", "key": "code", "columns": {"code": "team", "name": "team_name"}},
              {"entity": "Person", "key": "personID", "relationships": {"team": {"column": "team", "destinationKey": "code"}}}
            ]}]}
            """, in: scratch)
        var options = ImportOptions()
        options.batchSize = 5
        options.readsAhead = readsAhead
        let summary = try SeedImporter(model: Self.model, mapping: mapping, options: options).run(into: scratch.path("People.sqlite"))
        #expect(summary.objects["Team"]?.stored == 3)
        #expect(summary.objects["Person"]?.stored == 12)
        let linked = try StoreReader.scalar(scratch.path("People.sqlite"), """
            SELECT count(*) FROM ZPERSON p JOIN ZTEAM t ON p.ZTEAM = t.Z_PK WHERE 'T' || (p.ZPERSONID % 3) = t.ZCODE
            """)
        #expect(linked == .integer(12))
    }
}

/// A correction file (the key and the columns that change) of an entity an earlier file fills, without
/// columns for its required attributes: its rows update; one with a new key is a reject naming them.
@Suite("Import: correction files without required columns")
struct ImportCorrectionFileTests {
    static let model = """
        {"entities": [{"name": "P", "attributes": [{"name": "code", "type": "String", "optional": false},
                                                  {"name": "name", "type": "String", "optional": false},
                                                  {"name": "qty", "type": "Integer 32", "optional": true}]}]}
        """

    static func run(_ fix: String, files: String, options: ImportOptions = ImportOptions(), in scratch: ImportScratch) throws -> ImportSummary {
        try scratch.write("m.model.json", model)
        try scratch.write("base.csv", "code,name,qty\nA,Apple,1\nB,Banana,2\n")
        try scratch.write("fix.csv", fix)
        let mapping = try ImportMapping(json: Data("""
            {"format": 1, "model": "m.model.json", "files": [\(files)]}
            """.utf8), baseDirectory: scratch.url.path)
        return try SeedImporter(model: mapping.loadModel(), mapping: mapping, options: options).run(into: scratch.path("p.sqlite"))
    }

    static let both = """
        {"path": "base.csv", "targets": [{"entity": "P", "key": "code"}]}, {"path": "fix.csv", "targets": [{"entity": "P", "key": "code"}]}
        """

    @Test("rows that update go in; a row with a new key is a reject naming the key and the missing columns", arguments: [true, false])
    func updatesOnly(readsAhead: Bool) throws {
        let scratch = ImportScratch()
        var options = scratch.skipping()
        options.readsAhead = readsAhead
        let summary = try Self.run("code,qty\nA,10\nC,3\nB,\n", files: Self.both, options: options, in: scratch)
        #expect(summary.rejects == 1)
        #expect(try StoreReader.scalar(scratch.path("p.sqlite"), "SELECT group_concat(ZCODE || ':' || ZNAME || ':' || ifnull(ZQTY, '-'), ' ') FROM (SELECT * FROM ZP ORDER BY ZCODE)")
                == .text("A:Apple:10 B:Banana:-"))
        let rejects = scratch.rejects
        #expect(rejects.contains(#"fix.csv,3,1,P,code,C,"code: no P has code ""C"" yet, so this row would make a new one, but the file has no column for name, which P requires"#),
                "\(rejects)")
    }

    @Test("abort mode stops at a new key; the store stays as it was")
    func abortStops() throws {
        let scratch = ImportScratch()
        let error = try #require(throws: ImportError.self) { try Self.run("code,qty\nA,10\nC,3\n", files: Self.both, in: scratch) }
        #expect(error.description.contains("fix.csv:3:1: P.code (\"code\" = \"C\"): no P has code \"C\" yet"), "\(error)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("p.sqlite")))
    }

    @Test("a file without required columns that no earlier file fills is still a mapping error, saying when it may leave them out")
    func onlyFile() throws {
        let scratch = ImportScratch()
        let error = try #require(throws: ImportError.self) {
            try Self.run("code,qty\nA,10\n", files: #"{"path": "fix.csv", "targets": [{"entity": "P", "key": "code"}]}"#, in: scratch)
        }
        #expect(error.description.contains("name is required, has no default and no column matches its name")
                && error.description.contains("a file that only updates objects an earlier file made may leave it out"), "\(error)")
    }
}

/// Skip mode: a row set aside whose key another row stored is named, since importing it again as a
/// correction would replace that row's values (a user trial).
@Suite("Import: rows set aside whose key another row stored")
struct ImportSetAsideKeyTests {
    @Test("the summary names them once per file and target, with the first one's line and key", arguments: [true, false])
    func named(readsAhead: Bool) throws {
        let scratch = ImportScratch()
        try scratch.write("m.model.json", ImportCorrectionFileTests.model)
        try scratch.write("sa.csv", "code,name,qty\nA,Apple,1\nB,Banana,x\nB,Banana,2\nC,Cherry,y\nD,Date,z\nA,Apricot,q\n")
        let mapping = try ImportMapping(json: Data("""
            {"format": 1, "model": "m.model.json", "files": [{"path": "sa.csv", "targets": [{"entity": "P", "key": "code"}]}]}
            """.utf8), baseDirectory: scratch.url.path)
        var options = scratch.skipping()
        options.readsAhead = readsAhead
        let summary = try SeedImporter(model: mapping.loadModel(), mapping: mapping, options: options).run(into: scratch.path("p.sqlite"))
        #expect(summary.rejects == 4)
        let found = summary.warnings.filter { $0.contains("set aside") }
        #expect(found == ["sa.csv: 2 rows set aside hold keys that another row stored (the first: line 3, P.code \"B\"): the store keeps that "
                          + "row's values, and a set-aside row fixed and imported again as a correction would replace them"], "\(summary.warnings)")
    }
}
