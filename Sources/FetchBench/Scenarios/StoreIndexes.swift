import CSQLite
import Foundation
import Measure

extension BenchReport.StoreInfo {
    /// Every index of the database `db` has open, by name, as ``indexDefinition(table:columns:unique:partial:)``
    /// writes it: the schema fingerprint a comparison checks (``BaselineComparison/indexChanges``).
    ///
    /// Read from `sqlite_master` and `PRAGMA index_info`, so it sees indexes made outside the model too
    /// (`CREATE INDEX` by hand, a migration) and misses none dropped by hand.
    ///
    /// For example:
    ///
    /// ```swift
    /// let indexes = try BenchReport.StoreInfo.indexes(of: RawDatabase(path: "Wells.sqlite", readOnly: true))
    /// print(indexes["ZWELL_ZUWI_INDEX"] ?? "dropped")   // ZWELL(ZUWI)
    /// ```
    public static func indexes(of db: RawDatabase) throws -> [String: String] {
        let list = try db.prepare("SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'index'")
        defer { sqlite3_finalize(list) }
        var found: [(name: String, table: String, sql: String?)] = []
        while try db.step(list) {
            guard let name = RawDatabase.text(list, 0), let table = RawDatabase.text(list, 1) else { continue }
            found.append((name, table, RawDatabase.text(list, 2)))
        }
        var indexes: [String: String] = [:]
        for index in found {
            let info = try db.prepare("PRAGMA index_info(\(quoted(index.name)))")
            defer { sqlite3_finalize(info) }
            var columns: [String] = []
            while try db.step(info) { columns.append(RawDatabase.text(info, 2) ?? "<expression>") }
            // An automatic index backs a UNIQUE or PRIMARY KEY constraint and has no SQL of its own.
            let sql = index.sql?.uppercased() ?? ""
            let unique = index.sql == nil || sql.hasPrefix("CREATE UNIQUE")
            indexes[index.name] = indexDefinition(table: index.table, columns: columns, unique: unique, partial: sql.contains(" WHERE "))
        }
        return indexes
    }

    /// `name` as an SQL string literal.
    static func quoted(_ name: String) -> String {
        "'" + name.replacingOccurrences(of: "'", with: "''") + "'"
    }
}
