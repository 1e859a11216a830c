import Foundation
import Measure
import Testing

/// A speed check's verdict: the medians and the spread of runs a noisy machine gives.
@Suite("Speed checks: ratio, spread, verdict")
struct SpeedCheckTests {
    static func check(_ ours: [Double], _ raw: [Double], _ target: SpeedCheck.Target?) -> SpeedCheck {
        SpeedCheck(name: "x", measured: Statistics(ours), reference: Statistics(raw), referenceName: "raw", target: target)
    }

    @Test("every run inside the target is met; the spread is fastest/fastest to slowest/slowest")
    func met() {
        let check = Self.check([1.2, 1.3, 1.25], [1.0, 1.05, 1.02], .atMost(1.5))
        #expect(abs(check.ratio - 1.25 / 1.02) < 1e-9)
        #expect(abs(check.ratioRange.lowerBound - 1.2) < 1e-9)
        #expect(abs(check.ratioRange.upperBound - 1.3 / 1.05) < 1e-9)
        #expect(check.verdict == .met && check.isMet)
        #expect(check.cells.last == "met")
        #expect(check.cells[4] == "1.20–1.24x")
    }

    @Test("medians inside but a slow pair outside is borderline, and not met")
    func borderline() {
        let check = Self.check([1.3, 1.4, 2.0], [1.0, 1.0, 1.1], .atMost(1.5))
        #expect(check.ratio <= 1.5)
        #expect(check.ratioRange.upperBound > 1.5)
        #expect(check.verdict == .borderline)
        #expect(!check.isMet)
        #expect(check.cells.last == "borderline")
    }

    @Test("nothing inside is missed; a faster-by target reads the ratio the other way")
    func missed() {
        #expect(Self.check([2.0, 2.1], [1.0, 1.0], .atMost(1.5)).verdict == .missed)
        #expect(Self.check([0.25, 0.3], [1.0, 1.0], .atLeastFaster(3)).verdict == .met)
        #expect(Self.check([0.3, 0.5], [1.0, 1.1], .atLeastFaster(3)).verdict == .borderline)
        #expect(Self.check([0.5, 0.6], [1.0, 1.0], .atLeastFaster(3)).cells.last == "MISSED")
        let faster = Self.check([0.25, 0.3], [1.0, 1.0], .atLeastFaster(3)).cells
        #expect(faster[3] == "3.64x faster")
        #expect(faster[4] == "3.33–4.00x")
        #expect(Self.check([0.5], [1.0], nil).verdict == .met)
    }

    /// A user trial found `ratio_low`/`ratio_high` documented as fastest over fastest and slowest over
    /// slowest while the code widened them to take in the ratio of medians. The verdict judges the medians
    /// on their own, so the spread is the runs' alone, as documented.
    @Test("the spread is the runs' (fastest/fastest, slowest/slowest), even when the ratio of medians lies outside it")
    func spreadIsTheRunsNotTheMedians() throws {
        // Medians 10 over 1; the fastest pair 1/1 and the slowest 10/10.
        let check = Self.check([1, 10, 10], [1, 1, 10], .atMost(2))
        #expect(check.ratio == 10)
        #expect(check.ratioRange == 1...1)
        #expect(check.verdict == .borderline, "the medians miss the target, the runs' spread meets it")
        let data = try SpeedReport(suite: "engine", checks: [check]).jsonData()
        let written = try #require((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["checks"] as? [[String: Any]])
        #expect(written.first?["ratio_low"] as? Double == 1 && written.first?["ratio_high"] as? Double == 1, "\(written)")
        #expect(written.first?["ratio"] as? Double == 10)
    }

    @Test("a faster-by target missed by being slower reads 'slower', not '0.91x faster'")
    func slowerReadsSlower() {
        let cells = Self.check([1.1, 1.2], [1.0, 1.0], .atLeastFaster(3)).cells
        #expect(cells[3] == "1.15x slower", "\(cells)")
        #expect(cells[4] == "1.10–1.20x", "the spread reads the same way: \(cells)")
        #expect(cells.last == "MISSED")
        #expect(Self.check([0.25, 0.3], [1.0, 1.0], .atLeastFaster(3)).cells[3] == "3.64x faster")
    }
}

/// `speed --json` wrote Swift's synthesized enum form (`"target": {"atMost": {"_0": 2}}`); its documented
/// shape is snake_case with `{"kind", "value"}` targets and the derived figures the table prints.
@Suite("Speed checks: the JSON form")
struct SpeedReportJSONTests {
    @Test func targetsAreKindAndValueAndTheFiguresAreThere() throws {
        let checks = [
            SpeedCheck(name: "insert", measured: Statistics([2, 3]), reference: Statistics([1, 1]), referenceName: "raw", target: .atMost(2)),
            SpeedCheck(name: "rows", measured: Statistics([1]), reference: Statistics([4]), referenceName: "full", target: .atLeastFaster(3)),
            SpeedCheck(name: "shown", measured: Statistics([1]), reference: Statistics([0]), referenceName: "none", target: nil),
        ]
        let data = try SpeedReport(suite: "engine", checks: checks).jsonData()
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["schema_version"] as? Int == 1 && object["suite"] as? String == "engine" && object["met"] as? Bool == false)
        let written = try #require(object["checks"] as? [[String: Any]])
        func target(_ check: [String: Any]) -> (String?, Double?)? {
            (check["target"] as? [String: Any]).map { ($0["kind"] as? String, $0["value"] as? Double) }
        }
        #expect(target(written[0])?.0 == "at_most" && target(written[0])?.1 == 2)
        #expect(target(written[1])?.0 == "at_least_faster" && target(written[1])?.1 == 3)
        #expect(written[2]["target"] == nil && written[2]["ratio"] == nil, "no target, and an infinite ratio is left out")
        #expect(written[0]["verdict"] as? String == "borderline" && written[0]["unit"] as? String == "seconds")
        #expect(written[0]["ratio"] as? Double == 2.5 && written[0]["reference_name"] as? String == "raw")
        #expect(!String(decoding: data, as: UTF8.self).contains("_0"))
        let decoded = try JSONDecoder().decode(SpeedReport.self, from: data)
        #expect(decoded.checks.map(\.target) == checks.map(\.target) && decoded.checks.map(\.name) == checks.map(\.name))
    }

    /// The table indents a check that qualifies the one above it ("  the same without building indexes");
    /// the JSON `name` is documented as what the check measures, without the table's layout.
    @Test func namesInJSONLoseTheTablesIndentation() throws {
        let check = SpeedCheck(name: "  the same without building indexes", measured: Statistics([1]), reference: Statistics([1]),
                               referenceName: "raw", target: nil)
        #expect(SpeedCheck.table([check]).contains("  the same without building indexes"))
        let data = try SpeedReport(suite: "import", checks: [check]).jsonData()
        let written = try #require((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["checks"] as? [[String: Any]])
        #expect(written.first?["name"] as? String == "the same without building indexes")
    }

    @Test func theTableNamesTheVerdictColumn() {
        let table = SpeedCheck.table([SpeedCheck(name: "x", measured: Statistics([1]), reference: Statistics([1]), referenceName: "raw", target: .atMost(2))])
        #expect(table.split(separator: "\n").first?.hasSuffix("verdict") == true, "\(table)")
    }
}
