import Foundation
import ManagedStore
import SeedImport
import Testing

/// The real FDIC failed bank list, the Oklahoma injection-well registry, the Northwind tables and the
/// data.gov federal buildings list (../shared/fixtures-real).
@Suite("Import: real-world files", .enabled(if: ImportFixtures.hasReal, ImportFixtures.realSkipReason))
struct ImportRealFixturesTests {
    /// Imports with the committed mapping `name` into `store` in `scratch`; in skip mode, rejects go to
    /// `rejects.csv` there.
    static func importFixture(_ name: String, into store: String, skipping: Bool = false, in scratch: ImportScratch) throws -> ImportSummary {
        let mapping = try ImportFixtures.mapping(name)
        var options = ImportOptions()
        if skipping {
            options.onError = .skip
            options.rejectsPath = scratch.path("rejects.csv")
        }
        return try SeedImporter(model: try mapping.loadModel(), mapping: mapping, options: options).run(into: scratch.path(store))
    }

    @Test("the FDIC list fills FailedBankInfo and FailedBankDetails one-to-one")
    func fdic() throws {
        let scratch = ImportScratch()
        let store = scratch.path("FDIC.sqlite")
        let summary = try Self.importFixture("fdic-2023", into: "FDIC.sqlite", in: scratch)
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
        let store = scratch.path("Wells.sqlite")
        let summary = try Self.importFixture("ok-injection-wells", into: "Wells.sqlite", skipping: true, in: scratch)
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

    /// Eleven related files listed in no useful order (order lines first): imported in dependency order,
    /// with to-one keys across files, a self-referencing manager that names a later row, a many-to-many
    /// join file, hex photos and `NULL` literals. The export forgot to quote values holding a comma
    /// (`24, place Kléber`, `Pavlova, Ltd.`): those ragged rows are set aside, and so, in turn, are the
    /// rows naming what they would have made (products of a rejected supplier, lines of those products).
    /// Expected counts computed separately from the files (a plain RFC 4180 reader).
    @Test("Northwind: eleven related files, a join file, a forward manager key, ragged rows and what names them")
    func northwind() throws {
        let scratch = ImportScratch()
        let store = scratch.path("Northwind.sqlite")
        let summary = try Self.importFixture("northwind", into: "Northwind.sqlite", skipping: true, in: scratch)
        let order = summary.files.map { ($0.path as NSString).lastPathComponent }
        #expect(order.firstIndex(of: "order-details.csv") == order.count - 1, "listed first, imported last: \(order)")
        #expect(order.firstIndex(of: "employee-territories.csv")! > order.firstIndex(of: "territories.csv")!)
        let rejects = Dictionary(uniqueKeysWithValues: summary.files.map { (($0.path as NSString).lastPathComponent, $0.rejects) })
        #expect(rejects == ["customers.csv": 24, "orders.csv": 176, "suppliers.csv": 9, "products.csv": 25, "order-details.csv": 1_091,
                            "shippers.csv": 0, "employees.csv": 0, "regions.csv": 0, "territories.csv": 0, "categories.csv": 0,
                            "employee-territories.csv": 0])
        let stored = summary.objects.mapValues(\.stored)
        #expect(stored == ["Customer": 67, "Order": 654, "Supplier": 20, "Product": 52, "OrderLine": 1_064, "Shipper": 3,
                           "Employee": 9, "Region": 4, "Territory": 53, "Category": 8])

        let (context, employees) = try StoreReader.objects(store, "Employee")
        func employee(_ id: Int64) throws -> ManagedObject { try #require(employees.first { $0["employeeID"] == .integer(id) }) }
        let nancy = try employee(1), fuller = try employee(2)
        #expect(try nancy.object(forKey: "manager") === fuller, "reportsTo 2 names a row further down the file")
        #expect(try fuller.object(forKey: "manager") == nil, "NULL is null")
        #expect(Set(try fuller.objects(forKey: "reports").map { $0["firstName"] })
                == Set(["Nancy", "Janet", "Margaret", "Steven", "Laura"].map(Value.string)))
        #expect(Set(try nancy.objects(forKey: "territories").map { $0["territoryID"] }) == [.string("06897"), .string("19713")],
                "leading zeros kept, through the join file")
        #expect(nancy["birthDate"] == .date(Date.utc(1948, 12, 8)))
        #expect(nancy["region"] == .string("WA") && fuller["title"] == .string("Vice President, Sales"))
        guard case .data(let photo) = nancy["photo"] else { Issue.record("photo: \(String(describing: nancy["photo"]))"); return }
        #expect(photo.count == 127 && Array(photo.prefix(4)) == [0x15, 0x1C, 0x2F, 0x00], "0x… hex, cut to 254 digits in the file")

        let orders = try context.fetchAll("Order")
        let first = try #require(orders.first { $0["orderID"] == .integer(10248) })
        #expect(try first.object(forKey: "customer")?["customerID"] == .string("VINET"))
        #expect(try first.object(forKey: "employee") === (try employee(5)))
        #expect(try first.object(forKey: "shipper")?["companyName"] == .string("Federal Shipping"), "shipVia 3")
        #expect(first["orderDate"] == .date(Date.utc(1996, 7, 4)) && first["shipRegion"] == .null)
        #expect(try first.objects(forKey: "lines").map { $0["quantity"] } == [.integer(12)],
                "of its three lines, products 42 and 72 came from rejected suppliers")
        let customers = try context.fetchAll("Customer")
        #expect(!customers.contains { $0["customerID"] == .string("BLONP") }, "24, place Kléber made the row ragged")
        withExtendedLifetime(context) {}

        let records = try ImportRejectsTests.records(scratch.path("rejects.csv"))
        let blonp = try #require(records.first { $0[0].hasSuffix("customers.csv") && $0[1] == "8" })
        #expect(blonp[6].hasSuffix("Fields 5 (address) and 6 look like one value split at its \",\": \"24, place Kléber\" must be in quotes."))
        let pavlova = try #require(records.first { $0[0].hasSuffix("products.csv") && $0[1] == "17" })
        #expect(Array(pavlova[2...5]) == ["3", "Product", "supplier", "7"] && pavlova[6].contains("no Supplier has supplierID 7"))
        let line = try #require(records.first { $0[0].hasSuffix("order-details.csv") && $0[1] == "3" })
        #expect(line[6].contains("no Product has productID 42") && line[7] == "10248,42,9.80,10,0")
    }

    /// The data.gov list of federal buildings: a construction date column that mixes `0` (5,000 rows),
    /// `1-Jan-33` (1900s, two digits) and `01-Jan-1836` (before 1900, four), read with a list of formats
    /// and a column null token; single-space fields trimmed to null; ZIP codes kept as written; values
    /// that end in literal quotes. Counts computed separately with a plain RFC 4180 reader.
    @Test("data.gov buildings: a date column in two formats and a 0 placeholder, single-space fields, quotes at the end")
    func federalBuildings() throws {
        let scratch = ImportScratch()
        let store = scratch.path("Buildings.sqlite")
        let summary = try Self.importFixture("federal-buildings", into: "Buildings.sqlite", in: scratch)
        #expect(summary.rowsRead == 9_246 && summary.rejects == 0)
        #expect(summary.objects["FederalBuilding"]?.stored == 9_246)
        #expect(try StoreReader.scalar(store, "SELECT count(*) FROM ZFEDERALBUILDING WHERE ZCONSTRUCTIONDATE IS NULL") == .integer(5_000),
                "the 0 placeholder is null")
        #expect(try StoreReader.scalar(store, "SELECT count(*) FROM ZFEDERALBUILDING WHERE ZADDRESS2 IS NULL") == .integer(8_464),
                "\" \" trimmed is empty, and empty is null")

        let (context, buildings) = try StoreReader.objects(store, "FederalBuilding")
        func building(_ code: String) throws -> ManagedObject { try #require(buildings.first { $0["locationCode"] == .string(code) }) }
        let hartford = try building("CT0013")
        #expect(hartford["constructionDate"] == .date(Date.utc(1933, 1, 1)), "1-Jan-33 with pivot year 1900")
        #expect(hartford["zip"] == .string("61031125") && hartford["address2"] == .null)
        #expect(hartford["accessibility"] == .string("Will Conform"), "the header's trailing space")
        #expect(try building("MA0076")["constructionDate"] == .date(Date.utc(1836, 1, 1)), "01-Jan-1836, the second format")
        #expect(try building("WA7965")["constructionDate"] == .date(Date.utc(1999, 6, 1)))
        #expect(try building("WA7965")["address1"] == .string("LATITUDE 46 DEG 06' 11 N LONGITUDE\""))
        #expect(try building("NY7552")["address2"] == .string("Space C\"\""))
        withExtendedLifetime(context) {}
    }
}
