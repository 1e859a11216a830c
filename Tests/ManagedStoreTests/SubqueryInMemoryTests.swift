import Foundation
import Testing
@testable import ManagedStore

/// SUBQUERY over objects with unsaved changes: a library trial found a fetch with the SUBQUERY the
/// README recommends throwing "not supported in memory" as soon as the context (or its parent) had
/// unsaved changes to the entity. Each case is fetched unsaved (the changed objects tested in memory)
/// and again after the save (everything in SQL): both must give the same authors.
@Suite("SUBQUERY on unsaved objects")
struct SubqueryInMemoryTests {
    let harness: StoreHarness
    var context: ManagedObjectContext { harness.context }

    init() throws {
        harness = try StoreHarness(model: Library.model)
        let classic = try harness.context.insert("Tag")
        classic["name"] = .string("classic")
        for (name, books) in [("Austen", [("Emma", 474), ("Persuasion", 249)]), ("Brontë", [("Villette", 572)]), ("Woolf", [])] {
            let author = try harness.context.insert("Author")
            author["name"] = .string(name)
            for (title, pages) in books {
                let book = try harness.context.insert("Book")
                book["title"] = .string(title)
                book["pages"] = .integer(Int64(pages))
                try book.setObject(author, forKey: "author")
                if title == "Emma" { try book.add(classic, toKey: "tags") }
            }
        }
        try harness.context.save()
    }

    func authors(_ format: String, in context: ManagedObjectContext) throws -> [String] {
        var request = FetchRequest(entityName: "Author")
        request.predicate = try FetchPredicate(format: format)
        request.sortDescriptors = [FetchSort("name")]
        return try context.fetch(request).map { $0.get("name", as: String.self) ?? "nil" }
    }

    /// Unsaved: a new author with a long tagged book, Woolf and Austen given one more each. (Brontë is
    /// unchanged, so the fetch tests it in SQL, as Core Data does: an object changed only through a
    /// related object is not retested in memory.)
    func change(_ context: ManagedObjectContext) throws {
        let new = try context.insert("Author")
        new["name"] = .string("Eliot")
        let middlemarch = try context.insert("Book")
        middlemarch["title"] = .string("Middlemarch")
        middlemarch["pages"] = .integer(880)
        try middlemarch.setObject(new, forKey: "author")
        let woolf = try #require(try context.fetchAll("Author").first { $0.get("name", as: String.self) == "Woolf" })
        let waves = try context.insert("Book")
        waves["title"] = .string("Woolf")
        waves["pages"] = .integer(297)
        try waves.setObject(woolf, forKey: "author")
        let austen = try #require(try context.fetchAll("Author").first { $0.get("name", as: String.self) == "Austen" })
        let sanditon = try context.insert("Book")
        sanditon["title"] = .string("Sanditon")
        sanditon["pages"] = .integer(600)
        try sanditon.setObject(austen, forKey: "author")
        try middlemarch.add(try #require(try context.fetchAll("Tag").first), toKey: "tags")
    }

    static let cases: [(String, [String])] = [
        ("SUBQUERY(books, $b, $b.pages > 500).@count > 0", ["Austen", "Brontë", "Eliot"]),
        ("SUBQUERY(books, $b, $b.pages > 400).@count == 2", ["Austen"]),
        ("SUBQUERY(books, $b, $b.pages < 300).@count == 0", ["Brontë", "Eliot"]),
        // A nested SUBQUERY ranging over the outer variable's to-many.
        ("SUBQUERY(books, $b, SUBQUERY($b.tags, $t, $t.name == 'classic').@count > 0).@count > 0", ["Austen", "Eliot"]),
        // ANY over the variable's to-many, and a bare key path, which starts at the evaluated object.
        ("SUBQUERY(books, $b, ANY $b.tags.name == 'classic' AND $b.pages > 400).@count == 1", ["Austen", "Eliot"]),
        ("SUBQUERY(books, $b, $b.title == name).@count > 0", ["Woolf"]),
        ("SUBQUERY(books, $b, $b.author == SELF).@count == books.@count AND books.@count > 0", ["Austen", "Brontë", "Eliot", "Woolf"]),
        ("SUBQUERY(books, $b, $b.pages > 0).@sum.pages > 1000", ["Austen"]),
    ]

    @Test("a SUBQUERY fetch with unsaved changes matches the same fetch after the save", arguments: cases)
    func rootContext(format: String, expected: [String]) throws {
        try change(context)
        #expect(try authors(format, in: context) == expected)
        try context.save()
        #expect(try authors(format, in: ManagedObjectContext(store: try harness.reopen())) == expected)
    }

    @Test("a child's SUBQUERY fetch sees its parent's unsaved changes", arguments: cases)
    func childContext(format: String, expected: [String]) throws {
        try change(context)
        let child = ManagedObjectContext(parent: context)
        #expect(try authors(format, in: child) == expected)
    }
}
