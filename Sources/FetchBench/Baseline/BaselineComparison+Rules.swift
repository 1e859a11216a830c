import Foundation

extension BaselineComparison {
    /// The counters that compare exactly, with the words reports use for them.
    static let counters: [(name: String, value: @Sendable (BenchResult) -> Int)] = [
        ("statements", { $0.statements }), ("rows", { $0.rows }), ("objects", { $0.objects }), ("faults", { $0.faults }),
    ]

    /// One variant in both runs: counters exactly, then timing by threshold and noise.
    static func compare(_ old: BenchResult, _ new: BenchResult, thresholdPercent: Double, noiseFactor: Double) -> Entry {
        var reasons: [String] = []
        var regressed = false, improved = false
        for counter in counters {
            let before = counter.value(old), after = counter.value(new)
            guard before != after else { continue }
            reasons.append("\(counter.name) \(BenchFormat.count(before)) → \(BenchFormat.count(after))")
            if after > before { regressed = true } else { improved = true }
        }
        let timing = timingChange(old, new, thresholdPercent: thresholdPercent, noiseFactor: noiseFactor)
        if let timing {
            let name = timing.metric == .ratioToRaw ? "ratio to raw" : "median"
            let show = timing.metric == .ratioToRaw ? BenchFormat.ratio : BenchFormat.seconds
            let figures = "\(name) \(show(timing.old)) → \(show(timing.new)) (\(BenchFormat.change(timing.change))"
            if timing.isSignificant {
                reasons.append(figures + ", noise \(BenchFormat.noise(timing.noiseBand)))")
                if timing.new > timing.old { regressed = true } else { improved = true }
            } else if abs(timing.change) * 100 > thresholdPercent {
                let why = min(old.runs, new.runs) < minimumRunsToJudge
                    ? "too few runs to judge (\(min(old.runs, new.runs)))"
                    : "within noise \(BenchFormat.noise(timing.noiseBand))"
                reasons.append(figures + ", \(why))")
            }
        }
        if let before = old.peakMemoryBytes, let after = new.peakMemoryBytes, before > 0,
           abs(Double(after - before)) / Double(before) * 100 > max(thresholdPercent, 25), abs(after - before) > 1 << 20 {
            reasons.append("peak memory \(BenchFormat.bytes(before)) → \(BenchFormat.bytes(after)) (not gated)")
        }
        let verdict: Verdict = regressed ? .regression : improved ? .improvement : .unchanged
        return Entry(key: new.key, scenario: new.scenario, variant: new.variant, verdict: verdict, reasons: reasons,
                     old: old, new: new, timing: timing)
    }

    /// The fewest runs on each side for a timing change to count: below it the noise is unknown.
    static let minimumRunsToJudge = 3

    /// The timing metric both results share and whether it moved beyond threshold and noise.
    ///
    /// `ratio_to_raw` when both have it, else `median_seconds`; nil when the baseline's value is not positive.
    static func timingChange(_ old: BenchResult, _ new: BenchResult, thresholdPercent: Double, noiseFactor: Double) -> TimingChange? {
        let metric: TimingChange.Metric
        let before: Double, after: Double, spreadBefore: Double, spreadAfter: Double
        if let oldRatio = old.ratioToRaw, let newRatio = new.ratioToRaw, oldRatio > 0, newRatio > 0 {
            metric = .ratioToRaw
            before = oldRatio
            after = newRatio
            spreadBefore = oldRatio * (old.noise + (old.rawNoise ?? 0))
            spreadAfter = newRatio * (new.noise + (new.rawNoise ?? 0))
        } else {
            metric = .medianSeconds
            before = old.medianSeconds
            after = new.medianSeconds
            spreadBefore = before * old.noise
            spreadAfter = after * new.noise
        }
        guard before > 0, before.isFinite, after.isFinite else { return nil }
        let difference = after - before
        let band = noiseFactor * (spreadBefore + spreadAfter)
        // Fewer than three runs on either side leave the spread unknown, not zero: such timings are
        // shown but never gate (the counters still do).
        let judgeable = min(old.runs, new.runs) >= minimumRunsToJudge
        let significant = judgeable && abs(difference) / before * 100 > thresholdPercent && abs(difference) > band
        return TimingChange(metric: metric, old: before, new: after, change: difference / before, noiseBand: band / before,
                            isSignificant: significant)
    }

    /// Caveats worth printing above the verdicts.
    static func notes(baseline: BenchReport, current: BenchReport, entries: [Entry]) -> [String] {
        var notes: [String] = []
        if baseline.store.entities != current.store.entities {
            notes.append("The stores differ (\(BenchFormat.entities(baseline.store)) then \(BenchFormat.entities(current.store))): "
                         + "counters may change for that reason alone.")
        }
        let medians = entries.filter { $0.timing?.metric == .medianSeconds }.count
        if medians > 0 && (baseline.machine.hostname != current.machine.hostname || baseline.machine.cores != current.machine.cores) {
            notes.append("\(medians) variant(s) without a raw reference compare median seconds measured on different machines "
                         + "(\(baseline.machine.hostname), \(baseline.machine.cores) cores, then \(current.machine.hostname), "
                         + "\(current.machine.cores) cores).")
        }
        let rough = entries.filter { entry in
            guard entry.timing != nil, let old = entry.old, let new = entry.new else { return false }
            return min(old.runs, new.runs) < 5
        }.count
        if rough > 0 {
            notes.append("\(rough) variant(s) compare timings measured in fewer than 5 runs: their noise estimates are rough.")
        }
        if baseline.settings.scenarioConfig == nil {
            notes.append("The baseline (schema version \(baseline.schemaVersion)) does not record its scenario settings, so they could not "
                         + "be checked against this run's; save it again to have them checked.")
        } else if baseline.schemaVersion != current.schemaVersion {
            notes.append("The baseline has schema version \(baseline.schemaVersion), this run \(current.schemaVersion).")
        }
        return notes
    }
}
