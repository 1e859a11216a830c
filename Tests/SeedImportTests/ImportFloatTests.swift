import Foundation
import ManagedStore
import SeedImport
import Testing

/// A Float attribute holds 32 bits: values beyond Float's range are rejects, the rest are stored rounded
/// to Float as Core Data writes them, so an app reading a `Float` gets what the store holds.
@Suite("Import: Float attributes")
struct ImportFloatTests {
    static let model = """
        {"entities": [
          {"name": "Sample", "attributes": [{"name": "id", "type": "Integer 32"}, {"name": "f", "type": "Float"},
                                            {"name": "d", "type": "Double"}]}]}
        """

    @Test("beyond ±Float.greatestFiniteMagnitude or too small to be other than 0 is a reject; the rest is stored Float-rounded; Double is untouched")
    func rangeAndRounding() throws {
        let scratch = ImportScratch()
        try scratch.write("samples.csv", """
            id,f,d
            1,1e39,1e39
            2,16777217,16777217
            3,1e-40,1e-50
            4,-3.5e38,1
            5,0.1,0.1
            6,3.4028235e38,2
            7,1e-50,3

            """)
        try scratch.write("m.model.json", Self.model)
        let objectModel = try ObjectModel(contentsOf: scratch.path("m.model.json"))
        let mapping = try ImportMapping.inferred(sources: [("Sample", "samples.csv")], model: objectModel, baseDirectory: scratch.url.path)
        let summary = try SeedImporter(model: objectModel, mapping: mapping, options: scratch.skipping()).run(into: scratch.path("s.sqlite"))
        #expect(summary.rejects == 3, "3.4028235e38 rounds to Float.greatestFiniteMagnitude: in range")
        let rejects = try ImportRejectsTests.records(scratch.path("rejects.csv"))
        let reasons = Dictionary(uniqueKeysWithValues: rejects.dropFirst().map { (Int($0[1])!, $0[6]) })
        #expect(reasons[2] == "f: 1e+39 is outside Float's range -3.4028235e+38...3.4028235e+38")
        #expect(reasons[5] == "f: -3.5e+38 is outside Float's range -3.4028235e+38...3.4028235e+38")
        // A user trial: below Float's smallest subnormal a number was stored as 0 without a word.
        #expect(reasons[8] == "f: 1e-50 is too small for Float: it would be stored as 0 (the smallest is 1e-45); write 0 if zero is meant, or make the attribute Double")

        func stored(_ id: Int) throws -> (f: Double?, d: Double?) {
            let rows = try StoreReader.open(scratch.path("s.sqlite")).connection.rows("SELECT ZF, ZD FROM ZSAMPLE WHERE ZID = \(id)")
            let values = try #require(rows.first, "row \(id) was imported")
            func real(_ value: SQLValue) -> Double? { if case .real(let v) = value { v } else { nil } }
            return (real(values[0]), real(values[1]))
        }
        #expect(try stored(2).f == 16_777_216, "Float has 24 bits of mantissa")
        #expect(try stored(2).d == 16_777_217)
        #expect(try stored(3).f == Double(Float(1e-40)), "a Float subnormal is a number")
        #expect(try stored(3).d == 1e-50)
        #expect(try stored(5).f == Double(Float(0.1)))
        #expect(try stored(5).d == 0.1)
        #expect(try stored(6).f == Double(Float.greatestFiniteMagnitude))
    }

    /// A user trial: SQLite stores NaN as NULL, so a "NaN" field is a reject with that reason, never a
    /// silent null (or a null in a required attribute).
    @Test("NaN in a Double or Float column is a reject saying SQLite stores NaN as NULL")
    func nanIsARejectWithAReason() throws {
        let scratch = ImportScratch()
        try scratch.write("samples.csv", """
            id,f,d
            1,1.5,NaN
            2,nan,2.5
            3,-NaN,1
            4,1,1

            """)
        try scratch.write("m.model.json", Self.model)
        let objectModel = try ObjectModel(contentsOf: scratch.path("m.model.json"))
        let mapping = try ImportMapping.inferred(sources: [("Sample", "samples.csv")], model: objectModel, baseDirectory: scratch.url.path)
        let summary = try SeedImporter(model: objectModel, mapping: mapping, options: scratch.skipping()).run(into: scratch.path("s.sqlite"))
        #expect(summary.rejects == 3)
        let rejects = try ImportRejectsTests.records(scratch.path("rejects.csv"))
        let reasons = Dictionary(uniqueKeysWithValues: rejects.dropFirst().map { (Int($0[1])!, $0[6]) })
        let reason = "NaN is not a number the store can hold (SQLite stores NaN as NULL, so it would read back nil): leave the field empty for no value "
            + "(or make NaN a null token: --null '' --null NULL --null NA --null NaN, the defaults and NaN, as --null replaces them, or the column's \"nullTokens\" in a mapping), or write a number"
        #expect(reasons[2] == "d: " + reason)
        #expect(reasons[3] == "f: " + reason)
        #expect(reasons[4] == "f: " + reason)
        let rows = try StoreReader.open(scratch.path("s.sqlite")).connection.rows("SELECT ZID FROM ZSAMPLE")
        #expect(rows == [[.integer(4)]])
    }
}

