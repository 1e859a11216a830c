import Foundation
import Testing
@testable import ManagedStore

/// The key property of the SQL compiler: for any predicate, the objects SQL finds are the objects
/// in-memory evaluation finds, unless it compares an attribute with a constant of a kind it never
/// compares with, which SQL refuses (memory answers such a comparison the same way whatever the
/// attribute holds). Checked on a fixed list that covers every construct, and on random predicates
/// from a small grammar over the Tasks and failed banks models, with values that include nil,
/// other kinds, Unicode, wildcards and edge numbers.
@Suite struct PredicateSQLPropertyTests {
    /// Cases that cover every operator, modifier, option and key path shape (SUBQUERY, which memory
    /// cannot evaluate, is in PredicateSQLToManyTests).
    static let fixedCases: [(entity: String, format: String)] = [
        // Tasks: equality and order
        ("Task", "priority == 1"), ("Task", "priority != 1"), ("Task", "priority < 3"), ("Task", "priority <= 3"),
        ("Task", "priority > 3"), ("Task", "priority >= 2147483647"), ("Task", "3 > priority"), ("Task", "priority == 1.0"),
        ("Task", "priority < 2.5"), ("Task", "priority == nil"),
        ("Task", "completed == NO"), ("Task", "completed == YES"), ("Task", "completed == 1"), ("Task", "completed != 2"),
        ("Task", "SELF == 3"), ("Task", "SELF IN {1, 3, 5}"), ("Task", "SELF > 20"),
        // Tasks: strings
        ("Task", "task_description == 'bank'"), ("Task", "task_description ==[c] 'BANK'"), ("Task", "task_description ==[cd] 'zoe'"),
        ("Task", "task_description !=[cd] 'zoe'"), ("Task", "task_description < 'a'"), ("Task", "task_description >=[c] 'file'"),
        ("Task", "task_description CONTAINS 'bank'"), ("Task", "task_description CONTAINS[cd] 'bank'"),
        ("Task", "task_description CONTAINS[d] 'Bank'"), ("Task", "task_description CONTAINS 'q'"), ("Task", "task_description CONTAINS[c] 'SS'"),
        ("Task", "task_description BEGINSWITH[c] 'file'"), ("Task", "task_description BEGINSWITH 'İ'"), ("Task", "task_description BEGINSWITH[cd] 'i'"),
        ("Task", "task_description ENDSWITH[cd] 'ZOE'"), ("Task", "task_description ENDSWITH ''"),
        ("Task", "task_description LIKE '*bank'"), ("Task", "task_description LIKE[c] '*BANK*'"), ("Task", "task_description LIKE '100% done'"),
        ("Task", "task_description LIKE '*_*'"), ("Task", "task_description LIKE 'a\\\\*b\\\\?c'"), ("Task", "task_description LIKE[cd] 'z?e'"),
        ("Task", "task_description MATCHES 'file[0-9]+'"), ("Task", "task_description MATCHES[c] '.*BANK.*'"), ("Task", "task_description MATCHES[cd] 'z.e'"),
        ("Task", "task_description IN {'bank', 'Zoë', 'x'}"), ("Task", "task_description IN[c] {'BANK', 'ZOË'}"),
        ("Task", "'Call Zoë' CONTAINS task_description"), ("Task", "'Go to the bank' CONTAINS task_description"),
        ("Task", "task_description BETWEEN {'a', 'c'}"), ("Task", "task_description BETWEEN[c] {'a', 'c'}"),
        ("Task", "priority IN {}"), ("Task", "priority IN {1, nil, 3.0}"), ("Task", "priority BETWEEN {2, 4}"), ("Task", "priority BETWEEN {4, 2}"),
        ("Task", "NOT (priority == 1 OR completed == YES)"), ("Task", "NOT NOT priority < 3"), ("Task", "TRUEPREDICATE"), ("Task", "FALSEPREDICATE"),
        ("Task", "priority == 1 OR priority == 2 AND task_description CONTAINS[c] 'b'"),
        ("Task", "ANY {'bank', 'x'} == task_description"), ("Task", "ALL {1, 2} <= priority"), ("Task", "NONE {1, 2} == priority"),
        // Banks: to-one key paths and nil
        ("FailedBankInfo", "details.closeDate > CAST(300777600, 'NSDate')"), ("FailedBankInfo", "details.zip == nil"),
        ("FailedBankInfo", "NOT details.zip == 10022"), ("FailedBankInfo", "details == nil"), ("FailedBankInfo", "details != nil"),
        ("FailedBankInfo", "city == nil OR state == nil"), ("FailedBankInfo", "NOT (city == 'Almena')"), ("FailedBankInfo", "city < state"),
        ("FailedBankInfo", "name BEGINSWITH city"), ("FailedBankInfo", "details.info.name == name"), ("FailedBankInfo", "details.zip < 50000"),
        ("FailedBankInfo", "NOT details.closeDate > CAST(300000000, 'NSDate')"), ("FailedBankInfo", "state ==[c] 'zz'"),
        ("FailedBankDetails", "info.name BEGINSWITH 'A'"), ("FailedBankDetails", "info == nil"), ("FailedBankDetails", "closeDate == updateDate"),
        ("FailedBankDetails", "closeDate < updateDate"), ("FailedBankDetails", "zip == closeDate"), ("FailedBankDetails", "info.name == zip"),
        ("FailedBankDetails", "info.name != zip"), ("FailedBankDetails", "zip == YES"),
        ("FailedBankDetails", "info.details == SELF"), ("FailedBankDetails", "info.city ==[cd] 'zurich'"),
        // Banks: to-many
        ("FailedBankDetails", "ANY tags.name == 'crisis'"), ("FailedBankDetails", "ANY tags.name ==[c] 'crisis'"),
        ("FailedBankDetails", "ALL tags.name BEGINSWITH[c] 'c'"), ("FailedBankDetails", "NONE tags.name == 'big'"),
        ("FailedBankDetails", "ALL tags.name != nil"), ("FailedBankDetails", "ANY tags.name LIKE '*i*'"), ("FailedBankDetails", "ANY tags.name MATCHES '[0-9]+'"),
        ("FailedBankDetails", "tags.@count > 1"), ("FailedBankDetails", "tags.@count == 0"), ("FailedBankDetails", "tags.@max.name == 'crisis'"),
        ("FailedBankDetails", "tags.@min.name < 'b'"), ("FailedBankDetails", "tags.name CONTAINS 'big'"), ("FailedBankDetails", "'big' IN tags.name"),
        ("FailedBankDetails", "tags CONTAINS 1"), ("FailedBankDetails", "3 IN tags"), ("FailedBankDetails", "ANY tags.bankdetails.zip == 12345"),
        ("FailedBankDetails", "tags.bankdetails.@count > 5"), ("FailedBankDetails", "tags.bankdetails.@sum.zip > 300000"),
        ("FailedBankDetails", "ANY tags.name IN {'big', 'Zoë'}"), ("FailedBankDetails", "ALL tags.name IN {'big', 'crisis'}"),
        ("FailedBankDetails", "NOT ANY tags.name == 'big' AND zip > 0"),
        ("Tag", "bankdetails.@sum.zip > 100000"), ("Tag", "bankdetails.@avg.zip > 55000"), ("Tag", "bankdetails.@avg.zip == nil"),
        ("Tag", "bankdetails.@min.closeDate < CAST(300000000, 'NSDate')"), ("Tag", "bankdetails.@max.zip >= 95054"),
        ("Tag", "ALL bankdetails.closeDate > CAST(300432000, 'NSDate')"), ("Tag", "ALL bankdetails.updateDate > CAST(300432000, 'NSDate')"),
        ("Tag", "ANY bankdetails.info.state == 'CA'"), ("Tag", "ANY bankdetails.info == nil"), ("Tag", "ALL bankdetails.info.city != nil"),
        ("Tag", "bankdetails.@count >= 3"), ("Tag", "NOT bankdetails.@avg.zip > 50000"), ("Tag", "bankdetails.@sum.zip == 0"),
        ("FailedBankInfo", "ANY details.tags.name == 'Zoë'"), ("FailedBankInfo", "details.tags.@count == 0"),
        ("FailedBankInfo", "ALL details.tags.name == 'crisis'"), ("FailedBankInfo", "details.tags.@count > 1 AND details.zip > 50000"),
    ]

    /// Attributes against constants of kinds they never compare with: refused by SQL, while memory
    /// gives the same answer for every object (the reason they are refused).
    static let refusedCases: [(entity: String, format: String)] = [
        ("Task", "priority == '1'"), ("Task", "priority != '1'"), ("Task", "priority BETWEEN {1, '3'}"),
        ("Task", "task_description CONTAINS 5"), ("Task", "priority BEGINSWITH '1'"), ("Task", "completed == 'YES'"),
        ("FailedBankDetails", "closeDate == YES"), ("FailedBankDetails", "closeDate > '2010-01-01'"),
        ("FailedBankDetails", "ANY tags.name == 2008"), ("FailedBankInfo", "details.zip == '10022'"),
    ]

    @Test func refusedCasesAreRefusedWhereMemoryCannotTellObjectsApart() throws {
        let tasks = try SQLTestStore.tasks()
        let banks = try SQLTestStore.banks()
        for (entity, format) in Self.refusedCases {
            let fixture = entity == "Task" ? tasks : banks
            let predicate = try FetchPredicate(format: format)
            #expect(throws: StoreError.self, "\(entity) where \(format)") { try fixture.sqlKeys(predicate, entity) }
            #expect(Self.comparisons(predicate).contains { PredicateGrammar.mixesKinds($0, entity) }, "\(format)")
            let memory = try fixture.memoryKeys(predicate, entity)
            let all = try fixture.objects(entity).count
            #expect(memory.isEmpty || memory.count == all, "\(entity) where \(format): \(memory.sorted())")
        }
        // In a list, the element of another kind is the one that can never match.
        let list = try FetchPredicate(format: "priority IN {1, 'x', nil, 3.0}")
        #expect(throws: StoreError.self) { try tasks.sqlKeys(list, "Task") }
        #expect(try tasks.memoryKeys(list, "Task") == (try tasks.memoryKeys(FetchPredicate(format: "priority IN {1, nil, 3.0}"), "Task")))
    }

    @Test func fixedCasesAgree() throws {
        let tasks = try SQLTestStore.tasks()
        let banks = try SQLTestStore.banks()
        #expect(Self.fixedCases.count >= 80)
        for (entity, format) in Self.fixedCases {
            let predicate = try FetchPredicate(format: format)
            try (entity == "Task" ? tasks : banks).expectAgreement(predicate, entity)
        }
    }

    @Test func randomPredicatesAgree() throws {
        let tasks = try SQLTestStore.tasks()
        let banks = try SQLTestStore.banks()
        var generator = SeededGenerator(seed: 0x5EED_5709E)
        var grammar = PredicateGrammar()
        var checked = 0, bothFailed = 0, refused = 0
        for round in 0..<1000 {
            let entity = ["Task", "FailedBankInfo", "FailedBankDetails", "Tag"][round % 4]
            let fixture = entity == "Task" ? tasks : banks
            let predicate = grammar.predicate(for: entity, depth: 2, using: &generator)
            let memory = Result { try fixture.memoryKeys(predicate, entity) }
            let sql = Result { try fixture.sqlKeys(predicate, entity) }
            let mixesKinds = Self.comparisons(predicate).contains { PredicateGrammar.mixesKinds($0, entity) }
            switch (memory, sql) {
            case (.success(let m), .success(let s)):
                checked += 1
                if m != s {
                    let text = (try? fixture.compile(predicate, entity)).map { "\($0.sql)  -- \($0.bindings)" } ?? "?"
                    Issue.record("\(entity) where \(predicate): memory \(m.sorted()) but SQL \(s.sorted())\n  SQL: \(text)")
                }
                if mixesKinds { Issue.record("\(entity) where \(predicate): compares an attribute with a constant of another kind, yet SQL ran it") }
            case (.failure, .failure):
                bothFailed += 1
            case (.success, .failure(let error)) where Self.isKindRefusal(error):
                // An attribute against a constant of a kind it never compares with: memory answers
                // false (or true), SQL refuses the fetch.
                refused += 1
                if !mixesKinds { Issue.record("\(entity) where \(predicate): refused for kinds that compare: \(error)") }
            case (.success, .failure) where Self.canFail(predicate):
                // Memory stops at the first false operand of an AND (true of an OR) and may never
                // reach the comparison that fails; SQL refuses it up front.
                bothFailed += 1
            case (.failure, .success) where Self.canFailOnData(predicate):
                // A MATCHES pattern read from a column fails on some rows only: which rows each
                // side reaches depends on its evaluation order.
                bothFailed += 1
            case (.success, .failure(let error)):
                Issue.record("\(entity) where \(predicate): memory evaluates it but SQL fails: \(error)")
            case (.failure(let error), .success):
                Issue.record("\(entity) where \(predicate): SQL runs it but memory fails: \(error)")
            }
        }
        #expect(checked > 600, "most random predicates are valid (\(bothFailed) failed both ways, \(refused) refused for their kinds)")
        #expect(refused > 200, "the grammar mixes kinds often enough to test the refusal (\(refused) refused)")
    }

    /// Whether `error` is the compiler's refusal of an attribute compared with a constant of a kind
    /// it never compares with.
    static func isKindRefusal(_ error: any Error) -> Bool {
        guard case .invalidProperty(_, _, let reason)? = error as? StoreError else { return false }
        return reason.contains("(values are not converted)") || reason.contains("which tests text")
            || reason.contains("an array, which is never one value") || reason.contains("which no object equals")
    }

    /// The comparisons of a predicate.
    static func comparisons(_ predicate: FetchPredicate) -> [PredicateComparison] {
        switch predicate {
        case .truePredicate, .falsePredicate: []
        case .comparison(let comparison): [comparison]
        case .and(let operands), .or(let operands): operands.flatMap(comparisons)
        case .not(let operand): comparisons(operand)
        }
    }

    /// Whether some comparison of the predicate fails when evaluated: a bad MATCHES pattern,
    /// BETWEEN without two bounds, a pattern read from a column, or IN a key path (SQL refuses a
    /// key path with one value per object up front; memory, on the rows it reaches whose value is
    /// neither nil nor a string).
    static func canFail(_ predicate: FetchPredicate) -> Bool {
        comparisons(predicate).contains { comparison in
            guard case .constant(let right) = comparison.right else {
                return comparison.op == .between || comparison.op == .matches || comparison.op == .in
            }
            return (try? PredicateComparisonTest(comparison.op, comparison.options, right)) == nil
        }
    }

    /// Whether a comparison takes its MATCHES pattern from a column.
    static func canFailOnData(_ predicate: FetchPredicate) -> Bool {
        comparisons(predicate).contains { comparison in
            if comparison.op == .matches, case .constant = comparison.right { return false }
            return comparison.op == .matches
        }
    }
}

/// Random predicates over the test models' key paths, with a pool of values of every kind.
struct PredicateGrammar {
    enum Kind { case string, int, date, bool, object }

    struct Key {
        var path: [String]
        var kind: Kind
        var toMany = false
    }

    static let keys: [String: [Key]] = [
        "Task": [Key(path: ["task_description"], kind: .string), Key(path: ["priority"], kind: .int),
                 Key(path: ["completed"], kind: .bool), Key(path: [], kind: .object)],
        "FailedBankInfo": [Key(path: ["name"], kind: .string), Key(path: ["city"], kind: .string), Key(path: ["state"], kind: .string),
                           Key(path: ["details"], kind: .object), Key(path: ["details", "zip"], kind: .int),
                           Key(path: ["details", "closeDate"], kind: .date), Key(path: ["details", "updateDate"], kind: .date),
                           Key(path: ["details", "info", "name"], kind: .string),
                           Key(path: ["details", "tags"], kind: .object, toMany: true),
                           Key(path: ["details", "tags", "name"], kind: .string, toMany: true)],
        "FailedBankDetails": [Key(path: ["zip"], kind: .int), Key(path: ["closeDate"], kind: .date), Key(path: ["updateDate"], kind: .date),
                              Key(path: ["info"], kind: .object), Key(path: ["info", "name"], kind: .string),
                              Key(path: ["info", "city"], kind: .string), Key(path: ["info", "state"], kind: .string),
                              Key(path: ["tags"], kind: .object, toMany: true), Key(path: ["tags", "name"], kind: .string, toMany: true),
                              Key(path: ["tags", "bankdetails", "zip"], kind: .int, toMany: true)],
        "Tag": [Key(path: ["name"], kind: .string), Key(path: ["bankdetails"], kind: .object, toMany: true),
                Key(path: ["bankdetails", "zip"], kind: .int, toMany: true), Key(path: ["bankdetails", "closeDate"], kind: .date, toMany: true),
                Key(path: ["bankdetails", "info", "name"], kind: .string, toMany: true),
                Key(path: ["bankdetails", "info", "state"], kind: .string, toMany: true)],
    ]

    static let strings: [String] = [
        "", "a", "A", "b", "bank", "Bank", "BANK", "ban", "nk", "Zoë", "zoe", "ZOË", "straße", "STRASSE", "ss", "Café", "cafe",
        "İstanbul", "istanbul", "i", "ǆ", "Ǆemal", "日本語", "🏦", "q", "q\u{301}", "crisis", "Crisis", "2008", "big", "100% done", "_",
        "x'); DROP TABLE ZTASK; --", "file2", "file10", "File1", "Signature Bank", "CA", "ca", "zz", "ZZ", "Almena", "Zürich", "zurich",
        "ﬁ", "fi", "New York", "s", "e", "ë", "\r", "\n", "line\r\nbreak", "a*b?c", "back\\slash",
        "Zoe\u{308}", "Cafe\u{301}", "e\u{301}",  // canonically equivalent to strings above, other bytes
    ]
    static let likePatterns: [String] = [
        "*", "?", "??", "b*", "*ank*", "*BANK*", "Z?ë", "z?e", "100% done", "100*", "*_*", "a\\*b\\?c", "?????", "*a?", "C*", "*isis",
        "\\*", "日*", "*ë*", "*\\\\*", "*e", "i*", "*\n*",
    ]
    static let patterns: [String] = [
        ".*", "b.*", ".*ank.*", "[A-Z].*", ".*ë", "Z..", "(", "a|b", "[0-9]+", ".*\\d.*", "(?i)crisis", "Crisis|2008", "[[:alpha:]]+", "",
    ]
    static let integers: [Int64] = [0, 1, -1, 2, 3, 5, 8001, 10022, 50000, 95054, 12345, Int64(Int32.max), Int64(Int32.min), .max, .min]
    static let doubles: [Double] = [2.5, -0.0, 0.5, 1e300, -1e300, .infinity, -.infinity, .nan, 10022.0, 50000.5, 3.0]
    static let days: [Double] = [-1000, -5, -1, 0, 1, 8, 9, 10, 12, 15, 30, 60, 61, 200, 1000]

    var strings: [String] { Self.strings }

    /// Whether the comparison pits an attribute against a constant of a kind it never compares
    /// with, by the grammar's own kinds: numbers, Booleans and dates compare with one another (but
    /// a date not with a Boolean), strings with strings, nil with anything; an array is never one
    /// value; CONTAINS, BEGINSWITH, ENDSWITH, LIKE and MATCHES need text on both sides (IN one value
    /// is refused as such, whatever its kind).
    static func mixesKinds(_ comparison: PredicateComparison, _ entity: String) -> Bool {
        if comparison.modifier != .direct, case .constant(.array(let elements)) = comparison.left {
            return elements.contains { mixesKinds(PredicateComparison(.constant($0), comparison.op, comparison.right), entity) }
        }
        func attribute(_ expression: FetchExpression) -> Key? {
            guard case .keyPath(let path) = expression, let key = keys[entity]?.first(where: { $0.path == path }) else { return nil }
            return key.kind == .object ? nil : key
        }
        // A to-one relationship holds the destination's key: only nil and integers compare with it.
        func toOne(_ expression: FetchExpression) -> Bool {
            guard case .keyPath(let path) = expression, let key = keys[entity]?.first(where: { $0.path == path }) else { return false }
            return key.kind == .object && !key.toMany && !path.isEmpty
        }
        func notAKey(_ value: PredicateConstant) -> Bool {
            switch value {
            case .null, .int: false
            case .array(let elements): elements.contains { element in
                switch element {
                case .null, .int: false
                default: true
                }
            }
            default: true
            }
        }
        if toOne(comparison.left), case .constant(let constant) = comparison.right { return notAKey(constant) }
        if toOne(comparison.right), case .constant(let constant) = comparison.left { return notAKey(constant) }
        let key: Key, value: PredicateConstant, keyOnLeft: Bool
        if let found = attribute(comparison.left), case .constant(let constant) = comparison.right {
            (key, value, keyOnLeft) = (found, constant, true)
        } else if let found = attribute(comparison.right), case .constant(let constant) = comparison.left {
            (key, value, keyOnLeft) = (found, constant, false)
        } else {
            return false
        }
        func foreign(_ value: PredicateConstant) -> Bool {
            switch value {
            case .null: false
            case .int, .double: key.kind == .string
            case .bool: key.kind == .string || key.kind == .date
            case .date: key.kind == .string || key.kind == .bool
            case .string: key.kind != .string
            case .array, .uuid, .data: true
            }
        }
        func notText(_ value: PredicateConstant) -> Bool {
            if key.kind != .string { return true }
            switch value {
            case .null, .string: return false
            default: return true
            }
        }
        func elements(_ value: PredicateConstant) -> [PredicateConstant]? {
            if case .array(let elements) = value { elements } else { nil }
        }
        switch comparison.op {
        case .equalTo, .notEqualTo, .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo:
            return foreign(value)
        case .between:
            return keyOnLeft && (elements(value)?.contains(where: foreign) ?? false)
        case .in where keyOnLeft:
            return elements(value)?.contains(where: foreign) ?? false
        case .in:
            return key.toMany && foreign(value)
        case .contains where keyOnLeft:
            return key.toMany && comparison.modifier == .direct ? foreign(value) : notText(value)
        case .contains:
            return elements(value)?.contains(where: foreign) ?? notText(value)
        case .beginsWith, .endsWith, .like, .matches:
            return notText(value)
        }
    }

    func constant(_ kind: Kind, using generator: inout SeededGenerator) -> PredicateConstant {
        switch kind {
        case .string: .string(Self.strings.randomElement(using: &generator)!)
        case .int, .object:
            Bool.random(using: &generator) ? .int(Self.integers.randomElement(using: &generator)!)
                : .int(Int64.random(in: 0...12, using: &generator))
        case .date: .date(SQLTestStore.day(Self.days.randomElement(using: &generator)!))
        case .bool: .bool(Bool.random(using: &generator))
        }
    }

    /// A value mostly of `kind`, sometimes of any kind (nil, a double, an array, a UUID…).
    func value(near kind: Kind, using generator: inout SeededGenerator) -> PredicateConstant {
        switch Int.random(in: 0..<20, using: &generator) {
        case 0: return .null
        case 1: return .double(Self.doubles.randomElement(using: &generator)!)
        case 2: return constant([Kind.string, .int, .date, .bool].randomElement(using: &generator)!, using: &generator)
        case 3: return [.uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!), .data(Data([1, 2, 3])), .array([])].randomElement(using: &generator)!
        default: return constant(kind, using: &generator)
        }
    }

    func array(near kind: Kind, using generator: inout SeededGenerator) -> PredicateConstant {
        .array((0..<Int.random(in: 0...3, using: &generator)).map { _ in value(near: kind, using: &generator) })
    }

    func options(using generator: inout SeededGenerator) -> ComparisonOptions {
        [[], [], .caseInsensitive, .diacriticInsensitive, [.caseInsensitive, .diacriticInsensitive], .normalized].randomElement(using: &generator)!
    }

    /// The right side of `op` for a left side of `kind`.
    func right(for op: ComparisonOperator, kind: Kind, using generator: inout SeededGenerator) -> PredicateConstant {
        switch op {
        case .like where Int.random(in: 0..<5, using: &generator) > 0:
            return .string(Self.likePatterns.randomElement(using: &generator)!)
        case .matches where Int.random(in: 0..<5, using: &generator) > 0:
            return .string(Self.patterns.randomElement(using: &generator)!)
        case .in where Int.random(in: 0..<4, using: &generator) > 0:
            return array(near: kind, using: &generator)
        case .between:
            let count = Int.random(in: 0..<8, using: &generator) == 0 ? [1, 3].randomElement(using: &generator)! : 2
            return .array((0..<count).map { _ in value(near: kind, using: &generator) })
        default:
            return value(near: kind, using: &generator)
        }
    }

    mutating func predicate(for entity: String, depth: Int, using generator: inout SeededGenerator) -> FetchPredicate {
        let roll = Int.random(in: 0..<10, using: &generator)
        if depth == 0 || roll < 5 { return leaf(for: entity, using: &generator) }
        let count = Int.random(in: 2...3, using: &generator)
        switch roll {
        case 5, 6: return .and((0..<count).map { _ in predicate(for: entity, depth: depth - 1, using: &generator) })
        case 7, 8: return .or((0..<count).map { _ in predicate(for: entity, depth: depth - 1, using: &generator) })
        default: return .not(predicate(for: entity, depth: depth - 1, using: &generator))
        }
    }

    func leaf(for entity: String, using generator: inout SeededGenerator) -> FetchPredicate {
        let keys = Self.keys[entity]!
        let key = keys.randomElement(using: &generator)!
        let options = self.options(using: &generator)
        let path: FetchExpression = key.path.isEmpty ? .evaluatedObject : .keyPath(key.path)
        if Int.random(in: 0..<40, using: &generator) == 0 {
            return Bool.random(using: &generator) ? .truePredicate : .falsePredicate
        }
        if key.toMany {
            switch Int.random(in: 0..<10, using: &generator) {
            case 0..<5:
                // ANY / ALL / NONE over the elements.
                let op = ComparisonOperator.allCases.randomElement(using: &generator)!
                let right = self.right(for: op, kind: key.kind, using: &generator)
                let modifier: ComparisonModifier = Bool.random(using: &generator) ? .any : .all
                let comparison = FetchPredicate.compare(path, op, .constant(right), options: options, modifier: modifier)
                return Int.random(in: 0..<4, using: &generator) == 0 ? .not(.compare(path, op, .constant(right), options: options, modifier: .any)) : comparison
            case 5..<8:
                // A collection operator.
                let collection = key.path
                var ops: [PredicateCollectionOperator] = [.count]
                if key.kind == .int { ops += [.sum, .avg, .min, .max] }
                if key.kind == .date || key.kind == .string { ops += [.min, .max] }
                let op = ops.randomElement(using: &generator)!
                let base: FetchExpression = op == .count ? .keyPath(collection) : .keyPath(Array(collection.dropLast()))
                let keyPath = op == .count ? [] : [collection.last!]
                let compared = ComparisonOperator.allCases.filter { $0 != .matches && $0 != .like }.randomElement(using: &generator)!
                let valueKind: Kind = op == .count || op == .sum || op == .avg ? .int : key.kind
                return .compare(.collectionOperator(op, of: base, keyPath: keyPath), compared,
                                .constant(right(for: compared, kind: valueKind, using: &generator)), options: options)
            default:
                // Membership.
                let value = self.value(near: key.kind, using: &generator)
                return Bool.random(using: &generator)
                    ? .compare(path, .contains, .constant(value), options: options)
                    : .compare(.constant(value), .in, path, options: options)
            }
        }
        // Key against key, sometimes.
        if Int.random(in: 0..<8, using: &generator) == 0 {
            let other = keys.filter { !$0.toMany }.randomElement(using: &generator)!
            let op = ComparisonOperator.allCases.filter { $0 != .between }.randomElement(using: &generator)!
            let otherPath: FetchExpression = other.path.isEmpty ? .evaluatedObject : .keyPath(other.path)
            return .compare(path, op, otherPath, options: options)
        }
        let op = ComparisonOperator.allCases.randomElement(using: &generator)!
        let right = self.right(for: op, kind: key.kind, using: &generator)
        // The constant on the left, sometimes (a different predicate, evaluated the same both ways).
        if Int.random(in: 0..<6, using: &generator) == 0 {
            return .compare(.constant(right), op, path, options: options)
        }
        return .compare(path, op, .constant(right), options: options)
    }
}
