import Foundation
import Testing
@testable import ManagedStore

@Suite("Predicates evaluate in memory")
struct PredicateEvaluationTests {
    static let ringoID = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!

    /// One object, by dotted key path; to-many paths hold collections.
    static let ringo: [String: PredicateValue] = [
        "SELF": "ringo-id",
        "name": "Ringo", "lastName": "Starr", "age": 20, "height": 1.73, "nickname": nil,
        "completed": false, "priority": 1, "task_description": "Go to the Bank",
        "city": "Zürich", "artist": "Zoë", "email": "ringo@example.com",
        "born": .scalar(.date(Date(timeIntervalSinceReferenceDate: 0))),
        "id": .scalar(.uuid(ringoID)),
        "photo": .scalar(.data(Data([1, 2, 3]))),
        "employees": [1, 2, 3],
        "employees.firstName": ["Matthew", "Ben", "Zoë"],
        "employees.age": [30, 40, 25],
        "employees.salary": [1000, 2000.5, nil],
        "tags": ["red", "green"],
        "reports": [],
        "reports.age": [],
        "starPattern": "a*b", "plain": "axb", "path": "100%_done",
    ]

    struct Case: Sendable, CustomStringConvertible {
        var input: PredicateFormatCase
        var expected: Bool
        init(_ format: String, _ arguments: PredicateArgument..., is expected: Bool) {
            self.input = PredicateFormatCase(format)
            self.input.arguments = arguments
            self.expected = expected
        }
        var description: String { "\(input) is \(expected)" }
    }

    static let equality: [Case] = [
        Case("name == 'Ringo'", is: true), Case("name == 'ringo'", is: false),
        Case("name ==[c] 'ringo'", is: true), Case("name = 'Ringo'", is: true),
        Case("name != 'Paul'", is: true), Case("name <> 'Ringo'", is: false),
        Case("name !=[c] 'RINGO'", is: false),
        Case("artist == 'Zoe'", is: false), Case("artist ==[d] 'Zoe'", is: true), Case("artist ==[cd] 'ZOE'", is: true),
        Case("artist == 'Zoe\u{308}'", is: false),  // canonically equivalent, other bytes: SQL's = says no too
        Case("artist ==[d] 'Zoe\u{308}'", is: true), Case("artist ==[cd] 'zoe\u{308}'", is: true),
        Case("age == 20", is: true), Case("age == 20.0", is: true), Case("age == 20.000001", is: false),
        Case("age == %@", 20, is: true), Case("age == %@", "20", is: false),
        Case("height == 1.73", is: true), Case("height == 2", is: false),
        Case("completed == NO", is: true), Case("completed == FALSE", is: true), Case("completed == 0", is: true),
        Case("completed == YES", is: false), Case("completed != TRUE", is: true), Case("completed == %@", false, is: true),
        Case("priority == 1", is: true), Case("priority == %@", 1, is: true), Case("priority == %@", 5, is: false),
        Case("priority == YES", is: true),  // Booleans compare as 0 and 1
        Case("nickname == nil", is: true), Case("nickname == NULL", is: true), Case("missing == nil", is: true),
        Case("name == nil", is: false), Case("nickname != nil", is: false), Case("name != nil", is: true),
        Case("nickname != 'x'", is: true), Case("nickname == 'x'", is: false), Case("nil == nickname", is: true),
        Case("born == CAST(0, \"NSDate\")", is: true), Case("born == %@", .date(Date(timeIntervalSinceReferenceDate: 1)), is: false),
        Case("born == 0", is: true),  // a date against seconds since 2001
        Case("born == NO", is: false),
        Case("id == %@", .uuid(ringoID), is: true), Case("id == %@", .uuid(UUID()), is: false),
        Case("id == %@", .string(ringoID.uuidString), is: false),
        Case("photo == %@", .data(Data([1, 2, 3])), is: true), Case("photo == %@", .data(Data()), is: false),
        Case("SELF == %@", "ringo-id", is: true), Case("SELF == 'paul-id'", is: false),
        Case("tags == {'red', 'green'}", is: true), Case("tags == {'green', 'red'}", is: false),
        Case("employees.firstName == 'Ben'", is: false),  // a to-many path without ANY is one array
    ]

    static let ordering: [Case] = [
        Case("age < 21", is: true), Case("age < 20", is: false), Case("age <= 20", is: true), Case("age =< 19", is: false),
        Case("age > 19", is: true), Case("age > 20", is: false), Case("age >= 20", is: true), Case("age => 21", is: false),
        Case("40 > age", is: true), Case("10 > age", is: false), Case("20 >= age", is: true),
        Case("age < 20.5", is: true), Case("age > 19.999", is: true), Case("age < 19.999", is: false),
        Case("height > 1", is: true), Case("height < 1", is: false), Case("9223372036854775807 < 1e19", is: true),
        Case("-9223372036854775808 > -1e19", is: true), Case("9007199254740993 > 9007199254740992.0", is: true),
        Case("name < 'Ringp'", is: true), Case("name < 'Paul'", is: false), Case("name > 'Paul'", is: true),
        Case("'Apple' < 'apple'", is: true), Case("'apple' < 'Apple'", is: false), Case("'apple' <[c] 'APPLE'", is: false),
        Case("name >[c] 'ringa'", is: true), Case("name > 'ringa'", is: false),
        Case("born < CAST(1, \"NSDate\")", is: true), Case("born > CAST(-1.5, \"NSDate\")", is: true),
        Case("born < %@", .date(Date(timeIntervalSinceReferenceDate: -10)), is: false),
        Case("nickname < 5", is: false), Case("nickname > 5", is: false), Case("nickname >= nil", is: false),
        Case("name < 5", is: false), Case("name > 5", is: false),
    ]

    static let between: [Case] = [
        Case("age BETWEEN {18, 21}", is: true), Case("age BETWEEN {20, 20}", is: true),
        Case("age BETWEEN {21, 30}", is: false), Case("age BETWEEN {1, 19}", is: false),
        Case("age between %@", [1, 19], is: false), Case("age BETWEEN %@", [19.5, 20.5], is: true),
        Case("name BETWEEN {'A', 'Z'}", is: true), Case("name BETWEEN {'a', 'z'}", is: false),
        Case("name BETWEEN[c] {'a', 'z'}", is: true),
        Case("height BETWEEN {1.5, 2}", is: true), Case("nickname BETWEEN {1, 2}", is: false),
        Case("born BETWEEN {CAST(-1, \"NSDate\"), CAST(1, \"NSDate\")}", is: true),
        Case("age BETWEEN {priority, 21}", is: true), Case("age BETWEEN {priority, 19}", is: false),
    ]

    static let membership: [Case] = [
        Case("name IN {'Ben', 'Melissa', 'Nick'}", is: false), Case("name IN {'Ben', 'Ringo'}", is: true),
        Case("name IN[c] {'ringo'}", is: true), Case("name IN {'ringo'}", is: false),
        Case("age IN %@", [19, 20], is: true), Case("age IN %@", [19.0, 20.0], is: true), Case("age IN {}", is: false),
        Case("name CONTAINS 'ing'", is: true), Case("name CONTAINS 'ING'", is: false), Case("name CONTAINS[c] 'ING'", is: true),
        Case("'red' IN tags", is: true), Case("'blue' IN tags", is: false),
        Case("nickname IN {nil, 1}", is: true), Case("'Ringo' IN {name, lastName}", is: true),
        Case("'Paul' IN {name, lastName}", is: false), Case("SELF IN %@", ["paul-id", "ringo-id"], is: true),
        Case("tags CONTAINS 'green'", is: true), Case("tags CONTAINS 'blue'", is: false),
        Case("tags CONTAINS[c] 'GREEN'", is: true), Case("employees CONTAINS 2", is: true),
    ]

    static let strings: [Case] = [
        Case("task_description CONTAINS[cd] 'bank'", is: true), Case("task_description CONTAINS 'bank'", is: false),
        Case("task_description CONTAINS 'Bank'", is: true), Case("task_description CONTAINS[cd] 'laundry'", is: false),
        Case("artist CONTAINS[cd] 'zoe'", is: true), Case("artist CONTAINS[c] 'zoe'", is: false),
        Case("artist CONTAINS[d] 'Zoe'", is: true), Case("artist CONTAINS[d] 'zoe'", is: false),
        Case("artist CONTAINS 'Zo'", is: true), Case("name CONTAINS ''", is: false),
        Case("nickname CONTAINS 'a'", is: false), Case("age CONTAINS '2'", is: false),
        Case("name BEGINSWITH 'Rin'", is: true), Case("name BEGINSWITH 'rin'", is: false),
        Case("name BEGINSWITH[c] 'rin'", is: true), Case("city BEGINSWITH 'Zur'", is: false),
        Case("city BEGINSWITH[d] 'Zur'", is: true), Case("city BEGINSWITH[cd] 'zUR'", is: true),
        Case("city ENDSWITH 'rich'", is: true), Case("city ENDSWITH 'Rich'", is: false),
        Case("city ENDSWITH[c] 'RICH'", is: true), Case("name ENDSWITH 'Ringo!'", is: false),
    ]

    static let like: [Case] = [
        Case("name LIKE 'R*o'", is: true), Case("name LIKE 'R?ngo'", is: true), Case("name LIKE 'R?go'", is: false),
        Case("name LIKE 'Ringo'", is: true), Case("name LIKE 'ringo'", is: false), Case("name LIKE[c] 'ringo'", is: true),
        Case("name LIKE 'Ring'", is: false), Case("name LIKE '*'", is: true), Case("name LIKE ''", is: false),
        Case("name LIKE '*i*g*'", is: true), Case("name LIKE '*x*'", is: false), Case("name LIKE '?????'", is: true),
        Case("name LIKE 'R%'", is: false), Case("name LIKE 'R_ngo'", is: false),  // % and _ are literal
        Case("path LIKE '100%_done'", is: true), Case("path LIKE '100*'", is: true),
        Case("starPattern LIKE 'a\\*b'", is: true), Case("plain LIKE 'a\\*b'", is: false),
        Case("plain LIKE 'a*b'", is: true), Case("starPattern LIKE 'a\\?b'", is: false),
        Case("artist LIKE[cd] 'zo?'", is: true), Case("artist LIKE 'Zo?'", is: true), Case("artist LIKE 'Zo'", is: false),
        Case("nickname LIKE '*'", is: false),
        Case("task_description LIKE[cd] '*bank*'", is: true), Case("task_description LIKE '*bank*'", is: false),
    ]

    static let matches: [Case] = [
        Case("email MATCHES '[a-z]+@example\\.com'", is: true), Case("email MATCHES 'ringo'", is: false),
        Case("email MATCHES '.*ringo.*'", is: true), Case("email MATCHES 'example.*'", is: false),
        Case("name MATCHES 'ringo'", is: false), Case("name MATCHES[c] 'ringo'", is: true),
        Case("artist MATCHES 'Zoe'", is: false), Case("artist MATCHES[d] 'Zoe'", is: true),
        Case("name MATCHES 'R|Ringo'", is: true), Case("name MATCHES 'Ring'", is: false),
        Case("age MATCHES '20'", is: false), Case("nickname MATCHES '.*'", is: false),
        Case("name MATCHES %@", "R\\w+", is: true),
    ]

    static let modifiers: [Case] = [
        Case("ANY employees.firstName == 'Ben'", is: true), Case("ANY employees.firstName == 'Paul'", is: false),
        Case("ANY employees.firstName like 'Matthew'", is: true), Case("ANY employees.firstName like 'Matt'", is: false),
        Case("SOME employees.firstName BEGINSWITH 'Z'", is: true), Case("ANY employees.firstName ==[cd] 'zoe'", is: true),
        Case("ALL employees.age > 20", is: true), Case("ALL employees.age > 25", is: false),
        Case("NONE employees.age > 50", is: true), Case("NONE employees.age > 35", is: false),
        Case("ANY reports.age == 1", is: false), Case("ALL reports.age == 1", is: true), Case("NONE reports.age == 1", is: true),
        Case("ANY employees.age IN {40, 50}", is: true), Case("ALL employees.age IN {40, 50}", is: false),
        Case("ANY employees.age BETWEEN {26, 35}", is: true), Case("ALL employees.age BETWEEN {26, 35}", is: false),
        Case("ANY nickname == 1", is: false), Case("ALL nickname == 1", is: true),  // nil has no elements
        Case("ANY {1, 20} == age", is: true), Case("ALL {1, 20} == age", is: false),
        Case("ANY employees.salary == nil", is: true), Case("ALL employees.salary != nil", is: false),
    ]

    static let collectionOperators: [Case] = [
        Case("employees.@count == 3", is: true), Case("employees.@count > 3", is: false),
        Case("reports.@count == 0", is: true), Case("tags.@count == 2", is: true),
        Case("employees.@sum.age == 95", is: true), Case("employees.@sum.age == 95.0", is: true),
        Case("employees.@avg.age > 31.6", is: true), Case("employees.@avg.age < 31.7", is: true),
        Case("employees.@min.age == 25", is: true), Case("employees.@max.age == 40", is: true),
        Case("employees.@max.firstName == 'Zoë'", is: true), Case("employees.@min.firstName == 'Ben'", is: true),
        Case("employees.@sum.salary == 3000.5", is: true), Case("employees.@avg.salary == 1500.25", is: true),
        Case("reports.@sum.age == 0", is: true), Case("reports.@avg.age == nil", is: true),
        Case("reports.@max.age == nil", is: true), Case("{1, 2, 3}.@sum == 6", is: true),
        Case("{1, 2.5}.@sum == 3.5", is: true), Case("{3, 1, 2}.@min == 1", is: true), Case("{}.@count == 0", is: true),
        Case("3 < employees.@count", is: false),
    ]

    static let compounds: [Case] = [
        Case("name == 'Ringo' AND age == 20", is: true), Case("name == 'Ringo' AND age == 21", is: false),
        Case("name == 'Paul' OR age == 20", is: true), Case("name == 'Paul' || age == 21", is: false),
        Case("NOT name == 'Paul'", is: true), Case("!(name == 'Ringo')", is: false),
        Case("TRUEPREDICATE", is: true), Case("FALSEPREDICATE", is: false),
        Case("TRUEPREDICATE AND FALSEPREDICATE", is: false), Case("TRUEPREDICATE OR FALSEPREDICATE", is: true),
        Case("name == 'Paul' AND age == 20 OR age == 20", is: true),
        Case("name == 'Paul' AND (age == 1 OR age == 20)", is: false),
        Case("NOT name == 'Paul' AND age == 1", is: false), Case("NOT (name == 'Paul' AND age == 1)", is: true),
    ]

    @Test(arguments: equality + ordering + between + membership)
    func comparisons(_ test: Case) throws {
        #expect(try test.input.parse().evaluate(with: Self.ringo) == test.expected)
    }

    @Test(arguments: strings + like + matches)
    func stringOperators(_ test: Case) throws {
        #expect(try test.input.parse().evaluate(with: Self.ringo) == test.expected)
    }

    @Test(arguments: modifiers + collectionOperators + compounds)
    func toManyAndCompounds(_ test: Case) throws {
        #expect(try test.input.parse().evaluate(with: Self.ringo) == test.expected)
    }

    /// The tasks of the seed document's walkthrough, and the results it shows
    /// for `get_tasks` with each filter.
    @Test func seedDocumentWalkthrough() throws {
        let tasks: [[String: PredicateValue]] = [
            ["task_description": "Go to the bank", "priority": 5, "completed": false],
            ["task_description": "Complete tax return", "priority": 1, "completed": true],
            ["task_description": "Go to the supermarket", "priority": 5, "completed": false],
            ["task_description": "Do the laundry", "priority": 5, "completed": false],
        ]
        func getTasks(priority: Int? = nil, completed: Bool? = nil, description: String? = nil) throws -> [String] {
            var predicates: [FetchPredicate] = []
            if let completed { predicates.append(try FetchPredicate(format: "completed == %@", .bool(completed))) }
            if let priority { predicates.append(try FetchPredicate(format: "priority == %@", .int(priority))) }
            if let description {
                predicates.append(try FetchPredicate(format: "task_description CONTAINS[cd] %@", .string(description)))
            }
            let predicate = FetchPredicate.and(predicates)
            return try tasks.filter { try predicate.evaluate(with: $0) }.map {
                guard case .scalar(.string(let text)) = $0["task_description"] else { return "" }
                return text
            }
        }
        #expect(try getTasks().count == 4)
        #expect(try getTasks(priority: 1) == ["Complete tax return"])
        #expect(try getTasks(priority: 1, completed: false) == [])
        #expect(try getTasks(priority: 1, completed: true) == ["Complete tax return"])
        #expect(try getTasks(priority: 5).count == 3)
        #expect(try getTasks(priority: 5, description: "supermarket") == ["Go to the supermarket"])
        #expect(try getTasks(description: "BANK") == ["Go to the bank"])
    }

    @Test func resolverIsAskedForKeyPathsFromTheObject() throws {
        let predicate = try FetchPredicate(
            format: "employees.@sum.salary > 0 AND SELF != nil AND employees.@count > 0 AND ANY department.name == 'x'")
        var asked: [[String]] = []
        _ = try predicate.evaluate { keyPath in
            asked.append(keyPath)
            return keyPath == ["department", "name"] ? ["x"] : [1]
        }
        #expect(asked == [["employees", "salary"], [], ["employees"], ["department", "name"]])
    }

    @Test func andOrShortCircuit() throws {
        var asked: [[String]] = []
        let predicate = try FetchPredicate(format: "a == 1 AND b == 1 OR c == 1")
        #expect(try predicate.evaluate { asked.append($0); return 2 } == false)
        #expect(asked == [["a"], ["c"]])
    }

    @Test func subqueryIsNotSupportedInMemory() throws {
        let predicate = try FetchPredicate(format: "SUBQUERY(employees, $e, $e.age > 30).@count > 0")
        #expect(throws: PredicateEvaluationError.unsupported("SUBQUERY")) {
            try predicate.evaluate(with: Self.ringo)
        }
    }

    @Test func variablesMustBeSubstitutedFirst() throws {
        let template = try FetchPredicate(format: "born > $DATE")
        #expect(throws: PredicateEvaluationError.unboundVariable("DATE")) {
            try template.evaluate(with: Self.ringo)
        }
        let past = Date(timeIntervalSinceReferenceDate: -100)
        #expect(try template.substituting(["DATE": .date(past)]).evaluate(with: Self.ringo))
        #expect(try !template.substituting(["DATE": .date(Date())]).evaluate(with: Self.ringo))
        let range = try FetchPredicate(format: "age BETWEEN $RANGE").substituting(["RANGE": [18, 21]])
        #expect(try range.evaluate(with: Self.ringo))
    }

    @Test func invalidOperandsThrow() throws {
        #expect(throws: PredicateEvaluationError.invalidRegularExpression("(")) {
            try FetchPredicate(format: "name MATCHES '('").evaluate(with: Self.ringo)
        }
        #expect(throws: PredicateEvaluationError.self) {
            try FetchPredicate(format: "name.@count == 1").evaluate(with: Self.ringo)
        }
        #expect(throws: PredicateEvaluationError.self) {
            try FetchPredicate(format: "tags.@sum == 1").evaluate(with: Self.ringo)
        }
        let between = FetchPredicate.compare(.key("age"), .between, .constant(5))
        #expect(throws: PredicateEvaluationError.self) { try between.evaluate(with: Self.ringo) }
    }

    /// The message each of `formats` fails with on Ringo; an expectation fails for one that does not fail.
    static func refusals(_ formats: [String]) -> [String] {
        formats.map { format in
            let error = #expect(throws: PredicateEvaluationError.self, "\(format)") {
                try FetchPredicate(format: format).evaluate(with: ringo)
            }
            return error.map { "\($0)" } ?? ""
        }
    }

    @Test func modifiersNeedACollection() throws {
        // NSPredicate: "The left hand side for an ALL or ANY operator must be either an NSArray or an NSSet."
        let messages = Self.refusals(["ANY age == 3", "ANY name == 'Ringo'", "ALL age > 3", "NONE age > 3", "ANY SELF == 'ringo-id'"])
        #expect(messages[0].contains("ANY, ALL and NONE need a collection on the left"))
        #expect(messages[0].contains("'age' is the single value 20"))
    }

    @Test func inNeedsACollection() throws {
        let messages = Self.refusals(["age IN 3", "age IN 20.0", "name IN YES", "age IN age", "'in' IN name", "'' IN name", "name IN 'Ringo'"])
        #expect(messages[0].contains("IN needs a collection on the right"))
        #expect(messages[0].contains("use == to compare with one value"))
        // A string is one value: CONTAINS, with the text on its left, tests for a part of it.
        #expect(messages[4].contains("use == to compare with one value, or, when the left side is text, CONTAINS with the text on its left"), "\(messages[4])")
        #expect(messages[4].contains("for numbers, list them: IN {1, 2}"), "\(messages[4])")
        #expect(try FetchPredicate(format: "name CONTAINS 'in'").evaluate(with: Self.ringo))
        #expect(try !FetchPredicate(format: "age IN nickname").evaluate(with: Self.ringo), "nil holds nothing")
    }

    @Test func resolverErrorsPassThrough() throws {
        struct Faulted: Error, Equatable {}
        #expect(throws: Faulted()) {
            try FetchPredicate(format: "name == 'x'").evaluate { _ in throw Faulted() }
        }
    }

    @Test func emptyCompoundsFollowFoundation() throws {
        #expect(try FetchPredicate.and([]).evaluate(with: [:]))
        #expect(try !FetchPredicate.or([]).evaluate(with: [:]))
    }
}

@Suite("Single comparisons of constants, for SQLite functions")
struct PredicateConstantComparisonTests {
    @Test func operatorsEvaluateConstants() throws {
        let both: ComparisonOptions = [.caseInsensitive, .diacriticInsensitive]
        #expect(try ComparisonOperator.contains.evaluate("Zoë", "zoe", options: both))
        #expect(try !ComparisonOperator.contains.evaluate("Zoë", "zoe"))
        #expect(try ComparisonOperator.like.evaluate("100%", "100%"))
        #expect(try !ComparisonOperator.like.evaluate("100x", "100%"))
        #expect(try ComparisonOperator.lessThan.evaluate(1, 1.5))
        #expect(try ComparisonOperator.between.evaluate(5, [1, 10]))
        #expect(throws: PredicateEvaluationError.self) { try ComparisonOperator.between.evaluate(5, 1) }
        #expect(both.fold("Zürich") == "zurich")
        #expect(ComparisonOptions().fold("Zürich") == "Zürich")
    }
}

extension PredicateEvaluationTests {
    /// MATCHES takes ICU's regular expression rules, as NSPredicate's does: `[c]` is the
    /// expression's case-insensitive flag, without canonical equivalence, unlike `==[c]`.
    @Test func matchesFollowsICUNotCharacterComparison() throws {
        let decomposed = "Zoe\u{308}"
        func holds(_ format: String) throws -> Bool { try FetchPredicate(format: format, arguments: [.string(decomposed)]).evaluate(with: [:]) }
        #expect(try holds("%@ ==[c] 'zoë'"))
        #expect(try !holds("%@ MATCHES[c] 'Zoë'"))
        #expect(try !holds("%@ MATCHES[c] 'zoë'"))
        #expect(try holds("%@ MATCHES[cd] 'zoe'"))
        #expect(try holds("%@ MATCHES[c] 'zoe.'"), "'.' is one scalar: the combining mark")
    }
}
