import Foundation
import Testing
@testable import ManagedStore

/// Sort descriptors compiled to ORDER BY: key paths through to-ones, NULLs, the case-insensitive
/// and localized collations, and the primary-key tie-breaker.
@Suite struct SortSQLTests {
    let tasks: SQLTestStore

    init() throws {
        tasks = try SQLTestStore.tasks()
    }

    /// The first column of the rows of `entity` in the order of `sorts`.
    func ordered(_ fixture: SQLTestStore, _ entity: String, _ column: String, _ sorts: [FetchSort]) throws -> [SQLValue] {
        var builder = SQLQueryBuilder(model: fixture.model, entity: try fixture.entity(entity))
        let query = try builder.select([column], orderBy: sorts)
        return try fixture.store.connection.rows(query.sql, query.bindings).map { $0[0] }
    }

    func orderBy(_ fixture: SQLTestStore, _ entity: String, _ sorts: [FetchSort]) throws -> String {
        var builder = SQLQueryBuilder(model: fixture.model, entity: try fixture.entity(entity))
        return try builder.orderBy(sorts)
    }

    @Test func tasksSeedSort() throws {
        let sorts = [FetchSort("completed"), FetchSort("priority"), FetchSort("task_description")]
        #expect(try orderBy(tasks, "Task", sorts) == "t0.ZCOMPLETED, t0.ZPRIORITY, t0.ZTASK_DESCRIPTION, t0.Z_PK")
        let rows = try tasks.store.connection.rows(
            "SELECT ZCOMPLETED, ZPRIORITY, ZTASK_DESCRIPTION FROM ZTASK t0 ORDER BY " + (try orderBy(tasks, "Task", sorts)))
        let expected = SQLTestStore.taskDescriptions.enumerated()
            .map { (completed: $0.offset % 3 == 0 ? 1 : 0, priority: [1, 2, 3, 4, 5, Int64(Int32.max), Int64(Int32.min), 0][$0.offset % 8], text: $0.element) }
            .sorted { a, b in
                if a.completed != b.completed { return a.completed < b.completed }
                if a.priority != b.priority { return a.priority < b.priority }
                return Array(a.text.utf8).lexicographicallyPrecedes(Array(b.text.utf8))
            }
        #expect(rows.map { $0[2].string! } == expected.map(\.text))
        #expect(rows.first?[0] == .integer(0), "tasks still due come first")
    }

    @Test func tieBreakerAndEmptySorts() throws {
        #expect(try orderBy(tasks, "Task", []) == "t0.Z_PK")
        #expect(try orderBy(tasks, "Task", [FetchSort("priority", ascending: false)]) == "t0.ZPRIORITY DESC, t0.Z_PK")
        let keys = try ordered(tasks, "Task", "t0.Z_PK", [FetchSort("completed")]).map { $0.int64! }
        // Within one value of the sort key, primary keys ascend.
        let expected = try tasks.store.connection.rows("SELECT Z_PK FROM ZTASK ORDER BY ZCOMPLETED, Z_PK").map { $0[0].int64! }
        #expect(keys == expected)
        #expect(Set(keys).count == SQLTestStore.taskDescriptions.count)
    }

    @Test func comparisonsOnlyChangeStrings() throws {
        #expect(try orderBy(tasks, "Task", [FetchSort("priority", comparison: .caseInsensitive), FetchSort("task_description", comparison: .localized)])
                == "t0.ZPRIORITY, t0.ZTASK_DESCRIPTION COLLATE SEEDSTORE_LOCALIZED, t0.Z_PK")
        #expect(try orderBy(tasks, "Task", [FetchSort("task_description", ascending: false, comparison: .caseInsensitive)])
                == "t0.ZTASK_DESCRIPTION COLLATE SEEDSTORE_NOCASE DESC, t0.Z_PK")
    }

    @Test func caseInsensitiveAndLocalizedOrders() throws {
        let files: (SQLTestStore, [FetchSort]) throws -> [String] = { fixture, sorts in
            try self.ordered(fixture, "Task", "t0.ZTASK_DESCRIPTION", sorts).compactMap(\.string).filter { $0.lowercased().hasPrefix("file") }
        }
        #expect(try files(tasks, [FetchSort("task_description")]) == ["File1", "file10", "file2"])
        #expect(try files(tasks, [FetchSort("task_description", comparison: .caseInsensitive)]) == ["File1", "file10", "file2"])
        #expect(try files(tasks, [FetchSort("task_description", comparison: .localized)]) == ["File1", "file2", "file10"])
        #expect(try files(tasks, [FetchSort("task_description", ascending: false, comparison: .localized)]) == ["file10", "file2", "File1"])

        let byCase = try ordered(tasks, "Task", "t0.ZTASK_DESCRIPTION", [FetchSort("task_description", comparison: .caseInsensitive)]).map { $0.string! }
        // Case folds: Zoë and ZOË sit side by side.
        let zoes = byCase.firstIndex(of: "Zoë").flatMap { i in byCase.firstIndex(of: "ZOË").map { j in abs(i - j) } }
        #expect(zoes == 1)
        #expect(byCase.firstIndex(of: "BANK statement")! < byCase.firstIndex(of: "Bänk holiday")!, "[c] keeps diacritics: a < ä")
        let all = try ordered(tasks, "Task", "t0.ZTASK_DESCRIPTION", [FetchSort("task_description", comparison: .caseDiacriticInsensitive)]).map { $0.string! }
        #expect(all.firstIndex(of: "bank")! < all.firstIndex(of: "Bänk holiday")!, "bank < bank holiday, folded")
        #expect(all.firstIndex(of: "Bänk holiday")! < all.firstIndex(of: "BANK statement")!, "bank holiday < bank statement, folded")
    }

    @Test func toOneKeyPathsWithNulls() throws {
        let banks = try SQLTestStore.banks()
        let sorts = [FetchSort("details.closeDate"), FetchSort("name")]
        #expect(try orderBy(banks, "FailedBankInfo", sorts) == "t1.ZCLOSEDATE, t0.ZNAME, t0.Z_PK")
        let ascending = try ordered(banks, "FailedBankInfo", "t0.ZNAME", sorts).map { $0.string! }
        #expect(ascending == ["heartland bank", "no details", "Almena State Bank", "Washington Mutual", "Banco Zoë",
                              "Silicon Valley Bank", "Signature Bank", "Ünïcode Bank", "First Republic", "Citizens Bank"],
                "NULL first ascending, as in Core Data")
        let descending = try ordered(banks, "FailedBankInfo", "t0.ZNAME", [FetchSort("details.closeDate", ascending: false), FetchSort("name")])
            .map { $0.string! }
        #expect(descending.suffix(2) == ["heartland bank", "no details"], "NULL last descending")
        #expect(descending.first == "Citizens Bank")
        let byInfo = try ordered(banks, "FailedBankDetails", "t1.ZNAME", [FetchSort("info.name", comparison: .caseInsensitive)])
        #expect(byInfo.first == .null)
        #expect(byInfo.dropFirst().map { $0.string! } == ["Almena State Bank", "Banco Zoë", "Citizens Bank", "First Republic", "heartland bank",
                                                          "Signature Bank", "Silicon Valley Bank", "Ünïcode Bank", "Washington Mutual"])
    }

    @Test func sortErrors() throws {
        let banks = try SQLTestStore(model: "failedbank")
        #expect(throws: StoreError.self) { try orderBy(banks, "FailedBankDetails", [FetchSort("tags.name")]) }
        #expect(throws: StoreError.self) { try orderBy(banks, "FailedBankDetails", [FetchSort("info.nmae")]) }
        #expect(throws: StoreError.self) { try orderBy(banks, "FailedBankDetails", [FetchSort("zip.value")]) }
    }

    // MARK: The collations

    /// Strings that stress the collations: case, diacritics, digits, ASCII and not.
    static func randomStrings(count: Int, seed: UInt64) -> [String] {
        var generator = SeededGenerator(seed: seed)
        let pieces = ["a", "A", "b", "B", "z", "Z", "é", "É", "e", "E", "ß", "ss", "1", "2", "10", "09", " ", "-", "_", "ø", "Ø",
                      "ǆ", "Ǆ", "İ", "i", "日", "🏦", "file", "File", "x\u{301}", "ﬁ"]
        return (0..<count).map { _ in
            (0..<Int.random(in: 0...4, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
        }
    }

    func collated(_ strings: [String], _ collation: String) throws -> [String] {
        let connection = tasks.store.connection
        try connection.execute("CREATE TEMP TABLE IF NOT EXISTS collated (x TEXT)")
        try connection.execute("DELETE FROM collated")
        for string in strings { try connection.execute("INSERT INTO collated VALUES (?)", [.text(string)]) }
        return try connection.rows("SELECT x FROM collated ORDER BY x COLLATE \(collation)").map { $0[0].string! }
    }

    @Test func foldingCollationsAreFoldedScalarOrder() throws {
        let strings = Self.randomStrings(count: 300, seed: 7)
        for (collation, options) in [("SEEDSTORE_NOCASE", ComparisonOptions.caseInsensitive), ("SEEDSTORE_NODIACRITIC", .diacriticInsensitive),
                                     ("SEEDSTORE_NOCASE_NODIACRITIC", [.caseInsensitive, .diacriticInsensitive])] {
            // Strings that fold alike tie (their order among themselves is SQLite's business).
            let keys = try collated(strings, collation).map { PredicateConstant.collationKey($0, options) }
            #expect(keys == keys.sorted { $0.lexicographicallyPrecedes($1) }, "\(collation)")
        }
        #expect(try order("A", "a", "SEEDSTORE_NOCASE") == 0)
        #expect(try order("é", "E", "SEEDSTORE_NOCASE") == 1)
        #expect(try order("é", "E", "SEEDSTORE_NODIACRITIC") == 1, "[d] keeps case: E < e")
        #expect(try order("é", "e", "SEEDSTORE_NODIACRITIC") == 0)
        #expect(try order("é", "E", "SEEDSTORE_NOCASE_NODIACRITIC") == 0)
        #expect(try order("Zoe\u{308}", "ZOË", "SEEDSTORE_NOCASE") == 0, "canonically equivalent once folded")
    }

    /// Compares two strings with a collation, in SQL: -1, 0 or 1.
    func order(_ a: String, _ b: String, _ collation: String) throws -> Int64 {
        try tasks.store.connection.scalar("SELECT CASE WHEN ?1 < ?2 COLLATE \(collation) THEN -1 WHEN ?1 = ?2 COLLATE \(collation) THEN 0 ELSE 1 END",
                                          [.text(a), .text(b)])!.int64!
    }

    @Test func localizedCollationComparesNumbersByValue() throws {
        let files = try collated(["file10", "File2", "file1", "file3"], "SEEDSTORE_LOCALIZED")
        #expect(files == ["file1", "File2", "file3", "file10"])
        #expect(try collated(["f", "é", "e", "E", "d"], "SEEDSTORE_LOCALIZED") == ["d", "E", "e", "é", "f"])
        #expect(try order("x010", "x9", "SEEDSTORE_LOCALIZED") == 1)
        #expect(try order("x02", "x2", "SEEDSTORE_LOCALIZED") == -1, "equal numbers, then the bytes")
    }

    @Test func localizedCollationIsATotalOrder() throws {
        // Foundation's compare(_:options: [.caseInsensitive, .numeric]) is not one on Linux
        // (with ﬁ or İ); the collation must be, or SQLite's sorts and indexes go wrong.
        let strings = Array(Set(Self.randomStrings(count: 60, seed: 11)))
        var orders: [String: [String: Int64]] = [:]
        for a in strings { for b in strings { orders[a, default: [:]][b] = try order(a, b, "SEEDSTORE_LOCALIZED") } }
        for a in strings {
            #expect(orders[a]![a] == 0)
            for b in strings where a != b {
                #expect(orders[a]![b] == -orders[b]![a]!, "\(a) \(b)")
                #expect(orders[a]![b] != 0, "only equal strings tie")
                for c in strings where orders[a]![b] == -1 && orders[b]![c] == -1 {
                    #expect(orders[a]![c] == -1, "\(a) < \(b) < \(c)")
                }
            }
        }
        let sorted = try collated(strings, "SEEDSTORE_LOCALIZED")
        for (a, b) in zip(sorted, sorted.dropFirst()) { #expect(orders[a]![b] == -1) }
    }

    @Test func localizedCollationAgreesWithFoundationOnASCII() throws {
        var generator = SeededGenerator(seed: 5)
        let alphabet = Array("aAbBzZ0129 -_.")
        for _ in 0..<300 {
            let a = String((0..<Int.random(in: 0...6, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
            let b = String((0..<Int.random(in: 0...6, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
            let foundation = a.compare(b, options: [.caseInsensitive, .numeric])
            guard foundation != .orderedSame else { continue }
            #expect(try order(a, b, "SEEDSTORE_LOCALIZED") == (foundation == .orderedAscending ? -1 : 1), "\(a) \(b)")
        }
    }
}
