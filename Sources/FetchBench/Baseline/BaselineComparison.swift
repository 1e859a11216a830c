import Foundation

/// A bench run compared with a baseline, variant by variant: what regressed, what improved, what is new
/// or missing, and the exit code CI acts on.
///
/// **Counters** (`statements`, `rows`, `objects`, `faults`) do not depend on the machine and compare
/// exactly: any increase is a regression, any decrease an improvement.
///
/// **Timing** gates on one metric, ``metric``: with ``TimingChange/Metric/ratioToRaw`` (the default),
/// `ratio_to_raw` when both results have it (the raw sqlite3 reference runs in the same process at the
/// same time, so the machine's speed cancels out), else `median_seconds`; with
/// ``TimingChange/Metric/medianSeconds``, always `median_seconds` (for a stable machine). The raw reference
/// reads the same store, so a store-level change such as a dropped index slows both sides and cancels in
/// the ratio: when the stores' indexes differ (``indexChanges``), `median_seconds` gates too, and a variant
/// whose median slowed significantly is a regression. With `old` and `new` a metric's values and `T` the
/// threshold in percent, a timing change is significant only when both hold:
///
/// - `|new − old| / old > T / 100`, and
/// - `|new − old| > k × (MAD_old + MAD_new)`, where `k` is ``noiseFactor`` (3 by default) and each `MAD` is
///   the result's median absolute deviation on the metric's scale: `value × noise` for `median_seconds`,
///   `value × (noise + raw_noise)` for `ratio_to_raw` (the relative spreads of a quotient's two terms add).
///
/// A significant increase is a regression, a significant decrease an improvement; a change beyond the
/// threshold but inside the noise band is reported as a reason and stays unchanged. Peak memory is shown,
/// not gated. A variant with any regression is a regression, even if something else improved.
///
/// Variants match by name, and a name does not say which sort key or store it measured: check
/// ``mismatches(baseline:config:scenarios:rows:)`` before measuring, as `seedstore bench --compare` does,
/// and compare only when it is empty.
///
/// For example:
///
/// ```swift
/// let comparison = BaselineComparison(baseline: try baselines.load("main"), current: report, thresholdPercent: 10)
/// print(comparison.render())
/// exit(comparison.exitCode)   // 0 unchanged, 2 regression, 4 improvements only
/// ```
public struct BaselineComparison: Sendable {
    /// What became of one variant.
    public enum Verdict: String, Sendable, CaseIterable {
        case unchanged, regression, improvement
        /// Only in the current run.
        case new
        /// Only in the baseline.
        case missing

        /// The word reports show.
        public var label: String { self == .regression ? "REGRESSION" : rawValue }
    }

    /// One variant's verdict and why.
    public struct Entry: Sendable {
        /// `scenario / variant`, what results match on (``BenchResult/key``).
        public let key: String
        /// The scenario family, e.g. `batch-size` (``BenchResult/scenario``).
        public let scenario: String
        /// The variant within the scenario, e.g. `batch 20, first screen` (``BenchResult/variant``).
        public let variant: String
        /// What became of the variant: regression, improvement, unchanged, new or missing.
        public let verdict: Verdict
        /// Each change worth reading: `statements 2 → 3`, `ratio to raw 1.21x → 1.48x (+22%, noise ±3%)`.
        public let reasons: [String]
        /// The baseline's result (nil when new).
        public let old: BenchResult?
        /// The current result (nil when missing).
        public let new: BenchResult?
        /// The timing comparison on the gated metric (nil when new or missing, or when the baseline's timing was zero).
        public let timing: TimingChange?
        /// The median seconds' change, whatever the gated metric (nil when new or missing, or when the
        /// baseline's median was zero): reports always show it next to the ratio's.
        public let median: TimingChange?

        /// The variant as reports show it (``BenchResult/label(scenario:variant:)``).
        public var label: String { BenchResult.label(scenario: scenario, variant: variant) }
    }

    /// The timing metric compared for one variant, and how it moved.
    public struct TimingChange: Sendable {
        /// The result field a timing is compared on; the raw value is the JSON key.
        ///
        /// For example:
        ///
        /// ```swift
        /// let name = timing.metric == .ratioToRaw ? "ratio to raw" : "median"
        /// print(timing.metric.rawValue)   // "ratio_to_raw" or "median_seconds"
        /// ```
        public enum Metric: String, Sendable {
            /// ``BenchResult/ratioToRaw``, used when both results have it.
            case ratioToRaw = "ratio_to_raw"
            /// ``BenchResult/medianSeconds``: used when either result lacks a raw reference, when asked for
            /// (`--metric median`), and alongside the ratio when the stores' indexes differ.
            case medianSeconds = "median_seconds"
        }
        /// The metric compared: `ratio_to_raw` when both results have it and it was asked for, else `median_seconds`.
        public let metric: Metric
        /// The baseline's value of ``metric`` (a ratio, or seconds for `median_seconds`).
        public let old: Double
        /// The current run's value of ``metric`` (a ratio, or seconds for `median_seconds`).
        public let new: Double
        /// `(new − old) / old`.
        public let change: Double
        /// `k × (MAD_old + MAD_new) / old`: how far the change must go to leave the noise.
        public let noiseBand: Double
        /// Beyond the threshold and the noise band (and, for a suspect ratio, the median moved the same way).
        public let isSignificant: Bool
        /// A ratio either run marks suspect (below 0.9x): it counted only where the median agreed.
        public let isSuspect: Bool

        /// A change on `metric` from `old` to `new`; `change` and `noiseBand` are relative to `old`.
        ///
        /// For example:
        ///
        /// ```swift
        /// let timing = TimingChange(metric: .ratioToRaw, old: 1.2, new: 1.5, change: 0.25, noiseBand: 0.06, isSignificant: true)
        /// print(timing.figures)   // 1.20x → 1.50x (+25%)
        /// ```
        public init(metric: Metric, old: Double, new: Double, change: Double, noiseBand: Double, isSignificant: Bool, isSuspect: Bool = false) {
            self.metric = metric
            self.old = old
            self.new = new
            self.change = change
            self.noiseBand = noiseBand
            self.isSignificant = isSignificant
            self.isSuspect = isSuspect
        }

        /// `old → new (change)` in the metric's unit: `6.63 ms → 23.31 ms (+252%)`, `1.06x → 1.19x (+12%)`.
        public var figures: String {
            let show = metric == .ratioToRaw ? BenchFormat.ratio : BenchFormat.seconds
            return "\(show(old)) → \(show(new)) (\(BenchFormat.change(change)))"
        }
    }

    /// An index in one store and not the other, or defined otherwise in each.
    ///
    /// For example:
    ///
    /// ```swift
    /// print(change)   // dropped ZWELL_ZUWI_INDEX: ZWELL(ZUWI)
    /// ```
    public struct IndexChange: Sendable, Equatable, CustomStringConvertible {
        /// The index's name.
        public var name: String
        /// Its definition in the baseline's store (nil: added since).
        public var baseline: String?
        /// Its definition in this run's store (nil: dropped since).
        public var current: String?

        /// The index `name`, defined as `baseline` in the baseline's store and as `current` in this run's.
        public init(name: String, baseline: String?, current: String?) {
            self.name = name
            self.baseline = baseline
            self.current = current
        }

        public var description: String {
            switch (baseline, current) {
            case (let before?, nil): "dropped \(name): \(before)"
            case (nil, let after?): "added \(name): \(after)"
            default: "changed \(name): \(baseline ?? "") then \(current ?? "")"
            }
        }
    }

    /// Exit codes, as package-benchmark's `baseline check` uses them.
    public enum ExitCode {
        /// Nothing regressed or improved (new and missing variants do not count).
        public static let unchanged: Int32 = 0
        /// The comparison could not run: no such baseline, an unreadable or newer report.
        public static let failure: Int32 = 1
        /// At least one variant regressed.
        public static let regression: Int32 = 2
        /// Something improved and nothing regressed.
        public static let improvement: Int32 = 4
    }

    /// Every variant: the current run's in order, then those only in the baseline.
    public private(set) var entries: [Entry]
    /// The timing threshold, in percent.
    public let thresholdPercent: Double
    /// The metric timings gate on (`seedstore bench --metric`): ratio to raw where both results have one, or
    /// median seconds.
    public let metric: TimingChange.Metric
    /// How the stores' indexes differ, sorted by name: empty when they match, nil when either report did
    /// not record them (``BenchReport/StoreInfo/indexes``). When not empty, medians gate too.
    public let indexChanges: [IndexChange]?
    /// `k` in the noise rule.
    public let noiseFactor: Double
    /// Caveats about the comparison itself (different machines, stores or settings).
    public let notes: [String]
    /// When and where the baseline ran: `seedstore 0.1.0, 2026-01-01T00:00:00Z on ci-runner`.
    public let baselineDescription: String
    /// The reports compared, kept to compare again after a re-measurement (``confirmed(rounds:remeasure:)``).
    let baseline: BenchReport, current: BenchReport

    /// Compares `current` with `baseline`; `thresholdPercent` applies to timings (10 means 10 %).
    ///
    /// For example:
    ///
    /// ```swift
    /// let comparison = BaselineComparison(baseline: old, current: new, thresholdPercent: 10, noiseFactor: 3)
    /// let strict = BaselineComparison(baseline: old, current: new, thresholdPercent: 10, metric: .medianSeconds)
    /// ```
    public init(baseline: BenchReport, current: BenchReport, thresholdPercent: Double, noiseFactor: Double = 3,
                metric: TimingChange.Metric = .ratioToRaw) {
        self.thresholdPercent = thresholdPercent
        self.noiseFactor = noiseFactor
        self.metric = metric
        let indexChanges = Self.indexChanges(baseline: baseline.store, current: current.store)
        self.indexChanges = indexChanges
        let gatesMedian = indexChanges.map { !$0.isEmpty } ?? false
        var oldByKey: [String: BenchResult] = [:]
        for result in baseline.results where oldByKey[result.key] == nil { oldByKey[result.key] = result }
        var seen: Set<String> = []
        var entries: [Entry] = []
        for result in current.results where seen.insert(result.key).inserted {
            if let old = oldByKey[result.key] {
                entries.append(Self.compare(old, result, thresholdPercent: thresholdPercent, noiseFactor: noiseFactor,
                                            metric: metric, gatesMedian: gatesMedian))
            } else {
                entries.append(Entry(key: result.key, scenario: result.scenario, variant: result.variant, verdict: .new,
                                     reasons: ["not in the baseline"], old: nil, new: result, timing: nil, median: nil))
            }
        }
        for result in baseline.results where seen.insert(result.key).inserted {
            entries.append(Entry(key: result.key, scenario: result.scenario, variant: result.variant, verdict: .missing,
                                 reasons: ["not in this run"], old: result, new: nil, timing: nil, median: nil))
        }
        self.entries = entries
        self.notes = Self.notes(baseline: baseline, current: current, entries: entries, metric: metric, indexChanges: indexChanges)
        self.baselineDescription = "\(baseline.tool), \(baseline.createdAt) on \(baseline.machine.hostname)"
        self.baseline = baseline
        self.current = current
    }

    /// This comparison with `entries` in place of its own (the same variants, with more reasons).
    func replacing(entries: [Entry]) -> BaselineComparison {
        var copy = self
        copy.entries = entries
        return copy
    }

    /// The entries with `verdict`.
    public func entries(_ verdict: Verdict) -> [Entry] { entries.filter { $0.verdict == verdict } }

    /// Whether any variant regressed.
    public var hasRegression: Bool { entries.contains { $0.verdict == .regression } }

    /// 0 when nothing regressed or improved, 2 when anything regressed, 4 when something improved and
    /// nothing regressed (``ExitCode``). New and missing variants do not change it.
    public var exitCode: Int32 {
        if hasRegression { return ExitCode.regression }
        if entries.contains(where: { $0.verdict == .improvement }) { return ExitCode.improvement }
        return ExitCode.unchanged
    }

    /// The counts in a sentence: `1 regression, 2 improvements, 9 unchanged, 1 new, 0 missing (exit 2)`.
    public var summary: String {
        func n(_ verdict: Verdict, _ singular: String, _ plural: String) -> String {
            let count = entries(verdict).count
            return "\(count) \(count == 1 ? singular : plural)"
        }
        return [n(.regression, "regression", "regressions"), n(.improvement, "improvement", "improvements"),
                n(.unchanged, "unchanged", "unchanged"), n(.new, "new", "new"), n(.missing, "missing", "missing")]
            .joined(separator: ", ") + " (exit \(exitCode))"
    }

    /// What was compared with what, under which rule, and the counts.
    public var headline: String {
        let gate = metric == .medianSeconds ? "median" : "ratio to raw (median where there is no raw)"
        return "Baseline \(baselineDescription); timing gated on \(gate), threshold \(String(format: "%g", thresholdPercent))%, "
            + "noise factor \(String(format: "%g", noiseFactor)): \(summary)"
    }
}
