import Foundation

extension PersistentStore {
    /// Reads and decodes `Z_METADATA`'s property list.
    static func readMetadata(_ connection: Connection, path: String) throws(StoreError) -> [String: Any] {
        let row: SQLValue?
        do { row = try connection.scalar("SELECT Z_PLIST FROM Z_METADATA ORDER BY Z_VERSION LIMIT 1") } catch {
            throw .notAStore(path: path, reason: "it has no readable Z_METADATA table (\(error.message))")
        }
        guard case .blob(let bytes)? = row else { return [:] }
        guard let plist = try? PropertyListSerialization.propertyList(from: Data(bytes), format: nil),
              let dictionary = plist as? [String: Any] else {
            throw .notAStore(path: path, reason: "its Z_METADATA property list cannot be decoded")
        }
        return dictionary
    }

    /// What differs between the model a store was made with and the one given to open it.
    static func differences(stored: ObjectModel, given: ObjectModel) -> [String] {
        var differences: [String] = []
        let storedNames = Set(stored.entities.map(\.name)), givenNames = Set(given.entities.map(\.name))
        for name in storedNames.subtracting(givenNames).sorted() { differences.append("entity \(name): in the store, not in the model") }
        for name in givenNames.subtracting(storedNames).sorted() { differences.append("entity \(name): in the model, not in the store") }
        for name in storedNames.intersection(givenNames).sorted() {
            let s = stored.entity(named: name)!, g = given.entity(named: name)!
            guard s.versionHash != g.versionHash else { continue }
            let sa = Dictionary(uniqueKeysWithValues: s.attributes.map { ($0.name, $0) })
            let ga = Dictionary(uniqueKeysWithValues: g.attributes.map { ($0.name, $0) })
            for key in Set(sa.keys).union(ga.keys).sorted() {
                switch (sa[key], ga[key]) {
                case (let a?, let b?) where a.type != b.type:
                    differences.append("\(name).\(key): type \(a.type.rawValue) in the store, \(b.type.rawValue) in the model")
                case (let a?, let b?) where a.isOptional != b.isOptional:
                    differences.append("\(name).\(key): \(Self.optionality(a.isOptional)) in the store, \(Self.optionality(b.isOptional)) in the model")
                case (_?, nil): differences.append("\(name).\(key): attribute in the store, not in the model")
                case (nil, _?): differences.append("\(name).\(key): attribute in the model, not in the store")
                default: break
                }
            }
            let sr = Dictionary(uniqueKeysWithValues: s.relationships.map { ($0.name, $0) })
            let gr = Dictionary(uniqueKeysWithValues: g.relationships.map { ($0.name, $0) })
            for key in Set(sr.keys).union(gr.keys).sorted() {
                switch (sr[key], gr[key]) {
                case (let a?, let b?) where a.destination != b.destination || a.isToMany != b.isToMany || a.isOrdered != b.isOrdered:
                    differences.append("\(name).\(key): \(Self.kind(a)) in the store, \(Self.kind(b)) in the model")
                case (let a?, let b?) where a.isOptional != b.isOptional:
                    differences.append("\(name).\(key): \(Self.optionality(a.isOptional)) in the store, \(Self.optionality(b.isOptional)) in the model")
                case (let a?, let b?) where a.inverse != b.inverse:
                    differences.append("\(name).\(key): inverse \(a.inverse ?? "none") in the store, \(b.inverse ?? "none") in the model")
                case (let a?, let b?) where a.minCount != b.minCount || a.maxCount != b.maxCount:
                    differences.append("\(name).\(key): count \(Self.counts(a)) in the store, \(Self.counts(b)) in the model")
                case (_?, nil): differences.append("\(name).\(key): relationship in the store, not in the model")
                case (nil, _?): differences.append("\(name).\(key): relationship in the model, not in the store")
                default: break
                }
            }
        }
        if differences.isEmpty {
            // Same entities and properties but numbered differently would still mismatch rows.
            for e in given.entities where stored.entity(named: e.name)?.id != e.id {
                differences.append("entity \(e.name): numbered \(stored.entity(named: e.name)?.id ?? 0) in the store, \(e.id) in the model")
            }
        }
        return differences
    }

    /// `optional` or `required`, as a difference names it.
    static func optionality(_ isOptional: Bool) -> String { isOptional ? "optional" : "required" }

    /// A relationship's shape as a difference names it: `to-one Operator`, `ordered to-many Part`.
    static func kind(_ relationship: Relationship) -> String {
        (relationship.isToMany ? relationship.isOrdered ? "ordered to-many " : "to-many " : "to-one ") + relationship.destination
    }

    /// A relationship's counts as a difference names them: `0...5`, `1...unbounded`.
    static func counts(_ relationship: Relationship) -> String {
        "\(relationship.minCount)...\(relationship.maxCount == 0 ? "unbounded" : "\(relationship.maxCount)")"
    }

    /// What differs between a store Core Data wrote (its tables) and the model given to open it.
    static func differences(tablesOf connection: Connection, given model: ObjectModel) throws(StoreError) -> [String] {
        var differences: [String] = []
        let numbered: [String: Int64]
        do {
            numbered = Dictionary(try connection.rows("SELECT Z_NAME, Z_ENT FROM Z_PRIMARYKEY").compactMap { row in
                row[0].string.flatMap { name in row[1].int64.map { (name, $0) } }
            }, uniquingKeysWith: { a, _ in a })
        } catch { throw .sqlite(error) }
        for entity in model.entities {
            guard let number = numbered[entity.name] else {
                differences.append("entity \(entity.name): in the model, not in the store")
                continue
            }
            if number != Int64(entity.id) {
                differences.append("entity \(entity.name): Z_ENT \(number) in the store, \(entity.id) in the model")
            }
            let columns: [String: String]
            do {
                columns = Dictionary(try connection.rows("SELECT name, type FROM pragma_table_info(?)", [.text(entity.tableName)])
                    .map { ($0[0].string?.uppercased() ?? "", $0[1].string?.uppercased() ?? "") }, uniquingKeysWith: { a, _ in a })
            } catch { throw .sqlite(error) }
            if columns.isEmpty {
                differences.append("entity \(entity.name): the store has no table \(entity.tableName)")
                continue
            }
            for column in entity.columns {
                guard let type = columns[column.columnName] else {
                    differences.append("\(entity.name).\(column.name): the store's table \(entity.tableName) has no column \(column.columnName)")
                    continue
                }
                if !type.hasPrefix(column.sqlType) && !(column.sqlType == "FLOAT" && type == "REAL") {
                    differences.append("\(entity.name).\(column.name): column \(column.columnName) is \(type) in the store, \(column.sqlType) in the model")
                }
            }
        }
        return differences
    }

    /// A column's `DEFAULT` as SQLite reports it (`test`, `'it''s'`, `5`, `0.5`, `NULL`) as a value of
    /// `type`; `nil` for NULL, an expression, or text that is not of the type.
    static func columnDefault(_ text: String, as type: AttributeType) -> Value? {
        var text = text.trimmingCharacters(in: .whitespaces)
        if text.count >= 2, text.hasPrefix("'"), text.hasSuffix("'") {
            text = String(text.dropFirst().dropLast()).replacingOccurrences(of: "''", with: "'")
        } else if text.uppercased() == "NULL" || text.contains("(") {
            return nil
        }
        switch type {
        case .string: return .string(text)
        case .integer64: return Int64(text).map(Value.integer)
        case .double: return Double(text).map(Value.double)
        case .decimal: return Decimal(string: text).map(Value.decimal)
        case .date: return Double(text).map { .date(Date(timeIntervalSinceReferenceDate: $0)) }
        default: return nil
        }
    }

    /// Refuses a store whose entities inherit (`Z_SUPER` set in `Z_PRIMARYKEY`): Core Data keeps a
    /// sub-entity's rows in its root's table, a layout this engine does not read, so it stops before any
    /// table is touched rather than failing later on a table that does not exist.
    static func refuseInheritance(_ connection: Connection, path: String) throws(StoreError) {
        let sub: [(String, String)]
        do {
            // A parent that is not listed (or a negative number) is no flat layout either.
            sub = try connection.rows("""
                SELECT c.Z_NAME, coalesce(p.Z_NAME, 'entity ' || c.Z_SUPER || ' (not in Z_PRIMARYKEY)') \
                FROM Z_PRIMARYKEY c LEFT JOIN Z_PRIMARYKEY p ON p.Z_ENT = c.Z_SUPER \
                WHERE c.Z_SUPER IS NOT NULL AND c.Z_SUPER != 0 ORDER BY c.Z_ENT
                """).map { ($0[0].string ?? "?", $0[1].string ?? "?") }
        } catch {
            // A Z_PRIMARYKEY without Z_SUPER (not Core Data's) has no inheritance to refuse.
            return
        }
        guard let (child, parent) = sub.first else { return }
        let more = sub.count > 1 ? " (and \(sub.count - 1) more sub-entit\(sub.count == 2 ? "y" : "ies"))" : ""
        throw .unsupportedStore(path: path, reason: """
            it uses entity inheritance: \(child) is a sub-entity of \(parent)\(more), whose rows Core Data keeps in \
            the root entity's table, and SeedStore does not read that layout yet. Flatten the entities in the \
            model (no parent entity) and migrate the store with Core Data, then open it here
            """)
    }

    /// Reads a model off the tables of a store Core Data wrote, when no model is stored or given.
    ///
    /// Entities come from `Z_PRIMARYKEY`; attributes from the columns (`ZTITLE VARCHAR` → `title: String`).
    /// Entity names are `Z_PRIMARYKEY`'s, as Core Data recorded them (`Book`); attribute names come back
    /// lower-cased, since the columns are upper-cased; relationships cannot be told from integer columns
    /// and read as Integer 64 attributes.
    static func inferModel(_ connection: Connection, path: String) throws(StoreError) -> ObjectModel {
        do {
            var descriptions: [EntityDescription] = []
            for row in try connection.rows("SELECT Z_NAME FROM Z_PRIMARYKEY ORDER BY Z_ENT") {
                guard let name = row[0].string else { continue }
                var description = EntityDescription(name)
                for column in try connection.rows("SELECT name, type, dflt_value FROM pragma_table_info(?)", [.text("Z" + name.uppercased())]) {
                    guard let columnName = column[0].string, columnName.hasPrefix("Z"), !columnName.hasPrefix("Z_"),
                          let second = columnName.dropFirst().first, !second.isNumber else { continue }
                    let declared = column[1].string?.uppercased() ?? ""
                    let type: AttributeType = declared.hasPrefix("TIMESTAMP") ? .date
                        : declared.hasPrefix("VARCHAR") || declared.hasPrefix("TEXT") ? .string
                        : declared.hasPrefix("FLOAT") || declared.hasPrefix("REAL") ? .double
                        : declared.hasPrefix("DECIMAL") ? .decimal
                        : declared.hasPrefix("BLOB") ? .binary : .integer64
                    // Core Data writes a model default into the column (`"ZCONTENTS" VARCHAR DEFAULT test`).
                    let defaultValue = column[2].string.flatMap { Self.columnDefault($0, as: type) }
                    description.attributes.append(Attribute(String(columnName.dropFirst()).lowercased(), type, defaultValue: defaultValue))
                }
                descriptions.append(description)
            }
            return try ObjectModel(descriptions)
        } catch let error as SQLiteError {
            throw .sqlite(error)
        } catch {
            throw .notAStore(path: path, reason: "no model is stored in it and none could be read off its tables: \(error)")
        }
    }
}
