import Foundation
import Testing
@testable import ManagedStore

/// Misuse a library trial met, each now an error that says what to do. Mostly objects in no context: an
/// object whose context was reset or released, or whose deletion was saved. The key-based accessors that
/// would change it or follow its relationships throw, as does reading a fault, rather than dropping the
/// change or reading nulls (the trial found writes after `reset()` lost silently, and a fault sent to an
/// actor read every value as nil).
@Suite("Library misuse: objects in no context, fetch result types, row keys")
struct LibraryMisuseTests {
    let harness: StoreHarness
    var context: ManagedObjectContext { harness.context }

    init() throws {
        harness = try StoreHarness(model: Library.model)
        let author = try harness.context.insert("Author")
        author["name"] = .string("Austen")
        for title in ["Emma", "Persuasion"] {
            let book = try harness.context.insert("Book")
            book["title"] = .string(title)
            try book.setObject(author, forKey: "author")
        }
        try harness.context.save()
    }

    /// The error names the object and why it is in no context.
    func expectDetached(_ error: StoreError?, _ why: String, sourceLocation: SourceLocation = #_sourceLocation) {
        guard case .invalidRequest(let message)? = error else {
            Issue.record("expected invalidRequest, got \(String(describing: error))", sourceLocation: sourceLocation)
            return
        }
        #expect(message.contains("is in no context: \(why)"), "\(message)", sourceLocation: sourceLocation)
        #expect(message.contains("fetch the object again in a live context"), "\(message)", sourceLocation: sourceLocation)
    }

    @Test("after reset(): changes, relationships and a fault's values throw; values read before stay readable")
    func afterReset() throws {
        context.reset()   // the objects init() inserted go: the fetches below register their own
        var request = FetchRequest(entityName: "Book")
        request.predicate = try FetchPredicate(format: "title == %@", "Emma")
        request.returnsObjectsAsFaults = false
        let emma = try #require(try context.fetch(request).first)
        // A fault whose row was never read (fetched with IDs only).
        var ids = FetchRequest(entityName: "Author")
        ids.includesPropertyValues = false
        let fault = try #require(try context.fetch(ids).first)
        #expect(fault.isFault)
        let author = try #require(try emma.object(forKey: "author"))
        context.reset()
        #expect(emma.context == nil)

        #expect(try emma.value(forKey: "title") == .string("Emma"), "read while the context lived")
        let why = "its context was reset or released"
        expectDetached(thrown { try emma.setValue(.string("Changed"), forKey: "title") }, why)
        expectDetached(thrown { _ = try emma.object(forKey: "author") }, why)
        expectDetached(thrown { _ = try author.objects(forKey: "books") }, why)
        expectDetached(thrown { try author.add(emma, toKey: "books") }, why)
        expectDetached(thrown { try author.remove(emma, fromKey: "books") }, why)
        expectDetached(thrown { _ = try fault.value(forKey: "name") }, why)
        // The ordinal accessor reads nulls (documented), and the key-based one still throws after it.
        #expect(fault.value(at: 0) == .null)
        expectDetached(thrown { _ = try fault.value(forKey: "name") }, why)

        // Nothing changed in the store.
        let fresh = ManagedObjectContext(store: harness.store)
        let titles = try fresh.fetch(FetchRequest(entityName: "Book")).map { $0.get("title", as: String.self) }
        #expect(titles == ["Emma", "Persuasion"])
    }

    @Test("objects fetched by a context released at once read their rows; a fault without one throws instead of reading nulls")
    func contextReleased() throws {
        // The common pattern: a fetch's objects come as faults holding their rows (returnsObjectsAsFaults),
        // and read them after the context that fetched them is gone (a check found this stopping the program).
        let titles = try ManagedObjectContext(store: harness.store).fetch(FetchRequest(entityName: "Book")).map { $0["title"] }
        #expect(titles == [.string("Emma"), .string("Persuasion")])
        var fault: ManagedObject?
        do {
            let other = ManagedObjectContext(store: harness.store)
            var ids = FetchRequest(entityName: "Book")
            ids.includesPropertyValues = false
            fault = try other.fetch(ids).first
        }
        let book = try #require(fault)
        #expect(book.context == nil && book.isFault)
        expectDetached(thrown { _ = try book.value(forKey: "title") }, "its context was reset or released")
        expectDetached(thrown { _ = try book.transformedValue(forKey: "title") }, "its context was reset or released")
        expectDetached(thrown { try book.setTransformedValue(nil, forKey: "title") }, "its context was reset or released")
    }

    @Test("an object whose deletion was saved: changes throw, deleting it again does nothing")
    func deletedAndSaved() throws {
        let persuasion = try #require(try context.fetch(FetchRequest(entityName: "Book")).last)
        context.delete(persuasion)
        try context.save()
        expectDetached(thrown { try persuasion.setValue(.string("Again"), forKey: "title") }, "it was deleted and the deletion saved")
        context.delete(persuasion)
        #expect(!context.hasChanges)
    }

    @Test("delete(_:) with an object of another context stops the program naming the object and the way out")
    func deleteFromAnotherContext() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let harness = try StoreHarness(model: Library.model)
            let book = try harness.context.insert("Book")
            try harness.context.save()
            let other = ManagedObjectContext(store: harness.store)
            other.delete(book)
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("cannot delete the Book "), "\(stderr)")
        #expect(stderr.contains("it belongs to another context") && stderr.contains("existingObject(with: objectID)"), "\(stderr)")
    }

    @Test("delete(_:) after reset() stops the program: the deletion would be lost")
    func deleteAfterReset() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let harness = try StoreHarness(model: Library.model)
            let book = try harness.context.insert("Book")
            try harness.context.save()
            harness.context.reset()
            harness.context.delete(book)
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("its context was reset or released"), "\(stderr)")
    }

    @Test("fetch(_:) refuses a request for dictionaries, IDs or a count, naming the call; a row's value(forKey:) refuses a key not fetched")
    func fetchRefusesOtherResultTypes() throws {
        for (type, call) in [(FetchRequest.ResultType.dictionary, "fetchRows(_:)"), (.managedObjectID, "fetchObjectIDs(_:)"), (.count, "count(for:)")] {
            var request = FetchRequest(entityName: "Book")
            request.resultType = type
            guard case .invalidRequest(let message)? = thrown({ _ = try context.fetch(request) }) else {
                Issue.record("fetch(_:) ran a \(type) request")
                continue
            }
            #expect(message.contains("resultType is .\(type.rawValue)") && message.contains("run it with \(call)"), "\(message)")
        }
        var rows = FetchRequest(entityName: "Book")
        rows.resultType = .dictionary
        rows.propertiesToFetch = [.key("title")]
        let fetched = try context.fetchRows(rows)
        #expect(fetched.count == 2)
        // A row's key read through value(forKey:) is checked: a typo throws, where the subscript reads null.
        #expect(try fetched[0].value(forKey: "title") == .string("Emma"))
        #expect(fetched[0]["titel"] == .null)
        guard case .invalidRequest(let message)? = thrown({ _ = try fetched[0].value(forKey: "titel") }) else {
            Issue.record("value(forKey:) read a key the fetch did not select")
            return
        }
        #expect(message == "the rows have no \"titel\": the fetch selected \"title\"; add it to propertiesToFetch, or read one of those", "\(message)")
    }

    @Test("a value of the wrong kind is named with its article: an integer, a string")
    func wrongKindArticle() throws {
        let book = try context.insert("Book")
        book["title"] = .integer(42)
        guard case .validation(let failures)? = thrown({ try context.save() }) else {
            Issue.record("the save took an integer title")
            return
        }
        #expect(failures.contains { "\($0)".contains("holds an integer (42) where String is expected") }, "\(failures)")
        #expect(Value.string("x").kindNameWithArticle == "a string" && Value.uuid(UUID()).kindNameWithArticle == "a UUID")
    }
}
