import Foundation
import Testing
@testable import FetchBench

/// A baseline made with other scenario settings or on another store: found before measuring, only where
/// it changes variants that match by name; a version 1 baseline, which records no settings, still compares.
@Suite struct BaselineMismatchTests {
    /// A scenario of variants named `variants`, reading `entities`, that does nothing.
    func scenario(_ name: String, _ variants: [String], entities: [String] = ["Well"]) -> BenchScenario {
        BenchScenario(name: name, question: "", variants: variants.map { BenchVariant(name: $0, note: "", run: { _ in }, raw: nil) },
                      entities: entities)
    }

    /// A baseline of the batch-size and faulting variants the scenarios below make, made with `config`.
    func baseline(_ config: ScenarioConfig = ScenarioConfig(), entities: [String: Int] = ["Well": 1000]) -> BenchReport {
        report([result("batch-size", "batch 20, first screen"), result("faulting", "object IDs only")], entities: entities, config: config)
    }

    var scenarios: [BenchScenario] {
        [scenario("batch-size", ["batch 20, first screen"]), scenario("faulting", ["object IDs only"], entities: ["Well", "Operator"])]
    }

    func sortedBy(_ key: String) -> ScenarioConfig {
        var config = ScenarioConfig()
        config.sortKey = key
        config.faultAttribute = "well_name"
        return config
    }

    @Test func theSameSettingsAndStoreCompare() {
        let mismatches = BaselineComparison.mismatches(baseline: baseline(), config: ScenarioConfig(), scenarios: scenarios,
                                                       rows: ["Well": 1000])
        #expect(mismatches.isEmpty)
        let comparison = BaselineComparison(baseline: baseline(), current: baseline(), thresholdPercent: 10)
        #expect(comparison.exitCode == 0)
        #expect(!comparison.notes.contains { $0.contains("scenario settings") })
    }

    @Test func anotherSortKeyIsNamedWithBothValuesAndTheFamilyItChanges() {
        let mismatches = BaselineComparison.mismatches(baseline: baseline(), config: sortedBy("uwi"), scenarios: scenarios,
                                                       rows: ["Well": 1000])
        #expect(mismatches == [.init(subject: .setting("sort_key"), baseline: "well_name", current: "uwi", scenarios: ["batch-size"])])
        #expect(mismatches.map(\.description) == ["sort_key: well_name in the baseline, uwi in this run (changes batch-size)"])
    }

    @Test func theFaultAttributeComparesAsItTakesEffect() {
        // By default the sort key is read: the same attribute named outright measures the same.
        var named = ScenarioConfig()
        named.faultAttribute = "well_name"
        #expect(BaselineComparison.mismatches(baseline: baseline(), config: named, scenarios: scenarios, rows: ["Well": 1000]).isEmpty)
        // A new sort key moves the default fault attribute with it: both families change.
        var moved = ScenarioConfig()
        moved.sortKey = "uwi"
        let names = BaselineComparison.mismatches(baseline: baseline(), config: moved, scenarios: scenarios, rows: ["Well": 1000]).map(\.name)
        #expect(names == ["sort_key", "fault_attribute"])
    }

    @Test func onlyFamiliesInBothCount() {
        // The run measures faulting alone: the sort key shapes no variant it shares with the baseline.
        let mismatches = BaselineComparison.mismatches(baseline: baseline(), config: sortedBy("uwi"), scenarios: [scenarios[1]],
                                                       rows: ["Well": 1000])
        #expect(mismatches.isEmpty)
    }

    @Test func settingsThatRenameTheirVariantsDoNotCount() {
        // Other batch sizes and another relationship make new and missing variants, never a false match.
        var config = ScenarioConfig()
        config.batchSizes = [0, 50]
        config.relationship = "field"
        #expect(BaselineComparison.mismatches(baseline: baseline(), config: config, scenarios: scenarios, rows: ["Well": 1000]).isEmpty)
        config.screen = 40
        #expect(BaselineComparison.mismatches(baseline: baseline(), config: config, scenarios: scenarios, rows: ["Well": 1000]).map(\.name)
                == ["screen"])
    }

    @Test func anotherRowCountOfAMeasuredEntityIsAMismatch() {
        let mismatches = BaselineComparison.mismatches(baseline: baseline(entities: ["Well": 1000, "Field": 3]), config: ScenarioConfig(),
                                                       scenarios: scenarios, rows: ["Well": 1500, "Operator": 40])
        #expect(mismatches.map(\.description) == [
            "rows of Well: 1,000 in the baseline, 1,500 in this run (changes batch-size, faulting)",
            "rows of Operator: no such entity in the baseline, 40 in this run (changes faulting)",
        ])
    }

    @Test func aVersionOneBaselineComparesWithANote() {
        let old = versionOne(baseline())
        // Its settings are unknown, so only the store is checked; it has the same rows.
        #expect(BaselineComparison.mismatches(baseline: old, config: sortedBy("uwi"), scenarios: [scenarios[0]], rows: ["Well": 1000]).isEmpty)
        let comparison = BaselineComparison(baseline: old, current: baseline(sortedBy("uwi")), thresholdPercent: 10)
        #expect(comparison.exitCode == 0)
        let notes = comparison.notes.filter { $0.contains("scenario settings") }
        #expect(notes == ["The baseline (schema version 1) does not record its scenario settings, so they could not be checked "
                          + "against this run's; save it again to have them checked."])
        #expect(!comparison.notes.contains { $0.contains("schema version 1, this run") }, "one note, not two")
        // The store is checked whatever the version.
        #expect(BaselineComparison.mismatches(baseline: old, config: ScenarioConfig(), scenarios: [scenarios[0]], rows: ["Well": 2000])
                .map(\.name) == ["rows of Well"])
    }

    @Test func aScenarioFileOfTheBaselinesValues() {
        var config = ScenarioConfig()
        config.mapProperties = ["uwi", "a/b"]
        #expect(config.scenarioFile(keys: ["screen", "map_properties", "lookup_key"])
                == #"{"screen": 20, "map_properties": ["uwi", "a/b"], "lookup_key": "uwi"}"#)
    }
}
