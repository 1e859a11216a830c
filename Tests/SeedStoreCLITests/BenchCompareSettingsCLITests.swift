import Foundation
import Testing

/// `bench --compare` against a baseline made with other scenario settings or on another store: refused
/// before measuring, each difference named with both values; a version 1 baseline, which records no
/// settings, still compares with a note.
@Suite(.enabled(if: CLI.hasBinary, CLI.noBinary))
struct BenchCompareSettingsCLITests {
    static let quick = ["--scenarios", "batch-size,faulting", "--runs", "1", "--fault-limit", "20", "--quiet"]

    /// A directory with the 300-well store `W.sqlite` and the 400-well store `W400.sqlite`.
    static func stores() throws -> URL {
        let dir = CLI.temporaryDirectory()
        for (rows, name) in [("300", "W.sqlite"), ("400", "W400.sqlite")] {
            let generated = try CLI.run(["generate", "wells", "--rows", rows, "--seed", "1", "--out", dir.appendingPathComponent(rows).path])
            #expect(generated.status == 0, "\(generated.stderr)")
            let imported = try CLI.run(["import", "--mapping", dir.appendingPathComponent("\(rows)/wells.mapping.json").path,
                                        "--out", dir.appendingPathComponent(name).path, "--progress", "none"])
            #expect(imported.status == 0, "\(imported.stderr)")
        }
        return dir
    }

    @Test("the same settings compare; another sort key or store is refused naming both values; a version 1 baseline compares with a note")
    func settingsAndStoreAreCheckedBeforeMeasuring() throws {
        let dir = try Self.stores()
        defer { try? FileManager.default.removeItem(at: dir) }
        let saved = try CLI.run(["bench", "W.sqlite", "--save-baseline", "main"] + Self.quick, directory: dir)
        #expect(saved.status == 0, "\(saved.stderr)")

        // The same settings, given outright rather than by default, compare.
        let same = try CLI.run(["bench", "W.sqlite", "--fault-attribute", "well_name", "--compare", "main", "--threshold", "1000"] + Self.quick,
                               directory: dir)
        #expect([0, 4].contains(same.status), "exit \(same.status): \(same.stderr)")
        #expect(same.stdout.contains("Baseline seedstore") && !same.stdout.contains("could not be checked"), "\(same.stdout)")

        let sorted = try CLI.run(["bench", "W.sqlite", "--sort-key", "uwi", "--compare", "main"] + Self.quick, directory: dir)
        #expect(sorted.status == 1, "exit \(sorted.status)")
        #expect(sorted.stderr.contains("""
            --compare main: the baseline measured with other settings or another store, so variants that match by name would compare different things:
              sort_key: well_name in the baseline, uwi in this run (changes batch-size)
              fault_attribute: well_name in the baseline, uwi in this run (changes faulting)
            To compare like with like, pass --sort-key well_name --fault-attribute well_name. To keep this run's settings instead, \
            save a new baseline with --save-baseline main, without --compare. Nothing was measured.
            """), "\(sorted.stderr)")
        #expect(!sorted.stdout.contains("batch-size"), "refused before measuring: \(sorted.stdout)")

        let screen = dir.appendingPathComponent("screen.json")
        try Data(#"{"screen": 5}"#.utf8).write(to: screen)
        let file = try CLI.run(["bench", "W.sqlite", "--scenario-file", "screen.json", "--compare", "main"] + Self.quick, directory: dir)
        #expect(file.status == 1 && file.stderr.contains("  screen: 20 in the baseline, 5 in this run (changes batch-size)"), "\(file.stderr)")
        #expect(file.stderr.contains("put {\"screen\": 20} in a scenario file (--scenario-file)"), "\(file.stderr)")

        let store = try CLI.run(["bench", "W400.sqlite", "--compare", "main"] + Self.quick, directory: dir)
        #expect(store.status == 1, "exit \(store.status)")
        #expect(store.stderr.contains("  rows of Well: 300 in the baseline, 400 in this run (changes batch-size, faulting)"), "\(store.stderr)")
        #expect(store.stderr.contains("measure the store the baseline measured (W.sqlite)"), "\(store.stderr)")

        // A version 1 baseline has no scenario_config: it still compares, with one note.
        let main = dir.appendingPathComponent(".seedstore/baselines/main.json")
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: main)) as? [String: Any])
        var settings = try #require(json["settings"] as? [String: Any])
        settings["scenario_config"] = nil
        json["settings"] = settings
        json["schema_version"] = 1
        try JSONSerialization.data(withJSONObject: json).write(to: dir.appendingPathComponent("v1.json"))
        let old = try CLI.run(["bench", "W.sqlite", "--sort-key", "uwi", "--compare", "v1.json", "--threshold", "1000"] + Self.quick,
                              directory: dir)
        #expect([0, 2, 4].contains(old.status), "exit \(old.status): \(old.stderr)")
        #expect(old.stdout.contains("note: The baseline (schema version 1) does not record its scenario settings, so they could not be checked "
                                    + "against this run's; save it again to have them checked."), "\(old.stdout)")
    }
}
