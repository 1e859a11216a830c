import Foundation
import ManagedStore
import SeedImport
import Testing

/// The real FDIC failed bank list and the Oklahoma injection-well registry (../shared/fixtures-real).
@Suite("Import: real-world files", .enabled(if: ImportFixtures.hasReal, ImportFixtures.realSkipReason))
struct ImportRealFixturesTests {
    @Test("the FDIC list fills FailedBankInfo and FailedBankDetails one-to-one")
    func fdic() throws {
        let scratch = ImportScratch()
        let mapping = try ImportFixtures.mapping("fdic-2023")
        let store = scratch.path("FDIC.sqlite")
        let summary = try SeedImporter(model: try mapping.loadModel(), mapping: mapping).run(into: store)
        #expect(summary.rowsRead == 567)
        #expect(summary.rejects == 0)
        #expect(summary.duplicates.isEmpty, "Cert is unique")
        #expect(summary.objects["FailedBankDetails"]?.stored == 567)
        #expect(summary.objects["FailedBankInfo"]?.stored == 567)

        let (context, banks) = try StoreReader.objects(store, "FailedBankInfo")
        #expect(banks.count == 567)
        #expect(Set(banks.map { $0["name"] }).count < 567, "bank names repeat; the name is not the key")
        let svb = try #require(banks.first { $0["name"] == .string("Silicon Valley Bank") })
        #expect(svb["city"] == .string("Santa Clara"), "'City ' with its trailing space matches city")
        let details = try #require(try svb.object(forKey: "details"))
        #expect(details["acquirer"] == .string("First\u{2013}Citizens Bank & Trust Company"), "0x96 is an en dash in Windows-1252")
        #expect(details["cert"] == .integer(24735))
        #expect(details["fund"] == .integer(10539))
        #expect(details["closeDate"] == .date(Date.utc(2023, 3, 10)))
        #expect(try details.object(forKey: "info") === svb, "both sides of the one-to-one are set")
        let honolulu = try #require(banks.first { $0["name"] == .string("Bank of Honolulu") })
        #expect(try honolulu.object(forKey: "details")?["closeDate"] == .date(Date.utc(2000, 10, 13)), "13-Oct-00 is 2000")

        let certs = try context.fetchAll("FailedBankDetails").map { $0["cert"] }
        #expect(Set(certs).count == 567)
        let linked = try StoreReader.scalar(store, """
            SELECT count(*) FROM ZFAILEDBANKINFO i JOIN ZFAILEDBANKDETAILS d ON i.ZDETAILS = d.Z_PK AND d.ZINFO = i.Z_PK
            """)
        #expect(linked == .integer(567))
    }

    @Test("Oklahoma injection wells with their operators: \"2,500\", NA, M/d/yyyy, the empty last record")
    func injectionWells() throws {
        let scratch = ImportScratch()
        let mapping = try ImportFixtures.mapping("ok-injection-wells")
        let store = scratch.path("Wells.sqlite")
        var options = ImportOptions()
        options.onError = .skip
        options.rejectsPath = scratch.path("rejects.csv")
        let summary = try SeedImporter(model: try mapping.loadModel(), mapping: mapping, options: options).run(into: store)
        let file = try #require(summary.files.first)
        #expect(file.rowsRead == 11_126)
        #expect(file.blankRows == 1, "the trailing ,,,,… record is skipped, not rejected")
        #expect(file.rejects == 29, "PSI values like 224B/475G and V-2000, CH 1700 are not numbers")
        #expect(file.rowsImported == 11_096)
        #expect(summary.objects["InjectionWell"]?.stored == 11_096)
        let operators = try #require(summary.objects["Operator"])
        #expect(operators.stored == 1_452)
        #expect(operators.inserted + operators.updated == 11_096, "one operator per row, repeated ids update")
        let repeated = try #require(summary.duplicates.first { $0.entity == "Operator" })
        #expect(repeated.key == "operatorID" && repeated.lines.first == 6)

        let (context, wells) = try StoreReader.objects(store, "InjectionWell")
        let first = try #require(wells.first { $0["api"] == .string("3500300026") })
        #expect(first["psi"] == .integer(2500))
        #expect(first["bbls"] == .integer(300))
        #expect(first["approvalDate"] == .date(Date.utc(1977, 9, 6)))
        #expect(first["latitude"] == .double(36.900324))
        #expect(try first.object(forKey: "operator")?["name"] == .string("PHOENIX PETROCORP INC"))
        #expect(try first.object(forKey: "operator")?["operatorID"] == .integer(19499))
        let latigo = try #require(wells.first { $0["api"] == .string("3500723443") })
        #expect(latigo["psi"] == .null && latigo["bbls"] == .null, "NA is null")
        let miles = try #require(wells.first { $0["api"] == .string("3500720921") })
        #expect(miles["wellName"] == .string("MILES \"K\""))
        #expect(wells.contains { $0["approvalDate"] == .date(Date.utc(2002, 11, 27)) })
        withExtendedLifetime(context) {}

        let rejects = try String(contentsOfFile: scratch.path("rejects.csv"), encoding: .utf8)
        let lines = rejects.split(separator: "\n")
        #expect(lines.first == "file,line,column,entity,attribute,value,reason,raw")
        #expect(lines.count == 30)
        #expect(lines[1].contains("InjectionWells.csv,4273,16,InjectionWell,psi,224B/475G,PSI: not a whole number,\"3505320168,ONEOK"))
        #expect(rejects.contains(",7377,16,InjectionWell,psi,\"V-2000, CH 1700\""))
        #expect(!rejects.contains(",11127,"))
    }
}
