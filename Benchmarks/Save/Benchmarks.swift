import Benchmark
import BenchSupport
import Foundation
import ManagedStore

// Saving through a context: inserting 10,000 objects, updating 1,000 and deleting 1,000, each in one
// save. Every iteration works on its own fresh store file, built before the clock starts.

let benchmarks: @Sendable () -> Void = {
    let count = 10_000, changed = 1_000
    let model: ObjectModel
    do {
        model = try ObjectModel([EntityDescription("Item", attributes: [
            Attribute("number", .integer64, optional: false), Attribute("rank", .integer32), Attribute("price", .double),
            Attribute("name", .string, optional: false), Attribute("category", .string), Attribute("created", .date),
            Attribute("active", .boolean),
        ])])
    } catch { fixtureFailure("building the model", error) }
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("seedstore-benchmarks/save-\(getpid())")
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    Benchmark.defaultConfiguration = SeedStoreBenchmark.configuration(counters: SeedStoreMetric.sql, maxIterations: 30)

    func values(_ i: Int) -> ContiguousArray<Value> {
        [.integer(Int64(i)), .integer(Int64((i * 7919) % 100_000)), .double(Double(i) * 0.25), .string("Item \(i)"),
         .string("Category \(i % 50)"), .date(Date(timeIntervalSinceReferenceDate: 700_000_000 + Double(i) * 60)), .bool(i % 2 == 0)]
    }

    /// A new store file holding `rows` items.
    func freshStore(rows: Int) throws -> PersistentStore {
        let path = directory.appendingPathComponent("items.sqlite").path
        for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        let store = try PersistentStore(path: path, model: model)
        if rows > 0 {
            let context = ManagedObjectContext(store: store)
            let entity = store.model.entity(named: "Item")!
            for i in 0..<rows { _ = context.insert(entity, values: values(i)) }
            try context.save()
        }
        return store
    }

    /// One save benchmark: `prepare` builds the context's changes untimed where it can; `body` is timed.
    func save(_ name: String, rows: Int, _ body: @escaping (ManagedObjectContext, Entity) throws -> Void) {
        Benchmark(name) { benchmark in
            do {
                let store = try freshStore(rows: rows)
                let context = ManagedObjectContext(store: store)
                let entity = store.model.entity(named: "Item")!
                let before = store.connection.stats
                benchmark.startMeasurement()
                try body(context, entity)
                benchmark.stopMeasurement()
                benchmark.record(store.connection.stats - before)
                withExtendedLifetime(context) {}
            } catch { fixtureFailure(name, error) }
        }
    }

    save("Insert \(count) objects and save", rows: 0) { context, entity in
        for i in 0..<count { _ = context.insert(entity, values: values(i)) }
        try context.save()
    }

    save("Update \(changed) of \(count) objects and save", rows: count) { context, entity in
        var request = FetchRequest(entityName: "Item")
        request.predicate = try FetchPredicate(format: "number < %@", .int(changed))
        request.returnsObjectsAsFaults = false
        let price = entity.columnIndex(of: "price")!
        for object in try context.fetch(request) { object.setValue(.double(1.5), at: price) }
        try context.save()
    }

    save("Delete \(changed) of \(count) objects and save", rows: count) { context, _ in
        var request = FetchRequest(entityName: "Item")
        request.predicate = try FetchPredicate(format: "number < %@", .int(changed))
        for object in try context.fetch(request) { context.delete(object) }
        try context.save()
    }
}
