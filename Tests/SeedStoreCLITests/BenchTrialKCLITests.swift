import Foundation
import ManagedStore
import Testing

/// From user trial K (a performance engineer on their own data): a dropped index the gate did not see,
/// `--sort-key` specs refused as missing properties, skipped variants the JSON did not mention, and
/// messages for a report or a Markdown file given where a scenario file or a baseline belongs.
@Suite(.enabled(if: CLI.hasBinary, CLI.noBinary))
struct BenchTrialKCLITests {
    static let quick = BenchArgumentsCLITests.quick + ["--scenarios", "batch-size"]

    @Test("the report records the store's indexes; --compare names a dropped index; --metric takes ratio or median")
    func indexesAreRecordedAndCompared() throws {
        let dir = try BenchArgumentsCLITests.stores()
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try CLI.run(["bench", "W.sqlite", "--json", "before.json"] + Self.quick, directory: dir).status == 0)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("before.json"))) as? [String: Any])
        let store = try #require(report["store"] as? [String: Any])
        let indexes = try #require(store["indexes"] as? [String: String])
        let (name, definition) = try #require(indexes.first { !$0.key.hasPrefix("sqlite_autoindex") })
        let raw = try #require(try? PersistentStore(path: dir.appendingPathComponent("W.sqlite").path))
        try raw.connection.execute("DROP INDEX \(name)")
        let compared = try CLI.run(["bench", "W.sqlite", "--compare", "before.json", "--markdown", "c.md"] + Self.quick, directory: dir)
        #expect([0, 2, 4].contains(compared.status), "\(compared.stderr)")
        #expect(compared.stdout.contains("dropped \(name): \(definition)"), "\(compared.stdout)")
        #expect(compared.stdout.contains("median (baseline → run)"))
        #expect(try String(contentsOf: dir.appendingPathComponent("c.md"), encoding: .utf8).contains("dropped \(name.replacingOccurrences(of: "_", with: "\\_"))"), "Markdown escapes the underscores")
        let median = try CLI.run(["bench", "W.sqlite", "--compare", "before.json", "--metric", "median"] + Self.quick, directory: dir)
        #expect(median.stdout.contains("timing gated on median,"), "\(median.stdout) \(median.stderr)")
        let bad = try CLI.run(["bench", "W.sqlite", "--compare", "before.json", "--metric", "p90"] + Self.quick, directory: dir)
        #expect(bad.status == 64 && bad.stderr.contains("--metric takes ratio"), "\(bad.stderr)")
    }

    @Test("--sort-key with :desc or a list says the bench sorts by one attribute, ascending")
    func sortKeySpecsAreExplained() throws {
        let dir = try BenchArgumentsCLITests.stores()
        defer { try? FileManager.default.removeItem(at: dir) }
        for spec in ["well_name:desc", "uwi,well_name"] {
            let result = try CLI.run(["bench", "W.sqlite", "--sort-key", spec] + Self.quick, directory: dir)
            #expect(result.status == 64, "\(spec): \(result.stderr)")
            #expect(result.stderr.contains("one attribute, sorted ascending") && !result.stderr.contains("has no property"), "\(result.stderr)")
        }
        try Data(#"{"sort_key": "well_name:desc"}"#.utf8).write(to: dir.appendingPathComponent("s.json"))
        let file = try CLI.run(["bench", "W.sqlite", "--scenario-file", "s.json"] + Self.quick, directory: dir)
        #expect(file.status == 1 && file.stderr.contains("one attribute, sorted ascending"), "\(file.stderr)")
    }

    @Test("a report given as a scenario file, and a Markdown file given to --compare, are named for what they are")
    func wrongFilesAreNamed() throws {
        let dir = try BenchArgumentsCLITests.stores()
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try CLI.run(["bench", "W.sqlite", "--json", "r.json", "--markdown", "t5.md"] + Self.quick, directory: dir).status == 0)
        let scenario = try CLI.run(["bench", "W.sqlite", "--scenario-file", "r.json"] + Self.quick, directory: dir)
        #expect(scenario.status == 1 && scenario.stderr.contains("it is a bench report, not a scenario file"), "\(scenario.stderr)")
        let markdown = try CLI.run(["bench", "W.sqlite", "--compare", "t5.md"] + Self.quick, directory: dir)
        #expect(markdown.status == 1 && markdown.stderr.contains("There is a file t5.md here"), "\(markdown.stderr)")
        #expect(!markdown.stderr.contains("save one first with --save-baseline t5.md"))
    }

    @Test("families left out are recorded in the report, which says so in every view")
    func skippedFamiliesAreRecorded() throws {
        let dir = try BenchArgumentsCLITests.stores()
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CLI.run(["bench", "books.sqlite", "--entity", "Book", "--sort-key", "title", "--properties", "title",
                                  "--scenarios", "faulting", "--runs", "1", "--fault-limit", "5", "--quiet", "--json", "b.json", "--markdown", "b.md"],
                                 directory: dir)
        #expect(result.status == 0, "\(result.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("b.json"))) as? [String: Any])
        let skipped = try #require((report["settings"] as? [String: Any])?["skipped"] as? [String])
        #expect(skipped.contains { $0.contains("to-one prefetching variants skipped") }, "\(skipped)")
        #expect(try String(contentsOf: dir.appendingPathComponent("b.md"), encoding: .utf8).contains("to-one prefetching variants skipped"))
        #expect(result.stdout.contains("n/a") && !result.stdout.contains("±0.0%"))
        #expect(result.stdout.contains("1 run,") && !result.stdout.contains("up to 1 runs"))
    }
}
