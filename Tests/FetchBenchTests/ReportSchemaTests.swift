import Foundation
import Testing
@testable import FetchBench

/// The report's JSON: round trip, snake_case keys, the version, and agreement with the documented
/// schema (docs/bench-schema.md and docs/bench-report.schema.json).
@Suite struct ReportSchemaTests {
    let docs = repositoryRoot.appendingPathComponent("docs")

    func schema() throws -> JSONSchemaValidator {
        JSONSchemaValidator(root: try JSONValue.parse(Data(contentsOf: docs.appendingPathComponent("bench-report.schema.json"))))
    }

    @Test func encodeThenDecodeIsEqual() throws {
        let original = sampleReport()
        let decoded = try BenchReport.decode(try original.jsonData(), source: "test")
        #expect(decoded == original)
    }

    @Test func writeThenLoadIsEqual() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("report.json")
        try sampleReport().write(to: file)
        #expect(try BenchReport.load(from: file) == sampleReport())
    }

    @Test func resultsCarryTheRequiredKeys() throws {
        let json = try JSONValue.parse(try sampleReport().jsonData())
        #expect(json["schema_version"] == .integer(Int64(BenchReport.currentSchemaVersion)))
        guard case .array(let results)? = json["results"] else { Issue.record("no results array"); return }
        for key in ["scenario", "variant", "median_seconds", "p90_seconds", "raw_median_seconds", "ratio_to_raw", "statements", "rows",
                    "objects", "faults", "peak_memory_bytes", "noise", "runs"] {
            #expect(results[0][key] != nil, "results[0] lacks \(key)")
        }
    }

    @Test func keysAreSnakeCase() throws {
        var bad: [String] = []
        func walk(_ value: JSONValue, _ path: String) {
            switch value {
            case .object(let members):
                for (key, member) in members {
                    // Entity names are data, not keys of the format.
                    if path != "$.store.entities" && key.contains(where: { !($0.isLowercase || $0.isNumber || $0 == "_") }) {
                        bad.append("\(path).\(key)")
                    }
                    walk(member, "\(path).\(key)")
                }
            case .array(let elements): elements.forEach { walk($0, path + "[]") }
            default: break
            }
        }
        walk(try JSONValue.parse(try sampleReport().jsonData()), "$")
        #expect(bad.isEmpty, "not snake_case: \(bad)")
    }

    @Test func optionalKeysAreAbsentNotNull() throws {
        let json = try JSONValue.parse(try report([result(rawMedian: nil, peak: nil, note: nil)]).jsonData())
        guard case .array(let results)? = json["results"] else { Issue.record("no results array"); return }
        for key in ["raw_median_seconds", "raw_noise", "ratio_to_raw", "peak_memory_bytes", "note"] {
            #expect(results[0][key] == nil, "\(key) should be absent")
        }
        #expect(try schema().validate(json).isEmpty)
    }

    @Test func aRealReportValidatesAgainstTheJSONSchema() throws {
        let problems = try schema().validate(try JSONValue.parse(try sampleReport().jsonData()))
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test func theValidatorCatchesWhatTheSchemaForbids() throws {
        var text = try #require(String(data: try sampleReport().jsonData(), encoding: .utf8))
        text = text.replacingOccurrences(of: "\"statements\" : 1,", with: "\"statements\" : \"one\",")
        text = text.replacingOccurrences(of: "\"hostname\"", with: "\"host_name\"")
        let problems = try schema().validate(try JSONValue.parse(Data(text.utf8)))
        #expect(problems.contains { $0.contains("statements: expected integer") })
        #expect(problems.contains { $0.contains("missing required key 'hostname'") })
        #expect(problems.contains { $0.contains("undocumented key 'host_name'") })
    }

    @Test func everySchemaKeyIsDocumented() throws {
        let markdown = try String(contentsOf: docs.appendingPathComponent("bench-schema.md"), encoding: .utf8)
        var keys: Set<String> = []
        func collect(_ value: JSONValue) {
            if case .object(let members)? = value["properties"] { keys.formUnion(members.keys); members.values.forEach(collect) }
            if case .object(let defs)? = value["$defs"] { defs.values.forEach(collect) }
        }
        collect(try schema().root)
        #expect(keys.count > 30)
        for key in keys.sorted() { #expect(markdown.contains("| `\(key)` |"), "docs/bench-schema.md has no row for \(key)") }
        #expect(markdown.contains("this seedstore reads up to \(BenchReport.currentSchemaVersion). Update seedstore or re-run the baseline."))
    }

    @Test func aFutureSchemaVersionFailsWhateverItsShape() throws {
        var text = try #require(String(data: try sampleReport().jsonData(), encoding: .utf8))
        text = text.replacingOccurrences(of: "\"schema_version\" : \(BenchReport.currentSchemaVersion)", with: "\"schema_version\" : 7")
        #expect(throws: BenchError.self) { try BenchReport.decode(Data(text.utf8), source: "future.json") }
        do {
            _ = try BenchReport.decode(Data(text.utf8), source: "future.json")
        } catch {
            #expect("\(error)" == "future.json has report schema version 7; this seedstore reads up to 2. Update seedstore or re-run the baseline.")
        }
    }
}

/// `settings.scenario_config` (schema version 2): the scenario settings a report was made with, recorded as
/// they take effect, and version 1 reports without them.
@Suite struct ReportScenarioSettingsTests {
    @Test func theSettingsAreRecordedAsTheyTakeEffect() throws {
        let json = try JSONValue.parse(try report([result()], config: ScenarioConfig.books).jsonData())
        let recorded = try #require(json["settings"]?["scenario_config"])
        #expect(recorded["entity"] == .string("Book"))
        #expect(recorded["map_properties"] == .array([.string("title"), .string("author")]))
        #expect(recorded["fault_attribute"] == .string("title"), "by default the sort key is read, and the report says so")
        for key in ScenarioConfig.keys { #expect(recorded[key] != nil, "scenario_config lacks \(key)") }
    }

    @Test func theRecordedSettingsRoundTrip() throws {
        var config = ScenarioConfig.books
        config.relationship = nil
        config.screen = 7
        config.batchSizes = [0, 5]
        let decoded = try BenchReport.decode(try report([result()], config: config).jsonData(), source: "test")
        #expect(decoded.settings.scenarioConfig == config.effective)
        #expect(decoded.settings.scenarioConfig?.relationship == nil, "an unnamed relationship stays unnamed, not the default")
    }

    @Test func theRecordedSettingsAreAScenarioFile() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let json = try #require(try JSONSerialization.jsonObject(with: report([result()], config: ScenarioConfig.books).jsonData()) as? [String: Any])
        let recorded = try #require((json["settings"] as? [String: Any])?["scenario_config"])
        let file = directory.appendingPathComponent("scenario.json")
        try JSONSerialization.data(withJSONObject: recorded).write(to: file)
        #expect(try ScenarioConfig.load(file.path) == ScenarioConfig.books.effective)
    }

    @Test func aVersionOneReportWithoutTheSettingsStillLoads() throws {
        var text = try #require(String(data: try versionOne(sampleReport()).jsonData(), encoding: .utf8))
        #expect(!text.contains("scenario_config"))
        text = text.replacingOccurrences(of: "\"harness_overhead_seconds\"", with: "\"unknown_later_key\" : 1, \"harness_overhead_seconds\"")
        let decoded = try BenchReport.decode(Data(text.utf8), source: "v1.json")
        #expect(decoded.schemaVersion == 1)
        #expect(decoded.settings.scenarioConfig == nil)
        #expect(decoded.results == sampleReport().results)
    }

    @Test func aVersionTwoReportWithoutTheSettingsIsRefused() throws {
        var stripped = sampleReport()
        stripped.settings.scenarioConfig = nil
        do {
            _ = try BenchReport.decode(try stripped.jsonData(), source: "v2.json")
            Issue.record("a version 2 report without scenario_config loaded")
        } catch {
            #expect("\(error)" == "v2.json is not a readable bench report: missing key 'scenario_config' in settings, which schema version 2 requires")
        }
    }

    @Test func theRecordedSettingsValidateAgainstTheJSONSchema() throws {
        let validator = JSONSchemaValidator(root: try JSONValue.parse(Data(contentsOf: repositoryRoot.appendingPathComponent("docs/bench-report.schema.json"))))
        var config = ScenarioConfig.books
        config.summaryEntity = nil
        #expect(try validator.validate(try JSONValue.parse(try report([result()], config: config).jsonData())).isEmpty)
    }
}
