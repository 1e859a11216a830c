import Foundation

/// Builds the SQL of one fetch over one entity: the FROM clause with the joins key paths need,
/// the WHERE condition of a predicate, the ORDER BY of sort keys, and the values to bind.
///
/// Values are never pasted into SQL text: each constant becomes a numbered placeholder (`?1`,
/// `?2`, …) and is appended to ``bindings``, so placeholder `?n` binds `bindings[n - 1]` however
/// the pieces are assembled. Joins carry no placeholders; key paths can only name properties of
/// the model (anything else throws ``StoreError/unknownKey(entity:key:suggestions:)``), so no
/// value of a request reaches the SQL text.
///
/// Put every condition the builder returns into the statement (its values are already in
/// ``bindings``), and for values of your own use ``bind(_:)`` rather than a bare `?`.
///
/// The root table's alias is `t0`; each to-one path prefix (`details`, `info.details`) gets one
/// `LEFT OUTER JOIN` with its own alias (`t1`, `t2`, …), reused when the prefix comes back. To-many
/// key paths (`ANY tags.name == 'x'`, `tags.@count`, `SUBQUERY(...)`) become correlated
/// subqueries whose aliases continue the same numbering.
///
/// The SQL calls `SEEDSTORE_COMPARE` and the `SEEDSTORE_NOCASE`/`SEEDSTORE_LOCALIZED` collations:
/// run it on a connection after ``Connection/registerSeedStoreFunctions()``.
///
/// For example:
///
/// ```swift
/// var builder = SQLQueryBuilder(model: store.model, entity: task)
/// let condition = try builder.condition(FetchPredicate(format: "priority == 1 AND completed == NO"))
/// let order = try builder.orderBy([FetchSort("completed"), FetchSort("priority")])
/// let sql = "SELECT t0.Z_PK FROM \(builder.fromClause) WHERE \(condition) ORDER BY \(order)"
/// let rows = try store.connection.rows(sql, builder.bindings)
/// // SELECT t0.Z_PK FROM ZTASK t0 WHERE t0.ZPRIORITY = ?1 AND t0.ZCOMPLETED = ?2
/// //     ORDER BY t0.ZCOMPLETED, t0.ZPRIORITY, t0.Z_PK
/// ```
///
/// See ``select(_:where:orderBy:limit:offset:distinct:)`` for a whole statement at once.
public struct SQLQueryBuilder {
    /// The model the entity belongs to.
    public let model: ObjectModel
    /// The entity fetched: the table aliased `t0`.
    public let entity: Entity
    /// Values to bind: `bindings[n - 1]` goes to placeholder `?n` of everything built so far.
    public private(set) var bindings: [SQLValue] = []
    /// Scope 0 is the fetch itself; every subquery adds one.
    var scopes: [SQLScope]
    /// How many table aliases are in use (`t0` counts).
    var aliasCount = 1
    /// Names a HAVING predicate may use for result columns, with their SQL.
    var resultColumns: [String: String] = [:]
    /// The date `now()` stands for in what this builder compiles, bound as a parameter: when the
    /// builder was made, unless set (a fetch sets it to its own instant).
    public var now = Date()

    /// Starts the SQL of a fetch of `entity`.
    public init(model: ObjectModel, entity: Entity) {
        self.model = model
        self.entity = entity
        let root = SQLNode(entity: entity, alias: "t0", primaryKey: "t0.Z_PK", joinKeyword: nil)
        self.scopes = [SQLScope(head: "\(entity.tableName) t0", link: nil, nodes: ["": root])]
    }

    /// The FROM clause (without the word FROM): the root table and the joins added so far.
    ///
    /// For example: `ZFAILEDBANKINFO t0 LEFT OUTER JOIN ZFAILEDBANKDETAILS t1 ON t1.Z_PK = t0.ZDETAILS`.
    public var fromClause: String { scopes[0].fromClause }

    /// Appends `value` to ``bindings`` and returns its placeholder (`?3`), for SQL of your own
    /// (`LIMIT`, say) alongside what the builder writes.
    public mutating func bind(_ value: SQLValue) -> String {
        bindings.append(value)
        return "?\(bindings.count)"
    }

    /// A fresh table alias: `t1`, `t2`, …
    mutating func newAlias() -> String {
        defer { aliasCount += 1 }
        return "t\(aliasCount)"
    }
}

/// A whole SQL statement with the values for its numbered placeholders.
public struct SQLQuery: Sendable, Hashable, CustomStringConvertible {
    /// The statement, with placeholders `?1`, `?2`, …
    public var sql: String
    /// `bindings[n - 1]` binds placeholder `?n`.
    public var bindings: [SQLValue]

    /// A statement `sql` whose placeholder `?n` binds `bindings[n - 1]`.
    ///
    /// For example:
    ///
    /// ```swift
    /// let query = SQLQuery(sql: "SELECT Z_PK FROM ZTASK WHERE ZPRIORITY = ?1", bindings: [.integer(1)])
    /// let rows = try store.connection.rows(query.sql, query.bindings)
    /// ```
    public init(sql: String, bindings: [SQLValue]) {
        self.sql = sql
        self.bindings = bindings
    }

    /// The SQL, then the bound values (user data: keep it out of logs you do not control).
    public var description: String {
        bindings.isEmpty ? sql : sql + "  -- " + bindings.enumerated().map { "?\($0.offset + 1) = \($0.element)" }.joined(separator: ", ")
    }
}

extension SQLQueryBuilder {
    /// The whole `SELECT` of a fetch: `columns` of the rows matching `predicate`, in the order of
    /// `sorts` (then `t0.Z_PK`, so the order is total), after `offset` rows, at most `limit`
    /// (`nil` for no limit; Core Data's `fetchLimit` 0 is `nil` here). Limit and offset are bound
    /// too, after the predicate's values.
    ///
    /// `columns` are SQL expressions over the builder's aliases: `t0.Z_PK`, or what
    /// ``column(forKeyPath:)`` returns. With `distinct`, the order is completed with the selected
    /// columns instead of `t0.Z_PK`.
    ///
    /// For example:
    ///
    /// ```swift
    /// var builder = SQLQueryBuilder(model: model, entity: info)
    /// let zip = try builder.column(forKeyPath: "details.zip")
    /// let query = try builder.select(["t0.Z_PK", zip.sql], where: FetchPredicate(format: "state == 'CA'"),
    ///                                orderBy: [FetchSort("details.closeDate", ascending: false)], limit: 20)
    /// let rows = try store.connection.rows(query.sql, query.bindings)
    /// ```
    public mutating func select(
        _ columns: [String], where predicate: FetchPredicate? = nil, orderBy sorts: [FetchSort] = [],
        limit: Int? = nil, offset: Int? = nil, distinct: Bool = false
    ) throws(StoreError) -> SQLQuery {
        let condition = try predicate.map { p throws(StoreError) in try self.condition(p) } ?? "1"
        let order = try orderBy(sorts, tieBreakers: distinct ? columns : ["t0.Z_PK"])
        var sql = "SELECT " + (distinct ? "DISTINCT " : "") + columns.joined(separator: ", ")
        sql += " FROM " + fromClause
        if condition != "1" { sql += " WHERE " + condition }
        if !order.isEmpty { sql += " ORDER BY " + order }
        if limit != nil || (offset ?? 0) > 0 {
            sql += " LIMIT " + bind(.integer(Int64(limit ?? -1)))
            if let offset, offset > 0 { sql += " OFFSET " + bind(.integer(Int64(offset))) }
        }
        return SQLQuery(sql: sql, bindings: bindings)
    }

    /// The `SELECT` of ``select(_:where:orderBy:limit:offset:distinct:)`` in one call.
    ///
    /// For example:
    ///
    /// ```swift
    /// let query = try SQLQueryBuilder.select(["t0.Z_PK"], from: task, in: model,
    ///                                        where: FetchPredicate(format: "priority == 1"))
    /// ```
    public static func select(
        _ columns: [String], from entity: Entity, in model: ObjectModel, where predicate: FetchPredicate? = nil,
        orderBy sorts: [FetchSort] = [], limit: Int? = nil, offset: Int? = nil, distinct: Bool = false
    ) throws(StoreError) -> SQLQuery {
        var builder = SQLQueryBuilder(model: model, entity: entity)
        return try builder.select(columns, where: predicate, orderBy: sorts, limit: limit, offset: offset, distinct: distinct)
    }
}
