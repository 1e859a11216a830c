import CSQLite
import Foundation
import ManagedStore
import Measure

/// The engine core's speed targets: inserting and saving objects through a context, and fetching them
/// back fully materialised, each next to the same work through raw sqlite3 calls in the same run.
///
/// Targets (issue "engine core"): insert+save at most 2.0x raw; fetch at most 2.5x raw.
///
/// For example:
///
/// ```swift
/// let checks = try EngineSpeed(rows: 100_000, runs: 5).run()
/// print(SpeedCheck.table(checks))
/// ```
public struct EngineSpeed {
    /// Objects each run inserts, saves and fetches back.
    public var rows: Int
    /// Times each check runs; every run gives one sample to each side.
    public var runs: Int
    /// The scratch directory for the runs' store files, created by ``run(progress:)`` and removed when it ends.
    public var directory: URL

    /// A benchmark of `rows` objects over `runs` runs, with its store files in a per-process
    /// `seedstore-engine-speed-PID` subdirectory of `directory` (the system's temporary directory by default).
    ///
    /// For example:
    ///
    /// ```swift
    /// let speed = EngineSpeed(rows: 10_000, runs: 3)
    /// let checks = try speed.run { print("speed: \($0)") }
    /// ```
    public init(rows: Int = 100_000, runs: Int = 5, directory: URL = FileManager.default.temporaryDirectory) {
        self.rows = rows
        self.runs = runs
        self.directory = directory.appendingPathComponent("seedstore-engine-speed-\(getpid())")
    }

    /// The 10-attribute entity the benchmark inserts.
    public static let model: ObjectModel = try! ObjectModel([EntityDescription("Item", attributes: [
        Attribute("number", .integer64, optional: false), Attribute("rank", .integer32), Attribute("bucket", .integer16),
        Attribute("price", .double), Attribute("weight", .double),
        Attribute("name", .string, optional: false), Attribute("category", .string), Attribute("note", .string),
        Attribute("created", .date), Attribute("active", .boolean),
    ])])

    struct Columns {
        var ints: [(Int64, Int64, Int64)] = []
        var doubles: [(Double, Double)] = []
        var texts: [(String, String, String)] = []
        var dates: [Double] = []
        var flags: [Bool] = []
    }

    func makeColumns() -> Columns {
        var c = Columns()
        for i in 0..<rows {
            let n = Int64(i)
            c.ints.append((n, (n * 7919) % 100_000, n % 5))
            c.doubles.append((Double(i) * 0.25, Double((i * 31) % 1000) / 7))
            c.texts.append(("Item \(i)", "Category \(i % 50)", i % 3 == 0 ? "" : "Note about item \(i), with a comma"))
            c.dates.append(700_000_000 + Double(i) * 60)
            c.flags.append(i % 2 == 0)
        }
        return c
    }

    /// Runs every check `runs` times and returns them.
    public func run(progress: (String) -> Void = { _ in }) throws -> [SpeedCheck] {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let columns = makeColumns()
        var insertOurs: [Double] = [], insertBulk: [Double] = [], insertRaw: [Double] = [], fetchOurs: [Double] = [], fetchRaw: [Double] = []
        var statements = 0
        for run in 1...runs {
            progress("run \(run)/\(runs)")
            let ours = directory.appendingPathComponent("ours-\(run).sqlite").path
            let raw = directory.appendingPathComponent("raw-\(run).sqlite").path
            // Alternate the order so neither side always runs on a warmer machine.
            if run % 2 == 0 {
                insertRaw.append(try rawInsert(columns, path: raw))
                insertOurs.append(try contextInsert(columns, path: ours))
            } else {
                insertOurs.append(try contextInsert(columns, path: ours))
                insertRaw.append(try rawInsert(columns, path: raw))
            }
            let bulk = directory.appendingPathComponent("bulk-\(run).sqlite").path
            insertBulk.append(try contextInsertValues(columns, path: bulk))
            try? FileManager.default.removeItem(atPath: bulk)
            let (seconds, stats) = try contextFetch(path: ours)
            fetchOurs.append(seconds)
            statements = stats.statements
            fetchRaw.append(try rawFetch(path: raw))
            try? FileManager.default.removeItem(atPath: ours)
            try? FileManager.default.removeItem(atPath: raw)
        }
        return [
            SpeedCheck(name: "insert+save \(rows) objects, 10 setValue calls each", measured: Statistics(insertOurs),
                       reference: Statistics(insertRaw), referenceName: "raw INSERTs", target: .atMost(2.0)),
            SpeedCheck(name: "insert+save \(rows) objects, values at once", measured: Statistics(insertBulk),
                       reference: Statistics(insertRaw), referenceName: "raw INSERTs", target: .atMost(2.0)),
            SpeedCheck(name: "fetch \(rows) objects, fully materialised", measured: Statistics(fetchOurs),
                       reference: Statistics(fetchRaw), referenceName: "raw SELECT", target: .atMost(2.5),
                       notes: ["\(statements) statement(s) for the fetch"]),
        ]
    }

    func contextInsert(_ c: Columns, path: String) throws -> Double {
        let store = try PersistentStore(path: path, model: Self.model)
        let context = ManagedObjectContext(store: store)
        let entity = store.model.entity(named: "Item")!
        // Ordinals resolved once, as the importer and any hot loop do.
        let slots = ["number", "rank", "bucket", "price", "weight", "name", "category", "note", "created", "active"].map { entity.columnIndex(of: $0)! }
        let start = Clock.now()
        for i in 0..<rows {
            let object = context.insert(entity)
            object.setValue(.integer(c.ints[i].0), at: slots[0])
            object.setValue(.integer(c.ints[i].1), at: slots[1])
            object.setValue(.integer(c.ints[i].2), at: slots[2])
            object.setValue(.double(c.doubles[i].0), at: slots[3])
            object.setValue(.double(c.doubles[i].1), at: slots[4])
            object.setValue(.string(c.texts[i].0), at: slots[5])
            object.setValue(.string(c.texts[i].1), at: slots[6])
            object.setValue(.string(c.texts[i].2), at: slots[7])
            object.setValue(.date(Date(timeIntervalSinceReferenceDate: c.dates[i])), at: slots[8])
            object.setValue(.bool(c.flags[i]), at: slots[9])
        }
        try context.save()
        // Measure insert+save, not tearing the context down: keep it alive until the clock stops.
        return withExtendedLifetime(context) { Clock.now() - start }
    }

    func contextInsertValues(_ c: Columns, path: String) throws -> Double {
        let store = try PersistentStore(path: path, model: Self.model)
        let context = ManagedObjectContext(store: store)
        let entity = store.model.entity(named: "Item")!
        let start = Clock.now()
        for i in 0..<rows {
            _ = context.insert(entity, values: [
                .integer(c.ints[i].0), .integer(c.ints[i].1), .integer(c.ints[i].2), .double(c.doubles[i].0), .double(c.doubles[i].1),
                .string(c.texts[i].0), .string(c.texts[i].1), .string(c.texts[i].2),
                .date(Date(timeIntervalSinceReferenceDate: c.dates[i])), .bool(c.flags[i]),
            ])
        }
        try context.save()
        return withExtendedLifetime(context) { Clock.now() - start }
    }

    func contextFetch(path: String) throws -> (Double, ConnectionStats) {
        let store = try PersistentStore(path: path)
        let context = ManagedObjectContext(store: store)
        let before = store.connection.stats
        let (objects, seconds) = try Clock.time { try context.fetchAll("Item") }
        precondition(objects.count == rows)
        withExtendedLifetime(context) {}
        return (seconds, store.connection.stats - before)
    }

    func rawInsert(_ c: Columns, path: String) throws -> Double {
        let db = try RawDatabase(path: path)
        try db.exec("CREATE TABLE ZITEM (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNUMBER INTEGER, ZRANK INTEGER, ZBUCKET INTEGER, ZPRICE FLOAT, ZWEIGHT FLOAT, ZNAME VARCHAR, ZCATEGORY VARCHAR, ZNOTE VARCHAR, ZCREATED TIMESTAMP, ZACTIVE INTEGER)")
        let start = Clock.now()
        try db.exec("BEGIN IMMEDIATE")
        let insert = try db.prepare("INSERT INTO ZITEM (Z_PK, Z_ENT, Z_OPT, ZNUMBER, ZRANK, ZBUCKET, ZPRICE, ZWEIGHT, ZNAME, ZCATEGORY, ZNOTE, ZCREATED, ZACTIVE) VALUES (?, 1, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
        defer { sqlite3_finalize(insert) }
        for i in 0..<rows {
            sqlite3_reset(insert)
            sqlite3_bind_int64(insert, 1, Int64(i + 1))
            sqlite3_bind_int64(insert, 2, c.ints[i].0)
            sqlite3_bind_int64(insert, 3, c.ints[i].1)
            sqlite3_bind_int64(insert, 4, c.ints[i].2)
            sqlite3_bind_double(insert, 5, c.doubles[i].0)
            sqlite3_bind_double(insert, 6, c.doubles[i].1)
            RawDatabase.bind(insert, 7, c.texts[i].0)
            RawDatabase.bind(insert, 8, c.texts[i].1)
            RawDatabase.bind(insert, 9, c.texts[i].2)
            sqlite3_bind_double(insert, 10, c.dates[i])
            sqlite3_bind_int64(insert, 11, c.flags[i] ? 1 : 0)
            _ = try db.step(insert)
        }
        try db.exec("COMMIT")
        return Clock.now() - start
    }

    func rawFetch(path: String) throws -> Double {
        let db = try RawDatabase(path: path)
        let start = Clock.now()
        let select = try db.prepare("SELECT Z_PK, Z_OPT, ZNUMBER, ZRANK, ZBUCKET, ZPRICE, ZWEIGHT, ZNAME, ZCATEGORY, ZNOTE, ZCREATED, ZACTIVE FROM ZITEM ORDER BY Z_PK")
        defer { sqlite3_finalize(select) }
        var count = 0
        var checksum = 0
        while try db.step(select) {
            // Read every column into a Swift value, as any use of the row must.
            checksum &+= Int(sqlite3_column_int64(select, 0) &+ sqlite3_column_int64(select, 1) &+ sqlite3_column_int64(select, 2))
            checksum &+= Int(sqlite3_column_int64(select, 3) &+ sqlite3_column_int64(select, 4))
            checksum &+= Int(sqlite3_column_double(select, 5) + sqlite3_column_double(select, 6))
            checksum &+= RawDatabase.text(select, 7)?.utf8.count ?? 0
            checksum &+= RawDatabase.text(select, 8)?.utf8.count ?? 0
            checksum &+= RawDatabase.text(select, 9)?.utf8.count ?? 0
            checksum &+= Int(Date(timeIntervalSinceReferenceDate: sqlite3_column_double(select, 10)).timeIntervalSince1970)
            checksum &+= Int(sqlite3_column_int64(select, 11))
            count += 1
        }
        precondition(count == rows && checksum != 0)
        return Clock.now() - start
    }
}
