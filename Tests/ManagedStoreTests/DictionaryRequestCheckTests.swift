import Foundation
import Testing
@testable import ManagedStore

/// What a dictionary request may name, refused when it is compiled: repeated result names, plain
/// keys fetched with aggregates but no group-by keys, sort keys and having keys a grouped fetch
/// has no one value of; and counts of grouped and distinct requests, which count rows, not objects.
@Suite struct DictionaryRequestCheckTests {
    let harness: StoreHarness

    init() throws {
        harness = try StoreHarness.failedBanks([
            .init(name: "Signature Bank", city: "New York", state: "NY", zip: 10001),
            .init(name: "First Republic", city: "San Francisco", state: "CA", zip: 94111),
            .init(name: "Silicon Valley Bank", city: "Santa Clara", state: "CA", zip: 95054),
            .init(name: "Heartland Tri-State", city: "Elkhart", state: "KS", zip: 67059),
        ])
    }

    /// The error a fetch of `request` throws, if any.
    func fetchError(_ request: FetchRequest) -> StoreError? { harness.rowsError(request) }

    /// The errors of the three ways to run `request`: fetching rows, counting, explaining. Each must refuse
    /// what the others refuse.
    func errorsOfEveryPath(_ request: FetchRequest) -> [StoreError?] {
        let context = harness.context
        return [
            fetchError(request),
            storeError { () throws(StoreError) in _ = try context.count(for: request) },
            storeError { () throws(StoreError) in _ = try context.explain(request) },
        ]
    }

    /// The error `body` throws, if any.
    func storeError(_ body: () throws(StoreError) -> Void) -> StoreError? {
        do {
            try body()
            return nil
        } catch {
            return error
        }
    }

    func grouped(_ properties: [FetchProperty] = [.key("state"), .expression("banks", .count, of: "*")]) -> FetchRequest {
        var request = FetchRequest(entityName: "FailedBankInfo")
        request.resultType = .dictionary
        request.propertiesToFetch = properties
        request.propertiesToGroupBy = ["state"]
        return request
    }

    // MARK: Result names

    @Test func twoPropertiesUnderOneNameAreRefusedForEveryResultType() throws {
        let cases: [([FetchProperty], String, String)] = [
            ([.key("name"), .key("name")], "name", "leave out the repeat"),
            ([.expression("n", .count, of: "*"), .expression("n", .max, of: "details.zip")], "n", "max(details.zip) as max_details_zip"),
            ([.key("state"), .expression("state", .count, of: "name")], "state", "count(name) as count_name"),
        ]
        for (properties, name, advice) in cases {
            var request = FetchRequest(entityName: "FailedBankInfo")
            request.propertiesToFetch = properties
            if case .key("state") = properties[0] { request.propertiesToGroupBy = ["state"] }
            for resultType in [FetchRequest.ResultType.dictionary, .count] {
                request.resultType = resultType
                for error in errorsOfEveryPath(request) {
                    guard case .invalidProperty(let entity, let property, let reason)? = error else {
                        Issue.record("\(properties) ran as \(resultType): \(String(describing: error))")
                        continue
                    }
                    #expect(entity == "FailedBankInfo")
                    #expect(property == name)
                    #expect(reason.contains("fetched twice under the result name '\(name)'") && reason.contains(advice), "\(reason)")
                }
            }
        }
    }

    @Test func aRowDictionaryKeepsTheFirstOfRepeatedKeysInsteadOfTrapping() {
        let storage = ResultStorage()
        storage.values = [.integer(1), .integer(2)]
        let row = ResultRow(keys: ResultKeys(["n", "n"]), storage: storage, row: 0)
        #expect(row.dictionary == ["n": .integer(1)])
    }

    // MARK: Aggregates without groups

    @Test func ungroupedFetchRefusesKeysMixedWithAggregates() throws {
        var request = FetchRequest(entityName: "FailedBankInfo")
        request.propertiesToFetch = [.key("name"), .expression("n", .count, of: "*")]
        for resultType in [FetchRequest.ResultType.dictionary, .count] {
            request.resultType = resultType
            for error in errorsOfEveryPath(request) {
                guard case .invalidProperty(let entity, let property, let reason)? = error else {
                    Issue.record("name mixed with count(*) without group-by ran as \(resultType): \(String(describing: error))")
                    continue
                }
                #expect(entity == "FailedBankInfo")
                #expect(property == "name")
                #expect(reason.contains("'count(*) as n'") && reason.contains("without propertiesToGroupBy")
                        && reason.contains("arbitrary"), "says why: \(reason)")
                #expect(reason.contains("--group-by name") && reason.contains("max(name)"), "says what to do: \(reason)")
            }
        }

        // The first plain key is named, whatever order the aggregates come in; to-one key paths too.
        request.resultType = .dictionary
        request.propertiesToFetch = [.expression("top", .max, of: "details.zip"), .key("details.zip"), .key("state")]
        guard case .invalidProperty(_, let property, let reason)? = fetchError(request) else {
            Issue.record("details.zip mixed with max(details.zip) without group-by ran")
            return
        }
        #expect(property == "details.zip")
        #expect(reason.contains("--group-by details.zip,state"), "\(reason)")

        // Aggregates alone, and plain keys alone (also distinct), still run.
        request.propertiesToFetch = [.expression("n", .count, of: "*"), .expression("top", .max, of: "details.zip")]
        #expect(try harness.context.fetchRows(request).map(\.values) == [[.integer(4), .integer(95054)]])
        request.propertiesToFetch = [.key("state")]
        request.returnsDistinctResults = true
        #expect(try harness.context.fetchRows(request).count == 3)
    }

    // MARK: Counting rows

    @Test func countsOfGroupedAndDistinctRequestsCountTheirRows() throws {
        let context = harness.context
        var request = grouped()
        request.havingPredicate = try FetchPredicate(format: "banks > 1")
        #expect(try context.fetchRows(request).count == 1)
        request.resultType = .count
        harness.sql.removeAll()
        #expect(try context.count(for: request) == 1, "one state has more than one bank, of four banks")
        #expect(harness.sql.count == 1, "\(harness.sql)")
        #expect(harness.sql.first?.contains("SELECT count(*) FROM (SELECT t0.ZSTATE, count(*) FROM ZFAILEDBANKINFO t0 GROUP BY t0.ZSTATE HAVING") == true,
                "\(harness.sql)")
        #expect(try context.explain(request).sql.hasPrefix("SELECT count(*) FROM (SELECT t0.ZSTATE"))

        request.havingPredicate = nil
        #expect(try context.count(for: request) == 3, "three states")
        request.fetchOffset = 1
        request.fetchLimit = 1
        #expect(try context.count(for: request) == 1, "paged like the rows")

        var distinct = FetchRequest(entityName: "FailedBankInfo")
        distinct.resultType = .count
        distinct.propertiesToFetch = [.key("state")]
        distinct.returnsDistinctResults = true
        #expect(try context.count(for: distinct) == 3)

        var total = FetchRequest(entityName: "FailedBankInfo")
        total.resultType = .count
        total.propertiesToFetch = [.expression("n", .count, of: "*")]
        #expect(try context.count(for: total) == 1, "one row of aggregates")
        #expect(context.registeredObjects.count == 8, "only the objects the setup made: nothing materialised")

        var plain = FetchRequest(entityName: "FailedBankInfo")
        plain.resultType = .count
        harness.sql.removeAll()
        #expect(try context.count(for: plain) == 4)
        #expect(harness.sql.count == 1 && harness.sql[0].contains("SELECT count(*) FROM ZFAILEDBANKINFO t0") && !harness.sql[0].contains("(SELECT"),
                "a plain count is still one plain statement: \(harness.sql)")
    }

    // MARK: Having

    @Test func havingRefusesWhatAGroupHasNoOneValueOf() throws {
        var request = grouped()
        request.havingPredicate = try FetchPredicate(format: "city BEGINSWITH 'S'")
        guard case .invalidProperty(let entity, let property, let reason)? = fetchError(request) else {
            Issue.record("a having on city ran over an arbitrary row of each state")
            return
        }
        #expect(entity == "FailedBankInfo" && property == "city")
        #expect(reason.contains("neither a group-by key nor a fetched aggregate") && reason.contains("max(city) as last")
                && reason.contains("--where"), "\(reason)")

        for format in ["ANY details.tags.name == 'vip'", "details.tags.@count > 1", "SUBQUERY(details.tags, $t, $t.name == 'x').@count > 0",
                       "SELF == 1"] {
            request.havingPredicate = try FetchPredicate(format: format)
            guard case .invalidRequest(let message)? = fetchError(request) else {
                Issue.record("\(format) ran as a having predicate")
                continue
            }
            #expect(message.contains("arbitrary row of each group") && message.contains("--where"), "\(format): \(message)")
        }

        request.havingPredicate = try FetchPredicate(format: "nmae == 'x'")
        guard case .unknownKey(_, "nmae", let suggestions)? = fetchError(request) else {
            Issue.record("an unknown having key ran")
            return
        }
        #expect(suggestions.contains("name"))

        // Group-by keys, fetched aggregates' names, in any combination, are what a having may use.
        request.havingPredicate = try FetchPredicate(format: "state BEGINSWITH 'C' OR (banks >= 1 AND NOT state IN {'KS', 'CA'})")
        request.sortDescriptors = [FetchSort("state")]
        #expect(try harness.context.fetchRows(request).map { $0["state"] } == [.string("CA"), .string("NY")])
    }

    // MARK: Sorting

    @Test func groupedAndDistinctFetchesSortOnlyByWhatEachRowHasOneValueOf() throws {
        var request = grouped()
        request.sortDescriptors = [FetchSort("city")]
        guard case .invalidProperty(_, "city", let reason)? = fetchError(request) else {
            Issue.record("sorting states by an arbitrary city ran")
            return
        }
        #expect(reason.contains("sort by a group-by key (state) or a fetched aggregate's name (banks)"), "\(reason)")

        var distinct = FetchRequest(entityName: "FailedBankInfo")
        distinct.propertiesToFetch = [.key("state")]
        distinct.returnsDistinctResults = true
        distinct.sortDescriptors = [FetchSort("name")]
        guard case .invalidProperty(_, "name", let text)? = fetchError(distinct) else {
            Issue.record("sorting distinct states by an arbitrary name ran")
            return
        }
        #expect(text.contains("sort by a fetched property"), "\(text)")
    }

    @Test func aFetchedAggregateSortsByItsName() throws {
        var request = grouped()
        request.sortDescriptors = [FetchSort("banks", ascending: false), FetchSort("state")]
        let rows = try harness.context.fetchRows(request)
        #expect(rows.map { $0["state"] } == [.string("CA"), .string("KS"), .string("NY")])
        #expect(rows.map { $0["banks"] } == [.integer(2), .integer(1), .integer(1)])
        #expect(try harness.context.explain(request).sql.hasSuffix("ORDER BY count(*) DESC, t0.ZSTATE, 1, 2"))

        var top = FetchRequest(entityName: "FailedBankInfo")
        top.propertiesToFetch = [.key("state"), .expression("last", .max, of: "name")]
        top.propertiesToGroupBy = ["state"]
        top.sortDescriptors = [FetchSort("last", comparison: .caseInsensitive)]
        #expect(try harness.context.fetchRows(top).map { $0["state"] } == [.string("KS"), .string("NY"), .string("CA")])
    }

    // MARK: Prefetching

    @Test func prefetchSuggestsRelationshipsOnly() throws {
        for (key, expected) in [("detail", ["details"]), ("nme", []), ("stat", [])] {
            var request = FetchRequest(entityName: "FailedBankInfo")
            request.relationshipKeyPathsForPrefetching = [key]
            do {
                _ = try harness.context.fetch(request)
                Issue.record("prefetching \(key) ran")
            } catch {
                guard case .unknownKey("FailedBankInfo", key, let suggestions) = error else {
                    Issue.record("\(key): \(error)")
                    continue
                }
                #expect(suggestions == expected, "\(key): attributes are not suggested for prefetching")
            }
        }
    }
}
