import Foundation
import Measure
import Testing
@testable import FetchBench

/// The comparison rules: counters exactly, timings beyond both threshold and noise, new and missing
/// variants, and the exit codes.
@Suite struct BaselineComparisonTests {
    func compare(_ old: [BenchResult], _ new: [BenchResult], threshold: Double = 10, k: Double = 3) -> BaselineComparison {
        BaselineComparison(baseline: report(old), current: report(new), thresholdPercent: threshold, noiseFactor: k)
    }

    @Test func identicalRunsAreUnchanged() {
        let comparison = compare([result()], [result()])
        #expect(comparison.entries.map(\.verdict) == [.unchanged])
        #expect(comparison.entries[0].reasons.isEmpty)
        #expect(comparison.exitCode == 0)
    }

    @Test func anyCounterIncreaseIsARegression() {
        let comparison = compare([result(statements: 2)], [result(statements: 3)])
        #expect(comparison.entries[0].verdict == .regression)
        #expect(comparison.entries[0].reasons == ["statements 2 → 3"])
        #expect(comparison.exitCode == 2)
    }

    @Test func everyCounterIsGated() {
        for (old, new, reason) in [
            (result(rows: 100), result(rows: 101), "rows 100 → 101"),
            (result(objects: 100), result(objects: 101), "objects 100 → 101"),
            (result(faults: 0), result(faults: 1), "faults 0 → 1"),
        ] {
            let entry = compare([old], [new]).entries[0]
            #expect(entry.verdict == .regression)
            #expect(entry.reasons == [reason])
        }
    }

    @Test func counterDecreaseAloneIsAnImprovement() {
        let comparison = compare([result(statements: 201, faults: 200)], [result(statements: 2, faults: 0)])
        #expect(comparison.entries[0].verdict == .improvement)
        #expect(comparison.entries[0].reasons == ["statements 201 → 2", "faults 200 → 0"])
        #expect(comparison.exitCode == 4)
    }

    @Test func timingBeyondThresholdAndNoiseRegresses() throws {
        // Ratio 1.25x → 1.5625x (+25%); about 3% noise a side makes a band of ±20%, short of the change.
        let comparison = compare([result(median: 0.010, rawMedian: 0.008)], [result(median: 0.0125, rawMedian: 0.008)])
        let entry = comparison.entries[0]
        #expect(entry.verdict == .regression)
        let timing = try #require(entry.timing)
        #expect(timing.metric == .ratioToRaw)
        #expect(timing.isSignificant)
        #expect(entry.reasons.count == 1)
        #expect(entry.reasons[0].hasPrefix("ratio to raw 1.25x → 1.56x (+25%, noise ±"))
        #expect(comparison.exitCode == 2)
    }

    /// A check of the fixes: with one run, a run 5x slower was "15 unchanged (exit 0)" and the note said "rough".
    @Test("timings from fewer than 3 runs are said to be not judged, so 'unchanged' is not read as a timing verdict")
    func unjudgedTimingsAreSaidSo() {
        func once(_ median: Double) -> BenchResult {
            BenchResult(scenario: "faulting", variant: "faults (N+1)", timings: Statistics([median]), raw: Statistics([0.008]),
                        statements: 2, rows: 100, objects: 100, faults: 0, peakMemoryBytes: nil)
        }
        let comparison = compare([once(0.010)], [once(0.050)])
        #expect(comparison.exitCode == 0)
        #expect(comparison.notes.contains { $0.hasPrefix("1 variant(s) have timings from fewer than 3 runs on one side: their timings are NOT judged") },
                "\(comparison.notes)")
    }

    /// A check of this session's fixes: the engine 3% slower, its raw run slowed to make 0.54x, was an improvement.
    @Test("a ratio either run marks suspect (below 0.9x) decides nothing alone: the median must agree")
    func suspectRatiosNeedTheMedian() throws {
        let comparison = compare([result(median: 0.0100, rawMedian: 0.0064)], [result(median: 0.0103, rawMedian: 0.0190)])
        let entry = comparison.entries[0]
        #expect(entry.timing?.metric == .ratioToRaw && entry.timing?.isSuspect == true)
        #expect(entry.verdict == .unchanged, "\(entry.reasons)")
        #expect(comparison.exitCode == 0)
    }

    @Test func noiseBandFollowsTheDocumentedRule() throws {
        let old = result(median: 0.010, spread: 0.0003, rawMedian: 0.008, rawSpread: 0.0002)
        let new = result(median: 0.013, spread: 0.0004, rawMedian: 0.008, rawSpread: 0.0001)
        let timing = try #require(compare([old], [new]).entries[0].timing)
        let oldRatio = try #require(old.ratioToRaw), newRatio = try #require(new.ratioToRaw)
        let madOld = oldRatio * (old.noise + (old.rawNoise ?? 0)), madNew = newRatio * (new.noise + (new.rawNoise ?? 0))
        #expect(abs(timing.noiseBand - 3 * (madOld + madNew) / oldRatio) < 1e-12)
        #expect(abs(timing.change - (newRatio - oldRatio) / oldRatio) < 1e-12)
        #expect(timing.isSignificant == (abs(timing.change) > 0.10 && abs(newRatio - oldRatio) > 3 * (madOld + madNew)))
    }

    @Test func timingBeyondThresholdButWithinNoiseIsUnchanged() throws {
        // +25% on runs that scatter by 20% of the median: the band is far wider than the change.
        let noisyOld = result(median: 0.010, spread: 0.002, rawMedian: 0.008)
        let noisyNew = result(median: 0.0125, spread: 0.0025, rawMedian: 0.008)
        let comparison = compare([noisyOld], [noisyNew])
        let entry = comparison.entries[0]
        #expect(entry.verdict == .unchanged)
        #expect(try #require(entry.timing).isSignificant == false)
        #expect(entry.reasons.count == 1 && entry.reasons[0].contains("within noise"))
        #expect(comparison.exitCode == 0)
        // Without the noise rule (k = 0) the same change is a regression.
        #expect(compare([noisyOld], [noisyNew], k: 0).exitCode == 2)
    }

    @Test func timingWithinThresholdIsUnchangedEvenWhenQuiet() {
        // +5% with almost no noise: beyond the noise, inside a 10% threshold.
        let old = result(median: 0.010, spread: 0.00001, rawSpread: 0.000001)
        let new = result(median: 0.0105, spread: 0.00001, rawSpread: 0.000001)
        let comparison = compare([old], [new])
        #expect(comparison.entries[0].verdict == .unchanged)
        #expect(comparison.entries[0].reasons.isEmpty)
        // The same change against a 2% threshold is a regression: the noise alone would not hold it back.
        #expect(compare([old], [new], threshold: 2).exitCode == 2)
    }

    @Test func aSlowerMachineDoesNotRegressTheRatio() throws {
        // Everything twice as slow, engine and raw alike: the ratio holds.
        let comparison = compare([result(median: 0.010, rawMedian: 0.008)], [result(median: 0.020, spread: 0.0004, rawMedian: 0.016, rawSpread: 0.0002)])
        #expect(comparison.entries[0].verdict == .unchanged)
        #expect(try #require(comparison.entries[0].timing).metric == .ratioToRaw)
    }

    @Test func withoutARawReferenceTheMedianCompares() throws {
        let comparison = compare([result(median: 0.010, rawMedian: nil)], [result(median: 0.015, rawMedian: nil)])
        let entry = comparison.entries[0]
        #expect(try #require(entry.timing).metric == .medianSeconds)
        #expect(entry.verdict == .regression)
        #expect(entry.reasons[0].hasPrefix("median 10.00 ms → 15.00 ms (+50%, noise ±"))
        // One side without raw: the median too.
        #expect(try #require(compare([result(rawMedian: nil)], [result()]).entries[0].timing).metric == .medianSeconds)
    }

    @Test func fasterTimingIsAnImprovement() {
        let comparison = compare([result(median: 0.020)], [result(median: 0.010)])
        #expect(comparison.entries[0].verdict == .improvement)
        #expect(comparison.entries[0].reasons[0].contains("(-50%"))
        #expect(comparison.exitCode == 4)
    }

    @Test func anyRegressionOutweighsImprovements() {
        let comparison = compare(
            [result("faulting", "a", statements: 5), result("faulting", "b", median: 0.010)],
            [result("faulting", "a", statements: 3), result("faulting", "b", median: 0.020)])
        #expect(comparison.entries.map(\.verdict) == [.improvement, .regression])
        #expect(comparison.exitCode == 2)
        // Within one variant too: fewer statements but much slower.
        #expect(compare([result(median: 0.010, statements: 5)], [result(median: 0.020, statements: 3)]).entries[0].verdict == .regression)
    }

    @Test func newAndMissingVariantsAreReportedNotGated() {
        let comparison = compare([result("faulting", "kept"), result("faulting", "dropped")], [result("faulting", "kept"), result("faulting", "added")])
        #expect(comparison.entries.map(\.variant) == ["kept", "added", "dropped"])
        #expect(comparison.entries.map(\.verdict) == [.unchanged, .new, .missing])
        #expect(comparison.entries[1].old == nil && comparison.entries[1].new != nil)
        #expect(comparison.entries[2].old != nil && comparison.entries[2].new == nil)
        #expect(comparison.exitCode == 0)
        #expect(comparison.summary == "0 regressions, 0 improvements, 1 unchanged, 1 new, 1 missing (exit 0)")
    }

    @Test func exitCodesMatchPackageBenchmark() {
        #expect(BaselineComparison.ExitCode.unchanged == 0)
        #expect(BaselineComparison.ExitCode.failure == 1)
        #expect(BaselineComparison.ExitCode.regression == 2)
        #expect(BaselineComparison.ExitCode.improvement == 4)
    }

    @Test func variantsMatchOnScenarioAndVariant() {
        let comparison = compare([result("batch-size", "x")], [result("faulting", "x")])
        #expect(comparison.entries.map(\.verdict) == [.new, .missing])
    }

    @Test func renderListsVerdictsReasonsAndCounts() {
        let comparison = compare(
            [result("faulting", "worse", statements: 2), result("faulting", "better", faults: 9), result("faulting", "same"), result("faulting", "gone")],
            [result("faulting", "worse", statements: 3), result("faulting", "better", faults: 0), result("faulting", "same"), result("faulting", "fresh")])
        let text = comparison.render()
        for needle in ["REGRESSION", "faulting / worse", "statements 2 → 3", "improvement", "faults 9 → 0", "unchanged", "faulting / same",
                       "new", "faulting / fresh", "missing", "faulting / gone", "1 regression, 1 improvement, 1 unchanged, 1 new, 1 missing (exit 2)"] {
            #expect(text.contains(needle), "render() lacks \(needle)")
        }
        // Regressions are listed first.
        let lines = text.split(separator: "\n")
        #expect(lines.firstIndex { $0.hasPrefix("REGRESSION") }! < lines.firstIndex { $0.hasPrefix("improvement") }!)
    }

    @Test func notesFlagDifferentStoresAndMachines() {
        let comparison = BaselineComparison(baseline: report([result(rawMedian: nil)], host: "a", entities: ["Well": 10]),
                                            current: report([result(rawMedian: nil)], host: "b", entities: ["Well": 20]),
                                            thresholdPercent: 10)
        #expect(comparison.notes.count == 2)
        #expect(comparison.notes[0].contains("stores differ"))
        #expect(comparison.notes[1].contains("different machines"))
    }
}

/// A timing resting on one or two runs has no noise estimate, so it cannot regress; counters still do.
@Suite struct BaselineFewRunsTests {
    func single(_ median: Double, statements: Int = 2) -> BenchResult {
        BenchResult(scenario: "faulting", variant: "N+1", timings: Statistics([median]), raw: Statistics([0.001]),
                    statements: statements, rows: 10, objects: 10, faults: 10, peakMemoryBytes: nil)
    }

    func report(_ results: [BenchResult]) -> BenchReport {
        BenchReport(tool: "seedstore", createdAt: "2026-01-01T00:00:00Z", machine: .init(cores: 2, memoryBytes: 1, os: "x", hostname: "h"),
                    store: .init(path: "s", sizeBytes: 1, entities: ["Well": 10]),
                    settings: .init(runs: 1, warmupRuns: 0, timeBudgetSeconds: 5, scenarios: ["faulting"], scenarioConfig: ScenarioConfig()),
                    results: results)
    }

    @Test func singleRunTimingsDoNotGate() {
        let comparison = BaselineComparison(baseline: report([single(0.001)]), current: report([single(0.010)]), thresholdPercent: 10)
        #expect(comparison.entries.map(\.verdict) == [.unchanged])
        #expect(comparison.exitCode == 0)
        #expect(comparison.entries[0].reasons.contains { $0.contains("too few runs to judge (1)") })
    }

    @Test func singleRunCountersStillGate() {
        let comparison = BaselineComparison(baseline: report([single(0.001)]), current: report([single(0.001, statements: 3)]), thresholdPercent: 10)
        #expect(comparison.entries.map(\.verdict) == [.regression])
        #expect(comparison.exitCode == 2)
    }
}
