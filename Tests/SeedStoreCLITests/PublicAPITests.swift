import Foundation
import ManagedStore
import Testing

/// What a client of the library (no `@testable`) can build: the fetched-results controller's change
/// reports, so tests can state the changes they expect.
@Suite struct PublicAPITests {
    @Test func changeReportsCanBeWrittenByClients() {
        let move = FetchedResultsController.Move(from: IndexPath(row: 1, section: 1), to: IndexPath(row: 1, section: 0))
        let changes = FetchedResultsController.Changes(insertedSections: [1], insertedRows: [IndexPath(row: 0, section: 1)], movedRows: [move])
        #expect(!changes.isEmpty)
        #expect(changes.movedRows == [move] && changes.deletedRows.isEmpty)
        #expect(FetchedResultsController.Changes().isEmpty)
    }
}
