import Foundation
import ManagedStore
import Testing

/// A user trial: a JSONValueTransformer attribute came out of `query` as Base64 (table, JSON) or hex
/// (CSV) of its stored bytes, so `query --format csv` did not import back. It now shows the JSON value,
/// and CSV writes the JSON text the importer reads. Table cells show binary as CSV does, and control
/// characters as their pictures.
@Suite(.enabled(if: CLI.hasBinary, CLI.noBinary))
final class QueryTransformableCLITests {
    let directory = CLI.temporaryDirectory()
    let model: String
    let store: String

    deinit { try? FileManager.default.removeItem(at: directory) }

    init() throws {
        model = directory.appendingPathComponent("v.model.json").path
        try Data("""
            {"entities":[{"name":"V","attributes":[{"name":"k","type":"String"},
              {"name":"t","type":"Transformable","transformer":"JSONValueTransformer"},{"name":"b","type":"Binary"}]}]}
            """.utf8).write(to: URL(fileURLWithPath: model))
        let csv = directory.appendingPathComponent("v.csv")
        try Data("k,t,b\na,\"[\"\"classic\"\",\"\"novel\"\"]\",0x01\nb,\"{\"\"x\"\": 1, \"\"a\"\": [true, null]}\",\nc,,0x\nd,\"\"\"NULL\"\"\",\ne,3.5,\n\"f\tg\rh\",1,\n\"i\u{2028}j\u{85}k\",2,\n".utf8)
            .write(to: csv)
        store = directory.appendingPathComponent("V.sqlite").path
        let imported = try CLI.run(["import", "--model", model, "--out", store, "--progress", "none", "V=\(csv.path)"])
        guard imported.status == 0 else { throw CLIError(message: imported.stderr) }
    }

    struct CLIError: Error { let message: String }

    func stored(_ path: String) throws -> [[SQLValue]] {
        try PersistentStore(path: path).connection.rows("SELECT ZK, hex(ZT), typeof(ZT), hex(ZB), typeof(ZB) FROM ZV ORDER BY ZK")
    }

    @Test func csvImportsBackTheSameBytes() throws {
        let query = try CLI.run(["query", store, "--entity", "V", "--sort", "k", "--format", "csv"])
        #expect(query.status == 0, "\(query.stderr)")
        #expect(query.stdout.components(separatedBy: "\r\n").prefix(3) == [
            "k,t,b", #"a,"[""classic"",""novel""]",0x01"#, #"b,"{""a"":[true,null],""x"":1}","#,
        ])
        let file = directory.appendingPathComponent("out.csv")
        try Data(query.stdout.utf8).write(to: file)
        let copy = directory.appendingPathComponent("Copy.sqlite").path
        let imported = try CLI.run(["import", "--model", model, "--out", copy, "--progress", "none", "V=\(file.path)"])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(try stored(copy) == stored(store))
        #expect(try stored(store).count == 7)
    }

    /// A user trial: a URL in a JSON value was stored as http:\/\/x, which the table and CSV then showed.
    @Test func slashesAreStoredAsWritten() throws {
        let csv = directory.appendingPathComponent("u.csv"), copy = directory.appendingPathComponent("U.sqlite").path
        try Data("k,t,b\nu,\"[\"\"http://x/y\"\"]\",\n".utf8).write(to: csv)
        #expect(try CLI.run(["import", "--model", model, "--out", copy, "--progress", "none", "V=\(csv.path)"]).status == 0)
        let stored = try PersistentStore(path: copy).connection.rows("SELECT CAST(ZT AS TEXT) FROM ZV").first?.first
        #expect(stored == .text(#"["http://x/y"]"#))
        let table = try CLI.run(["query", copy, "--entity", "V"])
        #expect(table.stdout.contains(#"["http://x/y"]"#), "\(table.stdout)")
    }

    @Test func jsonEmbedsTheValueAndTableShowsItsText() throws {
        let json = try CLI.run(["query", store, "--entity", "V", "--sort", "k", "--format", "json"])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(rows[0]["t"] as? [String] == ["classic", "novel"])
        #expect((rows[1]["t"] as? [String: Any])?["x"] as? Int == 1)
        #expect(rows[2]["t"] is NSNull)
        #expect(rows[3]["t"] as? String == "NULL")
        #expect(rows[4]["t"] as? Double == 3.5)
        let picked = try CLI.run(["query", store, "--entity", "V", "--properties", "k,t", "--where", "k == 'a'", "--format", "json"])
        #expect(picked.stdout.contains(#""t" : ["#), "dictionary results too: \(picked.stdout)")

        let table = try CLI.run(["query", store, "--entity", "V", "--sort", "k"])
        let lines = table.stdout.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") }
        #expect(Array(lines.dropFirst(2).prefix(7)) == [
            #"1 a ["classic","novel"] 0x01"#, #"2 b {"a":[true,null],"x":1} NULL"#, "3 c NULL 0x", #"4 d """NULL""" NULL"#,
            "5 e 3.5 NULL", "6 f␉g␍h 1 NULL", "7 i⏎j⏎k 2 NULL",
        ], "\(table.stdout)")
    }
}
