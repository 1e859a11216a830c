import Foundation
import Testing

/// `bench` and `speed` arguments found wrong before anything is measured, from a user trial: reports
/// written over the store or each other, baseline names that could not be found again, missing
/// baselines and directories found only after the run, and scenario names hard-wired to the wells store.
@Suite(.enabled(if: CLI.hasBinary, CLI.noBinary))
struct BenchArgumentsCLITests {
    /// A directory with a 500-well store `W.sqlite` and the 12-book store `books.sqlite`.
    static func stores() throws -> URL {
        let dir = CLI.temporaryDirectory()
        for (kind, rows, name) in [("wells", ["--rows", "500", "--seed", "1"], "W.sqlite"), ("books", [], "books.sqlite")] {
            let generated = try CLI.run(["generate", kind, "--out", dir.appendingPathComponent(kind).path] + rows)
            #expect(generated.status == 0, "\(generated.stderr)")
            let imported = try CLI.run(["import", "--mapping", dir.appendingPathComponent("\(kind)/\(kind).mapping.json").path,
                                        "--out", dir.appendingPathComponent(name).path, "--progress", "none"])
            #expect(imported.status == 0, "\(imported.stderr)")
        }
        return dir
    }

    static let quick = ["--runs", "1", "--fault-limit", "20", "--quiet"]

    @Test("an output that is the store, under any spelling, or another output is refused before measuring; the store is untouched")
    func outputsThatWouldReplaceTheStoreOrEachOther() throws {
        let dir = try Self.stores()
        defer { try? FileManager.default.removeItem(at: dir) }
        let before = try Data(contentsOf: dir.appendingPathComponent("W.sqlite"))
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("link.sqlite").path, withDestinationPath: "W.sqlite")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("sub"), withIntermediateDirectories: true)
        for (option, path) in [("--json", "W.sqlite"), ("--markdown", "./link.sqlite"), ("--html", "sub/../W.sqlite")] {
            let result = try CLI.run(["bench", "W.sqlite", option, path] + Self.quick, directory: dir)
            #expect(result.status == 1, "\(option) \(path): exit \(result.status)")
            #expect(result.stderr.contains("\(option) \(path) is the store being measured (W.sqlite); the report would replace it"), "\(result.stderr)")
            #expect(!result.stdout.contains("batch-size"), "refused before measuring: \(result.stdout)")
        }
        #expect(try Data(contentsOf: dir.appendingPathComponent("W.sqlite")) == before, "the store is untouched")

        let same = try CLI.run(["bench", "W.sqlite", "--json", "x", "--markdown", "y", "--html", "./x"] + Self.quick, directory: dir)
        #expect(same.status == 1 && same.stderr.contains("--json x and --html ./x name the same file"), "\(same.stderr)")
        #expect(!same.stdout.contains("batch-size") && !FileManager.default.fileExists(atPath: dir.appendingPathComponent("x").path))
    }

    @Test("a missing baseline, a bad baseline name or an output directory that does not exist is refused before measuring")
    func argumentsCheckedBeforeMeasuring() throws {
        let dir = try Self.stores()
        defer { try? FileManager.default.removeItem(at: dir) }
        let missing = try CLI.run(["bench", "W.sqlite", "--compare", "nosuch"] + Self.quick, directory: dir)
        #expect(missing.status == 1 && missing.stderr.contains("no baseline named 'nosuch'"), "\(missing.stderr)")
        #expect(!missing.stdout.contains("batch-size"), "refused before measuring: \(missing.stdout)")

        let nowhere = try CLI.run(["bench", "W.sqlite", "--json", "/nonexistent/x.json"] + Self.quick, directory: dir)
        #expect(nowhere.status == 1, "exit \(nowhere.status)")
        #expect(nowhere.stderr.contains("--json /nonexistent/x.json: the directory /nonexistent does not exist"), "\(nowhere.stderr)")
        #expect(!nowhere.stderr.contains("NSCocoaErrorDomain") && !nowhere.stdout.contains("batch-size"))

        let hidden = try CLI.run(["bench", "W.sqlite", "--save-baseline", ".bad"] + Self.quick, directory: dir)
        #expect(hidden.status == 64 && hidden.stderr.contains("--save-baseline '.bad' cannot name a baseline"), "\(hidden.stderr)")
        #expect(!hidden.stdout.contains("batch-size"))
    }

    @Test("--save-baseline foo.json is refused with the name to use; a path gets advice for --save-baseline, not --compare's")
    func baselineNamesAndTheirMessages() throws {
        let dir = try Self.stores()
        defer { try? FileManager.default.removeItem(at: dir) }
        let suffixed = try CLI.run(["bench", "W.sqlite", "--save-baseline", "foo.json"] + Self.quick, directory: dir)
        #expect(suffixed.status == 64 && suffixed.stderr.contains("drop the .json suffix (foo)"), "\(suffixed.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent(".seedstore/baselines/foo.json.json").path))

        let path = try CLI.run(["bench", "W.sqlite", "--save-baseline", "sub/x.json"] + Self.quick, directory: dir)
        #expect(path.status == 64 && path.stderr.contains("--save-baseline takes a name, not a path"), "\(path.stderr)")
        #expect(path.stderr.contains("--json sub/x.json") && !path.stderr.contains("or pass a path ending in .json"), "\(path.stderr)")

        // Saved as a plain name, it is found again by that name.
        let saved = try CLI.run(["bench", "W.sqlite", "--scenarios", "faulting", "--save-baseline", "foo"] + Self.quick, directory: dir)
        #expect(saved.status == 0, "\(saved.stderr)")
        let compared = try CLI.run(["bench", "W.sqlite", "--scenarios", "faulting", "--compare", "foo", "--threshold", "1000"] + Self.quick,
                                   directory: dir)
        #expect([0, 4].contains(compared.status), "exit \(compared.status): \(compared.stderr)")
    }

    @Test("the fault attribute is named with --fault-attribute (by default the sort key), and only chosen scenarios' names must exist")
    func faultAttributeOnAnotherModel() throws {
        let dir = try Self.stores()
        defer { try? FileManager.default.removeItem(at: dir) }
        let books = ["bench", "books.sqlite", "--entity", "Book", "--sort-key", "title", "--properties", "title,author"] + Self.quick
        let batch = try CLI.run(books + ["--scenarios", "batch-size"], directory: dir)
        #expect(batch.status == 0 && batch.stdout.contains("batch 20, first screen"), "\(batch.stderr)")
        let all = try CLI.run(books, directory: dir)
        #expect(all.status == 0 && all.stdout.contains("IDs only (includesPropertyValues false): N+1"), "\(all.stderr)")
        // A user trial: what a store without the wells' shape leaves out went unsaid.
        #expect(all.stderr.contains("note: decomposition skipped: the store has no entity WellSummary"), "\(all.stderr)")
        #expect(all.stderr.contains("note: faulting: the to-one prefetching variants skipped: Book has no to-one operator"), "\(all.stderr)")
        #expect(!batch.stderr.contains("note:"), "nothing is said of scenarios not chosen: \(batch.stderr)")
        let wrong = try CLI.run(books + ["--scenarios", "faulting", "--fault-attribute", "nope"], directory: dir)
        #expect(wrong.status == 1 && wrong.stderr.contains("Book has no property 'nope'"), "\(wrong.stderr)")
        #expect(wrong.stderr.contains("Name one with --fault-attribute") && wrong.stderr.contains("title, author, copyright"), "\(wrong.stderr)")

        try Data(#"{"entity": "Book", "sort_key": "title", "fault_atribute": "author"}"#.utf8).write(to: dir.appendingPathComponent("typo.json"))
        let typo = try CLI.run(["bench", "books.sqlite", "--scenario-file", "typo.json", "--scenarios", "faulting"] + Self.quick, directory: dir)
        #expect(typo.status == 1 && typo.stderr.contains("unknown key 'fault_atribute'") && typo.stderr.contains("fault_attribute"), "\(typo.stderr)")
    }

    /// A user trial: every --properties failed, as the dictionary scenario reads them on Operator and the
    /// decomposition on WellSummary too, and the message said only "Name them with --properties".
    @Test("--entity Operator with its own --properties runs, the decomposition skipped with a note; named in --scenarios, the error says what works")
    func decompositionOnAnotherEntity() throws {
        let dir = try Self.stores()
        defer { try? FileManager.default.removeItem(at: dir) }
        let operators = ["bench", "W.sqlite", "--entity", "Operator", "--sort-key", "name", "--properties", "name,country"] + Self.quick
        let all = try CLI.run(operators, directory: dir)
        #expect(all.status == 0 && all.stdout.contains("2 properties as dictionaries"), "\(all.stderr)")
        #expect(all.stderr.contains("note: decomposition skipped: WellSummary (summary_entity) has no name, country (--properties)"), "\(all.stderr)")
        #expect(all.stdout.contains("note: decomposition skipped"), "under the table too: \(all.stdout)")
        let named = try CLI.run(operators + ["--scenarios", "decomposition"], directory: dir)
        #expect(named.status == 1 && named.stderr.contains("WellSummary has no property 'name' (map_properties)"), "\(named.stderr)")
        #expect(named.stderr.contains("--scenarios batch-size,faulting,dictionary") && named.stderr.contains("summary_entity, details_relationship, lookup_key"),
                "\(named.stderr)")
        // The wells' own properties, which WellSummary has, still run the decomposition.
        let wells = try CLI.run(["bench", "W.sqlite", "--scenarios", "dictionary,decomposition"] + Self.quick, directory: dir)
        #expect(wells.status == 0 && wells.stdout.contains("decomposition") && !wells.stderr.contains("note:"), "\(wells.stderr)")
    }

    /// A user trial: `IDs only (includesPropertyValues false): N+1 (2…`, the count cut off at 80 columns.
    @Test("the terminal table shows the count of a variant that stops at --fault-limit, however long its name")
    func faultLimitCountIsShown() throws {
        let dir = try Self.stores()
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CLI.run(["bench", "W.sqlite", "--scenarios", "faulting"] + Self.quick, directory: dir)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let name = try #require(lines.firstIndex { $0.contains("IDs only (includesPropertyValues false): N+1") }, "\(result.stdout)")
        #expect(lines[name + 1].contains("(20 of 500 objects)"), "\(result.stdout)")
        #expect(!result.stdout.contains("N+1 (2…"), "\(result.stdout)")
    }

    @Test("speed fetch on a store that is not the wells store says what store it expects, not bench's flags")
    func speedFetchSaysWhatStoreItExpects() throws {
        let dir = try Self.stores()
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CLI.run(["speed", "fetch", "--store", "books.sqlite", "--runs", "1"], directory: dir)
        #expect(result.status == 1)
        #expect(result.stderr.contains("books.sqlite is not a wells store: it has no entity 'Well' (its entities: Book)"), "\(result.stderr)")
        #expect(result.stderr.contains("seedstore generate wells") && !result.stderr.contains("--entity/--properties, or a scenario file"))
    }

    @Test("usage errors exit 64, and bench --help and docs/bench-schema.md say so")
    func usageErrorsExit64AndAreDocumented() throws {
        for arguments in [["--runs", "0"], ["--threshold", "-5"]] {
            #expect(try CLI.run(["bench", "W.sqlite"] + arguments).status == 64)
        }
        let help = try CLI.run(["bench", "--help"])
        #expect(help.stdout.contains("64 a usage") && help.stdout.contains("--fault-attribute"), "\(help.stdout)")
        let docs = try String(contentsOf: CLI.repository.appendingPathComponent("docs/bench-schema.md"), encoding: .utf8)
        #expect(docs.contains("| 64 | Usage error"))
    }

    /// From a user trial: `"batch_sizes": [-5]` and `"screen": -1` trapped (exit 132) once measuring began.
    @Test("a scenario file value out of range, of another type or null is refused before measuring, naming the key")
    func scenarioFileValuesAreCheckedBeforeMeasuring() throws {
        let dir = try Self.stores()
        defer { try? FileManager.default.removeItem(at: dir) }
        // No sort_key here: the null case gives it.
        let books = #""entity": "Book", "map_properties": ["title", "author"]"#
        let cases = [
            (#""batch_sizes": [-5]"#, "batch_sizes is [-5]; it takes batch sizes of 0 (no batching) or more, not -5"),
            (#""batch_sizes": [0, -5]"#, "batch_sizes is [0, -5]"),
            (#""screen": -1"#, "screen is -1; it takes 1 or more"),
            (#""fault_limit": 0"#, "fault_limit is 0; it takes 1 or more"),
            (#""batch_sizes": [1.5]"#, "batch_sizes is [1.5]; it takes a list of integers"),
            (#""sort_key": null"#, "sort_key is null; it takes a string"),
        ]
        for (setting, message) in cases {
            try Data("{\(books), \(setting)}".utf8).write(to: dir.appendingPathComponent("t.json"))
            let result = try CLI.run(["bench", "books.sqlite", "--scenario-file", "t.json", "--runs", "1", "--quiet"], directory: dir)
            #expect(result.status == 1, "\(setting): exit \(result.status) \(result.stderr)")
            #expect(result.stderr.contains("t.json is not a usable scenario file: \(message)"), "\(setting): \(result.stderr)")
            #expect(!result.stdout.contains("batch-size"), "refused before measuring: \(result.stdout)")
        }
    }

    @Test("--scenarios with an unknown name or an empty item, and --save-baseline NAME.JSON, are usage errors (64)")
    func scenarioNamesAndUppercaseSuffixAreUsageErrors() throws {
        let dir = try Self.stores()
        defer { try? FileManager.default.removeItem(at: dir) }
        let bogus = try CLI.run(["bench", "W.sqlite", "--scenarios", "bogus"] + Self.quick, directory: dir)
        #expect(bogus.status == 64 && bogus.stderr.contains("unknown scenario 'bogus'; choose from batch-size, faulting"), "\(bogus.stderr)")
        let trailing = try CLI.run(["bench", "W.sqlite", "--scenarios", "batch-size,"] + Self.quick, directory: dir)
        #expect(trailing.status == 64 && trailing.stderr.contains("--scenarios 'batch-size,' has an empty item"), "\(trailing.stderr)")
        #expect(!trailing.stdout.contains("batch-size"))
        let upper = try CLI.run(["bench", "W.sqlite", "--save-baseline", "foo.JSON"] + Self.quick, directory: dir)
        #expect(upper.status == 64 && upper.stderr.contains("drop the .JSON suffix (foo)"), "\(upper.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent(".seedstore/baselines/foo.JSON.json").path))
    }

    /// From a user trial: `speed fetch --store w.sqlite --json w.sqlite` replaced the store with the report.
    @Test("speed --json naming the store, under any spelling or through a link, is refused before measuring")
    func speedJSONThatIsTheStoreIsRefused() throws {
        let dir = try Self.stores()
        defer { try? FileManager.default.removeItem(at: dir) }
        let before = try Data(contentsOf: dir.appendingPathComponent("W.sqlite"))
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("link.sqlite").path, withDestinationPath: "W.sqlite")
        for path in ["W.sqlite", "./link.sqlite"] {
            let result = try CLI.run(["speed", "fetch", "--store", "W.sqlite", "--runs", "1", "--json", path], directory: dir)
            #expect(result.status == 1, "--json \(path): exit \(result.status)")
            #expect(result.stderr.contains("--json \(path) is the store being measured (--store) (W.sqlite); the report would replace it"), "\(result.stderr)")
            #expect(result.stdout.isEmpty && !result.stderr.contains("speed: "), "refused before measuring: \(result.stdout)")
        }
        #expect(try Data(contentsOf: dir.appendingPathComponent("W.sqlite")) == before, "the store is untouched")
    }
}
