import Foundation

extension BaselineComparison {
    /// The counters that compare exactly, with the words reports use for them.
    static let counters: [(name: String, value: @Sendable (BenchResult) -> Int)] = [
        ("statements", { $0.statements }), ("rows", { $0.rows }), ("objects", { $0.objects }), ("faults", { $0.faults }),
    ]

    /// One variant in both runs: counters exactly, then timing by threshold and noise on `metric`, and on the
    /// median too when `gatesMedian` (the stores' indexes differ, which the ratio to raw cannot see).
    static func compare(_ old: BenchResult, _ new: BenchResult, thresholdPercent: Double, noiseFactor: Double,
                        metric: TimingChange.Metric = .ratioToRaw, gatesMedian: Bool = false) -> Entry {
        var reasons: [String] = []
        var regressed = false, improved = false
        for counter in counters {
            let before = counter.value(old), after = counter.value(new)
            guard before != after else { continue }
            reasons.append("\(counter.name) \(BenchFormat.count(before)) → \(BenchFormat.count(after))")
            if after > before { regressed = true } else { improved = true }
        }
        /// Judges one timing change: a reason when it passed the threshold, and the verdict when significant.
        func judge(_ timing: TimingChange, because cause: String = "") {
            let name = timing.metric == .ratioToRaw ? "ratio to raw" : "median"
            let figures = "\(name) \(timing.figures.dropLast())"
            if timing.isSignificant {
                reasons.append(figures + ", noise \(BenchFormat.noise(timing.noiseBand))\(cause))")
                if timing.new > timing.old { regressed = true } else { improved = true }
            } else if abs(timing.change) * 100 > thresholdPercent {
                let outsideNoise = abs(timing.change) > timing.noiseBand
                let why = min(old.runs, new.runs) < minimumRunsToJudge
                    ? "too few runs to judge (\(min(old.runs, new.runs)))"
                    : timing.isSuspect && outsideNoise
                    ? "noise \(BenchFormat.noise(timing.noiseBand)); a ratio below \(String(format: "%g", BenchReporter.suspectRatio))x is suspect and the median did not move the same way, so not judged"
                    : "within noise \(BenchFormat.noise(timing.noiseBand))"
                reasons.append(figures + ", \(why)\(cause))")
            }
        }
        let timing = timingChange(old, new, thresholdPercent: thresholdPercent, noiseFactor: noiseFactor, metric: metric)
        let median = timingChange(old, new, thresholdPercent: thresholdPercent, noiseFactor: noiseFactor, metric: .medianSeconds)
        if let timing { judge(timing) }
        if gatesMedian, timing?.metric != .medianSeconds, let median {
            judge(median, because: "; store indexes changed")
        }
        if let before = old.peakMemoryBytes, let after = new.peakMemoryBytes, before > 0,
           abs(Double(after - before)) / Double(before) * 100 > max(thresholdPercent, 25), abs(after - before) > 1 << 20 {
            reasons.append("peak memory \(BenchFormat.bytes(before)) → \(BenchFormat.bytes(after)) (not gated)")
        }
        let verdict: Verdict = regressed ? .regression : improved ? .improvement : .unchanged
        return Entry(key: new.key, scenario: new.scenario, variant: new.variant, verdict: verdict, reasons: reasons,
                     old: old, new: new, timing: timing, median: median)
    }

    /// The fewest runs on each side for a timing change to count: below it the noise is unknown.
    static let minimumRunsToJudge = 3

    /// The timing metric both results share and whether it moved beyond threshold and noise.
    ///
    /// `ratio_to_raw` when `preferred` and both have it, else `median_seconds`; nil when the baseline's value
    /// is not positive. A ratio either run marks suspect (below 0.9x: a slowed raw run, or an engine that
    /// truly beats the raw reader) is compared, but its change counts only when the median seconds moved
    /// significantly the same way: a disturbed raw run alone moves the ratio, a busier machine alone the median.
    static func timingChange(_ old: BenchResult, _ new: BenchResult, thresholdPercent: Double, noiseFactor: Double,
                             metric preferred: TimingChange.Metric = .ratioToRaw) -> TimingChange? {
        // A ratio to another raw reference (one query then, the engine's batches now) is another measurement.
        if preferred == .ratioToRaw, old.rawReference == new.rawReference, let oldRatio = old.ratioToRaw, let newRatio = new.ratioToRaw,
           oldRatio > 0, newRatio > 0 {
            let ratio = change(.ratioToRaw, oldRatio, newRatio, spreads: (oldRatio * (old.noise + (old.rawNoise ?? 0)), newRatio * (new.noise + (new.rawNoise ?? 0))),
                               runs: min(old.runs, new.runs), thresholdPercent: thresholdPercent, noiseFactor: noiseFactor)
            guard BenchReporter.isSuspect(old) || BenchReporter.isSuspect(new), let ratio else { return ratio }
            let median = timingChange(old, new, thresholdPercent: thresholdPercent, noiseFactor: noiseFactor, metric: .medianSeconds)
            let agrees = median.map { $0.isSignificant && ($0.change > 0) == (ratio.change > 0) } ?? false
            return TimingChange(metric: .ratioToRaw, old: ratio.old, new: ratio.new, change: ratio.change, noiseBand: ratio.noiseBand,
                                isSignificant: ratio.isSignificant && agrees, isSuspect: true)
        }
        return change(.medianSeconds, old.medianSeconds, new.medianSeconds, spreads: (old.medianSeconds * old.noise, new.medianSeconds * new.noise),
                      runs: min(old.runs, new.runs), thresholdPercent: thresholdPercent, noiseFactor: noiseFactor)
    }

    /// `before` → `after` on `metric`, significant when beyond the threshold and `noiseFactor` times the two spreads.
    private static func change(_ metric: TimingChange.Metric, _ before: Double, _ after: Double, spreads: (Double, Double), runs: Int,
                               thresholdPercent: Double, noiseFactor: Double) -> TimingChange? {
        guard before > 0, before.isFinite, after.isFinite else { return nil }
        let difference = after - before
        let band = noiseFactor * (spreads.0 + spreads.1)
        // Fewer than three runs on either side leave the spread unknown, not zero: such timings are
        // shown but never gate (the counters still do).
        let significant = runs >= minimumRunsToJudge && abs(difference) / before * 100 > thresholdPercent && abs(difference) > band
        return TimingChange(metric: metric, old: before, new: after, change: difference / before, noiseBand: band / before,
                            isSignificant: significant)
    }

    /// How the indexes of `baseline`'s store and `current`'s differ, sorted by name; nil when either did not
    /// record them.
    static func indexChanges(baseline: BenchReport.StoreInfo, current: BenchReport.StoreInfo) -> [IndexChange]? {
        guard let before = baseline.indexes, let after = current.indexes else { return nil }
        return Set(before.keys).union(after.keys).sorted().compactMap { name in
            before[name] == after[name] ? nil : IndexChange(name: name, baseline: before[name], current: after[name])
        }
    }

    /// Caveats worth printing above the verdicts.
    static func notes(baseline: BenchReport, current: BenchReport, entries: [Entry], metric: TimingChange.Metric = .ratioToRaw,
                      indexChanges: [IndexChange]? = nil) -> [String] {
        var notes: [String] = []
        if let indexChanges, !indexChanges.isEmpty {
            let gate = metric == .medianSeconds ? "Medians gate" : "The ratio to raw cannot show what this costs (its raw reference reads the same store), so medians gate too"
            notes.append("The store's indexes differ from the baseline's: \(indexChanges.map(\.description).joined(separator: "; ")). "
                         + "\(gate): a variant whose median slowed beyond the threshold and the noise is a regression.")
        } else if baseline.store.indexes == nil && current.store.indexes != nil && metric == .ratioToRaw {
            notes.append("The baseline does not record its store's indexes (an older seedstore wrote it), so a dropped or added index "
                         + "could not be checked, and the ratio to raw does not show one; save the baseline again to have them checked.")
        }
        if baseline.store.entities != current.store.entities {
            notes.append("The stores differ (\(BenchFormat.entities(baseline.store)) then \(BenchFormat.entities(current.store))): "
                         + "counters may change for that reason alone.")
        }
        let references = entries.filter { entry in
            guard let old = entry.old, let new = entry.new, old.ratioToRaw != nil, new.ratioToRaw != nil else { return false }
            return old.rawReference != new.rawReference
        }
        if !references.isEmpty && metric == .ratioToRaw {
            notes.append("\(references.count) variant(s) have another raw reference than the baseline's (\(references[0].label): "
                         + "\(references[0].old?.rawReference ?? "one statement") then \(references[0].new?.rawReference ?? "one statement")), "
                         + "so their timing compares median seconds; save the baseline again to compare ratios.")
        }
        let medians = entries.filter { $0.timing?.metric == .medianSeconds }.count
        if medians > 0 && (baseline.machine.hostname != current.machine.hostname || baseline.machine.cores != current.machine.cores) {
            let why = metric == .medianSeconds ? "gated on median seconds (--metric median)" : "without a raw reference in common, so compared on median seconds,"
            notes.append("\(medians) variant(s) \(why) were measured on different machines, which alone can move them "
                         + "(\(baseline.machine.hostname), \(baseline.machine.cores) cores, then \(current.machine.hostname), "
                         + "\(current.machine.cores) cores).")
        }
        func runs(_ entry: Entry) -> Int? {
            guard entry.timing != nil, let old = entry.old, let new = entry.new else { return nil }
            return min(old.runs, new.runs)
        }
        // Below three runs a timing is not judged at all: "unchanged" then speaks for the counters alone.
        let unjudged = entries.filter { runs($0).map { $0 < minimumRunsToJudge } ?? false }.count
        let rough = entries.filter { runs($0).map { $0 >= minimumRunsToJudge && $0 < 5 } ?? false }.count
        if unjudged > 0 {
            notes.append("\(unjudged) variant(s) have timings from fewer than \(minimumRunsToJudge) runs on one side: their timings are NOT judged, "
                         + "only their counters gate; measure with --runs 3 or more (both the baseline and this run) to gate timings.")
        }
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
