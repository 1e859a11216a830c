import Foundation
import Testing
@testable import FetchBench

/// The table, Markdown and HTML views: every variant present, the HTML self-contained.
@Suite struct ReporterTests {
    let report = sampleReport()

    @Test func tableHasEveryScenarioVariantAndColumn() {
        let text = BenchReporter.table(report)
        for header in ["scenario", "variant", "median", "p90", "raw", "ratio", "statements", "rows", "objects", "faults", "peak memory"] {
            #expect(text.contains(header))
        }
        for result in report.results {
            #expect(text.contains(result.label) || text.contains(String(result.label.prefix(40))), "table lacks \(result.label)")
        }
        for scenario in ["batch-size", "faulting", "dictionary"] { #expect(text.contains(scenario)) }
        // Grouped: each scenario's name appears once in its column, on its first row.
        #expect(text.components(separatedBy: "\nbatch-size ").count == 2)
        #expect(text.contains("1.43x"))
    }

    @Test func markdownHasATablePerScenarioWithEveryVariant() {
        let text = BenchReporter.markdown(report)
        #expect(text.hasPrefix("# SeedStore fetch benchmark"))
        for scenario in ["batch-size", "faulting", "dictionary"] { #expect(text.contains("## \(scenario)")) }
        for result in report.results { #expect(text.contains("| \(BenchReporter.escape(result.label)) |"), "markdown lacks \(result.label)") }
        #expect(text.contains("&lt;fast&gt; & \"light\" \\| piped"))
        #expect(text.contains("|---|--:|"))
    }

    @Test("Markdown and HTML show the scenario settings the run recorded, as a scenario file that reruns them")
    func reportsShowTheScenarioSettings() {
        var config = ScenarioConfig()
        config.entity = "Book"
        config.sortKey = "title"
        config.mapProperties = ["title", "author"]
        let recorded = FetchBenchTests.report([], config: config)
        let file = #"{"entity": "Book", "sort_key": "title", "map_properties": ["title", "author"], "fault_attribute": "title""#
        // As code, so it copies into a scenario file as it is: escaped, it read sort\_key and \[ (a user trial).
        #expect(BenchReporter.markdown(recorded).contains("- **Scenario settings**: `" + file), "\(BenchReporter.markdown(recorded))")
        #expect(BenchReporter.html(recorded).contains("<dt>Scenario settings</dt><dd>" + HTMLText.escape(file)))
        // A version 1 report recorded none: the line is left out rather than guessed.
        #expect(!BenchReporter.markdown(versionOne(recorded)).contains("Scenario settings"))
    }

    @Test("a code span shows any text as written: its fence outgrows the text's backticks, padded where the text starts or ends with one")
    func codeSpansHoldBackticks() {
        #expect(BenchReporter.code(#"{"sort_key": "a_b", "x": ["c"]}"#) == #"`{"sort_key": "a_b", "x": ["c"]}`"#)
        #expect(BenchReporter.code(#"{"entity": "a`b``c"}"#) == #"```{"entity": "a`b``c"}```"#)
        #expect(BenchReporter.code("`x") == "`` `x ``")
        #expect(BenchReporter.code("a\nb") == "`a b`")
    }

    @Test func markdownShowsTheComparison() {
        let comparison = BaselineComparison(baseline: report, current: sampleReportWithOneRegression(), thresholdPercent: 10)
        let text = BenchReporter.markdown(sampleReportWithOneRegression(), comparison: comparison)
        #expect(text.contains("## Compared with the baseline"))
        #expect(text.contains("| REGRESSION | faulting |"))
    }

    @Test func htmlIsSelfContainedWithChartsAndTables() {
        let page = BenchReporter.html(report)
        #expect(page.hasPrefix("<!doctype html>"))
        #expect(page.contains("<svg"))
        #expect(page.contains("<polyline"), "no batch-size curve")
        #expect(page.contains("id=\"batch-size-curve\""))
        for result in report.results { #expect(page.contains(HTMLText.escape(result.label)), "html lacks \(result.label)") }
        #expect(page.contains("&lt;fast&gt; &amp; &quot;light&quot; | piped"))
        #expect(!page.contains("<fast>"))
        // Numbers in a table under each chart.
        #expect(page.components(separatedBy: "<table").count - 1 >= page.components(separatedBy: "<svg").count - 1)
        // Light and dark.
        #expect(page.contains("prefers-color-scheme: dark"))
        #expect(page.contains("<meta name=\"color-scheme\" content=\"light dark\">"))
    }

    @Test func htmlLoadsNothingFromTheNetwork() {
        let comparison = BaselineComparison(baseline: report, current: sampleReportWithOneRegression(), thresholdPercent: 10)
        for page in [BenchReporter.html(report), BenchReporter.html(sampleReportWithOneRegression(), comparison: comparison)] {
            let lower = page.lowercased()
            for forbidden in ["http://", "https://", "<script", "<link", "<img", "<iframe", "@import", "url(", "@font-face", "src="] {
                #expect(!lower.contains(forbidden), "html contains \(forbidden)")
            }
        }
    }

    @Test func htmlShowsVerdictsWhenCompared() {
        let current = sampleReportWithOneRegression()
        let page = BenchReporter.html(current, comparison: BaselineComparison(baseline: report, current: current, thresholdPercent: 10))
        #expect(page.contains("id=\"comparison\""))
        #expect(page.contains("<span class=\"badge regression\">REGRESSION</span>"))
        #expect(page.contains("class=\"bar regression\""))
        #expect(page.contains("statements 201 → 402"))
    }

    @Test func batchCurveReadsTheScenarioVariantNames() throws {
        #expect(BatchCurve.parse("batch 20, first screen")! == (20, "first screen"))
        #expect(BatchCurve.parse("no batch, scroll all")! == (0, "scroll all"))
        #expect(BatchCurve.parse("batch 5")! == (5, ""))
        #expect(BatchCurve.parse("faults, then read one attribute (N+1)") == nil)
        let curves = BatchCurve.series(from: report.results)
        #expect(curves.map(\.name) == ["first screen", "scroll all"])
        #expect(curves[0].points.map(\.label) == ["20", "100", "1000", "no batch"])
    }

    @Test func numbersAreFormattedWithoutTheLocale() {
        #expect(BenchFormat.count(244_292) == "244,292")
        #expect(BenchFormat.count(-1_000) == "-1,000")
        #expect(BenchFormat.count(999) == "999")
        #expect(BenchFormat.bytes(512) == "512 B")
        #expect(BenchFormat.bytes(1536) == "1.5 KiB")
        #expect(BenchFormat.bytes(nil) == "-")
        #expect(BenchFormat.ratio(1.4833) == "1.48x")
        #expect(BenchFormat.ratio(nil) == "-")
        #expect(BenchFormat.change(0.22) == "+22%")
        #expect(BenchFormat.change(-0.045) == "-4.5%")
        #expect(BenchFormat.seconds(0.0123) == "12.30 ms")
    }

    @Test func niceTicksCoverTheLargestValue() {
        #expect(HTMLChart.niceTicks(upTo: 7) == [0, 2, 4, 6, 8])
        #expect(HTMLChart.niceTicks(upTo: 0.9) == [0, 0.25, 0.5, 0.75, 1])
        #expect(HTMLChart.niceTicks(upTo: 0) == [0, 1])
        #expect(BenchReporter.tickSeconds(0, largest: 0.08) == "0")
        #expect(BenchReporter.tickSeconds(0.02, largest: 0.08) == "20 ms")
        #expect(BenchReporter.tickSeconds(0.0025, largest: 0.005) == "2.5 ms")
        #expect(BenchReporter.tickSeconds(0.00025, largest: 0.0005) == "250 µs")
        #expect(BenchReporter.tickSeconds(1.5, largest: 2) == "1.5 s")
    }

    func sampleReportWithOneRegression() -> BenchReport {
        var current = sampleReport()
        let index = current.results.firstIndex { $0.variant.hasPrefix("faults, then") }!
        current.results[index].statements *= 2
        return current
    }

    /// From a user trial: "faults, then read one attribute (N+1)" next to "returnsObjectsAsFaults false"
    /// read as though Core Data's default fetch caused the N+1; the variant fetches IDs only.
    @Test("the IDs-only N+1 variant is labelled as such in every view, while JSON and baselines keep its name")
    func idsOnlyVariantIsLabelledSoWhileItsKeyStays() throws {
        let sample = sampleReport()
        let label = "IDs only (includesPropertyValues false): N+1"
        #expect(BenchReporter.table(sample).contains(label))
        #expect(!BenchReporter.table(sample).contains("faults, then read one attribute"))
        #expect(BenchReporter.markdown(sample).contains(label))
        #expect(BenchReporter.html(sample).contains(label))
        let json = String(decoding: try sample.jsonData(), as: UTF8.self)
        #expect(json.contains("faults, then read one attribute (N+1)") && !json.contains(label), "the JSON key stays")
        // A baseline written with the old name still matches the current run.
        let comparison = BaselineComparison(baseline: sample, current: sample, thresholdPercent: 10)
        #expect(comparison.entries(.new).isEmpty && comparison.entries(.missing).isEmpty)
        #expect(comparison.render().contains("faulting / " + label))
    }

    @Test("a peak memory of 0 reads as less than a page, not 0 B")
    func zeroPeakReadsAsUnderAPage() {
        let tiny = result(peak: 0)
        let table = BenchReporter.table(FetchBenchTests.report([tiny]))
        #expect(table.contains("< 4.0 KiB") || table.contains("< 16.0 KiB") || table.contains("< 64.0 KiB"), "\(table)")
        #expect(!table.contains(" 0 B"), "\(table)")
    }
}
