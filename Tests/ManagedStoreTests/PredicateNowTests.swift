import Foundation
import Testing
@testable import ManagedStore

/// `now()`, NSExpression's current date: parsed, bound as a parameter in SQL, evaluated in memory,
/// one instant per fetch; other functions are refused with what is supported.
@Suite struct PredicateNowTests {
    @Test func parsesAndPrintsAsWritten() throws {
        let predicate = try FetchPredicate(format: "dueDate < now()")
        #expect(predicate == .comparison(PredicateComparison(.keyPath(["dueDate"]), .lessThan, .now)))
        #expect(predicate.description == "dueDate < now()")
        #expect(try FetchPredicate(format: predicate.description) == predicate)
        // A key named now is still a key.
        #expect(try FetchPredicate(format: "now == 1") == .comparison(PredicateComparison(.keyPath(["now"]), .equalTo, .constant(1))))
    }

    @Test func otherFunctionsSayWhatIsSupported() throws {
        for format in ["dueDate < FUNCTION(SELF, 'today')", "dueDate < today()", "dueDate < now(1)"] {
            let error = predicateParseError(format)
            #expect(error?.message.contains("now()") == true, "\(format): \(String(describing: error))")
        }
        #expect(predicateParseError("dueDate < FUNCTION(SELF, 'today')")?.message.hasPrefix("FUNCTION(…) calls a method by name") == true)
    }

    @Test func sqlBindsTheInstant() throws {
        let fixture = try PredicateToManyKeyPathTests().fixture
        var builder = SQLQueryBuilder(model: fixture.model, entity: try fixture.entity("Project"))
        builder.now = Date(timeIntervalSinceReferenceDate: 700_000_000)
        #expect(try builder.condition(FetchPredicate(format: "dueDate < now()")) == "t0.ZDUEDATE < ?1")
        #expect(builder.bindings == [.real(700_000_000)])
        // A kind check sees the date: text is never a date.
        #expect(throws: StoreError.self) { try builder.condition(FetchPredicate(format: "name == now()")) }
    }

    @Test func sqlAndMemoryAgree() throws {
        let tests = try PredicateToManyKeyPathTests()
        #expect(try tests.names("dueDate < now()", in: "Project") == ["Apollo", "Idle"])
        #expect(try tests.names("NOT dueDate < now()", in: "Project") == ["Zeus", "Hermes"])
        #expect(try tests.names("ANY projects.dueDate > now()", in: "Employee") == ["Ann", "Cy"])
        #expect(try tests.names("ALL projects.dueDate < now()", in: "Employee") == ["Bob"])
        #expect(try FetchPredicate(format: "born < now() AND NOT now() < born").evaluate(with: PredicateEvaluationTests.ringo))
    }

    @Test func aFetchTakesTheTimeOnce() throws {
        let date = Date(timeIntervalSinceReferenceDate: 1)
        let predicate = try FetchPredicate(format: "dueDate < now() OR SUBQUERY(members, $m, $m.salary > 0 AND {now()} CONTAINS now()).@count > 0")
        #expect(predicate.substitutingNow(date) == (try FetchPredicate(
            format: "dueDate < %@ OR SUBQUERY(members, $m, $m.salary > 0 AND {%@} CONTAINS %@).@count > 0", .date(date), .date(date), .date(date))))
        var request = FetchRequest(entityName: "Project")
        request.predicate = try FetchPredicate(format: "dueDate < now()")
        request.havingPredicate = try FetchPredicate(format: "now() > dueDate")
        let fixed = request.fixingNow(date)
        #expect(fixed.predicate == (try FetchPredicate(format: "dueDate < %@", .date(date))))
        #expect(fixed.havingPredicate == (try FetchPredicate(format: "%@ > dueDate", .date(date))))
    }
}
