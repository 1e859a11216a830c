import Foundation
import ManagedStore
import Testing

/// `seedstore inspect` and `seedstore query`, end to end through the binary.
@Suite(.enabled(if: CLI.hasBinary, CLI.noBinary))
struct InspectAndQueryCLITests {
    var books: String { CLI.real.appendingPathComponent("coredata-books/CoreDataBooks.sqlite").path }

    @Test func inspectHelpIsStable() throws {
        let result = try CLI.run(["inspect", "--help"])
        #expect(result.status == 0)
        #expect(result.stdout == """
            OVERVIEW: Print a store's entities, their properties, row counts and indexes.

            Also what a seed store's finish leaves: the journal mode, whether ANALYZE's
            statistics are there, and each table's indexes with their columns.

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
        #expect(result.stdout.contains("statistics: none (the query planner guesses; run ANALYZE)"), "\(result.stdout)")
        #expect(result.stdout.contains("Type: SQLite, UUID: 7586DF36-6B0E-45D3-9862-19C40A480696"), "the Z_UUID column, which Core Data's plist left out")
        #expect(result.stdout.contains("indexes: "), "\(result.stdout)")
        #expect(!result.stdout.contains("note: no index"), "Core Data's own store has what its model asks for: \(result.stdout)")
    }

    /// A trial (helper-69): a store missing an index the model marks indexed looked like any other.
    @Test("inspect names an index the model asks for that the store lacks, with the statement that adds it")
    func inspectNamesMissingIndexes() throws {
        let dir = try BenchArgumentsCLITests.stores()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = dir.appendingPathComponent("W.sqlite").path
        let whole = try CLI.run(["inspect", store])
        #expect(whole.status == 0 && !whole.stdout.contains("note: no index"), "\(whole.stdout)")
        try Connection(path: store).execute("DROP INDEX ZWELL_ZUWI_INDEX")
        let result = try CLI.run(["inspect", store])
        #expect(result.status == 0)
        #expect(result.stdout.contains("note: no index leads with ZUWI (Well.uwi, marked indexed), which the model asks for"), "\(result.stdout)")
        #expect(result.stdout.contains("CREATE INDEX ZWELL_ZUWI_INDEX ON ZWELL (ZUWI)"), "\(result.stdout)")

        // A trial (helper-70): a partial index, or one in another collation, serves no such fetch, yet hid the note.
        for index in ["CREATE INDEX part ON ZWELL (ZUWI) WHERE ZUWI > 'M'", "CREATE INDEX nocase ON ZWELL (ZUWI COLLATE NOCASE)"] {
            try Connection(path: store).execute(index)
        }
        let others = try CLI.run(["inspect", store])
        #expect(others.stdout.contains("note: no index leads with ZUWI (Well.uwi, marked indexed)"), "\(others.stdout)")
        #expect(others.stdout.contains("nocase (ZUWI COLLATE NOCASE)") && others.stdout.contains("part (ZUWI) partial (WHERE …)"), "\(others.stdout)")
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
        let comma = try CLI.run(["query", books, "--entity", "Book", "--sort", ",title"])
        #expect(comma.status != 0 && comma.stderr.contains("--sort ',title' has an empty item between commas"), "\(comma.stderr)")
        let variable = try CLI.run(["query", books, "--entity", "Book", "--where", "author == $WHO"])
        #expect(variable.status != 0 && variable.stderr.contains("--where uses $WHO, a variable the query command has no value for"), "\(variable.stderr)")
        #expect(!variable.stderr.contains("substituting"), "no advice meant for code")
        #expect(variable.stderr.contains("Usage: seedstore query"), "this command's usage line: \(variable.stderr)")
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
        #expect(missing.stderr.contains("there is no such file; check the path"), "\(missing.stderr)")
        // A directory once gave SQLite's "disk I/O error" (a user trial).
        let folder = try CLI.run(["inspect", FileManager.default.temporaryDirectory.path])
        #expect(folder.status != 0 && folder.stderr.contains("it is a directory; name the store file in it"), "\(folder.stderr)")
        #expect(!folder.stderr.contains("disk I/O"), "\(folder.stderr)")
        if CLI.hasReal {
            let entity = try CLI.run(["query", books, "--entity", "Bok"])
            #expect(entity.status != 0)
            #expect(entity.stderr.contains("did you mean 'Book'?"))
            let key = try CLI.run(["query", books, "--entity", "Book", "--where", "titel == 'x'"])
            #expect(key.stderr.contains("'titel'") && key.stderr.contains("'title'"))
            let syntax = try CLI.run(["query", books, "--entity", "Book", "--where", "title =="])
            #expect(syntax.status == 64 && syntax.stderr.hasPrefix("error: --where: "), "a usage error: \(syntax.stderr)")
            #expect(syntax.stderr.contains("offset"))
        }
    }

    @Test(.enabled(if: CLI.hasReal, CLI.skipReason))
    func sortTakesALeadingDashWithOrWithoutEquals() throws {
        let spaced = try CLI.run(["query", books, "--entity", "Book", "--sort", "-title", "--limit", "1", "--format", "csv"])
        #expect(spaced.status == 0, "\(spaced.stderr)")
        #expect(spaced.stdout.hasSuffix("Author,Title,test\r\n"), "\(spaced.stdout)")
        let equals = try CLI.run(["query", books, "--entity", "Book", "--sort=-title", "--limit", "1", "--format", "csv"])
        #expect(equals.stdout == spaced.stdout)
        let mixed = try CLI.run(["query", books, "--entity", "Book", "--sort", "-author,title", "--limit", "2", "--format", "csv",
                                 "--properties", "author,title"])
        #expect(mixed.status == 0, "\(mixed.stderr)")
        let twoKeys = try CLI.run(["query", books, "--entity", "Book", "--sort", "author,-title", "--format", "csv", "--properties", "author,title"])
        #expect(twoKeys.stdout.contains("Ben Elton,Stark\r\nBen Elton,High Society\r\n"), "\(twoKeys.stdout)")
        let help = try CLI.run(["query", "--help"])
        #expect(help.stdout.contains("Sort keys separated by commas: -title or title:desc"), "\(help.stdout)")
        #expect(!help.stdout.contains("--sort=-title"), "the = form is no longer needed")
    }

    @Test func emptyListsAreRefusedBeforeTheStoreIsOpened() throws {
        for option in ["--properties", "--group-by", "--prefetch", "--sort"] {
            var arguments = ["query", "/nonexistent/store.sqlite", "--entity", "Book", option, " , "]
            if option == "--group-by" { arguments += ["--properties", "author"] }
            let result = try CLI.run(arguments)
            #expect(result.status != 0)
            #expect(result.stderr.contains("\(option) is empty: give a"), "\(option): \(result.stderr)")
        }
        let properties = try CLI.run(["query", "/nonexistent/store.sqlite", "--entity", "Book", "--properties", ""])
        #expect(properties.stderr.contains("--properties is empty: give a key path or aggregate, such as --properties name,count(*)"))
    }

    @Test(.enabled(if: CLI.hasReal, CLI.skipReason))
    func meaninglessDictionaryRequestsAreRefused() throws {
        let stray = try CLI.run(["query", books, "--entity", "Book", "--properties", "author,title", "--group-by", "author"])
        #expect(stray.status != 0)
        #expect(stray.stdout.isEmpty, "no rows with arbitrary titles")
        #expect(stray.stderr.contains("Book.title: fetched with propertiesToGroupBy [author] but neither grouped by nor aggregated"), "\(stray.stderr)")
        #expect(stray.stderr.contains("--group-by author,title"))
        let grouped = try CLI.run(["query", books, "--entity", "Book", "--properties", "author,count(*) as n,max(title)", "--group-by", "author"])
        #expect(grouped.status == 0, "\(grouped.stderr)")

        for (text, kind) in [("sum(title)", "a String attribute of Book"), ("avg(copyright)", "a Date attribute of Book")] {
            let result = try CLI.run(["query", books, "--entity", "Book", "--properties", text])
            #expect(result.status != 0)
            #expect(result.stderr.contains("adds numbers, but") && result.stderr.contains(kind), "\(text): \(result.stderr)")
        }
        let latest = try CLI.run(["query", books, "--entity", "Book", "--properties", "max(copyright) as latest", "--format", "json"])
        #expect(latest.stdout.contains("\"latest\" : \"") && latest.stdout.contains("T"), "a date, not a number: \(latest.stdout)")

        let emptyCount = try CLI.run(["query", books, "--entity", "Book", "--properties", "count()"])
        #expect(emptyCount.status != 0)
        #expect(emptyCount.stderr.contains("count(*) counts rows"))
        let star = try CLI.run(["query", books, "--entity", "Book", "--properties", "count(*) as n", "--format", "csv"])
        #expect(star.stdout == "n\r\n12\r\n")
    }

    @Test(.enabled(if: CLI.hasReal, CLI.skipReason))
    func prefetchNamesAttributesAndSuggestsKeys() throws {
        let attribute = try CLI.run(["query", books, "--entity", "Book", "--prefetch", "title"])
        #expect(attribute.status != 0)
        #expect(attribute.stderr.contains("Book.title: 'title' is an attribute of Book, not a relationship"), "\(attribute.stderr)")
        #expect(attribute.stderr.contains("Book has no relationships"))
        let unknown = try CLI.run(["query", books, "--entity", "Book", "--prefetch", "titel", "--batch-size", "5"])
        #expect(unknown.status != 0)
        #expect(unknown.stderr.contains("entity Book has no property 'titel'"), "\(unknown.stderr)")
        #expect(!unknown.stderr.contains("did you mean 'title'"), "only relationships can be prefetched, so only they are suggested: \(unknown.stderr)")
    }

    @Test(.enabled(if: CLI.hasReal, CLI.skipReason))
    func predicateModifiersAndInNeedCollections() throws {
        let any = try CLI.run(["query", books, "--entity", "Book", "--where", "ANY title == 'Strata'"])
        #expect(any.status != 0)
        #expect(any.stderr.contains("ANY, ALL and NONE need a collection on the left"), "\(any.stderr)")
        let scalarIn = try CLI.run(["query", books, "--entity", "Book", "--where", "title IN 3"])
        #expect(scalarIn.status != 0)
        #expect(scalarIn.stderr.contains("IN needs a collection on the right"), "\(scalarIn.stderr)")
        let list = try CLI.run(["query", books, "--entity", "Book", "--where", "title IN {'Strata', 'Stark'}", "--count"])
        #expect(list.stdout == "2\n")
    }

    @Test func jsonKeepsSlashesAndHelpParagraphsWrapWhole() throws {
        let directory = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let model = directory.appendingPathComponent("m.model.json"), csv = directory.appendingPathComponent("w.csv")
        try Data(#"{"entities": [{"name": "Well", "attributes": [{"name": "uwi", "type": "String"}]}]}"#.utf8).write(to: model)
        try Data("uwi\n100/08-25-024-15W5/00\n".utf8).write(to: csv)
        let store = directory.appendingPathComponent("W.sqlite").path
        let imported = try CLI.run(["import", "--model", model.path, "--out", store, "--progress", "none", "Well=\(csv.path)"])
        #expect(imported.status == 0, "\(imported.stderr)")
        let json = try CLI.run(["query", store, "--entity", "Well", "--format", "json"])
        #expect(json.stdout.contains(#""uwi" : "100/08-25-024-15W5/00""#), "a UWI reads as written, not as 100\\/08-…: \(json.stdout)")

        // A paragraph of the help runs on to the width, rather than breaking where the source line did.
        for command in ["query", "bench", "speed"] {
            let help = try CLI.run([command, "--help"]).stdout
            let discussion = help.components(separatedBy: "\n\n").dropFirst().prefix { !$0.hasPrefix("USAGE:") }
            for paragraph in discussion where !paragraph.hasPrefix("Example") {
                let lines = paragraph.split(separator: "\n")
                for (line, next) in zip(lines, lines.dropFirst()) {
                    let room = 79 - line.count - 1  // the parser keeps lines under 80 columns
                    #expect(room < next.split(separator: " ").first.map(\.count) ?? 0,
                            "\(command) --help breaks early: '\(line)' leaves room for '\(next)'")
                }
            }
        }
    }

    /// A user trial: SEEDSTORE_SQL_DEBUG=9 logged as level 3 and =abc as nothing, while --sql-debug 4 is refused.
    @Test(.enabled(if: CLI.hasReal, CLI.skipReason))
    func sqlDebugVariableTakesOnlyLevels() throws {
        for bad in ["9", "abc", "-1"] {
            let result = try CLI.run(["inspect", books], environment: ["SEEDSTORE_SQL_DEBUG": bad])
            #expect(result.status == 64)
            #expect(result.stderr.contains("SEEDSTORE_SQL_DEBUG=\(bad) is not a level: set it to 0, 1, 2 or 3"), "\(result.stderr)")
        }
        let importing = try CLI.run(["import", "--model", "m.json", "--out", "x.sqlite", "A=a.csv"], environment: ["SEEDSTORE_SQL_DEBUG": "9"])
        #expect(importing.status == 64 && importing.stderr.contains("SEEDSTORE_SQL_DEBUG=9 is not a level"), "\(importing.stderr)")
        let logged = try CLI.run(["query", books, "--entity", "Book", "--count"], environment: ["SEEDSTORE_SQL_DEBUG": "1"])
        #expect(logged.status == 0 && logged.stderr.contains("SQL: SELECT"), "\(logged.stderr)")
        let overridden = try CLI.run(["query", books, "--entity", "Book", "--count", "--sql-debug", "0"], environment: ["SEEDSTORE_SQL_DEBUG": "9"])
        #expect(overridden.status == 0 && overridden.stdout == "12\n", "--sql-debug wins: \(overridden.stderr)")
    }

    /// A user trial: join tables were not listed at all, an expression index printed as "()", and
    /// DESC and partial indexes were not marked.
    @Test func inspectListsJoinTablesAndIndexDetails() throws {
        let directory = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let data = directory.appendingPathComponent("banks").path, store = directory.appendingPathComponent("B.sqlite").path
        #expect(try CLI.run(["generate", "banks", "--rows", "50", "--out", data]).status == 0)
        let imported = try CLI.run(["import", "--mapping", data + "/banks.mapping.json", "--out", store, "--progress", "none"])
        #expect(imported.status == 0, "\(imported.stderr)")
        let joins = try #require(try PersistentStore(path: store).connection.scalar("SELECT count(*) FROM Z_1TAGS")?.int64)
        try PersistentStore(path: store).connection.execute("""
            CREATE INDEX ZTAG_EXPR ON ZTAG (lower(ZNAME)); CREATE UNIQUE INDEX ZTAG_DESC ON ZTAG (ZNAME DESC) WHERE ZNAME IS NOT NULL
            """)
        let result = try CLI.run(["inspect", store])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\nZ_1TAGS — join table of FailedBankDetails.tags and Tag.bankdetails, \(joins) rows (columns Z_1BANKDETAILS, Z_3TAGS)\nindexes: Z_1TAGS_Z_3TAGS_INDEX (Z_3TAGS, Z_1BANKDETAILS), sqlite_autoindex_Z_1TAGS_1 (Z_1BANKDETAILS, Z_3TAGS) unique"), "\(result.stdout)")
        #expect(result.stdout.contains("ZTAG_DESC (ZNAME DESC) unique partial (WHERE …), ZTAG_EXPR (<expression>)"), "\(result.stdout)")
    }

    /// A user trial: `inspect` printed "1 rows".
    @Test func inspectCountsOneRowInTheSingular() throws {
        let directory = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("F.sqlite").path
        let context = try CLI.store(at: store, model: "failedbank")
        let details = try context.insert("FailedBankDetails")
        let tag = try context.insert("Tag")
        tag["name"] = .string("rural")
        try details.add(tag, toKey: "tags")
        try context.save()
        let result = try CLI.run(["inspect", store])
        #expect(result.status == 0, "\(result.stderr)")
        let headings = result.stdout.split(separator: "\n").filter { $0.contains(" — ") }
        #expect(headings.count == 4, "\(result.stdout)")
        for heading in headings {
            let rows = heading.contains("FailedBankInfo ") ? "0 rows" : "1 row"
            #expect(heading.hasSuffix(", \(rows)") || heading.contains(", \(rows) (columns "), "\(heading)")
        }
    }

    /// A user trial: text holding CRLF, or a comma or quote followed by a combining mark (one Character
    /// each), was written to CSV unquoted and re-imported as ragged rows.
    @Test func csvQuotesByBytesSoItImportsBack() throws {
        let directory = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let model = directory.appendingPathComponent("c.model.json"), csv = directory.appendingPathComponent("c.csv")
        try Data(#"{"entities": [{"name": "C", "attributes": [{"name": "id", "type": "Integer 32"}, {"name": "body", "type": "String"}]}]}"#.utf8).write(to: model)
        try Data("id,body\r\n1,\"first\r\nsecond\"\r\n2,\"a,\u{301}b\"\r\n3,\"\"\"\u{301}start\"\r\n".utf8).write(to: csv)
        let first = directory.appendingPathComponent("A.sqlite").path, second = directory.appendingPathComponent("B.sqlite").path
        #expect(try CLI.run(["import", "--model", model.path, "--out", first, "--progress", "none", "C=\(csv.path)"]).status == 0)
        let query = try CLI.run(["query", first, "--entity", "C", "--sort", "id", "--format", "csv"])
        #expect(query.stdout.hasPrefix("id,body\r\n1,\"first\r\nsecond\"\r\n2,\"a,\u{301}b\"\r\n3,\"\"\"\u{301}start\"\r\n"), "\(query.stdout.debugDescription)")
        let out = directory.appendingPathComponent("out.csv")
        try Data(query.stdout.utf8).write(to: out)
        let again = try CLI.run(["import", "--model", model.path, "--out", second, "--progress", "none", "C=\(out.path)"])
        #expect(again.status == 0 && !again.stdout.contains("reject"), "\(again.stdout)\(again.stderr)")
        func bodies(_ path: String) throws -> [SQLValue] {
            try PersistentStore(path: path).connection.rows("SELECT hex(ZBODY) FROM ZC ORDER BY ZID").map { $0[0] }
        }
        #expect(try bodies(second) == bodies(first))
        let table = try CLI.run(["query", first, "--entity", "C", "--sort", "id"])
        #expect(table.stdout.contains("\"\"\"\u{301}start\""), "text starting with a quote is quoted in a table: \(table.stdout)")
    }

    /// A user trial: `query --entity Nope` said only "the model has no entity 'Nope'", where import lists
    /// the model's entities and suggests the nearest.
    @Test("query --entity with a name the model lacks lists its entities, and suggests a close one")
    func queryUnknownEntityListsTheEntities() throws {
        let directory = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("F.sqlite").path
        try CLI.store(at: store, model: "failedbank").save()
        let far = try CLI.run(["query", store, "--entity", "Nope"])
        #expect(far.status != 0)
        #expect(far.stderr.contains("the model has no entity 'Nope' (it has: FailedBankDetails, FailedBankInfo, Tag)"), "\(far.stderr)")
        let near = try CLI.run(["query", store, "--entity", "Tga"])
        #expect(near.stderr.contains("the model has no entity 'Tga'; did you mean 'Tag'? (it has: FailedBankDetails, FailedBankInfo, Tag)"), "\(near.stderr)")
    }
}
