import Foundation
import Testing
@testable import ManagedStore

/// Values SQLite would not keep as they are fail validation rather than change silently: NaN (stored
/// as NULL), an integer other than 0 or 1 in a Boolean (kept as is, so `flag == YES` misses it), an
/// integer beyond an Integer 16's range.
@Suite("Values a save refuses")
struct StoredValueRulesTests {
    let harness: StoreHarness
    var context: ManagedObjectContext { harness.context }

    init() throws {
        harness = try StoreHarness(model: Library.model)
    }

    /// The one validation failure a save throws.
    func onlyFailure() -> ValidationFailure? {
        guard case .validation(let failures)? = thrown({ try context.save() }), failures.count == 1 else { return nil }
        return failures[0]
    }

    func rows() throws -> Int64? {
        try harness.store.connection.scalar("SELECT count(*) FROM ZBOOK")?.int64
    }

    @Test("NaN in a Double or Float attribute fails validation (1550), naming the entity and attribute", arguments: ["price", "weight"])
    func nan(_ key: String) throws {
        let book = try context.insert("Book")
        book.set(key, Double.nan)
        let failure = try #require(onlyFailure())
        #expect(failure.code == .invalidValue && failure.entity == "Book" && failure.key == key)
        #expect(failure.message == "is NaN, which SQLite cannot store (it stores NaN as NULL, so the value would read back nil); set nil or a number")
        #expect(try rows() == 0)
        book.set(key, Double.infinity)
        try context.save()
        let read = try ManagedObjectContext(store: harness.reopen()).fetchAll("Book")[0]
        #expect(read.get(key, as: Double.self) == .infinity)
    }

    @Test("an integer other than 0 or 1 in a Boolean fails validation; 0 and 1 are stored and fetched as NO and YES")
    func integerInBoolean() throws {
        let book = try context.insert("Book")
        book["inPrint"] = .integer(5)
        let failure = try #require(onlyFailure())
        #expect(failure.code == .invalidValue && failure.key == "inPrint")
        #expect(failure.message.contains("holds the integer 5 where Boolean is expected") && failure.message.contains(".bool(true)"), "\(failure.message)")
        book["inPrint"] = .integer(1)
        try context.save()
        var request = FetchRequest(entityName: "Book")
        request.predicate = try FetchPredicate(format: "inPrint == YES")
        #expect(try ManagedObjectContext(store: harness.reopen()).count(for: request) == 1)
        #expect(!Value.integer(-1).fits(.boolean) && Value.integer(0).fits(.boolean) && Value.bool(true).fits(.boolean))
    }

    @Test("an integer beyond Integer 16 fails validation (1610/1620), not truncated")
    func integerRange() throws {
        let book = try context.insert("Book")
        book["pages"] = .integer(70_000)
        #expect(onlyFailure()?.code == .numberTooLarge)
        book["pages"] = .integer(-40_000)
        #expect(onlyFailure()?.code == .numberTooSmall)
        #expect(try rows() == 0)
    }

    @Test("a NaN default is refused when the model is made")
    func nanDefault() {
        #expect(throws: (any Error).self) {
            try ObjectModel([EntityDescription("T", attributes: [Attribute("x", .double, defaultValue: .double(.nan))])])
        }
    }

    @Test("Int16 and Int32 read nil for a value beyond their range, not a truncated number")
    func narrowIntegersDoNotTruncate() throws {
        let book = try context.insert("Book")
        book["pages"] = .integer(70_000)
        #expect(book.get("pages", as: Int16.self) == nil)
        #expect(book.get("pages", as: Int32.self) == 70_000)
        #expect(Int32(attributeValue: .integer(Int64(Int32.max) + 1)) == nil)
        book["pages"] = .integer(-300)
        #expect(book.get("pages", as: Int16.self) == -300)
    }
}
