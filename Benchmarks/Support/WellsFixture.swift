import Foundation
import ManagedStore
import SeedImport

/// The generated wells data set and the seed store imported from it, built once per row count and kept
/// in the temporary directory so that later runs, and each benchmark process, reuse them.
///
/// For example:
///
/// ```swift
/// let store = try WellsFixture.openStore(rows: 20_000)
/// ```
public enum WellsFixture {
    /// The row count the suites use: big enough that per-row costs dominate, small enough for CI.
    public static let defaultRows = 20_000
    /// The generator's seed: the same seed gives byte-identical CSV, so counters are reproducible.
    public static let seed: UInt64 = 42

    /// Where the files for `rows` live (keyed by the engine's version too, so a new format rebuilds).
    public static func directory(rows: Int) -> URL {
        FileManager.default.temporaryDirectory
            .appendingPathComponent("seedstore-benchmarks/wells-\(rows)-seed\(seed)-v\(PersistentStore.version)", isDirectory: true)
    }

    /// The generated CSV, model and mapping for `rows` wells (generated when missing).
    ///
    /// For example:
    ///
    /// ```swift
    /// let mapping = try ImportMapping(contentsOf: try WellsFixture.dataSet(rows: 20_000).mappingFile.url.path)
    /// ```
    public static func dataSet(rows: Int) throws -> GeneratedDataSet {
        try DataSetGenerator.generate(.wells, rows: rows, seed: seed, into: directory(rows: rows).appendingPathComponent("csv"))
    }

    /// The path of the seed store for `rows` wells, importing it first when it is not there yet.
    public static func storePath(rows: Int) throws -> String {
        let store = directory(rows: rows).appendingPathComponent("Wells.sqlite").path
        if FileManager.default.fileExists(atPath: store), (try? PersistentStore(path: store, options: .init(readOnly: true))) != nil {
            return store
        }
        let data = try dataSet(rows: rows)
        let mapping = try ImportMapping(contentsOf: data.mappingFile.url.path)
        _ = try SeedImporter(model: try mapping.loadModel(), mapping: mapping).run(into: store)
        return store
    }

    /// The wells store for `rows`, open for reading.
    public static func openStore(rows: Int = defaultRows) throws -> PersistentStore {
        try PersistentStore(path: try storePath(rows: rows), options: .init(readOnly: true))
    }
}

/// Stops a benchmark process with a message that says what failed.
public func fixtureFailure(_ what: String, _ error: any Error) -> Never {
    fatalError("SeedStore benchmarks: \(what) failed: \(error)")
}
