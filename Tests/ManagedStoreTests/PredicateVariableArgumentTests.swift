import Foundation
import Testing
@testable import ManagedStore

/// Variables go into a format as they are (a library trial: `FetchPredicate(format: "priority == %@",
/// priority)` with an `Int` did not compile, and an array of them asked for `arguments:`), giving the
/// same predicate as the literal or the ``PredicateArgument`` written out.
@Suite("Predicates: Swift values as arguments")
struct PredicateVariableArgumentTests {
    @Test("each kind of value gives the predicate its literal or PredicateArgument gives")
    func sameAsLiterals() throws {
        let int = 3, int64: Int64 = 3, int32: Int32 = 3, int16: Int16 = 3
        for value in [int.predicateArgument, int64.predicateArgument, int32.predicateArgument, int16.predicateArgument] {
            #expect(value == .int(3))
        }
        #expect(try FetchPredicate(format: "priority == %@", int) == FetchPredicate(format: "priority == %@", 3 as PredicateArgument))
        #expect(try FetchPredicate(format: "priority == %d", int32) == FetchPredicate(format: "priority == 3"))
        let name = "Ringo", key = "name"
        #expect(try FetchPredicate(format: "%K == %@", key, name) == FetchPredicate(format: "name == 'Ringo'"))
        #expect(try FetchPredicate(format: "name BEGINSWITH %@", name.prefix(2)) == FetchPredicate(format: "name BEGINSWITH 'Ri'"))
        let price = 2.5, weight: Float = 0.5, flag = true
        #expect(try FetchPredicate(format: "price < %@ AND weight == %@ AND inPrint == %@", price, weight, flag)
                == FetchPredicate(format: "price < 2.5 AND weight == 0.5 AND inPrint == YES"))
        let day = Date(timeIntervalSinceReferenceDate: 0), id = UUID(), bytes = Data([1, 2])
        #expect(try FetchPredicate(format: "due == %@ AND id == %@ AND blob == %@", day, id, bytes)
                == FetchPredicate(format: "due == %@ AND id == %@ AND blob == %@", .date(day), .uuid(id), .data(bytes)))
        let none: String? = nil, some: Int? = 7
        #expect(try FetchPredicate(format: "name == %@ AND priority == %@", none, some) == FetchPredicate(format: "name == nil AND priority == 7"))
        let ids = [1, 2, 3]
        #expect(try FetchPredicate(format: "priority IN %@", ids) == FetchPredicate(format: "priority IN {1, 2, 3}"))
        let byte: UInt8 = 3, small: Int8 = 3, price2 = Decimal(string: "2.5")!, chosen: Set = [2]
        #expect(byte.predicateArgument == .int(3) && small.predicateArgument == .int(3))
        #expect(try FetchPredicate(format: "price < %@ AND priority IN %@", price2, chosen) == FetchPredicate(format: "price < 2.5 AND priority IN {2}"))
        // A PredicateArgument among variables, spelled with its type.
        #expect(try FetchPredicate(format: "%K == %@", PredicateArgument.keyPath("name"), name) == FetchPredicate(format: "name == 'Ringo'"))
    }

    @Test("a variable of the wrong kind for its specifier is still refused")
    func wrongKind() {
        let name = "Ringo"
        #expect(throws: PredicateParseError.self) { try FetchPredicate(format: "priority == %d", name) }
    }
}
