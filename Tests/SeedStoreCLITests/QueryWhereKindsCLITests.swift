import Foundation
import ManagedStore
import Testing

/// `seedstore query --where` comparing an attribute with a value of another kind, end to end on a
/// small FDIC store made here: an error that says how to write the value, not an empty answer.
@Suite(.enabled(if: CLI.hasBinary, CLI.noBinary))
final class QueryWhereKindsCLITests {
    let directory = CLI.temporaryDirectory()
    let store: String

    deinit { try? FileManager.default.removeItem(at: directory) }

    init() throws {
        store = directory.appendingPathComponent("FDIC.sqlite").path
        let context = try CLI.store(at: store, model: "fdic")
        for (cert, acquirer, closed) in [(15741, "5", 283_996_800.0 + 86_400), (57053, "State Bank", 283_996_800.0 - 86_400)] {
            let details = try context.insert("FailedBankDetails")
            details["cert"] = .integer(Int64(cert))
            details["acquirer"] = .string(acquirer)
            details["closeDate"] = .date(Date(timeIntervalSinceReferenceDate: closed))
        }
        try context.save()
    }

    func query(_ predicate: String, _ more: [String] = []) throws -> CLI.Result {
        try CLI.run(["query", store, "--entity", "FailedBankDetails", "--where", predicate, "--format", "csv",
                     "--properties", "cert"] + more)
    }

    @Test func valuesOfAnotherKindAreRefusedWithTheWayToWriteThem() throws {
        let cases = [
            ("cert == '15741'", "FailedBankDetails.cert:", "an Integer 32 attribute", "\"15741\", a string",
             "write the number without quotes: cert == 15741", "cert == 15741"),
            ("closeDate > '2010-01-01'", "FailedBankDetails.closeDate:", "a Date attribute", "\"2010-01-01\", a string",
             "closeDate > CAST(283996800, \"NSDate\")", "closeDate > CAST(283996800, \"NSDate\")"),
            ("acquirer == 5", "FailedBankDetails.acquirer:", "a String attribute", "5, an integer",
             "write the text in quotes: acquirer == '5'", "acquirer == '5'"),
        ]
        for (predicate, head, type, value, advice, fixed) in cases {
            for more in [[], ["--explain"], ["--count"]] {
                let result = try query(predicate, more)
                #expect(result.status == 64 && result.stdout.isEmpty, "\(predicate) \(more): \(result.stdout)")
                for part in [head, type, value, advice] {
                    #expect(result.stderr.contains(part), "\(predicate) \(more) lacks \(part): \(result.stderr)")
                }
                #expect(!result.stderr.contains("from Swift"), "\(predicate) \(more): \(result.stderr)")
            }
            // Written as the message says, it finds the bank.
            let written = try query(fixed)
            #expect(written.status == 0 && written.stdout == "cert\r\n15741\r\n", "\(fixed): \(written.stdout) \(written.stderr)")
        }
    }

    @Test func inWithOneTextValueAdvisesByTheLeftSidesKind() throws {
        // CONTAINS needs text on both sides: for a number the way is a list.
        let number = try query("cert IN 'abc'")
        #expect(number.status == 64 && number.stdout.isEmpty)
        #expect(number.stderr.contains("IN needs a collection") && number.stderr.contains("cert IN {1, 2}"), "\(number.stderr)")
        #expect(!number.stderr.contains("CONTAINS"), "\(number.stderr)")
        let text = try query("acquirer IN 'State Bank of Texas'")
        #expect(text.status == 64 && text.stderr.contains("\"State Bank of Texas\" CONTAINS acquirer"), "\(text.stderr)")
        let written = try query("'State Bank of Texas' CONTAINS acquirer")
        #expect(written.stdout == "cert\r\n57053\r\n", "\(written.stdout) \(written.stderr)")
    }
}
