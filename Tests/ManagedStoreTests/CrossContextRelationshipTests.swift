import Foundation
import Testing
@testable import ManagedStore

/// Objects of different contexts cannot be related (Core Data's "Illegal attempt to establish a
/// relationship between objects in different contexts"): every way of setting a relationship refuses
/// a destination of another context when it is set, and a save refuses another context's temporary
/// key that reached an object some other way, so the store never gets a dangling foreign key.
@Suite("Relationships across contexts")
struct CrossContextRelationshipTests {
    let harness: StoreHarness
    var context: ManagedObjectContext { harness.context }

    init() throws {
        harness = try StoreHarness(model: Library.model)
    }

    /// The error says which relationship, which object, and how to get this context's object.
    func expectRefusal(_ error: StoreError?, entity: String, key: String, destination: String, _ comment: Comment? = nil) {
        guard case .invalidProperty(let e, let property, let reason)? = error else {
            Issue.record("expected invalidProperty, got \(String(describing: error)) \(comment.map { "\($0)" } ?? "")")
            return
        }
        #expect(e == entity && property == key, comment)
        #expect(reason.contains("cannot point at \(destination)"), "\(reason)")
        #expect(reason.contains("existingObject(with:"), "\(reason)")
    }

    func foreignKeys() throws -> [[SQLValue]] {
        try harness.store.connection.rows("SELECT ZTITLE, ZAUTHOR FROM ZBOOK ORDER BY Z_PK")
    }

    @Test("setObject with an unsaved object of another context throws, and the save writes no dangling key")
    func toOneUnsaved() throws {
        let other = ManagedObjectContext(store: harness.store)
        let author = try other.insert("Author")
        let book = try context.insert("Book")
        book["title"] = .string("cross")
        let error = thrown { try book.setObject(author, forKey: "author") }
        expectRefusal(error, entity: "Book", key: "author", destination: "Author")
        #expect("\(error!)".contains("belongs to another context"), "\(error!)")
        #expect(book["author"] == .null)
        #expect(try author.objects(forKey: "books").isEmpty, "the other context's object is untouched")
        try context.save()
        #expect(try foreignKeys() == [[.text("cross"), .null]])
    }

    @Test("a saved object of another context is refused too, as in Core Data; this context's copy links")
    func toOneSaved() throws {
        let other = ManagedObjectContext(store: harness.store)
        let author = try other.insert("Author")
        try other.save()
        let book = try context.insert("Book")
        expectRefusal(thrown { try book.setObject(author, forKey: "author") }, entity: "Book", key: "author", destination: "Author")
        let mine = try context.existingObject(with: author.objectID)
        try book.setObject(mine, forKey: "author")
        try context.save()
        #expect(try foreignKeys() == [[.null, .integer(author.objectID.primaryKey)]])
    }

    @Test("add, insert(_:at:intoKey:) and remove refuse members of another context, for every kind of to-many")
    func toMany() throws {
        let other = ManagedObjectContext(store: harness.store)
        let foreignBook = try other.insert("Book"), foreignChapter = try other.insert("Chapter"), foreignTag = try other.insert("Tag")
        let author = try context.insert("Author"), book = try context.insert("Book")
        expectRefusal(thrown { try author.add(foreignBook, toKey: "books") }, entity: "Author", key: "books", destination: "Book", "one-to-many")
        expectRefusal(thrown { try book.add(foreignTag, toKey: "tags") }, entity: "Book", key: "tags", destination: "Tag", "many-to-many")
        expectRefusal(thrown { try book.add(foreignChapter, toKey: "chapters") }, entity: "Book", key: "chapters", destination: "Chapter", "ordered")
        expectRefusal(thrown { try book.insert(foreignChapter, at: 0, intoKey: "chapters") }, entity: "Book", key: "chapters", destination: "Chapter")
        expectRefusal(thrown { try author.remove(foreignBook, fromKey: "books") }, entity: "Author", key: "books", destination: "Book", "remove")
        #expect(try author.objects(forKey: "books").isEmpty && book.objects(forKey: "tags").isEmpty && book.objects(forKey: "chapters").isEmpty)
        #expect(foreignBook["author"] == .null && foreignChapter["book"] == .null)
        #expect(context.pendingJoins.isEmpty)
        try context.save()
        #expect(try harness.store.connection.rows("SELECT count(*) FROM ZCHAPTER") == [[.integer(0)]])
    }

    @Test("setValue(.object(id)) refuses the temporary ID of another context's object; a permanent ID is a row and links")
    func toOneByID() throws {
        let other = ManagedObjectContext(store: harness.store)
        let unsaved = try other.insert("Author")
        let book = try context.insert("Book")
        expectRefusal(thrown { try book.setValue(.object(unsaved.objectID), forKey: "author") }, entity: "Book", key: "author", destination: "Author")
        let saved = try other.insert("Author")
        try other.save()
        try book.setValue(.object(saved.objectID), forKey: "author")
        try context.save()
        #expect(try foreignKeys() == [[.null, .integer(saved.objectID.primaryKey)]])
    }

    @Test("a foreign temporary key that reached an object by ordinal fails the save's validation; nothing is written")
    func bulkInsertValidation() throws {
        let other = ManagedObjectContext(store: harness.store)
        let author = try other.insert("Author")
        let entity = try harness.store.entity(named: "Book")
        var values = entity.defaultValues
        values[entity.columnIndex(of: "author")!] = .object(author.objectID)
        _ = context.insert(entity, values: values)
        guard case .validation(let failures)? = thrown({ try context.save() }) else {
            Issue.record("expected a validation failure")
            return
        }
        #expect(failures.map(\.key) == ["author"] && failures[0].code == .invalidValue)
        #expect(failures[0].message.contains("does not hold"), "\(failures[0].message)")
        #expect(try foreignKeys().isEmpty)
    }

    @Test("child contexts: a parent's object is refused in the child (use object(with:)), a child's in the parent")
    func childContexts() throws {
        let author = try context.insert("Author")
        author["name"] = .string("Wodehouse")
        let child = ManagedObjectContext(parent: context)
        let book = try child.insert("Book")
        let error = thrown { try book.setObject(author, forKey: "author") }
        expectRefusal(error, entity: "Book", key: "author", destination: "Author")
        #expect("\(error!)".contains("belongs to this context's parent"), "\(error!)")

        // The child's copy of the parent's unsaved author links, and the parent's save writes the key.
        try book.setObject(child.object(with: author.objectID), forKey: "author")
        // So does the parent's temporary ID, which the child resolves through its parent.
        let second = try child.insert("Book")
        try second.setValue(.object(author.objectID), forKey: "author")
        try child.save()
        try context.save()
        #expect(try foreignKeys().map { $0[1] } == [.integer(author.objectID.primaryKey), .integer(author.objectID.primaryKey)])

        let grandchild = ManagedObjectContext(parent: child)
        let draft = try grandchild.insert("Book")
        let upward = thrown { try author.add(draft, toKey: "books") }
        expectRefusal(upward, entity: "Author", key: "books", destination: "Book")
        #expect("\(upward!)".contains("belongs to a child of this context"), "\(upward!)")
    }

    @Test("an object deleted before it was saved is in no context: refused")
    func detached() throws {
        let author = try context.insert("Author")
        context.delete(author)
        let book = try context.insert("Book")
        let error = thrown { try book.setObject(author, forKey: "author") }
        expectRefusal(error, entity: "Book", key: "author", destination: "Author")
        #expect("\(error!)".contains("is in no context"), "\(error!)")
    }
}
