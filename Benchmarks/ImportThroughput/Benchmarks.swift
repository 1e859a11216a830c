import Benchmark
import BenchSupport
import CSVStream
import Foundation
import ManagedStore
import SeedImport

// Import throughput: the generated wells CSV (20,000 wells and their operators) into a new seed store
// through SeedImporter, and the CSV parsing alone as its floor. The importer owns its connection, so the
// exact counters here are the objects it inserted and the records it read, not SQL statements.

let benchmarks: @Sendable () -> Void = {
    let rows = WellsFixture.defaultRows
    let dataSet: GeneratedDataSet
    let mapping: ImportMapping
    let model: ObjectModel
    do {
        dataSet = try WellsFixture.dataSet(rows: rows)
        mapping = try ImportMapping(contentsOf: dataSet.mappingFile.url.path)
        model = try mapping.loadModel()
    } catch { fixtureFailure("generating the wells CSV", error) }
    let target = WellsFixture.directory(rows: rows).appendingPathComponent("import-\(getpid()).sqlite").path
    let records = SeedStoreMetric.objects
    let recordsRead = BenchmarkMetric.custom("CSV records", polarity: .prefersSmaller, useScalingFactor: false)
    Benchmark.defaultConfiguration = SeedStoreBenchmark.configuration(counters: [records, recordsRead], maxSeconds: 5, maxIterations: 20)

    Benchmark("Import \(rows) wells with SeedImporter") { benchmark in
        try? FileManager.default.removeItem(atPath: target)
        benchmark.startMeasurement()
        let summary: ImportSummary
        do { summary = try SeedImporter(model: model, mapping: mapping).run(into: target) } catch { fixtureFailure("the import", error) }
        benchmark.stopMeasurement()
        benchmark.measurement(records, summary.objects.values.reduce(0) { $0 + $1.inserted })
        benchmark.measurement(recordsRead, summary.rowsRead)
        try? FileManager.default.removeItem(atPath: target)
    }

    Benchmark("Parse the wells CSV with CSVStream") { benchmark in
        var count = 0
        do {
            for file in dataSet.csvFiles {
                let reader = try CSVReader(path: file.url.path)
                try reader.forEachRecord { record in
                    count += 1
                    blackHole(record)
                }
            }
        } catch { fixtureFailure("parsing", error) }
        benchmark.measurement(recordsRead, count)
    }
}
