import Foundation
import Testing

/// `--compare main --save-baseline main`, as CI runs on main: a regressed run must not become the baseline,
/// or the next run would compare against it and pass.
@Suite(.enabled(if: CLI.hasBinary, CLI.noBinary))
struct BenchSaveOnRegressionCLITests {
    static let quick = BenchArgumentsCLITests.quick + ["--scenarios", "faulting"]

    /// Saves the baseline `main`, then lowers one variant's statement count in it, so the next run regresses.
    static func regressedBaseline(in dir: URL) throws -> Data {
        #expect(try CLI.run(["bench", "W.sqlite", "--save-baseline", "main"] + quick, directory: dir).status == 0)
        let url = dir.appendingPathComponent(".seedstore/baselines/main.json")
        var report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        var results = try #require(report["results"] as? [[String: Any]])
        let statements = try #require(results[0]["statements"] as? Int)
        results[0]["statements"] = statements - 1
        report["results"] = results
        let edited = try JSONSerialization.data(withJSONObject: report, options: [.sortedKeys])
        try edited.write(to: url)
        return edited
    }

    @Test("a regression keeps the compared baseline, and says how to accept the new figures")
    func regressionKeepsTheComparedBaseline() throws {
        let dir = try BenchArgumentsCLITests.stores()
        defer { try? FileManager.default.removeItem(at: dir) }
        let before = try Self.regressedBaseline(in: dir)
        let result = try CLI.run(["bench", "W.sqlite", "--compare", "main", "--save-baseline", "main"] + Self.quick, directory: dir)
        #expect(result.status == 2, "exit \(result.status): \(result.stderr)")
        #expect(result.stdout.contains("REGRESSION"), "\(result.stdout)")
        #expect(result.stderr.contains("baseline 'main' kept, not replaced: this run regressed against it"), "\(result.stderr)")
        #expect(result.stderr.contains("--save-baseline main without --compare"), "\(result.stderr)")
        #expect(!result.stderr.contains("saved baseline"), "\(result.stderr)")
        #expect(try Data(contentsOf: dir.appendingPathComponent(".seedstore/baselines/main.json")) == before)

        // By path, the compared file is the same one: kept too.
        let byPath = try CLI.run(["bench", "W.sqlite", "--compare", ".seedstore/baselines/main.json", "--save-baseline", "main"] + Self.quick,
                                 directory: dir)
        #expect(byPath.status == 2 && byPath.stderr.contains("kept, not replaced"), "exit \(byPath.status): \(byPath.stderr)")
        #expect(try Data(contentsOf: dir.appendingPathComponent(".seedstore/baselines/main.json")) == before)
    }

    @Test("a regression still saves a baseline of another name, and a passing comparison replaces the compared one")
    func otherNamesAndPassingRunsSave() throws {
        let dir = try BenchArgumentsCLITests.stores()
        defer { try? FileManager.default.removeItem(at: dir) }
        let before = try Self.regressedBaseline(in: dir)
        let other = try CLI.run(["bench", "W.sqlite", "--compare", "main", "--save-baseline", "pr"] + Self.quick, directory: dir)
        #expect(other.status == 2, "exit \(other.status): \(other.stderr)")
        #expect(other.stderr.contains("saved baseline 'pr'"), "\(other.stderr)")
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent(".seedstore/baselines/pr.json").path))
        #expect(try Data(contentsOf: dir.appendingPathComponent(".seedstore/baselines/main.json")) == before)

        // Against its own figures the run does not regress (counters agree; one run never gates timing): saved.
        let passing = try CLI.run(["bench", "W.sqlite", "--compare", "pr", "--save-baseline", "pr"] + Self.quick, directory: dir)
        #expect([0, 4].contains(passing.status), "exit \(passing.status): \(passing.stderr)")
        #expect(passing.stderr.contains("saved baseline 'pr'"), "\(passing.stderr)")
    }
}
