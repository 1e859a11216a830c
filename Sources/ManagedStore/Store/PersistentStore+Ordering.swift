/// Ordered to-many relationships: the position of each member, in Core Data's `Z_FOK_` column.
///
/// A one-to-many relationship marked ordered (`Playlist.songs`, inverse `Song.playlist`) keeps each
/// member's position in an integer column of the destination's table named after the inverse's
/// foreign key: `ZPLAYLIST` → `Z_FOK_PLAYLIST`. Positions are spaced (1024, 2048, …); members without one
/// (linked from the to-one side while the owner's set was not loaded, or written before the column
/// existed) follow the positioned ones in the order they were inserted.
extension ObjectModel {
    /// The `Z_FOK_` column of the ordered one-to-many `relationship` of `entity`, and its destination.
    func orderColumn(of relationship: Relationship, in entity: Entity) -> (destination: Entity, column: String)? {
        guard relationship.isToMany, relationship.isOrdered,
              case .inverseForeignKey(let foreignKey)? = entity.storage(of: relationship.name),
              let destinationID = entity.destinationID(of: relationship.name),
              let destination = self.entity(id: destinationID) else { return nil }
        return (destination, "Z_FOK_" + destination.columns[foreignKey].columnName.dropFirst())
    }

    /// The `Z_FOK_` columns the table of `entity` carries for ordered relationships pointing at it.
    func orderColumns(inTableOf entity: Entity) -> [String] {
        var columns: [String] = []
        for owner in entities {
            for relationship in owner.toManyRelationships {
                if let (destination, column) = orderColumn(of: relationship, in: owner), destination === entity,
                   !columns.contains(column) {
                    columns.append(column)
                }
            }
        }
        return columns
    }
}

extension PersistentStore {
    /// Adds the `Z_FOK_` columns a store written before they existed lacks (a read-only store keeps
    /// insertion order instead); returns the `TABLE.COLUMN` names that can be used.
    static func orderColumns(_ connection: Connection, model: ObjectModel, readOnly: Bool) -> Set<String> {
        var usable = Set<String>()
        for entity in model.entities {
            let wanted = model.orderColumns(inTableOf: entity)
            if wanted.isEmpty { continue }
            let present = Set(((try? connection.rows("PRAGMA table_info(\(entity.tableName))")) ?? []).compactMap { $0[1].string })
            for column in wanted {
                if !present.contains(column) {
                    if readOnly { continue }
                    do { try connection.execute("ALTER TABLE \(entity.tableName) ADD COLUMN \(column) INTEGER") } catch { continue }
                }
                usable.insert("\(entity.tableName).\(column)")
            }
        }
        return usable
    }

    /// The usable `Z_FOK_` column of the ordered one-to-many `relationship` of `entity`.
    func orderColumn(of relationship: Relationship, in entity: Entity) -> String? {
        guard !orderColumnNames.isEmpty, let (destination, column) = model.orderColumn(of: relationship, in: entity),
              orderColumnNames.contains("\(destination.tableName).\(column)") else { return nil }
        return column
    }
}
