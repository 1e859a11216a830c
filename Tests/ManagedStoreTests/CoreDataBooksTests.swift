import Foundation
import Testing
@testable import ManagedStore

/// Apple's CoreDataBooks seed store, written by Core Data itself, opens and lists its 12 books.
@Suite(.enabled(if: Fixtures.hasReal, Fixtures.skipReason))
struct CoreDataBooksTests {
    let path = Fixtures.real.appendingPathComponent("coredata-books/CoreDataBooks.sqlite").path

    func check(_ store: PersistentStore) throws {
        let books = try ManagedObjectContext(store: store).fetchAll("Book")
        #expect(books.count == 12)
        let psmith = try #require(books.first { $0.get("title") == "Psmith in the City" })
        #expect(psmith.get("author") == "P. G. Wodehouse")
        #expect(psmith["copyright"] == .date(Date(timeIntervalSinceReferenceDate: -2_848_789_424)))
        #expect(ISO8601.string(from: psmith.get("copyright")!) == "1910-09-23T21:36:16Z")
        #expect(Set(books.compactMap { $0.get("author", as: String.self) }).count == 8)
    }

    @Test func opensWithAModelReadOffItsTables() throws {
        let store = try PersistentStore(path: path, options: .init(readOnly: true))
        #expect(store.modelSource == .inferred)
        #expect(!store.hasSeedStoreMetadata)
        let book = try #require(store.model.entity(named: "Book"))
        #expect(book.attributes.map(\.name) == ["copyright", "author", "title", "contents"])
        #expect(book.attribute(named: "copyright")?.type == .date)
        #expect(book.attribute(named: "contents")?.defaultValue == .string("test"), "Core Data's DEFAULT test on ZCONTENTS")
        #expect(book.attribute(named: "title")?.defaultValue == nil)
        try check(store)
    }

    @Test func columnDefaultsReadAsTheirTypes() {
        #expect(PersistentStore.columnDefault("test", as: .string) == .string("test"))
        #expect(PersistentStore.columnDefault("'it''s'", as: .string) == .string("it's"))
        #expect(PersistentStore.columnDefault("5", as: .integer64) == .integer(5))
        #expect(PersistentStore.columnDefault("0.5", as: .double) == .double(0.5))
        #expect(PersistentStore.columnDefault("599529600", as: .date) == .date(Date(timeIntervalSinceReferenceDate: 599_529_600)))
        #expect(PersistentStore.columnDefault("NULL", as: .string) == nil)
        #expect(PersistentStore.columnDefault("x", as: .integer64) == nil)
        #expect(PersistentStore.columnDefault("datetime('now')", as: .date) == nil)
    }

    /// Core Data records a sub-entity in Z_PRIMARYKEY with its parent's Z_ENT in Z_SUPER and keeps its
    /// rows in the root's table: such a store is refused on opening, naming both entities, rather than
    /// failing later on a table ZNOVEL that does not exist.
    @Test func refusesAStoreWithEntityInheritance() throws {
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("inherit-\(UUID().uuidString).sqlite")
        defer { try? FileManager.default.removeItem(at: copy) }
        try FileManager.default.copyItem(atPath: path, toPath: copy.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: copy.path)
        let writable = try Connection(path: copy.path)
        try writable.execute("INSERT INTO Z_PRIMARYKEY VALUES (2, 'Novel', 1, 0)")
        for readOnly in [true, false] {
            #expect {
                _ = try PersistentStore(path: copy.path, options: .init(readOnly: readOnly))
            } throws: { error in
                guard case StoreError.unsupportedStore(_, let reason) = error else { return false }
                return reason.hasPrefix("it uses entity inheritance: Novel is a sub-entity of Book")
                    && "\(error)".contains("is a Core Data store SeedStore cannot open") && reason.contains("Flatten")
            }
        }
        // A parent Z_PRIMARYKEY does not list, or a negative one (a user trial opened the first silently).
        for parent in [7, -1] {
            try writable.execute("UPDATE Z_PRIMARYKEY SET Z_SUPER = \(parent) WHERE Z_ENT = 2")
            #expect {
                _ = try PersistentStore(path: copy.path, options: .init(readOnly: true))
            } throws: { error in
                guard case StoreError.unsupportedStore(_, let reason) = error else { return false }
                return reason.hasPrefix("it uses entity inheritance: Novel is a sub-entity of entity \(parent) (not in Z_PRIMARYKEY)")
            }
        }
    }

    @Test func opensWithAMatchingModel() throws {
        let model = try Fixtures.model("books")
        let store = try PersistentStore(path: path, model: model, options: .init(readOnly: true))
        #expect(store.modelSource == .given)
        try check(store)
    }

    @Test func refusesAModelItWasNotMadeWith() throws {
        let model = try ObjectModel([EntityDescription("Book", attributes: [Attribute("isbn", .string)])])
        #expect {
            _ = try PersistentStore(path: path, model: model, options: .init(readOnly: true))
        } throws: { error in
            guard case .modelMismatch(_, let differences) = error as? StoreError else { return false }
            return differences == ["Book.isbn: the store's table ZBOOK has no column ZISBN"]
        }
    }

    @Test func keepsCoreDataMetadata() throws {
        let store = try PersistentStore(path: path, options: .init(readOnly: true))
        #expect(store.metadata["NSStoreType"] as? String == "SQLite")
        #expect((store.metadata["NSStoreModelVersionHashes"] as? [String: Any])?["Book"] != nil)
    }
}
