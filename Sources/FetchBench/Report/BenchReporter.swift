import Foundation
import Measure

/// Turns a ``BenchReport`` into what people read: a terminal table, Markdown, or one HTML page.
///
/// JSON is the report itself (``BenchReport/write(to:)``); these are views of it.
///
/// For example:
///
/// ```swift
/// print(BenchReporter.table(report))
/// try BenchReporter.markdown(report).write(toFile: "bench.md", atomically: true, encoding: .utf8)
/// try BenchReporter.html(report, comparison: comparison).write(toFile: "bench.html", atomically: true, encoding: .utf8)
/// ```
public enum BenchReporter {
    /// The columns every view shows, in order.
    static let columns = ["median", "p90", "noise", "raw", "ratio", "statements", "rows", "objects", "faults", "peak memory"]

    /// One result's figures for ``columns``: the noise of a single run is unknown (`n/a`), not ±0; a
    /// suspect ratio (``isSuspect(_:)``) carries a `?`.
    static func cells(_ result: BenchResult) -> [String] {
        [BenchFormat.seconds(result.medianSeconds), BenchFormat.seconds(result.p90Seconds),
         result.runs < 2 ? "n/a" : BenchFormat.noise(result.noise),
         BenchFormat.seconds(result.rawMedianSeconds), BenchFormat.ratio(result.ratioToRaw) + (isSuspect(result) ? "?" : ""),
         BenchFormat.count(result.statements), BenchFormat.count(result.rows), BenchFormat.count(result.objects),
         BenchFormat.count(result.faults), BenchFormat.peak(result.peakMemoryBytes)]
    }

    /// A plain-text table for a terminal, one row per variant, grouped by scenario.
    ///
    /// A summary line (tool, time, store, runs, machine) comes first; a blank line separates scenarios.
    ///
    /// For example:
    ///
    /// ```swift
    /// print(BenchReporter.table(report))
    /// // scenario    variant                 median    p90  noise  raw      ratio  statements  rows …
    /// // batch-size  batch 20, first screen  1.21 ms   …
    /// ```
    ///
    /// A label too long for its column keeps the objects it covers: `(2,000 of 20,000 objects)` goes on a
    /// line of its own under the name rather than be cut, as it is what keeps a short time from reading as
    /// the faster way.
    public static func table(_ report: BenchReport) -> String {
        var table = TextTable(["scenario", "variant"] + columns,
                              alignments: [.left, .left] + columns.map { _ in .right }, maxCellWidth: variantWidth)
        for (index, group) in BenchFormat.grouped(report.results).enumerated() {
            if index > 0 { table.append([]) }
            for (row, result) in group.results.enumerated() {
                let scenario = row == 0 ? group.scenario : ""
                if let covers = result.covers, result.label.count > variantWidth {
                    table.append([scenario, BenchResult.label(scenario: result.scenario, variant: result.variant)] + cells(result))
                    table.append(["", "  (\(covers))"])
                } else {
                    table.append([scenario, result.label] + cells(result))
                }
            }
        }
        return BenchFormat.summary(report) + "\n\n" + table.render() + notes(report).map { "\nnote: " + $0 }.joined()
    }

    /// The widest a cell of the terminal table gets, the variant's label included: with the figures
    /// beside it, a row already needs a wide terminal.
    static let variantWidth = 48

    /// Below this ratio to raw, a result is suspect: the engine does the raw reference's work and more, so
    /// it cannot be much faster; a cold or disturbed raw run can make it look so.
    static let suspectRatio = 0.9

    /// Whether `result`'s ratio to raw is below ``suspectRatio``.
    static func isSuspect(_ result: BenchResult) -> Bool {
        result.ratioToRaw.map { $0 < suspectRatio } ?? false
    }

    /// What a reader must know before trusting the figures, one sentence each: suspect ratios, single-run
    /// noise, what was skipped. Every view prints them under the results.
    ///
    /// For example:
    ///
    /// ```swift
    /// for note in BenchReporter.notes(report) { print("note: " + note) }
    /// ```
    public static func notes(_ report: BenchReport) -> [String] {
        var notes: [String] = []
        let suspect = report.results.filter(isSuspect)
        if !suspect.isEmpty {
            let names = suspect.map { "\($0.scenario) / \($0.label) (\(BenchFormat.ratio($0.ratioToRaw)))" }.joined(separator: ", ")
            notes.append("ratio to raw below \(String(format: "%g", suspectRatio))x, marked ?: the engine runs the raw reference's statements "
                         + "and more, so either a raw run was slowed (a cold cache, a busy machine) or the engine reads these rows faster than "
                         + "the raw reader, which turns every text column into a checked Swift String: \(names). "
                         + "Measure again with more --runs or --warmup 1; a ratio that stays is the second.")
        }
        if report.results.contains(where: { $0.runs < 2 }) {
            notes.append("noise n/a: a single run has no spread to measure; run 3 or more (--runs) to know how stable a median is.")
        }
        // Each says what was skipped ("decomposition skipped: …").
        notes += report.settings.skipped ?? []
        return notes
    }
}
