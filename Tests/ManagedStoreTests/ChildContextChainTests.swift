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

/// A to-many relationship a child reads for the first time starts from what its parent sees, not from
/// the store: a check found a child that had saved into its parent listing none of the members it had
/// pushed by their to-one side, and a Cascade from the owner missing them.
extension ChildContextChainTests {
    func book(_ title: String, in context: ManagedObjectContext) throws -> ManagedObject {
        try #require(try context.fetchAll("Book").first { $0.get("title", as: String.self) == title })
    }

    func titles(_ objects: [ManagedObject]) -> [String] { objects.map { $0.get($0.entity.name == "Tag" ? "name" : "title", as: String.self) ?? "nil" }.sorted() }

    @Test("members a child pushed by their to-one side are listed by the owner, in the child and in a fresh child",
          arguments: ["inserted by the parent", "stored"])
    func membersPushedByTheirToOneSide(owner kind: String) throws {
        let owner = kind == "stored" ? try book("Emma", in: root) : try root.insert("Book")
        if kind != "stored" { owner["title"] = .string("Root book") }
        let child = ManagedObjectContext(parent: root)
        let copy = child.object(with: owner.objectID)
        let chapter = try child.insert("Chapter")
        chapter["title"] = .string("C1")
        try chapter.setObject(copy, forKey: "book")
        try child.save()
        // The child never loaded the owner's chapters: read now, after its save.
        #expect(titles(try copy.objects(forKey: "chapters")) == ["C1"])
        let fresh = ManagedObjectContext(parent: root)
        #expect(titles(try fresh.object(with: owner.objectID).objects(forKey: "chapters")) == ["C1"])
        let grand = ManagedObjectContext(parent: fresh)
        #expect(titles(try grand.object(with: owner.objectID).objects(forKey: "chapters")) == ["C1"])
        #expect(titles(try owner.objects(forKey: "chapters")) == ["C1"])
    }

    @Test("a Cascade from a parent's object reaches the members its parent chain added")
    func cascadeReachesTheParentsMembers() throws {
        let owner = try root.insert("Book")
        owner["title"] = .string("Root book")
        let chapter = try root.insert("Chapter")
        chapter["title"] = .string("C1")
        try chapter.setObject(owner, forKey: "book")
        let child = ManagedObjectContext(parent: root)
        child.delete(child.object(with: owner.objectID))
        try child.save()
        try root.save()
        #expect(try stored("Book", "title") == ["Emma"])
        #expect(try stored("Chapter", "title") == [], "the cascade deleted the parent's chapter too")
    }

    @Test("a child sees the parent's many-to-many additions and removals, and the parent's deletes")
    func parentsJoinChangesAndDeletes() throws {
        let emma = try book("Emma", in: root)
        let tag = try root.insert("Tag")
        tag["name"] = .string("classic")
        try emma.add(tag, toKey: "tags")
        let doomed = try root.insert("Chapter")
        doomed["title"] = .string("Doomed")
        let kept = try root.insert("Chapter")
        kept["title"] = .string("Kept")
        try emma.add(doomed, toKey: "chapters")
        try emma.add(kept, toKey: "chapters")
        try root.save()
        root.reset()

        let emmaAgain = try book("Emma", in: root)
        let added = try root.insert("Tag")
        added["name"] = .string("new")
        try emmaAgain.add(added, toKey: "tags")
        let classic = try #require(try root.fetchAll("Tag").first { $0.get("name", as: String.self) == "classic" })
        try emmaAgain.remove(classic, fromKey: "tags")
        root.delete(try #require(try root.fetchAll("Chapter").first { $0.get("title", as: String.self) == "Doomed" }))

        let child = ManagedObjectContext(parent: root)
        let copy = child.object(with: emmaAgain.objectID)
        #expect(titles(try copy.objects(forKey: "tags")) == ["new"])
        #expect(titles(try copy.objects(forKey: "chapters")) == ["Kept"])
        // Prefetching in the child gives the same sets.
        let other = ManagedObjectContext(parent: root)
        var request = FetchRequest(entityName: "Book")
        request.relationshipKeyPathsForPrefetching = ["tags", "chapters"]
        let prefetched = try #require(try other.fetch(request).first { $0.get("title", as: String.self) == "Emma" })
        #expect(titles(try prefetched.objects(forKey: "tags")) == ["new"])
        #expect(titles(try prefetched.objects(forKey: "chapters")) == ["Kept"])
    }
}

/// `fetchAll(_:)` in a child: a library trial found it read only the store, so a child missed its
/// parent's unsaved inserts and deletes (``ManagedObjectContext/fetch(_:)`` had them).
extension ChildContextChainTests {
    @Test("a child's and a grandchild's fetchAll see the parents' unsaved inserts, deletes and updates")
    func fetchAllThroughParents() throws {
        let second = try root.insert("Book")
        second["title"] = .string("Persuasion")
        try root.save()
        let emma = try book("Emma", in: root)
        emma["title"] = .string("Emma (revised)")
        root.delete(try book("Persuasion", in: root))
        let inserted = try root.insert("Book")
        inserted["title"] = .string("Sanditon")

        let child = ManagedObjectContext(parent: root)
        #expect(titles(try child.fetchAll("Book")) == ["Emma (revised)", "Sanditon"])
        let grand = ManagedObjectContext(parent: child)
        let more = try child.insert("Book")
        more["title"] = .string("Lady Susan")
        #expect(titles(try grand.fetchAll("Book")) == ["Emma (revised)", "Lady Susan", "Sanditon"])
        // The same objects fetch(_:) gives, in the same order.
        #expect(try grand.fetchAll("Book") == Array(try grand.fetch(FetchRequest(entityName: "Book"))))
    }
}

/// A to-many relationship read after one of its members was deleted, unsaved: a library trial found a
/// set loaded before the delete still listing the member (in the context that deleted it, and in a
/// child reading through that context) until the save.
extension ChildContextChainTests {
    func emmaWithChapters(_ titles: [String]) throws -> ManagedObject {
        let emma = try book("Emma", in: root)
        for title in titles {
            let chapter = try root.insert("Chapter")
            chapter["title"] = .string(title)
            try emma.add(chapter, toKey: "chapters")
        }
        try root.save()
        return emma
    }

    func chapter(_ title: String, of book: ManagedObject) throws -> ManagedObject {
        try #require(try book.objects(forKey: "chapters").first { $0.get("title", as: String.self) == title })
    }

    @Test("a set loaded before a delete leaves the deleted member out, until a rollback brings it back")
    func loadedSetAfterADelete() throws {
        let emma = try emmaWithChapters(["One", "Two", "Three"])
        #expect(titles(try emma.objects(forKey: "chapters")) == ["One", "Three", "Two"])
        root.delete(try chapter("Two", of: emma))
        #expect(try emma.objects(forKey: "chapters").map { $0.get("title", as: String.self) } == ["One", "Three"])
        root.rollback()
        #expect(try emma.objects(forKey: "chapters").map { $0.get("title", as: String.self) } == ["One", "Two", "Three"])
    }

    @Test("a child and a grandchild leave out members deleted above them or by themselves after the set loaded")
    func childrenAfterADelete() throws {
        let emma = try emmaWithChapters(["One", "Two", "Three"])
        _ = try emma.objects(forKey: "chapters")
        root.delete(try chapter("One", of: emma))
        let child = ManagedObjectContext(parent: root)
        let inChild = child.object(with: emma.objectID)
        #expect(titles(try inChild.objects(forKey: "chapters")) == ["Three", "Two"])
        let grand = ManagedObjectContext(parent: child)
        let inGrand = grand.object(with: emma.objectID)
        #expect(titles(try inGrand.objects(forKey: "chapters")) == ["Three", "Two"])
        grand.delete(try chapter("Two", of: inGrand))
        #expect(titles(try inGrand.objects(forKey: "chapters")) == ["Three"])
        try grand.save()
        #expect(titles(try inChild.objects(forKey: "chapters")) == ["Three"])
        try child.save()
        try root.save()
        #expect(try stored("Chapter", "title") == ["Three"])
    }
}

/// A child's change to an object its parent chain deleted, unsaved: a library trial found the change
/// pushed into the parent's deleted object and lost without a word when the parent saved.
extension ChildContextChainTests {
    @Test("a child's change to an object its parent chain deleted is refused, naming it", arguments: [false, true])
    func changesToWhatTheParentDeleted(throughAMiddleContext: Bool) throws {
        let emma = try book("Emma", in: root)
        root.delete(emma)
        let child = ManagedObjectContext(parent: root)
        let editor = throughAMiddleContext ? ManagedObjectContext(parent: child) : child
        editor.object(with: emma.objectID)["title"] = .string("Emma (lost edit)")
        #expect {
            try editor.save()
        } throws: { error in
            guard case .invalidRequest(let message) = error as? StoreError else { return false }
            return message.contains("Book \(emma.objectID)") && message.contains("deleted and has not saved")
        }
        // The refusal reached nothing: the parent's delete still saves.
        try root.save()
        #expect(try stored("Book", "title") == [])
    }

    @Test("a child's links to an object its parent deleted reach the parent, whose delete rules then apply")
    func linksToWhatTheParentDeleted() throws {
        let emma = try book("Emma", in: root)
        root.delete(emma)
        let child = ManagedObjectContext(parent: root)
        let copy = child.object(with: emma.objectID)
        let chapter = try child.insert("Chapter")
        chapter["title"] = .string("Cascaded")
        try chapter.setObject(copy, forKey: "book")
        let tag = try child.insert("Tag")
        tag["name"] = .string("kept")
        try tag.add(copy, toKey: "books")
        try child.save()
        try root.save()
        // As in one context: Book.chapters cascades, Book.tags nullifies.
        #expect(try stored("Book", "title") == [])
        #expect(try stored("Chapter", "title") == [])
        #expect(try stored("Tag", "name") == ["kept"])
        let check = ManagedObjectContext(store: try harness.reopen())
        #expect(try check.fetchAll("Tag").first?.objects(forKey: "books").isEmpty == true)
        let join = try #require(check.store.model.joinTables.first)
        #expect(try check.store.connection.scalar("SELECT count(*) FROM \(join.name)") == .integer(0))
    }

    @Test("a child may delete what its parent deleted too")
    func deletingWhatTheParentDeleted() throws {
        let emma = try book("Emma", in: root)
        root.delete(emma)
        let child = ManagedObjectContext(parent: root)
        child.delete(child.object(with: emma.objectID))
        try child.save()
        try root.save()
        #expect(try stored("Book", "title") == [])
    }
}

/// A fetch across a to-many relationship after a member's delete, unsaved: a library trial found the
/// owner's set leaving the member out while `ANY` and `@count` in a fetch still counted it (the owner
/// was not changed, so only SQL, which reads the store, tested it).
extension ChildContextChainTests {
    func bookTitles(_ format: String, in context: ManagedObjectContext) throws -> [String] {
        var request = FetchRequest(entityName: "Book")
        request.predicate = try FetchPredicate(format: format)
        return titles(Array(try context.fetch(request)))
    }

    @Test("a fetch across a to-many relationship sees a member's pending delete, in the context and in a child",
          arguments: [false, true])
    func fetchesAcrossAPendingDelete(inChild: Bool) throws {
        let emma = try emmaWithChapters(["One", "Two"])
        let tag = try root.insert("Tag")
        tag["name"] = .string("classic")
        try emma.add(tag, toKey: "tags")
        try root.save()
        root.reset()
        // Neither Emma nor its sets are loaded: the deletes reach it only through the members.
        root.delete(try #require(try root.fetchAll("Chapter").first { $0.get("title", as: String.self) == "One" }))
        root.delete(try #require(try root.fetchAll("Tag").first))
        let context = inChild ? ManagedObjectContext(parent: root) : root
        #expect(try bookTitles("chapters.@count == 1", in: context) == ["Emma"])
        #expect(try bookTitles("ANY chapters.title == 'One'", in: context) == [])
        #expect(try bookTitles("ANY tags.name == 'classic'", in: context) == [])
        #expect(try bookTitles("SUBQUERY(chapters, $c, $c.title == 'Two').@count == 1", in: context) == ["Emma"])
        var count = FetchRequest(entityName: "Book")
        count.predicate = try FetchPredicate(format: "chapters.@count == 2")
        #expect(try context.count(for: count) == 0)
        // The same answers once saved.
        if inChild { try context.save() }
        try root.save()
        let fresh = ManagedObjectContext(store: try harness.reopen())
        #expect(try bookTitles("chapters.@count == 1", in: fresh) == ["Emma"])
        #expect(try bookTitles("ANY tags.name == 'classic'", in: fresh) == [])
    }
}
