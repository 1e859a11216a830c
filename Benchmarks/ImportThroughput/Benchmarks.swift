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

    // Skip mode settling rejections late: 20,000 employees, each naming the next as manager (a forward
    // key), the last naming one that never comes, so the whole chain is rejected from its end, one link a
    // pass. Each pass must look up only what the last removed: every key each pass was quadratic.
    let chainDirectory = WellsFixture.directory(rows: rows).appendingPathComponent("chain-\(getpid())")
    let chainRows = 20_000
    let chainMapping: ImportMapping
    do {
        try FileManager.default.createDirectory(at: chainDirectory, withIntermediateDirectories: true)
        var csv = "code,name,manager\n"
        for i in 0..<chainRows { csv += "E\(i),Name \(i),\(i + 1 < chainRows ? "E\(i + 1)" : "NOPE")\n" }
        try csv.write(to: chainDirectory.appendingPathComponent("employees.csv"), atomically: true, encoding: .utf8)
        try """
            {"entities":[{"name":"Employee","attributes":[{"name":"code","type":"String","optional":false},{"name":"name","type":"String"}],
              "relationships":[{"name":"manager","destination":"Employee","inverse":"reports"},
                               {"name":"reports","destination":"Employee","inverse":"manager","toMany":true}]}]}
            """.write(to: chainDirectory.appendingPathComponent("model.json"), atomically: true, encoding: .utf8)
        try """
            {"format":1,"model":"model.json","files":[{"path":"employees.csv","targets":[{"entity":"Employee","key":"code",
              "relationships":{"manager":{"column":"manager","destinationKey":"code"}}}]}]}
            """.write(to: chainDirectory.appendingPathComponent("mapping.json"), atomically: true, encoding: .utf8)
        chainMapping = try ImportMapping(contentsOf: chainDirectory.appendingPathComponent("mapping.json").path)
    } catch { fixtureFailure("writing the chain CSV", error) }
    let chainModel: ObjectModel
    do { chainModel = try chainMapping.loadModel() } catch { fixtureFailure("the chain's model", error) }
    let rejectsCounter = BenchmarkMetric.custom("rows rejected", polarity: .prefersSmaller, useScalingFactor: false)

    Benchmark("Import a \(chainRows)-row chain of forward keys rejected from its end (skip mode)",
              configuration: SeedStoreBenchmark.configuration(counters: [recordsRead, rejectsCounter], maxSeconds: 5, maxIterations: 10)) { benchmark in
        let store = chainDirectory.appendingPathComponent("chain.sqlite").path
        let options = ImportOptions(onError: .skip, rejectsPath: chainDirectory.appendingPathComponent("rejects.csv").path)
        benchmark.startMeasurement()
        let summary: ImportSummary
        do { summary = try SeedImporter(model: chainModel, mapping: chainMapping, options: options).run(into: store) } catch { fixtureFailure("the chain import", error) }
        benchmark.stopMeasurement()
        benchmark.measurement(recordsRead, summary.rowsRead)
        benchmark.measurement(rejectsCounter, summary.rejects)
        try? FileManager.default.removeItem(atPath: store)
    }

    // Abort mode setting forward keys as their rows come: 50,000 employees, each naming a manager within
    // the next 50 rows, against the same employees with every manager named before (the reference: no
    // forward key at all). Keys kept until the end of the file took 3.6 times as long and grew memory.
    let staffRows = 50_000
    func staff(_ name: String, managersFirst: Bool) -> (ImportMapping, ObjectModel) {
        let directory = chainDirectory.appendingPathComponent(name)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            var state: UInt64 = 42
            func next(_ bound: Int) -> Int {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return Int((state >> 33) % UInt64(bound))
            }
            var csv = "code,name,manager\n"
            for i in 0..<staffRows {
                let manager: String
                if managersFirst { manager = i == 0 ? "" : "E\(max(0, i - 1 - next(50)))" }
                else { manager = i + 1 < staffRows ? "E\(min(staffRows - 1, i + 1 + next(50)))" : "" }
                csv += "E\(i),Name \(i),\(manager)\n"
            }
            try csv.write(to: directory.appendingPathComponent("employees.csv"), atomically: true, encoding: .utf8)
            for file in ["model.json", "mapping.json"] {
                try FileManager.default.copyItem(at: chainDirectory.appendingPathComponent(file), to: directory.appendingPathComponent(file))
            }
            let mapping = try ImportMapping(contentsOf: directory.appendingPathComponent("mapping.json").path)
            return (mapping, try mapping.loadModel())
        } catch { fixtureFailure("writing the employees CSV", error) }
    }
    let managersLater = staff("managers-later", managersFirst: false)
    for (name, managersFirst) in [("managers-later", false), ("managers-first", true)] {
        let (staffMapping, staffModel) = managersFirst ? staff(name, managersFirst: true) : managersLater
        let what = managersFirst ? "every manager named before (no forward key)" : "each naming a manager within the next 50 rows"
        Benchmark("Import \(staffRows) employees, \(what) (abort mode)",
                  configuration: SeedStoreBenchmark.configuration(counters: [records], maxSeconds: 5, maxIterations: 10)) { benchmark in
            let store = chainDirectory.appendingPathComponent("\(name).sqlite").path
            benchmark.startMeasurement()
            let summary: ImportSummary
            do { summary = try SeedImporter(model: staffModel, mapping: staffMapping).run(into: store) } catch { fixtureFailure("the employees import", error) }
            benchmark.stopMeasurement()
            benchmark.measurement(records, summary.objects.values.reduce(0) { $0 + $1.inserted })
            try? FileManager.default.removeItem(atPath: store)
        }
    }

    // Skip mode sets forward keys once the file has been read, by entry. With a key budget of 1 MiB the
    // keys move to disk and each of those lookups goes there: a scan of every run per lookup made 400,000
    // such employees take over ten minutes (2 s for 100,000); an index on each run's entries, made at its
    // first such lookup, keeps it linear. The same employees as the abort-mode run above.
    let (spilledMapping, spilledModel) = managersLater
    Benchmark("Import \(staffRows) employees, each naming a manager within the next 50 rows (skip mode, keys on disk)",
              configuration: SeedStoreBenchmark.configuration(counters: [records], maxSeconds: 5, maxIterations: 10)) { benchmark in
        let store = chainDirectory.appendingPathComponent("managers-later-spilled.sqlite").path
        var options = ImportOptions(onError: .skip)
        options.keyIndexMemoryBytes = 1 << 20
        benchmark.startMeasurement()
        let summary: ImportSummary
        do { summary = try SeedImporter(model: spilledModel, mapping: spilledMapping, options: options).run(into: store) } catch { fixtureFailure("the employees import", error) }
        benchmark.stopMeasurement()
        benchmark.measurement(records, summary.objects.values.reduce(0) { $0 + $1.inserted })
        try? FileManager.default.removeItem(atPath: store)
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
