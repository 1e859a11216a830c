import Foundation
import Testing
@testable import ManagedStore

/// Keys by name: a misspelt key gets "did you mean" from every throwing accessor, and a key of the
/// wrong kind (a to-many with a to-one API, or the reverse) says what it is and which API it takes.
@Suite("Values and relationships by key")
struct KeyAccessTests {
    let harness: StoreHarness
    var context: ManagedObjectContext { harness.context }

    init() throws {
        harness = try StoreHarness(model: Library.model)
    }

    @Test("value(forKey:as:) and setValue(_:forKey:) throw for a misspelt key, naming the closest")
    func typedThrowingAccessors() throws {
        let book = try context.insert("Book")
        try book.setValue("Emma", forKey: "title")
        #expect(try book.value(forKey: "title", as: String.self) == "Emma")
        #expect(book.get("title") == "Emma")
        #expect(try book.value(forKey: "pages", as: Int16.self) == nil, "null reads nil")
        try book.setValue(nil as String?, forKey: "title")
        #expect(book["title"] == .null)

        for error in [thrown { _ = try book.value(forKey: "titel", as: String.self) }, thrown { try book.setValue("Emma", forKey: "titel") }] {
            guard case .unknownKey("Book", "titel", let suggestions)? = error else {
                Issue.record("expected unknownKey, got \(String(describing: error))")
                continue
            }
            #expect(suggestions == ["title"])
            #expect("\(error!)" == "entity Book has no property 'titel'; did you mean 'title'?")
        }
    }

    @Test("a to-many key given to a to-one or value API, and the reverse, says what the key is and which API to use")
    func wrongKindOfKey() throws {
        let author = try context.insert("Author"), book = try context.insert("Book")
        func reason(_ error: StoreError?) -> String {
            guard case .invalidProperty(_, _, let reason)? = error else { return "not invalidProperty: \(String(describing: error))" }
            return reason
        }
        let toMany = [thrown { try author.setObject(book, forKey: "books") }, thrown { _ = try author.value(forKey: "books") },
                      thrown { _ = try author.object(forKey: "books") }, thrown { try author.setValue(.null, forKey: "books") },
                      thrown { _ = try author.value(forKey: "books", as: String.self) }]
        for error in toMany {
            #expect(reason(error) == "is a to-many relationship (to Book): read it with objects(forKey:), change it with add(_:toKey:) and remove(_:fromKey:)")
            #expect("\(error!)".hasPrefix("Author.books: is a to-many relationship"), "\(error!)")
        }
        #expect(reason(thrown { _ = try book.value(forKey: "chapters") }).hasSuffix("or insert(_:at:intoKey:) and moveObject(at:to:forKey:)"))
        for error in [thrown { _ = try book.objects(forKey: "author") }, thrown { try book.add(author, toKey: "author") },
                      thrown { try book.remove(author, fromKey: "author") }, thrown { try book.insert(author, at: 0, intoKey: "author") }] {
            #expect(reason(error) == "is a to-one relationship (to Author), not a to-many: read it with object(forKey:), set it with setObject(_:forKey:)")
        }
        for error in [thrown { _ = try book.object(forKey: "title") }, thrown { try book.setObject(author, forKey: "title") },
                      thrown { try book.add(author, toKey: "title") }] {
            #expect(reason(error).hasPrefix("is an attribute (String), not a"), "\(reason(error))")
        }
        #expect(book["title"] == .null, "setObject on an attribute stored nothing")
        #expect(try author.objects(forKey: "books").isEmpty)
        // A key the entity lacks is still unknown, with a suggestion.
        guard case .unknownKey("Author", "book", let suggestions)? = thrown({ _ = try author.objects(forKey: "book") }) else {
            Issue.record("expected unknownKey")
            return
        }
        #expect(suggestions == ["books"])
    }
}
