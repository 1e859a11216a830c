import Foundation
import Testing
@testable import ManagedStore

/// Paths and helpers shared by the engine's tests.
enum Fixtures {
    /// The repository root (this file is Tests/ManagedStoreTests/TestSupport.swift).
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// The project's own committed fixtures.
    static let local = repository.appendingPathComponent("fixtures")
    /// `../shared/fixtures-real`, the real-world files made by others (absent outside CI and the dev machines).
    static let real = repository.deletingLastPathComponent().appendingPathComponent("shared/fixtures-real")
    /// Whether the real-world fixtures are present; tests that need them are skipped with this reason otherwise.
    static let hasReal = FileManager.default.fileExists(atPath: real.path)
    static let skipReason: Comment = "../shared/fixtures-real is absent: real-world fixture tests skipped"

    static func model(_ name: String) throws -> ObjectModel {
        try ObjectModel(contentsOf: local.appendingPathComponent("models/\(name).model.json").path)
    }
}

/// A temporary directory removed when the value goes away.
final class TemporaryDirectory {
    let url: URL

    init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("seedstore-tests-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
}

/// A store in a temporary file plus a log of the SQL it ran, so tests can assert statements.
final class StoreHarness {
    let directory = TemporaryDirectory()
    let path: String
    let store: PersistentStore
    let context: ManagedObjectContext
    var sql: [String] = []

    init(model: ObjectModel, file: String = "Test.sqlite") throws {
        path = directory.path(file)
        store = try PersistentStore(path: path, model: model)
        context = ManagedObjectContext(store: store)
        store.connection.sqlDebugLevel = 1
        store.connection.log = { [unowned self] line in
            if !line.hasPrefix("  ") { self.sql.append(line) }
        }
    }

    /// Opens a second, independent store on the same file.
    func reopen(model: ObjectModel? = nil) throws -> PersistentStore {
        try PersistentStore(path: path, model: model)
    }
}
