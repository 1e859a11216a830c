import Foundation
import ManagedStore
import Testing

/// A user trial exported employees with `query --format csv` and imported the file back: the to-one
/// column held each manager's Z_PK, which the import read as the manager's id, so five employees got the
/// wrong manager without a word.
@Suite(.enabled(if: CLI.hasBinary, CLI.noBinary))
struct QueryCSVRelationshipCLITests {
    static let model = """
        {"entities": [{"name": "Emp", "attributes": [{"name": "id", "type": "Integer 64", "optional": false, "indexed": true},
                                                      {"name": "name", "type": "String"}],
                       "relationships": [{"name": "boss", "destination": "Emp", "inverse": "reports"},
                                         {"name": "reports", "destination": "Emp", "inverse": "boss", "toMany": true}]}]}
        """

    /// Each employee's id and their boss's id, by id.
    static func bosses(_ store: String) throws -> [[SQLValue]] {
        try PersistentStore(path: store).connection.rows("SELECT e.ZID, b.ZID FROM ZEMP e LEFT JOIN ZEMP b ON b.Z_PK = e.ZBOSS ORDER BY e.ZID")
    }

    @Test("CSV heads a to-one boss.Z_PK, which an import does not take for a key; boss.id carries the link")
    func toOneColumnsDoNotRelinkOnImport() throws {
        let directory = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
        try Data(Self.model.utf8).write(to: URL(fileURLWithPath: path("m.json")))
        // Ids run against the order rows are stored in, so Z_PK 1 is id 3.
        try Data("id,name,boss\n3,Fuller,\n1,Davolio,3\n2,Leverling,3\n".utf8).write(to: URL(fileURLWithPath: path("emps.csv")))
        let first = try CLI.run(["import", "--model", path("m.json"), "--out", path("A.sqlite"), "--progress", "none", "Emp=\(path("emps.csv"))"])
        #expect(first.status == 0, "\(first.stderr)")
        let expected: [[SQLValue]] = [[.integer(1), .integer(3)], [.integer(2), .integer(3)], [.integer(3), .null]]
        #expect(try Self.bosses(path("A.sqlite")) == expected)
        // inspect shows a relationship's optionality, which the model check compares (a check of the fixes).
        #expect(try CLI.run(["inspect", path("A.sqlite")]).stdout.contains("optional, inverse reports, delete Nullify"))

        let whole = try CLI.run(["query", path("A.sqlite"), "--entity", "Emp", "--sort", "id", "--format", "csv"])
        #expect(whole.status == 0, "\(whole.stderr)")
        #expect(whole.stdout.hasPrefix("id,name,boss.Z_PK\r\n1,Davolio,1\r\n"), "\(whole.stdout)")
        try Data(whole.stdout.utf8).write(to: URL(fileURLWithPath: path("whole.csv")))
        let back = try CLI.run(["import", "--model", path("m.json"), "--out", path("B.sqlite"), "--progress", "none", "Emp=\(path("whole.csv"))"])
        #expect(back.status == 0, "\(back.stderr)")
        #expect((back.stdout + back.stderr).contains("\"boss.Z_PK\" (the store's own row numbers, which an import cannot set: export the destination's key instead, --properties ...,boss.KEY)"),
                "the column is named as not taken, and why: \(back.stdout)")
        #expect(try Self.bosses(path("B.sqlite")) == [[.integer(1), .null], [.integer(2), .null], [.integer(3), .null]], "no wrong links")

        // Named as a property, the relationship is its Z_PK too, and headed so (a check of the fix found it bare).
        let named = try CLI.run(["query", path("A.sqlite"), "--entity", "Emp", "--sort", "id", "--format", "csv", "--properties", "id,name,boss"])
        #expect(named.status == 0, "\(named.stderr)")
        #expect(named.stdout.hasPrefix("id,name,boss.Z_PK\r\n1,Davolio,1\r\n"), "\(named.stdout)")

        // The destination's key through the relationship links back exactly.
        let keyed = try CLI.run(["query", path("A.sqlite"), "--entity", "Emp", "--sort", "id", "--format", "csv", "--properties", "id,name,boss.id"])
        #expect(keyed.status == 0, "\(keyed.stderr)")
        #expect(keyed.stdout.hasPrefix("id,name,boss.id\r\n1,Davolio,3\r\n"), "\(keyed.stdout)")
        try Data(keyed.stdout.utf8).write(to: URL(fileURLWithPath: path("keyed.csv")))
        let linked = try CLI.run(["import", "--model", path("m.json"), "--out", path("C.sqlite"), "--progress", "none", "Emp=\(path("keyed.csv"))"])
        #expect(linked.status == 0, "\(linked.stderr)")
        #expect(try Self.bosses(path("C.sqlite")) == expected)
    }

    @Test("CSV leaves out an attribute that allows external storage, so the export imports back")
    func externalStorageColumnsAreLeftOut() throws {
        let directory = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
        try Data(#"{"entities":[{"name":"Doc","attributes":[{"name":"name","type":"String"},{"name":"photo","type":"Binary","allowsExternalStorage":true},{"name":"thumb","type":"Binary"}]}]}"#.utf8)
            .write(to: URL(fileURLWithPath: path("m.json")))
        try Data("name,thumb\na,0x0102\n".utf8).write(to: URL(fileURLWithPath: path("docs.csv")))
        #expect(try CLI.run(["import", "--model", path("m.json"), "--out", path("A.sqlite"), "--progress", "none", "Doc=\(path("docs.csv"))"]).status == 0)
        let exported = try CLI.run(["query", path("A.sqlite"), "--entity", "Doc", "--format", "csv"])
        #expect(exported.stdout == "name,thumb\r\na,0x0102\r\n", "\(exported.stdout)")
        try Data(exported.stdout.utf8).write(to: URL(fileURLWithPath: path("back.csv")))
        let back = try CLI.run(["import", "--model", path("m.json"), "--out", path("B.sqlite"), "--progress", "none", "Doc=\(path("back.csv"))"])
        #expect(back.status == 0, "\(back.stderr)")
        // Table and JSON still show it.
        #expect(try CLI.run(["query", path("A.sqlite"), "--entity", "Doc", "--format", "json"]).stdout.contains("\"photo\""))
    }
}
