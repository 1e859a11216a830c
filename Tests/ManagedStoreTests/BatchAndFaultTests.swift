import Foundation
import Testing
@testable import ManagedStore

/// Batch size, faults and prefetching, asserted by the statements they run.
@Suite struct BatchAndFaultTests {
    static let model = try! ObjectModel([
        EntityDescription("Operator", attributes: [Attribute("name", .string, optional: false)],
                          relationships: [Relationship("wells", to: "Well", inverse: "operator", toMany: true)]),
        EntityDescription("Well", attributes: [Attribute("uwi", .string, optional: false), Attribute("name", .string, indexed: true),
                                               Attribute("depth", .double)],
                          relationships: [Relationship("operator", to: "Operator", inverse: "wells")]),
    ])

    let harness: StoreHarness
    let wellCount = 1_000

    init() throws {
        harness = try StoreHarness(model: Self.model)
        let context = harness.context
        var operators: [ManagedObject] = []
        for i in 0..<10 {
            let op = try context.insert("Operator")
            op["name"] = .string("Operator \(i)")
            operators.append(op)
        }
        for i in 0..<wellCount {
            let well = try context.insert("Well")
            well["uwi"] = .string(String(format: "W%05d", i))
            well["name"] = .string("Well \(String(format: "%04d", (i * 7919) % wellCount))")
            well["depth"] = .double(Double(i))
            try well.setObject(operators[i % 10], forKey: "operator")
        }
        try context.save()
    }

    func statements(_ body: () throws -> Void) throws -> Int {
        let before = harness.store.connection.stats
        try body()
        return (harness.store.connection.stats - before).statements
    }

    @Test func batchSizeFirstScreenRunsTwoStatements() throws {
        let context = ManagedObjectContext(store: harness.store)
        var request = FetchRequest(entityName: "Well")
        request.sortDescriptors = [FetchSort("name")]
        request.fetchBatchSize = 20
        var wells: FetchedObjects?
        #expect(try statements { wells = try context.fetch(request) } == 1, "the first statement selects only primary keys")
        let results = try #require(wells)
        #expect(results.count == wellCount)
        #expect(results.isBatched)
        #expect(try statements { for i in 0..<20 { _ = results[i]["name"] } } == 1, "one statement loads the first batch")
        #expect(results[0].get("name") == "Well 0000")
        #expect(results[19].get("name") == "Well 0019")
        #expect(try statements { _ = results[20]["name"] } == 1)
        #expect(try statements { _ = results[5]["uwi"] } == 0, "a loaded batch costs nothing")
    }

    @Test func scrollingKeepsMemoryBounded() throws {
        let context = ManagedObjectContext(store: harness.store)
        var request = FetchRequest(entityName: "Well")
        request.sortDescriptors = [FetchSort("name")]
        request.fetchBatchSize = 50
        let wells = try context.fetch(request)
        var names: [String] = []
        for well in wells { names.append(well.get("name") ?? "") }
        #expect(names == names.sorted())
        #expect(names.count == wellCount)
        #expect(context.registeredObjects.count <= 50 * 40 + 10, "old batches are let go (\(context.registeredObjects.count) registered)")
    }

    @Test func faultsFireOneStatementEach() throws {
        let context = ManagedObjectContext(store: harness.store)
        var request = FetchRequest(entityName: "Well")
        request.includesPropertyValues = false
        request.fetchLimit = 10
        var wells: FetchedObjects?
        #expect(try statements { wells = try context.fetch(request) } == 1)
        let allFaults = wells!.allSatisfy { $0.isFault }
        #expect(allFaults)
        #expect(try statements { for well in wells! { _ = well["uwi"] } } == 10, "N+1: one SELECT per fault")
        #expect(context.faultsFiredFromStore == 10)
    }

    @Test func faultsFetchedWithValuesFireWithoutStatements() throws {
        let context = ManagedObjectContext(store: harness.store)
        var request = FetchRequest(entityName: "Well")
        request.fetchLimit = 10
        let wells = try context.fetch(request)
        let allFaults = wells.allSatisfy { $0.isFault }
        #expect(allFaults, "returnsObjectsAsFaults is true by default")
        #expect(try statements { for well in wells { _ = well["uwi"] } } == 0)
        request.returnsObjectsAsFaults = false
        let noneFaults = try context.fetch(request).allSatisfy { !$0.isFault }
        #expect(noneFaults)
    }

    @Test func refreshTurnsAnObjectBackIntoAFault() throws {
        let context = ManagedObjectContext(store: harness.store)
        let well = try context.fetchAll("Well")[0]
        #expect(!well.isFault)
        context.refresh(well, mergeChanges: false)
        #expect(well.isFault)
        #expect(try statements { _ = well["uwi"] } == 1)
    }

    @Test func relationshipFaults() throws {
        let context = ManagedObjectContext(store: harness.store)
        var request = FetchRequest(entityName: "Well")
        request.fetchLimit = 30
        request.returnsObjectsAsFaults = false
        let wells = try context.fetch(request)
        // To-one: each distinct operator fires once.
        let firing = try statements { for well in wells { _ = try well.object(forKey: "operator")?.get("name", as: String.self) } }
        #expect(firing == 10)
        // To-many: one statement on first access.
        let op = try #require(try wells[0].object(forKey: "operator"))
        var members = 0
        #expect(try statements { members = try op.objects(forKey: "wells").count } == 1)
        #expect(members == 100)
    }

    @Test func prefetchingLoadsEachKeyPathInOneStatement() throws {
        let context = ManagedObjectContext(store: harness.store)
        var request = FetchRequest(entityName: "Well")
        request.returnsObjectsAsFaults = false
        request.relationshipKeyPathsForPrefetching = ["operator"]
        var wells: FetchedObjects?
        #expect(try statements { wells = try context.fetch(request) } == 2)
        #expect(try statements { for well in wells! { _ = try well.object(forKey: "operator")?["name"] } } == 0)

        let other = ManagedObjectContext(store: harness.store)
        var operators = FetchRequest(entityName: "Operator")
        operators.relationshipKeyPathsForPrefetching = ["wells"]
        var ops: FetchedObjects?
        #expect(try statements { ops = try other.fetch(operators) } == 2)
        var counts: [Int] = []
        #expect(try statements { counts = try ops!.map { try $0.objects(forKey: "wells").count } } == 0)
        #expect(counts == Array(repeating: 100, count: 10))

        var nested = FetchRequest(entityName: "Well")
        nested.fetchLimit = 5
        nested.relationshipKeyPathsForPrefetching = ["operator.wells"]
        let third = ManagedObjectContext(store: harness.store)
        #expect(try statements { _ = try third.fetch(nested) } == 3)
    }

    @Test func prefetchKeyPathsAreCheckedBeforeAnyStatement() throws {
        func error(_ keyPath: String, batchSize: Int = 0, where format: String? = nil) throws -> StoreError? {
            var request = FetchRequest(entityName: "Well")
            request.relationshipKeyPathsForPrefetching = [keyPath]
            request.fetchBatchSize = batchSize
            request.predicate = try format.map { try FetchPredicate(format: $0) }
            var thrown: StoreError?
            let ran = try statements {
                do { _ = try harness.context.fetch(request) } catch { thrown = error as? StoreError }
            }
            if thrown != nil { #expect(ran == 0, "refused before any statement") }
            return thrown
        }
        // An attribute is named as one, with the relationships there are.
        guard case .invalidProperty(let entity, let property, let reason)? = try error("name") else {
            Issue.record("prefetching an attribute ran")
            return
        }
        #expect(entity == "Well" && property == "name")
        #expect(reason == "'name' is an attribute of Well, not a relationship: prefetching loads related objects "
                + "(attributes come with the objects themselves); relationships of Well: operator")
        #expect(try error("operator.name")?.description.contains("'name' is an attribute of Operator") == true)
        // An unknown key gets the suggestions a predicate key gets, deeper in the path too.
        guard case .unknownKey("Well", "operater", let suggestions)? = try error("operater") else {
            Issue.record("an unknown prefetch key ran")
            return
        }
        var builder = SQLQueryBuilder(model: Self.model, entity: try harness.store.entity(named: "Well"))
        do { _ = try builder.condition(FetchPredicate(format: "operater == nil")); Issue.record("the predicate compiled") } catch {
            guard case .unknownKey(_, _, let predicateSuggestions)? = error as? StoreError else { Issue.record("\(error)"); return }
            #expect(suggestions == predicateSuggestions)
        }
        #expect(try error("operater")?.description == "entity Well has no property 'operater'; did you mean 'operator'?")
        #expect(try error("operator.wels")?.description == "entity Operator has no property 'wels'; did you mean 'wells'?")
        // Checked when nothing matches and when batches would prefetch later, where errors cannot surface.
        #expect(try error("operater", where: "FALSEPREDICATE") != nil)
        #expect(try error("operater", batchSize: 20) != nil)
        #expect(try error("operator..wells") != nil)
        #expect(try error("operator.wells") == nil)
        let frc = FetchedResultsController(request: {
            var request = FetchRequest(entityName: "Well")
            request.sortDescriptors = [FetchSort("uwi")]
            request.relationshipKeyPathsForPrefetching = ["depth"]
            return request
        }(), context: harness.context)
        #expect(throws: StoreError.self) { try frc.performFetch() }
    }

    @Test func batchedFetchSeesUnsavedChanges() throws {
        let context = ManagedObjectContext(store: harness.store)
        let inserted = try context.insert("Well")
        inserted["uwi"] = .string("NEW")
        inserted["name"] = .string("Well 0000a")
        var request = FetchRequest(entityName: "Well")
        request.sortDescriptors = [FetchSort("name")]
        request.fetchBatchSize = 20
        let wells = try context.fetch(request)
        #expect(wells.count == wellCount + 1)
        #expect(wells[1] === inserted)
        #expect(wells[0].get("name") == "Well 0000")
    }
}
