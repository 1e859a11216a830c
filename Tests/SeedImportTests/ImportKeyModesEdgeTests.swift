import Foundation
import ManagedStore
import PropertyBased
@testable import SeedImport
import Testing

/// The import's result (store, summary counts, duplicates, rejects file) must not depend on the
/// key index mode (key bytes in memory; no key bytes, matches confirmed by reading keys back; flushed to
/// a temporary file at saves), and must be right in every mode.
enum KeyModes {
    /// Skip mode with a random batch size (1...9) and reading ahead or not.
    static func randomSkipOptions(_ random: inout some RandomNumberGenerator) -> ImportOptions {
        var options = ImportOptions(batchSize: Int.random(in: 1...9, using: &random), onError: .skip)
        options.readsAhead = Bool.random(using: &random)
        return options
    }

    /// Everything an import's result is judged by.
    struct Outcome: Equatable {
        var tables: [String: [String]] = [:]
        var objects: [String: [Int]] = [:]
        var duplicates: [String] = []
        var files: [String] = []
        var rejects = 0
        var rejectsText = ""
        var warnings: [String] = []
        var error: String?
    }

    /// The modes compared: name, keyIndexMemoryBytes, keyBytesThreshold. The first is the default.
    static let modes: [(name: String, budget: Int, threshold: Int)] = [
        ("default", ImportOptions.defaultKeyIndexMemoryBytes, 32_768),
        ("no key bytes", ImportOptions.defaultKeyIndexMemoryBytes, 1),
        ("no key bytes past 3", ImportOptions.defaultKeyIndexMemoryBytes, 3),
        ("spilled at every save", 1, 32_768),
        ("spilled, no key bytes", 1, 1),
        ("spilled part-way", 2_048, 3),
    ]

    /// Every table's rows, in primary-key order, as text.
    static func dump(_ path: String) throws -> [String: [String]] { try StoreReader.tables(path) }

    /// One import into a fresh scratch directory.
    static func run(model: String, mapping: String, files: [String: String], options: ImportOptions,
                    check: ((String) throws -> Void)? = nil) throws -> Outcome {
        let scratch = ImportScratch()
        for (name, text) in files { try scratch.write(name, text) }
        var options = options
        options.rejectsPath = scratch.path("rejects.csv")
        let model = try ObjectModel(json: Data(model.utf8))
        let mapping = try ImportMapping(json: Data(mapping.utf8), baseDirectory: scratch.url.path)
        var outcome = Outcome()
        let store = scratch.path("S.sqlite")
        do {
            let summary = try SeedImporter(model: model, mapping: mapping, options: options).run(into: store)
            outcome.tables = try dump(store)
            outcome.objects = summary.objects.mapValues { [$0.inserted, $0.updated, $0.stored] }
            outcome.duplicates = summary.duplicates.map { "\($0.file) \($0.entity).\($0.key) \($0.count) \($0.lines)" }
            outcome.files = summary.files.map { "\($0.path) read \($0.rowsRead) imported \($0.rowsImported) blank \($0.blankRows) rejects \($0.rejects) joins \($0.joins)" }
            outcome.rejects = summary.rejects
            outcome.warnings = summary.warnings.filter { !$0.contains("--key-memory") }
            try check?(store)
        } catch let error as ImportError {
            outcome.error = error.description
        }
        outcome.rejectsText = scratch.rejects
        return outcome
    }

    /// What differs between two outcomes, in words.
    static func diff(_ a: Outcome, _ b: Outcome) -> String {
        var out: [String] = []
        for table in Set(a.tables.keys).union(b.tables.keys).sorted() where a.tables[table] != b.tables[table] {
            out.append("table \(table):\n    \(a.tables[table] ?? [])\n vs \(b.tables[table] ?? [])")
        }
        if a.objects != b.objects { out.append("objects \(a.objects) vs \(b.objects)") }
        if a.duplicates != b.duplicates { out.append("duplicates \(a.duplicates) vs \(b.duplicates)") }
        if a.files != b.files { out.append("files \(a.files) vs \(b.files)") }
        if a.rejects != b.rejects { out.append("rejects \(a.rejects) vs \(b.rejects)") }
        if a.rejectsText != b.rejectsText { out.append("rejects file:\n\(a.rejectsText)\n vs\n\(b.rejectsText)") }
        if a.warnings != b.warnings { out.append("warnings \(a.warnings) vs \(b.warnings)") }
        if a.error != b.error { out.append("error \(a.error ?? "none") vs \(b.error ?? "none")") }
        return out.joined(separator: "\n")
    }

    /// Runs every mode; expects each to match the default. Returns the default's outcome and the
    /// names of the modes that differed.
    @discardableResult
    static func compareModes(_ label: String, model: String, mapping: String, files: [String: String], options: ImportOptions,
                             check: ((String) throws -> Void)? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws -> (Outcome, [String]) {
        var outcomes: [Outcome] = []
        var differing: [String] = []
        for mode in modes {
            var options = options
            options.keyIndexMemoryBytes = mode.budget
            options.keyBytesThreshold = mode.threshold
            let outcome = try run(model: model, mapping: mapping, files: files, options: options, check: check)
            if let first = outcomes.first, first != outcome {
                differing.append(mode.name)
                Issue.record("\(label): mode '\(mode.name)' differs from the default:\n\(diff(first, outcome))\nfiles: \(files.sorted { $0.key < $1.key })",
                             sourceLocation: sourceLocation)
            }
            outcomes.append(outcome)
        }
        return (outcomes[0], differing)
    }

    /// A CSV field, quoted when it needs to be.
    static func field(_ text: String) -> String {
        text.contains(",") || text.contains("\"") ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
    }

    static func random(_ seed: Int, _ salt: UInt64) -> Xoshiro {
        Xoshiro(seed: (UInt64(seed) &* 0x9E37_79B9_7F4A_7C15 ^ salt, 0xD1B5_4A32_D192_ED03, 0xABCD_EF01_2345_6789 ^ salt, 0x0123_4567_89AB_CDEF))
    }
}

/// Key attribute types and equivalent spellings of their values.
struct KeyModeType: Sendable, CustomStringConvertible {
    let type: String
    /// Each group: spellings of one value.
    let groups: [[String]]
    /// Values no row makes.
    let missing: [String]
    var description: String { type }

    static let all: [KeyModeType] = [
        KeyModeType(type: "Integer 64", groups: [["1", "01", "+1", "1.0"], ["-5", "-05", "-5.00"], ["0", "-0", "+0", "0.0"],
                                                  ["9223372036854775807"], ["-9223372036854775808"], ["2,500", "2500"], ["42"]],
                     missing: ["777", "-778"]),
        KeyModeType(type: "Double", groups: [["0", "0.0", "-0.0", "-0", "0e7"], ["1.5", "1.50", "15e-1", "+1.5"], ["-1.5", "-1.50"],
                                              ["2,500.25", "2500.25"], ["1e300", "1E300"], ["0.1", "1e-1"],
                                              ["123456789012345678901234567890"]],
                     missing: ["777.5"]),
        KeyModeType(type: "Date", groups: [["2001-01-01", "2001-01-01T00:00:00Z", "2001-01-01 00:00:00"],
                                            ["1969-07-20T20:17:40Z", "1969-07-20 20:17:40"],
                                            ["2020-08-17T10:30:00.250+02:00", "2020-08-17T08:30:00.250Z"],
                                            ["1900-01-01"], ["2038-01-19T03:14:08Z"]],
                     missing: ["1999-12-31"]),
        KeyModeType(type: "Boolean", groups: [["true", "TRUE", "1", "yes", "t", "Y"], ["false", "0", "no", "F", "n"]], missing: []),
        KeyModeType(type: "UUID", groups: [["E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "e621e1f8-c36c-495a-93fc-0c247a3e6e5f"],
                                            ["00000000-0000-0000-0000-000000000000"],
                                            ["FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF", "ffffffff-ffff-ffff-ffff-ffffffffffff"]],
                     missing: ["12345678-1234-1234-1234-123456789ABC"]),
        // Keys with more digits than the store keeps are rejects (ImportKeyModesEdgeDecimalTests).
        KeyModeType(type: "Decimal", groups: [["1.5", "1.50"], ["100", "100.0"], ["1234567890123456789"],
                                               ["0.1234567890123456"], ["0", "0.0"], ["2.25"]],
                     missing: ["777.7"]),
        KeyModeType(type: "String", groups: [["a"], ["A"], ["\u{E9}"], ["e\u{301}"], ["x y"], ["2,5"]], missing: ["zz"]),
    ]
}

@Suite("Import key modes: typed keys in every key index mode")
struct ImportKeyModesEdgeTypedTests {
    static func model(_ type: String, rule: String) -> String {
        """
        {"entities":[
         {"name":"Thing","attributes":[{"name":"k","type":"\(type)","optional":false},{"name":"name","type":"String"}],
          "relationships":[
           {"name":"parent","destination":"Thing","inverse":"children","deleteRule":"Nullify"},
           {"name":"children","destination":"Thing","inverse":"parent","toMany":true,"deleteRule":"\(rule)"},
           {"name":"pointers","destination":"Ref","inverse":"thing","toMany":true,"deleteRule":"Nullify"},
           {"name":"refs","destination":"Ref","inverse":"things","toMany":true}]},
         {"name":"Ref","attributes":[{"name":"code","type":"String","optional":false},{"name":"want","type":"\(type)"}],
          "relationships":[
           {"name":"thing","destination":"Thing","inverse":"pointers","deleteRule":"Nullify"},
           {"name":"things","destination":"Thing","inverse":"refs","toMany":true}]}
        ]}
        """
    }

    static let mapping = """
        {"format":1,"files":[
         {"path":"things.csv","targets":[{"entity":"Thing","key":"k","relationships":{"parent":{"column":"parent","destinationKey":"k"}}}]},
         {"path":"refs.csv","targets":[{"entity":"Ref","key":"code","relationships":{"thing":{"column":"thing","destinationKey":"k"}}}]},
         {"path":"ref_things.csv","join":{"entity":"Ref","relationship":"things","sourceColumn":"ref","sourceKey":"code","destinationColumn":"thing","destinationKey":"k"}}
        ]}
        """

    /// Every Ref's thing holds the key its row named (`want` is the same text).
    static func linksHoldTheirKeys(_ store: String) throws {
        let wrong = try StoreReader.scalar(store, "SELECT count(*) FROM ZREF r JOIN ZTHING t ON r.ZTHING = t.Z_PK WHERE r.ZWANT IS NOT t.ZK")
        #expect(wrong == .integer(0), "a Ref links to a Thing whose key is not the one its row named")
    }

    @Test("hand-computed: equivalent spellings are one key; upserts keep the last row; refs and joins find them",
          arguments: KeyModeType.all)
    func spellings(type: KeyModeType) throws {
        for seed in 1...3 {
            var random = KeyModes.random(seed, 0x51)
            var things = "k,name,parent\n"
            var lastName: [Int: String] = [:]
            for row in 0..<Int.random(in: 1...14, using: &random) {
                let g = Int.random(in: 0..<type.groups.count, using: &random)
                things += "\(KeyModes.field(type.groups[g].randomElement(using: &random)!)),N\(row),\n"
                lastName[g] = "N\(row)"
            }
            var refs = "code,thing,want\n", joins = "ref,thing\n"
            var expectedRefs: [String: String] = [:]
            var pairs = Set<String>()
            for (i, g) in lastName.keys.sorted().enumerated() {
                let spelling = KeyModes.field(type.groups[g].randomElement(using: &random)!)
                refs += "R\(i),\(spelling),\(spelling)\n"
                expectedRefs["R\(i)"] = lastName[g]
                for other in lastName.keys.shuffled(using: &random).prefix(2) {
                    joins += "R\(i),\(KeyModes.field(type.groups[other].randomElement(using: &random)!))\n"
                    pairs.insert("R\(i)-\(lastName[other]!)")
                }
            }
            var options = ImportOptions(batchSize: Int.random(in: 1...9, using: &random))
            options.readsAhead = Bool.random(using: &random)
            let files = ["things.csv": things, "refs.csv": refs, "ref_things.csv": joins]
            let (outcome, _) = try KeyModes.compareModes("\(type) seed \(seed)", model: Self.model(type.type, rule: "Nullify"),
                                                         mapping: Self.mapping, files: files, options: options) { store in
                try Self.linksHoldTheirKeys(store)
                let (context, refObjects) = try StoreReader.objects(store, "Ref")
                defer { withExtendedLifetime(context) {} }
                var found: [String: String] = [:]
                var foundPairs = Set<String>()
                for ref in refObjects {
                    guard case .string(let code) = ref["code"] else { continue }
                    if case .string(let name)? = try ref.object(forKey: "thing")?["name"] { found[code] = name }
                    for thing in try ref.objects(forKey: "things") {
                        if case .string(let name) = thing["name"] { foundPairs.insert("\(code)-\(name)") }
                    }
                }
                #expect(found == expectedRefs, "\(type) seed \(seed): refs find the last row of their key's group")
                #expect(foundPairs == pairs, "\(type) seed \(seed): join pairs")
            }
            #expect(outcome.error == nil, "\(type) seed \(seed): \(outcome.error ?? "")")
            #expect(outcome.objects["Thing"]?[2] == lastName.count, "\(type) seed \(seed): one Thing per distinct value")
        }
    }

    @Test("property: skip mode, forward, repeated and missing keys, Nullify and Cascade, joins: every mode alike",
          arguments: KeyModeType.all, ["Nullify", "Cascade"])
    func property(type: KeyModeType, rule: String) throws {
        for seed in 1...4 {
            var random = KeyModes.random(seed, UInt64(type.type.utf8.count) &* 131 &+ UInt64(rule.utf8.count))
            func spelling() -> String {
                if !type.missing.isEmpty && Int.random(in: 0..<8, using: &random) == 0 { return type.missing.randomElement(using: &random)! }
                let group = type.groups.randomElement(using: &random)!
                return group.randomElement(using: &random)!
            }
            var things = "k,name,parent\n"
            for row in 0..<Int.random(in: 1...20, using: &random) {
                let roll = Int.random(in: 0..<4, using: &random)
                things += "\(KeyModes.field(type.groups.randomElement(using: &random)!.randomElement(using: &random)!)),N\(row),\(roll == 0 ? "" : KeyModes.field(spelling()))\n"
            }
            var refs = "code,thing,want\n", joins = "ref,thing\n"
            for i in 0..<Int.random(in: 0...8, using: &random) {
                let key = KeyModes.field(spelling())
                refs += "R\(Int.random(in: 0...i, using: &random)),\(key),\(key)\n"
                joins += "R\(Int.random(in: 0...i, using: &random)),\(KeyModes.field(spelling()))\n"
            }
            let options = KeyModes.randomSkipOptions(&random)
            try KeyModes.compareModes("\(type) \(rule) seed \(seed) batch \(options.batchSize)", model: Self.model(type.type, rule: rule),
                                      mapping: Self.mapping, files: ["things.csv": things, "refs.csv": refs, "ref_things.csv": joins],
                                      options: options, check: Self.linksHoldTheirKeys)
        }
    }
}

/// A destination key that is not the entity's mapped key: Item is keyed by code, Orders find items by sku.
@Suite("Import key modes: a populated (non-key) destination index in every mode")
struct ImportKeyModesEdgePopulatesTests {
    static func model(_ type: String) -> String {
        """
        {"entities":[
         {"name":"Item","attributes":[{"name":"code","type":"String","optional":false},{"name":"sku","type":"\(type)"}],
          "relationships":[{"name":"orders","destination":"Order","inverse":"item","toMany":true,"deleteRule":"Nullify"},
                           {"name":"lines","destination":"Order","inverse":"items","toMany":true}]},
         {"name":"Order","attributes":[{"name":"code","type":"String","optional":false},{"name":"want","type":"\(type)"}],
          "relationships":[{"name":"item","destination":"Item","inverse":"orders","deleteRule":"Nullify"},
                           {"name":"items","destination":"Item","inverse":"lines","toMany":true}]}
        ]}
        """
    }

    static let mapping = """
        {"format":1,"files":[
         {"path":"items.csv","targets":[{"entity":"Item","key":"code"}]},
         {"path":"items2.csv","targets":[{"entity":"Item","key":"code"}]},
         {"path":"orders.csv","targets":[{"entity":"Order","key":"code","relationships":{"item":{"column":"item","destinationKey":"sku"}}}]},
         {"path":"order_items.csv","join":{"entity":"Order","relationship":"items","sourceColumn":"order","sourceKey":"code","destinationColumn":"item","destinationKey":"sku"}}
        ]}
        """

    static func linksHoldTheirKeys(_ store: String) throws {
        let wrong = try StoreReader.scalar(store, "SELECT group_concat(o.ZCODE) FROM ZORDER o JOIN ZITEM i ON o.ZITEM = i.Z_PK WHERE o.ZWANT IS NOT i.ZSKU")
        #expect(wrong == .null, "orders linked to an item whose sku is not the one their row named: \(String(describing: wrong))")
    }

    @Test("hand-computed: a sku changed by a later upsert, repeated skus, a sku set to null")
    func example() throws {
        // A has s1, then s3 (a later row of the same file); B has s1 too (not unique); C has s2, then none
        // (items2.csv, a later file). An order for s1 can only mean B now; s2 names no item any more.
        let files = [
            "items.csv": "code,sku\nA,s1\nB,s1\nC,s2\nA,s3\n",
            "items2.csv": "code,sku\nC,\n",
            "orders.csv": "code,item,want\nO1,s1,s1\nO2,s2,s2\nO3,s3,s3\n",
            "order_items.csv": "order,item\nO1,s1\nO3,s3\n",
        ]
        let (outcome, differing) = try KeyModes.compareModes("populates example", model: Self.model("String"), mapping: Self.mapping,
                                                             files: files, options: ImportOptions(onError: .skip), check: Self.linksHoldTheirKeys)
        #expect(differing.isEmpty, "modes that differ: \(differing)")
        #expect(outcome.error == nil)
        // One repeat is one value, not "1 repeated values" (a user trial).
        #expect(outcome.warnings.contains { $0.contains("Item.sku is not unique (1 repeated value):") }, "\(outcome.warnings)")
    }

    @Test("hand-computed: upserting an item with its sku unchanged is not a repeated sku")
    func noSpuriousCollisions() throws {
        // Every sku is unique; A is upserted in the same file and again by the next file with the same sku.
        let files = [
            "items.csv": "code,sku\nA,s1\nB,s2\nA,s1\n",
            "items2.csv": "code,sku\nA,s1\nB,s2\n",
            "orders.csv": "code,item,want\nO1,s1,s1\n",
            "order_items.csv": "order,item\n",
        ]
        let (outcome, differing) = try KeyModes.compareModes("no collisions", model: Self.model("String"), mapping: Self.mapping,
                                                             files: files, options: ImportOptions(), check: Self.linksHoldTheirKeys)
        #expect(differing.isEmpty)
        #expect(!outcome.warnings.contains { $0.contains("is not unique") }, "skus are unique: \(outcome.warnings)")
        #expect(outcome.duplicates == ["items.csv Item.code 1 [4]"], "A repeats within items.csv; items2.csv updates")
    }

    @Test("property: non-unique and changing skus of every type, across two files, joins: every mode alike",
          arguments: KeyModeType.all)
    func property(type: KeyModeType) throws {
        for seed in 1...6 {
            var random = KeyModes.random(seed, 0x77 &+ UInt64(type.type.utf8.count))
            func sku() -> String {
                let roll = Int.random(in: 0..<10, using: &random)
                if roll == 0 { return "" }
                if roll == 1, let missing = type.missing.randomElement(using: &random) { return missing }
                return type.groups.randomElement(using: &random)!.randomElement(using: &random)!
            }
            var items = "code,sku\n", items2 = "code,sku\n"
            for _ in 0..<Int.random(in: 1...12, using: &random) { items += "I\(Int.random(in: 0..<6, using: &random)),\(KeyModes.field(sku()))\n" }
            for _ in 0..<Int.random(in: 0...6, using: &random) { items2 += "I\(Int.random(in: 0..<8, using: &random)),\(KeyModes.field(sku()))\n" }
            var orders = "code,item,want\n", joins = "order,item\n"
            for i in 0..<Int.random(in: 1...8, using: &random) {
                let key = KeyModes.field(sku())
                orders += "O\(i),\(key),\(key)\n"
                joins += "O\(Int.random(in: 0...i, using: &random)),\(KeyModes.field(sku()))\n"
            }
            let options = KeyModes.randomSkipOptions(&random)
            try KeyModes.compareModes("populates \(type) seed \(seed) batch \(options.batchSize)", model: Self.model(type.type),
                                      mapping: Self.mapping,
                                      files: ["items.csv": items, "items2.csv": items2, "orders.csv": orders, "order_items.csv": joins],
                                      options: options, check: Self.linksHoldTheirKeys)
        }
    }
}

/// Two files fill Emp by code (upserts across files), the second with forward references; Cascade or
/// Nullify; a join file after; skip mode.
@Suite("Import key modes: several files filling one entity, skip mode, Cascade and Nullify, in every mode")
struct ImportKeyModesEdgeFilesTests {
    static func model(_ rule: String) -> String {
        """
        {"entities":[
         {"name":"Emp","attributes":[{"name":"code","type":"String","optional":false},{"name":"name","type":"String"}],
          "relationships":[
           {"name":"manager","destination":"Emp","inverse":"reports","deleteRule":"Nullify"},
           {"name":"reports","destination":"Emp","inverse":"manager","toMany":true,"deleteRule":"\(rule)"},
           {"name":"tags","destination":"Tag","inverse":"emps","toMany":true}]},
         {"name":"Tag","attributes":[{"name":"label","type":"Integer 64","optional":false}],
          "relationships":[{"name":"emps","destination":"Emp","inverse":"tags","toMany":true}]}
        ]}
        """
    }

    static let mapping = """
        {"format":1,"files":[
         {"path":"tags.csv","targets":[{"entity":"Tag","key":"label"}]},
         {"path":"emp1.csv","targets":[{"entity":"Emp","key":"code"}]},
         {"path":"emp2.csv","targets":[{"entity":"Emp","key":"code","relationships":{"manager":{"column":"manager","destinationKey":"code"}}}]},
         {"path":"emp_tags.csv","join":{"entity":"Emp","relationship":"tags","sourceColumn":"emp","sourceKey":"code","destinationColumn":"tag","destinationKey":"label"}}
        ]}
        """

    @Test("hand-computed: duplicates within a file, updates across files, in every mode and batch size")
    func duplicates() throws {
        let files = [
            "tags.csv": "label\n1\n02\n2\n",
            "emp1.csv": "code,name\nA,a1\nB,b1\nA,a2\nC,c1\n",
            "emp2.csv": "code,name,manager\nB,b2,\nD,d1,A\nB,b3,C\nE,e1,F\nF,f1,\nA,a3,\n",
            "emp_tags.csv": "emp,tag\nA,1\nA,2\nB,2\nB,02\nF,1\n",
        ]
        for batchSize in 1...9 {
            for readsAhead in [false, true] {
                var options = ImportOptions(batchSize: batchSize)
                options.readsAhead = readsAhead
                let (outcome, _) = try KeyModes.compareModes("duplicates batch \(batchSize)", model: Self.model("Cascade"), mapping: Self.mapping,
                                                             files: files, options: options)
                #expect(outcome.error == nil)
                #expect(outcome.duplicates == ["tags.csv Tag.label 1 [4]", "emp1.csv Emp.code 1 [4]", "emp2.csv Emp.code 1 [4]"],
                        "batch \(batchSize): \(outcome.duplicates)")
                #expect(outcome.objects["Emp"] == [6, 4, 6], "\(outcome.objects)")
                #expect(outcome.objects["Tag"] == [2, 1, 2])
                // B,2 and B,02 name one pair (the labels are the same number): stored, and counted, once.
                #expect(outcome.files.last == "emp_tags.csv read 5 imported 5 blank 0 rejects 0 joins 4")
            }
        }
    }

    @Test("property: random rows over two files, missing managers, every rule, batch size and read-ahead: every mode alike",
          arguments: ["Nullify", "Cascade"], 1...10)
    func property(rule: String, seed: Int) throws {
        var random = KeyModes.random(seed, UInt64(rule.utf8.count))
        let count = Int.random(in: 2...12, using: &random)
        func code() -> String { "E\(Int.random(in: 0..<count, using: &random))" }
        var emp1 = "code,name\n", emp2 = "code,name,manager\n"
        for row in 0..<Int.random(in: 0...count, using: &random) { emp1 += "\(code()),A\(row)\n" }
        for row in 0..<Int.random(in: 1...(2 * count), using: &random) {
            let roll = Int.random(in: 0..<10, using: &random)
            emp2 += "\(code()),B\(row),\(roll == 0 ? "" : roll == 1 ? "X\(row)" : code())\n"
        }
        var tags = "label\n", empTags = "emp,tag\n"
        for t in 0..<Int.random(in: 1...4, using: &random) { tags += "\(t)\n" }
        for _ in 0..<Int.random(in: 0...10, using: &random) { empTags += "\(code()),\(Int.random(in: 0...4, using: &random))\n" }
        var options = ImportOptions(batchSize: Int.random(in: 1...9, using: &random), onError: .skip)
        options.readsAhead = Bool.random(using: &random)
        try KeyModes.compareModes("files \(rule) seed \(seed) batch \(options.batchSize)", model: Self.model(rule), mapping: Self.mapping,
                                  files: ["tags.csv": tags, "emp1.csv": emp1, "emp2.csv": emp2, "emp_tags.csv": empTags], options: options)
    }
}

/// The one-to-one split keyed through the link (Summary + Detail by code) in every mode.
@Suite("Import key modes: a target keyed through its link, in every mode")
struct ImportKeyModesEdgeLinkTests {
    static let mapping = """
        {"format": 1, "files": [
          {"path": "rows.csv", "targets": [
            {"entity": "Summary", "key": "code", "relationships": {"next": {"column": "next", "destinationKey": "code"}}},
            {"entity": "Detail", "key": "code", "link": {"relationship": "summary", "target": "Summary"}}
          ]}]}
        """
    static let model = """
        {"entities": [
          {"name": "Summary",
           "attributes": [{"name": "code", "type": "String", "optional": false}, {"name": "name", "type": "String"}],
           "relationships": [
             {"name": "detail", "destination": "Detail", "inverse": "summary", "deleteRule": "Cascade"},
             {"name": "next", "destination": "Summary", "inverse": "previous", "deleteRule": "Nullify"},
             {"name": "previous", "destination": "Summary", "inverse": "next", "toMany": true, "deleteRule": "Cascade"}
           ]},
          {"name": "Detail",
           "attributes": [{"name": "code", "type": "String", "optional": false}, {"name": "depth", "type": "Integer 64"}],
           "relationships": [{"name": "summary", "destination": "Summary", "inverse": "detail", "deleteRule": "Nullify"}]}
        ]}
        """

    @Test("property: upserts, forward and missing keys, Cascade through previous: every mode alike", arguments: 1...12)
    func property(seed: Int) throws {
        var random = KeyModes.random(seed, 0x1234)
        let count = Int.random(in: 1...10, using: &random)
        var csv = "code,name,depth,next\n"
        for row in 0..<Int.random(in: 1...(2 * count), using: &random) {
            let roll = Int.random(in: 0..<8, using: &random)
            csv += "C\(Int.random(in: 0..<count, using: &random)),N\(row),\(row),\(roll == 0 ? "" : roll == 1 ? "X\(row)" : "C\(Int.random(in: 0..<count, using: &random))")\n"
        }
        var options = ImportOptions(batchSize: Int.random(in: 1...9, using: &random), onError: .skip)
        options.readsAhead = Bool.random(using: &random)
        let (outcome, _) = try KeyModes.compareModes("link seed \(seed)", model: Self.model, mapping: Self.mapping, files: ["rows.csv": csv],
                                                     options: options)
        #expect(outcome.objects["Summary"]?[2] == outcome.objects["Detail"]?[2], "one detail per summary: \(outcome.objects)")
    }
}

/// Strings that Swift calls equal but whose bytes differ (NFC "é" and NFD "e\u{301}") are two keys to the
/// index and two rows in the store; rows set aside after a Cascade must be found by the same rule.
@Suite("Import key modes: canonically equivalent string keys and Cascade")
struct ImportKeyModesEdgeUnicodeTests {
    @Test("only the cascaded object's rows go to the rejects file")
    func cascadedRowsByBytes() throws {
        let model = ImportKeyModesEdgeFilesTests.model("Cascade")
        let mapping = """
            {"format":1,"files":[
             {"path":"emp2.csv","targets":[{"entity":"Emp","key":"code","relationships":{"manager":{"column":"manager","destinationKey":"code"}}}]}
            ]}
            """
        // Line 3 (NFC é) names a manager no row makes: rejected. Line 4 (NFD é) reports to NFC é and goes
        // with it by Cascade, its row set aside. Q and R stay.
        let nfc = "\u{E9}", nfd = "e\u{301}"
        let csv = "code,name,manager\nQ,q,\n\(nfc),first,ZZ\n\(nfd),second,\(nfc)\nR,r,Q\n"
        let (outcome, _) = try KeyModes.compareModes("unicode", model: model, mapping: mapping, files: ["emp2.csv": csv],
                                                     options: ImportOptions(onError: .skip))
        // NFC é rejected (line 3), NFD é cascaded with it (line 4): both objects gone, Q and R stay.
        #expect(outcome.objects["Emp"]?[2] == 2, "\(outcome.objects)")
        #expect(outcome.rejects == 2, "\(outcome.rejectsText)")
        #expect(outcome.files == ["emp2.csv read 4 imported 2 blank 0 rejects 2 joins 0"])
    }

    @Test("a cascaded NFC key does not take the NFD key's row with it")
    func distinctKeysStay() throws {
        let model = ImportKeyModesEdgeFilesTests.model("Cascade")
        let mapping = """
            {"format":1,"files":[
             {"path":"emp1.csv","targets":[{"entity":"Emp","key":"code"}]},
             {"path":"emp2.csv","targets":[{"entity":"Emp","key":"code","relationships":{"manager":{"column":"manager","destinationKey":"code"}}}]}
            ]}
            """
        let nfc = "\u{E9}", nfd = "e\u{301}"
        // emp1.csv makes NFD é and NFC é (two objects). emp2.csv: M is rejected (ZZ never comes); NFC é is
        // updated to report to M, so in one pass Cascade removed it. NFD é has nothing to do with it.
        let files = [
            "emp1.csv": "code,name\n\(nfd),decomposed\n\(nfc),composed\n",
            "emp2.csv": "code,name,manager\nM,m,ZZ\n\(nfc),composed 2,M\n",
        ]
        let (outcome, _) = try KeyModes.compareModes("unicode 2", model: model, mapping: mapping, files: files,
                                                     options: ImportOptions(onError: .skip))
        // Expected: M and NFC é's emp2.csv row (naming M) are rejected; the import runs again without
        // them, so NFC é stays as emp1.csv made it, and NFD é was never involved.
        #expect(outcome.objects["Emp"]?[2] == 2, "\(outcome.objects)")
        #expect(!outcome.rejectsText.contains("decomposed"), "the NFD row is not the cascaded object's: \(outcome.rejectsText)")
        #expect(outcome.files.first == "emp1.csv read 2 imported 2 blank 0 rejects 0 joins 0", "\(outcome.files)")
    }
}

/// Decimal keys: the store keeps DECIMAL with NUMERIC affinity (REAL, 15 significant digits), so a key read
/// back from a saved row may not be the key the row had.
@Suite("Import key modes: Decimal keys read back from the store")
struct ImportKeyModesEdgeDecimalTests {
    static let model = """
        {"entities":[{"name":"Thing","attributes":[{"name":"k","type":"Decimal","optional":false},{"name":"name","type":"String"}]}]}
        """
    static let mapping = """
        {"format":1,"files":[{"path":"things.csv","targets":[{"entity":"Thing","key":"k"}]}]}
        """

    @Test("an upsert of a saved object by its Decimal key updates it in every mode",
          arguments: ["100", "2.25", "0.1", "1e2", "123456789012345", "1234567890123456", "1234567890123456789", "0.1234567890123456", "-7.5"])
    func upsert(key: String) throws {
        let (outcome, differing) = try KeyModes.compareModes("decimal \(key)", model: Self.model, mapping: Self.mapping,
                                                             files: ["things.csv": "k,name\n\(key),first\n\(key),second\n"],
                                                             options: ImportOptions(batchSize: 1))
        #expect(differing.isEmpty, "\(key): modes that differ: \(differing)")
        #expect(outcome.objects["Thing"] == [1, 1, 1], "\(key)")
    }

    /// A user trial: 9007199254740992 and …993, exact in the store as integers, were one key (compared as
    /// doubles), so the second row updated the first's object, and a relationship naming …992 found …993.
    @Test("Decimal keys past 2^53 within 64 bits are distinct keys in every mode")
    func wholeNumbersPast2to53() throws {
        let model = """
            {"entities":[{"name":"Thing","attributes":[{"name":"k","type":"Decimal","optional":false},{"name":"name","type":"String"}],
             "relationships":[{"name":"up","destination":"Thing","inverse":"downs"},{"name":"downs","destination":"Thing","inverse":"up","toMany":true}]}]}
            """
        let mapping = """
            {"format":1,"files":[{"path":"things.csv","targets":[{"entity":"Thing","key":"k","relationships":{"up":{"column":"up","destinationKey":"k"}}}]}]}
            """
        let (outcome, differing) = try KeyModes.compareModes(
            "decimal past 2^53", model: model, mapping: mapping,
            files: ["things.csv": "k,name,up\n9007199254740992,a,\n9007199254740993,b,9007199254740992\n-9223372036854775808,c,9007199254740993\n9223372036854775807,d,\n"],
            options: ImportOptions(batchSize: 1))
        #expect(differing.isEmpty, "modes that differ: \(differing)")
        #expect(outcome.objects["Thing"] == [4, 0, 4], "\(outcome.objects)")
        #expect(outcome.duplicates.isEmpty, "\(outcome.duplicates)")
        // Z_PK|Z_ENT|Z_OPT|ZK|ZNAME|ZUP: b's up is a (1), c's is b (2).
        #expect(outcome.tables["ZTHING"]?.map { $0.split(separator: "|").last.map(String.init) ?? "" } == ["NULL", "1", "2", "NULL"],
                "\(outcome.tables["ZTHING"] ?? [])")
    }

    /// Two keys the store would keep as one double (…890 and …891) would have been one object.
    @Test("a Decimal key with more digits than the store keeps is a reject in every mode", arguments: ["12345678901234567890", "0.12345678901234567891"])
    func tooManyDigits(key: String) throws {
        let (outcome, differing) = try KeyModes.compareModes("decimal \(key)", model: Self.model, mapping: Self.mapping,
                                                             files: ["things.csv": "k,name\n\(key),first\n7,second\n"],
                                                             options: ImportOptions(batchSize: 1, onError: .skip))
        #expect(differing.isEmpty, "\(key): modes that differ: \(differing)")
        #expect(outcome.objects["Thing"]?[2] == 1, "\(key): \(outcome.objects)")
        #expect(outcome.rejectsText.contains("significant digits are more than the store keeps for a Decimal"), "\(outcome.rejectsText)")
    }
}

@Suite("Import key modes: a populated index whose values never change, in every mode")
struct ImportKeyModesEdgeStablePopulatesTests {
    @Test("property: repeated but stable skus of every type: every mode alike", arguments: KeyModeType.all)
    func property(type: KeyModeType) throws {
        for seed in 1...6 {
            var random = KeyModes.random(seed, 0x99 &+ UInt64(type.type.utf8.count))
            // Each item code has one sku (or none) for good; skus repeat across codes.
            var skuOf: [Int: [String]] = [:]
            for code in 0..<8 {
                skuOf[code] = Int.random(in: 0..<6, using: &random) == 0 ? [""] : type.groups.randomElement(using: &random)!
            }
            func sku() -> String {
                if let missing = type.missing.randomElement(using: &random), Int.random(in: 0..<8, using: &random) == 0 { return missing }
                return skuOf[Int.random(in: 0..<8, using: &random)]!.randomElement(using: &random)!
            }
            var items = "code,sku\n", items2 = "code,sku\n"
            for _ in 0..<Int.random(in: 1...12, using: &random) {
                let code = Int.random(in: 0..<6, using: &random)
                items += "I\(code),\(KeyModes.field(skuOf[code]!.randomElement(using: &random)!))\n"
            }
            for _ in 0..<Int.random(in: 0...6, using: &random) {
                let code = Int.random(in: 0..<8, using: &random)
                items2 += "I\(code),\(KeyModes.field(skuOf[code]!.randomElement(using: &random)!))\n"
            }
            var orders = "code,item,want\n", joins = "order,item\n"
            for i in 0..<Int.random(in: 1...8, using: &random) {
                let key = KeyModes.field(sku())
                orders += "O\(i),\(key),\(key)\n"
                joins += "O\(Int.random(in: 0...i, using: &random)),\(KeyModes.field(sku()))\n"
            }
            let options = KeyModes.randomSkipOptions(&random)
            try KeyModes.compareModes("stable populates \(type) seed \(seed) batch \(options.batchSize)",
                                      model: ImportKeyModesEdgePopulatesTests.model(type.type),
                                      mapping: ImportKeyModesEdgePopulatesTests.mapping,
                                      files: ["items.csv": items, "items2.csv": items2, "orders.csv": orders, "order_items.csv": joins],
                                      options: options, check: ImportKeyModesEdgePopulatesTests.linksHoldTheirKeys)
        }
    }
}

@Suite("Import key modes: removals and non-unique or linked keys")
struct ImportKeyModesEdgeRemovalTests {
    @Test("a removed item that held a repeated sku first: the other item with that sku is still found")
    func removedFirstHolder() throws {
        let model = """
            {"entities":[
             {"name":"Item","attributes":[{"name":"code","type":"String","optional":false},{"name":"sku","type":"String"}],
              "relationships":[{"name":"orders","destination":"Order","inverse":"item","toMany":true,"deleteRule":"Nullify"},
                               {"name":"parent","destination":"Item","inverse":"kids","deleteRule":"Nullify"},
                               {"name":"kids","destination":"Item","inverse":"parent","toMany":true,"deleteRule":"Nullify"}]},
             {"name":"Order","attributes":[{"name":"code","type":"String","optional":false}],
              "relationships":[{"name":"item","destination":"Item","inverse":"orders","deleteRule":"Nullify"}]}
            ]}
            """
        let mapping = """
            {"format":1,"files":[
             {"path":"items.csv","targets":[{"entity":"Item","key":"code","relationships":{"parent":{"column":"parent","destinationKey":"code"}}}]},
             {"path":"orders.csv","targets":[{"entity":"Order","key":"code","relationships":{"item":{"column":"item","destinationKey":"sku"}}}]}
            ]}
            """
        // A (sku s1) names a parent no row makes: rejected and removed. B has s1 too and stays.
        let files = ["items.csv": "code,sku,parent\nA,s1,ZZ\nB,s1,\n", "orders.csv": "code,item\nO1,s1\n"]
        let (outcome, differing) = try KeyModes.compareModes("removed first holder", model: model, mapping: mapping, files: files,
                                                             options: ImportOptions(onError: .skip))
        #expect(differing.isEmpty)
        #expect(outcome.objects["Item"]?[2] == 1)
        #expect(outcome.rejects == 1, "only A's row: O1 names s1, which B has: \(outcome.rejectsText)")
        #expect(outcome.objects["Order"]?[2] == 1)
    }

    @Test("keyed through the link: a Detail removed by Cascade with its Summary is not reported as keyless")
    func linkedCascadeWarning() throws {
        // A names a next no row makes: rejected. B's next is A, and Summary.previous cascades: B goes, and
        // its Detail (Summary.detail cascades). Both rows are in the rejects file by Summary's key.
        let csv = "code,name,depth,next\nA,a,1,ZZ\nB,b,2,A\nC,c,3,\n"
        let (outcome, differing) = try KeyModes.compareModes("linked cascade", model: ImportKeyModesEdgeLinkTests.model,
                                                             mapping: ImportKeyModesEdgeLinkTests.mapping, files: ["rows.csv": csv],
                                                             options: ImportOptions(onError: .skip))
        #expect(differing.isEmpty)
        #expect(outcome.rejects == 2, "\(outcome.rejectsText)")
        #expect(outcome.objects["Summary"]?[2] == 1 && outcome.objects["Detail"]?[2] == 1, "\(outcome.objects)")
        #expect(!outcome.warnings.contains { $0.contains("no key to find their rows by") }, "\(outcome.warnings)")
    }
}
