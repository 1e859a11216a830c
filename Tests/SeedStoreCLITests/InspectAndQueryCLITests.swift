import Foundation
import Testing

/// `seedstore inspect` and `seedstore query`, end to end through the binary.
@Suite(.enabled(if: CLI.hasBinary, CLI.noBinary))
struct InspectAndQueryCLITests {
    var books: String { CLI.real.appendingPathComponent("coredata-books/CoreDataBooks.sqlite").path }

    @Test func inspectHelpIsStable() throws {
        let result = try CLI.run(["inspect", "--help"])
        #expect(result.status == 0)
        #expect(result.stdout == """
            OVERVIEW: Print a store's entities, their properties and row counts.

            Example: seedstore inspect Wells.sqlite

            USAGE: seedstore inspect <store> [--model <model>] [--sql-debug <sql-debug>]

            ARGUMENTS:
              <store>                 The store: a .sqlite file in Core Data's layout.

            OPTIONS:
              --model <model>         A model to open the store with (.json, .xcdatamodeld
                                      or .xcdatamodel); by default the model stored in it,
                                      or one read off its tables.
              --sql-debug <sql-debug> Log SQL to stderr: 1 statements, 2 with bound values,
                                      3 with rows.
              --version               Show the version.
              -h, --help              Show help information.


            """)
    }

    @Test(.enabled(if: CLI.hasReal, CLI.skipReason))
    func inspectAppleStore() throws {
        let result = try CLI.run(["inspect", books])
        #expect(result.status == 0)
        #expect(result.stdout.contains("Book — table ZBOOK, Z_ENT 1, 12 rows"))
        #expect(result.stdout.contains("read off the tables"))
    }

    @Test(.enabled(if: CLI.hasReal, CLI.skipReason))
    func queryAsJSONWithFilterAndSort() throws {
        let result = try CLI.run(["query", books, "--entity", "Book", "--where", "author == 'P. G. Wodehouse'",
                                  "--sort", "title:desc", "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        #expect(rows.map { $0["title"] as? String } == ["The Inimitable Jeeves", "Psmith in the City"])
        #expect(rows[1]["copyright"] as? String == "1910-09-23T21:36:16Z")
    }

    @Test(.enabled(if: CLI.hasReal, CLI.skipReason))
    func queryOptions() throws {
        let count = try CLI.run(["query", books, "--entity", "Book", "--where", "title BEGINSWITH[c] 's'", "--count"])
        #expect(count.stdout == "2\n", "Strata and Stark")
        let csv = try CLI.run(["query", books, "--entity", "Book", "--properties", "author,count(title) as books",
                               "--group-by", "author", "--sort", "author", "--format", "csv"])
        #expect(csv.stdout.hasPrefix("author,books\r\nAuthor,1\r\nBen Elton,2\r\n"))
        let explained = try CLI.run(["query", books, "--entity", "Book", "--where", "author == %@", "--explain"])
        #expect(explained.status != 0, "a %@ without an argument is refused")
        let plan = try CLI.run(["query", books, "--entity", "Book", "--sort", "author", "--limit", "2", "--explain"])
        #expect(plan.stdout.contains("SQL: SELECT t0.Z_PK, t0.Z_OPT"))
        #expect(plan.stdout.contains("LIMIT 2"))
        let dashed = try CLI.run(["query", books, "--entity", "Book", "--sort=-title", "--limit", "1", "--format", "csv"])
        #expect(dashed.stdout.hasSuffix("Author,Title,test\r\n"), "a leading - works after =: \(dashed.stdout)")
        let stats = try CLI.run(["query", books, "--entity", "Book", "--faults", "--limit", "5", "--stats"])
        #expect(stats.stderr.contains("stats: 6 statement(s)"), "N+1: one for the IDs, one per fault: \(stats.stderr)")
    }

    @Test(.enabled(if: CLI.hasReal, CLI.skipReason))
    func sqlDebugLogsStatements() throws {
        let result = try CLI.run(["query", books, "--entity", "Book", "--limit", "1", "--sql-debug", "2", "--where", "title == 'Strata'"])
        #expect(result.stderr.contains("SQL: SELECT t0.Z_PK"))
        #expect(result.stderr.contains("-- bound: 'Strata'"))
        let env = try CLI.run(["query", books, "--entity", "Book", "--limit", "1"], environment: ["SEEDSTORE_SQL_DEBUG": "1"])
        #expect(env.stderr.contains("row(s) in"))
    }

    @Test func errorsAreClearAndExitNonZero() throws {
        let missing = try CLI.run(["inspect", "/nonexistent/store.sqlite"])
        #expect(missing.status != 0)
        #expect(missing.stderr.contains("no such file"))
        if CLI.hasReal {
            let entity = try CLI.run(["query", books, "--entity", "Bok"])
            #expect(entity.status != 0)
            #expect(entity.stderr.contains("did you mean 'Book'?"))
            let key = try CLI.run(["query", books, "--entity", "Book", "--where", "titel == 'x'"])
            #expect(key.stderr.contains("'titel'") && key.stderr.contains("'title'"))
            let syntax = try CLI.run(["query", books, "--entity", "Book", "--where", "title =="])
            #expect(syntax.status != 0)
            #expect(syntax.stderr.contains("offset"))
        }
    }
}
