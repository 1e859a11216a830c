import Foundation
import Testing
@testable import ManagedStore

/// A many-to-many relationship that is its own inverse (`Person.friends`, inverse `friends`): linking
/// a and b links b and a, in memory and in the join table `Z_1FRIENDS (Z_1FRIENDS, Z_1FRIENDS1)`,
/// which keeps the pair both ways round.
@Suite("Self-inverse many-to-many")
struct SelfInverseRelationshipTests {
    static let model = try! ObjectModel(json: Data("""
        {"entities": [
          {"name": "Person", "attributes": [{"name": "name", "type": "String"}],
           "relationships": [
             {"name": "friends", "destination": "Person", "inverse": "friends", "toMany": true, "deleteRule": "Nullify"},
             {"name": "ranked", "destination": "Person", "inverse": "ranked", "toMany": true, "ordered": true, "deleteRule": "Nullify"}
           ]}
        ]}
        """.utf8))

    let harness: StoreHarness
    var context: ManagedObjectContext { harness.context }

    init() throws {
        harness = try StoreHarness(model: Self.model)
    }

    /// Inserts one person per name, saved.
    func people(_ names: String...) throws -> [ManagedObject] {
        let people = try names.map { name in
            let person = try context.insert("Person")
            person["name"] = .string(name)
            return person
        }
        try context.save()
        return people
    }

    /// The join table's rows as (source name, destination name), sorted.
    func rows(_ table: String = "Z_1FRIENDS") throws -> [String] {
        let column = table == "Z_1FRIENDS" ? "FRIENDS" : "RANKED"
        return try harness.store.connection.rows("""
            SELECT s.ZNAME || '>' || d.ZNAME FROM \(table) j JOIN ZPERSON s ON s.Z_PK = j.Z_1\(column)
            JOIN ZPERSON d ON d.Z_PK = j.Z_1\(column)1 ORDER BY 1
            """).map { $0[0].string! }
    }

    /// Each person's friends by name, read back by a fresh context (so from the store alone).
    func stored(_ key: String = "friends", prefetching: Bool = false) throws -> [String: [String]] {
        let fresh = ManagedObjectContext(store: try harness.reopen())
        var request = FetchRequest(entityName: "Person")
        if prefetching { request.relationshipKeyPathsForPrefetching = [key] }
        var friends: [String: [String]] = [:]
        for person in try fresh.fetch(request) {
            let names = try person.objects(forKey: key).map { $0.get("name", as: String.self)! }
            friends[person.get("name")!] = key == "friends" ? names.sorted() : names
        }
        return friends
    }

    func names(_ objects: [ManagedObject]) -> [String] { objects.map { $0.get("name", as: String.self)! }.sorted() }

    @Test func theTableIsNamedAsCoreDataNamesIt() throws {
        let table = try #require(Self.model.joinTables.first { $0.name == "Z_1FRIENDS" })
        #expect(table.sourceColumn == "Z_1FRIENDS")
        #expect(table.destinationColumn == "Z_1FRIENDS1")
        #expect(table.isSymmetric)
    }

    @Test func addingPutsEachInTheOthersFriendsBeforeAndAfterSaving() throws {
        let a = try context.insert("Person"), b = try context.insert("Person")
        a["name"] = .string("a")
        b["name"] = .string("b")
        try a.add(b, toKey: "friends")
        #expect(names(try b.objects(forKey: "friends")) == ["a"], "b's set was not loaded: it takes in the pending pair")
        #expect(names(try a.objects(forKey: "friends")) == ["b"])
        try context.save()
        #expect(try rows() == ["a>b", "b>a"])
        #expect(try stored() == ["a": ["b"], "b": ["a"]])
    }

    @Test func addingToASavedObjectWhoseSetIsNotLoadedReachesIt() throws {
        let people = try people("a", "b")
        context.reset()
        let fetched = try context.fetchAll("Person")
        let a = fetched.first { $0.get("name") == "a" }!, b = fetched.first { $0.get("name") == "b" }!
        try b.add(a, toKey: "friends")
        #expect(names(try a.objects(forKey: "friends")) == ["b"])
        try context.save()
        #expect(try rows() == ["a>b", "b>a"])
        withExtendedLifetime(people) {}
    }

    @Test func addingBothWaysRoundIsOnePair() throws {
        let people = try people("a", "b")
        try people[0].add(people[1], toKey: "friends")
        try people[1].add(people[0], toKey: "friends")
        try context.save()
        #expect(try rows() == ["a>b", "b>a"])
        #expect(try stored() == ["a": ["b"], "b": ["a"]])
    }

    @Test func removingFromEitherSideRemovesBothRows() throws {
        let people = try people("a", "b", "c")
        try people[0].add(people[1], toKey: "friends")
        try people[0].add(people[2], toKey: "friends")
        try context.save()
        try people[1].remove(people[0], fromKey: "friends")
        #expect(names(try people[0].objects(forKey: "friends")) == ["c"])
        try context.save()
        #expect(try rows() == ["a>c", "c>a"])
        #expect(try stored() == ["a": ["c"], "b": [], "c": ["a"]])
    }

    @Test func aPersonCanBeTheirOwnFriendInOneRow() throws {
        let people = try people("a")
        try people[0].add(people[0], toKey: "friends")
        #expect(names(try people[0].objects(forKey: "friends")) == ["a"])
        try context.save()
        #expect(try rows() == ["a>a"])
        #expect(try stored() == ["a": ["a"]])
        try people[0].remove(people[0], fromKey: "friends")
        try context.save()
        #expect(try rows() == [])
    }

    @Test func deletingAPersonTakesThemOutOfEveryonesFriends() throws {
        let people = try people("a", "b", "c")
        try people[0].add(people[1], toKey: "friends")
        try people[2].add(people[0], toKey: "friends")
        try people[1].add(people[2], toKey: "friends")
        try context.save()
        context.delete(people[0])
        try context.save()
        #expect(try rows() == ["b>c", "c>b"])
        #expect(try stored() == ["b": ["c"], "c": ["b"]])
    }

    @Test func deletingAnObjectWhoseSetIsNotLoadedClearsBothColumns() throws {
        _ = try people("a", "b")
        try harness.store.connection.execute("INSERT INTO Z_1FRIENDS (Z_1FRIENDS, Z_1FRIENDS1) VALUES (2, 1), (1, 2)")
        let fresh = ManagedObjectContext(store: try harness.reopen())
        let b = try fresh.fetchAll("Person").first { $0.get("name") == "b" }!
        fresh.delete(b)
        try fresh.save()
        #expect(try rows() == [])
    }

    @Test func aStoreWithOneRowAPairReadsBothWays() throws {
        // A store whose writer kept each pair once (as this engine did before it kept both): (a, b) only.
        _ = try people("a", "b", "c")
        try harness.store.connection.execute("INSERT INTO Z_1FRIENDS (Z_1FRIENDS, Z_1FRIENDS1) VALUES (1, 2)")
        #expect(try stored() == ["a": ["b"], "b": ["a"], "c": []])
        #expect(try stored(prefetching: true) == ["a": ["b"], "b": ["a"], "c": []])
    }

    @Test func prefetchingReadsEachPersonsFriendsFromEitherSide() throws {
        let people = try people("a", "b", "c")
        try people[0].add(people[1], toKey: "friends")
        try people[2].add(people[1], toKey: "friends")
        try context.save()
        #expect(try stored(prefetching: true) == ["a": ["b"], "b": ["a", "c"], "c": ["b"]])
    }

    @Test func predicatesSeeFriendsFromEitherSideInSQLAndInMemory() throws {
        let fixture = try SQLTestStore(model: Self.model)
        let context = fixture.context
        var people: [String: ManagedObject] = [:]
        for name in ["a", "b", "c", "d"] {
            let person = try context.insert("Person")
            person["name"] = .string(name)
            people[name] = person
        }
        try people["a"]!.add(people["b"]!, toKey: "friends")
        try people["c"]!.add(people["a"]!, toKey: "friends")
        try people["d"]!.add(people["d"]!, toKey: "friends")
        try context.save()
        // Z_PK: a 1, b 2, c 3, d 4.
        func keys(_ format: String) throws -> Set<Int64> {
            try fixture.expectAgreement(FetchPredicate(format: format), "Person")
        }
        #expect(try keys("ANY friends.name == 'a'") == [2, 3])
        #expect(try keys("ANY friends.name == 'b'") == [1])
        #expect(try keys("friends.@count == 2") == [1])
        #expect(try keys("friends.@count == 1") == [2, 3, 4])
        // In-memory evaluation has no SUBQUERY: SQL alone.
        #expect(try fixture.sqlKeys("SUBQUERY(friends, $f, $f.name IN {'b', 'c'}).@count == 2", in: "Person") == [1])
        #expect(try fixture.sqlKeys("SUBQUERY(friends, $f, $f.name == 'a').@count > 0", in: "Person") == [2, 3])
        #expect(try keys("ANY friends.friends.name == 'b'") == [2, 3], "b's friend a, and c's friend a, have b")
        #expect(try keys("NONE friends.name == 'a'") == [1, 4])
    }

    @Test func linkingSavedPairsWritesEachPairBothWaysOnce() throws {
        let people = try people("a", "b", "c")
        let person = try harness.store.entity(named: "Person")
        let ids = people.map(\.objectID)
        #expect(context.canLinkSaved(by: "friends", of: person))
        let added = try context.linkSaved([(ids[0], ids[1]), (ids[1], ids[0]), (ids[2], ids[2]), (ids[1], ids[2])], by: "friends", of: person)
        #expect(added == 3, "(a, b) and (b, a) are one pair")
        #expect(try rows() == ["a>b", "b>a", "b>c", "c>b", "c>c"])
        #expect(try context.linkSaved([(ids[2], ids[1])], by: "friends", of: person) == 0)
        #expect(names(try people[2].objects(forKey: "friends")) == ["b", "c"], "a registered object's set reloads")
    }

    @Test func aChildContextsPairsReachItsParentBothWays() throws {
        let people = try people("a", "b")
        let child = ManagedObjectContext(parent: context)
        let a = child.object(with: people[0].objectID), b = child.object(with: people[1].objectID)
        try b.add(a, toKey: "friends")
        try child.save()
        #expect(names(try people[0].objects(forKey: "friends")) == ["b"])
        #expect(names(try people[1].objects(forKey: "friends")) == ["a"])
        try context.save()
        #expect(try rows() == ["a>b", "b>a"])
    }

    @Test func anOrderedSelfInverseKeepsEachOwnersOrder() throws {
        let people = try people("a", "b", "c")
        try people[0].insert(people[2], at: 0, intoKey: "ranked")
        try people[0].insert(people[1], at: 0, intoKey: "ranked")
        #expect(try people[0].objects(forKey: "ranked").map { $0.get("name", as: String.self)! } == ["b", "c"])
        #expect(try people[1].objects(forKey: "ranked").map { $0.get("name", as: String.self)! } == ["a"])
        try context.save()
        #expect(try rows("Z_1RANKED") == ["a>b", "a>c", "b>a", "c>a"])
        #expect(try stored("ranked") == ["a": ["b", "c"], "b": ["a"], "c": ["a"]])
    }
}
