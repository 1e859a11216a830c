import Foundation
import ManagedStore
import SeedImport
import Testing

/// The BSEE offshore well list (../shared/fixtures-real/bsee-api-list) imported as a user without a
/// mapping file would: `seedstore import --model … OffshoreWell=file.csv`, headers such as
/// `BH Total MD (feet)` matched to attribute names, API numbers with leading zeros, space-padded
/// fixed-width values, `M/d/yyyy` dates back to the 1950s, quoted company names with commas.
@Suite("Import: the BSEE offshore well list, without a mapping file",
       .enabled(if: ImportFixtures.hasCLI, ImportFixtures.cliSkipReason),
       .enabled(if: ImportFixtures.hasReal, ImportFixtures.realSkipReason))
struct ImportOffshoreWellsTests {
    static let csv = ImportFixtures.real.appendingPathComponent("bsee-api-list/bsee_2020_03_20_APIList.csv").path
    static let model = ImportFixtures.path("models/bsee-offshore.model.json")

    static func importList(_ csv: String, into store: String, _ extra: [String] = []) throws -> CLIResult {
        try ImportCLI.run(["import", "--model", model, "--out", store, "--progress", "none", "OffshoreWell=\(csv)"] + extra)
    }

    @Test("every row lands with its values as written: leading zeros kept, padding trimmed with --trim, 1950s dates")
    func everyRow() throws {
        let scratch = ImportScratch()
        let store = scratch.path("Offshore.sqlite")
        let result = try Self.importList(Self.csv, into: store, ["--date-format", "M/d/yyyy", "--trim"])
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.contains("OffshoreWell: 30 rows read, 30 imported"))
        #expect(!result.output.contains("spaces or tabs around"), "\(result.output)")

        let (context, wells) = try StoreReader.objects(store, "OffshoreWell")
        #expect(wells.count == 30)
        let first = try #require(wells.first { $0["apiWellNumber"] == .string("012032016500") }, "the API number keeps its leading zero")
        #expect(first["wellName"] == .string("001"), "'  001' is trimmed, and stays a string")
        #expect(first["surfaceBlock"] == .string("827"))
        #expect(first["statusDate"] == .date(Date.utc(1993, 3, 9)))
        #expect(first["spudDate"] == .date(Date.utc(1984, 9, 24)))
        #expect(first["bhTotalMDFeet"] == .integer(21678), "BH Total MD (feet) matches bhTotalMDFeet")
        let chevron = try #require(wells.first { $0["apiWellNumber"] == .string("170750244400") })
        #expect(chevron["wellName"] == .string("A002"))
        #expect(chevron["spudDate"] == .date(Date.utc(1953, 4, 1)), "M/d/yyyy reads four-digit years as written")
        let northstar = wells.filter { $0["companyName"] == .string("Northstar Offshore Group, LLC") }
        #expect(northstar.count == 7, "the quoted comma stays inside the name")
        #expect(northstar.allSatisfy { $0["surfaceLeaseNumber"] == .string("00680") }, "' 00680' is trimmed; its leading zeros stay")
        withExtendedLifetime(context) {}
    }

    @Test("without --trim the padding is kept as written, and the summary names each padded attribute and --trim")
    func paddingKeptAndNamed() throws {
        let scratch = ImportScratch()
        let store = scratch.path("Offshore.sqlite")
        let result = try Self.importList(Self.csv, into: store, ["--date-format", "M/d/yyyy"])
        #expect(result.status == 0, "\(result.errors)")
        let padded = result.output.split(separator: "\n").filter { $0.contains("spaces or tabs around") }
        #expect(padded.count == 1, "one warning for the file: \(result.output)")
        #expect(padded.first?.contains("122 text values have spaces or tabs around them, kept as written: OffshoreWell.wellName 30 (the first \"  001\", line 2, column Well Name); ") == true, "\(padded)")
        #expect(padded.first?.contains("OffshoreWell.surfaceLeaseNumber 16 (the first \" 00680\", line 16, column Surface Lease Number)") == true, "\(padded)")
        #expect(padded.first?.hasSuffix("re-run with --trim (or \"trim\": true for the file in a mapping)") == true, "\(padded)")
        let (context, wells) = try StoreReader.objects(store, "OffshoreWell")
        let first = try #require(wells.first { $0["apiWellNumber"] == .string("012032016500") })
        #expect(first["wellName"] == .string("  001"))
        #expect(first["bhTotalMDFeet"] == .integer(21678), "numbers drop their padding whatever --trim says")
        withExtendedLifetime(context) {}
    }

    @Test("without --date-format the first date stops the import, naming the place and the option")
    func dateFormatNeeded() throws {
        let scratch = ImportScratch()
        let store = scratch.path("Offshore.sqlite")
        let result = try Self.importList(Self.csv, into: store)
        #expect(result.status == 1)
        #expect(result.errors.contains("bsee_2020_03_20_APIList.csv:2:6: OffshoreWell.statusDate (\"Status Date\" = \"3/9/1993\")"),
                "\(result.errors)")
        #expect(result.errors.contains("--date-format"))
        #expect(!FileManager.default.fileExists(atPath: store), "no store was created")
    }

    /// The full export has `*****` in `BH Total MD (feet)` for a cancelled well (see the fixture's
    /// README); the same value put into a copy of the head's second row.
    @Test("a '*****' depth aborts naming line and column and leaves the earlier store; skip mode sets the row aside")
    func maskedDepth() throws {
        let scratch = ImportScratch()
        let lines = try String(contentsOfFile: Self.csv, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        var edited = lines.map(String.init)
        #expect(edited[2].hasSuffix(",22646"))
        edited[2] = String(edited[2].dropLast("22646".count)) + "*****"
        let bad = try scratch.write("masked.csv", edited.joined(separator: "\n"))
        let store = scratch.path("Offshore.sqlite")
        #expect(try Self.importList(Self.csv, into: store, ["--date-format", "M/d/yyyy"]).status == 0)

        let aborted = try Self.importList(bad, into: store, ["--date-format", "M/d/yyyy"])
        #expect(aborted.status == 1)
        #expect(aborted.errors.contains("masked.csv:3:17: OffshoreWell.bhTotalMDFeet (\"BH Total MD (feet)\" = \"*****\"): not a whole number"),
                "\(aborted.errors)")
        #expect(aborted.errors.contains("is unchanged"))
        #expect(try StoreReader.scalar(store, "SELECT count(*) FROM ZOFFSHOREWELL") == .integer(30), "the earlier store stands")

        let skipped = try Self.importList(bad, into: store, ["--date-format", "M/d/yyyy", "--on-error", "skip", "--rejects", scratch.path("rejects.csv")])
        #expect(skipped.status == 0, "\(skipped.errors)")
        #expect(skipped.output.contains("30 rows read, 29 imported, 1 rejected"))
        let rejects = try String(contentsOfFile: scratch.path("rejects.csv"), encoding: .utf8)
        #expect(rejects.contains(",3,17,OffshoreWell,bhTotalMDFeet,*****,BH Total MD (feet): not a whole number,\"012032027100,E,  001,"),
                "\(rejects)")
        #expect(try StoreReader.scalar(store, "SELECT count(*) FROM ZOFFSHOREWELL WHERE ZAPIWELLNUMBER = '012032027100'") == .integer(0))
        #expect(try StoreReader.scalar(store, "SELECT count(*) FROM ZOFFSHOREWELL") == .integer(29))
    }
}
