import Foundation
import ManagedStore
import Measure

/// The fetch issue's speed targets, measured on a store (the generated 244,292 wells by default),
/// each next to raw sqlite3 fetching the same rows and columns in the same run:
/// a fully materialised fetch of every object at most 2.5x raw; a dictionary fetch of the map's 4
/// properties at most 1.5x raw's 4-column select and at least 3x faster than the full fetch; the
/// batch-size-20 first screen at most 1.3x raw (primary-key scan plus one 20-row select).
///
/// For example:
///
/// ```swift
/// let checks = try FetchSpeed(store: store).run()
/// print(SpeedCheck.table(checks))
/// ```
public struct FetchSpeed {
    /// The store the fetches run on.
    public let store: PersistentStore
    /// The entity and property names the fetches use; ``run(progress:)`` compares batch size 20 only.
    public var config: ScenarioConfig
    /// Measured runs per variant, after one warm-up run.
    public var runs: Int

    /// The fetch targets on `store`, named by `config` (the wells store's names by default), measured `runs` times.
    ///
    /// For example:
    ///
    /// ```swift
    /// var config = ScenarioConfig()
    /// config.entity = "Book"; config.sortKey = "title"; config.mapProperties = ["title", "author"]
    /// let speed = FetchSpeed(store: store, config: config, runs: 3)
    /// ```
    public init(store: PersistentStore, config: ScenarioConfig = ScenarioConfig(), runs: Int = 5) {
        self.store = store
        self.config = config
        self.runs = runs
    }

    /// Measures the whole-object fetch, the dictionary fetch and the batch-size-20 first screen, each next to
    /// its raw reference, and returns a check per target; `progress` is told each variant as it starts.
    ///
    /// Throws ``BenchError/storeLacks(_:)`` when the store lacks an entity or property that `config` names.
    ///
    /// For example:
    ///
    /// ```swift
    /// let checks = try FetchSpeed(store: store, runs: 5).run { print("speed: \($0)") }
    /// print(SpeedCheck.table(checks))
    /// ```
    public func run(progress: @escaping (String) -> Void = { _ in }) throws -> [SpeedCheck] {
        var config = self.config
        config.batchSizes = [20]
        let scenarios = try ScenarioCatalog.make(for: store, config: config, only: ["dictionary", "batch-size"])
        let picked = scenarios.map { scenario in
            BenchScenario(name: scenario.name, question: scenario.question,
                          variants: scenario.variants.filter { $0.name == "whole objects" || $0.name.hasSuffix("as dictionaries") || $0.name == "batch 20, first screen" },
                          entities: scenario.entities)
        }
        let runner = BenchRunner(runs: runs, warmupRuns: 1, minimumRuns: runs, timeBudgetSeconds: 120, progress: progress)
        let raw = try RawDatabase(path: store.path, readOnly: true)
        // Every run's timings, engine and raw: the table's spread of runs and the JSON's samples need them.
        var measured: [(result: BenchResult, timings: Statistics, raw: Statistics?)] = []
        for scenario in picked {
            for variant in scenario.variants {
                progress("\(scenario.name) / \(variant.name)")
                measured.append(try runner.measurement(variant, of: scenario, store: store, raw: raw))
            }
        }
        func result(_ suffix: String) -> BenchResult? { measured.first { $0.result.variant.hasSuffix(suffix) || $0.result.variant == suffix }?.result }
        func stats(_ r: BenchResult, raw: Bool = false) -> Statistics {
            let found = measured.first { $0.result.key == r.key }
            return (raw ? found?.raw : found?.timings) ?? Statistics([])
        }
        /// The note a ratio below ``BenchReporter/suspectRatio`` gets, as the bench table marks it `?`.
        func suspect(_ r: BenchResult) -> [String] {
            BenchReporter.isSuspect(r)
                ? ["ratio below \(String(format: "%g", BenchReporter.suspectRatio))x, suspect: the engine runs the raw statements and more, so a raw run was likely slowed; measure again with more --runs"]
                : []
        }
        var checks: [SpeedCheck] = []
        let objects = store.model.entity(named: config.entity).map { (try? store.count(of: $0)) ?? 0 } ?? 0
        if let full = result("whole objects") {
            checks.append(SpeedCheck(name: "fetch all \(BenchFormat.count(objects)) \(config.entity) objects, materialised", measured: stats(full),
                                     reference: stats(full, raw: true), referenceName: "raw SELECT *", target: .atMost(2.5),
                                     notes: ["\(full.statements) statement(s), \(BenchFormat.count(full.objects)) objects"] + suspect(full)))
            if let rows = result("as dictionaries") {
                checks.append(SpeedCheck(name: "\(config.mapProperties.count) properties as dictionaries", measured: stats(rows),
                                         reference: stats(rows, raw: true), referenceName: "raw \(config.mapProperties.count)-column SELECT",
                                         target: .atMost(1.5), notes: ["\(rows.statements) statement(s), \(BenchFormat.count(rows.objects)) objects"] + suspect(rows)))
                checks.append(SpeedCheck(name: "dictionaries vs the full fetch", measured: stats(rows), reference: stats(full),
                                         referenceName: "full fetch", target: .atLeastFaster(3)))
            }
        }
        if let screen = result("batch 20, first screen") {
            checks.append(SpeedCheck(name: "batch size 20, first screen of \(config.screen)", measured: stats(screen),
                                     reference: stats(screen, raw: true), referenceName: "raw key scan + 20-row SELECT",
                                     target: .atMost(1.3), notes: ["\(screen.statements) statement(s)"] + suspect(screen)))
        }
        return checks
    }
}
