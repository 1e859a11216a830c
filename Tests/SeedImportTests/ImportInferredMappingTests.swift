import Foundation
import ManagedStore
import SeedImport
import Testing

/// Importing without a mapping file: `Entity=file.csv`, headers matched to attribute names.
@Suite("Import: without a mapping file")
struct ImportInferredMappingTests {
    @Test("headers match attributes; a column named like a relationship fills it")
    func people() throws {
        let scratch = ImportScratch()
        let model = try ImportFixtures.model("import-basics")
        let mapping = try ImportMapping.inferred(
            sources: [("Person", ImportFixtures.path("csv/people.csv")), ("Team", ImportFixtures.path("csv/teams.csv"))],
            model: model)
        guard case .targets(let people) = mapping.files[0].content, case .targets(let teams) = mapping.files[1].content else {
            Issue.record("expected targets")
            return
        }
        #expect(people[0].relationships["team"] == RelationshipMapping(column: "Team", destinationKey: "code"))
        // Every column read is named, as the header writes it, so a saved mapping shows where each comes from.
        let header = try String(contentsOfFile: ImportFixtures.path("csv/people.csv"), encoding: .utf8).split(separator: "\n")[0]
            .split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(!people[0].columns.isEmpty)
        for (attribute, spec) in people[0].columns {
            let column = try #require(spec.column)
            #expect(header.contains(column), "\(attribute) ← \(column)")
            #expect(HeaderName.fold(column) == HeaderName.fold(attribute))
        }
        #expect(teams[0].key == "code", "the key relationships look teams up by")
        let summary = try SeedImporter(model: model, mapping: mapping).run(into: scratch.path("People.sqlite"))
        #expect(summary.files.map(\.path).first?.hasSuffix("teams.csv") == true, "teams first: people refer to them")
        #expect(summary.objects["Person"]?.stored == 5)
        #expect(summary.objects["Team"]?.stored == 6)
        let (context, persons) = try StoreReader.objects(scratch.path("People.sqlite"), "Person")
        let ada = try #require(persons.first { $0["personID"] == .integer(1) })
        #expect(ada["zip"] == .string("02139"))
        #expect(ada["active"] == .bool(true))
        #expect(ada["score"] == .integer(0), "an empty optional value takes the model's default")
        #expect(try ada.object(forKey: "team")?["name"] == .string("Analytical Engines Ltd"))
        let turing = try #require(persons.first { $0["personID"] == .integer(2) })
        #expect(turing["nickname"] == .null, "NULL is a null token by default")
        withExtendedLifetime(context) {}
    }

    @Test("generated wells: operator_id fills the operator relationship")
    func wells() throws {
        let scratch = ImportScratch()
        let data = try DataSetGenerator.generate(.wells, rows: 200, into: scratch.url.appendingPathComponent("data"))
        let model = try ObjectModel(contentsOf: data.modelFile.url.path)
        let mapping = try ImportMapping.inferred(
            sources: [("Well", data.directory.appendingPathComponent("wells.csv").path),
                      ("Operator", data.directory.appendingPathComponent("operators.csv").path)],
            model: model)
        guard case .targets(let wells) = mapping.files[0].content else { Issue.record("expected targets"); return }
        #expect(wells[0].relationships["operator"] == RelationshipMapping(column: "operator_id", destinationKey: "operator_id"))
        let summary = try SeedImporter(model: model, mapping: mapping).run(into: scratch.path("Wells.sqlite"))
        #expect(summary.objects["Well"]?.stored == 200)
        #expect(try StoreReader.scalar(scratch.path("Wells.sqlite"), """
            SELECT count(*) FROM ZWELL w JOIN ZOPERATOR o ON w.ZOPERATOR = o.Z_PK AND o.ZOPERATOR_ID = w.ZOPERATOR_ID
            """) == .integer(200))
    }

    /// A relationship to the row's own entity: the key column (empID) is the row's own value, so only a
    /// column named like the relationship fills it. Before, empID filled `manager` and every employee
    /// managed itself.
    @Test("a relationship to its own entity is filled from a column named like it, never from the key column",
          arguments: [("manager", true), ("manager_empID", true), ("boss", false)])
    func selfReference(column: String, links: Bool) throws {
        let scratch = ImportScratch()
        let model = try ObjectModel(json: Data("""
            {"entities":[{"name":"Emp","attributes":[{"name":"empID","type":"Integer 32","optional":false,"indexed":true},{"name":"name","type":"String"}],
             "relationships":[{"name":"manager","destination":"Emp","inverse":"reports"},{"name":"reports","destination":"Emp","inverse":"manager","toMany":true}]}]}
            """.utf8))
        try scratch.write("emps.csv", "empID,name,\(column)\n1,Boss,\n2,Ann,1\n3,Bob,1\n")
        let mapping = try ImportMapping.inferred(sources: [("Emp", scratch.path("emps.csv"))], model: model)
        guard case .targets(let targets) = mapping.files[0].content else { Issue.record("expected targets"); return }
        #expect(targets[0].relationships["manager"] == (links ? RelationshipMapping(column: column, destinationKey: "empID") : nil))
        _ = try SeedImporter(model: model, mapping: mapping).run(into: scratch.path("E.sqlite"))
        let managers = try PersistentStore(path: scratch.path("E.sqlite")).connection
            .rows("SELECT e.ZEMPID, m.ZEMPID FROM ZEMP e LEFT JOIN ZEMP m ON m.Z_PK = e.ZMANAGER ORDER BY e.ZEMPID").map { $0[1] }
        #expect(managers == (links ? [.null, .integer(1), .integer(1)] : [.null, .null, .null]))
    }

    @Test("Northwind's employees report to the employee their reportsTo names", .enabled(if: ImportFixtures.hasReal, ImportFixtures.realSkipReason))
    func northwindReportsTo() throws {
        let scratch = ImportScratch()
        let model = try ObjectModel(json: Data("""
            {"entities":[{"name":"Employee","attributes":[{"name":"employeeID","type":"Integer 32","optional":false,"indexed":true},
              {"name":"lastName","type":"String"}],
             "relationships":[{"name":"reportsTo","destination":"Employee","inverse":"reports"},
              {"name":"reports","destination":"Employee","inverse":"reportsTo","toMany":true}]}]}
            """.utf8))
        let csv = ImportFixtures.real.appendingPathComponent("northwind-neo4j/employees.csv").path
        let mapping = try ImportMapping.inferred(sources: [("Employee", csv)], model: model)
        _ = try SeedImporter(model: model, mapping: mapping).run(into: scratch.path("NW.sqlite"))
        let pairs = try PersistentStore(path: scratch.path("NW.sqlite")).connection
            .rows("SELECT e.ZLASTNAME, m.ZLASTNAME FROM ZEMPLOYEE e LEFT JOIN ZEMPLOYEE m ON m.Z_PK = e.ZREPORTSTO ORDER BY e.ZEMPLOYEEID")
        #expect(pairs.count == 9)
        #expect(pairs.first == [.text("Davolio"), .text("Fuller")])
        #expect(pairs[1] == [.text("Fuller"), .null], "the vice president reports to no one (NULL)")
        #expect(!pairs.contains { $0[0] == $0[1] }, "no one reports to themselves")
    }

    @Test("an unknown entity is a mapping error naming the entities there are")
    func unknownEntity() throws {
        let model = try ImportFixtures.model("import-basics")
        #expect {
            try ImportMapping.inferred(sources: [("Persons", ImportFixtures.path("csv/people.csv"))], model: model)
        } throws: { error in
            let error = error as? ImportError
            return error?.kind == .mapping && error?.problems.first?.contains("the model has no entity 'Persons'; did you mean 'Person'? (it has: Person, Team)") == true
        }
        // Two unknown entities: each is a problem, the hint is given once (a user trial saw it twice).
        let two = try #require(throws: ImportError.self) {
            try ImportMapping.inferred(sources: [("Persons", ImportFixtures.path("csv/people.csv")), ("Teem", ImportFixtures.path("csv/teams.csv"))], model: model)
        }
        #expect(two.problems.count == 2)
        #expect(two.hint?.components(separatedBy: "Name each file as Entity=path.csv").count == 2, "\(two.hint ?? "")")
    }

    @Test("a header that matches no attribute is a mapping problem naming file, entity, columns and attributes; nothing is written")
    func headerMatchesNothing() throws {
        let scratch = ImportScratch()
        try scratch.write("teams.csv", "Kürzel,Bezeichnung\nENG,Engines\n")
        let model = try ImportFixtures.model("import-basics")
        let error = try #require(throws: ImportError.self) {
            try ImportMapping.inferred(sources: [("Team", "teams.csv")], model: model, baseDirectory: scratch.url.path)
        }
        #expect(error.kind == .mapping && error.exitCode == 2)
        #expect(error.problems == [
            "teams.csv: no column of its header matches an attribute of Team, so every row would make an empty object (the header has: \"Kürzel\", \"Bezeichnung\"; Team has: code, name, founded)",
        ])
        #expect(error.hint?.contains("Name the columns like the attributes") == true)
        #expect(scratch.files == ["teams.csv"])
    }

    /// `csv` as teams.csv in a new scratch directory, and the mapping made from its header for Team.
    static func teams(_ csv: String) throws -> (ImportScratch, ObjectModel, ImportMapping) {
        let scratch = ImportScratch()
        try scratch.write("teams.csv", csv)
        let model = try ImportFixtures.model("import-basics")
        return (scratch, model, try ImportMapping.inferred(sources: [("Team", "teams.csv")], model: model, baseDirectory: scratch.url.path))
    }

    @Test("a column nothing takes that is close to an attribute no column took is named with it")
    func unmatchedColumnSuggests() throws {
        let (_, _, mapping) = try Self.teams("code,nmae,Founded on\nENG,Engines,1970-01-01\n")
        #expect(mapping.warnings.first?.hasPrefix("teams.csv → Team: no attribute takes the columns \"nmae\" (name?), \"Founded on\" (founded?) (Team has:") == true,
                "\(mapping.warnings)")
    }

    @Test("columns of a matching header that no attribute takes are warnings in the summary")
    func unmatchedColumnsWarn() throws {
        let (scratch, model, mapping) = try Self.teams("code,name,Motto, \nENG,Engines,Onward,\n")
        #expect(mapping.warnings == ["teams.csv → Team: no attribute takes the column \"Motto\" (Team has: code, name, founded); to read it, save the mapping with --save-mapping FILE, map it under \"columns\" and import with --mapping FILE"])
        let summary = try SeedImporter(model: model, mapping: mapping).run(into: scratch.path("Teams.sqlite"))
        #expect(summary.warnings.contains(mapping.warnings[0]))
        #expect(summary.objects["Team"]?.stored == 1)
    }

    /// A user trial's `Price,PRICE` read the first silently as far as the warning said.
    @Test("a column that folds to an attribute another column named exactly fills says which one is read")
    func foldedDuplicateColumn() throws {
        let (_, _, mapping) = try Self.teams("code,name,NAME\nENG,Engines,Other\n")
        #expect(mapping.warnings.first?.hasPrefix("teams.csv → Team: no attribute takes the column \"NAME\" (name reads \"name\", which matches it too) (Team has:") == true,
                "\(mapping.warnings)")
    }

    /// A user trial: `Menge_;MENGE` (neither named exactly like `menge`) read the first column and only warned
    /// about the second, while two columns named exactly alike stop the import.
    @Test("columns that all fold to an attribute, none named exactly like it, stop the import: which one is meant is a guess")
    func foldedColumnsWithoutExactName() throws {
        do {
            _ = try Self.teams("code,Name,NAME\nENG,Engines,Other\n")
            Issue.record("two columns folding to name, neither exact, should stop the import")
        } catch let error as ImportError {
            #expect(error.kind == .mapping)
            let expected = #"teams.csv → Team.name: "Name" (column 2) and "NAME" (column 3) both match "name" once case, spaces and '_' are set aside, so which one to read is unclear; rename or drop all but one, or write a mapping file that names the column exactly (docs/mapping.md)"#
            #expect(error.problems == [expected], "\(error.problems)")
        }
    }

    static let wellsModel = """
        {"entities": [
          {"name": "Operator", "attributes": [{"name": "operator_id", "type": "Integer 32", "optional": false, "indexed": true},
                                              {"name": "name", "type": "String", "optional": true}],
           "relationships": [{"name": "wells", "destination": "Well", "inverse": "operator", "toMany": true}]},
          {"name": "Well", "attributes": [{"name": "uwi", "type": "String"}],
           "relationships": [{"name": "operator", "destination": "Operator", "inverse": "wells", "optional": true}]}]}
        """

    /// A user trial: `Operator_ID,operatorID` filled the relationship from the first column with only a warning
    /// about the other, while two such columns for an attribute stop the import.
    @Test("relationship key columns that all fold to one name, none named exactly, stop the import as attributes do; an exact name wins")
    func foldedRelationshipColumns() throws {
        let scratch = ImportScratch()
        let model = try ObjectModel(json: Data(Self.wellsModel.utf8))
        try scratch.write("ops.csv", "operator_id,name\n1,Acme\n2,Beta\n")
        func inferred(_ wells: String) throws -> ImportMapping {
            try scratch.write("wells.csv", wells)
            return try ImportMapping.inferred(sources: [("Operator", "ops.csv"), ("Well", "wells.csv")], model: model, baseDirectory: scratch.url.path)
        }
        let error = try #require(throws: ImportError.self) { try inferred("uwi,Operator_ID,operatorID\nW1,1,2\n") }
        #expect(error.problems == [
            #"wells.csv → Well.operator: "Operator_ID" (column 2) and "operatorID" (column 3) both match "operator_id" once case, spaces and '_' are set aside, so which one to read is unclear; rename or drop all but one, or write a mapping file that names the column exactly ("relationships": {"operator": {"column": "Operator_ID", "destinationKey": "operator_id"}}; docs/mapping.md)"#,
        ], "\(error.problems)")
        // Columns named like the relationship itself, which hold the destination's likely key.
        let named = try #require(throws: ImportError.self) { try inferred("uwi,Operator,OPERATOR\nW1,1,2\n") }
        #expect(named.problems.count == 1 && named.problems[0].hasPrefix(#"wells.csv → Well.operator: "Operator" (column 2) and "OPERATOR" (column 3) both match "operator""#),
                "\(named.problems)")

        // A column named exactly wins, wherever it stands, and the other is named in the warning.
        let exact = try inferred("uwi,OperatorId,operator_id\nW1,2,1\n")
        guard case .targets(let targets) = exact.files[1].content else { Issue.record("expected targets"); return }
        #expect(targets[0].relationships["operator"] == RelationshipMapping(column: "operator_id", destinationKey: "operator_id"))
        #expect(exact.warnings.first?.hasPrefix(#"wells.csv → Well: no attribute takes the column "OperatorId" (operator reads "operator_id", which matches it too)"#) == true,
                "\(exact.warnings)")
        _ = try SeedImporter(model: model, mapping: exact).run(into: scratch.path("Wells.sqlite"))
        let (context, wells) = try StoreReader.objects(scratch.path("Wells.sqlite"), "Well")
        let operatorName = try wells.first?.object(forKey: "operator")?["name"]
        withExtendedLifetime(context) {}
        #expect(operatorName == .string("Acme"))

        // Through a mapping file, the problem names the relationship and how to name its column.
        let mapping = try ImportMapping(json: Data("""
            {"format": 1, "files": [{"path": "ops.csv", "targets": [{"entity": "Operator", "key": "operator_id"}]},
             {"path": "wells2.csv", "targets": [{"entity": "Well", "relationships": {"operator": {"column": "operator_id", "destinationKey": "operator_id"}}}]}]}
            """.utf8), baseDirectory: scratch.url.path)
        try scratch.write("wells2.csv", "uwi,Operator_ID,operatorID\nW1,1,2\n")
        let mapped = try #require(throws: ImportError.self) { try SeedImporter(model: model, mapping: mapping).run(into: scratch.path("Mapped.sqlite")) }
        #expect(mapped.problems == [
            #"wells2.csv → Well.operator: "Operator_ID" (column 2) and "operatorID" (column 3) both match "operator_id" once case, spaces and '_' are set aside, so which one to read is unclear; rename or drop all but one, or name the column exactly in the mapping ("relationships": {"operator": {"column": "Operator_ID", "destinationKey": "operator_id"}})"#,
        ], "\(mapped.problems)")
    }

    /// A user trial: `Team=teams.csv Team=teams.csv` made every team twice without a word.
    @Test("a file listed twice for an entity without a key warns that its rows are added twice; with a key it updates, silently")
    func fileListedTwice() throws {
        let scratch = ImportScratch()
        try scratch.write("teams.csv", "code,name\nENG,Engines\n")
        let model = try ImportFixtures.model("import-basics")
        let twice = try ImportMapping.inferred(sources: [("Team", "teams.csv"), ("Team", "./teams.csv")], model: model, baseDirectory: scratch.url.path)
        let summary = try SeedImporter(model: model, mapping: twice).run(into: scratch.path("Teams.sqlite"))
        #expect(summary.objects["Team"]?.stored == 2)
        #expect(summary.warnings.contains("teams.csv fills Team 2 times, and Team has no key: each listing adds every row again; list the file once, or give Team a key (\"key\" in a mapping) so a later listing updates the same objects"),
                "\(summary.warnings)")
        let keyed = try ImportMapping(json: Data("""
            {"format": 1, "files": [{"path": "teams.csv", "targets": [{"entity": "Team", "key": "code"}]},
             {"path": "teams.csv", "targets": [{"entity": "Team", "key": "code"}]}]}
            """.utf8), baseDirectory: scratch.url.path)
        let updated = try SeedImporter(model: model, mapping: keyed).run(into: scratch.path("Keyed.sqlite"))
        #expect(updated.objects["Team"]?.stored == 1)
        #expect(!updated.warnings.contains { $0.contains("times, and Team has no key") }, "\(updated.warnings)")
    }

    /// A user trial: a file listed for an entity with a key, then again without one, made every object twice
    /// without a word (the warning counted only listings without a key).
    @Test("a file listed for an entity with a key and again without one warns when rows are added twice, and says when the keyed listing updates")
    func fileListedWithAndWithoutKey() throws {
        let scratch = ImportScratch()
        try scratch.write("teams.csv", "code,name\nENG,Engines\n")
        let model = try ImportFixtures.model("import-basics")
        func run(_ first: String, _ second: String) throws -> ImportSummary {
            let mapping = try ImportMapping(json: Data("""
                {"format": 1, "files": [{"path": "teams.csv", "targets": [\(first)]}, {"path": "teams.csv", "targets": [\(second)]}]}
                """.utf8), baseDirectory: scratch.url.path)
            let out = scratch.path("Teams-\(UUID().uuidString).sqlite")
            return try SeedImporter(model: model, mapping: mapping).run(into: out)
        }
        let keyed = #"{"entity": "Team", "key": "code"}"#, keyless = #"{"entity": "Team"}"#
        let twice = try run(keyed, keyless)
        #expect(twice.objects["Team"]?.stored == 2)
        #expect(twice.warnings.contains("teams.csv fills Team 2 times, and a listing without a key comes after one by the key 'code': it adds every row again, so Team objects are made twice; list the file once, or give every listing the same \"key\" so a later listing updates the same objects"),
                "\(twice.warnings)")
        let updated = try run(keyless, keyed)
        #expect(updated.objects["Team"]?.stored == 1)
        #expect(updated.warnings.contains("teams.csv fills Team 2 times: first without a key, which adds every row, then by the key 'code', which finds the objects the first listing made and updates them rather than adding them again"),
                "\(updated.warnings)")
        let both = try run(keyed, keyed)
        #expect(both.objects["Team"]?.stored == 1)
        #expect(!both.warnings.contains { $0.contains("fills Team 2 times") }, "\(both.warnings)")
    }

    @Test("a mapping file reading an attribute that several columns fold to is refused, and told how to name the column")
    func foldedColumnsInMapping() throws {
        let scratch = ImportScratch()
        try scratch.write("teams.csv", "code,first_name,FirstName\nENG,a,b\n")
        let model = try ObjectModel(json: Data(#"{"entities":[{"name":"Team","attributes":[{"name":"code","type":"String"},{"name":"firstName","type":"String","optional":true}]}]}"#.utf8))
        let mapping = try ImportMapping(json: Data(#"{"format": 1, "files": [{"path": "teams.csv", "targets": [{"entity": "Team"}]}]}"#.utf8),
                                        baseDirectory: scratch.url.path)
        let error = try #require(throws: ImportError.self) {
            try SeedImporter(model: model, mapping: mapping).run(into: scratch.path("Teams.sqlite"))
        }
        let expected = #"teams.csv: "first_name" (column 2) and "FirstName" (column 3) both match "firstName" once case, spaces and '_' are set aside, so which one to read is unclear; rename or drop all but one, or name the column exactly in the mapping ("columns": {"firstName": "first_name"})"#
        #expect(error.problems == [expected], "\(error.problems)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("Teams.sqlite")))
        // Named exactly, the column is read.
        let named = try ImportMapping(json: Data(#"{"format": 1, "files": [{"path": "teams.csv", "targets": [{"entity": "Team", "columns": {"firstName": "FirstName"}}]}]}"#.utf8),
                                      baseDirectory: scratch.url.path)
        _ = try SeedImporter(model: model, mapping: named).run(into: scratch.path("Teams.sqlite"))
        let (context, teams) = try StoreReader.objects(scratch.path("Teams.sqlite"), "Team")
        let names = teams.map { $0.get("firstName", as: String.self) }
        withExtendedLifetime(context) {}
        #expect(names == ["b"])
    }

    /// Northwind's employees name their manager in `reportsTo`, which no rule links to `manager`: the
    /// warning once sent the user to "columns", where a relationship's key column fails.
    @Test("a column nothing takes, next to a to-one no column fills, is pointed at \"relationships\" too")
    func unmatchedColumnNamesUnlinkedRelationships() throws {
        let scratch = ImportScratch()
        try scratch.write("emps.csv", "code,name,reportsTo\nE1,Ann,\nE2,Bob,E1\n")
        let model = try ObjectModel(json: Data(ImportPipeTests.model.utf8))
        let mapping = try ImportMapping.inferred(sources: [("Emp", "emps.csv")], model: model, baseDirectory: scratch.url.path)
        #expect(mapping.warnings == ["emps.csv → Emp: no attribute takes the column \"reportsTo\" (Emp has: code, name); to read it, save the mapping with --save-mapping FILE, map it under \"columns\" (an attribute) or under \"relationships\" (a key of a related object: Emp's mgr → Emp takes no column) and import with --mapping FILE"],
                "\(mapping.warnings)")
    }
}
