import Foundation
import ManagedStore
import Measure
@testable import FetchBench

/// A result with chosen figures; timings come from `Statistics` so noise is computed, not typed in.
func result(_ scenario: String = "faulting", _ variant: String = "faults (N+1)", median: Double = 0.010, spread: Double = 0.0002,
            rawMedian: Double? = 0.008, rawSpread: Double = 0.0001, statements: Int = 2, rows: Int = 100,
            objects: Int = 100, faults: Int = 0, peak: Int? = 1 << 20, note: String? = nil) -> BenchResult {
    // Five samples whose median is `median` and whose MAD is `spread`.
    func samples(_ m: Double, _ d: Double) -> Statistics { Statistics([m - 2 * d, m - d, m, m + d, m + 3 * d]) }
    return BenchResult(scenario: scenario, variant: variant, timings: samples(median, spread),
                       raw: rawMedian.map { samples($0, rawSpread) }, statements: statements, rows: rows,
                       objects: objects, faults: faults, peakMemoryBytes: peak, note: note)
}

/// A report around `results`, made with the scenario settings `config`.
func report(_ results: [BenchResult], host: String = "bench-host", entities: [String: Int] = ["Well": 1000],
            config: ScenarioConfig = ScenarioConfig()) -> BenchReport {
    BenchReport(tool: "seedstore 0.1.0", createdAt: "2026-11-22T10:00:00Z",
                machine: .init(cores: 2, memoryBytes: 8 << 30, os: "Linux test", hostname: host),
                store: .init(path: "/tmp/wells.sqlite", sizeBytes: 4_202_496, entities: entities),
                settings: .init(runs: 5, warmupRuns: 1, timeBudgetSeconds: 15, scenarios: ["batch-size", "faulting"],
                                scenarioConfig: config, harnessOverheadSeconds: 0.000002),
                results: results)
}

/// `report` as a version 1 seedstore wrote it: no `scenario_config`.
func versionOne(_ report: BenchReport) -> BenchReport {
    var old = report
    old.schemaVersion = 1
    old.settings.scenarioConfig = nil
    return old
}

/// A report with every kind of result the scenarios write: batch sizes for the curve, with and without
/// raw references, notes, optional memory, names that need escaping.
func sampleReport() -> BenchReport {
    var results: [BenchResult] = []
    for (size, label) in [(0, "no batch"), (20, "batch 20"), (100, "batch 100"), (1000, "batch 1000")] {
        let screen = size == 0 ? 0.050 : 0.0008 + Double(size) * 0.00001
        results.append(result("batch-size", "\(label), first screen", median: screen, spread: screen * 0.02, rawMedian: screen * 0.7,
                              statements: size == 0 ? 1 : 2, rows: size == 0 ? 1000 : 1000 + size, objects: size == 0 ? 1000 : size,
                              note: "fetch every Well sorted by uwi, touch the first 20"))
        results.append(result("batch-size", "\(label), scroll all", median: 0.060 + (size == 0 ? 0 : 5.0 / Double(size)) * 0.01,
                              rawMedian: 0.040, statements: size == 0 ? 1 : 1 + 1000 / size, rows: 2000, objects: 1000))
    }
    results.append(result("faulting", "faults, then read one attribute (N+1)", median: 0.020, rawMedian: 0.004, statements: 201, rows: 400,
                          objects: 200, faults: 200))
    results.append(result("faulting", "object IDs only", median: 0.001, rawMedian: nil, statements: 1, rows: 200, objects: 0, peak: nil))
    results.append(result("dictionary", "4 properties as dictionaries <fast> & \"light\" | piped", median: 0.003, rawMedian: 0.0025,
                          statements: 1, rows: 1000, objects: 0))
    return report(results)
}

/// A directory under the system's temporary directory, removed by the caller.
func temporaryDirectory(_ name: String = #function) throws -> URL {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("fetchbench-tests-\(getpid())-\(name.filter { $0.isLetter || $0.isNumber })-\(UInt32.random(in: 0...UInt32.max))")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// The repository's root, found from this file's path.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

extension ScenarioConfig {
    /// Settings for a store of books (title, author): the scenario tests' store that is not the wells'.
    static var books: ScenarioConfig {
        var config = ScenarioConfig()
        config.entity = "Book"
        config.sortKey = "title"
        config.mapProperties = ["title", "author"]
        return config
    }
}

/// A wells-shaped store at `directory/wells.sqlite`: `count` wells, each with a summary and its details,
/// and, with `operators` above 0, that many operators the wells take in turn (a to-one). Well names run
/// up with the wells, or down when `namesDescending`, so a sort by name is not the insertion order.
func wellsStore(in directory: URL, count: Int, operators: Int = 0, namesDescending: Bool = false) throws -> PersistentStore {
    let map = [Attribute("uwi", .string), Attribute("well_name", .string), Attribute("surface_latitude", .double),
               Attribute("surface_longitude", .double)]
    let operatorEntities = operators > 0
        ? [EntityDescription("Operator", attributes: [Attribute("name", .string)],
                             relationships: [Relationship("wells", to: "Well", inverse: "operator", toMany: true)])]
        : []
    let model = try ObjectModel(operatorEntities + [
        EntityDescription("Well", attributes: map + [Attribute("depth", .double)],
                          relationships: operators > 0 ? [Relationship("operator", to: "Operator", inverse: "wells")] : []),
        EntityDescription("WellSummary", attributes: map,
                          relationships: [Relationship("details", to: "WellDetail", inverse: "summary")]),
        EntityDescription("WellDetail", attributes: [Attribute("depth", .double)],
                          relationships: [Relationship("summary", to: "WellSummary", inverse: "details")]),
    ])
    let store = try PersistentStore(path: directory.appendingPathComponent("wells.sqlite").path, model: model)
    let context = ManagedObjectContext(store: store)
    var owners: [ManagedObject] = []
    for i in 0..<operators {
        let owner = try context.insert("Operator")
        owner["name"] = .string("Operator \(i)")
        owners.append(owner)
    }
    for i in 0..<count {
        let values: [String: Value] = ["uwi": .string(String(format: "W%04d", i)), "well_name": .string("Well \(namesDescending ? count - i : i)"),
                                       "surface_latitude": .double(50 + Double(i) / 100), "surface_longitude": .double(-110)]
        let well = try context.insert("Well")
        let summary = try context.insert("WellSummary")
        for (key, value) in values {
            well[key] = value
            summary[key] = value
        }
        if !owners.isEmpty { try well.setObject(owners[i % owners.count], forKey: "operator") }
        let details = try context.insert("WellDetail")
        details["depth"] = .double(Double(1000 + i))
        try summary.setObject(details, forKey: "details")
    }
    try context.save()
    return store
}
