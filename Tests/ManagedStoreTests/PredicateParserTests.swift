import Foundation
import Testing
@testable import ManagedStore

@Suite("Predicate format strings parse to trees")
struct PredicateParserTests {
    // MARK: - The seed document's filters

    /// The tasks tutorial builds these with `NSPredicate.predicateWithFormat`,
    /// passing an NSNumber Boolean, an NSNumber integer and a string.
    @Test func seedDocumentFilters() throws {
        let completed = try FetchPredicate(format: "completed == %@", false)
        #expect(completed == FetchPredicate.compare(.keyPath(["completed"]), .equalTo, .constant(.bool(false))))

        let priority = try FetchPredicate(format: "priority == %@", 1)
        #expect(priority == FetchPredicate.compare(.keyPath(["priority"]), .equalTo, .constant(.int(1))))

        let search = try FetchPredicate(format: "task_description CONTAINS[cd] %@", "supermarket")
        #expect(search == FetchPredicate.compare(
            .keyPath(["task_description"]), .contains, .constant("supermarket"),
            options: [.caseInsensitive, .diacriticInsensitive]))

        // NSCompoundPredicate.andPredicateWithSubpredicates
        #expect(.and([completed, priority]) == (completed && priority))
        #expect(try FetchPredicate(format: "completed == %@ AND priority == %@", false, 1) == (completed && priority))
    }

    @Test func literalFiltersOfTheSeedDocument() throws {
        #expect(try FetchPredicate(format: "priority == 1")
            == FetchPredicate.compare(.keyPath(["priority"]), .equalTo, .constant(1)))
        #expect(try FetchPredicate(format: "completed == NO")
            == FetchPredicate.compare(.keyPath(["completed"]), .equalTo, .constant(false)))
        #expect(try FetchPredicate(format: "task_description CONTAINS[cd] 'bank'")
            == FetchPredicate.compare(.keyPath(["task_description"]), .contains, .constant("bank"),
                          options: [.caseInsensitive, .diacriticInsensitive]))
        // "We could also have written the predicate using LIKE and with wildcard *"
        #expect(try FetchPredicate(format: "task_description LIKE[cd] '*bank*'")
            == FetchPredicate.compare(.keyPath(["task_description"]), .like, .constant("*bank*"),
                          options: [.caseInsensitive, .diacriticInsensitive]))
    }

    // MARK: - Apple's Predicate Format String Syntax examples

    static let appleExamples: [(PredicateFormatCase, FetchPredicate)] = [
        (PredicateFormatCase("name == 'Ringo'"),
         FetchPredicate.compare(.keyPath(["name"]), .equalTo, .constant("Ringo"))),
        (PredicateFormatCase("age BETWEEN {18, 21}"),
         FetchPredicate.compare(.keyPath(["age"]), .between, .constant([18, 21]))),
        (PredicateFormatCase("name IN {'Ben', 'Melissa', 'Nick'}"),
         FetchPredicate.compare(.keyPath(["name"]), .in, .constant(["Ben", "Melissa", "Nick"]))),
        (PredicateFormatCase("ANY employees.firstName like 'Matthew'"),
         FetchPredicate.compare(.keyPath(["employees", "firstName"]), .like, .constant("Matthew"), modifier: .any)),
        (PredicateFormatCase("%K like %@", "lastName", "Smith*"),
         FetchPredicate.compare(.keyPath(["lastName"]), .like, .constant("Smith*"))),
        (PredicateFormatCase("name == '%@'"),
         FetchPredicate.compare(.keyPath(["name"]), .equalTo, .constant("%@"))),
        (PredicateFormatCase("SELF == %@", "ringo"),
         FetchPredicate.compare(.evaluatedObject, .equalTo, .constant("ringo"))),
        (PredicateFormatCase("date > $DATE"),
         FetchPredicate.compare(.keyPath(["date"]), .greaterThan, .variable("DATE"))),
        (PredicateFormatCase("40 > age"),
         FetchPredicate.compare(.constant(40), .greaterThan, .keyPath(["age"]))),
        (PredicateFormatCase("SELF IN %@", ["a", "b"]),
         FetchPredicate.compare(.evaluatedObject, .in, .constant(["a", "b"]))),
        (PredicateFormatCase("grade IN %@", .array([7, 8])),
         FetchPredicate.compare(.keyPath(["grade"]), .in, .constant([7, 8]))),
        (PredicateFormatCase("ALL children.age > 12"),
         FetchPredicate.compare(.keyPath(["children", "age"]), .greaterThan, .constant(12), modifier: .all)),
        (PredicateFormatCase("NONE children.age > 12"),
         .not(FetchPredicate.compare(.keyPath(["children", "age"]), .greaterThan, .constant(12), modifier: .any))),
        (PredicateFormatCase("firstName BEGINSWITH[cd] 'm' AND lastName ENDSWITH 'son'"),
         .and([
            FetchPredicate.compare(.keyPath(["firstName"]), .beginsWith, .constant("m"),
                       options: [.caseInsensitive, .diacriticInsensitive]),
            FetchPredicate.compare(.keyPath(["lastName"]), .endsWith, .constant("son")),
         ])),
        (PredicateFormatCase("phone MATCHES '\\\\d{3}-\\\\d{4}'"),
         FetchPredicate.compare(.keyPath(["phone"]), .matches, .constant("\\d{3}-\\d{4}"))),
    ]

    @Test(arguments: appleExamples)
    func appleExample(_ input: PredicateFormatCase, _ expected: FetchPredicate) throws {
        #expect(try input.parse() == expected)
    }

    @Test func subqueryExample() throws {
        let predicate = try FetchPredicate(
            format: #"SUBQUERY(residents, $x, $x.firstname == "Jane" && $x.lastname == "Doe").@count != 0"#)
        let subquery = FetchExpression.subquery(
            collection: .keyPath(["residents"]),
            variable: "x",
            predicate: .and([
                FetchPredicate.compare(.variable("x", keyPath: ["firstname"]), .equalTo, .constant("Jane")),
                FetchPredicate.compare(.variable("x", keyPath: ["lastname"]), .equalTo, .constant("Doe")),
            ]))
        #expect(predicate == FetchPredicate.compare(.collectionOperator(.count, of: subquery), .notEqualTo, .constant(0)))
        #expect(predicate.variableNames.isEmpty)

        let bare = try FetchPredicate(format: "SUBQUERY(employees, $e, $e.age > 30) != nil")
        #expect(bare == FetchPredicate.compare(
            .subquery(collection: .keyPath(["employees"]), variable: "e",
                      predicate: FetchPredicate.compare(.variable("e", keyPath: ["age"]), .greaterThan, .constant(30))),
            .notEqualTo, .constant(nil)))
        let compared = try FetchPredicate(format: "2 < SUBQUERY(employees, $e, $e.age > 30).@count")
        guard case .comparison(let parts) = compared else { Issue.record("not a comparison"); return }
        #expect(parts.left == .constant(2))
        #expect(parts.op == .lessThan)
    }

    @Test func variablesAreSubstitutedLater() throws {
        let template = try FetchPredicate(format: "date > $DATE AND owner == $USER AND SUBQUERY(tasks, $t, $t.done == NO).@count > 0")
        #expect(template.variableNames == ["DATE", "USER"])
        let now = Date(timeIntervalSinceReferenceDate: 1000)
        let predicate = template.substituting(["DATE": .date(now), "USER": .keyPath("manager.name"), "t": 5])
        #expect(predicate.variableNames.isEmpty)
        guard case .and(let parts) = predicate else { Issue.record("not AND"); return }
        #expect(parts[0] == FetchPredicate.compare(.keyPath(["date"]), .greaterThan, .constant(.date(now))))
        #expect(parts[1] == FetchPredicate.compare(.keyPath(["owner"]), .equalTo, .keyPath(["manager", "name"])))
        // $t is bound by the SUBQUERY, so it stays.
        #expect(parts[2] == (try FetchPredicate(format: "SUBQUERY(tasks, $t, $t.done == NO).@count > 0")))

        let range = try FetchPredicate(format: "age BETWEEN {$LOW, $HIGH}").substituting(["LOW": 18, "HIGH": 21])
        #expect(range == FetchPredicate.compare(.keyPath(["age"]), .between, .constant([18, 21])))
    }

    // MARK: - Operators, options, modifiers

    static let operatorSpellings: [(String, ComparisonOperator)] = [
        ("==", .equalTo), ("=", .equalTo), ("!=", .notEqualTo), ("<>", .notEqualTo),
        ("<", .lessThan), ("<=", .lessThanOrEqualTo), ("=<", .lessThanOrEqualTo),
        (">", .greaterThan), (">=", .greaterThanOrEqualTo), ("=>", .greaterThanOrEqualTo),
        ("MATCHES", .matches), ("matches", .matches), ("LIKE", .like), ("Like", .like),
        ("BEGINSWITH", .beginsWith), ("beginswith", .beginsWith), ("ENDSWITH", .endsWith),
        ("endsWith", .endsWith), ("IN", .in), ("in", .in), ("CONTAINS", .contains),
        ("contains", .contains),
    ]

    @Test(arguments: operatorSpellings)
    func operatorSpelling(_ spelling: String, _ op: ComparisonOperator) throws {
        #expect(try FetchPredicate(format: "value \(spelling) 'x'") == FetchPredicate.compare(.keyPath(["value"]), op, .constant("x")))
        if !spelling.first!.isLetter {
            #expect(try FetchPredicate(format: "value\(spelling)'x'") == FetchPredicate.compare(.keyPath(["value"]), op, .constant("x")))
        }
    }

    @Test func betweenSpelledInAnyCase() throws {
        #expect(try FetchPredicate(format: "age between {1, 2}") == FetchPredicate(format: "age BETWEEN {1, 2}"))
        #expect(try FetchPredicate(format: "age BETWEEN %@", [1, 2])
            == FetchPredicate.compare(.keyPath(["age"]), .between, .constant([1, 2])))
        #expect(try FetchPredicate(format: "age BETWEEN {minimum, 21}")
            == FetchPredicate.compare(.keyPath(["age"]), .between, .aggregate([.keyPath(["minimum"]), .constant(21)])))
    }

    static let optionSpellings: [(String, ComparisonOptions)] = [
        ("[c]", .caseInsensitive), ("[d]", .diacriticInsensitive), ("[cd]", [.caseInsensitive, .diacriticInsensitive]),
        ("[dc]", [.caseInsensitive, .diacriticInsensitive]), ("[CD]", [.caseInsensitive, .diacriticInsensitive]),
        ("[n]", .normalized), ("[cdn]", [.caseInsensitive, .diacriticInsensitive, .normalized]), ("", []),
    ]

    @Test(arguments: optionSpellings)
    func comparisonOptions(_ spelling: String, _ options: ComparisonOptions) throws {
        #expect(try FetchPredicate(format: "name LIKE\(spelling) 'x'")
            == FetchPredicate.compare(.keyPath(["name"]), .like, .constant("x"), options: options))
        #expect(try FetchPredicate(format: "name ==\(spelling) 'x'")
            == FetchPredicate.compare(.keyPath(["name"]), .equalTo, .constant("x"), options: options))
    }

    @Test(arguments: [("ANY", ComparisonModifier.any), ("any", .any), ("SOME", .any), ("some", .any), ("ALL", .all), ("all", .all)])
    func modifiers(_ spelling: String, _ modifier: ComparisonModifier) throws {
        #expect(try FetchPredicate(format: "\(spelling) tags.name == 'x'")
            == FetchPredicate.compare(.keyPath(["tags", "name"]), .equalTo, .constant("x"), modifier: modifier))
    }

    // MARK: - Compound predicates and precedence

    static let a = FetchPredicate.compare(.keyPath(["a"]), .equalTo, .constant(1))
    static let b = FetchPredicate.compare(.keyPath(["b"]), .equalTo, .constant(2))
    static let c = FetchPredicate.compare(.keyPath(["c"]), .equalTo, .constant(3))

    static let precedence: [(String, FetchPredicate)] = [
        ("a == 1 AND b == 2", .and([a, b])),
        ("a == 1 && b == 2 and c == 3", .and([a, b, c])),
        ("a == 1 OR b == 2 || c == 3", .or([a, b, c])),
        ("a == 1 OR b == 2 AND c == 3", .or([a, .and([b, c])])),
        ("a == 1 AND b == 2 OR c == 3", .or([.and([a, b]), c])),
        ("(a == 1 OR b == 2) AND c == 3", .and([.or([a, b]), c])),
        ("a == 1 AND (b == 2 AND c == 3)", .and([a, .and([b, c])])),
        ("NOT a == 1 AND b == 2", .and([.not(a), b])),
        ("!a == 1 || b == 2", .or([.not(a), b])),
        ("NOT (a == 1 AND b == 2)", .not(.and([a, b]))),
        ("not not a == 1", .not(.not(a))),
        ("((a == 1))", a),
        ("TRUEPREDICATE", .truePredicate),
        ("truepredicate OR FalsePredicate", .or([.truePredicate, .falsePredicate])),
        ("NOT TRUEPREDICATE", .not(.truePredicate)),
    ]

    @Test(arguments: precedence)
    func compoundPrecedence(_ format: String, _ expected: FetchPredicate) throws {
        #expect(try FetchPredicate(format: format) == expected)
    }

    // MARK: - Literals

    static let literals: [(String, PredicateConstant)] = [
        ("42", 42), ("-7", -7), ("0", 0), ("2.5", 2.5), ("-0.25", -0.25), ("1.5e3", 1500.0), ("1E-2", 0.01),
        ("0x1F", 31), ("0XfF", 255), ("-0x10", -16), ("0o17", 15), ("0b101", 5),
        ("9223372036854775807", .int(.max)), ("-9223372036854775808", .int(.min)),
        ("'single'", "single"), ("\"double\"", "double"), ("''", ""),
        (#"'it\'s'"#, "it's"), (#""say \"hi\"""#, "say \"hi\""), (#"'a\\b'"#, "a\\b"),
        (#"'tab\there\nnew'"#, "tab\there\nnew"), (#"'\u00e9t\u{e9}'"#, "été"), (#"'\x41'"#, "A"),
        (#"'a\*b'"#, "a\\*b"), (#"'\d+'"#, "\\d+"), (#"'\uZZ'"#, "\\uZZ"), ("'Zoë 😀'", "Zoë 😀"),
        ("'%@'", "%@"), ("\"%K\"", "%K"),
        ("YES", true), ("yes", true), ("TRUE", true), ("true", true), ("NO", false), ("False", false),
        ("nil", nil), ("NULL", nil), ("Nil", nil),
        ("{}", []), ("{1, 'two', 3.0, nil, {YES}}", [1, "two", 3.0, nil, [true]]),
        (#"CAST(0, "NSDate")"#, .date(Date(timeIntervalSinceReferenceDate: 0))),
        (#"CAST(-1.5, 'NSDate')"#, .date(Date(timeIntervalSinceReferenceDate: -1.5))),
        (#"CAST("E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "NSUUID")"#,
         .uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!)),
        (#"CAST("AAHs/w==", "NSData")"#, .data(Data([0, 1, 0xEC, 0xFF]))),
    ]

    @Test(arguments: literals)
    func literal(_ text: String, _ constant: PredicateConstant) throws {
        #expect(try FetchPredicate(format: "value == \(text)") == FetchPredicate.compare(.keyPath(["value"]), .equalTo, .constant(constant)))
    }

    @Test func integerAndDoubleKeepTheirKinds() throws {
        #expect(try FetchPredicate(format: "x == 1") != FetchPredicate(format: "x == 1.0"))
        #expect(try FetchPredicate(format: "x == 1.0") == FetchPredicate.compare(.keyPath(["x"]), .equalTo, .constant(.double(1))))
    }

    // MARK: - Format arguments

    static let specifiers: [(PredicateFormatCase, PredicateConstant)] = [
        (PredicateFormatCase("x == %@", 3), 3),
        (PredicateFormatCase("x == %@", "text"), "text"),
        (PredicateFormatCase("x == %@", nil), nil),
        (PredicateFormatCase("x == %@", 2.5), 2.5),
        (PredicateFormatCase("x == %@", .date(Date(timeIntervalSinceReferenceDate: 9))),
         .date(Date(timeIntervalSinceReferenceDate: 9))),
        (PredicateFormatCase("x == %@", .data(Data([1, 2]))), .data(Data([1, 2]))),
        (PredicateFormatCase("x == %d", 3), 3),
        (PredicateFormatCase("x == %i", 3), 3),
        (PredicateFormatCase("x == %ld", .int(Int64(1) << 40)), .int(1 << 40)),
        (PredicateFormatCase("x == %lld", 7), 7),
        (PredicateFormatCase("x == %d", true), 1),
        (PredicateFormatCase("x == %f", 2.5), 2.5),
        (PredicateFormatCase("x == %f", 2), 2.0),
        (PredicateFormatCase("x == %lf", 2.5), 2.5),
        (PredicateFormatCase("x == %s", "c string"), "c string"),
    ]

    @Test(arguments: specifiers)
    func specifier(_ input: PredicateFormatCase, _ constant: PredicateConstant) throws {
        #expect(try input.parse() == FetchPredicate.compare(.keyPath(["x"]), .equalTo, .constant(constant)))
    }

    @Test func keySubstitution() throws {
        #expect(try FetchPredicate(format: "%K == %@", "department.name", "Sales")
            == FetchPredicate.compare(.keyPath(["department", "name"]), .equalTo, .constant("Sales")))
        #expect(try FetchPredicate(format: "%K == %@", .keyPath("name"), "Sales")
            == FetchPredicate.compare(.keyPath(["name"]), .equalTo, .constant("Sales")))
        // A key path argument for %@ is a key path too.
        #expect(try FetchPredicate(format: "name == %@", .keyPath("nickname"))
            == FetchPredicate.compare(.keyPath(["name"]), .equalTo, .keyPath(["nickname"])))
        // A key that spells a keyword is still a key.
        #expect(try FetchPredicate(format: "%K == 1", "IN") == FetchPredicate.compare(.keyPath(["IN"]), .equalTo, .constant(1)))
    }

    /// `%K` substitutes a key, never tokens: text that looks like SQL stays one
    /// key path component (the SQL compiler then rejects the unknown key).
    @Test func keyArgumentThatLooksLikeSQLStaysOneComponent() throws {
        let predicate = try FetchPredicate(format: "%K == %@", "name; DROP TABLE x", "Ringo")
        #expect(predicate == FetchPredicate.compare(.keyPath(["name; DROP TABLE x"]), .equalTo, .constant("Ringo")))
        let quoted = try FetchPredicate(format: "%K == 1", "x' OR '1'='1")
        #expect(quoted == FetchPredicate.compare(.keyPath(["x' OR '1'='1"]), .equalTo, .constant(1)))
        // The same text as a value stays a string constant to bind.
        let value = try FetchPredicate(format: "name == %@", "x'); DROP TABLE x; --")
        #expect(value == FetchPredicate.compare(.keyPath(["name"]), .equalTo, .constant("x'); DROP TABLE x; --")))
    }

    // MARK: - Key paths

    static let keyPaths: [(String, FetchExpression)] = [
        ("name", .keyPath(["name"])),
        ("department.manager.name", .keyPath(["department", "manager", "name"])),
        ("SELF", .evaluatedObject),
        ("self", .evaluatedObject),
        ("SELF.name", .keyPath(["name"])),
        ("#IN", .keyPath(["IN"])),
        ("#self", .keyPath(["self"])),
        ("#name", .keyPath(["name"])),
        ("order.in", .keyPath(["order", "in"])),
        ("order.#AND.x", .keyPath(["order", "AND", "x"])),
        ("size", .keyPath(["size"])),
        ("_private", .keyPath(["_private"])),
        ("prénom", .keyPath(["prénom"])),
        ("名前", .keyPath(["名前"])),
        ("$VAR", .variable("VAR")),
        ("$x.firstname", .variable("x", keyPath: ["firstname"])),
        ("employees.@count", .collectionOperator(.count, of: .keyPath(["employees"]))),
        ("employees.@COUNT", .collectionOperator(.count, of: .keyPath(["employees"]))),
        ("@count", .collectionOperator(.count, of: .evaluatedObject)),
        ("SELF.@count", .collectionOperator(.count, of: .evaluatedObject)),
        ("employees.@sum.salary", .collectionOperator(.sum, of: .keyPath(["employees"]), keyPath: ["salary"])),
        ("employees.@avg.pay.amount", .collectionOperator(.avg, of: .keyPath(["employees"]), keyPath: ["pay", "amount"])),
        ("scores.@min", .collectionOperator(.min, of: .keyPath(["scores"]))),
        ("scores.@max", .collectionOperator(.max, of: .keyPath(["scores"]))),
        ("$x.tasks.@count", .collectionOperator(.count, of: .variable("x", keyPath: ["tasks"]))),
        ("{1, 2}.@sum", .collectionOperator(.sum, of: .constant([1, 2]))),
        ("{a, 2}", .aggregate([.keyPath(["a"]), .constant(2)])),
    ]

    @Test(arguments: keyPaths)
    func keyPath(_ text: String, _ expression: FetchExpression) throws {
        #expect(try FetchPredicate(format: "\(text) == 1") == FetchPredicate.compare(expression, .equalTo, .constant(1)))
    }

    @Test func keywordsAreCaseInsensitive() throws {
        #expect(try FetchPredicate(format: "any tags.name in {'a'} and not x like[C] 'y' or truepredicate")
            == FetchPredicate(format: "ANY tags.name IN {'a'} AND NOT x LIKE[c] 'y' OR TRUEPREDICATE"))
    }

    /// Every reserved word in a predicate that uses it, written with the word upper-cased; the
    /// spellings tried are lower, upper and mixed case (`size`, `SIZE`, `sIzE`). Apple's parser is
    /// case-insensitive with respect to keywords.
    static let reservedWordUses: [(word: String, format: String)] = [
        ("AND", "a == 1 AND b == 2"), ("OR", "a == 1 OR b == 2"), ("NOT", "NOT a == 1"),
        ("IN", "a IN {1, 2}"), ("LIKE", "a LIKE 'x*'"), ("MATCHES", "a MATCHES 'x.*'"), ("CONTAINS", "a CONTAINS 'x'"),
        ("BEGINSWITH", "a BEGINSWITH 'x'"), ("ENDSWITH", "a ENDSWITH 'x'"), ("BETWEEN", "a BETWEEN {1, 2}"),
        ("ANY", "ANY tags.name == 'x'"), ("SOME", "SOME tags.name == 'x'"), ("ALL", "ALL tags.name == 'x'"),
        ("NONE", "NONE tags.name == 'x'"), ("NULL", "a == NULL"), ("NIL", "a == NIL"), ("SELF", "SELF == 1"),
        ("TRUE", "a == TRUE"), ("FALSE", "a == FALSE"), ("YES", "a == YES"), ("NO", "a == NO"),
        ("TRUEPREDICATE", "TRUEPREDICATE"), ("FALSEPREDICATE", "FALSEPREDICATE"),
        ("SUBQUERY", "SUBQUERY(tags, $t, $t.name == 'x').@count > 0"), ("CAST", "a == CAST(0, 'NSDate')"),
        ("SIZE", "tags[SIZE] > 2"),
    ]

    static var reservedWordSpellings: [(String, String)] {
        reservedWordUses.flatMap { word, format in
            let mixed = String(word.enumerated().map { $0.offset.isMultiple(of: 2) ? Character($0.element.lowercased()) : $0.element })
            return [word.lowercased(), word, mixed].map { (format, format.replacingOccurrences(of: word, with: $0)) }
        }
    }

    @Test(arguments: reservedWordSpellings)
    func reservedWordsAreCaseInsensitive(_ upper: String, _ spelled: String) throws {
        #expect(try FetchPredicate(format: spelled) == FetchPredicate(format: upper), "\(spelled)")
    }

    @Test func everyReservedWordIsTriedInEveryCase() {
        let tried = Set(Self.reservedWordUses.map(\.word))
        #expect(PredicateLexer.reservedWords.subtracting(tried).isEmpty, "untried: \(PredicateLexer.reservedWords.subtracting(tried))")
        #expect(Self.reservedWordSpellings.count == 3 * Self.reservedWordUses.count)
    }

    @Test func sizeIndexIsTheCountAndFirstLastAndPositionsAreRefused() throws {
        let count = FetchPredicate.compare(.collectionOperator(.count, of: .keyPath(["tags"])), .greaterThan, .constant(2))
        for spelling in ["SIZE", "size", "Size", "sIzE"] {
            #expect(try FetchPredicate(format: "tags[\(spelling)] > 2") == count)
            #expect(try FetchPredicate(format: "2 < details.tags[\(spelling)]")
                == FetchPredicate.compare(.constant(2), .lessThan, .collectionOperator(.count, of: .keyPath(["details", "tags"]))))
        }
        for (index, shown) in [("FIRST", "FIRST"), ("first", "FIRST"), ("Last", "LAST"), ("2", "2")] {
            let error = try #require(throws: PredicateParseError.self) { try FetchPredicate(format: "tags[\(index)].name == 'x'") }
            #expect(error.message.contains("tags[\(shown)] picks an element by position") && error.message.contains("tags[SIZE]"),
                    "\(error)")
            #expect(error.offset == 4)
            #expect(error.message.contains("(ANY tags.name == 'x')"), "the key read after it: \(error)")
        }
        let unknown = try #require(throws: PredicateParseError.self) { try FetchPredicate(format: "tags[middle] > 2") }
        #expect(unknown.message.contains("expected FIRST, LAST or SIZE after '['"), "\(unknown)")
        // Outside an index they are keys, as before; #size too, as Apple writes a key named size.
        #expect(try FetchPredicate(format: "size == 1 AND #size == 1 AND first == 1")
            == .and([FetchPredicate.compare(.keyPath(["size"]), .equalTo, .constant(1)),
                     FetchPredicate.compare(.keyPath(["size"]), .equalTo, .constant(1)),
                     FetchPredicate.compare(.keyPath(["first"]), .equalTo, .constant(1))]))
        #expect(try FetchPredicate(format: "sizes.#size[SIZE] > 2")
            == FetchPredicate.compare(.collectionOperator(.count, of: .keyPath(["sizes", "size"])), .greaterThan, .constant(2)))
    }

    @Test func nestingUpToTheLimitParses() throws {
        let depth = PredicateParser.maximumDepth
        let format = String(repeating: "(", count: depth) + "a == 1" + String(repeating: ")", count: depth)
        #expect(try FetchPredicate(format: format) == Self.a)
        let negations = String(repeating: "NOT ", count: depth) + "a == 1"
        #expect(throws: Never.self) { try FetchPredicate(format: negations) }
    }
}
