import Foundation
import ManagedStore
import PropertyBased
import SeedImport
import Testing

/// Relationship keys that name a row further down the same file (an employee listed before the
/// manager): set once the file has been read; keys that no row makes are rejected with their line.
@Suite("Import: forward references within one file")
struct ImportForwardReferenceTests {
    static let model = try! ObjectModel(json: Data("""
        {"entities": [
          {"name": "Employee",
           "attributes": [
             {"name": "code", "type": "String", "optional": false, "indexed": true},
             {"name": "name", "type": "String", "optional": false}
           ],
           "relationships": [
             {"name": "manager", "destination": "Employee", "inverse": "reports", "deleteRule": "Nullify"},
             {"name": "reports", "destination": "Employee", "inverse": "manager", "toMany": true, "deleteRule": "Nullify"}
           ]},
          {"name": "Step",
           "attributes": [{"name": "code", "type": "String", "optional": false}],
           "relationships": [
             {"name": "previous", "destination": "Step", "inverse": "next", "optional": false, "deleteRule": "Nullify"},
             {"name": "next", "destination": "Step", "inverse": "previous", "toMany": true, "deleteRule": "Nullify"}
           ]}
        ]}
        """.utf8))

    static let employeesMapping = """
        {"format": 1, "files": [{"path": "employees.csv", "targets": [
          {"entity": "Employee", "key": "code", "relationships": {"manager": {"column": "manager", "destinationKey": "code"}}}
        ]}]}
        """

    static func run(_ csv: String, options: ImportOptions = ImportOptions(), mapping: String = employeesMapping,
                    in scratch: ImportScratch) throws -> ImportSummary {
        try scratch.write("employees.csv", csv)
        let mapping = try ImportMapping(json: Data(mapping.utf8), baseDirectory: scratch.url.path)
        return try SeedImporter(model: model, mapping: mapping, options: options).run(into: scratch.path("Staff.sqlite"))
    }

    /// Employee code → manager code ("" for none), read back with SQL.
    static func managers(_ scratch: ImportScratch) throws -> [String: String] {
        let (context, employees) = try StoreReader.objects(scratch.path("Staff.sqlite"), "Employee")
        defer { withExtendedLifetime(context) {} }
        var result: [String: String] = [:]
        for employee in employees {
            guard case .string(let code) = employee["code"] else { continue }
            let manager = try employee.object(forKey: "manager")
            if case .string(let boss)? = manager?["code"] { result[code] = boss } else { result[code] = "" }
        }
        return result
    }

    @Test("managers listed after their reports are linked, across batches", arguments: [true, false])
    func forwardAcrossBatches(readsAhead: Bool) throws {
        let scratch = ImportScratch()
        // E1 reports to E40 (the last row); each Ek (k > 1) reports to E(k+1) further down; E40 to itself.
        var csv = "code,name,manager\nE1,First,E40\n"
        for k in 2...39 { csv += "E\(k),Person \(k),E\(k + 1)\n" }
        csv += "E40,Boss,E40\n"
        var options = ImportOptions()
        options.batchSize = 7
        options.readsAhead = readsAhead
        let summary = try Self.run(csv, options: options, in: scratch)
        #expect(summary.rejects == 0)
        #expect(summary.objects["Employee"]?.stored == 40)
        let managers = try Self.managers(scratch)
        #expect(managers["E1"] == "E40")
        #expect(managers["E2"] == "E3")
        #expect(managers["E39"] == "E40")
        #expect(managers["E40"] == "E40", "a row may name itself")
        #expect(managers.count == 40)
        let linked = try StoreReader.scalar(scratch.path("Staff.sqlite"), "SELECT count(*) FROM ZEMPLOYEE WHERE ZMANAGER IS NOT NULL")
        #expect(linked == .integer(40))
    }

    @Test("property: any hierarchy, rows in any order, any batch size, with or without read-ahead, links exactly",
          arguments: 1...24)
    func anyOrder(seed: Int) throws {
        var random = Xoshiro(seed: (UInt64(seed), 0x9E37_79B9, 42, 7))  // the same cases every run
        let count = Int.random(in: 1...60, using: &random)
        // Each employee's manager: none, itself, or any other employee (earlier or later in the file).
        var managers: [String: String] = [:]
        for k in 0..<count {
            let roll = Int.random(in: 0..<10, using: &random)
            managers["E\(k)"] = roll == 0 ? "" : roll == 1 ? "E\(k)" : "E\(Int.random(in: 0..<count, using: &random))"
        }
        var csv = "code,name,manager\n"
        for code in managers.keys.sorted().shuffled(using: &random) { csv += "\(code),Name \(code),\(managers[code]!)\n" }
        var options = ImportOptions()
        options.batchSize = Int.random(in: 1...7, using: &random)
        options.readsAhead = Bool.random(using: &random)
        let scratch = ImportScratch()
        let summary = try Self.run(csv, options: options, in: scratch)
        #expect(summary.rejects == 0)
        #expect(try Self.managers(scratch) == managers, "seed \(seed), batch size \(options.batchSize)")
    }

    @Test("backward and forward references mix; empty keys stay empty")
    func mixed() throws {
        let scratch = ImportScratch()
        let summary = try Self.run("""
            code,name,manager
            A,Ann,C
            B,Bob,A
            C,Cyd,
            D,Dee,C
            """, in: scratch)
        #expect(summary.rejects == 0)
        #expect(try Self.managers(scratch) == ["A": "C", "B": "A", "C": "", "D": "C"])
    }

    @Test("a key no row makes: skip rejects the row with its line, removes its object, and rows naming it follow")
    func unresolvedSkipped() throws {
        let scratch = ImportScratch()
        let summary = try Self.run("""
            code,name,manager
            A,Ann,B
            B,Bob,ZZ
            C,Cyd,
            D,Dee,E
            E,Eve,C
            """, options: scratch.skipping(batchSize: 2), in: scratch)
        // B names ZZ, which no row makes; A names B, which is then gone too.
        #expect(summary.rejects == 2)
        #expect(summary.objects["Employee"]?.stored == 3)
        #expect(try Self.managers(scratch) == ["C": "", "D": "E", "E": "C"])
        let rejects = scratch.rejects
        #expect(rejects.contains("employees.csv,3,"), "B is on line 3")
        #expect(rejects.contains("employees.csv,2,"), "A is on line 2")
        #expect(rejects.contains("no Employee has code \"\"ZZ\"\" in this file or an earlier one"))
        #expect(rejects.contains("B,Bob,ZZ"), "the raw text of the row")
    }

    @Test("a key no row makes aborts with file, line, entity and attribute, and writes no store")
    func unresolvedAborts() throws {
        let scratch = ImportScratch()
        do {
            _ = try Self.run("code,name,manager\nA,Ann,B\nB,Bob,\nC,Cyd,QQ\n", in: scratch)
            Issue.record("the import should stop")
        } catch let error as ImportError {
            #expect(error.line == 4)
            #expect(error.entity == "Employee")
            #expect(error.attribute == "manager")
            #expect(error.value == "QQ")
            #expect("\(error)".contains("employees.csv"))
        }
        #expect(!FileManager.default.fileExists(atPath: scratch.path("Staff.sqlite")))
    }

    @Test("a later row with the same key sets the relationship itself: the earlier forward reference is void")
    func upsertReplacesForwardReference() throws {
        let scratch = ImportScratch()
        let summary = try Self.run("""
            code,name,manager
            A,Ann,D
            B,Bob,
            A,Ann again,B
            D,Dee,
            """, in: scratch)
        #expect(summary.rejects == 0)
        #expect(try Self.managers(scratch) == ["A": "B", "B": "", "D": ""])
    }

    @Test("a required relationship cannot wait for a later row: the reason says so")
    func requiredCannotWait() throws {
        let scratch = ImportScratch()
        let options = scratch.skipping()
        // A required self-reference can only name an earlier row; here each names a later one.
        let summary = try Self.run("code,previous\nS1,S2\nS2,S1\n", options: options, mapping: """
            {"format": 1, "files": [{"path": "employees.csv", "targets": [
              {"entity": "Step", "key": "code", "relationships": {"previous": {"column": "previous", "destinationKey": "code"}}}
            ]}]}
            """, in: scratch)
        #expect(summary.rejects == 2)
        #expect(summary.objects["Step"]?.stored == 0)
        let rejects = scratch.rejects
        #expect(rejects.contains("employees.csv,2,"))
        #expect(rejects.contains("previous is required, so the row it names must come first"))
        // A user trial: S2's row named S1, whose row came first and was set aside; "must come first"
        // sent them to reorder a file whose order was right.
        #expect(rejects.contains(#"employees.csv,3,2,Step,previous,S1,"previous: no Step has code ""S1"" but in rows set aside""#), "\(rejects)")
    }

    /// A user trial: `E1,a,NOPE` then `E1,b,` imported without a word, where `E1,a,NOPE` alone stops the import.
    @Test("a forward key that names nothing, voided by a later row with the same key, gets a warning in either mode", arguments: [ErrorPolicy.abort, .skip])
    func voidedMissingKeyWarns(onError: ErrorPolicy) throws {
        let scratch = ImportScratch()
        var options = onError == .skip ? scratch.skipping() : ImportOptions()
        options.batchSize = 2
        let summary = try Self.run("code,name,manager\nS1,a,NOPE\nS2,b,S3\nS3,c,\nS1,a2,\nS4,d,NOPE2\nS4,d2,S1\n", options: options, in: scratch)
        #expect(summary.rejects == 0)
        #expect(summary.warnings.contains(#"employees.csv: 2 rows named a key no row makes (line 2: manager "NOPE", …), but later rows with the same keys set those relationships again, so they stood rather than being rejected: check those keys"#),
                "\(summary.warnings)")
        // A forward key that came, voided the same way, is no cause for a warning.
        let clean = try Self.run("code,name,manager\nS1,a,S3\nS3,c,\nS1,a2,\n", options: options, in: ImportScratch())
        #expect(!clean.warnings.contains { $0.contains("named a key no row makes") }, "\(clean.warnings)")
    }

    /// A user trial: a row naming a key whose row was set aside for a bad value was told to reorder the file
    /// ("must come first") when an earlier reject had already been looked up, and an updating row was told
    /// forward references are for new objects only.
    @Test("rows naming a key only a row set aside for a bad value made are told so, updating rows and required relationships too")
    func setAsideForBadValue() throws {
        let scratch = ImportScratch()
        // E2's name is missing (a required attribute): set aside as read. E3's second row updates E3.
        _ = try Self.run("code,name,manager\nE1,a,\nE2,,\nE3,c,E1\nE3,c2,E2\nE4,d,E2\n", options: scratch.skipping(), in: scratch)
        for line in [5, 6] {
            #expect(scratch.rejects.contains(#"employees.csv,\#(line),3,Employee,manager,E2,"manager: no Employee has code ""E2"" but in rows set aside""#),
                    "line \(line): \(scratch.rejects)")
        }
        // Required: S2 names S5, which never comes (set aside, and looked up first); S3's row is ragged.
        let steps = ImportScratch()
        _ = try Self.run("code,previous\nS2,S5\nS3\nS1,S3\n", options: steps.skipping(), mapping: """
            {"format": 1, "files": [{"path": "employees.csv", "targets": [
              {"entity": "Step", "key": "code", "relationships": {"previous": {"column": "previous", "destinationKey": "code"}}}
            ]}]}
            """, in: steps)
        #expect(steps.rejects.contains(#"employees.csv,4,2,Step,previous,S3,"previous: no Step has code ""S3"" but in rows set aside""#), "\(steps.rejects)")
    }

    /// A user trial: a join row naming a book whose row was set aside was told only that no book has the key.
    @Test("a join row naming a key only a row set aside made is told so; a key no row made is not", arguments: [1, 10_000])
    func joinRowNamingSetAsideKey(batchSize: Int) throws {
        let scratch = ImportScratch()
        try scratch.write("m.json", """
            {"entities":[{"name":"Book","attributes":[{"name":"code","type":"String"},{"name":"pages","type":"Integer32","optional":true}],
              "relationships":[{"name":"tags","destination":"Tag","toMany":true,"inverse":"books","optional":true}]},
             {"name":"Tag","attributes":[{"name":"name","type":"String"}],
              "relationships":[{"name":"books","destination":"Book","toMany":true,"inverse":"tags","optional":true}]}]}
            """)
        try scratch.write("books.csv", "code,pages\nB1,10\nB2,xx\nB3,30\n")
        try scratch.write("tags.csv", "name\nfun\nsad\n")
        try scratch.write("book_tags.csv", "book,tag\nB1,fun\nB2,fun\nB3,sad\nB9,sad\n")
        let mapping = try ImportMapping(json: Data("""
            {"format":1,"model":"m.json","files":[
             {"path":"books.csv","targets":[{"entity":"Book","key":"code"}]},
             {"path":"tags.csv","targets":[{"entity":"Tag","key":"name"}]},
             {"path":"book_tags.csv","join":{"entity":"Book","relationship":"tags","sourceColumn":"book","sourceKey":"code",
              "destinationColumn":"tag","destinationKey":"name"}}]}
            """.utf8), baseDirectory: scratch.url.path)
        let summary = try SeedImporter(model: try mapping.loadModel(), mapping: mapping, options: scratch.skipping(batchSize: batchSize))
            .run(into: scratch.path("s.sqlite"))
        #expect(summary.rejects == 3)
        let rejects = scratch.rejects
        #expect(rejects.contains(#"book_tags.csv,3,1,Book,code,B2,"book: no Book has code ""B2"" but in rows set aside""#), "\(rejects)")
        #expect(rejects.contains(#"book_tags.csv,5,1,Book,code,B9,"book: no Book has code ""B9""","#), "\(rejects)")
    }

    @Test("a required relationship naming its own row's key says so, and the rows naming that key are told it was set aside")
    func requiredSelfReference() throws {
        let scratch = ImportScratch()
        let summary = try Self.run("code,previous\nR,R\nA,R\n", options: scratch.skipping(), mapping: """
            {"format": 1, "files": [{"path": "employees.csv", "targets": [
              {"entity": "Step", "key": "code", "relationships": {"previous": {"column": "previous", "destinationKey": "code"}}}
            ]}]}
            """, in: scratch)
        #expect(summary.rejects == 2)
        let rejects = scratch.rejects
        #expect(rejects.contains(#"employees.csv,2,2,Step,previous,R,"previous: ""R"" is this row's own Step, which a required relationship cannot name (its object is made with the row): name another row's key, or make the relationship optional""#), "\(rejects)")
        #expect(rejects.contains(#"employees.csv,3,2,Step,previous,R,"previous: no Step has code ""R"" but in rows set aside""#), "\(rejects)")
    }
}

/// A row rejected for one relationship after naming a forward key in another.
@Suite("Import: a rejected row's forward keys")
struct ImportRejectedForwardKeyTests {
    /// A fuzzer found C's forward key X outliving C's reject and blamed, when the file ended, on the next
    /// row: A, valid, was rejected ("no Tag has code X") and removed.
    @Test("go with the row: the next row is not blamed for them", arguments: [1, 10_000])
    func forwardKeysGoWithTheRow(batchSize: Int) throws {
        let scratch = ImportScratch()
        try scratch.write("m.json", """
            {"entities":[
             {"name":"Shelf","attributes":[{"name":"code","type":"String","optional":false}],
              "relationships":[{"name":"tags","destination":"Tag","inverse":"shelf","toMany":true}]},
             {"name":"Tag","attributes":[{"name":"code","type":"String","optional":false},{"name":"n","type":"Integer 32"}],
              "relationships":[{"name":"mgr","destination":"Tag","inverse":"reports"},
                               {"name":"reports","destination":"Tag","inverse":"mgr","toMany":true},
                               {"name":"shelf","destination":"Shelf","inverse":"tags"}]}]}
            """)
        try scratch.write("shelves.csv", "code\nS1\n")
        // C names X (forward: never comes) and then a shelf that does not exist: C is rejected for its shelf.
        try scratch.write("tags.csv", "code,mgr,shelf,n\nA,,,1\nC,X,NOPE,2\nA,,,3\nB,A,S1,4\n")
        let mapping = try ImportMapping(json: Data("""
            {"format":1,"model":"m.json","files":[
             {"path":"shelves.csv","targets":[{"entity":"Shelf","key":"code"}]},
             {"path":"tags.csv","targets":[{"entity":"Tag","key":"code","relationships":{
               "mgr":{"column":"mgr","destinationKey":"code"},"shelf":{"column":"shelf","destinationKey":"code"}}}]}]}
            """.utf8), baseDirectory: scratch.url.path)
        var options = scratch.skipping(batchSize: batchSize)
        options.readsAhead = false
        let summary = try SeedImporter(model: try mapping.loadModel(), mapping: mapping, options: options).run(into: scratch.path("s.sqlite"))
        #expect(summary.rejects == 1)
        let rejects = try String(contentsOfFile: scratch.path("rejects.csv"), encoding: .utf8)
        #expect(rejects.contains("tags.csv,3,3,Tag,shelf,NOPE,") && !rejects.contains("no Tag has code"), "\(rejects)")
        let store = scratch.path("s.sqlite")
        #expect(try StoreReader.scalar(store, "SELECT group_concat(ZCODE || ':' || ZN, ' ') FROM (SELECT ZCODE, ZN FROM ZTAG ORDER BY ZCODE)") == .text("A:3 B:4"))
    }
}
