import Foundation
import ManagedStore
import Testing

/// `seedstore query --format csv` output imports back with the same values, to the bit: dates whose
/// seconds since 2001 have long or awkward fractions, and Decimals beyond Double's 53 bits.
@Suite(.enabled(if: CLI.hasBinary, CLI.noBinary))
final class QueryRoundTripCLITests {
    let directory = CLI.temporaryDirectory()
    let model: String
    let store: String

    /// Rows imported from text: the trial's dates and Decimal 2^53 + 1.
    static let imported = """
        name,at,amount
        a,2020-01-01T00:00:00.999999Z,9007199254740993
        b,2020-12-31T23:59:59.9995Z,-9007199254740993
        c,2020-01-01T00:00:00.0005Z,0.1
        d,2001-01-01T00:00:00.000001Z,1234.5678
        e,1969-12-31T23:59:59.123456789Z,1e20
        f,1900-01-01T00:00:00.25Z,9223372036854775807
        g,2020-12-31T23:59:59.9999999999Z,
        h,0001-01-01T00:00:00.5Z,-0.000123

        """

    /// Rows saved straight from Doubles, with every bit of their fractions set.
    static let saved: [(name: String, seconds: Double)] = [
        ("i", 631_152_000.0.nextDown), ("j", 631_152_000.0.nextUp), ("k", -978_307_200.0.nextDown),
        ("l", 0.0.nextUp), ("m", -0.1), ("n", 610_347_905.123_456_7), ("o", 252_423_993_599.999_97),
        ("p", Double(bitPattern: 0x41C1_DEAD_BEEF_CAFE)), ("q", -Double(bitPattern: 0x41D0_1234_5678_9ABC)),
    ]

    deinit { try? FileManager.default.removeItem(at: directory) }

    init() throws {
        model = directory.appendingPathComponent("sample.model.json").path
        try Data("""
            {"entities": [{"name": "Sample", "attributes": [
              {"name": "name", "type": "String"}, {"name": "at", "type": "Date"}, {"name": "amount", "type": "Decimal"}
            ]}]}
            """.utf8).write(to: URL(fileURLWithPath: model))
        let csv = directory.appendingPathComponent("samples.csv")
        try Data(Self.imported.utf8).write(to: csv)
        store = directory.appendingPathComponent("Samples.sqlite").path
        let imported = try CLI.run(["import", "--model", model, "--out", store, "--progress", "none", "Sample=\(csv.path)"])
        guard imported.status == 0 else { throw CLIError(message: imported.stderr) }

        let context = ManagedObjectContext(store: try PersistentStore(path: store))
        for (name, seconds) in Self.saved {
            let sample = try context.insert("Sample")
            sample["name"] = .string(name)
            sample["at"] = .date(Date(timeIntervalSinceReferenceDate: seconds))
        }
        try context.save()
    }

    struct CLIError: Error { let message: String }

    /// Every row's name, date and amount as SQLite holds them, with the amount's storage class.
    static func storedValues(_ path: String) throws -> [[SQLValue]] {
        try PersistentStore(path: path).connection.rows("SELECT ZNAME, ZAT, ZAMOUNT, typeof(ZAMOUNT) FROM ZSAMPLE ORDER BY ZNAME")
    }

    func query(_ format: String) throws -> String {
        let result = try CLI.run(["query", store, "--entity", "Sample", "--sort", "name", "--format", format])
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout
    }

    @Test func csvImportsBackTheSameDoublesAndIntegers() throws {
        let file = directory.appendingPathComponent("query.csv")
        try Data(try query("csv").utf8).write(to: file)
        let copy = directory.appendingPathComponent("Copy.sqlite").path
        let imported = try CLI.run(["import", "--model", model, "--out", copy, "--progress", "none", "Sample=\(file.path)"])
        #expect(imported.status == 0, "\(imported.stderr)")

        let original = try Self.storedValues(store), copied = try Self.storedValues(copy)
        #expect(original.count == 17 && copied.count == 17)
        #expect(original.map { $0[3] }.prefix(2) == [.text("integer"), .text("integer")], "2^53 + 1 is held as an INTEGER")
        for (before, after) in zip(original, copied) {
            #expect(before.map(Self.exactly) == after.map(Self.exactly), "\(before) came back as \(after)")
        }
    }

    /// A value to compare to the bit: a REAL as its bit pattern (whole seconds are INTEGER by the column's affinity).
    static func exactly(_ value: SQLValue) -> String {
        if case .real(let real) = value { return "real " + String(real.bitPattern, radix: 16) }
        return value.description
    }

    @Test func csvWritesTheDigitsEachValueNeeds() throws {
        let lines = try query("csv").components(separatedBy: "\r\n")
        #expect(lines[0] == "name,at,amount")
        #expect(Array(lines[1...4]) == [
            "a,2020-01-01T00:00:00.999999Z,9007199254740993",
            "b,2020-12-31T23:59:59.9995Z,-9007199254740993",
            "c,2020-01-01T00:00:00.0005Z,0.1",
            "d,2001-01-01T00:00:00.000001Z,1234.5678",
        ])
        // A Double near 1969 has about 16 significant digits: 9 of the written fraction's cannot all count.
        #expect(lines[5].hasPrefix("e,1969-12-31T23:59:59.123456") && lines[5].hasSuffix("Z,100000000000000000000"), "\(lines[5])")
        #expect(Array(lines[6...8]) == [
            "f,1900-01-01T00:00:00.25Z,9223372036854775807",
            "g,2021-01-01T00:00:00Z,",
            "h,0001-01-01T00:00:00.5Z,-0.000123",
        ])
        #expect(lines[9] == "i,2020-12-31T23:59:59.9999999Z,")
    }

    /// A user trial: empty data came back as null, and the bytes D3 1D 76 (Base64 "0x12") as the byte 0x12.
    @Test func csvImportsBackTheSameBinaryData() throws {
        let binaryModel = directory.appendingPathComponent("blob.model.json").path
        try Data(#"{"entities": [{"name": "Blob", "attributes": [{"name": "k", "type": "String"}, {"name": "b", "type": "Binary"}]}]}"#.utf8)
            .write(to: URL(fileURLWithPath: binaryModel))
        let csv = directory.appendingPathComponent("blobs.csv")
        try Data("k,b\nempty,0x\nlooks-like-hex,0xD31D76\nbase64,aGVsbG8=\nnone,\n".utf8).write(to: csv)
        let first = directory.appendingPathComponent("Blobs.sqlite").path, second = directory.appendingPathComponent("Blobs2.sqlite").path
        #expect(try CLI.run(["import", "--model", binaryModel, "--out", first, "--progress", "none", "Blob=\(csv.path)"]).status == 0)
        let query = try CLI.run(["query", first, "--entity", "Blob", "--sort", "k", "--format", "csv"])
        #expect(query.stdout.components(separatedBy: "\r\n").prefix(5) == ["k,b", "base64,0x68656C6C6F", "empty,0x", "looks-like-hex,0xD31D76", "none,"], "\(query.stdout)")
        let back = directory.appendingPathComponent("blobs-back.csv")
        try Data(query.stdout.utf8).write(to: back)
        #expect(try CLI.run(["import", "--model", binaryModel, "--out", second, "--progress", "none", "Blob=\(back.path)"]).status == 0)
        let sql = "SELECT ZK, quote(ZB) FROM ZBLOB ORDER BY ZK"
        let before = try PersistentStore(path: first).connection.rows(sql), after = try PersistentStore(path: second).connection.rows(sql)
        #expect(before == after && before.count == 4, "\(before) came back as \(after)")
    }

    @Test func tableAndJSONPrintTheExactDecimal() throws {
        #expect(try query("table").contains("9007199254740993"))
        let json = try query("json")
        #expect(json.contains("9007199254740993") && json.contains("-9007199254740993"), "\(json)")
        #expect(json.contains("\"2020-01-01T00:00:00.999999Z\""), "\(json)")
    }
}
