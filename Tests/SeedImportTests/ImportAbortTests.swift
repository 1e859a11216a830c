import Foundation
import ManagedStore
import SeedImport
import Testing

/// Abort mode: the first bad row stops the import with everything a person needs, and the store stays.
@Suite("Import: aborting on a bad row")
struct ImportAbortTests {
    @Test("the error names file:line:column, entity, attribute, value and reason; the old store stays")
    func abort() throws {
        let scratch = ImportScratch()
        let store = scratch.path("People.sqlite")
        let good = try ImportFixtures.mapping("people")
        let model = try good.loadModel()
        _ = try SeedImporter(model: model, mapping: good).run(into: store)
        let before = try Data(contentsOf: URL(fileURLWithPath: store))

        let bad = try ImportFixtures.mapping("people-bad")
        do {
            _ = try SeedImporter(model: model, mapping: bad).run(into: store)
            Issue.record("expected the import to abort")
        } catch {
            #expect(error.kind == .badRow)
            #expect(error.exitCode == 1)
            #expect(error.file == "../csv/people-bad.csv")
            #expect(error.line == 3)
            #expect(error.column == 6)
            #expect(error.columnName == "Height")
            #expect(error.entity == "Person")
            #expect(error.attribute == "height")
            #expect(error.value == "1,78")
            #expect(error.reason.hasPrefix("not a number"))
            #expect(error.description.hasPrefix("../csv/people-bad.csv:3:6: Person.height (\"Height\" = \"1,78\"): not a number"))
            #expect(error.description.contains("\(store) is unchanged"))
            #expect(error.description.contains("--on-error skip"))
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before, "the store is untouched")
        #expect(scratch.files == ["People.sqlite"], "no temporary file is left")
        #expect(try PersistentStore(path: store).count(of: model.entity(named: "Person")!) == 5)
    }

    /// Team ENG, and `people` (a CSV of person_id, name, team) linked to teams by code.
    static func teamsAndPeople(_ people: String, in scratch: ImportScratch) throws -> ImportMapping {
        try scratch.write("teams.csv", "code,name\nENG,Engines\n")
        try scratch.write("people.csv", people)
        return try ImportMapping(json: Data("""
            {"format": 1, "files": [
              {"path": "teams.csv", "targets": [{"entity": "Team", "key": "code"}]},
              {"path": "people.csv", "targets": [{"entity": "Person", "relationships": {"team": {"column": "team", "destinationKey": "code"}}}]}
            ]}
            """.utf8), baseDirectory: scratch.url.path)
    }

    @Test("a key that names no object aborts with the relationship and the key")
    func missingKey() throws {
        let scratch = ImportScratch()
        let mapping = try Self.teamsAndPeople("person_id,name,team\n1,Ada,ENG\n2,Alan,MIT\n", in: scratch)
        let model = try ImportFixtures.model("import-basics")
        do {
            _ = try SeedImporter(model: model, mapping: mapping).run(into: scratch.path("Out.sqlite"))
            Issue.record("expected the import to abort")
        } catch {
            #expect(error.description.hasPrefix("people.csv:3:3: Person.team (\"team\" = \"MIT\"): no Team has code \"MIT\""))
        }
        #expect(!FileManager.default.fileExists(atPath: scratch.path("Out.sqlite")))
    }

    /// A user trial: with text kept as written, `A, ENG` named no team " ENG" with no word of the spaces.
    @Test("a text key with spaces around it that names no object says the key without them exists, and names --trim")
    func spacedKey() throws {
        let scratch = ImportScratch()
        let mapping = try Self.teamsAndPeople("person_id,name,team\n1,Ada, ENG\n", in: scratch)
        let model = try ImportFixtures.model("import-basics")
        let error = try #require(throws: ImportError.self) { try SeedImporter(model: model, mapping: mapping).run(into: scratch.path("Out.sqlite")) }
        #expect(error.description.hasPrefix(#"people.csv:2:3: Person.team ("team" = " ENG"): no Team has code " ENG" (it has spaces around it; "ENG" exists: "#
            + "text keeps its spaces unless the file trims, so re-run with --trim"), "\(error)")
        var trimming = mapping
        trimming.defaults.trim = true
        for f in trimming.files.indices { trimming.files[f].options.trim = true }
        #expect(try SeedImporter(model: model, mapping: trimming).run(into: scratch.path("Out.sqlite")).objects["Person"]?.stored == 1)
    }

    @Test("a ragged row aborts with its line")
    func ragged() throws {
        let scratch = ImportScratch()
        try scratch.write("teams.csv", "code,name\nENG,Engines\nMIT\n")
        let mapping = try ImportMapping(json: Data("""
            {"format": 1, "files": [{"path": "teams.csv", "targets": [{"entity": "Team"}]}]}
            """.utf8), baseDirectory: scratch.url.path)
        #expect {
            try SeedImporter(model: try ImportFixtures.model("import-basics"), mapping: mapping).run(into: scratch.path("Out.sqlite"))
        } throws: { error in
            (error as? ImportError)?.description.hasPrefix("teams.csv:3: Team: the record has 1 field; the header has 2") == true
        }
    }
}
