import Foundation

extension BenchReporter {
    /// One self-contained HTML page: the run's context, the verdicts against a baseline when
    /// `comparison` is given, per scenario a bar chart of median times with the raw reference and the
    /// ratio to raw, a batch-size curve, and the numbers in a table under each chart.
    ///
    /// The page opens offline: CSS and SVG are inline, there are no scripts, images or web fonts, and it
    /// follows the reader's light or dark preference.
    ///
    /// For example:
    ///
    /// ```swift
    /// let page = BenchReporter.html(report, comparison: try BaselineComparison(
    ///     baseline: BaselineStore(directory: dir).load("main"), current: report, thresholdPercent: 10))
    /// try page.write(toFile: "bench.html", atomically: true, encoding: .utf8)
    /// ```
    public static func html(_ report: BenchReport, comparison: BaselineComparison? = nil) -> String {
        let verdicts = Dictionary(comparison?.entries.map { ($0.key, $0.verdict) } ?? [], uniquingKeysWith: { first, _ in first })
        var body = "<header><h1>SeedStore fetch benchmark</h1><dl class=\"context\">"
        for (label, text) in context(report) { body += "<dt>\(HTMLText.escape(label))</dt><dd>\(HTMLText.escape(text))</dd>" }
        body += "</dl></header>\n"
        if let comparison { body += comparisonSection(comparison) }
        let groups = BenchFormat.grouped(report.results)
        if groups.count > 1 {
            body += "<nav><ul>" + groups.map { "<li><a href=\"#\(anchor($0.scenario))\">\(HTMLText.escape($0.scenario))</a></li>" }.joined()
            if !BatchCurve.series(from: report.results).isEmpty { body += "<li><a href=\"#batch-size-curve\">batch-size curve</a></li>" }
            body += "</ul></nav>\n"
        }
        for group in groups { body += scenarioSection(group.scenario, group.results, verdicts: verdicts) }
        body += batchCurveSection(report.results)
        let notes = notes(report)
        if !notes.isEmpty {
            body += "<section id=\"notes\"><h2>Notes</h2><ul>" + notes.map { "<li>\(HTMLText.escape($0))</li>" }.joined() + "</ul></section>\n"
        }
        body += "<footer><p>Times are medians of the measured runs; <em>raw</em> is the same work through the sqlite3 C API in the "
            + "same run (the same rows and columns, in the same statements where the engine runs several: batches, one SELECT per "
            + "fault, a prefetch's second statement), so the ratio to raw does not depend on the machine's speed. <em>Noise</em> is the "
            + "median absolute deviation over the median. Counters are per run and exact; peak memory is taken on the first measured "
            + "run, after an unmeasured one. A variant that covers only part of the rows says so. Schema: docs/bench-schema.md, "
            + "schema_version \(report.schemaVersion).</p></footer>\n"
        return """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="color-scheme" content="light dark">
        <title>SeedStore bench · \(HTMLText.escape(report.createdAt))</title>
        <style>
        \(stylesheet)
        </style>
        </head>
        <body>
        <main>
        \(body)</main>
        </body>
        </html>

        """
    }

    static func scenarioSection(_ scenario: String, _ results: [BenchResult], verdicts: [String: BaselineComparison.Verdict]) -> String {
        var html = "<section id=\"\(anchor(scenario))\"><h2>\(HTMLText.escape(scenario))</h2>\n"
        let bars = results.map { result in
            // A variant that stops short of the rows says so on its bar: next to full fetches, its short bar is not the faster way.
            HTMLChart.Bar(label: BenchResult.label(scenario: result.scenario, variant: result.variant), value: result.medianSeconds,
                          marker: result.rawMedianSeconds,
                          annotation: BenchFormat.seconds(result.medianSeconds) + (result.ratioToRaw.map { " · \(BenchFormat.ratio($0)) raw" } ?? "")
                            + (isSuspect(result) ? "?" : "") + (result.covers.map { " · only \($0)" } ?? ""),
                          tone: verdicts[result.key].flatMap(tone))
        }
        let hasRaw = results.contains { $0.rawMedianSeconds != nil }
        html += "<figure>" + HTMLChart.bars(bars, title: "\(scenario): median time per variant" + (hasRaw ? ", raw sqlite3 as a tick" : ""),
                                          axisLabel: "median time per run", markerLabel: hasRaw ? "raw sqlite3 (same rows, same run)" : nil,
                                          format: tickSeconds) + "</figure>\n"
        let showVerdict = !verdicts.isEmpty
        html += "<div class=\"scroll\"><table><thead><tr><th>variant</th>" + (showVerdict ? "<th>verdict</th>" : "")
        html += columns.map { "<th class=\"num\">\(HTMLText.escape($0))</th>" }.joined() + "</tr></thead><tbody>"
        for result in results {
            html += "<tr><th scope=\"row\">\(HTMLText.escape(result.label))"
            if let note = result.note { html += "<div class=\"note\">\(HTMLText.escape(note))</div>" }
            html += "</th>"
            if showVerdict { html += "<td>" + (verdicts[result.key].map(badge) ?? "") + "</td>" }
            html += cells(result).map { "<td class=\"num\">\(HTMLText.escape($0))</td>" }.joined() + "</tr>"
        }
        return html + "</tbody></table></div></section>\n"
    }

    static func batchCurveSection(_ results: [BenchResult]) -> String {
        let curves = BatchCurve.series(from: results)
        guard !curves.isEmpty else { return "" }
        var html = "<section id=\"batch-size-curve\"><h2>batch-size curve</h2>\n"
        html += "<p>Median time per fetchBatchSize, engine and raw sqlite3; labels give the ratio to raw.</p>\n"
        for curve in curves {
            let categories = curve.points.map(\.label)
            let engine = HTMLChart.Series(name: "engine", values: curve.points.map { $0.result.medianSeconds }, style: "engine",
                                          labels: curve.points.map { $0.result.ratioToRaw.map(BenchFormat.ratio) })
            var series = [engine]
            if curve.points.contains(where: { $0.result.rawMedianSeconds != nil }) {
                series.append(HTMLChart.Series(name: "raw sqlite3", values: curve.points.map { $0.result.rawMedianSeconds },
                                               style: "raw", labels: []))
            }
            let title = curve.name.isEmpty ? "batch size" : curve.name
            html += "<h3>\(HTMLText.escape(title))</h3><figure>"
            html += HTMLChart.lines(series, categories: categories, title: "batch-size curve: \(title)", xLabel: "fetchBatchSize",
                                    yLabel: "median time per run", format: tickSeconds)
            html += "</figure>\n<div class=\"scroll\"><table><thead><tr><th>fetchBatchSize</th>"
            html += ["median", "raw", "ratio", "statements", "rows", "peak memory"].map { "<th class=\"num\">\($0)</th>" }.joined()
            html += "</tr></thead><tbody>"
            for point in curve.points {
                let r = point.result
                let cells = [BenchFormat.seconds(r.medianSeconds), BenchFormat.seconds(r.rawMedianSeconds), BenchFormat.ratio(r.ratioToRaw),
                             BenchFormat.count(r.statements), BenchFormat.count(r.rows), BenchFormat.peak(r.peakMemoryBytes)]
                html += "<tr><th scope=\"row\">\(HTMLText.escape(point.label))</th>" + cells.map { "<td class=\"num\">\(HTMLText.escape($0))</td>" }.joined() + "</tr>"
            }
            html += "</tbody></table></div>\n"
        }
        return html + "</section>\n"
    }

    static func comparisonSection(_ comparison: BaselineComparison) -> String {
        var html = "<section id=\"comparison\"><h2>Compared with the baseline</h2>\n"
        html += "<p class=\"headline\">\(HTMLText.escape(comparison.headline))</p>\n"
        for note in comparison.notes { html += "<p class=\"note\">\(HTMLText.escape(note))</p>\n" }
        html += "<div class=\"scroll\"><table><thead><tr><th>verdict</th><th>scenario</th><th>variant</th>"
        html += BaselineComparison.figureColumns.map { "<th class=\"num\">\(HTMLText.escape($0))</th>" }.joined() + "<th>reasons</th></tr></thead><tbody>"
        for entry in comparison.ranked {
            html += "<tr><td>\(badge(entry.verdict))</td><td>\(HTMLText.escape(entry.scenario))</td><td>\(HTMLText.escape(entry.label))</td>"
            html += "<td class=\"num\">\(HTMLText.escape(entry.medianFigures))</td><td class=\"num\">\(HTMLText.escape(entry.ratioFigures))</td><td>"
            html += entry.reasons.map(HTMLText.escape).joined(separator: "<br>") + "</td></tr>"
        }
        return html + "</tbody></table></div></section>\n"
    }

    static func badge(_ verdict: BaselineComparison.Verdict) -> String {
        "<span class=\"badge \(verdict.rawValue)\">\(HTMLText.escape(verdict.label))</span>"
    }

    static func tone(_ verdict: BaselineComparison.Verdict) -> String? {
        switch verdict {
        case .regression: "regression"
        case .improvement: "improvement"
        default: nil
        }
    }

    /// An axis tick in the unit that suits the axis's largest tick: `0`, `20 ms`, `1.5 s`, `250 µs`.
    static func tickSeconds(_ value: Double, largest: Double) -> String {
        guard value != 0 else { return "0" }
        let (scale, unit) = largest >= 1 ? (1.0, "s") : largest >= 0.001 ? (1e3, "ms") : (1e6, "µs")
        return String(format: "%g", (value * scale * 1000).rounded() / 1000) + " " + unit
    }

    static func anchor(_ text: String) -> String {
        let cleaned = text.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" }
        return "s-" + String(cleaned)
    }

    static let stylesheet = """
    :root { color-scheme: light dark; --bg: #ffffff; --fg: #1c1c1f; --muted: #65656d; --grid: #dcdce2; --rule: #e6e6eb;
      --stripe: #f5f5f8; --bar: #3767c8; --raw: #d36b00; --regression: #c42b2b; --improvement: #23813a; --new: #6b4fbb; }
    @media (prefers-color-scheme: dark) {
      :root { --bg: #141417; --fg: #ececf1; --muted: #a2a2ad; --grid: #393940; --rule: #2c2c33; --stripe: #1c1c21;
        --bar: #76a0ff; --raw: #ffad4d; --regression: #ff6e6e; --improvement: #5fd07c; --new: #b69cff; }
    }
    * { box-sizing: border-box; }
    body { margin: 0; background: var(--bg); color: var(--fg); font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
    main { max-width: 1100px; margin: 0 auto; padding: 24px 20px 48px; }
    h1 { font-size: 1.6em; margin: 0 0 12px; } h2 { margin: 36px 0 8px; border-bottom: 1px solid var(--rule); padding-bottom: 4px; }
    h3 { margin: 20px 0 4px; font-size: 1.05em; }
    dl.context { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; margin: 0; color: var(--muted); }
    dl.context dt { font-weight: 600; color: var(--fg); } dl.context dd { margin: 0; overflow-wrap: anywhere; }
    nav ul { list-style: none; padding: 0; margin: 16px 0 0; display: flex; flex-wrap: wrap; gap: 6px 16px; }
    a { color: var(--bar); }
    figure { margin: 8px 0; }
    svg.chart { display: block; max-width: 100%; height: auto; font-family: inherit; }
    svg.chart text { fill: var(--fg); font-size: 12px; } svg.chart text.tick, svg.chart text.axis { fill: var(--muted); font-size: 11px; }
    svg.chart .grid { stroke: var(--grid); stroke-width: 1; }
    svg.chart .bar { fill: var(--bar); } svg.chart .bar.regression { fill: var(--regression); } svg.chart .bar.improvement { fill: var(--improvement); }
    svg.chart .marker { stroke: var(--raw); stroke-width: 3; }
    svg.chart .line { fill: none; stroke-width: 2.5; } svg.chart .line.engine { stroke: var(--bar); }
    svg.chart .line.raw { stroke: var(--raw); stroke-dasharray: 6 4; }
    svg.chart .point.engine { fill: var(--bar); } svg.chart .point.raw { fill: var(--raw); }
    .scroll { overflow-x: auto; }
    table { border-collapse: collapse; width: 100%; font-size: 13px; margin: 4px 0 8px; }
    th, td { padding: 4px 8px; border-bottom: 1px solid var(--rule); text-align: left; vertical-align: top; }
    thead th { font-weight: 600; color: var(--muted); white-space: nowrap; }
    tbody tr:nth-child(even) { background: var(--stripe); }
    tbody th { font-weight: 500; }
    .num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
    .note { color: var(--muted); font-size: 12px; font-weight: 400; }
    .badge { display: inline-block; padding: 0 6px; border-radius: 4px; font-size: 12px; font-weight: 600; border: 1px solid currentColor; }
    .badge.regression { color: var(--regression); } .badge.improvement { color: var(--improvement); }
    .badge.new { color: var(--new); } .badge.missing, .badge.unchanged { color: var(--muted); }
    .headline { font-weight: 600; }
    footer { margin-top: 40px; color: var(--muted); font-size: 13px; }
    """
}

/// The batch-size scenario's variants as curves over the batch size.
///
/// Reads the variant names the batch-size scenario writes: `batch 20, first screen` is batch size 20 on
/// the curve `first screen`; `no batch, …` (fetchBatchSize 0) comes last, as the limit of large batches.
enum BatchCurve {
    struct Point { var size: Int; var label: String; var result: BenchResult }
    struct Curve { var name: String; var points: [Point] }

    static func series(from results: [BenchResult]) -> [Curve] {
        var order: [String] = []
        var curves: [String: [Point]] = [:]
        for result in results where result.scenario == "batch-size" {
            guard let (size, rest) = parse(result.variant) else { continue }
            if curves[rest] == nil { order.append(rest) }
            curves[rest, default: []].append(Point(size: size, label: size == 0 ? "no batch" : String(size), result: result))
        }
        return order.compactMap { name in
            let points = curves[name]!.sorted { ($0.size == 0 ? Int.max : $0.size) < ($1.size == 0 ? Int.max : $1.size) }
            return points.count > 1 ? Curve(name: name, points: points) : nil
        }
    }

    /// `batch 20, first screen` → (20, "first screen"); `no batch` → (0, "").
    static func parse(_ variant: String) -> (Int, String)? {
        let head: Substring, rest: String
        if let comma = variant.firstIndex(of: ",") {
            head = variant[..<comma]
            rest = variant[variant.index(after: comma)...].trimmingCharacters(in: .whitespaces)
        } else {
            head = Substring(variant)
            rest = ""
        }
        let words = head.split(separator: " ")
        if words == ["no", "batch"] { return (0, rest) }
        if words.count == 2, words[0] == "batch", let size = Int(words[1]), size >= 0 { return (size, rest) }
        return nil
    }
}
