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

/// An owner still a fault whose ordered set took a new member: a library trial found the set keeping
/// the member's temporary ID after the save, so the member read through it was in no context and
/// reading it stopped the program.
extension FaultSaveTests {
    func bookID() throws -> ObjectID {
        let book = try harness.context.insert("Book")
        book["title"] = .string("Emma")
        try harness.context.save()
        return book.objectID
    }

    @Test("a fault's ordered set holds the saved member itself after a store save, and after a child's save",
          arguments: [false, true])
    func orderedSetOfAFault(throughAChild: Bool) throws {
        let id = try bookID()
        let root = ManagedObjectContext(store: try harness.reopen())
        let context = throughAChild ? ManagedObjectContext(parent: root) : root
        let book = context.object(with: id)
        #expect(book.isFault)
        let chapter = try context.insert("Chapter")
        chapter["title"] = .string("One")
        try book.add(chapter, toKey: "chapters")
        try context.save()
        let members = try book.objects(forKey: "chapters")
        #expect(members.count == 1 && members.first === chapter && chapter.context === context)
        #expect(members.first?.get("title", as: String.self) == "One")
        if throughAChild {
            try root.save()
            let inRoot = try root.object(with: id).objects(forKey: "chapters")
            #expect(inRoot.first?.context === root && inRoot.first?.objectID.isTemporary == false)
            #expect(inRoot.first?.get("title", as: String.self) == "One")
        }
        // A move after the save reaches the store.
        let second = try context.insert("Chapter")
        second["title"] = .string("Two")
        try book.insert(second, at: 0, intoKey: "chapters")
        try context.save()
        try root.save()
        let check = ManagedObjectContext(store: try harness.reopen())
        #expect(try check.object(with: id).objects(forKey: "chapters").map { $0.get("title", as: String.self) } == ["Two", "One"])
    }

    @Test("an unchanged owner's loaded set holds the saved member after a member joined it from its to-one side")
    func loadedSetOfAnUnchangedOwner() throws {
        let context = ManagedObjectContext(store: try harness.reopen())
        let author = context.object(with: authorID)
        #expect(try author.objects(forKey: "books").isEmpty)
        let book = try context.insert("Book")
        book["title"] = .string("Shirley")
        try book.setObject(author, forKey: "author")
        try context.save()
        let books = try author.objects(forKey: "books")
        #expect(books.count == 1 && books.first === book && book.context === context)
    }
}
