import Foundation
import Testing
@testable import ManagedStore

/// Dictionary results: chosen columns, to-one key paths, aggregates, grouping, distinct.
@Suite struct DictionaryResultTests {
    let harness: StoreHarness

    init() throws {
        harness = try StoreHarness.failedBanks([
            .init(name: "Signature Bank", state: "NY", zip: 10001, closed: 700_000_000),
            .init(name: "First Republic", state: "CA", zip: 94111, closed: 710_000_000),
            .init(name: "Silicon Valley Bank", state: "CA", zip: 95054, closed: 700_500_000),
            .init(name: "Heartland Tri-State", state: "KS", zip: 67059, closed: 711_000_000),
        ])
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

    /// A trial found grouped rows sorted by an aggregate with ties in no stated order, though the docs said
    /// ties come by a key: groups have no primary key, so their columns break ties.
    @Test func groupedTiesComeByTheColumnsInOrder() throws {
        var request = FetchRequest(entityName: "FailedBankInfo")
        request.resultType = .dictionary
        request.propertiesToFetch = [.key("state"), .expression("banks", .count, of: "name")]
        request.propertiesToGroupBy = ["state"]
        request.sortDescriptors = [FetchSort("banks", ascending: true)]
        let sql = try harness.context.explain(request).sql
        #expect(sql.hasSuffix("ORDER BY count(t0.ZNAME), 1, 2"), "\(sql)")
        let rows = try harness.context.fetchRows(request)
        #expect(rows.map { $0["state"] } == [.string("KS"), .string("NY"), .string("CA")])
        request.sortDescriptors = [FetchSort("banks", ascending: false)]
        #expect(try harness.context.fetchRows(request).map { $0["state"] } == [.string("CA"), .string("KS"), .string("NY")])
    }

    @Test func propertiesParseFromText() throws {
        #expect(try FetchProperty.parse("details.zip") == .key("details.zip"))
        #expect(try FetchProperty.parse("avg(details.zip) as meanZip") == .expression("meanZip", .average, of: "details.zip"))
        #expect(try FetchProperty.parse("count(name)") == .expression("count_name", .count, of: "name"))
        #expect(throws: StoreError.self) { try FetchProperty.parse("median(zip)") }
    }

    // MARK: Grouping

    /// The error a request throws, as a ``StoreError``.
    func storeError(_ request: FetchRequest) -> StoreError? { harness.rowsError(request) }

    @Test func groupedFetchRefusesKeysNeitherGroupedNorAggregated() throws {
        var request = FetchRequest(entityName: "FailedBankInfo")
        request.propertiesToFetch = [.key("state"), .key("name"), .expression("banks", .count, of: "*")]
        request.propertiesToGroupBy = ["state"]
        guard case .invalidProperty(let entity, let property, let reason)? = storeError(request) else {
            Issue.record("name is neither grouped by nor aggregated, yet the fetch ran")
            return
        }
        #expect(entity == "FailedBankInfo")
        #expect(property == "name")
        #expect(reason.contains("[state]"), "names the group-by keys: \(reason)")
        #expect(reason.contains("--group-by state,name") && reason.contains("max(name)"), "says what to do: \(reason)")

        // A to-one key path is fine when it is grouped by, however the request spells the prefix.
        request.propertiesToFetch = [.key("state"), .key("details.zip"), .expression("banks", .count, of: "*")]
        request.propertiesToGroupBy = ["state", "details.zip"]
        request.sortDescriptors = [FetchSort("details.zip")]
        #expect(try harness.context.fetchRows(request).map { $0["details.zip"] } == [.integer(10001), .integer(67059), .integer(94111), .integer(95054)])
    }

    @Test func groupedFetchNeedsPropertiesAndHavingNeedsGroups() throws {
        var request = FetchRequest(entityName: "FailedBankInfo")
        request.propertiesToGroupBy = ["state"]
        guard case .invalidRequest(let message)? = storeError(request) else {
            Issue.record("grouping every column ran")
            return
        }
        #expect(message.contains("needs propertiesToFetch"))

        var having = FetchRequest(entityName: "FailedBankInfo")
        having.propertiesToFetch = [.key("state")]
        having.havingPredicate = try FetchPredicate(format: "state == 'CA'")
        guard case .invalidRequest(let text)? = storeError(having) else {
            Issue.record("a having predicate without group-by ran")
            return
        }
        #expect(text.contains("needs propertiesToGroupBy") && text.contains("--where"))
    }

    // MARK: Aggregate types

    @Test func sumAndAverageNeedNumericAttributes() throws {
        for (function, keyPath, kind) in [(FetchProperty.Function.sum, "name", "String"), (.average, "name", "String"),
                                          (.average, "details.closeDate", "Date"), (.sum, "details", "to-one relationship")] {
            var request = FetchRequest(entityName: "FailedBankInfo")
            request.propertiesToFetch = [.expression("x", function, of: keyPath)]
            guard case .invalidProperty(let entity, let property, let reason)? = storeError(request) else {
                Issue.record("\(function)(\(keyPath)) ran")
                continue
            }
            #expect(entity == "FailedBankInfo")
            #expect(property == keyPath)
            #expect(reason.contains(kind) && reason.contains("Integer 16"), "\(reason)")
        }
        var numbers = FetchRequest(entityName: "FailedBankInfo")
        numbers.propertiesToFetch = [.expression("total", .sum, of: "details.zip"), .expression("mean", .average, of: "details.zip")]
        let row = try #require(try harness.context.fetchRows(numbers).first)
        #expect(row["total"] == .integer(10001 + 94111 + 95054 + 67059))
        #expect(row["mean"] == .double(Double(10001 + 94111 + 95054 + 67059) / 4))
    }

    /// A user trial: `sum(flag)` was refused in dictionary results while `books.@sum.flag` ran in a
    /// predicate; Core Data's `sum:` adds a Boolean's stored 0s and 1s (how many are true).
    @Test func sumAndAverageOfABooleanCountTheTrueOnes() throws {
        let tasks = try SQLTestStore.tasks()
        var request = FetchRequest(entityName: "Task")
        request.resultType = .dictionary
        request.propertiesToFetch = [.expression("done", .sum, of: "completed"), .expression("share", .average, of: "completed")]
        let row = try #require(try tasks.context.fetchRows(request).first)
        let count = SQLTestStore.taskDescriptions.indices.filter { $0 % 3 == 0 }.count
        #expect(row["done"] == .integer(Int64(count)))
        #expect(row["share"] == .double(Double(count) / Double(SQLTestStore.taskDescriptions.count)))
    }

    /// An iOS engineer's check: `sum(x)` over no rows, or over a group whose values are all null, was
    /// null while `@sum` of an empty set is 0 (and Core Data's SQL logs show its store summing with
    /// total(), 0 over no rows); the average of nothing stays null.
    @Test func sumOfNoValuesIsZeroAsAtSumOfAnEmptySetIs() throws {
        var request = FetchRequest(entityName: "FailedBankInfo")
        request.propertiesToFetch = [.expression("total", .sum, of: "details.zip"), .expression("mean", .average, of: "details.zip")]
        request.predicate = try FetchPredicate(format: "name == 'no such bank'")
        let none = try #require(try harness.context.fetchRows(request).first)
        #expect(none["total"] == .integer(0))
        #expect(none["mean"] == .null)

        // A bank without details: its group's zips are all null.
        let info = try harness.context.insert("FailedBankInfo")
        info["name"] = .string("Detail-less Bank")
        info["state"] = .string("TX")
        try harness.context.save()
        var grouped = FetchRequest(entityName: "FailedBankInfo")
        grouped.propertiesToFetch = [.key("state"), .expression("total", .sum, of: "details.zip")]
        grouped.propertiesToGroupBy = ["state"]
        grouped.sortDescriptors = [FetchSort("state")]
        let rows = try harness.context.fetchRows(grouped)
        #expect(rows.map { $0["total"] } == [.integer(94111 + 95054), .integer(67059), .integer(10001), .integer(0)])
        // A having predicate and a sort on the sum see the same 0.
        grouped.havingPredicate = try FetchPredicate(format: "total == 0")
        #expect(try harness.context.fetchRows(grouped).map { $0["state"] } == [.string("TX")])
    }

    @Test func minAndMaxKeepTheAttributeTypeAndCountTakesAnything() throws {
        var request = FetchRequest(entityName: "FailedBankInfo")
        request.propertiesToFetch = [
            .expression("first", .min, of: "details.closeDate"), .expression("last", .max, of: "details.closeDate"),
            .expression("top", .max, of: "name"), .expression("dated", .count, of: "details.closeDate"),
            .expression("named", .count, of: "name"), .expression("rows", .count, of: "*"),
        ]
        let row = try #require(try harness.context.fetchRows(request).first)
        #expect(row["first"] == .date(Date(timeIntervalSinceReferenceDate: 700_000_000)))
        #expect(row["last"] == .date(Date(timeIntervalSinceReferenceDate: 711_000_000)))
        #expect(row["top"] == .string("Silicon Valley Bank"))
        #expect([row["dated"], row["named"], row["rows"]] == [.integer(4), .integer(4), .integer(4)])
    }

    @Test func countNeedsAnArgument() throws {
        #expect(try FetchProperty.parse("count(*)") == .expression("count", .count, of: "*"), "a name --having can use")
        #expect(try FetchProperty.parse("AVG(depth)") == .expression("avg_depth", .average, of: "depth"), "named as written")
        for text in ["count()", "count( )", "sum()", "sum(*)", "avg(*) as a"] {
            #expect(throws: StoreError.self, "\(text)") { try FetchProperty.parse(text) }
        }
        do {
            _ = try FetchProperty.parse("count()")
        } catch {
            #expect(error.description.contains("count(*) counts rows"))
        }
        var request = FetchRequest(entityName: "FailedBankInfo")
        request.propertiesToFetch = [.expression("n", .count, of: "")]
        guard case .invalidRequest? = storeError(request) else {
            Issue.record("count() built in code ran")
            return
        }
    }
}
