import Foundation
import Testing
@testable import ManagedStore

/// A negative fetchLimit, fetchOffset or fetchBatchSize (plain `Int`s here, unsigned in Core Data) is
/// refused by every way of running a request, whether or not the context has unsaved changes.
@Suite("Fetch paging values")
struct FetchPagingTests {
    let harness: StoreHarness
    var context: ManagedObjectContext { harness.context }

    init() throws {
        harness = try StoreHarness(model: Library.model)
        for title in ["a", "b", "c"] { try context.insert("Book").set("title", title) }
        try context.save()
    }

    /// The errors of each way of running `request`.
    func errors(_ request: FetchRequest) -> [StoreError?] {
        var rows = request
        rows.resultType = .dictionary
        rows.propertiesToFetch = [.key("title")]
        let controller = FetchedResultsController(request: request, context: context)
        return [thrown { _ = try context.fetch(request) }, thrown { _ = try context.fetchObjectIDs(request) },
                thrown { _ = try context.count(for: request) }, thrown { _ = try context.fetchRows(rows) },
                thrown { _ = try context.explain(request) }, thrown { try controller.performFetch() }]
    }

    @Test("negative values throw, with and without unsaved changes", arguments: [
        ("fetchOffset", "fetchOffset must be 0 or more (got -1; 0 to skip none)"),
        ("fetchLimit", "fetchLimit must be 0 or more (got -1; 0 for no limit)"),
        ("fetchBatchSize", "fetchBatchSize must be 0 or more (got -1; 0 to load every object with the fetch)"),
    ])
    func negative(_ property: String, _ message: String) throws {
        var request = FetchRequest(entityName: "Book")
        request.sortDescriptors = [FetchSort("title")]
        switch property {
        case "fetchOffset": request.fetchOffset = -1
        case "fetchLimit": request.fetchLimit = -1
        default: request.fetchBatchSize = -1
        }
        for pending in [false, true] {
            if pending { try context.insert("Book").set("title", "d") }
            for error in errors(request) {
                guard case .invalidRequest(let text)? = error else {
                    Issue.record("expected invalidRequest with pending changes: \(pending), got \(String(describing: error))")
                    continue
                }
                #expect(text.hasPrefix(message), "\(text)")
            }
        }
    }

    @Test("zero and positive values page as before, with and without unsaved changes")
    func positive() throws {
        var request = FetchRequest(entityName: "Book")
        request.sortDescriptors = [FetchSort("title")]
        request.fetchOffset = 1
        request.fetchLimit = 1
        #expect(try context.fetch(request).map { $0.get("title", as: String.self) } == ["b"])
        try context.insert("Book").set("title", "0")
        #expect(try context.fetch(request).map { $0.get("title", as: String.self) } == ["a"])
        #expect(try context.count(for: request) == 1)
    }
}
