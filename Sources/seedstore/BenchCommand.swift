import ArgumentParser
import FetchBench
import Foundation
import ManagedStore
import Measure
import SeedImport

struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Run fetch strategies side by side on a store, each next to raw SQLite; report, save or compare baselines.",
        discussion: """
            Scenario families: \(ScenarioCatalog.names.joined(separator: ", ")). Each variant prints its median and p90, \
            the raw-SQLite reference measured in the same run and their ratio, exact counters (statements, rows, \
            objects, faults) and peak memory.

            Example:
              seedstore bench Wells.sqlite --html report.html --save-baseline main
              seedstore bench Wells.sqlite --compare main --threshold 10
              seedstore bench Wells.sqlite --compare main --metric median   # a stable machine: gate on medians

            Only the names the chosen scenarios use must exist in the store: batch-size needs --sort-key, \
            faulting --fault-attribute (by default the sort key), dictionary and decomposition --properties. \
            Unless --scenarios names it, decomposition is skipped with a note when its summary entity (WellSummary \
            by default) lacks a name of --properties, as with --entity Operator --properties name,country. \
            A scenario file sets the same names and more (docs/bench-schema.md, Scenario files).

            Outputs are checked before anything is measured: a --json, --markdown or --html path that is the \
            store, the baseline --compare reads or another output, or a place that cannot be written, is refused. \
            --save-baseline may replace the compared baseline (compare with main, save main), unless the \
            comparison finds a regression: then the baseline is kept.

            Exit status: 0 done (with --compare: unchanged); 2 regression; 4 improvement only; 64 a usage \
            error (an option's value out of range or malformed, such as --runs 0, --scenarios bogus or \
            --save-baseline x.json); \
            1 any other error (a missing baseline, a baseline made with other scenario settings or on a store with \
            other row counts, an output that cannot be written, a store that lacks a name).
            """
    )

    @Argument(help: "The store to measure (the generated wells store fits the defaults).")
    var store: String

    @Option(help: "Scenario families to run, separated by commas (default: all).")
    var scenarios: String?

    @Option(parsing: .unconditional, help: "Measured runs per variant (fewer only when a variant spends --time-budget first).")
    var runs: Int = 5

    @Option(name: .customLong("time-budget"), parsing: .unconditional, help: "Seconds one variant may take once it has 3 runs.")
    var timeBudget: Double = 5

    @Option(parsing: .unconditional, help: "Unmeasured runs before measuring, 0 to \(Self.maximumWarmup) (the counting run already warms caches).")
    var warmup: Int = 0

    @Option(name: .customLong("scenario-file"), help: "A JSON scenario file naming the entity and properties to use.")
    var scenarioFile: String?

    @Option(help: "The entity to fetch (overrides the scenario file).")
    var entity: String?

    @Option(name: .customLong("sort-key"), help: "The attribute lists sort by.")
    var sortKey: String?

    @Option(help: "The properties a map needs, separated by commas.")
    var properties: String?

    @Option(name: .customLong("fault-attribute"), help: "The attribute the faulting scenario reads from each object (default: the sort key).")
    var faultAttribute: String?

    @Option(name: .customLong("fault-limit"), parsing: .unconditional, help: "At most this many objects in the faulting variants but the to-one prefetching ones (N+1, returnsObjectsAsFaults false, object IDs only) and in dictionary's N+1 (default 20000).")
    var faultLimit: Int?

    @Option(help: "Write the report as JSON.")
    var json: String?

    @Option(help: "Write the report as Markdown.")
    var markdown: String?

    @Option(help: "Write a self-contained HTML page with charts.")
    var html: String?

    @Option(name: .customLong("save-baseline"), help: "Save the results as a named baseline (a name such as main, without .json).")
    var saveBaseline: String?

    @Option(help: "Compare with a named baseline (or a report JSON file).")
    var compare: String?

    @Option(name: .customLong("threshold"), parsing: .unconditional, help: ArgumentHelp("With --compare: the timing change, in percent, that counts (counters compare exactly; default 10).", valueName: "threshold"))
    var thresholdOption: Double?
    /// `--threshold`, or its default.
    var threshold: Double { thresholdOption ?? 10 }

    @Option(name: .customLong("metric"), help: ArgumentHelp("With --compare: the timing metric that gates, ratio (to raw SQLite; median where a variant has none) or median.",
                               discussion: "ratio, the default, cancels the machine's speed but not the store's: its raw reference reads the same store. "
                               + "When the store's indexes differ from the baseline's, medians gate too. median suits a stable machine.",
                               valueName: "ratio|median"))
    var metricOption: String?
    /// `--metric`, or its default.
    var metric: String { metricOption ?? "ratio" }

    @Option(name: .customLong("confirm"), parsing: .unconditional, help: ArgumentHelp("With --compare: how many times to measure again a variant whose timing alone changed the verdict (0 to \(Self.maximumConfirm); default 1).",
                               discussion: "A busy shared machine can slow a whole measurement. A timing change counts only when it shows every time, "
                               + "so an unchanged build does not fail the gate on a disturbed run; a real regression shows every time.",
                               valueName: "confirm"))
    var confirmOption: Int?
    /// `--confirm`, or its default.
    var confirm: Int { confirmOption ?? 1 }

    /// Measures only these `scenario / variant` keys: how `--confirm` measures again in a fresh process.
    @Option(name: .customLong("only-variant"), help: .hidden)
    var onlyVariants: [String] = []

    @Option(name: .customLong("baseline-dir"), help: "Where named baselines live.")
    var baselineDirectory: String = ".seedstore/baselines"

    @Flag(help: "No progress output.")
    var quiet = false

    func validate() throws {
        try checkSQLDebugVariable(orOption: false)
        if compare != nil, let level = ProcessInfo.processInfo.environment[Connection.debugEnvironmentVariable], let number = Int(level), number > 0 {
            throw ValidationError("\(Connection.debugEnvironmentVariable)=\(level) logs SQL inside the timed runs, so their timings cannot be compared with a baseline: "
                + "unset it (or set it to 0) for --compare, and log SQL in a run of its own")
        }
        guard runs >= 1 else { throw ValidationError("--runs takes 1 or more") }
        guard threshold >= 0, threshold.isFinite else { throw ValidationError("--threshold takes a percentage of 0 or more, a finite number") }
        guard Self.metrics[metric] != nil else {
            throw ValidationError("--metric takes ratio (the ratio to raw SQLite, the default) or median (median seconds, for a stable machine), not '\(metric)'")
        }
        guard warmup >= 0 else { throw ValidationError("--warmup takes 0 or more") }
        guard (0...Self.maximumConfirm).contains(confirm) else {
            throw ValidationError("--confirm takes 0 to \(Self.maximumConfirm): the times to measure again a variant whose timing changed the verdict.")
        }
        if compare == nil {
            let given = [("--threshold", thresholdOption != nil), ("--metric", metricOption != nil), ("--confirm", confirmOption != nil)].filter(\.1).map(\.0)
            if !given.isEmpty {
                throw ValidationError("\(given.joined(separator: ", ")) only \(given.count == 1 ? "acts" : "act") with --compare: add --compare NAME (a saved baseline or a report JSON), or leave \(given.count == 1 ? "it" : "them") out")
            }
        }
        guard warmup <= Self.maximumWarmup else {
            throw ValidationError("--warmup takes at most \(Self.maximumWarmup): unmeasured runs only warm caches, which a few runs do.")
        }
        guard timeBudget >= 0 else { throw ValidationError("--time-budget takes seconds, 0 or more") }
        if let faultLimit, faultLimit < 1 { throw ValidationError("--fault-limit takes 1 or more") }
        if let sortKey, let problem = ScenarioConfig.sortKeyProblem(sortKey) {
            throw ValidationError("--sort-key '\(sortKey)': the bench's lists sort by \(problem).")
        }
        if let scenarios {
            let items = Self.items(scenarios)
            let known = ScenarioCatalog.names.joined(separator: ", ")
            if items.contains(where: \.isEmpty) {
                throw ValidationError("--scenarios '\(scenarios)' has an empty item; name scenario families separated by commas, from \(known).")
            }
            for item in items where !ScenarioCatalog.names.contains(item) {
                throw ValidationError("--scenarios: unknown scenario '\(item)'; choose from \(known).")
            }
        }
        if let properties {
            let items = Self.items(properties)
            if items.contains(where: \.isEmpty) {
                throw ValidationError("--properties '\(properties)' has an empty item; name the properties a map needs separated by commas, such as uwi,well_name.")
            }
            if let twice = items.first(where: { name in items.filter { $0 == name }.count > 1 }) {
                throw ValidationError("--properties names '\(twice)' twice; name each property once.")
            }
        }
        if let saveBaseline, let problem = BaselineStore.problem(withName: saveBaseline) {
            throw ValidationError(saveBaseline.contains("/")
                ? "--save-baseline takes a name, not a path: '\(saveBaseline)'. Save with a name such as main (kept as \(baselineDirectory)/main.json), or write the report to a path of your own with --json \(saveBaseline)."
                : "--save-baseline '\(saveBaseline)' cannot name a baseline: \(problem).")
        }
        if let compare, !BaselineStore.isPath(compare), let problem = BaselineStore.problem(withName: compare) {
            throw ValidationError("--compare '\(compare)' is neither a baseline name nor a report path: for a name, \(problem); for a report file, give a path containing '/' or ending in .json.")
        }
    }

    func run() throws {
        #if DEBUG
        if !quiet { printError("warning: a debug build; measure with -c release for meaningful figures") }
        #endif
        var config = try scenarioFile.map(ScenarioConfig.load) ?? ScenarioConfig()
        if let entity { config.entity = entity }
        if let sortKey { config.sortKey = sortKey }
        if let properties { config.mapProperties = Self.items(properties) }
        if let faultAttribute { config.faultAttribute = faultAttribute }
        if let faultLimit { config.faultLimit = faultLimit }
        let opened = try PersistentStore(path: store, options: .init(readOnly: true, create: false))
        // Everything the run needs and writes is checked before it measures, which can take minutes.
        let baselines = BaselineStore(directory: URL(fileURLWithPath: baselineDirectory))
        try checkOutputs(baselines: baselines)
        let baseline = try compare.map { try baselines.load($0) }
        let chosen = QueryCommand.list(scenarios)
        var built: [BenchScenario]
        do {
            built = try ScenarioCatalog.make(for: opened, config: config, only: chosen)
        } catch BenchError.storeLacks(let missing) {
            throw Refusal(description: "\(store): \(missing). \(Self.fix(for: missing, config: config))")
        }
        if !onlyVariants.isEmpty { built = Self.only(onlyVariants, of: built) }
        let skipped = Self.skipped(built: built, chosen: chosen, config: config, model: opened.model)
        // The results' notes repeat them under the table: said first only when the table goes elsewhere than a terminal.
        if isatty(STDOUT_FILENO) == 0 { for note in skipped { printError("note: " + note) } }
        // Figures of an empty store time the harness, not fetching: worth a word before they are trusted.
        if let entity = opened.model.entity(named: config.entity), try opened.count(of: entity) == 0 {
            printError("warning: \(store) has no \(config.entity) rows, so every variant measures fetching nothing; bench a store with data (seedstore import)")
        }
        if let baseline, let compare {
            try checkComparable(baseline, named: compare, config: config, built: built, store: opened)
            // With no variant in common the gate would pass having compared nothing.
            let measured = Set(built.flatMap { scenario in scenario.variants.map { "\(scenario.name) / \($0.name)" } })
            if !baseline.results.contains(where: { measured.contains($0.key) }) {
                throw Refusal(description: "--compare \(compare): the baseline has no variant this run measures (it has \(baseline.results.count) result(s)), "
                    + "so the gate could neither pass nor fail. Compare with a baseline saved from the same --scenarios, or save one with --save-baseline. Nothing was measured.")
            }
        }
        // Every run meets the allocator a long-running app has, not one still adjusting its thresholds.
        ProcessMemory.settleAllocator()
        let progress = BenchProgress(quiet: quiet, total: built.reduce(0) { $0 + $1.variants.count })
        var runner = BenchRunner(runs: runs, warmupRuns: warmup, timeBudgetSeconds: timeBudget, progress: { progress.update($0) })
        runner.runProgress = { index, name, run, runs in progress.update(index: index, of: nil, name: name, run: run, runs: runs) }
        var report = try runner.run(built, store: opened, config: config)
        // The recorded settings name what the skipped variants would have used: the report says they did not run.
        if !skipped.isEmpty { report.settings.skipped = skipped }
        progress.finish()
        var comparison = baseline.map {
            BaselineComparison(baseline: $0, current: report, thresholdPercent: threshold, metric: Self.metrics[metric] ?? .ratioToRaw)
        }
        // A timing change must show every time it is measured: a busy machine can slow one whole measurement.
        // Done before the table is printed, so the table shows the measurements that count, as the files do.
        if let first = comparison, confirm > 0, first.entries.contains(where: first.timingDecides) {
            let doubtful = first.entries.filter(first.timingDecides).count
            if !quiet { printError("note: measuring \(doubtful) variant(s) whose timing changed the verdict again in a fresh process, to confirm (--confirm \(confirm))") }
            (report, comparison) = try first.confirmed(rounds: confirm) { try remeasureInFreshProcess($0) }
        }
        print(BenchReporter.table(report))
        if let overhead = report.settings.harnessOverheadSeconds, let smallest = report.results.map(\.medianSeconds).min(), smallest > 0 {
            let share = overhead / smallest * 100
            print(String(format: "harness overhead: %.1f µs per measured run (%.3f%% of the smallest median)", overhead * 1e6, share)
                + (share > Self.overheadWarning
                    ? String(format: ": above %g%%, so the fastest variants' figures are partly the harness's; compare them with care, or bench a store with more rows", Self.overheadWarning)
                    : ""))
        }
        if let json { try write(report.jsonData(), to: json, option: "--json") }
        if let markdown { try write(Data(BenchReporter.markdown(report, comparison: comparison).utf8), to: markdown, option: "--markdown") }
        if let html { try write(Data(BenchReporter.html(report, comparison: comparison).utf8), to: html, option: "--html") }
        // A regression must not become the baseline it regressed against: the next run would pass.
        if let saveBaseline, let comparison, comparison.hasRegression, replacesCompared(saveBaseline, baselines: baselines) {
            printError("baseline '\(saveBaseline)' kept, not replaced: this run regressed against it. "
                + "To accept these figures as the new baseline, run again with --save-baseline \(saveBaseline) without --compare.")
        } else if let saveBaseline {
            do { try baselines.save(report, as: saveBaseline) } catch {
                throw Refusal(description: "--save-baseline \(saveBaseline) (--baseline-dir \(baselineDirectory)): \(error.localizedDescription). The measurements were printed above.")
            }
            printError("saved baseline '\(saveBaseline)' in \(baselineDirectory)")
        }
        if let comparison {
            print("")
            print(comparison.render())
            let code = comparison.exitCode
            if code != 0 { throw ExitCode(code) }
        }
    }

    /// The variants of `scenarios` whose `scenario / variant` key is in `keys`; scenarios left with none are dropped.
    static func only(_ keys: [String], of scenarios: [BenchScenario]) -> [BenchScenario] {
        scenarios.compactMap { scenario in
            var kept = scenario
            kept.variants = scenario.variants.filter { keys.contains("\(scenario.name) / \($0.name)") }
            return kept.variants.isEmpty ? nil : kept
        }
    }

    /// `results`' variants measured again by a fresh seedstore process with this run's settings.
    ///
    /// A process can start in a state that slows one side for its whole life (the raw reader 15% slower in
    /// every variant of one trial run, and again when measured in that process): a new process does not
    /// inherit it, so its figures can outvote the first's.
    func remeasureInFreshProcess(_ results: [BenchResult]) throws -> [BenchResult] {
        guard let executable = Bundle.main.executableURL else {
            throw Refusal(description: "--confirm: cannot find the seedstore executable to measure again; pass --confirm 0 to judge one measurement")
        }
        Self.removeStaleConfirmDirectories()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("\(Self.confirmPrefix)\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("again.json")
        var arguments = ["bench", "--runs", String(runs), "--warmup", String(warmup), "--time-budget", String(timeBudget),
                         "--json", output.path, "--quiet"]
        let settings: [(String, String?)] = [("--scenarios", scenarios), ("--scenario-file", scenarioFile), ("--entity", entity),
                                             ("--sort-key", sortKey), ("--properties", properties), ("--fault-attribute", faultAttribute),
                                             ("--fault-limit", faultLimit.map(String.init))]
        for case let (option, value?) in settings { arguments += [option, value] }
        for result in results { arguments += ["--only-variant", result.key] }
        // Last, after `--`: a store named `-W.sqlite` is not an option.
        arguments += ["--", store]
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        // Its warnings repeat this run's; shown only when it fails. A file, not a pipe: with
        // SEEDSTORE_SQL_DEBUG=3 it logs every row, which memory need not hold.
        let log = directory.appendingPathComponent("stderr.txt")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let errors = try FileHandle(forWritingTo: log)
        process.standardError = errors
        try process.run()
        process.waitUntilExit()
        try? errors.close()
        guard process.terminationStatus == 0 else {
            let said = (try? Data(contentsOf: log)).map { String(decoding: $0.suffix(4_000), as: UTF8.self) } ?? ""
            throw Refusal(description: "--confirm: measuring again in a fresh process failed (exit \(process.terminationStatus)): "
                + said.trimmingCharacters(in: .whitespacesAndNewlines) + ". Pass --confirm 0 to judge one measurement.")
        }
        let again = try BenchReport.load(from: output).results
        return try results.map { result in
            guard let measured = again.first(where: { $0.key == result.key }) else {
                throw Refusal(description: "--confirm: the fresh process did not measure '\(result.key)'. Pass --confirm 0 to judge one measurement.")
            }
            return measured
        }
    }

    /// How the folders `--confirm` measures again in start, followed by the process ID.
    static let confirmPrefix = "seedstore-confirm-"

    /// Removes the folders of `--confirm` runs whose process has ended (a signal stopped it before it
    /// removed its own).
    static func removeStaleConfirmDirectories() {
        let temporary = FileManager.default.temporaryDirectory
        for name in (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? [] where name.hasPrefix(confirmPrefix) {
            guard let pid = Int32(name.dropFirst(confirmPrefix.count).prefix { $0 != "-" }), pid > 0, pid != getpid(),
                  kill(pid, 0) != 0, errno == ESRCH else { continue }
            try? FileManager.default.removeItem(at: temporary.appendingPathComponent(name))
        }
    }

    /// What `--metric` takes, and the comparison's metric for each.
    static let metrics: [String: BaselineComparison.TimingChange.Metric] = ["ratio": .ratioToRaw, "median": .medianSeconds]

    /// The harness overhead, in percent of the smallest median, above which the run says to read with care.
    static let overheadWarning = 2.0

    /// The most re-measurements `--confirm` takes: each measures the doubtful variants again in full.
    static let maximumConfirm = 5

    /// The most unmeasured runs `--warmup` takes: each runs every variant once more, and a few warm any cache.
    static let maximumWarmup = 100

    /// The items of a comma-separated option, trimmed, empty ones kept so that `uwi,` can be refused.
    static func items(_ text: String) -> [String] {
        text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// A run refused before it measures, or an output it could not write: what is wrong and what to do.
    struct Refusal: Error, CustomStringConvertible {
        let description: String
    }

    /// What to pass to name another entity or property than the scenario setting `missing.key` gave.
    ///
    /// The decomposition reads ``ScenarioConfig/mapProperties`` through the summary entity as well as the
    /// entity, and the dictionary scenario through the entity alone: when the summary lacks them, no
    /// `--properties` may suit both, so the way out is to leave the decomposition out or name another summary.
    static func fix(for missing: BenchError.MissingName, config: ScenarioConfig) -> String {
        if missing.scenario == "decomposition", missing.key == "map_properties", missing.entity == config.summaryEntity,
           let summary = config.summaryEntity {
            let others = ScenarioCatalog.names.filter { $0 != "decomposition" }.joined(separator: ",")
            return "The decomposition reads --properties through both \(config.entity) and \(summary): name properties both have, "
                + "leave the decomposition out (--scenarios \(others)), or name a summary entity of \(config.entity) that has them "
                + "in a scenario file (summary_entity, details_relationship, lookup_key; docs/bench-schema.md, Scenario files)."
        }
        return fix(for: missing.key)
    }

    /// What to pass to name another entity or property than the scenario setting `key` gave.
    static func fix(for key: String) -> String {
        switch key {
        case "entity": "Name the entity with --entity (and its properties with --sort-key and --properties)."
        case "sort_key": "Name one with --sort-key."
        case "map_properties": "Name them with --properties, separated by commas."
        case "fault_attribute": "Name one with --fault-attribute (by default the sort key is read)."
        default: "Set \(key) in a scenario file (--scenario-file; docs/bench-schema.md, Scenario files)."
        }
    }

    /// Refuses, before measuring, a baseline whose variants match this run's by name but measured something
    /// else: other scenario settings or another store. CI needs a failure here, not a verdict: a warning
    /// above a passing exit code would let a meaningless comparison gate nothing. The message names each
    /// difference with both values, then the flags that match the baseline, or how to save a new one.
    func checkComparable(_ baseline: BenchReport, named compare: String, config: ScenarioConfig, built: [BenchScenario],
                         store opened: PersistentStore) throws {
        var rows: [String: Int] = [:]
        for name in Set(built.flatMap(\.entities)) {
            if let entity = opened.model.entity(named: name) { rows[name] = try opened.count(of: entity) }
        }
        let mismatches = BaselineComparison.mismatches(baseline: baseline, config: config, scenarios: built, rows: rows)
        guard !mismatches.isEmpty else { return }
        var fixes: [String] = []
        if let recorded = baseline.settings.scenarioConfig {
            let keys = mismatches.compactMap { if case .setting(let key) = $0.subject { key } else { nil } }
            let flags = keys.compactMap { Self.flag(for: $0, in: recorded) }
            if !flags.isEmpty { fixes.append("pass " + flags.joined(separator: " ")) }
            let unflagged = keys.filter { Self.flag(for: $0, in: recorded) == nil }
            if !unflagged.isEmpty { fixes.append("put \(recorded.scenarioFile(keys: unflagged)) in a scenario file (--scenario-file)") }
        }
        if mismatches.contains(where: { if case .rows = $0.subject { true } else { false } }) {
            fixes.append("measure the store the baseline measured (\(baseline.store.path))")
        }
        let resave = BaselineStore.isPath(compare)
            ? "write a new baseline report with --json \(compare)" : "save a new baseline with --save-baseline \(compare)"
        let differences: [String] = mismatches.map { "  \($0)" }
        let lines = ["--compare \(compare): the baseline measured with other settings or another store, so variants that match by name would compare different things:"]
            + differences
            + ["To compare like with like, \(fixes.joined(separator: "; ")). To keep this run's settings instead, \(resave), without --compare. Nothing was measured."]
        throw Refusal(description: lines.joined(separator: "\n"))
    }

    /// The flag and value that set the scenario setting `key` as `config` has it, when a flag sets it.
    static func flag(for key: String, in config: ScenarioConfig) -> String? {
        switch key {
        case "entity": "--entity \(config.entity)"
        case "sort_key": "--sort-key \(config.sortKey)"
        case "map_properties": "--properties \(config.mapProperties.joined(separator: ","))"
        case "fault_attribute": "--fault-attribute \(config.faultAttribute ?? config.sortKey)"
        case "fault_limit": "--fault-limit \(config.faultLimit)"
        default: nil
        }
    }

    /// Whether saving the baseline `name` would write the file `--compare` read (by name or by path).
    func replacesCompared(_ name: String, baselines: BaselineStore) -> Bool {
        guard let compare, let saved = try? baselines.url(for: name), let compared = try? baselines.file(for: compare) else { return false }
        return OutputPath.same(saved.path, compared.path)
    }

    /// The outputs this run writes, by option: the reports and the baseline it saves.
    func outputs(baselines: BaselineStore) -> [(option: String, path: String)] {
        var outputs = [("--json", json), ("--markdown", markdown), ("--html", html)].compactMap { option, path in path.map { (option: option, path: $0) } }
        if let saveBaseline, let url = try? baselines.url(for: saveBaseline) { outputs.append(("--save-baseline \(saveBaseline)", url.path)) }
        return outputs
    }

    /// Refuses, before anything is measured, an output that would replace the store, the scenario file,
    /// the baseline `--compare` reads or another output, or that cannot be written where it points.
    ///
    /// `--save-baseline` may replace the compared baseline: saving is asked for by name, and CI compares
    /// with `main` and saves `main` in one run. A report output may not: it would re-baseline silently.
    func checkOutputs(baselines: BaselineStore) throws(Refusal) {
        let outputs = outputs(baselines: baselines)
        let suggestion = ["--json": "bench.json", "--markdown": "bench.md", "--html": "bench.html"]
        var read = [("the store being measured", store)] + (scenarioFile.map { [("the scenario file --scenario-file", $0)] } ?? [])
        let compared = compare.flatMap { try? baselines.file(for: $0) }
        if let compare, let compared { read.append(("the baseline --compare \(compare) reads", compared.path)) }
        for (index, (option, path)) in outputs.enumerated() {
            // A stream (/dev/stdout, a pipe) is written as it is, never replaced: several outputs may share one.
            if OutputPath.isStream(path) { continue }
            let saves = option.hasPrefix("--save-baseline")
            for (role, other) in read where OutputPath.same(path, other) && !(saves && other == compared?.path) {
                // A named baseline has a flag for replacing it on purpose.
                let rebaseline = compare.flatMap { other == compared?.path && !BaselineStore.isPath($0)
                    ? " To make this run the new baseline, pass --save-baseline \($0) instead." : nil } ?? ""
                throw Refusal(description: "\(option) \(path) is \(role) (\(other)); the report would replace it. Give \(option) a path of its own, such as \(suggestion[option] ?? "another name").\(rebaseline) Nothing was measured.")
            }
            for (otherOption, other) in outputs[..<index] where OutputPath.same(path, other) {
                throw Refusal(description: "\(otherOption) \(other) and \(option) \(path) name the same file; one would replace the other. Give each a path of its own. Nothing was measured.")
            }
            if saves {
                try checkBaselineDirectory(baselines.directory, outputs: outputs.filter { !$0.option.hasPrefix("--save-baseline") })
                continue
            }
            if let problem = OutputPath.problem(writing: path) {
                throw Refusal(description: "\(option) \(path): \(problem). \(Self.advice(for: problem)) Nothing was measured.")
            }
        }
    }

    /// Refuses a baseline directory that neither is nor can be made a writable directory, or that a report
    /// output of the same run (`outputs`) would write as a file, at it or at a folder on its way.
    func checkBaselineDirectory(_ directory: URL, outputs: [(option: String, path: String)]) throws(Refusal) {
        let canonical = OutputPath.canonical(directory.path)
        for (option, path) in outputs where !OutputPath.isStream(path) {
            let file = OutputPath.canonical(path)
            if canonical == file || canonical.hasPrefix(file == "/" ? "/" : file + "/") {
                throw Refusal(description: "--baseline-dir \(baselineDirectory) would be a directory where \(option) \(path) writes a file, so --save-baseline \(saveBaseline ?? "") could not be saved. Give --baseline-dir or \(option) another path. Nothing was measured.")
            }
        }
        // The directory is made when the baseline is saved: its nearest existing ancestor must take it.
        var place = URL(fileURLWithPath: canonical)
        var isDirectory: ObjCBool = false
        while !FileManager.default.fileExists(atPath: place.path, isDirectory: &isDirectory), place.path != "/" {
            place.deleteLastPathComponent()
        }
        guard isDirectory.boolValue else {
            throw Refusal(description: "--baseline-dir \(baselineDirectory) cannot be made a directory for --save-baseline, as \(place.path) is a file. Choose another with --baseline-dir. Nothing was measured.")
        }
        guard FileManager.default.isWritableFile(atPath: place.path) else {
            throw Refusal(description: "--baseline-dir \(baselineDirectory) cannot be written for --save-baseline (\(place.path): permission denied). Choose another with --baseline-dir. Nothing was measured.")
        }
    }

    /// What to do about an output path that cannot be written.
    static func advice(for problem: OutputPath.Problem) -> String {
        switch problem {
        case .empty, .directory: "Name a file, such as bench.json."
        case .notWritable: "Name a file you can write."
        case .missingDirectory: "Create the directory first, or name a file in one that exists."
        case .notADirectory: "Name a file in a directory that exists."
        case .directoryNotWritable: "Name a file in a directory you can write."
        }
    }

    /// Writes one report output (a stream as it is; a file replaced whole), naming the option on failure.
    func write(_ data: Data, to path: String, option: String) throws(Refusal) {
        do { try OutputPath.write(data, to: path) } catch {
            throw Refusal(description: "\(option): \(error). The measurements were printed above.")
        }
    }

    /// What a store without the wells' shape leaves out, said before measuring (a user trial saw
    /// scenarios and variants missing from the report without a word): the decomposition without its
    /// summary entity, the faulting family's to-one variants without the relationship.
    static func skipped(built: [BenchScenario], chosen: [String], config: ScenarioConfig, model: ObjectModel) -> [String] {
        var notes: [String] = []
        let wanted = chosen.isEmpty ? ScenarioCatalog.names : chosen
        let lacks = ScenarioCatalog.decompositionLacks(in: model, config: config)
        if wanted.contains("decomposition"), !built.contains(where: { $0.name == "decomposition" }), !lacks.isEmpty,
           let summary = config.summaryEntity {
            let others = ScenarioCatalog.names.filter { $0 != "decomposition" }.joined(separator: ",")
            notes.append("decomposition skipped: \(summary) (summary_entity) has no \(lacks.joined(separator: ", ")) (--properties), which it would "
                         + "read through both \(config.entity) and \(summary); to run it, name properties both have, or a summary entity of "
                         + "\(config.entity) in a scenario file (summary_entity, details_relationship, lookup_key). "
                         + "--scenarios \(others) leaves it out without this note")
        } else if wanted.contains("decomposition"), !built.contains(where: { $0.name == "decomposition" }) {
            notes.append("decomposition skipped: the store has no entity \(config.summaryEntity ?? "(none named)") with a to-one "
                         + "\(config.detailsRelationship ?? "(none named)") to its details; name them in a scenario file (summary_entity, details_relationship, lookup_key)")
        }
        if wanted.contains("faulting"), let entity = model.entity(named: config.entity),
           config.relationship.map({ entity.relationship(named: $0)?.isToMany != false }) ?? true {
            notes.append("faulting: the to-one prefetching variants skipped: \(config.entity) has no to-one \(config.relationship ?? "(none named)"); "
                         + "name one in a scenario file (relationship, related_attribute)")
        }
        return notes
    }
}
