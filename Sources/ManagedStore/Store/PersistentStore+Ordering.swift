/// Ordered to-many relationships: the position of each member, in Core Data's `Z_FOK_` columns.
///
/// A one-to-many relationship marked ordered (`Playlist.songs`, inverse `Song.playlist`) keeps each
/// member's position in an integer column of the destination's table named after the inverse's
/// foreign key: `ZPLAYLIST` → `Z_FOK_PLAYLIST`. An ordered many-to-many keeps it in its join table,
/// named after the members' column: `Z_2SONGS` → `Z_FOK_2SONGS`. Positions are spaced (1024, 2048, …);
/// members without one (linked from the other side while the owner's set was not loaded, or written
/// before the column existed) follow the positioned ones in the order they were stored.
extension ObjectModel {
    /// Where the ordered to-many `relationship` of `entity` keeps positions: a table and its `Z_FOK_` column.
    func orderColumn(of relationship: Relationship, in entity: Entity) -> (table: String, column: String)? {
        guard relationship.isToMany, relationship.isOrdered else { return nil }
        switch entity.storage(of: relationship.name) {
        case .inverseForeignKey(let foreignKey)?:
            guard let destinationID = entity.destinationID(of: relationship.name),
                  let destination = self.entity(id: destinationID) else { return nil }
            return (destination.tableName, "Z_FOK_" + destination.columns[foreignKey].columnName.dropFirst())
        case .joinTable(let table)?:
            return (table.name, "Z_FOK_" + table.destinationColumn.dropFirst(2))
        default:
            return nil
        }
    }

    /// The `Z_FOK_` columns the table `name` carries for ordered relationships.
    func orderColumns(inTable name: String) -> [String] {
        var columns: [String] = []
        for owner in entities {
            for relationship in owner.toManyRelationships {
                if let (table, column) = orderColumn(of: relationship, in: owner), table == name, !columns.contains(column) {
                    columns.append(column)
                }
            }
        }
        return columns
    }
}

extension PersistentStore {
    /// Adds the `Z_FOK_` columns a store written before they existed lacks (a read-only store keeps
    /// stored order instead); returns the `TABLE.COLUMN` names that can be used.
    static func orderColumns(_ connection: Connection, model: ObjectModel, readOnly: Bool) -> Set<String> {
        var usable = Set<String>()
        for table in model.entities.map(\.tableName) + model.joinTables.map(\.name) {
            let wanted = model.orderColumns(inTable: table)
            if wanted.isEmpty { continue }
            let present = Set(((try? connection.rows("PRAGMA table_info(\(table))")) ?? []).compactMap { $0[1].string })
            for column in wanted {
                if !present.contains(column) {
                    if readOnly { continue }
                    do { try connection.execute("ALTER TABLE \(table) ADD COLUMN \(column) INTEGER") } catch { continue }
                }
                usable.insert("\(table).\(column)")
            }
        }
        return usable
    }

    /// The start of an `ORDER BY` that puts members by position, those without one last (`t0.Z_FOK_X
    /// IS NULL, t0.Z_FOK_X, `), or "" for a relationship without positions; `alias` qualifies the column.
    func positionOrdering(of relationship: Relationship, in entity: Entity, alias: String = "") -> String {
        guard let column = orderColumn(of: relationship, in: entity) else { return "" }
        let qualified = alias.isEmpty ? column : "\(alias).\(column)"
        return "\(qualified) IS NULL, \(qualified), "
    }

    /// The usable `Z_FOK_` column of the ordered to-many `relationship` of `entity`.
    func orderColumn(of relationship: Relationship, in entity: Entity) -> String? {
        guard !orderColumnNames.isEmpty, let (table, column) = model.orderColumn(of: relationship, in: entity),
              orderColumnNames.contains("\(table).\(column)") else { return nil }
        return column
    }
}

extension PersistentStore {
    /// Gives every member of an ordered one-to-many that has no position one, after the positioned members
    /// of its owner and in the order the members were stored; returns how many it placed.
    ///
    /// Members linked from their to-one side (`song.playlist = mix`, as a seed import links them) get no
    /// position: this engine reads them in stored order, but Core Data reads `Z_FOK_` alone, so a store an
    /// app ships must have them. A seed import calls this once, after the load and before the indexes.
    ///
    /// For example:
    ///
    /// ```swift
    /// let placed = try store.positionUnplacedMembers()   // Z_FOK_PLAYLIST 1024, 2048, … per playlist
    /// ```
    public func positionUnplacedMembers() throws(StoreError) -> Int {
        var placed = 0
        for owner in model.entities {
            for relationship in owner.toManyRelationships {
                guard case .inverseForeignKey(let foreignKey)? = owner.storage(of: relationship.name),
                      let position = orderColumn(of: relationship, in: owner),
                      let destinationID = owner.destinationID(of: relationship.name),
                      let destination = model.entity(id: destinationID) else { continue }
                let table = destination.tableName, owning = destination.columns[foreignKey].columnName
                // Spaced as the context spaces them (1024, 2048, …), after the owner's highest position.
                let sql = """
                    WITH unplaced AS (SELECT Z_PK AS pk, \(owning) AS owner, ROW_NUMBER() OVER (PARTITION BY \(owning) ORDER BY Z_PK) AS n \
                    FROM \(table) WHERE \(owning) IS NOT NULL AND \(position) IS NULL), \
                    highest AS (SELECT \(owning) AS owner, max(\(position)) AS top FROM \(table) WHERE \(position) IS NOT NULL GROUP BY \(owning)) \
                    UPDATE \(table) SET \(position) = coalesce(highest.top, 0) + unplaced.n * 1024 \
                    FROM unplaced LEFT JOIN highest ON highest.owner = unplaced.owner WHERE \(table).Z_PK = unplaced.pk
                    """
                do {
                    try connection.execute(sql)
                    placed += connection.changes
                } catch {
                    throw .sqlite(error)
                }
            }
        }
        return placed
    }
}
