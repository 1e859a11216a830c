import Foundation
import Testing
@testable import ManagedStore

/// A failed save leaves the store and the context as they were, and reports every problem.
@Suite struct SaveFailureTests {
    @Test func severalProblemsAreReportedTogether() throws {
        let harness = try StoreHarness(model: try Fixtures.model("tasks"))
        let a = try harness.context.insert("Task")
        let b = try harness.context.insert("Task")
        b["task_description"] = .string("ok")
        b["priority"] = .string("high")
        a["completed"] = .null
        do {
            try harness.context.save()
            Issue.record("the save must fail")
        } catch {
            #expect(error.code == 1560)
            guard case .validation(let failures) = error else { Issue.record("\(error)"); return }
            #expect(Set(failures.map(\.key)) == ["task_description", "completed", "priority"])
            #expect(failures.contains { $0.objectID == b.objectID && $0.code == .invalidValue && $0.message.contains("string") })
            #expect("\(error)".contains("error 1560"))
        }
        #expect(harness.context.insertedObjects == [a, b])
    }

    @Test("Z_OPT counts a row's saved updates, unless the context is told not to (a seed import's own store)", arguments: [true, false])
    func versions(counting: Bool) throws {
        let harness = try StoreHarness(model: try Fixtures.model("tasks"))
        harness.context.countsVersions = counting
        let task = try harness.context.insert("Task")
        task["task_description"] = .string("one")
        try harness.context.save()
        for text in ["two", "three"] {
            task["task_description"] = .string(text)
            try harness.context.save()
        }
        let stored = try harness.store.connection.scalar("SELECT Z_OPT FROM ZTASK")?.int64
        #expect(stored == (counting ? 3 : 1))
        // The context's own idea of the version follows, so later saves pass the optimistic-locking check.
        task["task_description"] = .string("four")
        try harness.context.save()
        #expect(try harness.store.connection.scalar("SELECT ZTASK_DESCRIPTION FROM ZTASK")?.string == "four")
    }

    @Test func sqliteFailureRollsBackEverything() throws {
        let harness = try StoreHarness(model: try Fixtures.model("tasks"))
        let kept = try harness.context.insert("Task")
        kept["task_description"] = .string("kept")
        try harness.context.save()

        // Make the next insert fail inside the transaction, after other writes already ran.
        try harness.store.connection.execute("CREATE TRIGGER refuse BEFORE INSERT ON ZTASK WHEN NEW.ZTASK_DESCRIPTION = 'boom' BEGIN SELECT RAISE(ABORT, 'refused by test trigger'); END")
        kept["task_description"] = .string("changed")
        let fine = try harness.context.insert("Task")
        fine["task_description"] = .string("fine")
        let boom = try harness.context.insert("Task")
        boom["task_description"] = .string("boom")
        #expect(throws: StoreError.self) { try harness.context.save() }

        let check = ManagedObjectContext(store: try harness.reopen())
        let rows = try check.fetchAll("Task")
        #expect(rows.map { $0.get("task_description", as: String.self) } == ["kept"], "nothing of the failed save reached the store")
        #expect(try harness.store.connection.scalar("SELECT Z_MAX FROM Z_PRIMARYKEY") == .integer(1))
        // The context still holds its changes, with temporary IDs.
        #expect(harness.context.insertedObjects == [fine, boom])
        #expect(fine.objectID.isTemporary)
        #expect(harness.context.updatedObjects == [kept])

        boom["task_description"] = .string("defused")
        try harness.context.save()
        #expect(try ManagedObjectContext(store: try harness.reopen()).fetchAll("Task").count == 3)
    }

    @Test func rollbackAndReset() throws {
        let harness = try StoreHarness(model: try Fixtures.model("tasks"))
        let task = try harness.context.insert("Task")
        task["task_description"] = .string("saved")
        try harness.context.save()
        task["task_description"] = .string("edited")
        _ = try harness.context.insert("Task")
        harness.context.delete(task)
        harness.context.rollback()
        #expect(!harness.context.hasChanges)
        #expect(task.get("task_description") == "saved")
        #expect(!task.isDeleted)
        #expect(try harness.context.fetchAll("Task") == [task])

        harness.context.reset()
        #expect(harness.context.registeredObjects.isEmpty)
        #expect(task.context == nil)
        let again = try harness.context.fetchAll("Task")
        #expect(again.count == 1 && again[0] !== task)
    }

    @Test func uniquingGivesOneObjectPerRow() throws {
        let harness = try StoreHarness(model: try Fixtures.model("tasks"))
        try harness.context.insert("Task")["task_description"] = .string("one")
        try harness.context.save()
        let context = ManagedObjectContext(store: try harness.reopen())
        let first = try context.fetchAll("Task")
        let second = try context.fetchAll("Task")
        #expect(first[0] === second[0])
        #expect(context.object(with: first[0].objectID) === first[0])
    }

    @Test func conflictingWriterIsDetected() throws {
        let harness = try StoreHarness(model: try Fixtures.model("tasks"))
        try harness.context.insert("Task")["task_description"] = .string("one")
        try harness.context.save()
        let otherStore = try harness.reopen()
        let myContext = ManagedObjectContext(store: try harness.reopen())
        let mine = try myContext.fetchAll("Task")[0]
        let theirsContext = ManagedObjectContext(store: otherStore)
        let theirs = try theirsContext.fetchAll("Task")[0]
        theirs["priority"] = .integer(1)
        try theirsContext.save()
        mine["priority"] = .integer(2)
        #expect {
            try myContext.save()
        } throws: { ($0 as? StoreError)?.code == 133020 }
    }

    /// A library trial found a delete of a row another context had changed since it was read going
    /// through, destroying the newer edit without a word: a pending delete is a change too.
    @Test("deleting a row another writer changed since it was read is a conflict; one it deleted is not")
    func conflictingDeleteIsDetected() throws {
        let harness = try StoreHarness(model: try Fixtures.model("tasks"))
        for text in ["one", "two"] { try harness.context.insert("Task")["task_description"] = .string(text) }
        try harness.context.save()
        let myContext = ManagedObjectContext(store: try harness.reopen())
        let mine = try myContext.fetchAll("Task")
        let theirsContext = ManagedObjectContext(store: try harness.reopen())
        let theirs = try theirsContext.fetchAll("Task")
        theirs[0]["priority"] = .integer(1)
        theirsContext.delete(theirs[1])
        try theirsContext.save()
        myContext.delete(mine[0])
        #expect {
            try myContext.save()
        } throws: { ($0 as? StoreError)?.code == 133020 }
        #expect(try harness.store.connection.scalar("SELECT count(*) FROM ZTASK") == .integer(1), "nothing was deleted")
        // A row the other writer deleted as well: nothing is lost, so the delete goes through.
        myContext.rollback()
        myContext.delete(mine[1])
        try myContext.save()
        #expect(try harness.store.connection.scalar("SELECT count(*) FROM ZTASK") == .integer(1))
        // After a refresh the delete is of the current row, and saves.
        myContext.refresh(mine[0], mergeChanges: false)
        myContext.delete(mine[0])
        try myContext.save()
        #expect(try harness.store.connection.scalar("SELECT count(*) FROM ZTASK") == .integer(0))
    }
}
