import Foundation
import ManagedStore
import SeedImport
import Testing

/// A row rejected once its file has been read (a forward key that never came) takes back what it did to
/// objects that existed before it: the values it upserted, and the one-to-one partners its link or a
/// one-to-one column took from an earlier object. The store then holds what the accepted rows alone
/// would have made.
@Suite("Import: a late-rejected row takes back its updates")
struct ImportLateRejectUndoTests {
    /// Dept (code, a manager among depts, its DeptInfo) and DeptInfo (code, floor, its optional host).
    static let model = """
        {"entities":[
         {"name":"Dept","attributes":[{"name":"code","type":"String","optional":false}],
          "relationships":[{"name":"mgr","destination":"Dept","inverse":"reports"},
                           {"name":"reports","destination":"Dept","inverse":"mgr","toMany":true},
                           {"name":"info","destination":"DeptInfo","inverse":"host"}]},
         {"name":"DeptInfo","attributes":[{"name":"code","type":"String","optional":false},{"name":"floor","type":"Integer 32"}],
          "relationships":[{"name":"host","destination":"Dept","inverse":"info"}]}]}
        """

    /// depts.csv: Dept by code (`mgr` may name a dept further down) and its DeptInfo by `i_code`.
    static let mapping = """
        {"format":1,"model":"m.json","files":[{"path":"depts.csv","targets":[
          {"entity":"Dept","key":"code","relationships":{"mgr":{"column":"mgr","destinationKey":"code"}}},
          {"entity":"DeptInfo","key":"code","columns":{"code":"i_code","floor":"floor"},"link":{"relationship":"host","target":"Dept"}}]}]}
        """

    static func run(_ rows: String, in scratch: ImportScratch) throws -> (ImportSummary, rejects: [String], store: String) {
        try ImportRemovalChainTests.run(model: model, mapping: mapping, files: ["depts.csv": "code,mgr,i_code,floor\n" + rows], in: scratch)
    }

    static func lines(_ rejects: [String]) -> [String] { rejects.map { String($0.split(separator: ",")[1]) }.sorted() }

    /// The DeptInfo `code`'s floor and the code of its host (`-` for none).
    static func info(_ store: String, _ code: String) throws -> String {
        let sql = "SELECT i.ZFLOOR || ' ' || coalesce(d.ZCODE, '-') FROM ZDEPTINFO i LEFT JOIN ZDEPT d ON d.Z_PK = i.ZHOST WHERE i.ZCODE = '\(code)'"
        guard case .text(let text)? = try StoreReader.scalar(store, sql) else { return "no \(code)" }
        return text
    }

    /// The code of Dept `code`'s DeptInfo (`-` for none).
    static func infoOf(_ store: String, _ code: String) throws -> String {
        let sql = "SELECT coalesce(i.ZCODE, '-') FROM ZDEPT d LEFT JOIN ZDEPTINFO i ON i.Z_PK = d.ZINFO WHERE d.ZCODE = '\(code)'"
        guard case .text(let text)? = try StoreReader.scalar(store, sql) else { return "no \(code)" }
        return text
    }

    /// No one-to-one pair is half made, and no foreign key names a row that is gone.
    static func expectConsistent(_ store: String) throws {
        #expect(try StoreReader.scalar(store, """
            SELECT count(*) FROM ZDEPT d LEFT JOIN ZDEPTINFO i ON i.Z_PK = d.ZINFO
            WHERE d.ZINFO IS NOT NULL AND (i.Z_PK IS NULL OR i.ZHOST IS NOT d.Z_PK)
            """) == .integer(0))
        #expect(try StoreReader.scalar(store, """
            SELECT count(*) FROM ZDEPTINFO i LEFT JOIN ZDEPT d ON d.Z_PK = i.ZHOST
            WHERE i.ZHOST IS NOT NULL AND (d.Z_PK IS NULL OR d.ZINFO IS NOT i.Z_PK)
            """) == .integer(0))
    }

    /// K2's row upserts k101 (floor 7) and links it to K2, taking it from K1; its manager K9 never comes.
    @Test("the values a rejected row upserted, and the partner its link took, return to the earlier row's")
    func upsertAndLinkTakenBack() throws {
        let scratch = ImportScratch()
        let (summary, rejects, store) = try Self.run("K1,,k101,3\nK2,K9,k101,7\n", in: scratch)
        #expect(Self.lines(rejects) == ["3"], "\(rejects)")
        #expect(try Self.info(store, "k101") == "3 K1")
        #expect(try Self.infoOf(store, "K1") == "k101")
        #expect(try StoreReader.scalar(store, "SELECT group_concat(ZCODE) FROM ZDEPT") == .text("K1"))
        try Self.expectConsistent(store)
        // The rejected row's update is not counted, nor its repeat of k101.
        #expect(summary.objects["DeptInfo"]?.updated == 0)
        #expect(summary.duplicateCount == 0)
        #expect(summary.files[0].rowsImported == 1)
    }

    /// A later row that stands wrote the object after the rejected one: its values are the ones kept.
    @Test("a later row that stands keeps what it wrote; the one-to-one it took stays taken")
    func laterWriterStands() throws {
        let scratch = ImportScratch()
        let (_, rejects, store) = try Self.run("K1,,k101,3\nK2,K9,k101,7\nK3,,k101,5\n", in: scratch)
        #expect(Self.lines(rejects) == ["3"], "\(rejects)")
        #expect(try Self.info(store, "k101") == "5 K3")
        #expect(try Self.infoOf(store, "K1") == "-")
        try Self.expectConsistent(store)
    }

    /// Two rejected rows in turn: the object returns to the state before the first of them.
    @Test("several rejected rows in a row: the object returns to the last row that stands")
    func chainOfRejectedWriters() throws {
        let scratch = ImportScratch()
        let (summary, rejects, store) = try Self.run("K1,,k101,3\nK2,K9,k101,7\nK3,K8,k101,5\nK4,,k102,1\n", in: scratch)
        #expect(Self.lines(rejects) == ["3", "4"], "\(rejects)")
        #expect(try Self.info(store, "k101") == "3 K1")
        #expect(try Self.info(store, "k102") == "1 K4")
        #expect(try Self.infoOf(store, "K1") == "k101")
        try Self.expectConsistent(store)
        #expect(summary.objects["DeptInfo"]?.updated == 0)
    }

    /// An accepted row between two rejected ones: the object returns to what that row wrote.
    @Test("a rejected row after one that stands returns the object to that row's values")
    func rejectedAfterAccepted() throws {
        let scratch = ImportScratch()
        let (_, rejects, store) = try Self.run("K1,,k101,3\nK2,K9,k101,7\nK3,,k101,5\nK4,K8,k101,6\n", in: scratch)
        #expect(Self.lines(rejects) == ["3", "5"], "\(rejects)")
        #expect(try Self.info(store, "k101") == "5 K3")
        #expect(try Self.infoOf(store, "K1") == "-")
        #expect(try StoreReader.scalar(store, "SELECT group_concat(ZCODE) FROM (SELECT ZCODE FROM ZDEPT ORDER BY 1)") == .text("K1,K3"))
        try Self.expectConsistent(store)
    }

    /// A row that names its manager further down and whose manager comes is not taken back, whatever it
    /// took: only rejected rows are.
    @Test("an accepted row with a forward key keeps its update and its link")
    func acceptedForwardRowKeepsItsChanges() throws {
        let scratch = ImportScratch()
        let (_, rejects, store) = try Self.run("K1,,k101,3\nK2,K5,k101,7\nK5,,k105,1\n", in: scratch)
        #expect(rejects.isEmpty, "\(rejects)")
        #expect(try Self.info(store, "k101") == "7 K2")
        #expect(try Self.infoOf(store, "K1") == "-")
        #expect(try StoreReader.scalar(store, "SELECT m.ZCODE FROM ZDEPT d JOIN ZDEPT m ON m.Z_PK = d.ZMGR WHERE d.ZCODE = 'K2'") == .text("K5"))
        try Self.expectConsistent(store)
    }

    /// With a batch size of 1 every row is saved before the next: the history survives the saves.
    @Test("the undo holds across batch saves", arguments: [1, 2, 10_000])
    func acrossSaves(batchSize: Int) throws {
        let scratch = ImportScratch()
        try scratch.write("m.json", Self.model)
        try scratch.write("depts.csv", "code,mgr,i_code,floor\nK1,,k101,3\nK2,K9,k101,7\nK7,,k107,2\nK3,K8,k107,4\n")
        let mapping = try ImportMapping(json: Data(Self.mapping.utf8), baseDirectory: scratch.url.path)
        _ = try SeedImporter(model: try mapping.loadModel(), mapping: mapping, options: scratch.skipping(batchSize: batchSize)).run(into: scratch.path("s.sqlite"))
        let store = scratch.path("s.sqlite")
        #expect(try Self.info(store, "k101") == "3 K1")
        #expect(try Self.info(store, "k107") == "2 K7")
        try Self.expectConsistent(store)
    }

    /// Badge (an earlier file) and Emp, one-to-one through Emp.badge (delete rule `badgeRule`).
    static func badgeModel(badgeRule: String = "Nullify") -> String {
        """
        {"entities":[
         {"name":"Badge","attributes":[{"name":"code","type":"String","optional":false}],
          "relationships":[{"name":"holder","destination":"Emp","inverse":"badge"}]},
         {"name":"Emp","attributes":[{"name":"code","type":"String","optional":false}],
          "relationships":[{"name":"badge","destination":"Badge","inverse":"holder","deleteRule":"\(badgeRule)"},
                           {"name":"mgr","destination":"Emp","inverse":"reports"},
                           {"name":"reports","destination":"Emp","inverse":"mgr","toMany":true}]}]}
        """
    }

    static let badgeMapping = """
        {"format":1,"model":"m.json","files":[
          {"path":"badges.csv","targets":[{"entity":"Badge","key":"code"}]},
          {"path":"emps.csv","targets":[{"entity":"Emp","key":"code","relationships":{
            "badge":{"column":"badge","destinationKey":"code"},"mgr":{"column":"mgr","destinationKey":"code"}}}]}]}
        """

    /// Emp.badge is one-to-one with Badge (an earlier file). E2's row takes B1 from E1 and names a
    /// manager that never comes: once it is rejected, B1 is E1's again.
    @Test("a one-to-one destination a rejected row took returns to its earlier holder")
    func oneToOneColumnTakenBack() throws {
        let scratch = ImportScratch()
        let (_, rejects, store) = try ImportRemovalChainTests.run(
            model: Self.badgeModel(), mapping: Self.badgeMapping,
            files: ["badges.csv": "code\nB1\n", "emps.csv": "code,mgr,badge\nE1,,B1\nE2,E9,B1\n"], in: scratch)
        #expect(Self.lines(rejects) == ["3"], "\(rejects)")
        #expect(try StoreReader.scalar(store, "SELECT e.ZCODE FROM ZBADGE b JOIN ZEMP e ON e.Z_PK = b.ZHOLDER") == .text("E1"))
        #expect(try StoreReader.scalar(store, "SELECT b.ZCODE FROM ZEMP e JOIN ZBADGE b ON b.Z_PK = e.ZBADGE WHERE e.ZCODE = 'E1'") == .text("B1"))
        #expect(try StoreReader.scalar(store, "SELECT count(*) FROM ZEMP") == .integer(1))
    }

    /// E1's later row (which stands) clears its badge: B1 is not given back to E1, and the rejected E2 lets
    /// go of it before it goes, so a Cascade rule on Emp.badge does not take B1 (fuzzer cases 48150, 51924).
    @Test("a partner that a later row that stands let go of is not given back, nor taken by the rejected row's delete rule",
          arguments: ["Nullify", "Cascade"])
    func partnerLetGoByLaterRowStaysFree(badgeRule: String) throws {
        let scratch = ImportScratch()
        let (_, rejects, store) = try ImportRemovalChainTests.run(
            model: Self.badgeModel(badgeRule: badgeRule), mapping: Self.badgeMapping,
            files: ["badges.csv": "code\nB1\n", "emps.csv": "code,mgr,badge\nE1,,B1\nE2,E9,B1\nE1,,\n"], in: scratch)
        #expect(rejects.map { String($0.split(separator: ",")[0]) + ":" + $0.split(separator: ",")[1] } == ["emps.csv:3"], "\(rejects)")
        #expect(try StoreReader.scalar(store, "SELECT count(*) FROM ZBADGE WHERE ZCODE = 'B1' AND ZHOLDER IS NULL") == .integer(1))
        #expect(try StoreReader.scalar(store, "SELECT count(*) FROM ZEMP WHERE ZCODE = 'E1' AND ZBADGE IS NULL") == .integer(1))
        #expect(try StoreReader.scalar(store, "SELECT count(*) FROM ZEMP") == .integer(1))
    }

    /// Rows without forward keys keep their writes only within a memory budget. 035's row (rejected
    /// because its manager K8 never comes) took K101 from K3; with a budget of one byte, K3's own upsert
    /// (the first write kept) used it up, so the first run cannot give K101 back before 035 goes, and
    /// Cascade takes K101 and K3's rows with it. Those rows hold nothing wrong: the import runs again
    /// without the rows rejected for themselves, and the store is the same whatever the budget.
    @Test("past the budget of kept writes the store is the same: rows a Cascade took along are decided again",
          arguments: [1, 16 << 20])
    func chainWriteBudget(limit: Int) throws {
        let scratch = ImportScratch()
        let model = ImportFuzzCaseTests.deptModel(infoRule: "Cascade", hostRule: "Cascade", hostRequired: false)
        try scratch.write("m.json", model)
        try scratch.write("depts.csv", "code,mgr,i_code\nK3,,K101\nK8,NOPE1,K122\nK3,,K101\n035,K8,K101\n")
        let mapping = try ImportMapping(json: Data((#"{"format":1,"model":"m.json","files":["# + ImportFuzzCaseTests.deptsFile + "]}").utf8),
                                        baseDirectory: scratch.url.path)
        var options = scratch.skipping()
        options.chainWriteBytes = limit
        _ = try SeedImporter(model: try mapping.loadModel(), mapping: mapping, options: options).run(into: scratch.path("s.sqlite"))
        let store = scratch.path("s.sqlite")
        #expect(try StoreReader.scalar(store, "SELECT i.ZCODE FROM ZDEPT d JOIN ZDEPTINFO i ON i.Z_PK = d.ZINFO AND i.ZHOST = d.Z_PK WHERE d.ZCODE = 'K3'") == .text("K101"))
        #expect(Self.lines(scratch.rejects.split(separator: "\n").dropFirst().map(String.init)) == ["3", "5"])
    }

    /// K5's row (rejected: its manager never comes) upserts K104's floor. Dept.info is required, so its
    /// link leaves K4 holding K104 too; K4's later row links K4 to k108 and so touches K104 without
    /// changing it. That touch is no write of the floor: the floor still returns to 3 (fuzzer case 64593).
    @Test("a later row that touches an object without setting a column does not keep a rejected row's value")
    func untouchedColumnIsTakenBack() throws {
        let scratch = ImportScratch()
        let model = Self.model.replacingOccurrences(of: #"{"name":"info","destination":"DeptInfo","inverse":"host"}"#,
                                                    with: #"{"name":"info","destination":"DeptInfo","inverse":"host","optional":false}"#)
        #expect(model != Self.model)
        let (_, rejects, store) = try ImportRemovalChainTests.run(
            model: model, mapping: Self.mapping,
            files: ["depts.csv": "code,mgr,i_code,floor\nK4,K1,K104,3\nK5,NOPE3,K104,7\nK4,K4,k108,1\n"], in: scratch)
        #expect(Self.lines(rejects) == ["3"], "\(rejects)")
        #expect(try StoreReader.scalar(store, "SELECT ZFLOOR FROM ZDEPTINFO WHERE ZCODE = 'K104'") == .integer(3))
        #expect(try Self.info(store, "k108") == "1 K4")
    }
}
