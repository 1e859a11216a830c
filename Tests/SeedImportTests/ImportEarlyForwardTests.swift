import Foundation
import ManagedStore
import PropertyBased
import SeedImport
import Testing

/// In abort mode a forward key is set as soon as its key comes (in the same batch: before the insert;
/// later: after the next save), not once the file has been read. Skip mode keeps the end-of-file path,
/// so without bad rows the two modes must give the same store, and with a key that never comes abort
/// mode must stop at the same row as before: the first whose forward key never came.
@Suite("Import: forward keys set as soon as they come (abort mode)")
struct ImportEarlyForwardTests {
    static func run(_ csv: String, _ options: ImportOptions) throws -> (ImportSummary, [String: [String]]) {
        let scratch = ImportScratch()
        let summary = try ImportForwardReferenceTests.run(csv, options: options, in: scratch)
        return (summary, try ImportKeyMemoryTests.staff(scratch))
    }

    /// Codes repeat (upserts, which void an earlier row's forward key), managers name earlier, later,
    /// repeated or no codes, in batches of 1 to 9: abort mode's store is skip mode's, row for row.
    @Test("property: without bad rows, abort mode (keys set as they come) and skip mode (at the end) agree",
          arguments: 1...32)
    func sameAsEndOfFile(seed: Int) throws {
        var random = Xoshiro(seed: (UInt64(seed) &* 0x9E37_79B9_7F4A_7C15, 0xA076_1D64_78BD_642F, 0xE703_7ED1_A0B4_28DB, 0x8EBC_6AF0_9C88_C6E3))
        let count = Int.random(in: 1...60, using: &random)
        let rows = (0..<Int.random(in: count...(2 * count), using: &random)).map { _ in "E\(Int.random(in: 0..<count, using: &random))" }
        let made = Set(rows)
        var seen = Set<String>()
        var csv = "code,name,manager\n"
        for (row, code) in rows.enumerated() {
            // A row that inserts names any code some row makes (earlier, later, itself); one that updates
            // (an upsert) names only codes already made, as forward keys are kept for new objects only.
            let candidates = seen.contains(code) ? Array(seen) : Array(made)
            let manager = Bool.random(using: &random) ? "" : candidates.randomElement(using: &random) ?? ""
            seen.insert(code)
            csv += "\(code),Name \(row),\(manager)\n"
        }
        var options = ImportOptions()
        options.batchSize = Int.random(in: 1...9, using: &random)
        options.readsAhead = Bool.random(using: &random)
        // Keys kept with their bytes, confirmed by reading them back, or moved to disk at every save.
        options.keyBytesThreshold = Bool.random(using: &random) ? 1 : 32_768
        options.keyIndexMemoryBytes = Bool.random(using: &random) ? 1 : ImportOptions.defaultKeyIndexMemoryBytes
        // Past this many waiting keys, the end-of-file list takes the others: none, a few, or all early.
        options.earlyForwardLimit = [0, 1, 3, 1 << 16].randomElement(using: &random)!
        // Past this many end-of-file keys, abort mode moves them to a temporary file at the next save.
        options.forwardKeyLimit = [0, 1, 3, 1 << 16].randomElement(using: &random)!
        let (abortSummary, abortStaff) = try Self.run(csv, options)
        options.onError = .skip
        let (skipSummary, skipStaff) = try Self.run(csv, options)
        #expect(skipSummary.rejects == 0, "\(csv)")
        #expect(abortStaff == skipStaff, "seed \(seed), batch size \(options.batchSize), threshold \(options.keyBytesThreshold), budget \(options.keyIndexMemoryBytes), early limit \(options.earlyForwardLimit), forward limit \(options.forwardKeyLimit):\n\(csv)")
        #expect(abortSummary.objects["Employee"]?.stored == skipSummary.objects["Employee"]?.stored)
    }

    /// Unique codes in a random order; a few rows name a code no row has. Abort mode stops at the first of
    /// those rows, naming it, whatever the batch size.
    @Test("property: a forward key that never comes stops the import at the first row naming one", arguments: 1...16)
    func firstMissing(seed: Int) throws {
        var random = Xoshiro(seed: (UInt64(seed) &* 0xD6E8_FEB8_6659_FD93, 0x9E37_79B9_7F4A_7C15, 0x1234_5678_9ABC_DEF0, 0x0FED_CBA9_8765_4321))
        let count = Int.random(in: 2...50, using: &random)
        let codes = (0..<count).map { "E\($0)" }.shuffled(using: &random)
        var csv = "code,name,manager\n"
        var firstMissing: Int?
        for (row, code) in codes.enumerated() {
            let missing = Int.random(in: 0..<8, using: &random) == 0
            let manager = missing ? "X\(row)" : codes.randomElement(using: &random)!
            if missing && firstMissing == nil { firstMissing = row + 2 }
            csv += "\(code),Name \(row),\(manager)\n"
        }
        var options = ImportOptions()
        options.batchSize = Int.random(in: 1...9, using: &random)
        options.earlyForwardLimit = [0, 2, 1 << 16].randomElement(using: &random)!
        options.forwardKeyLimit = [0, 2, 1 << 16].randomElement(using: &random)!
        do {
            let (summary, staff) = try Self.run(csv, options)
            #expect(firstMissing == nil, "imported though line \(firstMissing ?? 0) names a code no row has:\n\(csv)")
            #expect(summary.rejects == 0 && staff.count == count)
        } catch let error as ImportError {
            #expect(error.line == firstMissing, "seed \(seed), batch size \(options.batchSize), early limit \(options.earlyForwardLimit), forward limit \(options.forwardKeyLimit):\n\(csv)\n\(error)")
            #expect(error.description.contains("in this file or an earlier one"), "\(error)")
        }
    }

    @Test("a manager listed later in the same batch is written with the insert, one in a later batch after the save")
    func withinAndAcrossBatches() throws {
        // E1 names E2 (the next row, same batch with size 3) and E9 (the last row, a later batch).
        var csv = "code,name,manager\nE1,One,E2\nE2,Two,E9\n"
        for k in 3...8 { csv += "E\(k),N\(k),E1\n" }
        csv += "E9,Nine,\n"
        var options = ImportOptions()
        options.batchSize = 3
        let (summary, staff) = try Self.run(csv, options)
        #expect(summary.rejects == 0)
        #expect(staff["E1"] == ["One", "E2"] && staff["E2"] == ["Two", "E9"] && staff["E9"] == ["Nine", ""])
        #expect((3...8).allSatisfy { staff["E\($0)"]?[1] == "E1" })
    }

    @Test("a later row with the same code sets the manager itself: an earlier forward key it voided stays unset")
    func voidedByUpsert() throws {
        // Row 2's forward key E3 is voided by row 3 (E1 again, no manager) before E3 comes.
        let (_, staff) = try Self.run("code,name,manager\nE1,One,E3\nE1,One again,\nE3,Three,\n", ImportOptions(batchSize: 1))
        #expect(staff["E1"] == ["One again", ""])
        // Here E3 comes first and is set; then E1's later row names E4 (already made) instead.
        let (_, later) = try Self.run("code,name,manager\nE4,Four,\nE1,One,E3\nE3,Three,\nE1,One again,E4\n", ImportOptions(batchSize: 1))
        #expect(later["E1"] == ["One again", "E4"])
    }

    /// One-to-one keys keep the end-of-file order in abort mode too: a later row naming the same partner
    /// takes it from the earlier object, so setting a forward key as soon as it came would let a row
    /// between take the partner back (E4 would keep E3 here, not E1).
    @Test("a one-to-one forward key is still set once the file has been read, after the rows between")
    func oneToOneKeepsEndOfFileOrder() throws {
        let links = try Self.links("mentor", attributes: "", relationships: """
            {"name": "mentor", "destination": "Employee", "inverse": "mentee", "deleteRule": "Nullify"},
            {"name": "mentee", "destination": "Employee", "inverse": "mentor", "deleteRule": "Nullify"}
            """, csv: "code,mentor\nE1,E3\nE3,\nE4,E3\n", column: "mentor", destinationKey: "code")
        for (run, mentors) in links {
            #expect(mentors == ["E1": "E3"], "\(run): the forward key, set last, takes E3 from E4")
        }
    }

    /// A key that is not the destination's own (an email the rows also change) may pass from one object
    /// to another before the file ends: it is still looked up once the file has been read, and finds E3,
    /// which holds the email then, not E2, which held it first.
    @Test("a forward key on an attribute upserts change is still looked up once the file has been read")
    func movingKeyKeepsEndOfFileLookup() throws {
        let links = try Self.links("manager", attributes: #", {"name": "email", "type": "String"}"#, relationships: """
            {"name": "manager", "destination": "Employee", "inverse": "reports", "deleteRule": "Nullify"},
            {"name": "reports", "destination": "Employee", "inverse": "manager", "toMany": true, "deleteRule": "Nullify"}
            """, csv: "code,email,boss\nE1,a@x,b@x\nE2,b@x,\nE2,c@x,\nE3,b@x,\n", column: "boss", destinationKey: "email")
        for (run, managers) in links { #expect(managers["E1"] == "E3", "\(run)") }
    }

    /// Imports `csv` in abort mode with batch sizes 1 and 10, forward keys kept in memory or moved to a
    /// file at every save, into Employees (a `code` key, then `attributes`, then `relationships`),
    /// `relationship` filled from `column` by `destinationKey`; per run (described), each employee's
    /// code → the code `relationship` names.
    static func links(_ relationship: String, attributes: String, relationships: String, csv: String, column: String,
                      destinationKey: String) throws -> [String: [String: String]] {
        let scratch = ImportScratch()
        try scratch.write("m.model.json", """
            {"entities": [{"name": "Employee", "attributes": [{"name": "code", "type": "String", "optional": false}\(attributes)],
              "relationships": [\(relationships)]}]}
            """)
        try scratch.write("e.csv", csv)
        let mapping = try ImportMapping(json: Data("""
            {"format": 1, "model": "m.model.json", "files": [{"path": "e.csv", "targets": [{"entity": "Employee", "key": "code",
              "relationships": {"\(relationship)": {"column": "\(column)", "destinationKey": "\(destinationKey)"}}}]}]}
            """.utf8), baseDirectory: scratch.url.path)
        var result: [String: [String: String]] = [:]
        // Forward limit 0: the end-of-file keys move to a temporary file at every save.
        for batchSize in [1, 10] {
            for forwardLimit in [0, ImportOptions().forwardKeyLimit] {
                let store = scratch.path("E\(batchSize)-\(forwardLimit).sqlite")
                var options = ImportOptions(batchSize: batchSize)
                options.forwardKeyLimit = forwardLimit
                _ = try SeedImporter(model: try mapping.loadModel(), mapping: mapping, options: options).run(into: store)
                let (context, employees) = try StoreReader.objects(store, "Employee")
                var linked: [String: String] = [:]
                for employee in employees {
                    guard case .string(let code) = employee["code"] else { continue }
                    if case .string(let other)? = try employee.object(forKey: relationship)?["code"] { linked[code] = other }
                }
                result["batch size \(batchSize), forward limit \(forwardLimit)"] = linked
                withExtendedLifetime(context) {}
            }
        }
        return result
    }
}
