import Foundation
import Testing
@testable import ManagedStore

/// The Tasks walk-through of the Core Data book (`../shared/seeds/000_…`): create, save, reopen,
/// fetch back, update, delete, and a failed save naming the missing key.
@Suite struct TasksWalkthroughTests {
    @Test func createSaveReopenAndFetchBack() throws {
        let harness = try StoreHarness(model: try Fixtures.model("tasks"))
        let task = try harness.context.insert("Task")
        #expect(task.objectID.isTemporary)
        #expect(task["priority"] == .integer(5), "the model's default")
        #expect(task["completed"] == .bool(false))
        task["task_description"] = .string("Go to the bank")
        task.set("priority", Int32(1))
        #expect(harness.context.hasChanges)
        #expect(harness.context.insertedObjects == [task])
        try harness.context.save()
        #expect(!task.objectID.isTemporary)
        #expect(task.objectID.primaryKey == 1)
        #expect(!harness.context.hasChanges)

        // A second store on the same file, with no model: the model comes from the metadata.
        let reopened = try harness.reopen()
        #expect(reopened.modelSource == .stored)
        let tasks = try ManagedObjectContext(store: reopened).fetchAll("Task")
        #expect(tasks.count == 1)
        #expect(tasks[0].get("task_description") == "Go to the bank")
        #expect(tasks[0].get("priority", as: Int32.self) == 1)
        #expect(tasks[0].get("completed") == false)
    }

    @Test func updateTwoDescriptionsThenDelete() throws {
        let harness = try StoreHarness(model: try Fixtures.model("tasks"))
        for text in ["Go to the bank", "Buy milk", "Call mum"] {
            try harness.context.insert("Task")["task_description"] = .string(text)
        }
        try harness.context.save()

        let context = ManagedObjectContext(store: try harness.reopen())
        let tasks = try context.fetchAll("Task")
        tasks[0]["task_description"] = .string("Go to the bank before noon")
        tasks[1]["task_description"] = .string("Buy oat milk")
        #expect(context.updatedObjects == [tasks[0], tasks[1]])
        #expect(tasks[0].changedValues() == ["task_description": .string("Go to the bank before noon")])
        harness.sql.removeAll()
        try context.save()
        #expect(context.updatedObjects.isEmpty)

        let fresh = ManagedObjectContext(store: try harness.reopen())
        #expect(try fresh.fetchAll("Task").map { $0.get("task_description", as: String.self) } == ["Go to the bank before noon", "Buy oat milk", "Call mum"])

        let doomed = try fresh.fetchAll("Task")[2]
        fresh.delete(doomed)
        #expect(fresh.deletedObjects == [doomed])
        try fresh.save()
        #expect(try ManagedObjectContext(store: try harness.reopen()).fetchAll("Task").count == 2)
    }

    @Test func updatesWriteOnlyChangedColumns() throws {
        let harness = try StoreHarness(model: try Fixtures.model("tasks"))
        let task = try harness.context.insert("Task")
        task["task_description"] = .string("Go to the bank")
        try harness.context.save()
        harness.sql.removeAll()
        task["priority"] = .integer(2)
        try harness.context.save()
        let update = harness.sql.first { $0.hasPrefix("UPDATE ZTASK") }
        #expect(update == "UPDATE ZTASK SET Z_OPT = Z_OPT + 1, ZPRIORITY = ? WHERE Z_PK = ? AND Z_OPT = ?")
    }

    @Test func nilMandatoryValueFailsTheSaveNamingTheKey() throws {
        let harness = try StoreHarness(model: try Fixtures.model("tasks"))
        let task = try harness.context.insert("Task")
        #expect {
            try harness.context.save()
        } throws: { error in
            guard case .validation(let failures) = error as? StoreError else { return false }
            return failures.count == 1 && failures[0].key == "task_description" && failures[0].code == .missingMandatoryProperty
                && (error as! StoreError).code == 1570 && "\(error)".contains("task_description")
        }
        // The context keeps the change for the caller to fix.
        #expect(harness.context.insertedObjects == [task])
        task["task_description"] = .string("Fixed")
        try harness.context.save()
        #expect(try harness.store.count(of: harness.store.entity(named: "Task")) == 1)
    }

    @Test func typedViewReadsAndWrites() throws {
        struct TaskItem: ManagedObjectType {
            static let entityName = "Task"
            let object: ManagedObject
            var text: String {
                get { object.get("task_description") ?? "" }
                nonmutating set { object.set("task_description", newValue) }
            }
            var priority: Int32 {
                get { object.get("priority") ?? 5 }
                nonmutating set { object.set("priority", newValue) }
            }
        }
        let harness = try StoreHarness(model: try Fixtures.model("tasks"))
        let task = try harness.context.insert(TaskItem.self)
        task.text = "Typed"
        task.priority = 3
        try harness.context.save()
        let read = TaskItem(object: try ManagedObjectContext(store: try harness.reopen()).fetchAll("Task")[0])
        #expect(read.text == "Typed")
        #expect(read.priority == 3)
    }
}
