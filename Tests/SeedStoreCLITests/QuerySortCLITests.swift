import Foundation
import ManagedStore
import Testing

/// `seedstore query --sort` with comparison modifiers and directions, end to end.
@Suite(.enabled(if: CLI.hasBinary, CLI.noBinary))
final class QuerySortCLITests {
    let directory = CLI.temporaryDirectory()
    let store: String

    deinit { try? FileManager.default.removeItem(at: directory) }

    init() throws {
        store = directory.appendingPathComponent("FDIC.sqlite").path
        let context = try CLI.store(at: store, model: "fdic")
        for (cert, acquirer) in [(1, "Zoe"), (2, "Zoë"), (3, "zoe"), (4, "zoë"), (5, "ZOE")] {
            let details = try context.insert("FailedBankDetails")
            details["cert"] = .integer(Int64(cert))
            details["acquirer"] = .string(acquirer)
        }
        try context.save()
    }

    func query(_ sort: String) throws -> CLI.Result {
        try CLI.run(["query", store, "--entity", "FailedBankDetails", "--sort", sort, "--format", "csv", "--properties", "acquirer,cert"])
    }

    @Test func caseInsensitiveSortLetsTheNextKeyDecide() throws {
        let result = try query("acquirer[c],cert")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "acquirer,cert\r\nZoe,1\r\nzoe,3\r\nZOE,5\r\nZoë,2\r\nzoë,4\r\n", "\(result.stdout)")
        #expect(try query("acquirer[cd],-cert").stdout == "acquirer,cert\r\nZOE,5\r\nzoë,4\r\nzoe,3\r\nZoë,2\r\nZoe,1\r\n")
    }

    @Test func contradictoryAndUnknownDirectionsAreRefused() throws {
        let conflict = try query("-acquirer:asc")
        #expect(conflict.status != 0 && conflict.stdout.isEmpty)
        #expect(conflict.stderr.contains("'-'") && conflict.stderr.contains(":asc"), "\(conflict.stderr)")
        let unknown = try query("acquirer:up")
        #expect(unknown.status != 0 && unknown.stdout.isEmpty)
        for form in [":asc", ":desc", "leading '-'"] { #expect(unknown.stderr.contains(form), "\(unknown.stderr) lacks \(form)") }
    }
}
