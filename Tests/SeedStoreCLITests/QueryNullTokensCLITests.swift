import Foundation
import Testing

/// `query --format csv --null TOKEN`: the CSV an import with those null tokens reads back the same. A user
/// trial's text `-` was written bare and came back null through `import --null '' --null '-'`.
@Suite(.enabled(if: CLI.hasBinary, CLI.noBinary))
struct QueryNullTokensCLITests {
    static let model = #"{"entities": [{"name": "R", "attributes": [{"name": "id", "type": "String"}, {"name": "s", "type": "String", "optional": true}]}]}"#

    @Test("text equal to a given token is quoted, null is written as the first token, and the CSV imports back the same")
    func roundTripWithCustomTokens() throws {
        let directory = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(Self.model.utf8).write(to: directory.appendingPathComponent("m.json"))
        try Data("id,s\nc1,\"-\"\nc2,-\nc3,\"\"\nc4,x\n".utf8).write(to: directory.appendingPathComponent("c.csv"))
        let tokens = ["--null", "-"]
        let first = try CLI.run(["import", "--model", "m.json", "--out", "A.sqlite", "--progress", "none"] + tokens + ["R=c.csv"], directory: directory)
        #expect(first.status == 0, "\(first.stderr)")
        let query = ["query", "--entity", "R", "--properties", "id,s", "--sort", "id", "--format", "csv"]
        let out = try CLI.run([query[0], "A.sqlite"] + query.dropFirst() + tokens, directory: directory)
        #expect(out.status == 0, "\(out.stderr)")
        // c1's text "-" quoted, c2's null as the token, c3's empty text quoted.
        #expect(out.stdout == "id,s\r\nc1,\"-\"\r\nc2,-\r\nc3,\"\"\r\nc4,x\r\n", "\(out.stdout)")
        try Data(out.stdout.utf8).write(to: directory.appendingPathComponent("back.csv"))
        let again = try CLI.run(["import", "--model", "m.json", "--out", "B.sqlite", "--progress", "none"] + tokens + ["R=back.csv"], directory: directory)
        #expect(again.status == 0, "\(again.stderr)")
        let json = ["--entity", "R", "--properties", "id,s", "--sort", "id", "--format", "json"]
        #expect(try CLI.run(["query", "A.sqlite"] + json, directory: directory).stdout == CLI.run(["query", "B.sqlite"] + json, directory: directory).stdout)
    }

    @Test("--null goes with --format csv, and a token no import could match is refused", arguments: [
        (["--format", "json", "--null", "-"], "--null goes with --format csv"),
        (["--format", "csv", "--null", "a,b"], "could never be read as null"),
    ])
    func usage(arguments: [String], message: String) throws {
        let result = try CLI.run(["query", "x.sqlite", "--entity", "R"] + arguments)
        #expect(result.status == 64)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }
}
