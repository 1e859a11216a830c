import Foundation
import ManagedStore
import Measure
import Testing
@testable import FetchBench

/// From the bench-gate trial (helper-69): an unchanged build failed `--compare` in 2 of 5 runs. Variants
/// stopped after 3 quiet-looking runs, a suspect ratio fell back to medians that a busier machine moves,
/// and one disturbed measurement decided a verdict alone.
@Suite("Gate stability: all runs measured, suspect ratios need the median, changes must show twice")
struct GateStabilityTests {
    func compare(_ old: [BenchResult], _ new: [BenchResult]) -> BaselineComparison {
        BaselineComparison(baseline: report(old), current: report(new), thresholdPercent: 10)
    }

    @Test("--runs is the number of measured runs: quiet timings no longer stop a variant after 3")
    func everyRunIsMeasured() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try BenchTrialKTests.store(in: directory, count: 10)
        let raw = try RawDatabase(path: store.path, readOnly: true)
        // A variant as steady as a variant gets: before, its spread under 2% ended it after 3 runs.
        let variant = BenchVariant(name: "steady", note: "", run: { _ in usleep(2_000) }, raw: { _ in usleep(2_000) })
        let scenario = BenchScenario(name: "test", question: "", variants: [variant])
        let measured = try BenchRunner(runs: 7, timeBudgetSeconds: 60).measure(variant, of: scenario, store: store, raw: raw)
        #expect(measured.runs == 7)
        // The time budget still ends a slow variant, after 3 runs.
        let budgeted = try BenchRunner(runs: 7, timeBudgetSeconds: 0).measure(variant, of: scenario, store: store, raw: raw)
        #expect(budgeted.runs == 3)
    }

    /// `speed fetch` showed the run that measures memory as every variant's slowest (it hands freed memory
    /// back first, so it faults its pages in again): it now runs last, untimed.
    @Test("peak memory is measured on a run of its own after the timed ones, untimed")
    func memoryRunIsUntimedAndLast() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try BenchTrialKTests.store(in: directory, count: 10)
        let raw = try RawDatabase(path: store.path, readOnly: true)
        final class Calls: @unchecked Sendable { var count = 0 }
        let calls = Calls()
        // The counting run, 4 timed runs, then the memory run, which is slow here.
        let variant = BenchVariant(name: "v", note: "", run: { _ in
            calls.count += 1
            if calls.count == 6 { usleep(400_000) }
        }, raw: { _ in })
        let measured = try BenchRunner(runs: 4, timeBudgetSeconds: 60).measure(variant, of: BenchScenario(name: "t", question: "", variants: [variant]),
                                                                                 store: store, raw: raw)
        #expect(calls.count == 6)
        // Well under the memory run's 0.4 s, with room for a machine busy with other tests.
        #expect(measured.runs == 4 && measured.maxSeconds < 0.2, "the memory run is not timed: \(measured.maxSeconds)")
    }

    @Test("a suspect ratio and a busier machine: the ratio held, the median rose 30%; unchanged (it was a regression)")
    func suspectRatioDoesNotFallBackToMedians() throws {
        // The engine truly reads these rows faster than the raw reader (0.8x), on both runs.
        let old = result(median: 0.0080, rawMedian: 0.0100)
        let new = result(median: 0.0104, rawMedian: 0.0130)
        let comparison = compare([old], [new])
        let entry = comparison.entries[0]
        #expect(entry.verdict == .unchanged, "\(entry.reasons)")
        let timing = try #require(entry.timing)
        #expect(timing.metric == .ratioToRaw && timing.isSuspect)
        #expect(comparison.exitCode == 0)
    }

    @Test("a suspect ratio counts when the median agrees: the engine 40% slower, raw unchanged, is a regression")
    func suspectRatioWithAgreeingMedianRegresses() throws {
        let comparison = compare([result(median: 0.0080, rawMedian: 0.0100)], [result(median: 0.0112, rawMedian: 0.0100)])
        let entry = comparison.entries[0]
        #expect(entry.verdict == .regression, "\(entry.reasons)")
        #expect(entry.timing?.isSuspect == true)
    }

    @Test("a raw run slowed in the baseline (0.54x) makes a ratio jump the median does not show: listed, not judged")
    func suspectRatioWithoutMedianIsListed() throws {
        let comparison = compare([result(median: 0.0100, rawMedian: 0.0185)], [result(median: 0.0101, rawMedian: 0.0080)])
        let entry = comparison.entries[0]
        #expect(entry.verdict == .unchanged)
        #expect(entry.reasons.contains { $0.contains("is suspect and the median did not move the same way, so not judged") }, "\(entry.reasons)")
    }

    /// The figures of a variant 50% slower than the baseline's 1.2x, and of one as the baseline's.
    var slow: BenchResult { result(median: 0.0150, rawMedian: 0.0083) }
    var same: BenchResult { result(median: 0.0100, rawMedian: 0.0083) }

    @Test("a change a re-measurement does not show is outvoted: unchanged, and the report keeps the re-measurement")
    func disturbedMeasurementIsOutvoted() throws {
        let first = compare([same], [slow])
        #expect(first.exitCode == 2)
        var asked: [String] = []
        let (kept, comparison) = first.confirmed(rounds: 1) { results in
            asked += results.map(\.key)
            return results.map { _ in same }
        }
        #expect(asked == [slow.key])
        #expect(comparison.exitCode == 0)
        #expect(kept.results[0].medianSeconds == same.medianSeconds)
        let reasons = comparison.entries[0].reasons
        #expect(reasons.contains { $0.hasPrefix("measured 2 times (1.81x, 1.20x); the one nearest the baseline counts") }, "\(reasons)")
    }

    @Test("a change that shows every time stands, with the figures nearest the baseline's")
    func realRegressionIsConfirmed() throws {
        let slower = result(median: 0.0180, rawMedian: 0.0083)
        let (kept, comparison) = compare([same], [slower]).confirmed(rounds: 2) { $0.map { _ in slow } }
        #expect(comparison.exitCode == 2)
        #expect(kept.results[0].medianSeconds == slow.medianSeconds)
        #expect(comparison.entries[0].reasons.contains { $0.hasPrefix("measured 3 times (2.17x, 1.81x, 1.81x); the one nearest the baseline counts") },
                "\(comparison.entries[0].reasons)")
    }

    @Test("counters compare exactly: a counter regression is not measured again; zero rounds measure nothing")
    func countersAreNotReMeasured() throws {
        var asked = 0
        let (_, byCounter) = compare([result(statements: 2)], [result(statements: 3)]).confirmed(rounds: 3) { asked += $0.count; return $0.map { _ in same } }
        #expect(byCounter.exitCode == 2)
        let (_, none) = compare([same], [slow]).confirmed(rounds: 0) { asked += $0.count; return $0.map { _ in same } }
        #expect(none.exitCode == 2)
        #expect(asked == 0)
    }

    /// A later trial (helper-70): a variant the counters had already failed was measured again.
    @Test("a variant its counters decide is not measured again; a slower timing against fewer statements is")
    func countersDecideFirst() throws {
        var asked = 0
        let worse = result(median: 0.0150, rawMedian: 0.0083, statements: 3)
        let (_, byCounters) = compare([same], [worse]).confirmed(rounds: 1) { asked += $0.count; return $0 }
        #expect(byCounters.exitCode == 2 && asked == 0)
        // Fewer statements, but slower: the timing alone makes it a regression, so it is confirmed.
        let slowerWithFewer = result(median: 0.0150, rawMedian: 0.0083, statements: 1)
        let (_, mixed) = compare([same], [slowerWithFewer]).confirmed(rounds: 1) { asked += $0.count; return $0.map { _ in result(median: 0.0100, rawMedian: 0.0083, statements: 1) } }
        #expect(asked == 1)
        #expect(mixed.exitCode == 4, "fewer statements, the timing not confirmed: an improvement")
    }

    /// A later trial (helper-70): with the stores' indexes differing, the pick weighed ratio and median
    /// but the reason listed ratios only, and the one kept looked farther from the baseline.
    @Test("where medians gate too, each measurement shows its ratio and its median")
    func figuresShowBothWhereBothGate() throws {
        var old = report([same]), new = report([slow])
        old.store.indexes = ["ZWELL_ZUWI_INDEX": "ZWELL(ZUWI)"]
        new.store.indexes = [:]
        let first = BaselineComparison(baseline: old, current: new, thresholdPercent: 10)
        let (_, comparison) = first.confirmed(rounds: 1) { $0.map { _ in slow } }
        let reason = try #require(comparison.entries[0].reasons.last)
        #expect(reason == "measured 2 times (1.81x / 15.00 ms, 1.81x / 15.00 ms); the one nearest the baseline, ratio and median together, counts", "\(reason)")
    }

    @Test("an improvement must show every time too")
    func improvementIsConfirmed() throws {
        let (_, comparison) = compare([slow], [same]).confirmed(rounds: 1) { $0.map { _ in slow } }
        #expect(comparison.exitCode == 0)
    }
}

/// From the bench-gate trial (helper-69): with --metric median the note on other machines said the
/// variants had no raw reference, which they had.
@Suite("Gate notes: medians on other machines, for the right reason")
struct GateMachineNoteTests {
    @Test("--metric median names itself; ratio without a raw reference in common says so")
    func machineNoteNamesTheReason() {
        let old = report([result()], host: "ci-1"), new = report([result()], host: "ci-2")
        let median = BaselineComparison(baseline: old, current: new, thresholdPercent: 10, metric: .medianSeconds)
        #expect(median.notes.contains { $0.hasPrefix("1 variant(s) gated on median seconds (--metric median) were measured on different machines") },
                "\(median.notes)")
        let noRaw = BaselineComparison(baseline: report([result(rawMedian: nil)], host: "ci-1"), current: report([result(rawMedian: nil)], host: "ci-2"),
                                       thresholdPercent: 10)
        #expect(noRaw.notes.contains { $0.hasPrefix("1 variant(s) without a raw reference in common, so compared on median seconds, were measured on different machines") },
                "\(noRaw.notes)")
    }
}

/// From the bench-gate trial (helper-69): `speed fetch` printed an empty runs column and counts without
/// separators, as it kept only each variant's medians.
@Suite("speed fetch: every run's timings, counts grouped")
struct FetchSpeedRunsTests {
    @Test("each timed check has every run, engine and raw; names and notes group thousands")
    func everyRunIsKept() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try BenchTrialKTests.store(in: directory, count: 1_200)
        let checks = try FetchSpeed(store: store, runs: 3).run()
        #expect(checks.count == 4)
        for check in checks where check.referenceName.hasPrefix("raw") {
            #expect(check.measured.count == 3 && check.reference.count == 3, "\(check.name)")
            #expect(!check.cells[4].isEmpty, "the runs column: \(check.cells)")
        }
        #expect(checks[0].name == "fetch all 1,200 Well objects, materialised")
        #expect(checks[0].notes.first == "1 statement(s), 1,200 objects")
    }
}
