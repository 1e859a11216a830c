import Foundation
import SeedImport
import Testing

/// The wells data set: shape, keys, and plausibility.
@Suite("Generate: wells")
struct GenerateWellsTests {
    static let columns = [
        "uwi", "well_name", "operator_id", "field_name", "province_state", "status", "well_type",
        "formation", "surface_latitude", "surface_longitude", "bottom_latitude", "bottom_longitude",
        "ground_elevation", "kb_elevation", "total_depth", "spud_date", "completion_date",
        "licence_number", "directional_flag", "comments",
    ]

    /// Generous bounding boxes (latitude, longitude) per province or state.
    static let bounds: [String: (ClosedRange<Double>, ClosedRange<Double>)] = [
        "AB": (49...60, -120.2 ... -109.9),
        "BC": (55...58, -123 ... -119.5),
        "SK": (49...60, -110.2 ... -101.3),
        "MB": (49...51, -102.2 ... -99),
        "ND": (45.9...49, -104.1 ... -96.5),
        "MT": (44.3...49, -116.1 ... -104),
        "WY": (41...45, -111.1 ... -104),
    ]

    /// One 10,000-well data set, generated once, read into memory and
    /// deleted, shared by the tests of this suite.
    struct Fixture: Sendable {
        var records: [[String]]
        var rows: [[String: String]]
        var operatorRecords: [[String]]
        var operators: [[String: String]]
        var wellsText: String

        static let shared = Result { () throws -> Fixture in
            let scratch = try GenerateScratch()
            defer { scratch.remove() }
            _ = try DataSetGenerator.generate(.wells, rows: 10_000, seed: 42, into: scratch.url)
            return Fixture(
                records: try scratch.records("wells.csv"), rows: try scratch.rows("wells.csv"),
                operatorRecords: try scratch.records("operators.csv"),
                operators: try scratch.rows("operators.csv"),
                wellsText: String(decoding: try scratch.bytes("wells.csv"), as: UTF8.self))
        }
    }

    let records: [[String]]
    let rows: [[String: String]]
    let fixture: Fixture

    init() throws {
        fixture = try Fixture.shared.get()
        records = fixture.records
        rows = fixture.rows
    }

    @Test("header, row count and column count")
    func shape() {
        #expect(records.first == Self.columns)
        #expect(rows.count == 10_000)
        #expect(records.allSatisfy { $0.count == 20 })
    }

    @Test("uwi is unique and DLS or API shaped")
    func uniqueIdentifiers() throws {
        let identifiers = rows.map { $0["uwi"]! }
        #expect(Set(identifiers).count == identifiers.count)
        let dls = /1[0-9A-Z][0-9]\/(0[1-9]|1[0-6])-(0[1-9]|[12][0-9]|3[0-6])-[0-9]{3}-[0-9]{2}W[1-6]\/0[0-9]/
        let api = /[0-9]{2}-[0-9]{3}-[0-9]{5}-[0-9]{2}-[0-9]{2}/
        for row in rows {
            let uwi = row["uwi"]!
            if ["ND", "MT", "WY"].contains(row["province_state"]!) {
                #expect(uwi.wholeMatch(of: api) != nil, "\(uwi)")
            } else {
                #expect(uwi.wholeMatch(of: dls) != nil, "\(uwi)")
            }
        }
    }

    @Test("dates are ISO, and completion never precedes spud")
    func dates() {
        let iso = /[12][0-9]{3}-[01][0-9]-[0-3][0-9]/
        var emptyCompletions = 0
        for row in rows {
            let spud = row["spud_date"]!
            let completion = row["completion_date"]!
            let status = row["status"]!
            if !spud.isEmpty { #expect(spud.wholeMatch(of: iso) != nil) }
            if completion.isEmpty {
                emptyCompletions += 1
                #expect(status == "Drilling" || status == "Licensed", "\(row["uwi"]!) \(status)")
            } else {
                #expect(completion.wholeMatch(of: iso) != nil)
                #expect(completion >= spud, "\(row["uwi"]!)")
            }
            if status == "Licensed" { #expect(spud.isEmpty) }
            #expect(spud <= "2023-12-31" && completion <= "2023-12-31")
        }
        #expect(emptyCompletions > 0)
    }

    @Test("licence numbers keep their leading zeros")
    func licenceNumbers() {
        for row in rows {
            let licence = row["licence_number"]!
            #expect(licence.allSatisfy(\.isASCII) && licence.allSatisfy(\.isNumber))
            if ["ND", "MT", "WY"].contains(row["province_state"]!) {
                #expect(licence.count == 5)
            } else {
                #expect(licence.count == 7 && licence.hasPrefix("0"), "\(licence)")
            }
        }
    }

    @Test("coordinates are plausible for the province, and vertical wells end where they start")
    func coordinates() {
        var provinces: Set<String> = []
        for row in rows {
            let province = row["province_state"]!
            provinces.insert(province)
            guard let (latitudes, longitudes) = Self.bounds[province] else {
                Issue.record("unexpected province \(province)")
                continue
            }
            for prefix in ["surface", "bottom"] {
                let latitude = row["\(prefix)_latitude"]!
                let longitude = row["\(prefix)_longitude"]!
                #expect(latitude.split(separator: ".").last?.count == 6)
                #expect(latitudes.contains(Double(latitude)!), "\(row["uwi"]!) \(latitude)")
                #expect(longitudes.contains(Double(longitude)!), "\(row["uwi"]!) \(longitude)")
            }
            if row["directional_flag"] == "N" {
                #expect(row["surface_latitude"] == row["bottom_latitude"])
                #expect(row["surface_longitude"] == row["bottom_longitude"])
            } else {
                #expect(row["directional_flag"] == "Y")
            }
            #expect(Double(row["kb_elevation"]!)! > Double(row["ground_elevation"]!)!)
            #expect(Double(row["total_depth"]!)! > 100)
        }
        #expect(provinces == Set(Self.bounds.keys))
    }

    @Test("vocabularies are the documented ones")
    func vocabularies() {
        #expect(
            Set(rows.map { $0["status"]! }) == [
                "Producing", "Suspended", "Abandoned", "Drilling", "Licensed", "Shut-in",
            ])
        #expect(Set(rows.map { $0["well_type"]! }) == ["Oil", "Gas", "Injection", "Disposal", "Observation"])
        #expect(rows.contains { $0["well_name"]!.contains(" HZ ") })
    }

    @Test("comments: mostly empty, some with commas, doubled quotes and line breaks")
    func comments() {
        let comments = rows.map { $0["comments"]! }
        let empty = comments.filter(\.isEmpty).count
        #expect(empty > comments.count * 8 / 10)
        #expect(comments.contains { $0.contains(",") })
        #expect(comments.contains { $0.contains("\"") })
        #expect(comments.contains { $0.contains("\n") })
        // The raw bytes hold the doubled quote of an inch mark.
        let text = fixture.wellsText
        #expect(text.contains("\"\" casing") || text.contains("\"\" liner"))
        #expect(!text.contains("\r"))
    }

    @Test("operators: scaled with rows, keys referenced by every well")
    func operators() {
        let operators = fixture.operators
        #expect(fixture.operatorRecords.first == ["operator_id", "name", "short_name", "country", "phone"])
        #expect(operators.count == 82)
        let identifiers = Set(operators.map { $0["operator_id"]! })
        #expect(identifiers.count == operators.count)
        #expect(Set(operators.map { $0["short_name"]! }).count == operators.count)
        #expect(rows.allSatisfy { identifiers.contains($0["operator_id"]!) })
        #expect(operators.contains { $0["name"]!.contains(",") })
        #expect(operators.contains { $0["name"]!.contains("&") })
        #expect(Set(operators.map { $0["country"]! }) == ["Canada", "United States"])
        let american = Set(operators.filter { $0["country"] == "United States" }.map { $0["operator_id"]! })
        for row in rows where ["ND", "MT", "WY"].contains(row["province_state"]!) {
            #expect(american.contains(row["operator_id"]!))
        }
    }

    @Test("small data sets still get ten operators")
    func minimumOperators() throws {
        let scratch = try GenerateScratch()
        defer { scratch.remove() }
        let dataSet = try DataSetGenerator.generate(.wells, rows: 5, into: scratch.url)
        #expect(dataSet.csvFiles.map(\.rows) == [10, 5])
        #expect(try scratch.rows("wells.csv").contains { $0["comments"]!.contains("\n") })
    }
}
