import Foundation
import PropertyBased
import Testing
@testable import ManagedStore

/// String operators without `[c]` or `[d]` compare UTF-8 bytes, in SQL and in memory alike, as the
/// README says: checked against SQLite's own byte operators (`=`, `<`, `instr` and `substr` on
/// blobs, `GLOB`) on random strings of precomposed letters, combining marks and ASCII. With the
/// modifiers, SQL and memory fold alike.
@Suite struct PredicateBytesTests {
    // MARK: The user trial

    /// Item {code, label}: `Zoë` precomposed (U+00EB), then decomposed (e + U+0308), and others.
    static let items: [(code: String, label: String)] = [
        ("a1", "Zo\u{EB}"), ("a2", "Zoe\u{308}"), ("a3", "ZOË"), ("a4", "zoe"), ("a5", "Zo"), ("a6", "the label"),
    ]

    static func itemStore(_ labels: [String?]) throws -> SQLTestStore {
        let model = try ObjectModel([EntityDescription("Item", attributes: [Attribute("code", .string), Attribute("label", .string)])])
        let fixture = try SQLTestStore(model: model)
        for (i, label) in labels.enumerated() {
            let item = try fixture.context.insert("Item")
            item["code"] = .string("r\(i)")
            item["label"] = label.map(Value.string) ?? .null
        }
        try fixture.context.save()
        return fixture
    }

    /// The codes SQL finds (expecting memory to find the same).
    static func codes(_ format: String, in fixture: SQLTestStore, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String] {
        let keys = try fixture.expectAgreement(FetchPredicate(format: format), "Item", sourceLocation: sourceLocation)
        return keys.sorted().map { items[Int($0) - 1].code }
    }

    @Test func userTrial() throws {
        let fixture = try Self.itemStore(Self.items.map(\.label))
        let expected: [(String, [String])] = [
            ("label == 'Zoë'", ["a1"]),
            ("label LIKE 'Zoë'", ["a1"]),
            ("label BEGINSWITH 'Zoë'", ["a1"]),
            ("label ENDSWITH 'ë'", ["a1"]),
            ("label MATCHES 'Zoë'", ["a1"]),
            ("label MATCHES 'Zoe.*'", ["a2"]),
            ("label LIKE 'Zoe*'", ["a2"]),
            ("label LIKE 'Zoe?'", ["a2"]),
            ("label LIKE 'Zo?'", ["a1"]),
            ("label LIKE 'Zo??'", ["a2"]),
            ("label BEGINSWITH 'Zoe'", ["a2"]),
            ("label CONTAINS 'e'", ["a2", "a4", "a6"]),
            ("label CONTAINS '\u{308}'", ["a2"]),
            ("label ENDSWITH '\u{308}'", ["a2"]),
            ("label IN {'Zoë', 'zoe'}", ["a1", "a4"]),
            ("label ==[n] 'Zoë'", ["a1"]),
            ("label > 'Zoe' AND label < 'Zp'", ["a1", "a2"]),
            // The modifiers fold as documented: [d] removes diacritics, [c] case, both spellings alike.
            ("label ==[d] 'Zoe'", ["a1", "a2"]),
            ("label LIKE[d] 'Zoe'", ["a1", "a2"]),
            ("label BEGINSWITH[d] 'Zoe'", ["a1", "a2"]),
            ("label CONTAINS[cd] 'E'", ["a1", "a2", "a3", "a4", "a6"]),
            ("label ==[c] 'zoë'", ["a1", "a2", "a3"]),
            ("label LIKE[cd] 'zoe'", ["a1", "a2", "a3", "a4"]),
            ("label IN[cd] {'ZOE'}", ["a1", "a2", "a3", "a4"]),
        ]
        for (format, codes) in expected {
            #expect(try Self.codes(format, in: fixture) == codes, "\(format)")
        }
    }

    @Test func inNeedsACollectionNotAString() throws {
        let fixture = try Self.itemStore(Self.items.map(\.label))
        for format in ["label IN 'Zoë'", "label IN ''", "'Zo' IN label"] {
            let predicate = try FetchPredicate(format: format)
            let sql = #expect(throws: StoreError.self, "\(format)") { try fixture.sqlKeys(predicate, "Item") }
            #expect("\(sql.map { "\($0)" } ?? "")".contains("IN needs a collection on the right"), "\(format)")
            #expect(throws: PredicateEvaluationError.self, "\(format)") { try fixture.memoryKeys(predicate, "Item") }
        }
        #expect(try Self.codes("'Zoë!' CONTAINS label", in: fixture) == ["a1", "a5"])
    }

    // MARK: Random strings against SQLite's bytes

    /// Precomposed and decomposed letters, lone combining marks, ASCII (wildcards too), wider scalars.
    static let pieces = ["Z", "o", "e", "E", "a", "\u{EB}", "\u{CB}", "e\u{308}", "\u{308}", "\u{E9}", "e\u{301}", "\u{301}",
                         "\u{FB01}", "fi", " ", "\u{65E5}", "\u{1F3E6}", "*", "?", "\\", "[", "%", "_"]
    static let text = Gen.int(in: 0...(pieces.count - 1)).map { pieces[$0] }.array(of: 0...5).map { $0.joined() }
    /// A pattern as pieces, `?` (the index `pieces.count`) and `*` (one more).
    static let pattern = Gen.int(in: 0...(pieces.count + 3)).array(of: 0...5)
    static let operators: [ComparisonOperator] = [.equalTo, .notEqualTo, .lessThan, .lessThanOrEqualTo, .greaterThan,
                                                  .greaterThanOrEqualTo, .beginsWith, .endsWith, .contains, .like, .matches, .in]
    static let op = Gen.element(of: operators).map { $0! }

    enum Token { case literal(String), anyOne, anyRun }

    static func tokens(_ pattern: [Int]) -> [Token] {
        pattern.map { $0 < pieces.count ? .literal(pieces[$0]) : $0 % 2 == 0 ? .anyOne : .anyRun }
    }

    /// The pattern in LIKE's syntax: wildcards as they are, `*`, `?` and `\` in literals escaped.
    static func like(_ tokens: [Token]) -> String {
        tokens.map { token in
            switch token {
            case .anyOne: "?"
            case .anyRun: "*"
            case .literal(let text): text.unicodeScalars.map { "*?\\".unicodeScalars.contains($0) ? "\\\($0)" : "\($0)" }.joined()
            }
        }.joined()
    }

    /// The pattern as an ICU regular expression, for MATCHES.
    static func regex(_ tokens: [Token]) -> String {
        tokens.map { token in
            switch token {
            case .anyOne: "."
            case .anyRun: ".*"
            case .literal(let text): NSRegularExpression.escapedPattern(for: text)
            }
        }.joined()
    }

    /// The pattern for SQLite's GLOB, which matches UTF-8 characters (scalars) byte-exactly.
    static func glob(_ tokens: [Token]) -> String {
        tokens.map { token in
            switch token {
            case .anyOne: "?"
            case .anyRun: "*"
            case .literal(let text): text.unicodeScalars.map { "*?[".unicodeScalars.contains($0) ? "[\($0)]" : "\($0)" }.joined()
            }
        }.joined()
    }

    /// What SQLite itself finds comparing bytes: `?1` the right string, `?2` a second one (IN),
    /// `?3` the GLOB pattern. Empty text is no part, prefix or suffix of anything (as in Foundation).
    static func reference(_ op: ComparisonOperator) -> String {
        let (label, right) = ("CAST(ZLABEL AS BLOB)", "CAST(?1 AS BLOB)")
        return switch op {
        case .equalTo: "ZLABEL = ?1"
        case .notEqualTo: "ZLABEL IS NOT ?1"
        case .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo: "ZLABEL \(op.rawValue) ?1"
        case .beginsWith: "length(?1) > 0 AND instr(\(label), \(right)) = 1"
        case .endsWith: "length(?1) > 0 AND length(\(label)) >= length(\(right)) AND substr(\(label), -length(\(right))) = \(right)"
        case .contains: "length(?1) > 0 AND instr(\(label), \(right)) > 0"
        case .like, .matches: "ZLABEL GLOB ?3"
        case .in: "ZLABEL IN (?1, ?2)"
        case .between: "0"
        }
    }

    @Test func unmodifiedOperatorsCompareBytesInSQLAndInMemory() async {
        await propertyCheck(input: Self.text.array(of: 1...12), Self.op, zip(Self.text, Self.text), Self.pattern) { labels, op, rights, pattern in
            let fixture = try Self.itemStore(labels + [nil])
            let tokens = Self.tokens(pattern)
            let right: PredicateConstant = switch op {
            case .like: .string(Self.like(tokens))
            case .matches: .string(Self.regex(tokens))
            case .in: .array([.string(rights.0), .string(rights.1)])
            default: .string(rights.0)
            }
            let predicate = FetchPredicate.compare(.keyPath(["label"]), op, .constant(right))
            let sql = try fixture.sqlKeys(predicate, "Item")
            let memory = try fixture.memoryKeys(predicate, "Item")
            let bytes = Set(try fixture.store.connection.rows(
                "SELECT Z_PK FROM ZITEM WHERE (\(Self.reference(op))) AND ?2 IS NOT NULL AND ?3 IS NOT NULL", [.text(rights.0), .text(rights.1), .text(Self.glob(tokens))]
            ).map { $0[0].int64! })
            let rows = "\(labels.map(\.debugDescription)) where \(predicate)"
            #expect(sql == bytes, "SQL \(sql.sorted()), bytes \(bytes.sorted()): \(rows)")
            #expect(memory == bytes, "memory \(memory.sorted()), bytes \(bytes.sorted()): \(rows)")
        }
    }

    @Test func modifiedOperatorsAgreeInSQLAndInMemory() async {
        let options = Gen.element(of: [ComparisonOptions.caseInsensitive, .diacriticInsensitive, [.caseInsensitive, .diacriticInsensitive]]).map { $0! }
        await propertyCheck(input: Self.text.array(of: 1...12), Self.op, options, Self.text, Self.pattern) { labels, op, options, text, pattern in
            let fixture = try Self.itemStore(labels + [nil])
            let right: PredicateConstant = switch op {
            case .like: .string(Self.like(Self.tokens(pattern)))
            case .matches: .string(Self.regex(Self.tokens(pattern)))
            case .in: .array([.string(text)])
            default: .string(text)
            }
            let predicate = FetchPredicate.compare(.keyPath(["label"]), op, .constant(right), options: options)
            let sql = try fixture.sqlKeys(predicate, "Item")
            let memory = try fixture.memoryKeys(predicate, "Item")
            #expect(sql == memory, "SQL \(sql.sorted()), memory \(memory.sorted()): \(labels.map(\.debugDescription)) where \(predicate)")
        }
    }

    // MARK: The byte paths

    @Test func likeWildcardsMatchScalars() {
        #expect(PredicateLikePattern("Zoe?", options: []).matches("Zoe\u{308}"))
        #expect(!PredicateLikePattern("Zoe", options: []).matches("Zoe\u{308}"))
        #expect(PredicateLikePattern("*\u{308}", options: []).matches("Zoe\u{308}"))
        #expect(PredicateLikePattern("?", options: []).matches("\u{1F3E6}"))
        #expect(!PredicateLikePattern("??", options: []).matches("\u{1F3E6}"))
        #expect(PredicateLikePattern("a\\*?", options: []).matches("a*\u{EB}"))
        #expect(PredicateLikePattern("line??break", options: []).matches("line\r\nbreak"), "\\r\\n is two scalars")
        // Folded, a pattern compares characters.
        #expect(PredicateLikePattern("line?break", options: .caseInsensitive).matches("line\r\nbreak"))
        #expect(PredicateLikePattern("zoë", options: .caseInsensitive).matches("Zoe\u{308}"))
    }

    @Test func byteOperatorsOnTheFunctionsFastPath() throws {
        // SEEDSTORE_COMPARE answers unmodified operators on SQLite's bytes, for any text.
        let connection = try Connection(path: ":memory:")
        connection.registerSeedStoreFunctions()
        let cases: [(String, ComparisonOperator, String, Bool)] = [
            ("Zoe\u{308}", .beginsWith, "Zoe", true), ("Zoe\u{308}", .contains, "e", true), ("Zoe\u{308}", .equalTo, "Zo\u{EB}", false),
            ("Zoe\u{308}", .like, "Zo\u{EB}", false), ("Zoe\u{308}", .like, "Zoe?", true), ("Zo\u{EB}", .endsWith, "\u{EB}", true),
            ("Zoe\u{308}", .endsWith, "\u{EB}", false), ("q\u{301}uick", .contains, "q", true), ("\u{65E5}", .lessThan, "\u{1F3E6}", true),
        ]
        for (left, op, right, expected) in cases {
            let value = try connection.scalar("SELECT SEEDSTORE_COMPARE(?1, '\(op.rawValue)', ?2)", [.text(left), .text(right)])
            #expect(value == .integer(expected ? 1 : 0), "\(left.debugDescription) \(op) \(right.debugDescription)")
            #expect(try op.evaluate(.string(left), .string(right)) == expected, "\(left.debugDescription) \(op) \(right.debugDescription)")
        }
    }
}
