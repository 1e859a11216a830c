import Foundation
import Testing
@testable import ManagedStore

/// The file a store writes follows Core Data's SQLite layout.
@Suite struct StoreLayoutTests {
    /// An empty file, a database without tables and one with other tables are each named for what they are.
    @Test func filesThatAreNotStoresSayWhatTheyAre() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("not-stores-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        func reason(_ name: String, _ prepare: (String) throws -> Void) throws -> String? {
            let path = directory.appendingPathComponent(name).path
            try prepare(path)
            do { _ = try PersistentStore(path: path, options: .init(readOnly: true)); return nil } catch {
                guard case .notAStore(_, let reason) = error else { return "\(error)" }
                return reason
            }
        }
        #expect(try reason("empty.sqlite") { _ = FileManager.default.createFile(atPath: $0, contents: nil) }
                == "it is an empty database (no tables, 0 bytes): make a store there with seedstore import, or check the path")
        // Read-only with a model (query, inspect --model): the same words, not advice on saving.
        do {
            _ = try PersistentStore(path: directory.appendingPathComponent("empty.sqlite").path,
                                    model: try ObjectModel([EntityDescription("A", attributes: [Attribute("x", .string)])]), options: .init(readOnly: true))
            Issue.record("an empty file opened read-only")
        } catch {
            #expect("\(error)".contains("it is an empty database (no tables, 0 bytes)"), "\(error)")
        }
        #expect(try reason("other.sqlite") { try Connection(path: $0).execute("CREATE TABLE t (x)") }
                == "it has no Z_PRIMARYKEY table, so it is not in Core Data's layout")
        #expect(try reason("text.sqlite") { _ = FileManager.default.createFile(atPath: $0, contents: Data("hello, not SQLite at all".utf8)) }?
                .contains("SQLite cannot read it") == true)
    }

    /// A user trial: a store another process was writing (an exclusive lock held past the 5 s wait)
    /// was called "not a SeedStore or Core Data SQLite store … is it a database file?".
    @Test func aStoreLockedByAWriterIsInUseNotForeign() throws {
        let harness = try StoreHarness(model: try Fixtures.model("failedbank"))
        let writer = try Connection(path: harness.path)
        try writer.execute("PRAGMA journal_mode = DELETE")
        try writer.execute("BEGIN EXCLUSIVE")
        defer { try? writer.execute("ROLLBACK") }
        let error = try #require(throws: StoreError.self) { try PersistentStore(path: harness.path, options: .init(readOnly: true)) }
        guard case .inUse(let path) = error else {
            Issue.record("expected inUse, got \(error)")
            return
        }
        #expect(path == harness.path && error.code == 134090)
        #expect("\(error)".contains("is in use: another process is writing it"), "\(error)")
    }

    /// A user trial: a save blocked by another connection's write lock threw SQLite's raw "database is
    /// locked" (134060), so a server could not catch `.inUse` to retry; the context keeps its changes.
    @Test func aSaveBlockedByAnotherWriterIsInUse() throws {
        let harness = try StoreHarness(model: try Fixtures.model("books"))
        let writer = try Connection(path: harness.path)
        try writer.execute("BEGIN IMMEDIATE")
        let book = try harness.context.insert("Book")
        book["title"] = .string("Leave it to Psmith")
        book["author"] = .string("Wodehouse")
        let error = try #require(throws: StoreError.self) { try harness.context.save() }
        guard case .inUse(let path) = error else {
            Issue.record("expected inUse, got \(error)")
            return
        }
        #expect(path == harness.path && error.code == 134090)
        #expect(harness.context.hasChanges && book.isInserted)
        try writer.execute("ROLLBACK")
        try harness.context.save()
        #expect(try harness.store.count(of: harness.store.entity(named: "Book")) == 1)
    }

    @Test func tablesColumnsAndPrimaryKeys() throws {
        let harness = try StoreHarness(model: try Fixtures.model("failedbank"))
        let db = harness.store.connection
        let tables = try db.rows("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").compactMap { $0[0].string }
        #expect(tables == ["ZFAILEDBANKDETAILS", "ZFAILEDBANKINFO", "ZTAG", "Z_1TAGS", "Z_METADATA", "Z_MODELCACHE", "Z_PRIMARYKEY"])
        let columns = try db.rows("SELECT name, type FROM pragma_table_info('ZFAILEDBANKDETAILS')").map { "\($0[0].string!) \($0[1].string!)" }
        #expect(columns == ["Z_PK INTEGER", "Z_ENT INTEGER", "Z_OPT INTEGER", "ZZIP INTEGER", "ZCLOSEDATE TIMESTAMP",
                            "ZUPDATEDATE TIMESTAMP", "ZINFO INTEGER"])
        let join = try db.rows("SELECT name FROM pragma_table_info('Z_1TAGS')").compactMap { $0[0].string }
        #expect(join == ["Z_1BANKDETAILS", "Z_3TAGS"])
        let entities = try db.rows("SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT")
        #expect(entities.map { $0[1].string } == ["FailedBankDetails", "FailedBankInfo", "Tag"])

        for i in 0..<5 {
            let tag = try harness.context.insert("Tag")
            tag["name"] = .string("t\(i)")
        }
        try harness.context.save()
        #expect(try db.scalar("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Tag'") == .integer(5))
        #expect(try db.rows("SELECT Z_PK, Z_ENT, Z_OPT FROM ZTAG ORDER BY Z_PK").map { $0.compactMap(\.int64) }
                == (1...5).map { [Int64($0), 3, 1] })
        // Keys keep growing after deletes, as Core Data's do.
        harness.context.delete(try harness.context.fetchAll("Tag").last!)
        try harness.context.save()
        try harness.context.insert("Tag")["name"] = .string("t6")
        try harness.context.save()
        #expect(try db.scalar("SELECT max(Z_PK) FROM ZTAG") == .integer(6))
    }

    @Test func metadataIsABinaryPropertyListWithTheModel() throws {
        let harness = try StoreHarness(model: try Fixtures.model("tasks"))
        guard case .blob(let bytes)? = try harness.store.connection.scalar("SELECT Z_PLIST FROM Z_METADATA") else {
            Issue.record("no metadata blob"); return
        }
        #expect(Array(bytes.prefix(8)) == Array("bplist00".utf8))
        let plist = try #require(try PropertyListSerialization.propertyList(from: Data(bytes), format: nil) as? [String: Any])
        #expect(plist["NSStoreType"] as? String == "SQLite")
        #expect(plist["NSStoreUUID"] as? String != nil)
        let hashes = try #require(plist["SeedStoreModelVersionHashes"] as? [String: Data])
        #expect(hashes["Task"]?.count == 32)
        #expect(plist["SeedStoreModel"] is Data)
    }

    @Test func datesAreSecondsSinceTheReferenceDate() throws {
        let harness = try StoreHarness(model: try Fixtures.model("books"))
        let book = try harness.context.insert("Book")
        book["title"] = .string("Old")
        book["author"] = .string("Someone")
        book["copyright"] = .date(Date(timeIntervalSince1970: 0))
        try harness.context.save()
        // TIMESTAMP has NUMERIC affinity: SQLite keeps a whole number of seconds as an integer.
        #expect(try harness.store.connection.scalar("SELECT ZCOPYRIGHT FROM ZBOOK")?.double == -978_307_200)
    }

    @Test func everyAttributeTypeRoundTrips() throws {
        let model = try ObjectModel([EntityDescription("Everything", attributes: [
            Attribute("i16", .integer16), Attribute("i32", .integer32), Attribute("i64", .integer64),
            Attribute("dec", .decimal), Attribute("dbl", .double), Attribute("flt", .float), Attribute("str", .string),
            Attribute("flag", .boolean), Attribute("when", .date), Attribute("blob", .binary),
            Attribute("shape", .transformable, valueTransformerName: "TestJSONTransformer"),
            Attribute("link", .uri), Attribute("ident", .uuid),
        ])])
        struct TestJSONTransformer: ValueTransformer {
            func transformedValue(_ value: Any) throws -> Data { try JSONSerialization.data(withJSONObject: value) }
            func reverseTransformedValue(_ data: Data) throws -> Any { try JSONSerialization.jsonObject(with: data) }
        }
        ValueTransformers.register(TestJSONTransformer(), name: "TestJSONTransformer")
        let harness = try StoreHarness(model: model)
        let object = try harness.context.insert("Everything")
        let uuid = UUID()
        let values: [String: Value] = [
            "i16": .integer(-32768), "i32": .integer(2_147_483_647), "i64": .integer(Int64.min),
            "dec": .decimal(Decimal(string: "1234567890.12345")!), "dbl": .double(3.25), "flt": .double(1.5),
            "str": .string("Zoë's \"bank\", 08123"), "flag": .bool(true), "when": .date(Date(timeIntervalSinceReferenceDate: -2_848_789_424)),
            "blob": .data(Data([0, 1, 2, 255])), "link": .uri(URL(string: "https://example.org/a?b=c")!), "ident": .uuid(uuid),
        ]
        for (key, value) in values { object[key] = value }
        try object.setTransformedValue([1, 2, 3], forKey: "shape")
        try harness.context.save()
        let read = try ManagedObjectContext(store: try harness.reopen()).fetchAll("Everything")[0]
        for (key, value) in values { #expect(read[key] == value, "\(key)") }
        #expect(try read.transformedValue(forKey: "shape") as? [Int] == [1, 2, 3])
    }

    @Test func outOfRangeIntegersFailValidation() throws {
        let model = try ObjectModel([EntityDescription("Small", attributes: [Attribute("n", .integer16)])])
        let harness = try StoreHarness(model: model)
        try harness.context.insert("Small")["n"] = .integer(40_000)
        #expect { try harness.context.save() } throws: { ($0 as? StoreError)?.code == 1610 }
    }

    @Test func inMemoryStoreWorks() throws {
        let store = try PersistentStore.inMemory(model: try Fixtures.model("tasks"))
        let context = ManagedObjectContext(store: store)
        try context.insert("Task")["task_description"] = .string("in memory")
        try context.save()
        #expect(try context.fetchAll("Task").count == 1)
    }
}
