import Foundation

extension BenchReporter {
    /// GitHub-flavoured Markdown: the run's context as a list, then one table per scenario, and the
    /// verdicts against a baseline when `comparison` is given (fit for a pull-request comment).
    ///
    /// For example:
    ///
    /// ```swift
    /// let text = BenchReporter.markdown(report)
    /// // # SeedStore fetch benchmark
    /// // …
    /// // ## batch-size
    /// // | variant | median | p90 | …
    /// ```
    public static func markdown(_ report: BenchReport, comparison: BaselineComparison? = nil) -> String {
        var out: [String] = ["# SeedStore fetch benchmark", ""]
        // The scenario settings are a scenario file to copy: escaped, `sort\_key` and `\[` would not rerun.
        out += context(report).map { "- **\($0.0)**: " + ($0.0 == scenarioSettingsLabel ? code($0.1) : escape($0.1)) }
        if let comparison {
            out += ["", "## Compared with the baseline", "", escape(comparison.headline), ""]
            out += ["| verdict | scenario | variant | " + BaselineComparison.figureColumns.joined(separator: " | ") + " | reasons |",
                    "|---|---|---|--:|--:|---|"]
            for entry in comparison.ranked {
                let reasons = entry.reasons.isEmpty ? "" : entry.reasons.map(escape).joined(separator: "<br>")
                out.append("| \(entry.verdict.label) | \(escape(entry.scenario)) | \(escape(entry.label)) | "
                           + "\(escape(entry.medianFigures)) | \(escape(entry.ratioFigures)) | \(reasons) |")
            }
            out += comparison.notes.map { "\n> \(escape($0))" }
        }
        for group in BenchFormat.grouped(report.results) {
            out += ["", "## \(escape(group.scenario))", ""]
            out.append("| variant | " + columns.joined(separator: " | ") + " |")
            out.append("|---|" + columns.map { _ in "--:" }.joined(separator: "|") + "|")
            for result in group.results {
                out.append("| \(escape(result.label)) | " + cells(result).map(escape).joined(separator: " | ") + " |")
            }
            let notes = group.results.compactMap { result in result.note.map { "- *\(escape(result.label))*: \(escape($0))" } }
            if !notes.isEmpty { out += [""] + notes }
        }
        let notes = notes(report)
        if !notes.isEmpty { out += ["", "## Notes", ""] + notes.map { "- " + escape($0) } }
        out += ["", "Times are medians of the measured runs; *raw* is the same work through the sqlite3 C API in the "
                + "same run: the same rows and columns, in the same statements where the engine runs several (batches, one SELECT per fault, "
                + "a prefetch's second statement). *noise* is the median absolute deviation over the median. Counters are per run and exact; "
                + "peak memory is taken on the first measured run, after an unmeasured one."]
        return out.joined(separator: "\n") + "\n"
    }

    /// The run's context as label and text pairs, shared by Markdown and HTML.
    static func context(_ report: BenchReport) -> [(String, String)] {
        let m = report.machine, s = report.settings
        var settings = "\(BenchFormat.runs(s.runs)) after \(s.warmupRuns) warm-up, \(String(format: "%g", s.timeBudgetSeconds)) s budget per variant"
        if let overhead = s.harnessOverheadSeconds { settings += ", harness overhead \(BenchFormat.seconds(overhead)) per run" }
        return [
            ("Tool", report.tool),
            ("Run", report.createdAt),
            ("Machine", "\(m.hostname), \(m.cores) cores, \(BenchFormat.bytes(m.memoryBytes)), \(m.os)"),
            ("Store", "\(report.store.path) (\(BenchFormat.bytes(report.store.sizeBytes))): \(BenchFormat.entities(report.store))"),
            ("Settings", settings),
            ("Scenarios", s.scenarios.joined(separator: ", ")),
        ] + (s.scenarioConfig.map { [(scenarioSettingsLabel, $0.scenarioFile(keys: ScenarioConfig.keys))] } ?? [])
    }

    /// The context line whose text is a scenario file, which Markdown shows as code to copy as it is.
    static let scenarioSettingsLabel = "Scenario settings"

    /// `text` as a Markdown code span, which shows it as written: no character needs escaping there.
    ///
    /// The fence is one backtick longer than the longest run of backticks in `text`, and a space pads
    /// each side when `text` starts or ends with a backtick (or a space on both sides), as CommonMark
    /// strips one such space. Line breaks, which would end a list item, become spaces.
    ///
    /// For example:
    ///
    /// ```swift
    /// BenchReporter.code(#"{"sort_key": "a`b"}"#)   // ``{"sort_key": "a`b"}``
    /// ```
    static func code(_ text: String) -> String {
        let flat = String(text.map { $0.isNewline ? " " : $0 })
        var longest = 0, run = 0
        for character in flat {
            run = character == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        let fence = String(repeating: "`", count: longest + 1)
        let padded = flat.hasPrefix("`") || flat.hasSuffix("`")
            || (flat.hasPrefix(" ") && flat.hasSuffix(" ") && flat.contains { $0 != " " })
        return fence + (padded ? " " + flat + " " : flat) + fence
    }

    /// Text made safe for a Markdown table cell.
    static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "|": out += "\\|"
            case "\n", "\r", "\r\n": out += " "
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "*", "_", "`", "[", "]", "\\": out += "\\\(character)"
            default: out.append(character)
            }
        }
        return out
    }
}
