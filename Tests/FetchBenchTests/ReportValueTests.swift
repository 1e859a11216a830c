import Foundation
import Testing
@testable import FetchBench

/// From the bench-gate trial (helper-69): hand-edited baselines with values no measurement gives (a
/// negative noise or median, `runs` 0, a variant twice) were accepted and judged nothing, or wrongly.
@Suite("Report values: what no measurement gives is refused by key path")
struct ReportValueTests {
    /// `sampleReport()` as JSON with `edit` applied to its first result, decoded.
    func decode(editing edit: (inout [String: Any]) -> Void) throws -> BenchReport {
        var object = try #require(try JSONSerialization.jsonObject(with: sampleReport().jsonData()) as? [String: Any])
        var results = try #require(object["results"] as? [[String: Any]])
        edit(&results[0])
        object["results"] = results
        return try BenchReport.decode(try JSONSerialization.data(withJSONObject: object), source: "main.json")
    }

    func problem(_ edit: (inout [String: Any]) -> Void) -> String? {
        do { _ = try decode(editing: edit); return nil } catch { return "\(error)" }
    }

    @Test("a written report reads back: its values pass")
    func writtenReportsPass() throws {
        #expect(sampleReport().valueProblem() == nil)
        _ = try decode { _ in }
    }

    @Test("each impossible value is named with its key path and what it takes", arguments: [
        ("noise", "-0.5", "results[0].noise is -0.5; it takes 0 or more"),
        ("median_seconds", "-1.0", "results[0].median_seconds is -1.0; it takes more than 0"),
        ("median_seconds", "0.0", "results[0].median_seconds is 0.0; it takes more than 0"),
        ("runs", "0", "results[0].runs is 0; it takes 1 or more"),
        ("ratio_to_raw", "0.0", "results[0].ratio_to_raw is 0.0; it takes more than 0"),
        ("statements", "-1", "results[0].statements is -1; it takes 0 or more"),
        ("min_seconds", "5.0", "results[0].min_seconds (5.0) is more than results[0].median_seconds"),
    ])
    func impossibleValues(key: String, json: String, message: String) throws {
        let value = try JSONSerialization.jsonObject(with: Data(json.utf8), options: .fragmentsAllowed)
        let text = try #require(problem { $0[key] = value })
        #expect(text.hasPrefix("main.json is not a readable bench report: \(message)"), "\(text)")
        #expect(text.contains("write it again with --json, or save the baseline again"), "\(text)")
    }

    @Test("a variant listed twice is refused, naming both places")
    func duplicateVariant() throws {
        var report = sampleReport()
        report.results.append(report.results[1])
        let text = try #require(report.valueProblem())
        #expect(text == "results[\(report.results.count - 1)] measures '\(report.results[1].key)' again, as results[1] does; keep one result per scenario and variant")
    }

    @Test("decoding errors name the key path as JSON reads and the kind of value, not Swift's types")
    func decodingWording() throws {
        #expect(problem { $0["noise"] = "low" }?.contains("expected a number at results[0].noise") == true, "\(problem { $0["noise"] = "low" } ?? "")")
        #expect(problem { $0["p90_seconds"] = NSNull() }?.contains("null where a number belongs at results[0].p90_seconds") == true)
        #expect(problem { $0["variant"] = 3 }?.contains("expected text at results[0].variant") == true)
        #expect(throws: BenchError.self) { try BenchReport.decode(Data("  \n".utf8), source: "empty.json") }
        do { _ = try BenchReport.decode(Data(), source: "empty.json") } catch {
            #expect("\(error)" == "empty.json is not a readable bench report: the file is empty; write a report with --json, or save a baseline with --save-baseline")
        }
    }
}
