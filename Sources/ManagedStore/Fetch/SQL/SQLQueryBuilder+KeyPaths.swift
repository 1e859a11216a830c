// Key paths to SQL: to-one steps become LEFT OUTER JOINs in the scope they start from (one per
// path prefix, made only when a column of the destination is read), to-many steps open a
// subquery scope (or, after the first, join inside it).

extension SQLQueryBuilder {
    /// Where the fetched object is: scope 0, the root node.
    static var root: SQLPlace { SQLPlace(scope: 0, node: "") }

    func node(_ place: SQLPlace) -> SQLNode {
        scopes[place.scope].nodes[place.node]!
    }

    /// The alias of an object's table, joining the table on first use.
    mutating func alias(of place: SQLPlace) -> String {
        var node = node(place)
        if let alias = node.alias { return alias }
        let alias = newAlias()
        scopes[place.scope].joins.append(
            "\(node.joinKeyword ?? "JOIN") \(node.entity.tableName) \(alias) ON \(alias).Z_PK = \(node.primaryKey)")
        node.alias = alias
        scopes[place.scope].nodes[place.node] = node
        return alias
    }

    /// Resolves `path` from `start`.
    ///
    /// Without `collection`, a to-many relationship on the way throws (with a hint to use ANY,
    /// @count or SUBQUERY). With it, the first to-many step opens a subquery scope (or continues
    /// in `within`, when given) and later steps join inside that scope; the scope is returned.
    ///
    /// - Returns: what the path ends at, the object it ends in (or whose column it ends at), and
    ///   the subquery scope, if a to-many step made or used one.
    mutating func resolve(
        _ path: [String], from start: SQLPlace, collection: Bool, within: Int? = nil
    ) throws(StoreError) -> (end: SQLKeyPathEnd, place: SQLPlace, subquery: Int?) {
        var place = start
        var subquery = within
        for (i, name) in path.enumerated() {
            let entity = node(place).entity
            let isLast = i == path.count - 1
            switch entity.slot(of: name) {
            case nil:
                throw entity.unknownKey(name)
            case .column(let index)?:
                let column = entity.columns[index]
                if let relationship = column.relationship, !isLast {
                    place = follow(toOne: relationship, column: column, from: place)
                    continue
                }
                guard isLast else {
                    throw .invalidRequest("'\(path.joined(separator: "."))': '\(name)' is an attribute of \(entity.name), so no key can follow it")
                }
                let sql = "\(alias(of: place)).\(column.columnName)"
                return (.column(sql: sql, column: column, entity: entity), place, subquery)
            case .toMany(let index)?:
                guard collection else { throw toManyError(path, at: i, of: entity) }
                place = try follow(toMany: entity.toManyRelationships[index], from: place, into: subquery)
                subquery = place.scope
            }
        }
        let node = node(place)
        return (.object(primaryKey: node.primaryKey, entity: node.entity), place, subquery)
    }

    /// Whether `path` from an object of `entity` takes a to-many step (unknown keys stop the walk:
    /// resolving reports them).
    func crossesToMany(_ path: [String], from entity: Entity) -> Bool {
        var entity = entity
        for name in path {
            switch entity.slot(of: name) {
            case .toMany?:
                return true
            case .column(let index)?:
                guard let relationship = entity.columns[index].relationship,
                      let destination = model.entity(named: relationship.destination) else { return false }
                entity = destination
            case nil:
                return false
            }
        }
        return false
    }

    /// The to-one destination of `place` through `relationship`, in the same scope.
    private mutating func follow(toOne relationship: Relationship, column: Column, from place: SQLPlace) -> SQLPlace {
        let key = place.node.isEmpty ? relationship.name : place.node + "." + relationship.name
        let next = SQLPlace(scope: place.scope, node: key)
        if scopes[place.scope].nodes[key] == nil {
            let owner = alias(of: place)
            scopes[place.scope].nodes[key] = SQLNode(
                entity: model.entity(named: relationship.destination)!, alias: nil,
                primaryKey: "\(owner).\(column.columnName)", joinKeyword: "LEFT OUTER JOIN")
        }
        return next
    }

    /// The destinations of a to-many relationship of `place`: the start of a new subquery scope,
    /// or, within `scope`, one more inner join of it.
    private mutating func follow(toMany relationship: Relationship, from place: SQLPlace, into scope: Int?) throws(StoreError) -> SQLPlace {
        let owner = node(place)
        guard let storage = owner.entity.storage(of: relationship.name),
              let destinationID = owner.entity.destinationID(of: relationship.name),
              let destination = model.entity(id: destinationID) else {
            throw .invalidRequest("the model does not say how \(owner.entity.name).\(relationship.name) is stored")
        }
        let alias = newAlias()
        let table: String, link: String, next: SQLNode
        switch storage {
        case .inverseForeignKey(let column):
            table = "\(destination.tableName) \(alias)"
            link = "\(alias).\(destination.columns[column].columnName) = \(owner.primaryKey)"
            next = SQLNode(entity: destination, alias: alias, primaryKey: "\(alias).Z_PK", joinKeyword: nil)
        case .joinTable(let joinTable):
            table = "\(joinTable.pairsSQL()) \(alias)"
            link = "\(alias).\(joinTable.sourceColumn) = \(owner.primaryKey)"
            next = SQLNode(entity: destination, alias: nil, primaryKey: "\(alias).\(joinTable.destinationColumn)", joinKeyword: "JOIN")
        case .foreignKey:
            throw .invalidRequest("\(owner.entity.name).\(relationship.name) is stored as a to-one")
        }
        guard let scope else {
            scopes.append(SQLScope(head: table, link: link, nodes: ["": next]))
            return SQLPlace(scope: scopes.count - 1, node: "")
        }
        // Each to-many step is its own set of rows: never shared, so its key is unique.
        let key = (place.node.isEmpty ? "" : place.node + ".") + relationship.name + "#" + alias
        scopes[scope].joins.append("JOIN \(table) ON \(link)")
        scopes[scope].nodes[key] = next
        return SQLPlace(scope: scope, node: key)
    }

    /// The error for a to-many step where one value is needed.
    func toManyError(_ path: [String], at index: Int, of entity: Entity) -> StoreError {
        let keyPath = path.joined(separator: ".")
        let collection = path[...index].joined(separator: ".")
        return .invalidRequest("""
            '\(keyPath)' goes through the to-many relationship '\(path[index])' of \(entity.name), so it stands for \
            many values: say which with ANY, ALL or NONE (e.g. ANY \(keyPath) == …), count them with \
            \(collection).@count, or filter them with SUBQUERY(\(collection), $x, …). Core Data's SQLite store \
            refuses it too ("to-many key not allowed here")
            """)
    }
}
