import Foundation
import Testing
@testable import ManagedStore

/// A Float attribute holds what a 32-bit `Float` holds, however its value is set: rounded on the way in,
/// and a save refuses a number beyond Float's range.
@Suite struct FloatAttributeTests {
    static let model = try! ObjectModel([
        EntityDescription("Sample", attributes: [Attribute("f", .float), Attribute("d", .double),
                                                 Attribute("g", .float, defaultValue: .double(0.1))]),
    ])

    @Test func valuesAreRoundedToFloatAsTheyAreSet() throws {
        let harness = try StoreHarness(model: Self.model)
        let entity = try harness.store.entity(named: "Sample")
        let set = try harness.context.insert("Sample")
        set["f"] = .double(16_777_217)
        set["d"] = .double(16_777_217)
        #expect(set["f"] == .double(16_777_216), "Float has 24 bits of mantissa")
        #expect(set["d"] == .double(16_777_217), "Double is untouched")
        #expect(set["g"] == .double(Double(Float(0.1))), "defaults too")
        set["g"] = .integer(16_777_217)
        #expect(set["g"] == .double(16_777_216))
        let inserted = harness.context.insert(entity, values: [.double(1e-50), .double(1e-50), .null])
        #expect(inserted["f"] == .double(0))
        #expect(inserted["d"] == .double(1e-50))
        try harness.context.save()

        let rows = try harness.store.connection.rows("SELECT ZF, ZD, ZG FROM ZSAMPLE ORDER BY Z_PK")
        #expect(rows.map { $0.map(\.description) } == [["16777216.0", "16777217.0", "16777216.0"], ["0.0", "1e-50", "NULL"]])
    }

    @Test func aNumberBeyondFloatsRangeFailsTheSave() throws {
        let harness = try StoreHarness(model: Self.model)
        let sample = try harness.context.insert("Sample")
        sample["f"] = .double(1e39)
        sample["d"] = .double(1e39)
        #expect(sample["f"] == .double(1e39), "kept as given, for the save to report")
        #expect(!Value.double(-1e39).fits(.float) && Value.double(.infinity).fits(.float) && Value.double(3.4028235e38).fits(.float))
        do {
            try harness.context.save()
            Issue.record("the save must fail")
        } catch {
            guard case .validation(let failures) = error else { Issue.record("\(error)"); return }
            #expect(failures.map(\.key) == ["f"])
            #expect(failures.first?.code == .numberTooLarge)
            #expect(failures.first?.message == "is 1e+39, outside Float's range -3.4028235e+38...3.4028235e+38")
        }
    }
}
