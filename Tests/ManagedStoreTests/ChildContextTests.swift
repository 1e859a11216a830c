import Foundation
import Testing
@testable import ManagedStore

/// Child contexts see their parent's unsaved changes, keep the batch size, and save into the parent.
@Suite struct ChildContextTests {
    let harness: StoreHarness

    init() throws {
        harness = try StoreHarness(model: try Fixtures.model("books"))
        for i in 0..<200 {
            let book = try harness.context.insert("Book")
            book["title"] = .string(String(format: "Title %03d", i))
            book["author"] = .string("Author \(i % 7)")
        }
        try harness.context.save()
    }

    func statements(_ body: () throws -> Void) throws -> Int {
        let before = harness.store.connection.stats
        try body()
        return (harness.store.connection.stats - before).statements
    }

    @Test func batchSizeHoldsInAChildContext() throws {
        let child = ManagedObjectContext(parent: harness.context)
        var request = FetchRequest(entityName: "Book")
        request.sortDescriptors = [FetchSort("title")]
        request.fetchBatchSize = 20
        var books: FetchedObjects?
        #expect(try statements { books = try child.fetch(request) } == 1)
        #expect(books!.isBatched)
        #expect(try statements { for i in 0..<20 { _ = books![i]["title"] } } == 1)
        #expect(books![0].get("title") == "Title 000")
    }

    @Test func childSeesParentChangesAndSavesIntoIt() throws {
        let parent = harness.context
        let first = try parent.fetchAll("Book")[0]
        first["title"] = .string("Title 000 (revised)")
        let added = try parent.insert("Book")
        added["title"] = .string("Aaa first")
        added["author"] = .string("New Author")

        let child = ManagedObjectContext(parent: parent)
        var request = FetchRequest(entityName: "Book")
        request.sortDescriptors = [FetchSort("title")]
        request.fetchBatchSize = 20
        let books = try child.fetch(request)
        #expect(books.count == 201)
        #expect(books[0].get("title") == "Aaa first", "the parent's unsaved insert")
        #expect(books[1].get("title") == "Title 000 (revised)", "the parent's unsaved change")
        #expect(books[1] !== first, "the child has its own objects")

        let childBook = try child.insert("Book")
        childBook["title"] = .string("From the child")
        childBook["author"] = .string("Editor")
        books[2]["author"] = .string("Changed in child")
        try child.save()
        #expect(try harness.store.count(of: harness.store.entity(named: "Book")) == 200, "nothing reached the store yet")
        #expect(parent.insertedObjects.count == 2)
        try parent.save()
        let check = ManagedObjectContext(store: try harness.reopen())
        var titles = FetchRequest(entityName: "Book")
        titles.predicate = try FetchPredicate(format: "title IN %@", ["From the child", "Aaa first", "Title 001"])
        titles.sortDescriptors = [FetchSort("title")]
        let saved = try check.fetch(titles)
        #expect(saved.map { $0.get("title", as: String.self) } == ["Aaa first", "From the child", "Title 001"])
        #expect(saved[2].get("author") == "Changed in child")
    }

    /// A review found a child's save stopping the program (delete(_:) of an object in no context) when
    /// the parent had saved, rolled back or deleted an object it inserted after the child read it; before,
    /// the child's change to it was lost without a word.
    @Test("a child's change to an object its parent inserted and let go of since is refused, before anything reaches the parent")
    func changeToAnObjectTheParentLetGo() throws {
        for letGo in ["save", "rollback", "delete"] {
            let context = harness.context
            let book = try context.insert("Book")
            book["title"] = .string("Fresh")
            book["author"] = .string("New")
            let child = ManagedObjectContext(parent: context)
            let copy = child.object(with: book.objectID)
            let other = try #require(try child.fetch(FetchRequest(entityName: "Book")).first { $0.get("title", as: String.self) == "Title 000" })
            other["title"] = .string("Changed in the child")
            switch letGo {
            case "save": try context.save()
            case "rollback": context.rollback()
            default: context.delete(book)
            }
            for change in ["delete", "update"] {
                if change == "delete" { child.delete(copy) } else { child.rollback(); other["title"] = .string("Changed in the child"); copy["title"] = .string("Again") }
                guard case .invalidRequest(let message)? = thrown({ try child.save() }) else {
                    Issue.record("\(letGo), \(change): the child's save went through")
                    continue
                }
                #expect(message.contains("which the parent inserted and has since saved, rolled back or deleted"), "\(message)")
                #expect(!context.hasChanges, "\(letGo), \(change): nothing reached the parent")
                #expect(context.registeredObject(for: other.objectID)?.get("title", as: String.self) != "Changed in the child",
                        "\(letGo), \(change): the child's other change did not reach the parent either")
            }
            context.rollback()
        }
    }
}
