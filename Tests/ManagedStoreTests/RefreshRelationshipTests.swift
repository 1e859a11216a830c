import Foundation
import Testing
@testable import ManagedStore

/// `refresh(_:mergeChanges: false)` drops an object's unsaved relationship edits on both sides: the
/// loaded to-many sets of the old and the new destination agree with the reverted to-one again.
@Suite struct RefreshRelationshipTests {
    let harness: StoreHarness
    var context: ManagedObjectContext { harness.context }

    init() throws {
        harness = try StoreHarness(model: try Fixtures.model("import-basics"))
    }

    func team(_ code: String) throws -> ManagedObject {
        let team = try context.insert("Team")
        team["code"] = .string(code)
        team["name"] = .string("Team \(code)")
        return team
    }

    @Test func revertedToOneLeavesBothToManySetsConsistent() throws {
        let red = try team("RED"), blue = try team("BLU")
        let ada = try context.insert("Person")
        ada["personID"] = .integer(1)
        ada["name"] = .string("Ada")
        try ada.setObject(red, forKey: "team")
        try context.save()

        // Both sets loaded, then Ada moves to Blue without saving.
        #expect(try red.objects(forKey: "members").map(\.objectID) == [ada.objectID])
        #expect(try blue.objects(forKey: "members").isEmpty)
        try ada.setObject(blue, forKey: "team")
        #expect(try blue.objects(forKey: "members").map(\.objectID) == [ada.objectID])

        context.refresh(ada, mergeChanges: false)
        #expect(try ada.object(forKey: "team") === red)
        #expect(try red.objects(forKey: "members").map(\.objectID) == [ada.objectID], "back in Red's members")
        #expect(try blue.objects(forKey: "members").isEmpty, "gone from Blue's members")

        try context.save()
        let fresh = ManagedObjectContext(store: try harness.reopen())
        let stored = try #require(try fresh.fetchAll("Person").first)
        #expect(try stored.object(forKey: "team")?["code"] == .string("RED"))
    }

    @Test func pendingManyToManyLinksGoWithTheRefreshedObject() throws {
        let banks = try StoreHarness.failedBanks([.init(name: "Signature Bank", state: "NY", zip: 10001)])
        let context = banks.context
        let details = try #require(try context.fetchAll("FailedBankDetails").first)
        let tag = try context.insert("Tag")
        tag["name"] = .string("vip")
        try context.save()
        #expect(try tag.objects(forKey: "bankdetails").isEmpty)
        try details.add(tag, toKey: "tags")
        #expect(try tag.objects(forKey: "bankdetails").count == 1)

        context.refresh(details, mergeChanges: false)
        #expect(try details.objects(forKey: "tags").isEmpty)
        #expect(try tag.objects(forKey: "bankdetails").isEmpty, "the link was details' unsaved change")
        try context.save()
        #expect(try banks.store.connection.scalar("SELECT count(*) FROM Z_1TAGS") == .integer(0))
    }
}
