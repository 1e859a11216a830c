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

    /// One result's figures for ``columns``.
    static func cells(_ result: BenchResult) -> [String] {
        [BenchFormat.seconds(result.medianSeconds), BenchFormat.seconds(result.p90Seconds), BenchFormat.noise(result.noise),
         BenchFormat.seconds(result.rawMedianSeconds), BenchFormat.ratio(result.ratioToRaw),
         BenchFormat.count(result.statements), BenchFormat.count(result.rows), BenchFormat.count(result.objects),
         BenchFormat.count(result.faults), BenchFormat.bytes(result.peakMemoryBytes)]
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
    public static func table(_ report: BenchReport) -> String {
        var table = TextTable(["scenario", "variant"] + columns,
                              alignments: [.left, .left] + columns.map { _ in .right }, maxCellWidth: 48)
        for (index, group) in BenchFormat.grouped(report.results).enumerated() {
            if index > 0 { table.append([]) }
            for (row, result) in group.results.enumerated() {
                table.append([row == 0 ? group.scenario : "", result.label] + cells(result))
            }
        }
        return BenchFormat.summary(report) + "\n\n" + table.render()
    }
}
