import CSQLite
import Foundation
import ManagedStore
import Measure
import Testing
@testable import FetchBench

/// From user trial K (a performance engineer benchmarking their own data): a dropped index that the gate
/// missed because the ratio to raw cancels store regressions, raw references that did other work than the
/// engine or ran cold, an N+1 bar over part of the rows next to full fetches, and `±0.0%` for one run.
@Suite("Trial K: the gate sees store regressions, raw references do the engine's work")
struct BenchTrialKTests {
    static let indexed = ["ZWELL_ZUWI_INDEX": "ZWELL(ZUWI)", "ZWELL_ZNAME_INDEX": "ZWELL(ZNAME)"]

    /// A report whose store has `indexes`.
    func report(_ results: [BenchResult], indexes: [String: String]?) -> BenchReport {
        var made = FetchBenchTests.report(results)
        made.store.indexes = indexes
        return made
    }

    /// The trial's case: the first screen 3.5x slower after dropping an index, raw 3.5x slower too.
    var firstScreen: (old: BenchResult, new: BenchResult) {
        (result("batch-size", "batch 20, first screen", median: 0.00663, spread: 0.0001, rawMedian: 0.00625, rawSpread: 0.0001),
         result("batch-size", "batch 20, first screen", median: 0.02331, spread: 0.0003, rawMedian: 0.0196, rawSpread: 0.0003))
    }

    @Test("a dropped index with a slower median is a regression (exit 2), and the notes name the index")
    func droppedIndexFailsTheGate() throws {
        var after = Self.indexed
        after["ZWELL_ZUWI_INDEX"] = nil
        let comparison = BaselineComparison(baseline: report([firstScreen.old], indexes: Self.indexed),
                                            current: report([firstScreen.new], indexes: after), thresholdPercent: 10)
        #expect(comparison.entries[0].verdict == .regression)
        #expect(comparison.exitCode == BaselineComparison.ExitCode.regression)
        #expect(comparison.indexChanges == [.init(name: "ZWELL_ZUWI_INDEX", baseline: "ZWELL(ZUWI)", current: nil)])
        #expect(comparison.entries[0].reasons.contains { $0.hasPrefix("median 6.63 ms → 23.31 ms (+252%, noise ±") && $0.hasSuffix("; store indexes changed)") },
                "\(comparison.entries[0].reasons)")
        #expect(comparison.notes.contains { $0.contains("indexes differ from the baseline's: dropped ZWELL_ZUWI_INDEX: ZWELL(ZUWI)") },
                "\(comparison.notes)")
        // The same figures on unchanged indexes gate on the ratio, which held: unchanged, as before.
        let same = BaselineComparison(baseline: report([firstScreen.old], indexes: Self.indexed),
                                      current: report([firstScreen.new], indexes: Self.indexed), thresholdPercent: 10)
        #expect(same.exitCode == 0)
        #expect(same.indexChanges == [])
    }

    @Test("an index change with no slower variant is a note, not a failure")
    func indexChangeAloneIsANote() {
        let comparison = BaselineComparison(baseline: report([result()], indexes: Self.indexed),
                                            current: report([result()], indexes: Self.indexed.merging(["ZWELL_ZDEPTH_INDEX": "ZWELL(ZDEPTH)"]) { a, _ in a }),
                                            thresholdPercent: 10)
        #expect(comparison.exitCode == 0)
        #expect(comparison.notes.contains { $0.contains("added ZWELL_ZDEPTH_INDEX: ZWELL(ZDEPTH)") })
    }

    @Test("--metric median gates on medians whatever the indexes; a baseline without indexes gets a note")
    func medianMetric() throws {
        let comparison = BaselineComparison(baseline: report([firstScreen.old], indexes: nil),
                                            current: report([firstScreen.new], indexes: Self.indexed), thresholdPercent: 10, metric: .medianSeconds)
        #expect(try #require(comparison.entries[0].timing).metric == .medianSeconds)
        #expect(comparison.exitCode == 2)
        #expect(comparison.headline.contains("timing gated on median,"))
        let ratio = BaselineComparison(baseline: report([firstScreen.old], indexes: nil),
                                       current: report([firstScreen.new], indexes: Self.indexed), thresholdPercent: 10)
        #expect(ratio.exitCode == 0)
        #expect(ratio.notes.contains { $0.contains("does not record its store's indexes") })
    }

    @Test("every view shows the median, baseline then run, next to the ratio, unchanged variants too")
    func medianChangeIsAlwaysShown() {
        let comparison = BaselineComparison(baseline: report([firstScreen.old], indexes: Self.indexed),
                                            current: report([firstScreen.new], indexes: Self.indexed), thresholdPercent: 10)
        #expect(comparison.entries[0].verdict == .unchanged)
        let current = report([firstScreen.new], indexes: Self.indexed)
        for (view, text) in [("render", comparison.render()), ("markdown", BenchReporter.markdown(current, comparison: comparison)),
                             ("html", BenchReporter.html(current, comparison: comparison))] {
            #expect(text.contains("6.63 ms → 23.31 ms (+252%)"), "\(view) lacks the median change")
            #expect(text.contains("1.06x → 1.19x (+12%)"), "\(view) lacks the ratio change")
        }
    }

    @Test("a report records its store's indexes; one without them still loads and compares")
    func indexesAreOptionalInJSON() throws {
        let withIndexes = report([result()], indexes: Self.indexed)
        let json = try #require(String(data: try withIndexes.jsonData(), encoding: .utf8))
        #expect(json.contains("\"ZWELL_ZUWI_INDEX\" : \"ZWELL(ZUWI)\""))
        #expect(try BenchReport.decode(try withIndexes.jsonData(), source: "x") == withIndexes)
        let without = report([result()], indexes: nil)
        #expect(!String(decoding: try without.jsonData(), as: UTF8.self).contains("indexes"))
        #expect(try BenchReport.decode(try without.jsonData(), source: "x").store.indexes == nil)
    }

    @Test("a ratio to another raw reference than the baseline's compares medians instead, with a note")
    func anotherRawReferenceComparesMedians() throws {
        var old = result("batch-size", "batch 20, scroll all", median: 0.961, spread: 0.001, rawMedian: 0.282, rawSpread: 0.001)
        old.rawReference = nil
        var new = result("batch-size", "batch 20, scroll all", median: 0.961, spread: 0.001, rawMedian: 0.600, rawSpread: 0.001)
        new.rawReference = "the sorted keys, then every row in IN batches of 20"
        let comparison = BaselineComparison(baseline: report([old], indexes: nil), current: report([new], indexes: nil), thresholdPercent: 10)
        #expect(try #require(comparison.entries[0].timing).metric == .medianSeconds)
        #expect(comparison.exitCode == 0, "the ratio halved only because the reference does the batches now")
        #expect(comparison.notes.contains { $0.contains("another raw reference than the baseline's") })
    }

    @Test("the new optional keys validate against the JSON schema and round-trip")
    func newKeysValidate() throws {
        var made = sampleReport()
        made.store.indexes = Self.indexed
        made.settings.skipped = ["decomposition skipped: the store has no entity WellSummary"]
        made.results[1].rawReference = "the sorted keys, then every row in IN batches of 20"
        made.results[1].covers = .init(objects: 20, of: 1000)
        let schema = JSONSchemaValidator(root: try JSONValue.parse(Data(contentsOf: repositoryRoot.appendingPathComponent("docs/bench-report.schema.json"))))
        let problems = schema.validate(try JSONValue.parse(try made.jsonData()))
        #expect(problems.isEmpty, "\(problems)")
        #expect(try BenchReport.decode(try made.jsonData(), source: "x") == made)
    }

    // MARK: Raw references on a real store

    /// Wells with 7 operators (a to-one), summaries and details, `count` of each well, names running down.
    static func store(in directory: URL, count: Int) throws -> PersistentStore {
        try wellsStore(in: directory, count: count, operators: 7, namesDescending: true)
    }

    /// Statements `body` runs on `raw`, counted by SQLite's own trace.
    static func statements(on raw: RawDatabase, _ body: () throws -> Void) rethrows -> Int {
        let count = UnsafeMutablePointer<Int>.allocate(capacity: 1)
        count.initialize(to: 0)
        defer { count.deallocate() }
        sqlite3_trace_v2(raw.db, UInt32(SQLITE_TRACE_STMT), { _, context, _, _ in
            context!.assumingMemoryBound(to: Int.self).pointee += 1
            return 0
        }, count)
        defer { sqlite3_trace_v2(raw.db, 0, nil, nil) }
        try body()
        return count.pointee
    }

    @Test("every raw reference runs as many statements as the engine: batches, per-fault SELECTs, prefetch's second")
    func rawReferencesRunTheEnginesStatements() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try Self.store(in: directory, count: 230)
        var config = ScenarioConfig()
        config.batchSizes = [0, 20, 100]
        config.faultLimit = 50
        config.screen = 30
        let raw = try RawDatabase(path: store.path, readOnly: true)
        var checked = 0
        for scenario in try ScenarioCatalog.make(for: store, config: config) {
            for variant in scenario.variants {
                let engine = try BenchRunner.counters(of: variant, store: store).statements
                let rawStatements = try Self.statements(on: raw) { try variant.raw?(raw) }
                #expect(rawStatements == engine, "\(scenario.name) / \(variant.name): raw \(rawStatements), engine \(engine)")
                #expect((variant.rawReference != nil) == (engine > 1), "\(scenario.name) / \(variant.name) says how its raw works")
                checked += 1
            }
        }
        #expect(checked == 19)
    }

    @Test("N+1 variants that stop at fault_limit say which part of the rows they cover, in every view")
    func partialVariantsSayWhatTheyCover() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try Self.store(in: directory, count: 60)
        var config = ScenarioConfig()
        config.faultLimit = 20
        let dictionary = try #require(try ScenarioCatalog.make(for: store, config: config, only: ["dictionary"]).first)
        #expect(dictionary.variants.map(\.covers) == [nil, nil, BenchResult.Covers(objects: 20, of: 60)])
        #expect(dictionary.variants[2].note == "IDs, then each object fires a SELECT (first 20)")
        config.faultLimit = 20_000
        let all = try #require(try ScenarioCatalog.make(for: store, config: config, only: ["faulting"]).first)
        #expect(all.variants.allSatisfy { $0.covers == nil })
        #expect(all.variants[0].note.hasSuffix("(all 60)"), "the actual count, not the limit: \(all.variants[0].note)")

        var partial = result("dictionary", "IDs then faults (N+1)", median: 0.0217)
        partial.covers = .init(objects: 2_000, of: 200_000)
        let made = FetchBenchTests.report([result("dictionary", "whole objects", median: 0.213), partial])
        #expect(BenchReporter.table(made).contains("IDs then faults (N+1) (2,000 of 200,000 objects)"))
        #expect(BenchReporter.markdown(made).contains("IDs then faults (N+1) (2,000 of 200,000 objects)"))
        #expect(BenchReporter.html(made).contains("only 2,000 of 200,000 objects"))
        #expect(try BenchReport.decode(try made.jsonData(), source: "x") == made)
    }

    /// A user trial: `IDs only (includesPropertyValues false): N+1 (2…`, cut at the column's width, hid the count.
    @Test("a label too long for the terminal table keeps its count on a line of its own, the column no wider")
    func longLabelsKeepTheirCountInTheTable() throws {
        var long = result("faulting", "faults, then read one attribute (N+1)", median: 0.0217)
        long.covers = .init(objects: 2_000, of: 20_000)
        var short = result("faulting", "object IDs only", median: 0.001)
        short.covers = .init(objects: 2_000, of: 20_000)
        let table = BenchReporter.table(FetchBenchTests.report([long, short, result("faulting", "whole", median: 0.2)]))
        let lines = table.split(separator: "\n").map(String.init)
        let name = try #require(lines.firstIndex { $0.contains("IDs only (includesPropertyValues false): N+1") }, "\(table)")
        #expect(lines[name + 1].trimmingCharacters(in: .whitespaces) == "(2,000 of 20,000 objects)", "\(table)")
        #expect(!table.contains("…"), "nothing is cut: \(table)")
        #expect(table.contains("object IDs only (2,000 of 20,000 objects)"), "a label that fits stays on one line: \(table)")
        let header = try #require(lines.first { $0.hasPrefix("scenario") })
        let width = try #require(header.range(of: "median")).lowerBound.utf16Offset(in: header)
        #expect(width <= "scenario  ".count + 48 + 2 + 8, "the variant column stays at most 48 wide: \(header)")
    }

    @Test("peak memory does not depend on the warm-up: it is taken on a steady-state run, not the one paying one-time costs")
    func peakMemoryIgnoresTheWarmup() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try Self.store(in: directory, count: 10)
        let raw = try RawDatabase(path: store.path, readOnly: true)
        /// A variant with a one-time cost, as a compiled statement or a filled page cache is: its first run
        /// keeps 48 MiB; every run allocates and frees 2 MiB.
        final class Cache { var kept: [UInt8]? }
        func variant() -> (BenchScenario, BenchVariant) {
            let cache = Cache()
            let variant = BenchVariant(name: "cached", note: "", run: { _ in
                if cache.kept == nil { cache.kept = [UInt8](repeating: 1, count: 48 << 20) }
                let scratch = [UInt8](repeating: 2, count: 2 << 20)
                withExtendedLifetime(scratch) {}
            }, raw: { _ in })
            return (BenchScenario(name: "test", question: "", variants: [variant]), variant)
        }
        var peaks: [Int] = []
        for warmup in [0, 1] {
            let (scenario, one) = variant()
            let measured = try BenchRunner(runs: 1, warmupRuns: warmup).measure(one, of: scenario, store: store, raw: raw)
            peaks.append(try #require(measured.peakMemoryBytes))
        }
        #expect(peaks.allSatisfy { $0 < 16 << 20 }, "the one-time 48 MiB is not a run's: \(peaks)")
    }

    @Test("one run's noise reads n/a, not ±0.0%; a ratio below 0.9x is marked and explained; skipped families are noted")
    func unknownsAreShownAsUnknown() {
        let single = BenchResult(scenario: "batch-size", variant: "no batch, first screen", timings: Statistics([0.0002]),
                                 raw: Statistics([0.002]), statements: 1, rows: 5, objects: 5, faults: 0, peakMemoryBytes: nil)
        var made = FetchBenchTests.report([single])
        made.settings.skipped = ["faulting: the to-one prefetching variants skipped: Order has no to-one operator"]
        for (view, text) in [("table", BenchReporter.table(made)), ("markdown", BenchReporter.markdown(made)), ("html", BenchReporter.html(made))] {
            #expect(!text.contains("±0.0%"), "\(view)")
            #expect(text.contains("n/a"), "\(view)")
            #expect(text.contains("0.10x?"), "\(view)")
            #expect(text.contains("marked ?: the engine runs the raw reference"), "\(view)")
            #expect(text.contains("Order has no to-one operator"), "\(view)")
        }
        #expect(!BenchReporter.table(made).contains("up to 1 runs"))
        #expect(BenchResult.label(scenario: "dictionary", variant: "1 properties as dictionaries") == "1 property as dictionaries")
    }
}
