import CLibCSV
import CSQLite
import Foundation
import ManagedStore
import Measure

/// The floor an importer is measured against: libcsv's `csv_parse` with C callbacks over fixed 64 KiB
/// chunks, fields converted from bytes with the same parsers (numbers to integers and doubles, dates to
/// seconds since 2001, booleans to 0/1), bound to prepared INSERTs through the sqlite3 C API in one
/// transaction. The same tables (Core Data's layout), pragmas, indexes, `ANALYZE` and final fsync as the
/// importer; no managed objects, no mapping, no key checks beyond the relationship lookup.
final class _RawReferenceLoader {
    /// One table a CSV row fills.
    struct Target {
        let entity: Entity
        /// Each attribute's CSV field index, in column order.
        var fields: [Int]
        /// The to-one filled from a key column: (relationship name, CSV field) — looked up in ``keys``.
        var foreignKey: (name: String, field: Int)?
        /// The to-one pointing at the row's object of another target (same primary key).
        var linkColumn: String?
    }

    private let db: RawDatabase
    private let model: ObjectModel
    /// Operator key → primary key, for the relationship column.
    private var keys: [Int64: Int64] = [:]

    init(path: String, model: ObjectModel) throws {
        self.model = model
        db = try RawDatabase(path: path)
        try db.exec("PRAGMA journal_mode = OFF")
        try db.exec("PRAGMA synchronous = OFF")
        // The importer's load cache: the same pragmas on both sides.
        try db.exec("PRAGMA cache_size = -\(ImportOptions.defaultCacheSizeKiB)")
        for entity in model.entities {
            let columns = ["Z_PK INTEGER PRIMARY KEY", "Z_ENT INTEGER", "Z_OPT INTEGER"] + entity.columns.map { "\($0.columnName) \($0.sqlType)" }
            try db.exec("CREATE TABLE \(entity.tableName) ( \(columns.joined(separator: ", ")) )")
        }
        try db.exec("BEGIN")
    }

    /// Loads one CSV file into `targets`; `keyField` records the first target's key → primary key.
    func load(csv path: String, targets: [Target], keyField: Int? = nil) throws {
        var statements: [OpaquePointer] = []
        for target in targets {
            var columns = ["Z_PK", "Z_ENT", "Z_OPT"] + target.entity.attributes.map(\.columnName)
            if let foreignKey = target.foreignKey { columns.append("Z" + foreignKey.name.uppercased()) }
            if let link = target.linkColumn { columns.append("Z" + link.uppercased()) }
            let marks = Array(repeating: "?", count: columns.count).joined(separator: ", ")
            statements.append(try db.prepare("INSERT INTO \(target.entity.tableName) (\(columns.joined(separator: ", "))) VALUES (\(marks))"))
        }
        defer { for statement in statements { sqlite3_finalize(statement) } }
        let types = targets.map { $0.entity.attributes.map(\.type) }
        let dateFormat = try DateFormat("yyyy-MM-dd")
        var primaryKey: Int64 = 0
        var failure: Error?

        let row = _RawRow { row in
            guard failure == nil else { return }
            if row.isHeader { return }
            primaryKey += 1
            for (t, target) in targets.enumerated() {
                let statement = statements[t]
                sqlite3_bind_int64(statement, 1, primaryKey)
                sqlite3_bind_int64(statement, 2, Int64(target.entity.id))
                sqlite3_bind_int64(statement, 3, 1)
                var bind: Int32 = 4
                for (a, field) in target.fields.enumerated() {
                    let bytes = row.field(field)
                    if bytes.isEmpty {
                        sqlite3_bind_null(statement, bind)
                    } else {
                        switch types[t][a] {
                        case .string:
                            sqlite3_bind_text(statement, bind, UnsafeRawPointer(bytes.baseAddress!).assumingMemoryBound(to: CChar.self),
                                              Int32(bytes.count), _seedstore_sqlite_static())
                        case .integer16, .integer32, .integer64:
                            guard let value = _NumberParser.integer(bytes) else { failure = _SpeedError(message: "bad integer"); return }
                            sqlite3_bind_int64(statement, bind, value)
                        case .double, .float:
                            guard let value = _NumberParser.double(bytes) else { failure = _SpeedError(message: "bad double"); return }
                            sqlite3_bind_double(statement, bind, value)
                        case .boolean:
                            guard let value = _BooleanParser.parse(bytes) else { failure = _SpeedError(message: "bad boolean"); return }
                            sqlite3_bind_int64(statement, bind, value ? 1 : 0)
                        case .date:
                            var dateFailure: _DateFailure?
                            guard let seconds = dateFormat.parse(bytes, failure: &dateFailure) else { failure = _SpeedError(message: "bad date"); return }
                            sqlite3_bind_double(statement, bind, seconds)
                        default:
                            failure = _SpeedError(message: "unsupported type")
                            return
                        }
                    }
                    bind += 1
                }
                if let foreignKey = target.foreignKey {
                    guard let key = _NumberParser.integer(row.field(foreignKey.field)), let destination = self.keys[key] else {
                        failure = _SpeedError(message: "unknown key")
                        return
                    }
                    sqlite3_bind_int64(statement, bind, destination)
                    bind += 1
                }
                if target.linkColumn != nil {
                    sqlite3_bind_int64(statement, bind, primaryKey)
                }
                if sqlite3_step(statement) != SQLITE_DONE {
                    failure = _SpeedError(message: String(cString: sqlite3_errmsg(self.db.db)))
                    return
                }
                sqlite3_reset(statement)
            }
            if let keyField, let key = _NumberParser.integer(row.field(keyField)) { self.keys[key] = primaryKey }
        }
        try row.parse(path: path)
        if let failure { throw failure }
    }

    /// Commits, builds the store's indexes, ANALYZE, back to a one-file journal, and flushes to disk.
    func finish(indexStatements: [String], path: String) throws {
        try db.exec("COMMIT")
        // As the importer does: the loaded rows go to disk while the indexes are built.
        let flush = _StoreFile.startFlush(path)
        defer { flush.wait() }   // on an error too: the helper thread never outlives the loader
        // The importer's index-build cache and sorter threads, so both sides sort alike.
        try db.exec("PRAGMA cache_size = -\(ImportOptions.defaultIndexCacheSizeKiB)")
        try db.exec("PRAGMA threads = \(ImportOptions.defaultIndexSortThreads)")
        for sql in indexStatements { try db.exec(sql) }
        try db.exec("ANALYZE")
        try db.exec("PRAGMA journal_mode = DELETE")
        flush.wait()   // as the importer: its flush ends before the final fsync
        do { try _StoreFile.fsync(path) } catch { throw _SpeedError(message: error.description) }
    }
}

/// One CSV row at a time from libcsv's callbacks: field bytes back to back, handed to a closure at row end.
final class _RawRow {
    private var bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: 4096)
    private var capacity = 4096
    private var count = 0
    private var ends = [Int](repeating: 0, count: 256)
    private(set) var fieldCount = 0
    private(set) var isHeader = true
    private let onRow: (_RawRow) -> Void

    init(onRow: @escaping (_RawRow) -> Void) {
        self.onRow = onRow
    }

    deinit { bytes.deallocate() }

    @inline(__always)
    func field(_ index: Int) -> UnsafeBufferPointer<UInt8> {
        guard index < fieldCount else { return UnsafeBufferPointer(start: bytes, count: 0) }
        let start = index == 0 ? 0 : ends[index - 1]
        return UnsafeBufferPointer(start: bytes + start, count: ends[index] - start)
    }

    @inline(__always)
    fileprivate func append(_ source: UnsafeMutableRawPointer?, _ length: Int) {
        if count + length > capacity {
            capacity = max(capacity * 2, count + length)
            let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
            grown.update(from: bytes, count: count)
            bytes.deallocate()
            bytes = grown
        }
        if length > 0, let source { (bytes + count).update(from: source.assumingMemoryBound(to: UInt8.self), count: length) }
        count += length
        if fieldCount == ends.count { ends.append(contentsOf: repeatElement(0, count: ends.count)) }
        ends[fieldCount] = count
        fieldCount += 1
    }

    @inline(__always)
    fileprivate func end() {
        onRow(self)
        isHeader = false
        count = 0
        fieldCount = 0
    }

    /// Reads `path` with 64 KiB `fread` chunks through `csv_parse`.
    func parse(path: String) throws {
        var parser = csv_parser()
        guard csv_init(&parser, 0) == 0 else { throw _SpeedError(message: "csv_init failed") }
        defer { csv_free(&parser) }
        csv_set_blk_size(&parser, 64 * 1024)
        guard let file = fopen(path, "rb") else { throw _SpeedError(message: "cannot open \(path)") }
        defer { fclose(file) }
        let chunk = UnsafeMutableRawPointer.allocate(byteCount: 64 * 1024, alignment: 16)
        defer { chunk.deallocate() }
        let context = Unmanaged.passUnretained(self).toOpaque()
        while true {
            let read = fread(chunk, 1, 64 * 1024, file)
            if read == 0 { break }
            guard csv_parse(&parser, chunk, read, _RawRow.onField, _RawRow.onRowEnd, context) == read else {
                throw _SpeedError(message: "libcsv: " + String(cString: csv_strerror(csv_error(&parser))))
            }
        }
        csv_fini(&parser, _RawRow.onField, _RawRow.onRowEnd, context)
    }

    private static let onField: @convention(c) (UnsafeMutableRawPointer?, Int, UnsafeMutableRawPointer?) -> Void = { field, length, context in
        Unmanaged<_RawRow>.fromOpaque(context!)._withUnsafeGuaranteedRef { $0.append(field, length) }
    }

    private static let onRowEnd: @convention(c) (Int32, UnsafeMutableRawPointer?) -> Void = { _, context in
        Unmanaged<_RawRow>.fromOpaque(context!)._withUnsafeGuaranteedRef { $0.end() }
    }
}

/// A failure of a reference run in the import speed check.
struct _SpeedError: Error, CustomStringConvertible {
    let message: String
    var description: String { "import speed reference failed: \(message)" }
}
