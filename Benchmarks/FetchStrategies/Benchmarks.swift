import Benchmark
import BenchSupport
import ManagedStore

// Fetch strategies on a 20,000-well seed store: whole objects, batches, dictionaries, IDs, counts, faults
// one by one and prefetching, and the decomposed summary entity. Wall clock, mallocs and peak memory are
// gated relatively; SQL statements, rows, objects and faults exactly.

let benchmarks: @Sendable () -> Void = {
    let store: PersistentStore
    do { store = try WellsFixture.openStore() } catch { fixtureFailure("building the wells store", error) }
    let wells = WellsFixture.defaultRows
    let counters = SeedStoreMetric.sql + [SeedStoreMetric.objects, SeedStoreMetric.faults]
    Benchmark.defaultConfiguration = SeedStoreBenchmark.configuration(counters: counters)

    /// One fetch benchmark: a fresh context per iteration, only `body` timed, counters recorded.
    func fetch(_ name: String, _ body: @escaping (ManagedObjectContext) throws -> Void) {
        Benchmark(name) { benchmark in
            let context = ManagedObjectContext(store: store)
            let before = store.connection.stats
            benchmark.startMeasurement()
            do { try body(context) } catch { fixtureFailure(name, error) }
            benchmark.stopMeasurement()
            benchmark.record(store.connection.stats - before)
            benchmark.record(objects: context.objectsMaterialized, faults: context.faultsFired)
            withExtendedLifetime(context) {}
        }
    }

    func sorted(_ entity: String = "Well") -> FetchRequest {
        var request = FetchRequest(entityName: entity)
        request.sortDescriptors = [FetchSort("uwi")]
        return request
    }

    fetch("Fetch \(wells) wells as full objects") { context in
        var request = sorted()
        request.returnsObjectsAsFaults = false
        for well in try context.fetch(request) { blackHole(well.value(at: 0)) }
    }

    fetch("Fetch sorted wells, batch 20, first screen") { context in
        var request = sorted()
        request.fetchBatchSize = 20
        let objects = try context.fetch(request)
        for i in 0..<min(20, objects.count) { blackHole(objects[i].value(at: 0)) }
    }

    fetch("Fetch sorted wells, batch 500, scroll all") { context in
        var request = sorted()
        request.fetchBatchSize = 500
        for well in try context.fetch(request) { blackHole(well.value(at: 0)) }
    }

    fetch("Fetch 4 map properties as dictionaries") { context in
        var request = sorted()
        request.resultType = .dictionary
        request.propertiesToFetch = try ["uwi", "well_name", "surface_latitude", "surface_longitude"].map(FetchProperty.parse)
        blackHole(try context.fetchRows(request).count)
    }

    fetch("Fetch object IDs") { context in
        blackHole(try context.fetchObjectIDs(sorted()).count)
    }

    fetch("Count producing wells") { context in
        var request = FetchRequest(entityName: "Well")
        request.predicate = try FetchPredicate(format: "status == %@", "Producing")
        blackHole(try context.count(for: request))
    }

    fetch("Fault 500 wells one by one (N+1)") { context in
        var request = sorted()
        request.fetchLimit = 500
        // Keys only, as Core Data does without property values: each first read fires its own SELECT.
        request.includesPropertyValues = false
        for well in try context.fetch(request) { blackHole(well.value(at: 1)) }
    }

    fetch("Prefetch the operators of 500 wells") { context in
        var request = sorted()
        request.fetchLimit = 500
        request.returnsObjectsAsFaults = false
        request.relationshipKeyPathsForPrefetching = ["operator"]
        for well in try context.fetch(request) { blackHole(try well.object(forKey: "operator")?.value(at: 0)) }
    }

    fetch("Map query through WellSummary objects") { context in
        var request = sorted("WellSummary")
        request.returnsObjectsAsFaults = false
        for summary in try context.fetch(request) { blackHole(summary.value(at: 0)) }
    }
}
