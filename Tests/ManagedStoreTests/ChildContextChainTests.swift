import Foundation
import Testing
@testable import ManagedStore

/// A child context after it saved into its parent, and a grandchild reading through a middle context
/// that holds nothing: a check found a child's own objects pointing at IDs no context held once it had
/// saved (following them gave objects in no context, and deleting through them stopped the program),
/// and a grandchild reading its root's unsaved insert as nulls.
@Suite("Child contexts: after saving into the parent, and through a middle context")
struct ChildContextChainTests {
    let harness: StoreHarness
    var root: ManagedObjectContext { harness.context }

    init() throws {
        harness = try StoreHarness(model: Library.model)
        let book = try harness.context.insert("Book")
        book["title"] = .string("Emma")
        try harness.context.save()
    }

    func stored(_ entity: String, _ key: String) throws -> [String] {
        let check = ManagedObjectContext(store: try harness.reopen())
        return try check.fetchAll(entity).map { $0.get(key, as: String.self) ?? "nil" }.sorted()
    }

    @Test("a child's own objects keep their relationships after it saves into the parent, and save again")
    func relationshipsAfterSavingIntoTheParent() throws {
        let child = ManagedObjectContext(parent: root)
        let author = try child.insert("Author")
        author["name"] = .string("Brontë")
        let book = try child.insert("Book")
        book["title"] = .string("Jane Eyre")
        try book.setObject(author, forKey: "author")
        let chapter = try child.insert("Chapter")
        chapter["title"] = .string("JE1")
        try book.add(chapter, toKey: "chapters")
        try child.save()

        #expect(try book.object(forKey: "author") === author)
        #expect(try book.objects(forKey: "chapters").first === chapter)
        #expect(try chapter.object(forKey: "book") === book)
        book["title"] = .string("Jane Eyre 2")
        try child.save()
        try root.save()
        #expect(try stored("Book", "title") == ["Emma", "Jane Eyre 2"])
        #expect(try stored("Author", "name") == ["Brontë"])
        #expect(try stored("Chapter", "title") == ["JE1"])
    }

    @Test("deleting through a relationship, and a cascade, after the child saved into the parent")
    func deletesAfterSavingIntoTheParent() throws {
        let child = ManagedObjectContext(parent: root)
        let book = try child.insert("Book")
        book["title"] = .string("Jane Eyre")
        let chapter = try child.insert("Chapter")
        chapter["title"] = .string("JE1")
        try book.add(chapter, toKey: "chapters")
        try child.save()
        // Followed from the chapter: the child's own book, not an object in no context.
        let followed = try #require(try chapter.object(forKey: "book"))
        #expect(followed === book && followed.context === child)
        child.delete(followed)   // the book's chapters cascade
        try child.save()
        try root.save()
        #expect(try stored("Book", "title") == ["Emma"])
        #expect(try stored("Chapter", "title") == [])
    }

    @Test("a grandchild reads and changes its root's unsaved insert when the middle context never read it")
    func grandchildThroughAnUntouchedMiddle() throws {
        let inserted = try root.insert("Book")
        inserted["title"] = .string("Root insert")
        let child = ManagedObjectContext(parent: root)
        let grand = ManagedObjectContext(parent: child)
        let copy = grand.object(with: inserted.objectID)
        #expect(try copy.value(forKey: "title") == .string("Root insert"))
        let titles = try grand.fetch(FetchRequest(entityName: "Book")).map { $0.get("title", as: String.self) ?? "nil" }
        #expect(titles.sorted() == ["Emma", "Root insert"])
        copy["title"] = .string("Changed in the grandchild")
        try grand.save()
        try child.save()
        try root.save()
        #expect(try stored("Book", "title") == ["Changed in the grandchild", "Emma"])
    }
}
