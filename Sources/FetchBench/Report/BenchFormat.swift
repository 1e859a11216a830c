import Foundation
import Measure

/// How reports write numbers: one place, so the table, Markdown and HTML agree.
enum BenchFormat {
    /// Seconds with a unit that keeps three significant figures: `1.234 s`, `12.34 ms`, `56.7 µs`.
    static func seconds(_ value: Double?) -> String {
        guard let value else { return "-" }
        return SpeedCheck.seconds(value)
    }

    /// A ratio to raw: `1.48x`, or `-` when there is none.
    static func ratio(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "-" }
        return value >= 100 ? String(format: "%.0fx", value) : value >= 10 ? String(format: "%.1fx", value) : String(format: "%.2fx", value)
    }

    /// An integer with thousands separators, independent of the locale: `244,292`.
    static func count(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var out = ""
        for (i, digit) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return value < 0 ? "-" + out : out
    }

    /// Bytes in binary units: `512 B`, `12.3 MiB`.
    /// A peak memory figure: as ``bytes(_:)``, but 0 reads `< 4 KiB` (less than a page: resident memory
    /// grows a page at a time, so 0 means the run fitted in memory the process already held).
    static func peak(_ value: Int?) -> String {
        value == 0 ? "< \(bytes(Int(getpagesize())))" : bytes(value)
    }

    static func bytes(_ value: Int?) -> String {
        guard let value else { return "-" }
        let units = ["B", "KiB", "MiB", "GiB", "TiB"]
        var amount = Double(value), unit = 0
        while abs(amount) >= 1024 && unit < units.count - 1 {
            amount /= 1024
            unit += 1
        }
        return unit == 0 ? "\(value) B" : String(format: amount >= 100 ? "%.0f" : "%.1f", amount) + " " + units[unit]
    }

    /// A relative noise (MAD / median) as `±3.1%`.
    static func noise(_ value: Double) -> String {
        String(format: value >= 0.1 ? "±%.0f%%" : "±%.1f%%", value * 100)
    }

    /// A signed relative change as `+22%`, `-4.5%`.
    static func change(_ value: Double) -> String {
        let percent = value * 100
        let text = abs(percent) >= 10 ? String(format: "%.0f%%", abs(percent)) : String(format: "%.1f%%", abs(percent))
        return (percent < 0 ? "-" : "+") + text
    }

    /// The scenarios in first-seen order, each with its results in report order.
    static func grouped(_ results: [BenchResult]) -> [(scenario: String, results: [BenchResult])] {
        var order: [String] = []
        var groups: [String: [BenchResult]] = [:]
        for result in results {
            if groups[result.scenario] == nil { order.append(result.scenario) }
            groups[result.scenario, default: []].append(result)
        }
        return order.map { ($0, groups[$0]!) }
    }

    /// One line on what was measured where: tool, time, store, runs, machine.
    static func summary(_ report: BenchReport) -> String {
        let store = URL(fileURLWithPath: report.store.path).lastPathComponent
        let m = report.machine
        return "\(report.tool) · \(report.createdAt) · \(store) (\(bytes(report.store.sizeBytes))) · \(runs(report.settings.runs)), "
            + "\(report.settings.warmupRuns) warm-up · \(m.hostname), \(m.cores) cores, \(bytes(m.memoryBytes))"
    }

    /// The most measured runs per variant in words: `up to 5 runs`, `1 run`.
    static func runs(_ count: Int) -> String {
        count == 1 ? "1 run" : "up to \(count) runs"
    }

    /// The store's entities and row counts: `Well 244,292, WellDetails 244,292`.
    static func entities(_ store: BenchReport.StoreInfo) -> String {
        store.entities.sorted { $0.key < $1.key }.map { "\($0.key) \(count($0.value))" }.joined(separator: ", ")
    }
}
