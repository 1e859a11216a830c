import Foundation
import Testing
@testable import ManagedStore

/// Fetch requests on the Tasks model: the book's get_tasks filters and sort, limits, counts,
/// and unsaved changes taken in.
@Suite struct FetchRequestTests {
    let harness: StoreHarness
    var context: ManagedObjectContext { harness.context }

    static let tasks: [(String, Int64, Bool)] = [
        ("Go to the bank", 1, false), ("Buy milk", 3, false), ("Call the Bank manager", 2, true),
        ("Renew passport", 1, true), ("Water the plants", 5, false), ("Book dentist", 2, false),
        ("Pay rent at the bänk", 1, false),
    ]

    init() throws {
        harness = try StoreHarness(model: try Fixtures.model("tasks"))
        for (text, priority, completed) in Self.tasks {
            let task = try harness.context.insert("Task")
            task["task_description"] = .string(text)
            task["priority"] = .integer(priority)
            task["completed"] = .bool(completed)
        }
        try harness.context.save()
    }

    func descriptions(_ format: String, _ arguments: PredicateArgument..., sort: [FetchSort] = [FetchSort("task_description")],
                      in context: ManagedObjectContext? = nil) throws -> [String] {
        var request = FetchRequest(entityName: "Task")
        request.predicate = try FetchPredicate(format: format, arguments: arguments)
        request.sortDescriptors = sort
        return try (context ?? self.context).fetch(request).map { $0.get("task_description") ?? "" }
    }

    @Test func getTasksFilters() throws {
        #expect(try descriptions("completed == %@", false).count == 5)
        #expect(try descriptions("priority == %@", 1) == ["Go to the bank", "Pay rent at the bänk", "Renew passport"])
        #expect(try descriptions("completed == %@ AND priority == %@", false, 1) == ["Go to the bank", "Pay rent at the bänk"])
        #expect(try descriptions("task_description CONTAINS[cd] %@", "bank") == ["Call the Bank manager", "Go to the bank", "Pay rent at the bänk"])
        #expect(try descriptions("task_description CONTAINS %@", "bank") == ["Go to the bank"])
        #expect(try descriptions("task_description LIKE[cd] %@", "*bank*").count == 3)
    }

    @Test func getTasksSort() throws {
        let sorted = try descriptions("TRUEPREDICATE", sort: [FetchSort("completed"), FetchSort("priority"), FetchSort("task_description")])
        #expect(sorted == ["Go to the bank", "Pay rent at the bänk", "Book dentist", "Buy milk", "Water the plants",
                           "Renew passport", "Call the Bank manager"])
        let descending = try descriptions("priority <= 2", sort: [FetchSort("priority", ascending: false), FetchSort("task_description", ascending: false)])
        #expect(descending.first == "Call the Bank manager")
    }

    @Test func limitOffsetAndCount() throws {
        var request = FetchRequest(entityName: "Task")
        request.sortDescriptors = [FetchSort("task_description")]
        request.fetchOffset = 2
        request.fetchLimit = 3
        #expect(try context.fetch(request).map { $0.get("task_description", as: String.self) } == ["Call the Bank manager", "Go to the bank", "Pay rent at the bänk"])
        #expect(try context.count(for: request) == 3)
        request.fetchLimit = 0
        request.fetchOffset = 0
        request.predicate = try FetchPredicate(format: "priority < 3")
        let before = harness.store.connection.stats
        #expect(try context.count(for: request) == 5)
        #expect((harness.store.connection.stats - before).statements == 1)
        #expect(try context.fetchObjectIDs(request).count == 5)
    }

    @Test func unsavedChangesAreTakenIn() throws {
        let fresh = ManagedObjectContext(store: harness.store)
        let all = try fresh.fetchAll("Task")
        let milk = try #require(all.first { $0.get("task_description") == "Buy milk" })
        milk["priority"] = .integer(1)                      // now matches priority == 1
        let bank = try #require(all.first { $0.get("task_description") == "Go to the bank" })
        fresh.delete(bank)                                   // no longer appears
        let new = try fresh.insert("Task")
        new["task_description"] = .string("Answer email")
        new["priority"] = .integer(1)
        #expect(try descriptions("priority == 1", in: fresh) == ["Answer email", "Buy milk", "Pay rent at the bänk", "Renew passport"])
        var request = FetchRequest(entityName: "Task")
        request.predicate = try FetchPredicate(format: "priority == 1")
        #expect(try fresh.count(for: request) == 4)
        request.includesPendingChanges = false
        #expect(try fresh.count(for: request) == 3)
    }

    @Test func unknownKeysAreNamedWithSuggestions() throws {
        var request = FetchRequest(entityName: "Task")
        request.predicate = try FetchPredicate(format: "prority == 1")
        #expect {
            _ = try context.fetch(request)
        } throws: { error in
            guard case .unknownKey(let entity, let key, let suggestions) = error as? StoreError else { return false }
            return entity == "Task" && key == "prority" && suggestions.contains("priority")
        }
        #expect(throws: StoreError.self) { _ = try context.fetch(FetchRequest(entityName: "Tsk")) }
    }

    @Test func injectionThroughValuesIsInert() throws {
        #expect(try descriptions("task_description == %@", "x'); DROP TABLE ZTASK; --").isEmpty)
        #expect(try harness.store.count(of: harness.store.entity(named: "Task")) == Self.tasks.count)
        #expect(throws: StoreError.self) { _ = try descriptions("%K == 1", .keyPath("priority; DROP TABLE ZTASK")) }
    }

    @Test func explainShowsSQLAndPlan() throws {
        var request = FetchRequest(entityName: "Task")
        request.predicate = try FetchPredicate(format: "priority == %@", 1)
        request.sortDescriptors = [FetchSort("task_description")]
        let explanation = try context.explain(request)
        #expect(explanation.sql.hasPrefix("SELECT t0.Z_PK, t0.Z_OPT"))
        #expect(explanation.bindings == [.integer(1)])
        #expect(!explanation.plan.isEmpty)
        #expect(explanation.sql.contains("ZPRIORITY = ?1") && !explanation.sql.contains("= 1 "), "values are bound, not written into the SQL")
    }
}
