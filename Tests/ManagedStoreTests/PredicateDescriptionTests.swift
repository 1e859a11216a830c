import Foundation
import Testing
@testable import ManagedStore

@Suite("Predicates describe themselves as canonical format strings")
struct PredicateDescriptionTests {
    static let canonical: [(PredicateFormatCase, String)] = [
        (PredicateFormatCase("priority == %@", 1), "priority == 1"),
        (PredicateFormatCase("completed == %@", false), "completed == NO"),
        (PredicateFormatCase("task_description CONTAINS[cd] %@", "bank"), #"task_description CONTAINS[cd] "bank""#),
        (PredicateFormatCase("name = 'Ringo'"), #"name == "Ringo""#),
        (PredicateFormatCase("a <> 1 && b =< 2 || c => 3"), "(a != 1 AND b <= 2) OR c >= 3"),
        (PredicateFormatCase("name like[dc] 'ring*' and not (age < 18 or age > 65)"),
         #"name LIKE[cd] "ring*" AND NOT (age < 18 OR age > 65)"#),
        (PredicateFormatCase("some tags.name ==[c] 'x'"), #"ANY tags.name ==[c] "x""#),
        (PredicateFormatCase("none tags.name == 'x'"), #"NOT ANY tags.name == "x""#),
        (PredicateFormatCase("age between {18, 21}"), "age BETWEEN {18, 21}"),
        (PredicateFormatCase("name IN %@", ["Ben", "Nick"]), #"name IN {"Ben", "Nick"}"#),
        (PredicateFormatCase("x == nil OR y == YES OR z == 2.5 OR w == -0x10"),
         "x == nil OR y == YES OR z == 2.5 OR w == -16"),
        (PredicateFormatCase(#"s == 'it\'s "quoted"\\ \t\n'"#), #"s == "it's \"quoted\"\\ \t\n""#),
        (PredicateFormatCase("s == %@", "bell\u{7}"), #"s == "bell\u0007""#),
        (PredicateFormatCase("#IN == 1 AND a.#or == 2 AND size == 3"), "#IN == 1 AND a.#or == 2 AND size == 3"),
        (PredicateFormatCase("%K == 1", "SELF"), "#SELF == 1"),
        (PredicateFormatCase("self.name == SELF.@count"), "name == SELF.@count"),
        (PredicateFormatCase("employees.@SUM.salary > 10"), "employees.@sum.salary > 10"),
        (PredicateFormatCase(#"SUBQUERY(residents, $x, $x.firstname == "Jane" && $x.lastname == "Doe").@count != 0"#),
         #"SUBQUERY(residents, $x, $x.firstname == "Jane" AND $x.lastname == "Doe").@count != 0"#),
        (PredicateFormatCase("date > $DATE"), "date > $DATE"),
        (PredicateFormatCase("x == %@", .date(Date(timeIntervalSinceReferenceDate: 725846400.5))),
         #"x == CAST(725846400.5, "NSDate")"#),
        (PredicateFormatCase("x == %@", .uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!)),
         #"x == CAST("E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "NSUUID")"#),
        (PredicateFormatCase("x == %@", .data(Data([0, 1, 0xEC, 0xFF]))), #"x == CAST("AAHs/w==", "NSData")"#),
        (PredicateFormatCase("x == %@", 1e-5), "x == 1e-05"),
        (PredicateFormatCase("x == %@", .double(.infinity)), "x == 1e999"),
        (PredicateFormatCase("truepredicate and falsepredicate"), "TRUEPREDICATE AND FALSEPREDICATE"),
        (PredicateFormatCase("{1, a}.@count > 0"), "{1, a}.@count > 0"),
        (PredicateFormatCase("!!a == 1"), "NOT NOT a == 1"),
    ]

    @Test(arguments: canonical)
    func canonicalForm(_ input: PredicateFormatCase, _ expected: String) throws {
        let predicate = try input.parse()
        #expect(predicate.description == expected)
        #expect(try FetchPredicate(format: predicate.description) == predicate)
    }

    @Test func treesWithoutASpellingOfTheirOwn() {
        let a = FetchPredicate.compare(.keyPath(["a"]), .equalTo, .constant(1))
        #expect(FetchPredicate.and([]).description == "TRUEPREDICATE")
        #expect(FetchPredicate.or([]).description == "FALSEPREDICATE")
        #expect(FetchPredicate.and([a]).description == "a == 1")
        #expect(FetchPredicate.not(.or([a])).description == "NOT a == 1")
        #expect(FetchPredicate.compare(.keyPath(["name; DROP TABLE x"]), .equalTo, .constant(1)).description
            == "name; DROP TABLE x == 1")
    }

    @Test func expressionsAndConstantsDescribeThemselves() {
        #expect(FetchExpression.variable("x", keyPath: ["in", "b"]).description == "$x.#in.b")
        #expect(FetchExpression.aggregate([.keyPath(["a"]), .constant("b")]).description == #"{a, "b"}"#)
        #expect(PredicateConstant.array([1, [2.5, nil]]).description == "{1, {2.5, nil}}")
        #expect(ComparisonOperator.between.description == "BETWEEN")
    }
}
