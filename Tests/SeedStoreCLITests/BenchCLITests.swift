import Foundation
import Testing

/// generate → import → bench → compare, end to end through the binary on a small store.
@Suite(.enabled(if: CLI.hasBinary, CLI.noBinary))
struct BenchCLITests {
    @Test func benchReportsBaselinesAndComparisons() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let generated = try CLI.run(["generate", "wells", "--rows", "1500", "--out", dir.appendingPathComponent("w").path])
        #expect(generated.status == 0, "\(generated.stderr)")
        let store = dir.appendingPathComponent("W.sqlite").path
        let imported = try CLI.run(["import", "--mapping", dir.appendingPathComponent("w/wells.mapping.json").path,
                                    "--out", store, "--progress", "none"])
        #expect(imported.status == 0, "\(imported.stderr)")
        // The seed store's finish, as inspect shows it: one file, statistics, the indexes built after the load.
        let inspected = try CLI.run(["inspect", store])
        #expect(inspected.status == 0, "\(inspected.stderr)")
        #expect(inspected.stdout.contains("Journal: delete; statistics: present (ANALYZE ran)"), "\(inspected.stdout)")
        #expect(inspected.stdout.contains("Well — table ZWELL, Z_ENT 2, 1,500 rows"), "\(inspected.stdout)")
        #expect(inspected.stdout.contains("indexes: ZWELL_ZOPERATOR_INDEX (ZOPERATOR), ZWELL_ZUWI_INDEX (ZUWI), ZWELL_ZWELL_NAME_INDEX (ZWELL_NAME)"),
                "\(inspected.stdout)")

        let json = dir.appendingPathComponent("bench.json").path, html = dir.appendingPathComponent("bench.html").path
        let bench = try CLI.run(["bench", store, "--runs", "1", "--fault-limit", "100", "--json", json, "--html", html,
                                 "--save-baseline", "small", "--quiet"], directory: dir)
        #expect(bench.status == 0, "\(bench.stderr)")
        for family in ["batch-size", "faulting", "dictionary", "decomposition"] { #expect(bench.stdout.contains(family)) }
        let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as? [String: Any])
        #expect(report["schema_version"] as? Int == 2)
        let results = try #require(report["results"] as? [[String: Any]])
        #expect(results.count >= 18)
        let screen = try #require(results.first { $0["variant"] as? String == "batch 20, first screen" })
        #expect(screen["statements"] as? Int == 2, "primary keys, then one batch")
        #expect(screen["ratio_to_raw"] is Double && screen["peak_memory_bytes"] != nil)
        let page = try String(contentsOfFile: html, encoding: .utf8)
        #expect(page.contains("<svg") && !page.contains("<script"))

        // The same store against its own baseline: counters are identical, so nothing regresses.
        let compared = try CLI.run(["bench", store, "--scenarios", "faulting", "--runs", "1", "--fault-limit", "100",
                                    "--compare", "small", "--threshold", "1000", "--quiet"], directory: dir)
        #expect(compared.status == 0 || compared.status == 4, "exit \(compared.status): \(compared.stdout)")
        let missing = try CLI.run(["bench", store, "--scenarios", "faulting", "--runs", "1", "--compare", "nope", "--quiet"], directory: dir)
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("--save-baseline nope"))
    }
}
