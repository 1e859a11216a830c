import Foundation
import ManagedStore
import Measure
import Testing
@testable import FetchBench

/// The decomposition's "open one object's details" fetched the summary at offset 1000 and measured
/// nothing on a store of 1,000 summaries or fewer (a user trial); `lookup_key` was named but never used.
/// It now finds the middle summary by its key, bound, and fires that one details fault.
@Suite("Decomposition: open one object's details by its key")
struct DecompositionLookupTests {
    /// A wells-shaped store of `count` wells, each with a summary and its details.
    static func store(in directory: URL, count: Int) throws -> PersistentStore {
        try wellsStore(in: directory, count: count)
    }

    /// The variant, run once in a fresh context: its counters and the SQL it ran with the values bound.
    static func openOne(_ store: PersistentStore, config: ScenarioConfig = ScenarioConfig()) throws -> (RunCounters, [String]) {
        let scenario = try #require(try ScenarioCatalog.make(for: store, config: config, only: ["decomposition"]).first)
        let variant = try #require(scenario.variants.first { $0.name == "open one object's details" })
        var sql: [String] = []
        store.connection.sqlDebugLevel = 2
        store.connection.log = { sql.append($0) }
        defer { store.connection.sqlDebugLevel = 0 }
        let counters = try BenchRunner.counters(of: variant, store: store)
        // The raw reference reads the same details row.
        let raw = try RawDatabase(path: store.path, readOnly: true)
        try variant.raw?(raw)
        return (counters, sql)
    }

    @Test("on 10 summaries it finds the middle one by uwi and fires its details fault: 2 statements, rows and objects, 1 fault")
    func smallStoreMeasuresOneObjectsDetails() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try Self.store(in: directory, count: 10)
        let (counters, sql) = try Self.openOne(store)
        #expect(counters.statements == 2 && counters.rows == 2, "\(counters): \(sql)")
        #expect(counters.objects == 2 && counters.faults == 1, "\(counters)")
        #expect(!sql.joined().contains("OFFSET"), "looked up by key, not by position: \(sql)")
        #expect(sql.joined().contains("W0005"), "the middle row's uwi is bound: \(sql)")
    }

    @Test("lookup_key chooses the key the summary is found by")
    func lookupKeyIsUsed() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try Self.store(in: directory, count: 3)
        var config = ScenarioConfig()
        config.lookupKey = "well_name"
        let (counters, sql) = try Self.openOne(store, config: config)
        #expect(counters.statements == 2 && counters.objects == 2 && counters.faults == 1, "\(counters)")
        #expect(sql.joined().contains("Well 1"), "the middle row's well_name is bound: \(sql)")
        #expect(!sql.joined().contains("W0001"), "not the uwi: \(sql)")
    }
}
