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
        var table = TextTable(["verdict", "scenario / variant", "reasons"], maxCellWidth: 72)
        for entry in ranked {
            let reasons = entry.reasons.isEmpty ? [""] : entry.reasons
            for (i, reason) in reasons.enumerated() {
                table.append(i == 0 ? [entry.verdict.label, "\(entry.scenario) / \(entry.label)", reason] : ["", "", reason])
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
