/// One FROM clause under construction: the fetch's own (scope 0) or a subquery's.
///
/// A scope holds the objects its key paths reach, by path from the scope's start (`""`,
/// `details`, `details.info`), so a prefix met twice reuses its join.
struct SQLScope {
    /// The first table and its alias: `ZTASK t0`, or `Z_1TAGS t3` in a subquery.
    var head: String
    /// For a subquery: the condition tying its first table to the enclosing object.
    var link: String?
    /// The objects reached, by path from the scope's start.
    var nodes: [String: SQLNode]
    /// Joins in the order they were needed (each depends only on earlier ones).
    var joins: [String] = []

    var fromClause: String { ([head] + joins).joined(separator: " ") }
}

/// An object a key path reaches within a scope: its entity, the SQL of its primary key, and the
/// alias of its table once a column of it is needed.
struct SQLNode {
    let entity: Entity
    /// The table alias, once joined.
    var alias: String?
    /// SQL for the object's `Z_PK`; for an object reached through a foreign key or a join table
    /// that is the referring column, so counting or linking needs no join.
    let primaryKey: String
    /// The join keyword that brings the table in when a column of it is needed
    /// (`LEFT OUTER JOIN` for a to-one, `JOIN` for a join table's destination): the join is
    /// `<keyword> <table> <alias> ON <alias>.Z_PK = <primaryKey>`.
    let joinKeyword: String?
}

/// What a key path ends at.
enum SQLKeyPathEnd {
    /// An attribute or a to-one foreign key: the SQL of the column and what it stores.
    case column(sql: String, column: Column, entity: Entity)
    /// An object itself (`SELF`, or the destination of a to-many path): its primary key.
    case object(primaryKey: String, entity: Entity)

    var sql: String {
        switch self {
        case .column(let sql, _, _): sql
        case .object(let primaryKey, _): primaryKey
        }
    }

    var kind: SQLKind {
        switch self {
        case .column(_, let column, _): SQLKind(column)
        case .object: .number
        }
    }

    /// Whether the value may be NULL (an object's primary key never is).
    var isNullable: Bool {
        if case .object = self { return false }
        return true
    }
}

/// Where a key path starts: an object in a scope.
struct SQLPlace: Hashable {
    var scope: Int
    var node: String
}
