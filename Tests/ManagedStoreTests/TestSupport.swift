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

    /// One failed bank: its info and its details (a nil leaves the attribute unset).
    struct Bank {
        var name: String, city: String? = nil, state: String, zip: Int64, closed: Double? = nil
    }

    /// A harness on the failedbank model holding one saved FailedBankInfo + FailedBankDetails pair per bank.
    static func failedBanks(_ banks: [Bank]) throws -> StoreHarness {
        let harness = try StoreHarness(model: try Fixtures.model("failedbank"))
        let context = harness.context
        for bank in banks {
            let info = try context.insert("FailedBankInfo")
            info["name"] = .string(bank.name)
            if let city = bank.city { info["city"] = .string(city) }
            info["state"] = .string(bank.state)
            let details = try context.insert("FailedBankDetails")
            details["zip"] = .integer(bank.zip)
            if let closed = bank.closed { details["closeDate"] = .date(Date(timeIntervalSinceReferenceDate: closed)) }
            try info.setObject(details, forKey: "details")
        }
        try context.save()
        return harness
    }

    /// The error a dictionary fetch of `request` throws, if any.
    func rowsError(_ request: FetchRequest) -> StoreError? {
        do {
            _ = try context.fetchRows(request)
            return nil
        } catch {
            return error
        }
    }

    /// Opens a second, independent store on the same file.
    func reopen(model: ObjectModel? = nil) throws -> PersistentStore {
        try PersistentStore(path: path, model: model)
    }
}

/// The ``StoreError`` `body` throws, or `nil` when it returns (an error of another type is recorded as an issue).
///
/// ```swift
/// let error = thrown { try book.setObject(author, forKey: "author") }
/// ```
func thrown(_ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) -> StoreError? {
    do {
        try body()
        return nil
    } catch let error as StoreError {
        return error
    } catch {
        Issue.record("expected a StoreError, got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// Authors and their books (to-one `author`, to-many `books`), tags on books (many-to-many) and
/// chapters in order (ordered to-many): every kind of relationship, for tests of their rules.
enum Library {
    static let model = try! ObjectModel(json: Data("""
        {"entities": [
          {"name": "Author", "attributes": [{"name": "name", "type": "String"}],
           "relationships": [{"name": "books", "destination": "Book", "inverse": "author", "toMany": true, "deleteRule": "Nullify"}]},
          {"name": "Book", "attributes": [{"name": "title", "type": "String"}, {"name": "pages", "type": "Integer 16"},
                                          {"name": "price", "type": "Double", "optional": false, "default": 0},
                                          {"name": "weight", "type": "Float"}, {"name": "inPrint", "type": "Boolean"}],
           "relationships": [
             {"name": "author", "destination": "Author", "inverse": "books", "deleteRule": "Nullify"},
             {"name": "tags", "destination": "Tag", "inverse": "books", "toMany": true, "deleteRule": "Nullify"},
             {"name": "chapters", "destination": "Chapter", "inverse": "book", "toMany": true, "ordered": true, "deleteRule": "Cascade"}
           ]},
          {"name": "Tag", "attributes": [{"name": "name", "type": "String"}],
           "relationships": [{"name": "books", "destination": "Book", "inverse": "tags", "toMany": true, "deleteRule": "Nullify"}]},
          {"name": "Chapter", "attributes": [{"name": "title", "type": "String"}],
           "relationships": [{"name": "book", "destination": "Book", "inverse": "chapters", "deleteRule": "Nullify"}]}
        ]}
        """.utf8))
}
