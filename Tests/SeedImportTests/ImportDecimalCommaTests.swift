import Foundation
import ManagedStore
import PropertyBased
import Testing
@testable import SeedImport

/// Numbers written with a decimal comma (`1.234,5`), as European spreadsheets export them.
@Suite("Import: decimal comma")
struct ImportDecimalCommaTests {
    /// Converts or explains `text` with the converter for `type`; the converter's box lives as long as
    /// the call (converters hold it unretained).
    static func with<Result>(_ type: AttributeType, decimalComma: Bool = true,
                             _ body: (_FieldConverter) -> Result) throws -> Result {
        var keepAlive: [AnyObject] = []
        let converter = try _FieldConverter.make(for: Attribute("n", type), format: nil, encoding: .utf8, decimalComma: decimalComma,
                                                 keepAlive: &keepAlive).get()
        return withExtendedLifetime(keepAlive) { body(converter) }
    }

    static func convert(_ text: String, _ type: AttributeType, decimalComma: Bool = true) throws -> Value? {
        try with(type, decimalComma: decimalComma) { converter in Array(text.utf8).withUnsafeBufferPointer { converter.convert($0) } }
    }

    static func reason(_ text: String, _ type: AttributeType, decimalComma: Bool = true) throws -> String {
        try with(type, decimalComma: decimalComma) { converter in Array(text.utf8).withUnsafeBufferPointer { converter.explain($0) } }
    }

    @Test("every number type reads ',' as the decimal mark and '.' as the thousands separator")
    func reads() throws {
        #expect(try Self.convert("1.234,5", .double) == .double(1234.5))
        #expect(try Self.convert("-0,25", .double) == .double(-0.25))
        #expect(try Self.convert("1,5e3", .double) == .double(1500))
        #expect(try Self.convert("2.500", .integer32) == .integer(2500))
        #expect(try Self.convert("1.234.567", .integer64) == .integer(1_234_567))
        #expect(try Self.convert("42,0", .integer16) == .integer(42), "a fraction of zeros, as for a decimal point")
        #expect(try Self.convert("1.234,56", .decimal) == .decimal(Decimal(string: "1234.56")!))
        #expect(try Self.convert("0,5", .float) == Value.double(0.5).stored(as: .float))
        #expect(try Self.convert("1.234,5", .double, decimalComma: false) == nil, "off, the same text is not a number")
        // French and Nordic grouping: a space, a no-break space, a narrow no-break space.
        #expect(try Self.convert("1 234,5", .double) == .double(1234.5))
        #expect(try Self.convert("1\u{00A0}234\u{00A0}567", .integer64) == .integer(1_234_567))
        #expect(try Self.convert("12\u{202F}500,25", .decimal) == .decimal(Decimal(string: "12500.25")!))
        #expect(try Self.convert("12 34", .integer32) == nil, "groups are of three")
        let windows1252 = try Self.with(.integer32) { converter in [0x31, 0xA0, 0x32, 0x33, 0x34].withUnsafeBufferPointer { converter.convert($0) } }
        #expect(windows1252 == .integer(1234), "a no-break space as Windows-1252 and Latin-1 write it, one byte")
    }

    @Test("what does not read says so in the file's own way of writing numbers")
    func reasons() throws {
        #expect(try Self.convert("1,234.5", .double) == nil)
        #expect(try Self.reason("1,234.5", .double) == "not a number with a decimal comma ('.' is read only as a thousands separator between groups of three digits, ',' as the decimal mark, as in 2.500,75)")
        #expect(try Self.reason("12.34", .integer32).hasPrefix("not a number with a decimal comma"))
        #expect(try Self.reason("1,5", .integer32).hasPrefix("the value has a fraction: an Integer attribute takes whole numbers"))
        #expect(try Self.reason("70.000", .integer16) == "70000 is outside Integer 16's range -32768...32767")
        #expect(try Self.reason("abc", .double) == "not a number")
    }

    @Test("off, a number that reads with a decimal comma says how to read it so")
    func hint() throws {
        let reason = try Self.reason("1.234,5", .double, decimalComma: false)
        #expect(reason == "not a number (',' is read only as a thousands separator between groups of three digits, as in 2,500); it reads as a number with a decimal comma: if the file writes numbers so (1.234,5), pass --decimal-comma, or \"decimalComma\": true for the file in a mapping")
        #expect(try Self.reason("1,5", .integer32, decimalComma: false) == "not a number (',' is read only as a thousands separator between groups of three digits, as in 2,500)",
                "1,5 is no whole number either way: no hint")
    }

    /// A user trial: `0,500` in a `;` file stored 500.0 with exit 0, quoted "0,001" stored 1 in an
    /// Integer 64, and with --decimal-comma `0.500` stored 500.0 and `-0.001` stored -1.
    @Test("a first thousands group that starts with 0 is no grouping, in either way of writing numbers, for every number type")
    func zeroLedGroups() throws {
        let types: [AttributeType] = [.integer16, .integer32, .integer64, .double, .float, .decimal]
        for type in types {
            for text in ["0,500", "00,500", "-0,001", "0,001", "000,250", "0,500,000", "+0,250.5"] {
                #expect(try Self.convert(text, type, decimalComma: false) == nil, "\(type.rawValue) \(text)")
                #expect(try Self.reason(text, type, decimalComma: false).hasPrefix(_NumberParser.zeroGroupReason), "\(type.rawValue) \(text)")
            }
            for text in ["0.500", "00.500", "-0.001", "0.500.000"] {
                #expect(try Self.convert(text, type) == nil, "\(type.rawValue) \(text), --decimal-comma")
                #expect(try Self.reason(text, type).hasPrefix("not a number with a decimal comma ('.' is read only as a thousands separator after a first group of 1 to 3 digits that does not start with 0"),
                        "\(type.rawValue) \(text)")
            }
            // What is valid still reads.
            #expect(try Self.convert("1,000", type, decimalComma: false) != nil, "\(type.rawValue)")
            #expect(try Self.convert("0", type, decimalComma: false) != nil && Self.convert("0", type) != nil, "\(type.rawValue)")
            #expect(try Self.convert("1.000", type) != nil, "\(type.rawValue)")
        }
        #expect(try Self.convert("1,234,567.5", .double, decimalComma: false) == .double(1_234_567.5))
        #expect(try Self.convert("0.5", .double, decimalComma: false) == .double(0.5))
        #expect(try Self.convert("-0,5", .double) == .double(-0.5))
        #expect(try Self.convert("0,5", .decimal) == .decimal(Decimal(string: "0.5")!))
        #expect(try Self.convert("999,999", .integer32, decimalComma: false) == .integer(999_999))
        #expect(try Self.convert("0 500", .double) == nil, "space grouping follows the same rule")

        // The reason names the likely cause and what to do, reusing the decimal-comma hint.
        #expect(try Self.reason("0,500", .double, decimalComma: false) == _NumberParser.zeroGroupReason
                + "; it reads as a number with a decimal comma: if the file writes numbers so (1.234,5), pass --decimal-comma, or \"decimalComma\": true for the file in a mapping")
        #expect(try Self.reason("0,001", .integer64, decimalComma: false).hasSuffix(
            "; it reads as a number with a decimal comma, 0.001, which has a fraction: an Integer attribute takes whole numbers "
                + "(if the file writes numbers so, pass --decimal-comma, or \"decimalComma\": true for the file in a mapping, and make the attribute Double or Decimal)"))
        #expect(try Self.reason("0.500", .double).hasSuffix(
            "; it reads as a number with a decimal point: if the file writes numbers so (1,234.5), leave out --decimal-comma, or set \"decimalComma\": false for the file in a mapping"))
        #expect(try Self.reason("-0.001", .integer64).hasSuffix(
            "; it reads as a number with a decimal point, -0.001, which has a fraction: an Integer attribute takes whole numbers "
                + "(if the file writes numbers so, leave out --decimal-comma, or set \"decimalComma\": false for the file in a mapping, and make the attribute Double or Decimal)"))
    }

    /// A user trial: `1,250` in a `;` file without --decimal-comma stored 1250 without a word. It is valid
    /// grouping, so it reads, but the summary says it once per file and attribute.
    @Test("numbers read with ',' grouping thousands in a ';' or tab file are counted in one warning per attribute")
    func commaGroupingWarning() throws {
        let scratch = ImportScratch()
        try scratch.write("wells.model.json", """
            {"entities": [{"name": "W", "attributes": [{"name": "id", "type": "String", "optional": false},
              {"name": "lat", "type": "Double"}, {"name": "depth", "type": "Integer 32"}, {"name": "note", "type": "String"}]}]}
            """)
        try scratch.write("wells.csv", "id;lat;depth;note\nk1;1,250;12;a,b\nk2;3;1,000;x\nk3;2,500;7;y\nk4;4,125,000;8;z\n")
        func run(_ delimiter: String, _ file: String) throws -> ImportSummary {
            let mapping = try ImportMapping(json: Data("""
                {"format": 1, "model": "wells.model.json",
                 "files": [{"path": "\(file)", "delimiter": "\(delimiter)", "targets": [{"entity": "W", "key": "id"}]}]}
                """.utf8), baseDirectory: scratch.url.path)
            return try SeedImporter(model: mapping.loadModel(), mapping: mapping, options: scratch.skipping()).run(into: scratch.path("\(file).sqlite"))
        }
        let summary = try run(";", "wells.csv")
        #expect(summary.rejects == 0)
        let grouped = summary.warnings.filter { $0.contains("thousands separator") }
        #expect(grouped == [
            "wells.csv → W.lat: 3 values read with ',' as a thousands separator in a ';'-separated file (first at line 2: \"1,250\" → 1250); "
                + "if ',' is the decimal mark there, re-run with --decimal-comma (or \"decimalComma\": true for the file in a mapping)",
            "wells.csv → W.depth: 1 value read with ',' as a thousands separator in a ';'-separated file (first at line 3: \"1,000\" → 1000); "
                + "if ',' is the decimal mark there, re-run with --decimal-comma (or \"decimalComma\": true for the file in a mapping)",
        ], "\(summary.warnings)")
        // Excel's tab-delimited text writes the locale's decimal mark too (a user trial: 1,234 stored as 1234 silently).
        try scratch.write("wells.tsv", "id\tlat\nk1\t1,234\n")
        #expect(try run("\\t", "wells.tsv").warnings.filter { $0.contains("thousands separator") } == [
            "wells.tsv → W.lat: 1 value read with ',' as a thousands separator in a tab-separated file (first at line 2: \"1,234\" → 1234); "
                + "if ',' is the decimal mark there, re-run with --decimal-comma (or \"decimalComma\": true for the file in a mapping)"])
        // A value with both marks is unambiguous (a user trial: "1,250.00" in a tab file was told to use --decimal-comma).
        try scratch.write("us.tsv", "id\tlat\nk1\t1,250.00\n")
        #expect(try run("\\t", "us.tsv").warnings.allSatisfy { !$0.contains("thousands separator") })
        // The other way round: --decimal-comma meant for another file reads a comma file's 4.500 as 4500.
        try scratch.write("points.csv", "id,lat\nk1,4.500\nk2,\"4,25\"\nk3,\"4.500\"\n")
        let mapping = try ImportMapping(json: Data("""
            {"format": 1, "model": "wells.model.json", "defaults": {"decimalComma": true},
             "files": [{"path": "points.csv", "targets": [{"entity": "W", "key": "id"}]}]}
            """.utf8), baseDirectory: scratch.url.path)
        let points = try SeedImporter(model: mapping.loadModel(), mapping: mapping, options: scratch.skipping()).run(into: scratch.path("points.sqlite"))
        #expect(points.warnings.filter { $0.contains("thousands separator") } == [
            "points.csv → W.lat: 1 value read with '.' as a thousands separator (--decimal-comma) in a ','-separated file (first at line 2: \"4.500\" → 4500), "
                + "where a decimal comma would need quotes; if '.' is the decimal mark there, this file is not written with decimal commas: "
                + "leave out --decimal-comma for it (give each file its \"decimalComma\" in a mapping)"], "\(points.warnings)")
        // A ',' file groups thousands with ',' as a matter of course: no warning.
        try scratch.write("wells2.csv", "id,lat\nk1,\"1,250\"\n")
        #expect(try run(",", "wells2.csv").warnings.allSatisfy { !$0.contains("thousands separator") })
    }

    @Test("other types are left alone")
    func otherTypes() throws {
        #expect(try Self.convert("1,5", .string) == .string("1,5"))
        #expect(try Self.convert("true", .boolean) == .bool(true))
    }

    @Test("any Double written with a decimal comma reads as written with a point")
    func property() async {
        await propertyCheck(input: Gen.double(in: -1e12...1e12)) { value in
            recordingErrors {
                let pointText = String(format: "%.6f", value)
                let commaText = String(pointText.map { $0 == "." ? "," : $0 })
                let withPoint = try Self.convert(pointText, .double, decimalComma: false)
                let withComma = try Self.convert(commaText, .double)
                #expect(withPoint != nil && withComma == withPoint, "\(pointText) / \(commaText)")
            }
        }
    }

    @Test("a mapping's \"decimalComma\": true and the CLI's --decimal-comma read a ';' file")
    func endToEnd() throws {
        let scratch = ImportScratch()
        try scratch.write("items.model.json", """
            {"entities": [{"name": "Item", "attributes": [{"name": "sku", "type": "String", "optional": false},
              {"name": "price", "type": "Decimal"}, {"name": "weight", "type": "Double"}, {"name": "stock", "type": "Integer 32"}]}]}
            """)
        try scratch.write("items.csv", "sku;price;weight;stock\n001;1.234,50;0,75;2.500\n002;9,99;12;3\n003;1,234.50;1;1\n")
        let mapping = try ImportMapping(json: Data("""
            {"format": 1, "model": "items.model.json",
             "files": [{"path": "items.csv", "delimiter": ";", "decimalComma": true, "targets": [{"entity": "Item", "key": "sku"}]}]}
            """.utf8), baseDirectory: scratch.url.path)
        let model = try mapping.loadModel()
        let summary = try SeedImporter(model: model, mapping: mapping, options: scratch.skipping()).run(into: scratch.path("A.sqlite"))
        #expect(summary.rejects == 1)
        #expect(scratch.rejects.contains("items.csv,4,2,Item,price,\"1,234.50\",\"price: not a number with a decimal comma"), "\(scratch.rejects)")
        let (_, items) = try StoreReader.objects(scratch.path("A.sqlite"), "Item")
        let bySKU = Dictionary(uniqueKeysWithValues: items.map { object -> (String, ManagedObject) in
            guard case .string(let sku) = object["sku"] else { return ("", object) }
            return (sku, object)
        })
        #expect(bySKU.keys.sorted() == ["001", "002"])
        #expect(bySKU["001"].map { $0["price"] } == Value.decimal(Decimal(string: "1234.5")!))
        #expect(bySKU["001"].map { $0["weight"] } == Value.double(0.75))
        #expect(bySKU["001"].map { $0["stock"] } == Value.integer(2500))
        #expect(bySKU["002"].map { $0["price"] } == Value.decimal(Decimal(string: "9.99")!))

        guard ImportFixtures.hasCLI else { return }
        let result = try ImportCLI.run(["import", "--model", scratch.path("items.model.json"), "--out", scratch.path("B.sqlite"),
                                        "--progress", "none", "--delimiter", ";", "--decimal-comma", "--on-error", "skip",
                                        "--rejects", scratch.path("b-rejects.csv"), "Item=\(scratch.path("items.csv"))"])
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.contains("items.csv → Item: 3 rows read, 2 imported, 1 rejected"), "\(result.output)")
        #expect(try StoreReader.scalar(scratch.path("B.sqlite"), "SELECT sum(ZSTOCK) FROM ZITEM")?.int64 == 2503)
        let bad = try ImportCLI.run(["import", "--model", scratch.path("items.model.json"), "--out", scratch.path("C.sqlite"),
                                     "--progress", "none", "--delimiter", ";", "Item=\(scratch.path("items.csv"))"])
        #expect(bad.status != 0 && bad.errors.contains("items.csv:2:2") && bad.errors.contains("pass --decimal-comma"),
                "without the flag the first price is not a number, and the message says what to pass: \(bad.errors)")
    }

    @Test("\"decimalComma\" takes true or false")
    func badValue() {
        #expect(throws: (any Error).self) {
            try ImportMapping(json: Data(#"{"format": 1, "files": [{"path": "a.csv", "decimalComma": "yes", "targets": [{"entity": "A"}]}]}"#.utf8),
                              baseDirectory: "/tmp")
        }
    }
}
