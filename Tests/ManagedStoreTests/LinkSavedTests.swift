import Foundation
import Testing
@testable import ManagedStore

/// `linkSaved`: many-to-many pairs of saved objects written straight to the join table.
@Suite("Context: linking saved objects in bulk")
struct LinkSavedTests {
    /// A harness with saved bank details d0…d3 and tags t0…t2 (failedbank model), in a reset context.
    static func saved() throws -> (StoreHarness, details: [ObjectID], tags: [ObjectID]) {
        let harness = try StoreHarness(model: try Fixtures.model("failedbank"))
        let context = harness.context
        var details: [ManagedObject] = []
        for n in 0..<4 {
            let info = try context.insert("FailedBankInfo")
            info["name"] = .string("Bank \(n)")
            let detail = try context.insert("FailedBankDetails")
            try info.setObject(detail, forKey: "details")
            details.append(detail)
        }
        let tags = try (0..<3).map { n in
            let tag = try context.insert("Tag")
            tag["name"] = .string("t\(n)")
            return tag
        }
        try context.save()
        let ids = (details.map(\.objectID), tags.map(\.objectID))
        context.reset()
        return (harness, ids.0, ids.1)
    }

    /// Whether `body` is refused with ``StoreError/invalidRequest(_:)``.
    static func refused(_ body: () throws -> Void) -> Bool {
        do { try body() } catch StoreError.invalidRequest { return true } catch { return false }
        return false
    }

    /// Tag names of each detail, read through a fresh context on a reopened store.
    static func tagNames(_ harness: StoreHarness) throws -> [Set<String>] {
        let context = ManagedObjectContext(store: try harness.reopen())
        return try context.fetchAll("FailedBankDetails").sorted { $0.objectID.primaryKey < $1.objectID.primaryKey }.map { detail in
            Set(try detail.objects(forKey: "tags").compactMap { if case .string(let name) = $0["name"] { name } else { nil } })
        }
    }

    @Test("pairs from either side land in the join table once, in key order, and read back as members")
    func linksBothWays() throws {
        let (harness, details, tags) = try Self.saved()
        let context = harness.context
        let detail = try harness.store.entity(named: "FailedBankDetails")
        let tag = try harness.store.entity(named: "Tag")
        #expect(context.canLinkSaved(by: "tags", of: detail))
        #expect(context.canLinkSaved(by: "bankdetails", of: tag))
        let before = context.joinRowsInserted
        let added = try context.linkSaved([(details[2], tags[1]), (details[0], tags[0]), (details[2], tags[1]), (details[3], tags[2])],
                                          by: "tags", of: detail)
        #expect(added == 3, "a repeated pair is stored once")
        #expect(try context.linkSaved([(tags[0], details[1]), (tags[1], details[2])], by: "bankdetails", of: tag) == 1,
                "the pair linked from the other side is already there")
        #expect(context.joinRowsInserted - before == 4)
        #expect(try Self.tagNames(harness) == [["t0"], ["t0"], ["t1"], ["t2"]])
        let table = try #require(harness.store.model.joinTables.first)
        let keys = try harness.store.connection.rows("SELECT \(table.sourceColumn), \(table.destinationColumn) FROM \(table.name) ORDER BY rowid")
            .map { row in row.map { value -> Int64 in if case .integer(let n) = value { n } else { -1 } } }
        #expect(keys.count == 4)
        let batch = Array(keys.prefix(3))
        #expect(batch == batch.sorted { ($0[0], $0[1]) < ($1[0], $1[1]) }, "one call's rows by rowid: \(batch)")
        #expect(!context.hasChanges, "nothing is left to save")
    }

    @Test("a registered object whose set is loaded sees the new members")
    func loadedSetsFollow() throws {
        let (harness, details, tags) = try Self.saved()
        let context = harness.context
        let first = context.object(with: details[0])
        #expect(try first.objects(forKey: "tags").isEmpty)
        let t2 = context.object(with: tags[2])
        #expect(try t2.objects(forKey: "bankdetails").isEmpty)
        try context.linkSaved([(details[0], tags[2])], by: "tags", of: try harness.store.entity(named: "FailedBankDetails"))
        #expect(try first.objects(forKey: "tags").map(\.objectID) == [tags[2]])
        #expect(try t2.objects(forKey: "bankdetails").map(\.objectID) == [details[0]])
    }

    @Test("refused: relationships that need objects loaded, unsaved or foreign IDs, child contexts")
    func refusals() throws {
        let (harness, details, tags) = try Self.saved()
        let context = harness.context
        let detail = try harness.store.entity(named: "FailedBankDetails")
        let info = try harness.store.entity(named: "FailedBankInfo")
        #expect(!context.canLinkSaved(by: "details", of: info), "a to-one")
        #expect(!context.canLinkSaved(by: "nosuch", of: detail))
        #expect(Self.refused { try context.linkSaved([(details[0], tags[0])], by: "details", of: info) })
        let unsaved = try context.insert("Tag")
        #expect(Self.refused { try context.linkSaved([(details[0], unsaved.objectID)], by: "tags", of: detail) }, "a temporary ID")
        #expect(Self.refused { try context.linkSaved([(tags[0], details[0])], by: "tags", of: detail) }, "the sides swapped")
        let child = ManagedObjectContext(parent: context)
        #expect(Self.refused { try child.linkSaved([(details[0], tags[0])], by: "tags", of: detail) })
        #expect(try harness.store.connection.scalar("SELECT count(*) FROM Z_1TAGS") == .integer(0), "nothing was written")

        let ordered = try StoreHarness(model: OrderedRelationshipTests.model)
        let playlist = try ordered.store.entity(named: "Playlist")
        #expect(!ordered.context.canLinkSaved(by: "labels", of: playlist), "an ordered many-to-many")
        #expect(!ordered.context.canLinkSaved(by: "songs", of: playlist), "a one-to-many")
        let limited = try ObjectModel(json: Data("""
            {"entities": [
              {"name": "A", "relationships": [{"name": "bs", "destination": "B", "inverse": "as", "toMany": true, "maxCount": 2}]},
              {"name": "B", "relationships": [{"name": "as", "destination": "A", "inverse": "bs", "toMany": true}]}
            ]}
            """.utf8))
        let counted = try StoreHarness(model: limited)
        #expect(!counted.context.canLinkSaved(by: "as", of: try counted.store.entity(named: "B")), "the other side has a count limit")
    }

    static let staffModel = try! ObjectModel(json: Data("""
        {"entities": [
          {"name": "Employee", "attributes": [{"name": "name", "type": "String"}],
           "relationships": [
             {"name": "manager", "destination": "Employee", "inverse": "reports"},
             {"name": "reports", "destination": "Employee", "inverse": "manager", "toMany": true},
             {"name": "desk", "destination": "Desk", "inverse": "owner"},
             {"name": "team", "destination": "Team", "inverse": "members"}]},
          {"name": "Desk", "relationships": [{"name": "owner", "destination": "Employee", "inverse": "desk"}]},
          {"name": "Team", "relationships": [{"name": "members", "destination": "Employee", "inverse": "team", "toMany": true, "maxCount": 9}]}
        ]}
        """.utf8))

    @Test("relateSaved sets a to-one on saved rows: Z_OPT goes up once per change, unchanged rows stay, reads follow")
    func relatesSavedRows() throws {
        let harness = try StoreHarness(model: Self.staffModel)
        let context = harness.context
        let people = try (0..<4).map { n in
            let person = try context.insert("Employee")
            person["name"] = .string("E\(n)")
            return person
        }
        try context.save()
        let ids = people.map(\.objectID)
        let employee = try harness.store.entity(named: "Employee")
        #expect(context.canRelateSaved(by: "manager", of: employee))
        #expect(!context.canRelateSaved(by: "desk", of: employee), "a one-to-one")
        #expect(!context.canRelateSaved(by: "team", of: employee), "the inverse has a count rule")
        #expect(!context.canRelateSaved(by: "reports", of: employee), "a to-many")

        // The boss's reports are loaded, and E1 is registered with its values: both follow.
        let boss = people[3]
        #expect(try boss.objects(forKey: "reports").isEmpty)
        let version = { (id: ObjectID) throws -> SQLValue? in
            try harness.store.connection.scalar("SELECT Z_OPT FROM ZEMPLOYEE WHERE Z_PK = ?", [.integer(id.primaryKey)])
        }
        let before = try version(ids[0])
        #expect(try context.relateSaved([(ids[2], ids[3]), (ids[0], ids[3]), (ids[1], ids[3])], by: "manager", of: employee) == 3)
        #expect(try context.relateSaved([(ids[0], ids[3])], by: "manager", of: employee) == 0, "already so: left as it is")
        if case .integer(let old)? = before { #expect(try version(ids[0]) == .integer(old + 1)) } else { Issue.record("no Z_OPT") }
        #expect(Set(try boss.objects(forKey: "reports").map(\.objectID)) == Set(ids[0..<3]))
        #expect(try people[1].object(forKey: "manager")?.objectID == ids[3])
        #expect(!context.hasChanges)

        // Refused: unsaved changes, unsaved objects, the wrong entity, a child context.
        people[2]["name"] = .string("renamed")
        #expect(Self.refused { try context.relateSaved([(ids[2], ids[1])], by: "manager", of: employee) })
        try context.save()
        let newcomer = try context.insert("Employee")
        #expect(Self.refused { try context.relateSaved([(newcomer.objectID, ids[1])], by: "manager", of: employee) })
        let desk = try context.insert("Desk")
        try context.save()
        #expect(Self.refused { try context.relateSaved([(ids[0], desk.objectID)], by: "manager", of: employee) })
        #expect(Self.refused { try ManagedObjectContext(parent: context).relateSaved([(ids[0], ids[1])], by: "manager", of: employee) })
        #expect(try people[0].object(forKey: "manager")?.objectID == ids[3], "nothing refused was written")
    }
}
