import Foundation
import ManagedStore
import Testing
@testable import SeedImport

/// Dates written without a zone (MySQL's `DATETIME`, Excel and R local times) read in a chosen time zone
/// (`--time-zone`, `"timeZone"`), not only as UTC (a user trial).
@Suite("Import: the time zone of dates written without one")
struct ImportTimeZoneTests {
    /// Seconds since 2001 of an ISO 8601 instant.
    static func instant(_ text: String) throws -> Double { try #require(DateFormat.iso8601.seconds(from: text)) }

    @Test("a region's zone follows its summer time; a value's own zone wins; epoch numbers are instants")
    func berlin() throws {
        let local = try DateFormat("yyyy-MM-dd HH:mm", timeZone: "Europe/Berlin")
        #expect(local.timeZone == "Europe/Berlin")
        #expect(local.seconds(from: "2023-07-01 12:00") == (try Self.instant("2023-07-01T10:00:00Z")), "summer: +02:00")
        #expect(local.seconds(from: "2023-01-15 12:00") == (try Self.instant("2023-01-15T11:00:00Z")), "winter: +01:00")
        // 02:30 on the night clocks go forward does not exist: read with the offset before, an hour later (03:30 CEST).
        #expect(local.seconds(from: "2023-03-26 02:30") == (try Self.instant("2023-03-26T01:30:00Z")))
        // 02:30 on the night they go back happens twice: the first (CEST).
        #expect(local.seconds(from: "2023-10-29 02:30") == (try Self.instant("2023-10-29T00:30:00Z")))
        #expect(local.seconds(from: "2023-10-29 03:30") == (try Self.instant("2023-10-29T02:30:00Z")))

        let iso = try DateFormat("iso8601", timeZone: "Europe/Berlin")
        #expect(iso.seconds(from: "2023-07-01T12:00:00") == (try Self.instant("2023-07-01T10:00:00Z")))
        #expect(iso.seconds(from: "2023-07-01") == (try Self.instant("2023-06-30T22:00:00Z")), "a date alone is its local midnight")
        #expect(iso.seconds(from: "2023-07-01T12:00:00Z") == (try Self.instant("2023-07-01T12:00:00Z")), "the value's zone wins")
        #expect(iso.seconds(from: "2023-07-01T12:00:00+05:30") == (try Self.instant("2023-07-01T06:30:00Z")))
        #expect(try DateFormat("epoch", timeZone: "Europe/Berlin").seconds(from: "0") == -978_307_200)
        let either = try DateFormat(anyOf: ["d.M.yyyy HH:mm", "yyyy-MM-dd"], timeZone: "Europe/Berlin")
        #expect(either.seconds(from: "1.7.2023 12:00") == (try Self.instant("2023-07-01T10:00:00Z")))
        #expect(either.seconds(from: "2023-01-15") == (try Self.instant("2023-01-14T23:00:00Z")))
    }

    @Test("fixed offsets, UTC, and zones that are not one", arguments: [
        ("+05:30", "2023-07-01T06:30:00Z"), ("+0530", "2023-07-01T06:30:00Z"), ("-08", "2023-07-01T20:00:00Z"),
        ("UTC", "2023-07-01T12:00:00Z"), ("America/New_York", "2023-07-01T16:00:00Z"), ("Asia/Kolkata", "2023-07-01T06:30:00Z"),
    ])
    func offsets(zone: String, expected: String) throws {
        #expect(try DateFormat("yyyy-MM-dd HH:mm", timeZone: zone).seconds(from: "2023-07-01 12:00") == (try Self.instant(expected)))
    }

    @Test("an unknown zone is refused, saying what to write", arguments: ["Mars/Base", "CET", "+25", "+5:3", "local", "", "Berlin"])
    func unknown(zone: String) {
        #expect(throws: DateFormatError.self) { try DateFormat("iso8601", timeZone: zone) }
    }

    /// A user trial: `--time-zone -08` is taken for an option; `Berlin` and `europe/berlin` were refused without a suggestion.
    @Test("UTC-08 and GMT+05:30 are offsets, region names read in any case, and a city names its region")
    func spellings() throws {
        #expect(try DateFormat("yyyy-MM-dd HH:mm", timeZone: "UTC-08").seconds(from: "2023-07-01 12:00") == (try Self.instant("2023-07-01T20:00:00Z")))
        #expect(try DateFormat("yyyy-MM-dd HH:mm", timeZone: "GMT+05:30").seconds(from: "2023-07-01 12:00") == (try Self.instant("2023-07-01T06:30:00Z")))
        #expect(try DateFormat("yyyy-MM-dd HH:mm", timeZone: "UTC-8").seconds(from: "2023-07-01 12:00") == (try Self.instant("2023-07-01T20:00:00Z")))
        #expect(try DateFormat("iso8601", timeZone: "gmt").timeZone == "UTC")
        #expect(throws: DateFormatError.self) { try DateFormat("iso8601", timeZone: "UTC+15") }
        #expect(try DateFormat("iso8601", timeZone: "europe/berlin").timeZone == "Europe/Berlin")
        #expect(DateFormat.unknownZone("Berlin").hasPrefix("unknown time zone 'Berlin' (did you mean Europe/Berlin?)"))
        #expect(DateFormat.unknownZone("new york").contains("did you mean America/New_York?"))
    }

    @Test("a mapping's timeZone reads the file's Date columns, is checked with the other keys, and --save-mapping writes it")
    func mapping() throws {
        let scratch = ImportScratch()
        try scratch.write("m.model.json", """
            {"entities": [{"name": "E", "attributes": [{"name": "code", "type": "String"}, {"name": "at", "type": "Date"}]}]}
            """)
        try scratch.write("e.csv", "code,at\nA,2023-07-01 12:00\nB,2023-07-01T12:00:00Z\n")
        let mapping = try ImportMapping(json: Data("""
            {"format": 1, "model": "m.model.json", "defaults": {"timeZone": "Europe/Berlin"},
             "files": [{"path": "e.csv", "targets": [{"entity": "E", "columns": {"at": {"column": "at", "format": ["yyyy-MM-dd HH:mm", "iso8601"]}}}]}]}
            """.utf8), baseDirectory: scratch.url.path)
        #expect(mapping.defaults.timeZone == "Europe/Berlin")
        _ = try SeedImporter(model: mapping.loadModel(), mapping: mapping).run(into: scratch.path("e.sqlite"))
        let (context, rows) = try StoreReader.objects(scratch.path("e.sqlite"), "E")
        let a = rows.first { $0["code"] == .string("A") }?["at"], b = rows.first { $0["code"] == .string("B") }?["at"]
        #expect(a == Value.date(Date(timeIntervalSinceReferenceDate: try Self.instant("2023-07-01T10:00:00Z"))), "\(rows)")
        #expect(b == Value.date(Date(timeIntervalSinceReferenceDate: try Self.instant("2023-07-01T12:00:00Z"))), "\(rows)")
        withExtendedLifetime(context) {}

        let written = String(decoding: try mapping.jsonData(relativeTo: scratch.url.path, model: mapping.loadModel()), as: UTF8.self)
        #expect(written.contains(#""timeZone": "Europe/Berlin""#), "\(written)")

        let error = try #require(throws: ImportError.self) {
            try ImportMapping(json: Data("""
                {"format": 1, "defaults": {"timeZone": "Mars/Base", "trim": 3},
                 "files": [{"path": "e.csv", "targets": [{"entity": "E", "columns": {"at": {"column": "at", "timeZone": "Moon/Crater"}}}]}]}
                """.utf8), baseDirectory: scratch.url.path)
        }
        #expect(error.problems.contains { $0.hasPrefix("defaults.timeZone: unknown time zone 'Mars/Base'") }, "\(error.problems)")
        #expect(error.problems.contains { $0.hasPrefix("defaults.trim") }, "every problem in one run: \(error.problems)")
        #expect(error.problems.contains { $0.hasPrefix("files[0].targets[0].columns.at.timeZone: unknown time zone 'Moon/Crater'") },
                "\(error.problems)")
    }

    @Test("a column's own timeZone wins over the file's and --time-zone, is written back, and is refused on a non-Date attribute")
    func column() throws {
        let scratch = ImportScratch()
        try scratch.write("m.model.json", """
            {"entities": [{"name": "E", "attributes": [{"name": "code", "type": "String"}, {"name": "at", "type": "Date"},
                                                      {"name": "logged", "type": "Date"}]}]}
            """)
        try scratch.write("e.csv", "code,at,logged\nA,2023-07-01 12:00,2023-07-01 12:00\n")
        let json = """
            {"format": 1, "model": "m.model.json", "defaults": {"timeZone": "Europe/Berlin"},
             "files": [{"path": "e.csv", "targets": [{"entity": "E", "columns": {
                "at": {"column": "at", "format": "yyyy-MM-dd HH:mm"},
                "logged": {"column": "logged", "format": "yyyy-MM-dd HH:mm", "timeZone": "UTC"}}}]}]}
            """
        let mapping = try ImportMapping(json: Data(json.utf8), baseDirectory: scratch.url.path)
        for override in [nil, "America/New_York"] {
            var options = ImportOptions()
            options.timeZone = override
            _ = try SeedImporter(model: mapping.loadModel(), mapping: mapping, options: options).run(into: scratch.path("e.sqlite"))
            let (context, rows) = try StoreReader.objects(scratch.path("e.sqlite"), "E")
            let local = override == nil ? "2023-07-01T10:00:00Z" : "2023-07-01T16:00:00Z"
            #expect(rows.first?["at"] == Value.date(Date(timeIntervalSinceReferenceDate: try Self.instant(local))), "\(rows)")
            #expect(rows.first?["logged"] == Value.date(Date(timeIntervalSinceReferenceDate: try Self.instant("2023-07-01T12:00:00Z"))),
                    "the column's UTC wins: \(rows)")
            withExtendedLifetime(context) {}
        }
        let written = String(decoding: try mapping.jsonData(relativeTo: scratch.url.path, model: mapping.loadModel()), as: UTF8.self)
        #expect(written.contains(#""logged": {"column": "logged", "format": "yyyy-MM-dd HH:mm", "timeZone": "UTC"}"#), "\(written)")

        let onText = try ImportMapping(json: Data(json.replacingOccurrences(of: #""at": {"column": "at","#, with: #""code": {"column": "code", "timeZone": "UTC"}, "at": {"column": "at","#).utf8),
                                       baseDirectory: scratch.url.path)
        let error = try #require(throws: ImportError.self) {
            try SeedImporter(model: onText.loadModel(), mapping: onText).run(into: scratch.path("t.sqlite"))
        }
        #expect(error.description.contains(#"code: "timeZone" applies to Date attributes only, and code is String"#), "\(error)")
    }

    @Test("--time-zone reads an import's dates without a zone in it; an unknown zone is a usage error")
    func commandLine() throws {
        let scratch = ImportScratch()
        try scratch.write("m.model.json", """
            {"entities": [{"name": "E", "attributes": [{"name": "code", "type": "String"}, {"name": "at", "type": "Date"}]}]}
            """)
        try scratch.write("e.csv", "code,at\nA,2023-07-01T12:00:00\n")
        let result = try ImportCLI.run(["import", "--model", "m.model.json", "--out", "e.sqlite", "--progress", "none",
                                        "--time-zone", "America/New_York", "E=e.csv"], directory: scratch.url)
        #expect(result.status == 0, "\(result.errors)")
        #expect(try StoreReader.scalar(scratch.path("e.sqlite"), "SELECT ZAT FROM ZE") == .integer(Int64(try Self.instant("2023-07-01T16:00:00Z"))))
        // A mapping's own zone for a file, replaced by --time-zone: said (a user trial lost six hours silently).
        try scratch.write("e.mapping.json", """
            {"format": 1, "model": "m.model.json", "files": [{"path": "e.csv", "timeZone": "America/New_York", "targets": [{"entity": "E"}]}]}
            """)
        let replaced = try ImportCLI.run(["import", "--mapping", "e.mapping.json", "--out", "g.sqlite", "--progress", "none",
                                          "--time-zone", "Europe/Berlin"], directory: scratch.url)
        #expect(replaced.status == 0 && replaced.output.contains(#"warning: e.csv: --time-zone Europe/Berlin replaces the mapping's "timeZone": "America/New_York""#),
                "\(replaced.output)")
        // A file without Date attributes has no times to replace: nothing said (trial W).
        try scratch.write("n.model.json", #"{"entities": [{"name": "E", "attributes": [{"name": "code", "type": "String"}, {"name": "at", "type": "String"}]}]}"#)
        try scratch.write("n.mapping.json", """
            {"format": 1, "model": "n.model.json", "files": [{"path": "e.csv", "timeZone": "America/New_York", "targets": [{"entity": "E"}]}]}
            """)
        let dateless = try ImportCLI.run(["import", "--mapping", "n.mapping.json", "--out", "n.sqlite", "--progress", "none",
                                          "--time-zone", "Europe/Berlin"], directory: scratch.url)
        #expect(dateless.status == 0 && !dateless.output.contains("replaces"), "\(dateless.output)")
        let unknown = try ImportCLI.run(["import", "--model", "m.model.json", "--out", "f.sqlite", "--time-zone", "EST5", "E=e.csv"],
                                        directory: scratch.url)
        #expect(unknown.status == 64 && unknown.errors.contains("error: --time-zone: unknown time zone 'EST5'"), "\(unknown.errors)")
    }
}

/// Two-digit years read with the default pivot (1969–2068): a birth date `3-Mar-45` lands in 2045, so
/// values after today are named with the pivot that reads them as past years (a user trial).
@Suite("Import: two-digit years after today")
struct ImportTwoDigitYearTests {
    @Test("values after today from two-digit years are named once per attribute; a chosen pivot, or four-digit years, say nothing")
    func futureYearsWarn() throws {
        let scratch = ImportScratch()
        try scratch.write("m.model.json", """
            {"entities": [{"name": "Y", "attributes": [{"name": "code", "type": "String"}, {"name": "at", "type": "Date"}]}]}
            """)
        try scratch.write("y.csv", "code,at\nA,3-Mar-45\nB,1-Jan-99\nC,5-May-50\n")
        let model = try ObjectModel(contentsOf: scratch.path("m.model.json"))
        func warnings(_ formats: [String], pivot: Int?) throws -> [String] {
            var options = ImportOptions()
            options.dateFormats = formats
            options.pivotYear = pivot
            let mapping = try ImportMapping.inferred(sources: [("Y", "y.csv")], model: model, baseDirectory: scratch.url.path)
            return try SeedImporter(model: model, mapping: mapping, options: options).run(into: scratch.path("y.sqlite")).warnings
        }
        let found = try warnings(["d-MMM-yy"], pivot: nil).filter { $0.hasPrefix("Y.at:") }
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.hasPrefix("Y.at: 2 values are after today (the latest 2050-05-05), read from two-digit years, which fall in 1969–2068") == true, "\(found)")
        #expect(found.first?.contains("re-run with --pivot-year 1945, which reads two-digit years as 1945–2044") == true, "\(found)")
        #expect(try warnings(["d-MMM-yy"], pivot: 1927).allSatisfy { !$0.hasPrefix("Y.at:") })
        try scratch.write("y.csv", "code,at\nA,3-Mar-2045\n")
        #expect(try warnings(["d-MMM-yyyy"], pivot: nil).allSatisfy { !$0.hasPrefix("Y.at:") }, "a four-digit year is meant")
    }
}
