import Foundation
import Testing
@testable import ManagedStore

@Suite("Predicates built in code equal parsed ones")
struct PredicateBuildingTests {
    @Test func compareBuildsAComparison() throws {
        #expect(FetchPredicate.compare(.key("priority"), .equalTo, .constant(1)) == (try FetchPredicate(format: "priority == 1")))
        #expect(FetchPredicate.compare(.key("department.name"), .beginsWith, .constant("S"), options: .caseInsensitive)
            == (try FetchPredicate(format: "department.name BEGINSWITH[c] 'S'")))
        #expect(FetchPredicate.compare(.key("tags.name"), .in, .constant(["a", "b"]), modifier: .all)
            == (try FetchPredicate(format: "ALL tags.name IN {'a', 'b'}")))
        #expect(FetchExpression.key("") == .evaluatedObject)
    }

    @Test func operatorsCombinePredicates() throws {
        let open = try FetchPredicate(format: "completed == NO")
        let urgent = try FetchPredicate(format: "priority == 1")
        let named = try FetchPredicate(format: "name != nil")
        #expect((open && urgent) == (try FetchPredicate(format: "completed == NO AND priority == 1")))
        #expect((open && urgent && named) == (try FetchPredicate(format: "completed == NO AND priority == 1 AND name != nil")))
        #expect((open || urgent || named) == (try FetchPredicate(format: "completed == NO OR priority == 1 OR name != nil")))
        #expect(((open || urgent) && named) == (try FetchPredicate(format: "(completed == NO OR priority == 1) AND name != nil")))
        #expect(!open == (try FetchPredicate(format: "NOT completed == NO")))
        #expect(!(open && urgent) == (try FetchPredicate(format: "NOT (completed == NO AND priority == 1)")))
    }

    @Test func compoundPredicatesCombine() throws {
        let left = try FetchPredicate(format: "a == 1 OR b == 2")
        let right = try FetchPredicate(format: "c == 3 AND d == 4")
        let both = left && right
        #expect(both == .and([left, .comparison(PredicateComparison(.keyPath(["c"]), .equalTo, .constant(3))),
                              .comparison(PredicateComparison(.keyPath(["d"]), .equalTo, .constant(4)))]))
        #expect(both.description == "(a == 1 OR b == 2) AND c == 3 AND d == 4")
        #expect(try FetchPredicate(format: both.description) == both)
        #expect(try both.evaluate(with: ["a": 1, "c": 3, "d": 4]))
        #expect(try !both.evaluate(with: ["a": 1, "c": 3]))
    }

    @Test func argumentHelpersMakeTypedConstants() {
        let now = Date()
        #expect(PredicateArgument.int(3) == .value(.int(3)))
        #expect(PredicateArgument.int(Int64(3)) == 3)
        #expect(PredicateArgument.bool(true) == true)
        #expect(PredicateArgument.double(0.5) == 0.5)
        #expect(PredicateArgument.string("x") == "x")
        #expect(PredicateArgument.date(now) == .value(.date(now)))
        #expect(PredicateArgument.null == nil)
        #expect(PredicateArgument.array([1, "a"]) == [1, "a"])
    }
}
