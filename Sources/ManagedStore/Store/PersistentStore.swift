import Foundation

/// A SQLite file (or in-memory database) in Core Data's layout, holding the objects of one model.
///
/// A new file gets the model's tables, `Z_PRIMARYKEY` and `Z_METADATA` (a binary property list that
/// carries the model, so the store opens without a model file). An existing file opens with the model
/// stored in it, with a model you pass (checked against it: Core Data's 134100 on a mismatch, with
/// nothing written), or, for a store Core Data wrote, with a model read off its tables.
///
/// For example:
///
/// ```swift
/// let store = try PersistentStore(path: "Tasks.sqlite", model: model)
/// let context = ManagedObjectContext(store: store)
/// ```
public final class PersistentStore {
    /// How to open a store.
    public struct Options: Sendable {
        /// Open without write access; saves fail with ``StoreError/readOnly(path:)``.
        public var readOnly = false
        /// Create the file when it does not exist.
        public var create = true
        /// Use SQLite's write-ahead log (Core Data's default). Off by default, so a store is one file.
        public var walJournal = false
        /// The SQL log level; `nil` takes `SEEDSTORE_SQL_DEBUG` from the environment.
        public var sqlDebugLevel: Int?

        /// Options for opening a store: by default read-write, creating a missing file, without a write-ahead log,
        /// and with the SQL log level from `SEEDSTORE_SQL_DEBUG`.
        ///
        /// For example:
        ///
        /// ```swift
        /// let store = try PersistentStore(path: "Tasks.sqlite", options: .init(readOnly: true, sqlDebugLevel: 1))
        /// ```
        public init(readOnly: Bool = false, create: Bool = true, walJournal: Bool = false, sqlDebugLevel: Int? = nil) {
            self.readOnly = readOnly
            self.create = create
            self.walJournal = walJournal
            self.sqlDebugLevel = sqlDebugLevel
        }
    }

    /// Where the model in use came from.
    public enum ModelSource: String, Sendable {
        /// The caller's model, written into a new store.
        case created
        /// The caller's model, checked against the store's.
        case given
        /// The model stored in the store's metadata.
        case stored
        /// A model read off the tables of a store Core Data wrote.
        case inferred
    }

    /// The connection; statements and rows are counted on it.
    public let connection: Connection
    /// The model the store holds.
    public let model: ObjectModel
    /// The file path, or `:memory:`.
    public let path: String
    /// Where ``model`` came from.
    public let modelSource: ModelSource
    /// Whether saves are refused.
    public let isReadOnly: Bool
    /// The `Z_FOK_` columns (`TABLE.COLUMN`) of ordered relationships that this file has.
    var orderColumnNames: Set<String> = []
    /// The store's metadata (`Z_METADATA`): `NSStoreType`, `NSStoreUUID`, version hashes and the model.
    public internal(set) var metadata: [String: Any]
    /// Whether the metadata holds SeedStore's keys (false for a store Core Data wrote).
    public var hasSeedStoreMetadata: Bool { metadata[MetadataKey.model] != nil }

    /// Opens the store at `path`, creating it with `model` when it does not exist.
    ///
    /// - Parameters:
    ///   - path: a file path, or `:memory:`.
    ///   - model: the model to create or check the store with; `nil` uses the model stored in the file.
    public init(path: String, model: ObjectModel? = nil, options: Options = Options()) throws(StoreError) {
        var isDirectory: ObjCBool = false
        let exists = path != ":memory:" && FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
        if exists && isDirectory.boolValue {
            throw .notAStore(path: path, reason: "it is a directory; name the store file in it (such as \(URL(fileURLWithPath: path).appendingPathComponent("Store.sqlite").path))")
        }
        if !exists && path != ":memory:" && (!options.create || options.readOnly) {
            throw .notAStore(path: path, reason: "there is no such file; check the path (stores usually end in .sqlite)")
        }
        if !exists, model == nil {
            throw .notAStore(path: path, reason: "the file does not exist and no model was given to create it with")
        }
        let connection: Connection
        do {
            connection = try Connection(path: path, readOnly: options.readOnly, create: options.create)
        } catch { throw .sqlite(error) }
        if let level = options.sqlDebugLevel { connection.sqlDebugLevel = level }
        self.connection = connection
        self.path = path
        self.isReadOnly = options.readOnly

        let hasTables: SQLValue?
        do { hasTables = try connection.scalar("SELECT count(*) FROM sqlite_master WHERE name = 'Z_PRIMARYKEY'") } catch {
            // Busy past the connection's wait: a writer holds it, which says nothing about what it is.
            if error.code == 5 || error.code == 6 { throw .inUse(path: path) }   // SQLITE_BUSY, SQLITE_LOCKED
            throw .notAStore(path: path, reason: "SQLite cannot read it (is it a database file?)")
        }
        let isEmpty = (try? connection.scalar("SELECT count(*) FROM sqlite_master"))?.int64 == 0
        if hasTables?.int64 == 0 {
            guard isEmpty, let model else {
                throw .notAStore(path: path, reason: isEmpty
                    ? "it is an empty database (no tables\(Self.fileSize(path) == 0 ? ", 0 bytes" : "")): make a store there with seedstore import, or check the path"
                    : "it has no Z_PRIMARYKEY table, so it is not in Core Data's layout")
            }
            // Read-only, an empty file cannot become a store: say what it is, not how to save.
            guard !options.readOnly else {
                throw .notAStore(path: path, reason: "it is an empty database (no tables\(Self.fileSize(path) == 0 ? ", 0 bytes" : "")): make a store there with seedstore import, or check the path")
            }
            self.model = model
            self.modelSource = .created
            self.metadata = [:]
            do {
                if options.walJournal { try connection.execute("PRAGMA journal_mode = WAL") }
                try createSchema()
            } catch let error as StoreError { throw error } catch { throw .sqlite(error as! SQLiteError) }
            orderColumnNames = Self.orderColumns(connection, model: model, readOnly: false)
            return
        }
        try Self.refuseInheritance(connection, path: path)
        let metadata = try Self.readMetadata(connection, path: path)
        self.metadata = metadata
        let stored: ObjectModel?
        if let json = metadata[MetadataKey.model] as? Data {
            do { stored = try ObjectModel(json: json, file: path) } catch {
                throw .notAStore(path: path, reason: "its stored model cannot be read: \(error)")
            }
        } else {
            stored = nil
        }
        switch (model, stored) {
        case (let model?, let stored?):
            let differences = Self.differences(stored: stored, given: model)
            guard differences.isEmpty else { throw .modelMismatch(path: path, differences: differences) }
            self.model = model
            self.modelSource = .given
        case (nil, let stored?):
            self.model = stored
            self.modelSource = .stored
        case (let model?, nil):
            let differences = try Self.differences(tablesOf: connection, given: model)
            guard differences.isEmpty else { throw .modelMismatch(path: path, differences: differences) }
            self.model = model
            self.modelSource = .given
        case (nil, nil):
            self.model = try Self.inferModel(connection, path: path)
            self.modelSource = .inferred
        }
        orderColumnNames = Self.orderColumns(connection, model: self.model, readOnly: options.readOnly)
    }

    /// Opens a private in-memory store: for tests and scratch work.
    ///
    /// For example:
    ///
    /// ```swift
    /// let store = try PersistentStore.inMemory(model: model)
    /// ```
    public static func inMemory(model: ObjectModel, sqlDebugLevel: Int? = nil) throws(StoreError) -> PersistentStore {
        try PersistentStore(path: ":memory:", model: model, options: Options(sqlDebugLevel: sqlDebugLevel))
    }

    private var functionsRegistered = false

    /// Registers SeedStore's SQL functions and collations on the connection, once.
    func prepareForQueries() {
        guard !functionsRegistered else { return }
        functionsRegistered = true
        connection.registerSeedStoreFunctions()
    }

    /// The number of rows of `entity`'s table.
    public func count(of entity: Entity) throws(StoreError) -> Int {
        do {
            return Int(try connection.scalar("SELECT count(*) FROM \(entity.tableName) WHERE Z_ENT = ?",
                                              [.integer(Int64(entity.id))])?.int64 ?? 0)
        } catch { throw StoreError(error, storePath: path) }
    }

    /// One saved column of one row, read without registering an object in any context.
    ///
    /// For lookups that need a single value of many rows (an importer checking a key), where firing a
    /// fault would load the whole row. Unsaved changes are not seen: ask the context for those.
    ///
    /// ```swift
    /// let uwi = try store.storedValue(at: well.columnIndex(of: "uwi")!, of: id)   // .string("100/…") or nil
    /// ```
    ///
    /// - Returns: The value, or `nil` when the table has no row with the ID's primary key.
    public func storedValue(at ordinal: Int, of id: ObjectID) throws(StoreError) -> Value? {
        guard let entity = model.entity(id: id.entityID), entity.columns.indices.contains(ordinal) else {
            throw .invalidRequest("no column \(ordinal) in the entity of \(id)")
        }
        let column = entity.columns[ordinal]
        do {
            let statement = try connection.cachedStatement("SELECT \(column.columnName) FROM \(entity.tableName) WHERE Z_PK = ?")
            defer { statement.reset() }
            statement.bind(id.primaryKey, at: 1)
            guard try statement.step() else { return nil }
            return ColumnCodec(column, entity: entity).read(statement, 0)
        } catch { throw StoreError(error, storePath: path) }
    }

    /// The entity named `name`, or ``StoreError/unknownEntity(_:suggestions:)`` naming the closest ones.
    public func entity(named name: String) throws(StoreError) -> Entity {
        guard let entity = model.entity(named: name) else {
            throw .unknownEntity(name, suggestions: closestNames(to: name, in: model.entities.map(\.name)))
        }
        return entity
    }

    /// Writes the store's pages to disk and, in WAL mode, folds the log into the main file.
    public func checkpoint() throws(StoreError) {
        do { _ = try connection.rows("PRAGMA wal_checkpoint(TRUNCATE)") } catch { throw StoreError(error, storePath: path) }
    }

    /// Keys of the metadata property list.
    public enum MetadataKey {
        /// The store's type: `SQLite`, as Core Data writes it.
        public static let storeType = "NSStoreType"
        /// The store's UUID, a string made when the file is created.
        public static let storeUUID = "NSStoreUUID"
        /// SeedStore's per-entity version hashes (Core Data's own algorithm is not public).
        public static let versionHashes = "SeedStoreModelVersionHashes"
        /// The model as SeedStore JSON.
        public static let model = "SeedStoreModel"
        /// The SeedStore ``PersistentStore/version`` that created the file.
        public static let seedStoreVersion = "SeedStoreVersion"
    }

    /// SeedStore's version, written into the metadata.
    public static let version = "0.1.0"
}

extension PersistentStore {
    /// The size of the file at `path` in bytes, or `nil` when it cannot be read (`:memory:`).
    static func fileSize(_ path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? Int
    }
}
