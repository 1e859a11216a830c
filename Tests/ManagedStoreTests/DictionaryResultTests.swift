import Foundation
import Testing
@testable import ManagedStore

/// Dictionary results: chosen columns, to-one key paths, aggregates, grouping, distinct.
@Suite struct DictionaryResultTests {
    let harness: StoreHarness

    init() throws {
        harness = try StoreHarness(model: try Fixtures.model("failedbank"))
        let context = harness.context
        let banks: [(String, String, Int64, Double)] = [
            ("Signature Bank", "NY", 10001, 700_000_000), ("First Republic", "CA", 94111, 710_000_000),
            ("Silicon Valley Bank", "CA", 95054, 700_500_000), ("Heartland Tri-State", "KS", 67059, 711_000_000),
        ]
        for (name, state, zip, closed) in banks {
            let info = try context.insert("FailedBankInfo")
            info["name"] = .string(name)
            info["state"] = .string(state)
            let details = try context.insert("FailedBankDetails")
            details["zip"] = .integer(zip)
            details["closeDate"] = .date(Date(timeIntervalSinceReferenceDate: closed))
            try info.setObject(details, forKey: "details")
        }
        try context.save()
    }

    @Test func selectedColumnsAndToOneKeyPaths() throws {
        var request = FetchRequest(entityName: "FailedBankInfo")
        request.resultType = .dictionary
        request.propertiesToFetch = [.key("name"), .key("details.zip"), .key("details")]
        request.sortDescriptors = [FetchSort("details.closeDate", ascending: false)]
        let rows = try harness.context.fetchRows(request)
        #expect(rows.count == 4)
        #expect(rows[0]["name"] == .string("Heartland Tri-State"))
        #expect(rows[0]["details.zip"] == .integer(67059))
        if case .object(let id) = rows[0]["details"] { #expect(id.entityID == 1) } else { Issue.record("details is \(rows[0]["details"])") }
        #expect(harness.context.registeredObjects.count == 8, "only the objects the setup made")
    }

    @Test func aggregatesGroupsAndDistinct() throws {
        var request = FetchRequest(entityName: "FailedBankInfo")
        request.propertiesToFetch = [.key("state"), .expression("banks", .count, of: "name"), .expression("top", .max, of: "details.zip")]
        request.propertiesToGroupBy = ["state"]
        request.sortDescriptors = [FetchSort("state")]
        let rows = try harness.context.fetchRows(request)
        #expect(rows.map { $0["state"] } == [.string("CA"), .string("KS"), .string("NY")])
        #expect(rows.map { $0["banks"] } == [.integer(2), .integer(1), .integer(1)])
        #expect(rows[0]["top"] == .integer(95054))

        request.havingPredicate = try FetchPredicate(format: "banks > 1")
        #expect(try harness.context.fetchRows(request).map { $0["state"] } == [.string("CA")])

        var distinct = FetchRequest(entityName: "FailedBankInfo")
        distinct.propertiesToFetch = [.key("state")]
        distinct.returnsDistinctResults = true
        distinct.sortDescriptors = [FetchSort("state")]
        #expect(try harness.context.fetchRows(distinct).count == 3)
    }

    @Test func propertiesParseFromText() throws {
        #expect(try FetchProperty.parse("details.zip") == .key("details.zip"))
        #expect(try FetchProperty.parse("avg(details.zip) as meanZip") == .expression("meanZip", .average, of: "details.zip"))
        #expect(try FetchProperty.parse("count(name)") == .expression("count_name", .count, of: "name"))
        #expect(throws: StoreError.self) { try FetchProperty.parse("median(zip)") }
    }
}
