import Foundation

extension PersistentStore {
    /// Creates the tables of a new store in Core Data's layout, with its metadata.
    func createSchema() throws {
        try connection.transaction {
            try connection.execute("CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)")
            try connection.execute("CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)")
            try connection.execute("CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)")
            for entity in model.entities {
                try connection.execute(Self.createTableSQL(entity, orderColumns: model.orderColumns(inTable: entity.tableName)))
                try connection.execute("INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, 0, 0)",
                                       [.integer(Int64(entity.id)), .text(entity.name)])
            }
            for table in model.joinTables {
                let positions = model.orderColumns(inTable: table.name).map { ", \($0) INTEGER" }.joined()
                try connection.execute("""
                    CREATE TABLE \(table.name) ( \(table.sourceColumn) INTEGER, \(table.destinationColumn) INTEGER\(positions), \
                    PRIMARY KEY (\(table.sourceColumn), \(table.destinationColumn)) )
                    """)
            }
            try createIndexes()
            let uuid = UUID().uuidString
            metadata = [
                MetadataKey.storeType: "SQLite",
                MetadataKey.storeUUID: uuid,
                MetadataKey.versionHashes: model.versionHashes.mapValues { Data($0) },
                MetadataKey.model: model.jsonData(),
                MetadataKey.seedStoreVersion: Self.version,
            ]
            let plist = try PropertyListSerialization.data(fromPropertyList: metadata, format: .binary, options: 0)
            try connection.execute("INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, ?, ?)",
                                   [.text(uuid), .blob(Array(plist))])
        }
    }

    /// The `CREATE TABLE` of an entity: `Z_PK`, `Z_ENT`, `Z_OPT`, one column per attribute and to-one, then
    /// the `Z_FOK_` position columns of ordered relationships pointing at it.
    static func createTableSQL(_ entity: Entity, orderColumns: [String] = []) -> String {
        var columns = ["Z_PK INTEGER PRIMARY KEY", "Z_ENT INTEGER", "Z_OPT INTEGER"]
        for column in entity.columns { columns.append("\(column.columnName) \(column.sqlType)") }
        for column in orderColumns { columns.append("\(column) INTEGER") }
        return "CREATE TABLE \(entity.tableName) ( " + columns.joined(separator: ", ") + " )"
    }

    /// The indexes a store gets: attributes marked indexed, every to-one foreign key and each join
    /// table's destination column, named as Core Data names them, with what each serves.
    ///
    /// For example:
    ///
    /// ```swift
    /// for index in store.indexes() { print(index.label, index.sql) }   // Well.uwi CREATE INDEX IF NOT EXISTS …
    /// ```
    public func indexes(relationshipsOnly: Bool = false) -> [StoreIndex] {
        var indexes: [StoreIndex] = []
        for entity in model.entities {
            for column in entity.columns where column.relationship != nil || (!relationshipsOnly && column.attribute?.isIndexed == true) {
                let name = "\(entity.tableName)_\(column.columnName)_INDEX"
                indexes.append(StoreIndex(name: name, table: entity.tableName, label: "\(entity.name).\(column.name)",
                                          sql: "CREATE INDEX IF NOT EXISTS \(name) ON \(entity.tableName) (\(column.columnName))"))
            }
        }
        for table in model.joinTables {
            let name = "\(table.name)_\(table.destinationColumn)_INDEX"
            indexes.append(StoreIndex(name: name, table: table.name, label: table.name,
                                      sql: "CREATE INDEX IF NOT EXISTS \(name) ON \(table.name) (\(table.destinationColumn), \(table.sourceColumn))"))
        }
        return indexes
    }

    /// The `CREATE INDEX` statements of ``indexes(relationshipsOnly:)``.
    ///
    /// ```swift
    /// let statements = store.indexStatements()   // ["CREATE INDEX IF NOT EXISTS ZWELL_ZUWI_INDEX ON ZWELL (ZUWI)", …]
    /// ```
    public func indexStatements(relationshipsOnly: Bool = false) -> [String] {
        indexes(relationshipsOnly: relationshipsOnly).map(\.sql)
    }

    /// Creates the indexes of ``indexStatements(relationshipsOnly:)`` (a seed import runs this after the load;
    /// with `relationshipsOnly`, early, when it must delete objects and their delete rules look up who points
    /// at them).
    ///
    /// For example:
    ///
    /// ```swift
    /// try store.createIndexes()
    /// ```
    public func createIndexes(relationshipsOnly: Bool = false) throws(StoreError) {
        do { for sql in indexStatements(relationshipsOnly: relationshipsOnly) { try connection.execute(sql) } } catch { throw .sqlite(error) }
    }

    /// Drops the indexes of ``indexes(relationshipsOnly:)`` (so a bulk load does not maintain them row by row).
    public func dropIndexes() throws(StoreError) {
        do {
            for index in indexes() { try connection.execute("DROP INDEX IF EXISTS \(index.name)") }
        } catch { throw .sqlite(error) }
    }
}
