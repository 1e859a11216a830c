import Foundation
import ManagedStore
import Measure

/// Runs scenarios: a warm-up, then measured runs interleaved with the raw reference, as many as asked unless
/// the time budget is spent first; exact counters and peak memory per variant.
///
/// Every variant gets all its runs: a spread measured on three quiet runs says little about the next
/// process's, and stopping there made an unchanged build fail a baseline comparison.
///
/// For example:
///
/// ```swift
/// let runner = BenchRunner(runs: 5)
/// let config = ScenarioConfig()
/// let report = try runner.run(try ScenarioCatalog.make(for: store, config: config), store: store, config: config)
/// print(BenchReporter.table(report))
/// ```
public struct BenchRunner {
    /// The measured runs per variant (fewer only when the time budget runs out).
    public var runs: Int
    /// Runs before measuring, to warm caches.
    public var warmupRuns: Int
    /// The fewest measured runs, whatever the time budget (at most ``runs``).
    public var minimumRuns: Int
    /// Seconds a variant may take (engine and raw together) before the runner stops measuring it.
    public var timeBudgetSeconds: Double
    /// Told what is running.
    public var progress: (String) -> Void
    /// Told each measured run: variant number (1-based), `scenario / variant`, run number, most runs.
    public var runProgress: ((Int, String, Int, Int) -> Void)?

    /// The run that counts statements comes first and warms the engine's caches, and one unmeasured raw run
    /// warms the raw side's, so by default there is no separate warm-up.
    public init(runs: Int = 5, warmupRuns: Int = 0, minimumRuns: Int = 3, timeBudgetSeconds: Double = 5,
                progress: @escaping (String) -> Void = { _ in }) {
        self.runs = max(1, runs)
        self.warmupRuns = max(0, warmupRuns)
        self.minimumRuns = max(1, min(minimumRuns, runs))
        self.timeBudgetSeconds = timeBudgetSeconds
        self.progress = progress
    }

    /// Runs `scenarios` on `store` and reports every variant, with `config`, the settings `scenarios` were
    /// made with, recorded in the report's settings so a comparison can tell whether it measured the same.
    public func run(_ scenarios: [BenchScenario], store: PersistentStore, config: ScenarioConfig) throws -> BenchReport {
        // To the millisecond, as a run's start is worth stating: the clock's full Double would print
        // seven fraction digits of noise.
        let created = ISO8601.string(from: Date(timeIntervalSinceReferenceDate: (Date().timeIntervalSinceReferenceDate * 1000).rounded(.down) / 1000))
        let raw = try RawDatabase(path: store.path, readOnly: true)
        var results: [BenchResult] = []
        let total = scenarios.reduce(0) { $0 + $1.variants.count }
        var done = 0
        for scenario in scenarios {
            for variant in scenario.variants {
                done += 1
                let name = "\(scenario.name) / \(BenchResult.label(scenario: scenario.name, variant: variant.name))"
                if let runProgress { runProgress(done, name, 0, runs) } else { progress("\(done)/\(total) \(name)") }
                results.append(try measure(variant, of: scenario, store: store, raw: raw) { run in runProgress?(done, name, run, runs) })
            }
        }
        var entities: [String: Int] = [:]
        for entity in store.model.entities { entities[entity.name] = try store.count(of: entity) }
        let size = (try? FileManager.default.attributesOfItem(atPath: store.path)[.size] as? Int) ?? 0
        return BenchReport(
            tool: "seedstore \(PersistentStore.version)", createdAt: created, machine: .current,
            store: .init(path: store.path, sizeBytes: size, entities: entities, indexes: try BenchReport.StoreInfo.indexes(of: raw)),
            settings: .init(runs: runs, warmupRuns: warmupRuns, timeBudgetSeconds: timeBudgetSeconds,
                            scenarios: scenarios.map(\.name), scenarioConfig: config,
                            harnessOverheadSeconds: try overhead(store: store)),
            results: results)
    }

    /// Measures again the variant of `scenarios` that `result` reports, as ``run(_:store:config:)`` did.
    ///
    /// For example:
    ///
    /// ```swift
    /// let again = try runner.remeasure(report.results[0], in: scenarios, store: store)
    /// ```
    public func remeasure(_ result: BenchResult, in scenarios: [BenchScenario], store: PersistentStore) throws -> BenchResult {
        guard let scenario = scenarios.first(where: { $0.name == result.scenario }),
              let variant = scenario.variants.first(where: { $0.name == result.variant }) else {
            throw BenchError.notMeasured(key: result.key)
        }
        progress("re-measuring \(result.scenario) / \(result.label)")
        let raw = try RawDatabase(path: store.path, readOnly: true)
        return try measure(variant, of: scenario, store: store, raw: raw)
    }

    /// What one run of `variant` in a fresh context costs: statements, rows, objects and faults.
    static func counters(of variant: BenchVariant, store: PersistentStore) throws -> RunCounters {
        let context = ManagedObjectContext(store: store)
        let before = store.connection.stats
        try variant.run(context)
        let used = store.connection.stats - before
        var counters = RunCounters()
        counters.statements = used.statements
        counters.rows = used.rows
        counters.objects = context.objectsMaterialized
        counters.faults = context.faultsFired
        return counters
    }

    /// Measures one variant and its raw reference.
    func measure(_ variant: BenchVariant, of scenario: BenchScenario, store: PersistentStore, raw: RawDatabase,
                 onRun: (Int) -> Void = { _ in }) throws -> BenchResult {
        try measurement(variant, of: scenario, store: store, raw: raw, onRun: onRun).result
    }

    /// One variant's result with every run's timings, engine and raw (a report keeps only their summary).
    func measurement(_ variant: BenchVariant, of scenario: BenchScenario, store: PersistentStore, raw: RawDatabase,
                     onRun: (Int) -> Void = { _ in }) throws -> (result: BenchResult, timings: Statistics, raw: Statistics?) {
        for _ in 0..<warmupRuns {
            try variant.run(ManagedObjectContext(store: store))
            try variant.raw?(raw)
        }
        // One run for the counters, outside the timings: it also warms the engine's caches (its statements,
        // SQLite's page cache), so by default there is no separate warm-up.
        let counters = try Self.counters(of: variant, store: store)
        // The raw side reads through its own connection, whose caches that run did not warm: one unmeasured
        // raw run, or the first variant's raw timings would include its cold start (ratios of 0.1x).
        if warmupRuns == 0 { try variant.raw?(raw) }

        var timings: [Double] = [], rawTimings: [Double] = []
        let started = Clock.now()
        while timings.count < runs {
            // Interleave engine and raw so drift on a shared machine hits both alike.
            onRun(timings.count + 1)
            let fresh = ManagedObjectContext(store: store)
            let start = Clock.now()
            try variant.run(fresh)
            timings.append(Clock.now() - start)
            withExtendedLifetime(fresh) {}
            if let rawRun = variant.raw {
                let rawStart = Clock.now()
                try rawRun(raw)
                rawTimings.append(Clock.now() - rawStart)
            }
            if timings.count >= minimumRuns && Clock.now() - started > timeBudgetSeconds { break }
        }
        // Peak memory on a steady-state run of its own, after the timed ones (the counting run paid the
        // one-time costs: compiled statements, the page cache), so it is the same whatever the warm-up or the
        // order. Freed memory is handed back first, so resident growth shows what this run allocates; it is
        // untimed and comes last, as handing memory back makes the runs after it fault their pages in again
        // (before, the run measured so was every variant's slowest).
        ProcessMemory.releaseFreedMemory()
        ProcessMemory.resetPeak()
        let resident = ProcessMemory.residentBytes ?? 0
        do {
            let fresh = ManagedObjectContext(store: store)
            try variant.run(fresh)
            withExtendedLifetime(fresh) {}
        }
        let peak = ProcessMemory.peakResidentBytes.map { max(0, $0 - resident) }
        let engine = Statistics(timings), reference = rawTimings.isEmpty ? nil : Statistics(rawTimings)
        let result = BenchResult(scenario: scenario.name, variant: variant.name, timings: engine, raw: reference,
                                 statements: counters.statements, rows: counters.rows, objects: counters.objects, faults: counters.faults,
                                 peakMemoryBytes: peak, note: variant.note, rawReference: variant.rawReference, covers: variant.covers)
        return (result, engine, reference)
    }

    /// The time the runner adds around one measured operation: a fresh context and two clock reads.
    func overhead(store: PersistentStore) throws -> Double {
        var samples: [Double] = []
        for _ in 0..<200 {
            let start = Clock.now()
            let context = ManagedObjectContext(store: store)
            withExtendedLifetime(context) {}
            samples.append(Clock.now() - start)
        }
        return Statistics(samples).median
    }
}
