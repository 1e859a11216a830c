import Foundation
import Testing
@testable import ManagedStore

/// IDs built by hand or kept from another store reach the context's lookups: the throwing ones throw a
/// typed error rather than stopping the program.
@Suite("Object IDs from outside")
struct ObjectIDLookupTests {
    let harness: StoreHarness
    var context: ManagedObjectContext { harness.context }

    init() throws {
        harness = try StoreHarness(model: Library.model)
    }

    @Test("existingObject(with:) throws for an entity number the model lacks")
    func unknownEntity() throws {
        let error = thrown { _ = try context.existingObject(with: ObjectID(entityID: 42, primaryKey: 1)) }
        guard case .invalidRequest(let message)? = error else {
            Issue.record("expected invalidRequest, got \(String(describing: error))")
            return
        }
        #expect(message.contains("no entity number 42") && message.contains("(it has 1...4: Author, Book, Chapter, Tag)"), "\(message)")
        #expect(thrown { _ = try context.existingObject(with: ObjectID(entityID: 0, primaryKey: 1)) } != nil)
        #expect(thrown { _ = try context.existingObject(with: ObjectID(entityID: -1, primaryKey: 1)) } != nil)
    }

    @Test("existingObject(with:) throws for another context's temporary ID, and still finds saved rows")
    func foreignTemporaryID() throws {
        let other = ManagedObjectContext(store: harness.store)
        let author = try other.insert("Author")
        let error = thrown { _ = try context.existingObject(with: author.objectID) }
        guard case .invalidRequest(let message)? = error else {
            Issue.record("expected invalidRequest, got \(String(describing: error))")
            return
        }
        #expect(message.contains("temporary ID") && message.contains("save the context that inserted it"), "\(message)")
        try other.save()
        #expect(try context.existingObject(with: author.objectID).objectID == author.objectID)
        let missing = ObjectID(entityID: author.objectID.entityID, primaryKey: 999)
        #expect("\(thrown { _ = try context.existingObject(with: missing) }!)".contains("no Author with primary key 999"))
    }

    @Test("a to-one set to an ID of an entity the model lacks throws instead of stopping the program")
    func unknownEntityAsDestination() throws {
        let book = try context.insert("Book")
        let error = thrown { try book.setValue(.object(ObjectID(entityID: 42, primaryKey: 1)), forKey: "author") }
        guard case .invalidProperty("Book", "author", let reason)? = error else {
            Issue.record("expected invalidProperty, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("no entity number 42"), "\(reason)")
        #expect(book["author"] == .null)
    }
}
