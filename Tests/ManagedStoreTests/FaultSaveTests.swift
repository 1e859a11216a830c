import Foundation
import Testing
@testable import ManagedStore

/// An object still a fault when a save writes a change to it: a library trial found that an author
/// changed only through its to-many side (a new book pointing at it) lost its row once saved, so the
/// next read of its name stopped the program (its snapshot had become the fault's empty values).
@Suite("Saving an object that is still a fault")
struct FaultSaveTests {
    let harness: StoreHarness
    let authorID: ObjectID

    init() throws {
        harness = try StoreHarness(model: Library.model)
        let author = try harness.context.insert("Author")
        author["name"] = .string("Brontë")
        try harness.context.save()
        authorID = author.objectID
    }

    @Test("a fault changed only on its to-many side keeps its row through a store save")
    func storeSave() throws {
        let context = ManagedObjectContext(store: try harness.reopen())
        let author = context.object(with: authorID)
        #expect(author.isFault)
        let book = try context.insert("Book")
        book["title"] = .string("Jane Eyre")
        try book.setObject(author, forKey: "author")
        try context.save()
        #expect(author.get("name", as: String.self) == "Brontë")
        #expect(try author.objects(forKey: "books").map { $0.get("title", as: String.self) } == ["Jane Eyre"])
        // And the store holds both: the author's row untouched, the book pointing at it.
        let check = ManagedObjectContext(store: try harness.reopen())
        let books = try check.fetchAll("Book")
        #expect(try books.first?.object(forKey: "author")?.get("name", as: String.self) == "Brontë")
    }

    @Test("a fault changed only on its to-many side keeps its row when a child saves into its parent")
    func childSave() throws {
        let root = ManagedObjectContext(store: try harness.reopen())
        let child = ManagedObjectContext(parent: root)
        let author = child.object(with: authorID)
        #expect(author.isFault)
        let book = try child.insert("Book")
        book["title"] = .string("Villette")
        try book.setObject(author, forKey: "author")
        try child.save()
        #expect(author.get("name", as: String.self) == "Brontë")
        let inParent = root.object(with: authorID)
        #expect(inParent.get("name", as: String.self) == "Brontë")
        #expect(try inParent.objects(forKey: "books").map { $0.get("title", as: String.self) } == ["Villette"])
        try root.save()
        #expect(inParent.get("name", as: String.self) == "Brontë")
        #expect(author.get("name", as: String.self) == "Brontë")
    }
}
