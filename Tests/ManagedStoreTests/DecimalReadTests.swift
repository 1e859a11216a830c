import Foundation
import Testing
@testable import ManagedStore

/// A Decimal attribute reads back what SQLite holds: an INTEGER as that exact integer (not through
/// Double, which has 53 bits), a REAL as its shortest round-trip decimal.
@Suite struct DecimalReadTests {
    static let model = try! ObjectModel([
        EntityDescription("Sample", attributes: [Attribute("n", .integer32), Attribute("amount", .decimal)]),
    ])

    /// What each row's amount is saved as, the storage class SQLite gives it, and how it prints.
    static let cases: [(saved: String, storage: String, printed: String)] = [
        ("9007199254740993", "integer", "9007199254740993"),       // 2^53 + 1: Double makes it ...992
        ("-9007199254740993", "integer", "-9007199254740993"),
        ("9223372036854775807", "integer", "9223372036854775807"),
        ("-9223372036854775808", "integer", "-9223372036854775808"),
        ("0.1", "real", "0.1"),
        ("1234.5678", "real", "1234.5678"),
        ("-0.000123", "real", "-0.000123"),
        ("1e20", "real", "100000000000000000000"),
    ]

    let harness: StoreHarness

    init() throws {
        harness = try StoreHarness(model: Self.model)
        for (i, item) in Self.cases.enumerated() {
            let sample = try harness.context.insert("Sample")
            sample["n"] = .integer(Int64(i))
            sample["amount"] = .decimal(Decimal(string: item.saved)!)
        }
        try harness.context.save()
    }

    @Test func storageClassesAreTheOnesUnderTest() throws {
        let rows = try harness.store.connection.rows("SELECT typeof(ZAMOUNT) FROM ZSAMPLE ORDER BY ZN")
        #expect(rows.map { $0[0] } == Self.cases.map { .text($0.storage) })
    }

    @Test func objectsReadTheExactValue() throws {
        let context = ManagedObjectContext(store: harness.store)
        var request = FetchRequest(entityName: "Sample")
        request.sortDescriptors = [FetchSort("n")]
        let amounts = try context.fetch(request).map { $0["amount"] }
        #expect(amounts.map(\.description) == Self.cases.map(\.printed))
        #expect(amounts.first == .decimal(Decimal(string: "9007199254740993")!))
    }

    @Test func dictionaryResultsReadTheExactValue() throws {
        var request = FetchRequest(entityName: "Sample")
        request.resultType = .dictionary
        request.propertiesToFetch = [.key("amount")]
        request.sortDescriptors = [FetchSort("n")]
        let amounts = try harness.context.fetchRows(request).map { $0["amount"] }
        #expect(amounts.map(\.description) == Self.cases.map(\.printed))
    }

    /// A user trial: 1e127 held as REAL printed in query tables and CSV as a 1 and 127 zeros.
    @Test func cellTextIsCompactPastTwentyFourCharacters() {
        let cases: [(Decimal, String)] = [
            (Decimal(string: "12345.678")!, "12345.678"), (Decimal(string: "9007199254740993")!, "9007199254740993"),
            (Decimal(string: "1e127")!, "1e+127"), (Decimal(string: "1e-100")!, "1e-100"),
            (Decimal(string: "-1.5e-37")!, "-1.5e-37"), (Decimal(string: "1234567890123456e20")!, "1.234567890123456e+35"),
            (Decimal(string: "-9223372036854775807")!, "-9223372036854775807"), (Decimal(0), "0"),
        ]
        for (decimal, text) in cases {
            #expect(Value.decimal(decimal).cellText == text)
            #expect(Decimal(string: text) == decimal, "\(text) reads back as the same number")
        }
    }
}
