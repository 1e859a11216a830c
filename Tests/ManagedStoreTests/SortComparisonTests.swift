import Foundation
import Testing
@testable import ManagedStore

/// Sort comparisons as Foundation's (and so Core Data's) sort descriptors have them: `[c]` is
/// `caseInsensitiveCompare(_:)` (case folded, diacritics kept, equal strings tie so the next key
/// decides), `[d]` and `[cd]` fold diacritics too, and every one orders as `<` with the same
/// modifiers compares, in SQL and in memory alike.
@Suite struct SortComparisonTests {
    let harness: StoreHarness

    /// FailedBankDetails with acquirer (a string) and cert (a number): Zoe/1, Zoë/2, zoe/3, zoë/4, ZOE/5.
    init() throws {
        harness = try StoreHarness(model: try Fixtures.model("fdic"))
        for (cert, acquirer) in [(1, "Zoe"), (2, "Zoë"), (3, "zoe"), (4, "zoë"), (5, "ZOE")] {
            let details = try harness.context.insert("FailedBankDetails")
            details["cert"] = .integer(Int64(cert))
            details["acquirer"] = .string(acquirer)
        }
        try harness.context.save()
    }

    func certs(_ sort: String, where format: String? = nil, in context: ManagedObjectContext? = nil) throws -> [Int64] {
        var request = FetchRequest(entityName: "FailedBankDetails")
        request.sortDescriptors = try FetchSort.parseList(sort)
        if let format { request.predicate = try FetchPredicate(format: format) }
        let context = context ?? ManagedObjectContext(store: harness.store)   // objects do not retain it
        return try context.fetch(request).map { object -> Int64 in
            guard case .integer(let cert) = object["cert"] else { return -1 }
            return cert
        }
    }

    @Test func caseInsensitiveSortTiesOnCaseOnly() throws {
        // Zoe, zoe, ZOE are equal, so cert orders them; Zoë and zoë, equal, come after (ë > e).
        #expect(try certs("acquirer[c],cert") == [1, 3, 5, 2, 4])
        #expect(try certs("acquirer[c],-cert") == [5, 3, 1, 4, 2])
        #expect(try certs("-acquirer[c],cert") == [2, 4, 1, 3, 5])
        // [cd] folds diacritics too: all five tie. [d] keeps case: ZOE < Zoe = Zoë < zoe = zoë.
        #expect(try certs("acquirer[cd],cert") == [1, 2, 3, 4, 5])
        #expect(try certs("acquirer[dc],-cert") == [5, 4, 3, 2, 1])
        #expect(try certs("acquirer[d],cert") == [5, 1, 2, 3, 4])
        // [l] (localizedStandardCompare) forces an order on strings that differ.
        #expect(try certs("acquirer[l],cert") == [5, 1, 3, 2, 4])
        // The engine's final Z_PK tie-break still applies after the keys.
        #expect(try certs("acquirer[c]") == [1, 3, 5, 2, 4])
    }

    @Test func unsavedObjectsMergeInTheSameOrder() throws {
        let context = ManagedObjectContext(store: harness.store)
        for (cert, acquirer) in [(6, "zOe"), (0, "ZOË"), (7, "Zoe\u{308}")] {
            let details = try context.insert("FailedBankDetails")
            details["cert"] = .integer(Int64(cert))
            details["acquirer"] = .string(acquirer)
        }
        // The decomposed Zoë is canonically equivalent to the composed one: it ties with it.
        #expect(try certs("acquirer[c],cert", in: context) == [1, 3, 5, 6, 0, 2, 4, 7])
        #expect(try certs("acquirer[cd],cert", in: context) == [0, 1, 2, 3, 4, 5, 6, 7])
        try context.save()
        #expect(try certs("acquirer[c],cert") == [1, 3, 5, 6, 0, 2, 4, 7])
    }

    @Test func sortAgreesWithLessThan() throws {
        let context = ManagedObjectContext(store: harness.store)
        for (cert, acquirer) in [(10, "éa"), (11, "eb"), (12, "EC")] {
            let details = try context.insert("FailedBankDetails")
            details["cert"] = .integer(Int64(cert))
            details["acquirer"] = .string(acquirer)
        }
        try context.save()
        let only = "cert >= 10"
        #expect(try certs("acquirer[c]", where: only) == [11, 12, 10], "eb < EC < éa, as caseInsensitiveCompare has it")
        #expect(try certs("cert", where: only + " AND acquirer <[c] 'eb'") == [])
        #expect(try certs("cert", where: only + " AND acquirer >[c] 'ec'") == [10])
        #expect(try certs("acquirer[cd]", where: only) == [10, 11, 12])
        #expect(try certs("cert", where: only + " AND acquirer <[cd] 'eb'") == [10])
    }

    /// Each collation's order of two strings is the order `<`, `==`, `>` with its modifiers give.
    @Test func collationsAreTheComparisonOperatorsOrder() throws {
        let strings = Array(Set(SortSQLTests.randomStrings(count: 80, seed: 23) + ["Zoe", "zoë", "Zoe\u{308}", "ZOË", "éa", "eb", "EC"]))
        let connection = harness.store.connection
        connection.registerSeedStoreFunctions()
        for (comparison, options) in [(FetchSort.Comparison.caseInsensitive, ComparisonOptions.caseInsensitive),
                                      (.diacriticInsensitive, .diacriticInsensitive),
                                      (.caseDiacriticInsensitive, [.caseInsensitive, .diacriticInsensitive])] {
            let collation = SQLQueryBuilder.orderItem("x", FetchSort("x", comparison: comparison), isString: true).dropFirst("x COLLATE ".count)
            for a in strings {
                for b in strings {
                    let expected: Int = switch PredicateConstant.order(.string(a), .string(b), options: options) {
                    case .orderedAscending: -1
                    case .orderedDescending: 1
                    default: 0
                    }
                    #expect(SeedStoreCollation.order(a, b, comparison) == expected, "\(comparison) \(a) \(b)")
                    let sql = try connection.scalar("SELECT CASE WHEN ?1 < ?2 COLLATE \(collation) THEN -1 WHEN ?1 = ?2 COLLATE \(collation) THEN 0 ELSE 1 END",
                                                    [.text(a), .text(b)])!.int64!
                    #expect(sql == Int64(expected), "\(collation) \(a) \(b)")
                }
            }
        }
    }

    @Test func sortKeysAndTheirErrors() throws {
        #expect(try FetchSort.parseList("a[c],b[d],c[cd],d[l],-e[CD],f[c]:desc").map(\.description)
                == ["a[c]", "b[d]", "c[cd]", "d[l]", "-e[cd]", "-f[c]"])
        #expect(throws: StoreError.self) { try FetchSort.parseList("a[x]") }
    }

    /// The message `parseList` refuses `text` with.
    func refusal(_ text: String) -> String? {
        do { _ = try FetchSort.parseList(text); return nil } catch { return "\(error)" }
    }

    @Test func contradictoryOrUnknownDirectionsAreRefused() throws {
        // A leading '-' and ':asc' used to sort ascending without a word.
        let conflict = try #require(refusal("-name:asc"))
        #expect(conflict.contains("'-'") && conflict.contains(":asc"), "\(conflict)")
        #expect(refusal("+name:desc")?.contains(":desc") == true)
        #expect(refusal("-name asc") != nil)
        let unknown = try #require(refusal("name:up"))
        for form in [":asc", ":desc", "'-'", "up"] { #expect(unknown.contains(form), "\(unknown) lacks \(form)") }
        // Agreeing or single directions are fine.
        #expect(try FetchSort.parseList("-name:desc,+b:asc,c:DESC,d asc,-e[c]").map(\.description) == ["-name", "b", "-c", "d", "-e[c]"])
    }
}
