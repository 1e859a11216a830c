import Foundation
import Measure

extension BaselineComparison {
    /// A table of verdicts and reasons for a terminal or CI log, with the headline and notes.
    ///
    /// Regressions come first, then improvements, new, missing and unchanged; a variant with several
    /// reasons takes a line for each.
    ///
    /// For example:
    ///
    /// ```swift
    /// print(comparison.render())
    /// // verdict     scenario / variant               reasons
    /// // REGRESSION  faulting / IDs then faults (N+1)  statements 201 → 402
    /// ```
    public func render() -> String {
        var table = TextTable(["verdict", "scenario / variant"] + Self.figureColumns + ["reasons"], maxCellWidth: 72)
        for entry in ranked {
            let reasons = entry.reasons.isEmpty ? [""] : entry.reasons
            for (i, reason) in reasons.enumerated() {
                table.append(i == 0 ? [entry.verdict.label, "\(entry.scenario) / \(entry.label)", entry.medianFigures, entry.ratioFigures, reason]
                                    : ["", "", "", "", reason])
            }
        }
        var out = [headline]
        out += notes.map { "note: " + $0 }
        out += ["", table.render()]
        return out.joined(separator: "\n")
    }

    /// The entries in reading order: regressions, improvements, new, missing, unchanged; run order within each.
    var ranked: [Entry] {
        [Verdict.regression, .improvement, .new, .missing, .unchanged].flatMap { entries($0) }
    }
}

extension BaselineComparison {
    /// The columns every verdict table shows between the variant and the reasons: the median's change and
    /// the ratio's, baseline then run, whichever metric gates.
    static let figureColumns = ["median (baseline → run)", "ratio to raw"]
}

extension BaselineComparison.Entry {
    /// The median, baseline then run: `6.63 ms → 23.31 ms (+252%)`; one side for a new or missing variant.
    ///
    /// For example:
    ///
    /// ```swift
    /// print(entry.medianFigures)   // 6.63 ms → 23.31 ms (+252%)
    /// ```
    public var medianFigures: String {
        if let median { return median.figures }
        return "\(BenchFormat.seconds(old?.medianSeconds)) → \(BenchFormat.seconds(new?.medianSeconds))"
    }

    /// The ratio to raw, baseline then run: `1.06x → 1.19x (+12%)`; `-` for a side without a raw reference.
    ///
    /// For example:
    ///
    /// ```swift
    /// print(entry.ratioFigures)   // 1.06x → 1.19x (+12%)
    /// ```
    public var ratioFigures: String {
        if let timing, timing.metric == .ratioToRaw { return timing.figures }
        let before = old?.ratioToRaw, after = new?.ratioToRaw
        if before == nil && after == nil { return "-" }
        if let before, let after, before > 0 {
            return "\(BenchFormat.ratio(before)) → \(BenchFormat.ratio(after)) (\(BenchFormat.change(after / before - 1)))"
        }
        return "\(BenchFormat.ratio(before)) → \(BenchFormat.ratio(after))"
    }
}
