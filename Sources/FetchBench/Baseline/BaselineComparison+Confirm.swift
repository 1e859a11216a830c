import Foundation

extension BaselineComparison {
    /// Whether a timing change alone decided `entry`'s verdict: its gated metric moved significantly, or its
    /// median did while the stores' indexes differ, and the counters, which compare exactly and need no
    /// second look, do not give the same verdict already (a counter that rose is a regression whatever the
    /// timing says).
    public func timingDecides(_ entry: Entry) -> Bool {
        guard let old = entry.old, let new = entry.new else { return false }
        let timings = [entry.timing] + (gatesMedian ? [entry.median] : [])
        let significant = timings.compactMap { $0 }.filter(\.isSignificant)
        guard !significant.isEmpty else { return false }
        let counters = Self.counters.map { ($0.value(old), $0.value(new)) }
        if counters.contains(where: { $0.1 > $0.0 }) { return false }
        // Counters that fell make an improvement: a slower timing still decides (a regression), a faster one not.
        if counters.contains(where: { $0.1 < $0.0 }) { return significant.contains { $0.new > $0.old } }
        return true
    }

    /// Whether medians gate next to the ratio: the stores' indexes differ.
    var gatesMedian: Bool { indexChanges.map { !$0.isEmpty } ?? false }

    /// How far `entry`'s gated timings moved from the baseline's, as a fraction (0 for a variant without
    /// one): of several measurements, the one nearest the baseline counts.
    func distance(_ entry: Entry) -> Double {
        abs(entry.timing?.change ?? 0) + (gatesMedian ? abs(entry.median?.change ?? 0) : 0)
    }

    /// The comparison again after measuring anew, up to `rounds` times, each variant whose verdict a timing
    /// change decided, and the report with the measurements that count.
    ///
    /// A shared machine can slow a whole measurement of a variant (every run, engine and raw alike but not
    /// equally), which no noise estimate from within that measurement shows. So a timing change must show
    /// in every measurement: of a variant's measurements, the one whose timing is nearest the baseline's
    /// counts, and its verdict stands. A real regression slows every measurement and stays; a disturbed
    /// one is outvoted. Each re-measured variant gets a reason naming every figure.
    ///
    /// For example:
    ///
    /// ```swift
    /// let first = BaselineComparison(baseline: old, current: report, thresholdPercent: 10)
    /// let (kept, comparison) = try first.confirmed(rounds: 1) { results in
    ///     try results.map { try runner.remeasure($0, in: scenarios, store: store) }
    /// }
    /// exit(comparison.exitCode)
    /// ```
    ///
    /// `remeasure` is given the doubtful results of a round together and returns each measured again, in the
    /// same order; measuring them in a fresh process, as `seedstore bench` does, also outvotes a process that
    /// started slow on one side.
    public func confirmed(rounds: Int = 1, remeasure: ([BenchResult]) throws -> [BenchResult]) rethrows -> (report: BenchReport, comparison: BaselineComparison) {
        var comparison = self
        var current = self.current
        // Every measurement's figure of the gated metric, per variant key, in the order measured.
        var figures: [String: [String]] = [:]
        for _ in 0..<max(0, rounds) {
            let doubtful = comparison.entries.filter { comparison.timingDecides($0) && $0.new != nil }
            guard !doubtful.isEmpty else { break }
            let measured = try remeasure(doubtful.compactMap(\.new))
            for (entry, again) in zip(doubtful, measured) {
                guard let first = entry.new, let index = current.results.firstIndex(where: { $0.key == entry.key }) else { continue }
                let retry = Self.compare(entry.old ?? first, again, thresholdPercent: thresholdPercent, noiseFactor: noiseFactor,
                                         metric: metric, gatesMedian: gatesMedian)
                if figures[entry.key] == nil { figures[entry.key] = [figure(entry)] }
                figures[entry.key]?.append(figure(retry))
                // Ties go to the newer measurement: it ran after the disturbance, if any, had a chance to pass.
                if distance(retry) <= distance(entry) { current.results[index] = again }
            }
            comparison = BaselineComparison(baseline: baseline, current: current, thresholdPercent: thresholdPercent,
                                            noiseFactor: noiseFactor, metric: metric)
        }
        guard !figures.isEmpty else { return (current, comparison) }
        let entries = comparison.entries.map { entry -> Entry in
            guard let measured = figures[entry.key] else { return entry }
            let weighed = gatesMedian && metric == .ratioToRaw ? ", ratio and median together," : ""
            let reason = "measured \(measured.count) times (\(measured.joined(separator: ", "))); the one nearest the baseline\(weighed) counts"
            return Entry(key: entry.key, scenario: entry.scenario, variant: entry.variant, verdict: entry.verdict, reasons: entry.reasons + [reason],
                         old: entry.old, new: entry.new, timing: entry.timing, median: entry.median)
        }
        return (current, comparison.replacing(entries: entries))
    }

    /// One measurement's gated figures as reasons show them: `1.46x`, `12.1 ms` where medians gate, or
    /// `1.46x / 12.1 ms` where both do (the stores' indexes differ), as ``distance(_:)`` weighs both.
    func figure(_ entry: Entry) -> String {
        guard let timing = entry.timing else { return "n/a" }
        let gated = timing.metric == .ratioToRaw ? BenchFormat.ratio(timing.new) : BenchFormat.seconds(timing.new)
        guard gatesMedian, timing.metric == .ratioToRaw, let median = entry.median else { return gated }
        return gated + " / " + BenchFormat.seconds(median.new)
    }
}
