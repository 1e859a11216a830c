import Foundation
import ManagedStore
import Testing

/// From the fourth user trial (a CI-gating persona): a compared baseline replaced by the run's own outputs,
/// checks that waited until after measuring, a self-contradictory message about to-many relationships,
/// and a handful of options taken or refused inconsistently.
@Suite(.enabled(if: CLI.hasBinary, CLI.noBinary))
struct BenchTrialFourCLITests {
    static let quick = BenchArgumentsCLITests.quick + ["--scenarios", "faulting"]

    @Test("an output that is the compared baseline, by path or by name, is refused before measuring; the baseline is kept")
    func outputsDoNotReplaceTheComparedBaseline() throws {
        let dir = try BenchArgumentsCLITests.stores()
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try CLI.run(["bench", "W.sqlite", "--json", "b1.json"] + Self.quick, directory: dir).status == 0)
        #expect(try CLI.run(["bench", "W.sqlite", "--save-baseline", "m2"] + Self.quick, directory: dir).status == 0)
        #expect(try CLI.run(["bench", "W.sqlite", "--save-baseline", "main"] + Self.quick, directory: dir).status == 0)
        let b1 = try Data(contentsOf: dir.appendingPathComponent("b1.json"))
        let m2 = try Data(contentsOf: dir.appendingPathComponent(".seedstore/baselines/m2.json"))
        let main = try Data(contentsOf: dir.appendingPathComponent(".seedstore/baselines/main.json"))

        for (option, path) in [("--markdown", "b1.json"), ("--html", "./b1.json"), ("--json", "b1.json")] {
            let result = try CLI.run(["bench", "W.sqlite", "--compare", "b1.json", option, path] + Self.quick, directory: dir)
            #expect(result.status == 1, "\(option) \(path): exit \(result.status) \(result.stderr)")
            #expect(result.stderr.contains("\(option) \(path) is the baseline --compare b1.json reads"), "\(result.stderr)")
            #expect(!result.stdout.contains("faulting"), "refused before measuring: \(result.stdout)")
        }
        let named = try CLI.run(["bench", "W.sqlite", "--compare", "m2", "--markdown", ".seedstore/baselines/m2.json"] + Self.quick, directory: dir)
        #expect(named.status == 1 && named.stderr.contains("is the baseline --compare m2 reads"), "\(named.stderr)")
        let rebaseline = try CLI.run(["bench", "W.sqlite", "--json", ".seedstore/baselines/main.json", "--compare", "main"] + Self.quick, directory: dir)
        #expect(rebaseline.status == 1 && rebaseline.stderr.contains("pass --save-baseline main instead"), "\(rebaseline.stderr)")
        // Under another baseline directory, the name resolves there.
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("base"), withIntermediateDirectories: true)
        try main.write(to: dir.appendingPathComponent("base/ci.json"))
        let moved = try CLI.run(["bench", "W.sqlite", "--baseline-dir", "base", "--compare", "ci", "--html", "base/../base/ci.json"] + Self.quick,
                                directory: dir)
        #expect(moved.status == 1 && moved.stderr.contains("is the baseline --compare ci reads"), "\(moved.stderr)")

        #expect(try Data(contentsOf: dir.appendingPathComponent("b1.json")) == b1)
        #expect(try Data(contentsOf: dir.appendingPathComponent(".seedstore/baselines/m2.json")) == m2)
        #expect(try Data(contentsOf: dir.appendingPathComponent(".seedstore/baselines/main.json")) == main)

        // Saving by name over the compared baseline is asked for, as CI does on main: it is kept working.
        let ci = try CLI.run(["bench", "W.sqlite", "--compare", "main", "--save-baseline", "main", "--threshold", "1000"] + Self.quick,
                             directory: dir)
        #expect([0, 4].contains(ci.status), "exit \(ci.status): \(ci.stderr)")
        #expect(ci.stderr.contains("saved baseline 'main'"), "\(ci.stderr)")
    }

    @Test("--baseline-dir that is a file, or that --json makes a file, is refused before measuring, naming --baseline-dir")
    func baselineDirectoryCheckedBeforeMeasuring() throws {
        let dir = try BenchArgumentsCLITests.stores()
        defer { try? FileManager.default.removeItem(at: dir) }
        let made = try CLI.run(["bench", "W.sqlite", "--save-baseline", "x", "--baseline-dir", "o.json", "--json", "o.json"] + Self.quick,
                               directory: dir)
        #expect(made.status == 1 && made.stderr.contains("--baseline-dir o.json would be a directory where --json o.json writes a file"),
                "\(made.stderr)")
        #expect(!made.stderr.contains("NSCocoaErrorDomain") && !made.stdout.contains("faulting"))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("o.json").path))
        let deeper = try CLI.run(["bench", "W.sqlite", "--save-baseline", "x", "--baseline-dir", "o.json/sub", "--markdown", "o.json"] + Self.quick,
                                 directory: dir)
        #expect(deeper.status == 1 && deeper.stderr.contains("--baseline-dir o.json/sub would be a directory where --markdown o.json"),
                "\(deeper.stderr)")

        try Data("{}".utf8).write(to: dir.appendingPathComponent("f.json"))
        let file = try CLI.run(["bench", "W.sqlite", "--save-baseline", "x", "--baseline-dir", "f.json"] + Self.quick, directory: dir)
        #expect(file.status == 1 && file.stderr.contains("--baseline-dir f.json cannot be made a directory"), "\(file.stderr)")
        #expect(!file.stdout.contains("faulting"))
    }

    @Test("map properties named twice or with an empty item are refused before measuring, naming --properties or the file")
    func mapPropertiesCheckedBeforeMeasuring() throws {
        let dir = try BenchArgumentsCLITests.stores()
        defer { try? FileManager.default.removeItem(at: dir) }
        for (value, message) in [("uwi,uwi", "--properties names 'uwi' twice"), ("uwi,", "--properties 'uwi,' has an empty item"),
                                 ("", "--properties '' has an empty item"), (",uwi", "has an empty item")] {
            let result = try CLI.run(["bench", "W.sqlite", "--properties", value, "--runs", "1", "--quiet"], directory: dir)
            #expect(result.status == 64, "--properties '\(value)': exit \(result.status) \(result.stderr)")
            #expect(result.stderr.contains(message) && !result.stderr.contains("scenario file"), "\(result.stderr)")
            #expect(!result.stdout.contains("batch-size"))
        }
        try Data(#"{"map_properties": ["uwi", "well_name", "uwi"]}"#.utf8).write(to: dir.appendingPathComponent("t.json"))
        let file = try CLI.run(["bench", "W.sqlite", "--scenario-file", "t.json", "--runs", "1", "--quiet"], directory: dir)
        #expect(file.status == 1, "exit \(file.status)")
        #expect(file.stderr.contains(#"t.json is not a usable scenario file: map_properties is ["uwi", "well_name", "uwi"]; it takes each property once"#),
                "\(file.stderr)")
        #expect(!file.stdout.contains("batch-size"), "refused before measuring: \(file.stdout)")
    }

    @Test("a to-many relationship named for a setting is called one, and the names listed are the usable ones")
    func toManyRelationshipsAreNamedAsSuch() throws {
        let dir = try BenchArgumentsCLITests.stores()
        defer { try? FileManager.default.removeItem(at: dir) }
        for (arguments, key, fix) in [(["--sort-key", "wells", "--scenarios", "batch-size"], "sort_key", "--sort-key"),
                                      (["--fault-attribute", "wells", "--scenarios", "faulting"], "fault_attribute", "--fault-attribute"),
                                      (["--properties", "name,wells", "--scenarios", "dictionary"], "map_properties", "--properties")] {
            let result = try CLI.run(["bench", "W.sqlite", "--entity", "Operator", "--runs", "1", "--quiet"] + arguments, directory: dir)
            #expect(result.status == 1, "\(arguments): exit \(result.status)")
            #expect(result.stderr.contains("Operator.wells (\(key)) is a to-many relationship"), "\(result.stderr)")
            #expect(result.stderr.contains(fix) && !result.stderr.contains("no property 'wells'"), "\(result.stderr)")
            let listed = result.stderr.components(separatedBy: "Operator has ").last ?? ""
            #expect(listed.contains("name") && !listed.contains("wells"), "only usable names are listed: \(result.stderr)")
        }
    }

    @Test("--threshold inf and --warmup past its cap are usage errors; --help gives the cap")
    func thresholdAndWarmupBounds() throws {
        let inf = try CLI.run(["bench", "W.sqlite", "--threshold", "inf"])
        #expect(inf.status == 64 && inf.stderr.contains("--threshold takes a percentage of 0 or more"), "\(inf.stderr)")
        let warmup = try CLI.run(["bench", "W.sqlite", "--warmup", "101"])
        #expect(warmup.status == 64 && warmup.stderr.contains("--warmup takes at most 100"), "\(warmup.stderr)")
        #expect(try CLI.run(["bench", "--help"]).stdout.contains("0 to 100"))
    }

    @Test("a directory given to --compare or --scenario-file is said to be one")
    func directoriesAreSaidToBeDirectories() throws {
        let dir = try BenchArgumentsCLITests.stores()
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("d.json"), withIntermediateDirectories: true)
        let compared = try CLI.run(["bench", "W.sqlite", "--compare", "d.json"] + Self.quick, directory: dir)
        #expect(compared.status == 1 && compared.stderr.contains("d.json is not a readable bench report: it is a directory"), "\(compared.stderr)")
        let scenarios = try CLI.run(["bench", "W.sqlite", "--scenario-file", "d.json"] + Self.quick, directory: dir)
        #expect(scenarios.status == 1 && scenarios.stderr.contains("d.json is not a usable scenario file: it is a directory"), "\(scenarios.stderr)")
        #expect(!compared.stderr.contains("NSCocoaErrorDomain") && !scenarios.stderr.contains("NSCocoaErrorDomain"))
    }

    @Test("a scenario file with a trailing comma or a key given twice is refused, naming the place")
    func scenarioFileSyntax() throws {
        let dir = try BenchArgumentsCLITests.stores()
        defer { try? FileManager.default.removeItem(at: dir) }
        for (text, message) in [(#"{"screen": 20,}"#, "a comma before a closing bracket"),
                                (#"{"sort_key": "uwi", "sort_key": "well_name"}"#, #"the key "sort_key" appears twice"#)] {
            try Data(text.utf8).write(to: dir.appendingPathComponent("t.json"))
            let result = try CLI.run(["bench", "W.sqlite", "--scenario-file", "t.json"] + Self.quick, directory: dir)
            #expect(result.status == 1, "\(text): exit \(result.status)")
            #expect(result.stderr.contains("t.json is not a usable scenario file: not valid JSON at line 1") && result.stderr.contains(message),
                    "\(result.stderr)")
            #expect(!result.stdout.contains("faulting"))
        }
    }

    @Test("benching a store without rows of the entity warns")
    func emptyStoreWarns() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try CLI.run(["generate", "wells", "--rows", "10", "--out", dir.appendingPathComponent("g").path]).status == 0)
        let model = try ObjectModel(contentsOf: dir.appendingPathComponent("g/wells.model.json").path)
        _ = try PersistentStore(path: dir.appendingPathComponent("E.sqlite").path, model: model)
        let result = try CLI.run(["bench", "E.sqlite"] + Self.quick, directory: dir)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("warning: E.sqlite has no Well rows"), "\(result.stderr)")
    }

    @Test("speed: fetch without --store gives its own usage line; --rows is refused where it cannot apply or is too large")
    func speedArguments() throws {
        let missing = try CLI.run(["speed", "fetch"])
        #expect(missing.status == 64 && missing.stderr.contains("speed fetch needs --store PATH"), "\(missing.stderr)")
        #expect(missing.stderr.contains("Usage: seedstore speed"), "\(missing.stderr)")
        let rows = try CLI.run(["speed", "fetch", "--store", "W.sqlite", "--rows", "5"])
        #expect(rows.status == 64 && rows.stderr.contains("--rows goes with the engine and import suites"), "\(rows.stderr)")
        let huge = try CLI.run(["speed", "import", "--rows", "9223372036854775807", "--runs", "1"])
        #expect(huge.status == 64 && huge.stderr.contains("--rows takes 1 to 10000000 wells"), "\(huge.stderr)")
        #expect(!huge.stderr.contains("generating"))
    }
}
