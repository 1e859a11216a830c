import ArgumentParser
import FetchBench
import Foundation
import ManagedStore
import Measure

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

            Exit status with --compare: 0 unchanged, 2 regression, 4 improvement only; 1 when the baseline is missing.
            """
    )

    @Argument(help: "The store to measure (the generated wells store fits the defaults).")
    var store: String

    @Option(help: "Scenario families to run, separated by commas (default: all).")
    var scenarios: String?

    @Option(parsing: .unconditional, help: "Measured runs per variant (fewer when timings are stable or the budget runs out).")
    var runs: Int = 5

    @Option(name: .customLong("time-budget"), parsing: .unconditional, help: "Seconds one variant may take once it has 3 runs.")
    var timeBudget: Double = 5

    @Option(parsing: .unconditional, help: "Unmeasured runs before measuring (the counting run already warms caches).")
    var warmup: Int = 0

    @Option(name: .customLong("scenario-file"), help: "A JSON scenario file naming the entity and properties to use.")
    var scenarioFile: String?

    @Option(help: "The entity to fetch (overrides the scenario file).")
    var entity: String?

    @Option(name: .customLong("sort-key"), help: "The attribute lists sort by.")
    var sortKey: String?

    @Option(help: "The properties a map needs, separated by commas.")
    var properties: String?

    @Option(name: .customLong("fault-limit"), parsing: .unconditional, help: "At most this many objects in the N+1 variants.")
    var faultLimit: Int?

    @Option(help: "Write the report as JSON.")
    var json: String?

    @Option(help: "Write the report as Markdown.")
    var markdown: String?

    @Option(help: "Write a self-contained HTML page with charts.")
    var html: String?

    @Option(name: .customLong("save-baseline"), help: "Save the results as a named baseline.")
    var saveBaseline: String?

    @Option(help: "Compare with a named baseline (or a report JSON file).")
    var compare: String?

    @Option(parsing: .unconditional, help: "With --compare: the timing change, in percent, that counts (counters compare exactly).")
    var threshold: Double = 10

    @Option(name: .customLong("baseline-dir"), help: "Where named baselines live.")
    var baselineDirectory: String = ".seedstore/baselines"

    @Flag(help: "No progress output.")
    var quiet = false

    func validate() throws {
        guard runs >= 1 else { throw ValidationError("--runs takes 1 or more") }
        guard threshold >= 0 else { throw ValidationError("--threshold takes a percentage of 0 or more") }
        guard warmup >= 0 else { throw ValidationError("--warmup takes 0 or more") }
        guard timeBudget >= 0 else { throw ValidationError("--time-budget takes seconds, 0 or more") }
        if let faultLimit, faultLimit < 1 { throw ValidationError("--fault-limit takes 1 or more") }
    }

    func run() throws {
        #if DEBUG
        if !quiet { printError("warning: a debug build; measure with -c release for meaningful figures") }
        #endif
        var config = try scenarioFile.map(ScenarioConfig.load) ?? ScenarioConfig()
        if let entity { config.entity = entity }
        if let sortKey { config.sortKey = sortKey }
        if let properties { config.mapProperties = QueryCommand.list(properties) }
        if let faultLimit { config.faultLimit = faultLimit }
        let opened = try PersistentStore(path: store, options: .init(readOnly: true, create: false))
        let chosen = QueryCommand.list(scenarios)
        let built = try ScenarioCatalog.make(for: opened, config: config, only: chosen)
        let progress = BenchProgress(quiet: quiet, total: built.reduce(0) { $0 + $1.variants.count })
        var runner = BenchRunner(runs: runs, warmupRuns: warmup, timeBudgetSeconds: timeBudget, progress: { progress.update($0) })
        runner.runProgress = { index, name, run, runs in progress.update(index: index, of: nil, name: name, run: run, runs: runs) }
        let report = try runner.run(built, store: opened)
        progress.finish()
        print(BenchReporter.table(report))
        if let overhead = report.settings.harnessOverheadSeconds, let smallest = report.results.map(\.medianSeconds).min(), smallest > 0 {
            print(String(format: "harness overhead: %.1f µs per measured run (%.3f%% of the smallest median)", overhead * 1e6, overhead / smallest * 100))
        }
        var comparison: BaselineComparison?
        let baselines = BaselineStore(directory: URL(fileURLWithPath: baselineDirectory))
        if let compare {
            let baseline = try baselines.load(compare)
            comparison = BaselineComparison(baseline: baseline, current: report, thresholdPercent: threshold)
        }
        if let json { try report.write(to: URL(fileURLWithPath: json)) }
        if let markdown { try BenchReporter.markdown(report, comparison: comparison).write(toFile: markdown, atomically: true, encoding: .utf8) }
        if let html { try BenchReporter.html(report, comparison: comparison).write(toFile: html, atomically: true, encoding: .utf8) }
        if let saveBaseline {
            try baselines.save(report, as: saveBaseline)
            printError("saved baseline '\(saveBaseline)' in \(baselineDirectory)")
        }
        if let comparison {
            print("")
            print(comparison.render())
            let code = comparison.exitCode
            if code != 0 { throw ExitCode(code) }
        }
    }
}
