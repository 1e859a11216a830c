import Foundation

extension BaselineComparison {
    /// A difference between a baseline and a run that changes what variants in both measure, though their
    /// names still match: a scenario setting, or the rows of an entity the scenarios read.
    ///
    /// For example:
    ///
    /// ```swift
    /// print(mismatch)   // sort_key: well_name in the baseline, title in this run (changes batch-size)
    /// ```
    public struct Mismatch: Sendable, Equatable, CustomStringConvertible {
        /// What differs.
        public enum Subject: Sendable, Equatable {
            /// A scenario setting, by its scenario-file key (``ScenarioConfig/keys``): `sort_key`.
            case setting(String)
            /// The row count of an entity the scenarios read: the stores differ.
            case rows(entity: String)
        }
        /// What differs: a setting or an entity's rows.
        public var subject: Subject
        /// The baseline's value as a message shows it: `well_name`, `[uwi, well_name]`, `1,500`.
        public var baseline: String
        /// This run's value, shown the same way.
        public var current: String
        /// The scenario families, in both the baseline and the run, whose variants it changes.
        public var scenarios: [String]

        /// A difference in `subject`, from `baseline` to `current`, changing `scenarios`' variants.
        public init(subject: Subject, baseline: String, current: String, scenarios: [String]) {
            self.subject = subject
            self.baseline = baseline
            self.current = current
            self.scenarios = scenarios
        }

        /// The setting's key, or `rows of ENTITY`.
        public var name: String {
            switch subject {
            case .setting(let key): key
            case .rows(let entity): "rows of \(entity)"
            }
        }

        public var description: String {
            "\(name): \(baseline) in the baseline, \(current) in this run (changes \(scenarios.joined(separator: ", ")))"
        }
    }

    /// What differs between `baseline` and a run about to measure `scenarios`, made with `config`, on a
    /// store whose entities have `rows`, such that variants matched by name would measure different
    /// things; empty when the comparison means what it says.
    ///
    /// Only families with a variant in both count, and only the differences that change their variants
    /// without changing their names (``ScenarioConfig/scenariosChanged``): a scenario setting, compared
    /// as it takes effect, when the baseline records its settings (schema version 2; a version 1 baseline
    /// does not, and ``notes`` says so); and the row count of each entity those families read
    /// (``BenchScenario/entities``), which every version records. It is known before anything is
    /// measured, so `seedstore bench --compare` refuses a mismatch without spending a run on it.
    ///
    /// For example:
    ///
    /// ```swift
    /// let mismatches = BaselineComparison.mismatches(baseline: main, config: config, scenarios: scenarios,
    ///                                                rows: ["Well": 1500])
    /// for mismatch in mismatches { print(mismatch) }   // sort_key: well_name in the baseline, title in this run (changes batch-size)
    /// ```
    public static func mismatches(baseline: BenchReport, config: ScenarioConfig, scenarios: [BenchScenario],
                                  rows: [String: Int]) -> [Mismatch] {
        let compared = Set(baseline.results.map(\.key))
        let shared = scenarios.filter { scenario in scenario.variants.contains { compared.contains("\(scenario.name) / \($0.name)") } }
        let names = shared.map(\.name)
        var mismatches: [Mismatch] = []
        if let recorded = baseline.settings.scenarioConfig {
            for key in ScenarioConfig.keys {
                let changed = ScenarioCatalog.names.filter { (ScenarioConfig.scenariosChanged[key] ?? []).contains($0) && names.contains($0) }
                let before = recorded.text(of: key), after = config.text(of: key)
                if !changed.isEmpty && before != after {
                    mismatches.append(Mismatch(subject: .setting(key), baseline: before, current: after, scenarios: changed))
                }
            }
        }
        var entities: [String] = []
        for entity in shared.flatMap(\.entities) where !entities.contains(entity) { entities.append(entity) }
        for entity in entities where baseline.store.entities[entity] != rows[entity] {
            func show(_ count: Int?) -> String { count.map(BenchFormat.count) ?? "no such entity" }
            mismatches.append(Mismatch(subject: .rows(entity: entity), baseline: show(baseline.store.entities[entity]),
                                       current: show(rows[entity]), scenarios: shared.filter { $0.entities.contains(entity) }.map(\.name)))
        }
        return mismatches
    }
}
