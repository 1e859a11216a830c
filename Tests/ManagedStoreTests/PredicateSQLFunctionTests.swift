import Foundation
import Testing
@testable import ManagedStore

/// `SEEDSTORE_COMPARE` and the collations' Swift twin: the same answers as the predicate layer,
/// on the byte fast paths and off them; registration that happens once.
@Suite struct PredicateSQLFunctionTests {
    let connection: Connection

    init() throws {
        connection = try Connection(path: ":memory:")
        connection.registerSeedStoreFunctions()
    }

    /// SEEDSTORE_COMPARE's answer, and evaluate's.
    func answers(_ left: PredicateConstant, _ op: ComparisonOperator, _ options: ComparisonOptions, _ right: PredicateConstant) throws -> (sql: Bool, memory: Bool) {
        let memory = try op.evaluate(left, right, options: options)
        let value = try connection.scalar("SELECT SEEDSTORE_COMPARE(?1, '\(op.rawValue)\(options.formatSuffix)', ?2)", [left.sqlValue, right.sqlValue])
        return (value == .integer(1), memory)
    }

    @Test func examples() throws {
        let cases: [(PredicateConstant, ComparisonOperator, ComparisonOptions, PredicateConstant)] = [
            ("Zoë", .contains, [.caseInsensitive, .diacriticInsensitive], "zoe"), ("Zoë", .contains, [], "zoe"),
            ("ABC", .beginsWith, .caseInsensitive, "ab"), ("ABC", .endsWith, [], "BC"), ("x", .equalTo, .caseInsensitive, "X"),
            ("x", .notEqualTo, .caseInsensitive, "X"), ("b", .lessThan, .caseInsensitive, "A"), ("Matthew", .like, [], "Ma*t?ew"),
            ("100%", .like, [], "100\\%"), ("abc", .matches, [], "a.c"), (nil, .contains, [], "a"), ("a", .contains, [], nil),
            (5, .contains, [], "5"), ("line\r\nbreak", .contains, [], "\n"),
            ("line\r\nbreak", .like, [], "line??break"), ("line\r\nbreak", .like, [], "line?break"),
            ("q\u{301}", .beginsWith, [], "q"), ("straße", .endsWith, .caseInsensitive, "SSE"), ("Kelvin", .equalTo, .caseInsensitive, "\u{212A}ELVIN"),
            ("cafe", .equalTo, .diacriticInsensitive, "café"), ("CAFE", .like, [.caseInsensitive, .diacriticInsensitive], "caf?"),
            ("ﬁle", .beginsWith, .caseInsensitive, "fi"),
        ]
        for (left, op, options, right) in cases {
            let (sql, memory) = try answers(left, op, options, right)
            #expect(sql == memory, "\(left) \(op)\(options.formatSuffix) \(right)")
        }
    }

    @Test func randomStringsAgree() throws {
        // Mostly ASCII, so the byte fast paths run, with enough else to leave them.
        var generator = SeededGenerator(seed: 99)
        let pieces = ["a", "A", "b", "B", "z", "Z", " ", "*", "?", "\\", "%", "_", "\r", "\n", "\r\n", "é", "É", "e\u{301}", "ß", "ss",
                      "ﬁ", "fi", "İ", "i", "K", "\u{212A}", "0", "9", "日"]
        func string(_ length: ClosedRange<Int>) -> String {
            (0..<Int.random(in: length, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
        }
        let operators: [ComparisonOperator] = [.equalTo, .notEqualTo, .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo,
                                               .contains, .beginsWith, .endsWith, .like]
        let optionSets: [ComparisonOptions] = [[], .caseInsensitive, .diacriticInsensitive, [.caseInsensitive, .diacriticInsensitive]]
        var disagreements = 0
        for _ in 0..<3000 {
            let op = operators.randomElement(using: &generator)!
            let options = optionSets.randomElement(using: &generator)!
            let left = string(0...6), right = string(0...3)
            let (sql, memory) = try answers(.string(left), op, options, .string(right))
            if sql != memory {
                disagreements += 1
                if disagreements < 10 { Issue.record("\(left.debugDescription) \(op)\(options.formatSuffix) \(right.debugDescription): SQL \(sql), memory \(memory)") }
            }
        }
        #expect(disagreements == 0)
    }

    @Test func manyRowsOneCompiledTest() throws {
        // The right side is compiled once per statement run; the answer is the same for each row.
        try connection.execute("CREATE TABLE t (x TEXT)")
        for text in ["Bank", "bank", "BANK", "bänk", "x"] { try connection.execute("INSERT INTO t VALUES (?)", [.text(text)]) }
        let sql = "SELECT count(*) FROM t WHERE SEEDSTORE_COMPARE(x, 'LIKE[cd]', ?1)"
        #expect(try connection.scalar(sql, [.text("b?nk")]) == .integer(4))
        #expect(try connection.scalar(sql, [.text("x*")]) == .integer(1), "a new value compiles a new test")
        #expect(try connection.scalar("SELECT count(*) FROM t WHERE SEEDSTORE_COMPARE(x, 'MATCHES', x)") == .integer(5))
    }

    @Test func errors() throws {
        #expect(throws: SQLiteError.self) { try connection.scalar("SELECT SEEDSTORE_COMPARE('a', 'MATCHES', '(')") }
        #expect(throws: SQLiteError.self) { try connection.scalar("SELECT SEEDSTORE_COMPARE('a', 'NEAR', 'b')") }
        #expect(throws: SQLiteError.self) { try connection.scalar("SELECT SEEDSTORE_COMPARE('a', '==')") }
    }

    @Test func asciiFoldsToLowerCase() {
        // The byte fast paths of SEEDSTORE_COMPARE and both collations rely on this.
        for byte in UInt8(0)...127 {
            let text = String(UnicodeScalar(byte))
            for options in [ComparisonOptions.caseInsensitive, .diacriticInsensitive, [.caseInsensitive, .diacriticInsensitive]] {
                let expected = options.contains(.caseInsensitive) ? text.lowercased() : text
                #expect(Array(options.fold(text).unicodeScalars) == Array(expected.unicodeScalars), "byte \(byte)")
            }
        }
    }

    @Test func registeringTwiceKeepsCachedStatements() throws {
        try connection.execute("CREATE TABLE t (x TEXT)")
        try connection.execute("INSERT INTO t VALUES ('bank')")
        let sql = "SELECT count(*) FROM t WHERE SEEDSTORE_COMPARE(x, 'CONTAINS[c]', ?1)"
        #expect(try connection.scalar(sql, [.text("BANK")]) == .integer(1))
        let before = connection.stats
        connection.registerSeedStoreFunctions()
        #expect(try connection.scalar(sql, [.text("BANK")]) == .integer(1))
        #expect((connection.stats - before).prepares == 0, "re-registering would have expired the statement")
        #expect(connection.hasSeedStoreFunctions)
        let fresh = try Connection(path: ":memory:")
        #expect(!fresh.hasSeedStoreFunctions)
    }

    @Test func swiftOrderMatchesTheCollations() throws {
        let strings = SortSQLTests.randomStrings(count: 120, seed: 3) + ["file2", "file10", "File1", "x", "X", "é", "e"]
        try connection.execute("CREATE TABLE s (x TEXT)")
        for string in strings { try connection.execute("INSERT INTO s VALUES (?)", [.text(string)]) }
        for (comparison, collation) in [(FetchSort.Comparison.binary, "BINARY"), (.caseInsensitive, "SEEDSTORE_NOCASE"), (.localized, "SEEDSTORE_LOCALIZED"),
                                        (.diacriticInsensitive, "SEEDSTORE_NODIACRITIC"), (.caseDiacriticInsensitive, "SEEDSTORE_NOCASE_NODIACRITIC")] {
            let sql = try connection.rows("SELECT x FROM s ORDER BY x COLLATE \(collation)").map { $0[0].string! }
            // Strings that tie may come in any order: SQL's order must be sorted by Swift's.
            for (a, b) in zip(sql, sql.dropFirst()) { #expect(SeedStoreCollation.order(a, b, comparison) <= 0, "\(comparison) \(a) \(b)") }
            #expect(sql.sorted() == strings.sorted())
        }
        #expect(SeedStoreCollation.order("file2", "file10", .localized) == -1)
        #expect(SeedStoreCollation.order("file2", "file10", .caseInsensitive) == 1)
        #expect(SeedStoreCollation.order("Zoë", "zoe", .caseInsensitive) == 1, "diacritics count: ë > e")
        #expect(SeedStoreCollation.order("Zoë", "zoë", .caseInsensitive) == 0, "equal folded: the next sort key decides")
        #expect(SeedStoreCollation.order("Zoë", "zoe", .caseDiacriticInsensitive) == 0)
    }
}
