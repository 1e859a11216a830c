import Foundation
import Testing
@testable import ManagedStore

/// The Books flow: sections by author, index titles, and change reports as books are added.
@Suite struct FetchedResultsControllerTests {
    let harness: StoreHarness

    init() throws {
        harness = try StoreHarness(model: try Fixtures.model("books"))
        for (title, author) in [("Strata", "Terry Pratchett"), ("Moving Pictures", "Terry Pratchett"), ("Stark", "Ben Elton"),
                                ("High Society", "Ben Elton"), ("Down Under", "Bill Bryson")] {
            let book = try harness.context.insert("Book")
            book["title"] = .string(title)
            book["author"] = .string(author)
        }
        try harness.context.save()
    }

    func controller(batchSize: Int = 2, cacheName: String? = nil) -> FetchedResultsController {
        var request = FetchRequest(entityName: "Book")
        request.sortDescriptors = [FetchSort("author"), FetchSort("title")]
        request.fetchBatchSize = batchSize
        return FetchedResultsController(request: request, context: harness.context, sectionNameKeyPath: "author", cacheName: cacheName)
    }

    @Test func sectionsByAuthor() throws {
        let frc = controller()
        try frc.performFetch()
        #expect(frc.sections.map(\.name) == ["Ben Elton", "Bill Bryson", "Terry Pratchett"])
        #expect(frc.sections.map(\.numberOfObjects) == [2, 1, 2])
        #expect(frc.sectionIndexTitles == ["B", "T"])
        #expect(frc.object(at: IndexPath(row: 1, section: 2)).get("title") == "Strata")
        let stark = frc.object(at: IndexPath(row: 1, section: 0))
        #expect(stark.get("title") == "Stark")
        #expect(frc.indexPath(for: stark) == IndexPath(row: 1, section: 0))
        #expect(frc.fetchedObjects?.isBatched == true)
    }

    @Test func addingABookByANewAuthorReportsASectionAndARow() throws {
        let frc = controller()
        try frc.performFetch()
        var reports: [FetchedResultsController.Changes] = []
        frc.onChange = { reports.append($0) }
        let book = try harness.context.insert("Book")
        book["title"] = .string("The Selfish Gene")
        book["author"] = .string("Richard Dawkins")
        try harness.context.save()
        #expect(reports.count == 1)
        #expect(reports[0].insertedSections == [2])
        #expect(reports[0].insertedRows == [IndexPath(row: 0, section: 2)])
        #expect(reports[0].deletedRows.isEmpty && reports[0].deletedSections.isEmpty)
        #expect(frc.sections.map(\.name) == ["Ben Elton", "Bill Bryson", "Richard Dawkins", "Terry Pratchett"])

        // An existing author: a row insert only. Unsaved, through processPendingChanges, then saved.
        let another = try harness.context.insert("Book")
        another["title"] = .string("Neither Here nor There")
        another["author"] = .string("Bill Bryson")
        harness.context.processPendingChanges()
        #expect(reports.count == 2)
        #expect(reports[1].insertedSections.isEmpty)
        #expect(reports[1].insertedRows == [IndexPath(row: 1, section: 1)])
        try harness.context.save()
        #expect(reports.count == 2, "saving what observers already saw reports nothing new")
    }

    @Test func updatesMovesAndDeletes() throws {
        let frc = controller(batchSize: 0)
        try frc.performFetch()
        var reports: [FetchedResultsController.Changes] = []
        frc.onChange = { reports.append($0) }
        let strata = frc.object(at: IndexPath(row: 1, section: 2))
        strata["title"] = .string("A Strata")    // moves before Moving Pictures
        try harness.context.save()
        #expect(reports.last?.movedRows == [.init(from: IndexPath(row: 1, section: 2), to: IndexPath(row: 0, section: 2))])
        let downUnder = frc.object(at: IndexPath(row: 0, section: 1))
        harness.context.delete(downUnder)
        try harness.context.save()
        #expect(reports.last?.deletedSections == [1])
        #expect(reports.last?.deletedRows == [IndexPath(row: 0, section: 1)])
    }

    @Test func cacheKeepsTheSectionLayout() throws {
        let name = "books-test-\(UUID().uuidString)"
        defer { FetchedResultsController.deleteCache(named: name) }
        let first = controller(cacheName: name)
        try first.performFetch()
        #expect(!first.usedCache)
        let second = controller(cacheName: name)
        try second.performFetch()
        #expect(second.usedCache)
        #expect(second.sections == first.sections)
    }

    /// A library user: in WAL mode another connection's commit changed only the -wal file, so the cached
    /// layout was used and showed a book under its old author.
    @Test("in WAL mode another connection's commit invalidates the cache")
    func walCommitsInvalidateTheCache() throws {
        let directory = TemporaryDirectory()
        let path = directory.path("Books.sqlite")
        let name = "books-wal-\(UUID().uuidString)"
        defer { FetchedResultsController.deleteCache(named: name) }
        let reader = try PersistentStore(path: path, model: try Fixtures.model("books"), options: .init(walJournal: true))
        let context = ManagedObjectContext(store: reader)
        for (title, author) in [("Strata", "Terry Pratchett"), ("Stark", "Ben Elton"), ("High Society", "Ben Elton")] {
            let book = try context.insert("Book")
            book["title"] = .string(title)
            book["author"] = .string(author)
        }
        try context.save()
        var request = FetchRequest(entityName: "Book")
        request.sortDescriptors = [FetchSort("author"), FetchSort("title")]
        let first = FetchedResultsController(request: request, context: ManagedObjectContext(store: reader), sectionNameKeyPath: "author", cacheName: name)
        try first.performFetch()
        #expect(first.sections.map(\.numberOfObjects) == [2, 1])

        // Another connection moves a book to the other author: same count, same keys.
        let writer = try PersistentStore(path: path, model: try Fixtures.model("books"), options: .init(walJournal: true))
        let other = ManagedObjectContext(store: writer)
        var stark = FetchRequest(entityName: "Book")
        stark.predicate = try FetchPredicate(format: "title == 'Stark'")
        try other.fetch(stark)[0]["author"] = .string("Terry Pratchett")
        try other.save()

        // A new connection, as a later run of the app opens: its data_version knows nothing of the commit.
        let later = try PersistentStore(path: path, model: try Fixtures.model("books"), options: .init(walJournal: true))
        let second = FetchedResultsController(request: request, context: ManagedObjectContext(store: later), sectionNameKeyPath: "author", cacheName: name)
        try second.performFetch()
        #expect(!second.usedCache)
        #expect(second.sections.map(\.numberOfObjects) == [1, 2])
    }

    @Test func firstSortMustBeTheSectionKey() throws {
        var request = FetchRequest(entityName: "Book")
        request.sortDescriptors = [FetchSort("title")]
        let frc = FetchedResultsController(request: request, context: harness.context, sectionNameKeyPath: "author")
        #expect(throws: StoreError.self) { try frc.performFetch() }
    }

    @Test func accessorsBeforePerformFetchAreEmptyOrSaySo() throws {
        let frc = controller()
        #expect(frc.sections.isEmpty)
        #expect(frc.fetchedObjects == nil)
        #expect(frc.sectionIndexTitles.isEmpty)
        let book = try #require(try harness.context.fetchAll("Book").first)
        #expect(frc.indexPath(for: book) == nil)
        #expect(FetchedResultsController.notFetchedMessage.contains("call try controller.performFetch() first"))
        try frc.performFetch()
        #expect(frc.isValid(IndexPath(row: 1, section: 2)))
        #expect(!frc.isValid(IndexPath(row: 2, section: 2)) && !frc.isValid(IndexPath(row: 0, section: 3)) && !frc.isValid(IndexPath(row: -1, section: 0)))
        #expect(frc.outOfRangeMessage(IndexPath(row: 5, section: 1))
                == "FetchedResultsController.object(at:): no object at row 5 of section 1; there are 3 section(s) with [2, 1, 2] object(s)")
    }

    @Test func objectAtBeforePerformFetchStopsWithAMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let harness = try StoreHarness(model: try Fixtures.model("books"))
            var request = FetchRequest(entityName: "Book")
            request.sortDescriptors = [FetchSort("title")]
            let frc = FetchedResultsController(request: request, context: harness.context)
            _ = frc.object(at: IndexPath(row: 0, section: 0))
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains(FetchedResultsController.notFetchedMessage), "\(stderr)")
    }
}

/// A rollback after reported changes: a library trial found the controller keeping the rolled-back
/// layout (a deleted book missing, a renamed one moved) until some later change, and reporting that
/// change against the stale layout.
extension FetchedResultsControllerTests {
    @Test("a rollback brings the controller back to a fresh fetch's layout and reports the way back")
    func rollbackIsReported() throws {
        let frc = controller(batchSize: 0)
        try frc.performFetch()
        let before = frc.fetchedObjects.map { Array($0).map { $0.get("title", as: String.self) ?? "" } }
        var reports: [FetchedResultsController.Changes] = []
        frc.onChange = { reports.append($0) }
        let context = harness.context
        let books = try context.fetchAll("Book")
        context.delete(try #require(books.first { $0.get("title", as: String.self) == "Down Under" }))
        try #require(books.first { $0.get("title", as: String.self) == "Stark" })["author"] = .string("Zadie Smith")
        let added = try context.insert("Book")
        added["title"] = .string("Emma")
        added["author"] = .string("Jane Austen")
        context.processPendingChanges()
        #expect(frc.sections.map(\.name) == ["Ben Elton", "Jane Austen", "Terry Pratchett", "Zadie Smith"])
        context.rollback()
        #expect(frc.sections.map(\.name) == ["Ben Elton", "Bill Bryson", "Terry Pratchett"])
        #expect(frc.fetchedObjects.map { Array($0).map { $0.get("title", as: String.self) ?? "" } } == before)
        let back = try #require(reports.last)
        #expect(back.insertedSections == [1] && back.deletedSections == [1, 3])
        #expect(back.insertedRows == [IndexPath(row: 0, section: 1)])
        #expect(back.movedRows.map(\.to) == [IndexPath(row: 1, section: 0)])
        // A later change is reported against the restored layout.
        try #require(books.first { $0.get("title", as: String.self) == "Strata" })["title"] = .string("Strata (2nd ed.)")
        context.processPendingChanges()
        #expect(reports.last?.updatedRows == [IndexPath(row: 1, section: 2)])
        #expect(reports.last?.insertedRows.isEmpty == true && reports.last?.insertedSections.isEmpty == true)
    }
}
