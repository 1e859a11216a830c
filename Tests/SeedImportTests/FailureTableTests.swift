import PropertyBased
@testable import SeedImport
import Testing

/// The packed table of rows' failures gives back, line by line, exactly the failures put in.
@Suite("Import: the table of rejected rows' failures")
struct FailureTableTests {
    /// Every field of a failure, for comparing (`_RowFailure` is not `Equatable`).
    static func fields(_ failure: _RowFailure?) -> [String?] {
        guard let failure else { return ["absent"] }
        return [failure.field.map(String.init), failure.entity, failure.attribute, failure.reason, failure.value,
                failure.byteOffset.map(String.init), failure.hint]
    }

    /// Texts of pieces: empty, multi-byte, NUL, quotes, line breaks, and long enough for several bytes of length.
    static let text = Gen<String?>.element(of: ["", "a", "é", "€", "😀", "\"", ",", "\n", "\0", "x y", String(repeating: "z", count: 130)])
        .map { $0! }.array(of: 0...3).map { $0.joined() }

    @Test("a failure with every field, none, and large numbers reads back the same")
    func roundTrip() {
        var table = _FailureTable()
        let full = _RowFailure(field: 0, entity: "Well", attribute: "spudDate", reason: "not a date in yyyy-MM-dd",
                               value: "30-Feb-23", byteOffset: 0, hint: "Give the column's format in the mapping.")
        let bare = _RowFailure(reason: "")
        let large = _RowFailure(field: Int(Int32.max) + 5, reason: String(repeating: "long ", count: 400), byteOffset: .max)
        table[7] = full
        table[1_000_000_000] = bare
        table[2] = large
        #expect(table.count == 3 && !table.isEmpty)
        #expect(Self.fields(table[7]) == Self.fields(full))
        #expect(Self.fields(table[1_000_000_000]) == Self.fields(bare))
        #expect(Self.fields(table[2]) == Self.fields(large))
        #expect(table[3] == nil && !table.contains(3) && table.contains(2))
        table[2] = nil
        #expect(table[2] == nil && table.count == 2)
    }

    @Test("merging keeps the failure a line already has")
    func mergeKeepsFirst() {
        var first = _FailureTable(), second = _FailureTable()
        first[4] = _RowFailure(reason: "first")
        second[4] = _RowFailure(reason: "second")
        second[5] = _RowFailure(reason: "only in the second")
        first.merge(second)
        #expect(first[4]?.reason == "first" && first[5]?.reason == "only in the second" && first.count == 2)
    }

    /// Random lines (repeats replace) with random texts and numbers: the table answers as a dictionary does,
    /// for every line put in and for lines never put in.
    /// With a limit of 0 to 200 bytes the texts move to the temporary file after none or a few failures, so
    /// lookups read from the file, from the write buffer, and (below the limit) from memory.
    @Test("property: the table answers as a dictionary of failures does, in memory or moved to a file")
    func matchesDictionary() async {
        let entry = zip(Gen.int(in: 0...60), Self.text, Self.text, Gen.int(in: -1...1_000_000), Gen.bool)
        await propertyCheck(input: entry.array(of: 0...40), Gen.element(of: [0, 64, 200, _FailureLog.defaultMemoryLimit]).map { $0! }) { entries, limit in
            var table = _FailureTable(memoryLimit: limit)
            var reference: [Int: _RowFailure] = [:]
            for (line, reason, value, number, optional) in entries {
                let failure = _RowFailure(
                    field: number < 0 ? nil : number % 97, entity: optional ? nil : "E", attribute: optional ? "a" : nil,
                    reason: reason, value: optional ? nil : value, byteOffset: number < 0 ? nil : Int64(number) * 4_099,
                    hint: optional ? value : nil)
                table[line] = failure
                reference[line] = failure
            }
            #expect(table.count == reference.count)
            #expect(Set(table.lines) == Set(reference.keys))
            for line in -1...61 { #expect(Self.fields(table[line]) == Self.fields(reference[line]), "line \(line)") }
        }
    }

    @Test("past its limit the table moves to a file, and copies and merges still read their own failures")
    func spilled() {
        var table = _FailureTable(memoryLimit: 300)
        for line in 0..<2_000 {
            table[line] = _RowFailure(field: line % 7, entity: "Emp", attribute: "manager",
                                      reason: "no Emp has code \(line + 10_000_000)", value: String(line + 10_000_000))
        }
        #expect(table.isSpilled)
        // A copy shares the log: each keeps its own failures as both grow.
        var copy = table
        copy[5] = _RowFailure(reason: "replaced in the copy")
        table[2_000] = _RowFailure(reason: "added to the original")
        #expect(copy[5]?.reason == "replaced in the copy" && table[5]?.reason == "no Emp has code 10000005")
        #expect(table[2_000]?.reason == "added to the original" && copy[2_000] == nil)
        var merged = _FailureTable(memoryLimit: 0)
        merged[1_999] = _RowFailure(reason: "kept")
        merged.merge(table)
        #expect(merged.count == 2_001 && merged[1_999]?.reason == "kept")
        for line in [0, 1, 777, 1_998] {
            #expect(Self.fields(merged[line]) == Self.fields(_RowFailure(
                field: line % 7, entity: "Emp", attribute: "manager", reason: "no Emp has code \(line + 10_000_000)",
                value: String(line + 10_000_000))))
        }
    }

    @Test("a record longer than the first read, and than the write buffer, reads back whole from the file")
    func longRecords() throws {
        let log = _FailureLog(memoryLimit: 0)
        let small = log.append([1, 2, 3])
        let long = [UInt8]((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let big = log.append(long)
        let after = log.append([])
        #expect(log.isSpilled)
        #expect(try log.record(at: small).get() == [1, 2, 3])
        #expect(try log.record(at: big).get() == long)
        #expect(try log.record(at: after).get() == [])
    }
}

