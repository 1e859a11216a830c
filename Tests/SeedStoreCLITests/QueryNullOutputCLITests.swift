import Foundation
import ManagedStore
import Testing

/// `seedstore query` output that tells null from empty text and from the text `NULL`: CSV that
/// `seedstore import` reads back the same, a table that shows the difference, JSON as before.
@Suite(.enabled(if: CLI.hasBinary, CLI.noBinary))
final class QueryNullOutputCLITests {
    let directory = CLI.temporaryDirectory()
    let store: String
    let model = CLI.repository.appendingPathComponent("fixtures/models/failedbank.model.json").path
    /// Each bank's city: empty text, null, the texts of the importer's null tokens, and others.
    static let cities: [(name: String, city: Value)] = [
        ("A", .string("")), ("B", .null), ("C", .string("NULL")), ("D", .string("NA")), ("E", .string("null")),
        ("F", .string("Santa Clara, CA")), ("G", .string("\"quoted\"")), ("H", .string(" NULL ")),
        // Text the importer would warn of unquoted (spaces or tabs around it, backslash escapes), with advice
        // (--trim, --null '\N') that would change it: quoted, it is kept exactly and not warned of.
        ("I", .string(" lead")), ("J", .string("trail\t")), ("K", .string("\\N")), ("L", .string("C:\\dir\\")),
        ("M", .string("a\\b")),
    ]

    deinit { try? FileManager.default.removeItem(at: directory) }

    init() throws {
        store = directory.appendingPathComponent("Banks.sqlite").path
        let context = ManagedObjectContext(store: try PersistentStore(path: store, model: try ObjectModel(contentsOf: model)))
        for (name, city) in Self.cities {
            let info = try context.insert("FailedBankInfo")
            info["name"] = .string(name)
            info["city"] = city
        }
        try context.save()
    }

    func query(_ format: String) throws -> CLI.Result {
        try CLI.run(["query", store, "--entity", "FailedBankInfo", "--properties", "name,city", "--sort", "name", "--format", format])
    }

    @Test func csvQuotesTextThatWouldReadBackAsNull() throws {
        let csv = try query("csv")
        #expect(csv.status == 0, "\(csv.stderr)")
        #expect(csv.stdout == """
            name,city\r
            A,""\r
            B,\r
            C,"NULL"\r
            D,"NA"\r
            E,null\r
            F,"Santa Clara, CA"\r
            G,\"""quoted\"""\r
            H," NULL "\r
            I," lead"\r
            J,"trail\t"\r
            K,"\\N"\r
            L,"C:\\dir\\"\r
            M,a\\b\r

            """, "\(csv.stdout)")
    }

    @Test func csvImportsBackTheSameValues() throws {
        let csv = try query("csv")
        let file = directory.appendingPathComponent("banks.csv")
        try Data(csv.stdout.utf8).write(to: file)
        let copy = directory.appendingPathComponent("Copy.sqlite").path
        let imported = try CLI.run(["import", "--model", model, "--out", copy, "--progress", "none", "FailedBankInfo=\(file.path)"])
        #expect(imported.status == 0, "\(imported.stderr)")
        // Neither warning (the summary's, on standard output), whose advice (--trim, --null '\N') would change the values.
        let printed = imported.stdout + imported.stderr
        #expect(printed.contains("\(Self.cities.count) imported"), "the summary: \(printed)")
        #expect(!printed.contains("kept as written") && !printed.contains("backslash-escaped"), "\(printed)")

        let context = ManagedObjectContext(store: try PersistentStore(path: copy))
        var request = FetchRequest(entityName: "FailedBankInfo")
        request.resultType = .dictionary
        request.propertiesToFetch = [.key("name"), .key("city")]
        request.sortDescriptors = [FetchSort("name")]
        let rows = try context.fetchRows(request)
        // Exactly, " NULL " with its spaces too: the importer keeps quoted text as written.
        #expect(rows.map { $0["city"] } == Self.cities.map(\.city))
    }

    @Test func tableShowsNullApartFromEmptyText() throws {
        let table = try query("table")
        #expect(table.status == 0, "\(table.stderr)")
        let cities = table.stdout.split(separator: "\n").dropFirst(2).prefix(Self.cities.count).map {
            String($0.dropFirst(6)).trimmingCharacters(in: .whitespaces)
        }
        #expect(cities == ["\"\"", "NULL", "\"NULL\"", "NA", "null", "Santa Clara, CA", "\"\"\"quoted\"\"\"", "\" NULL \"",
                           "\" lead\"", "\"trail␉\"", "\\N", "C:\\dir\\", "a\\b"], "spaces around text are shown: \(table.stdout)")
    }

    @Test func jsonIsUnchanged() throws {
        let json = try query("json")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(rows[0]["city"] as? String == "")
        #expect(rows[1]["city"] is NSNull)
        #expect(rows[2]["city"] as? String == "NULL")
    }
}
