// Sort keys and single columns: key paths through to-one relationships only.

extension SQLQueryBuilder {
    /// The ORDER BY items of `sorts` (without the words ORDER BY), then `t0.Z_PK`, so rows that
    /// tie on every key still come in one order.
    ///
    /// Strings compare with SQLite's BINARY collation (by Unicode scalars), `SEEDSTORE_NOCASE` for
    /// ``FetchSort/Comparison/caseInsensitive`` (`SEEDSTORE_NODIACRITIC`, `SEEDSTORE_NOCASE_NODIACRITIC`
    /// for `[d]` and `[cd]`), or `SEEDSTORE_LOCALIZED` for
    /// ``FetchSort/Comparison/localized``; other types ignore the comparison. NULL sorts first
    /// ascending and last descending, as in Core Data. Keys through to-one relationships join.
    ///
    /// For example, `[FetchSort("info.name", comparison: .caseInsensitive), FetchSort("closeDate", ascending: false)]`
    /// over FailedBankDetails gives `t1.ZNAME COLLATE SEEDSTORE_NOCASE, t0.ZCLOSEDATE DESC, t0.Z_PK`.
    ///
    /// - Throws: ``StoreError/unknownKey(entity:key:suggestions:)``, or
    ///   ``StoreError/invalidRequest(_:)`` for a key path through a to-many relationship.
    public mutating func orderBy(_ sorts: [FetchSort]) throws(StoreError) -> String {
        try orderBy(sorts, tieBreakers: ["t0.Z_PK"])
    }

    /// ORDER BY items for `sorts`, completed with those of `tieBreakers` not already sorted on.
    mutating func orderBy(_ sorts: [FetchSort], tieBreakers: [String]) throws(StoreError) -> String {
        var items: [String] = []
        var sorted: Set<String> = []
        for sort in sorts {
            let end = try scalarKeyPath(sort.components, purpose: "sort by")
            items.append(Self.orderItem(end.sql, sort, isString: end.kind == .string))
            sorted.insert(end.sql)
        }
        items += tieBreakers.filter { !sorted.contains($0) }
        return items.joined(separator: ", ")
    }

    /// One ORDER BY item: `sql` with the sort's collation (strings only) and direction.
    static func orderItem(_ sql: String, _ sort: FetchSort, isString: Bool) -> String {
        var item = sql
        if isString {
            switch sort.comparison {
            case .binary: break
            case .caseInsensitive: item += " COLLATE " + Connection.SeedStoreSQL.caseInsensitive
            case .diacriticInsensitive: item += " COLLATE " + Connection.SeedStoreSQL.diacriticInsensitive
            case .caseDiacriticInsensitive: item += " COLLATE " + Connection.SeedStoreSQL.caseDiacriticInsensitive
            case .localized: item += " COLLATE " + Connection.SeedStoreSQL.localized
            }
        }
        return sort.ascending ? item : item + " DESC"
    }

    /// The column a key path through to-one relationships ends at (an attribute or a to-one's
    /// foreign key), for dictionary results and grouping: its SQL (`t1.ZZIP`), the column, and
    /// the entity that has it. Joins the path needs are added to ``fromClause``.
    ///
    /// For example:
    ///
    /// ```swift
    /// var builder = SQLQueryBuilder(model: model, entity: info)
    /// let zip = try builder.column(forKeyPath: "details.zip")   // ("t1.ZZIP", zip column, FailedBankDetails)
    /// ```
    public mutating func column(forKeyPath keyPath: String) throws(StoreError) -> (sql: String, column: Column, entity: Entity) {
        let path = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard case .column(let sql, let column, let entity) = try scalarKeyPath(path, purpose: "select") else {
            throw .invalidRequest("'\(keyPath)' names an object, not a column")
        }
        return (sql, column, entity)
    }

    /// Resolves a key path that must name one value per object.
    private mutating func scalarKeyPath(_ path: [String], purpose: String) throws(StoreError) -> SQLKeyPathEnd {
        guard !path.isEmpty else { throw .invalidRequest("cannot \(purpose) an empty key path") }
        if crossesToMany(path, from: entity) {
            throw .invalidRequest("cannot \(purpose) '\(path.joined(separator: "."))': it goes through a to-many relationship, so it has many values per object; use an attribute or a key path through to-one relationships")
        }
        return try resolve(path, from: Self.root, collection: false).end
    }
}
