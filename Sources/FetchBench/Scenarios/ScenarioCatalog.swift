import CSQLite
import Foundation
import ManagedStore
import Measure

/// The scenario families, built for a store and a ``ScenarioConfig``.
///
/// For example:
///
/// ```swift
/// let scenarios = try ScenarioCatalog.make(for: store, config: ScenarioConfig(), only: ["batch-size"])
/// ```
public enum ScenarioCatalog {
    /// The families, in the order they run.
    public static let names = ["batch-size", "faulting", "dictionary", "decomposition"]

    /// Builds the scenarios `only` names (all when empty), checking the store has what they need.
    ///
    /// Only the names the chosen scenarios use must exist: `batch-size` needs the entity and
    /// ``ScenarioConfig/sortKey``; `faulting` the entity and ``ScenarioConfig/faultAttribute`` (the sort key
    /// when nil); `dictionary` and `decomposition` the entity and ``ScenarioConfig/mapProperties``. A name
    /// the store lacks throws ``BenchError/storeLacks(_:)``, naming the scenario and the setting; a setting out
    /// of range throws ``BenchError/invalidSetting(_:)`` (``ScenarioConfig/validate()``).
    ///
    /// Run with the others (`only` empty), `decomposition` is skipped when the store has no summary entity,
    /// or one that lacks a name of ``ScenarioConfig/mapProperties`` (``decompositionLacks(in:config:)``):
    /// `--entity Operator --properties name,country` names what the dictionary scenario reads on
    /// Operator, which no summary of wells has, and must not stop the run. Named in `only`, it throws.
    public static func make(for store: PersistentStore, config: ScenarioConfig, only: [String] = []) throws -> [BenchScenario] {
        for name in only where !names.contains(name) { throw BenchError.unknownScenario(name, known: names) }
        try config.validate()
        let wanted = only.isEmpty ? names : names.filter(only.contains)
        return try wanted.compactMap { name -> BenchScenario? in
            if name == "decomposition", only.isEmpty, !decompositionLacks(in: store.model, config: config).isEmpty { return nil }
            let s = try Names(store: store, config: config, scenario: name)
            return switch name {
            case "batch-size": try batchSize(s)
            case "faulting": try faulting(s)
            case "dictionary": try dictionary(s)
            case "decomposition": try decomposition(s)
            default: nil
            }
        }
    }

    /// The names of ``ScenarioConfig/mapProperties`` that the decomposition's summary entity lacks, which it
    /// would read through both it and the entity: empty when it has them all, or when the model has no
    /// summary entity (the decomposition is skipped for that alone).
    ///
    /// For example:
    ///
    /// ```swift
    /// var config = ScenarioConfig()
    /// config.entity = "Operator"; config.mapProperties = ["name", "country"]
    /// ScenarioCatalog.decompositionLacks(in: wells.model, config: config)   // ["name", "country"]
    /// ```
    public static func decompositionLacks(in model: ObjectModel, config: ScenarioConfig) -> [String] {
        guard let name = config.summaryEntity, let summary = model.entity(named: name) else { return [] }
        return config.mapProperties.filter { summary.columnIndex(of: $0) == nil }
    }

    /// Resolved names for one scenario family: the entity and its table; columns are looked up as the
    /// family needs them, so a name only another family uses need not exist.
    struct Names {
        let store: PersistentStore
        let config: ScenarioConfig
        /// The family being built, named in errors.
        let scenario: String
        let entity: Entity
        let table: String
        let allColumns: String
        /// What a fault's SELECT reads: the version and every column (`Z_PK` is the key it binds).
        let faultColumns: String

        init(store: PersistentStore, config: ScenarioConfig, scenario: String) throws {
            self.store = store
            self.config = config
            self.scenario = scenario
            guard let entity = store.model.entity(named: config.entity) else {
                throw BenchError.storeLacks(.init(scenario: scenario, entity: nil, name: config.entity, key: "entity",
                                                  available: store.model.entities.map(\.name)))
            }
            self.entity = entity
            table = entity.tableName
            allColumns = (["Z_PK", "Z_OPT"] + entity.columns.map(\.columnName)).joined(separator: ", ")
            faultColumns = Self.faultColumns(of: entity)
        }

        /// What a fault of `entity` reads: `Z_OPT` and every column.
        static func faultColumns(of entity: Entity) -> String {
            (["Z_OPT"] + entity.columns.map(\.columnName)).joined(separator: ", ")
        }

        /// The first `limit` objects of the entity's `rows`: how N+1 notes say it (`first 2,000` or `all 830`),
        /// and what the variant covers when it stops short of them all.
        func limited(_ limit: Int, rows: Int) -> (text: String, covers: BenchResult.Covers?) {
            limit < rows ? ("first \(BenchFormat.count(limit))", BenchResult.Covers(objects: limit, of: rows)) : ("all \(BenchFormat.count(rows))", nil)
        }

        /// The column of `entity`'s property `name`, which the scenario setting `key` names.
        func column(_ name: String, of entity: Entity? = nil, key: String) throws -> String {
            let entity = entity ?? self.entity
            guard let index = entity.columnIndex(of: name) else {
                // A to-many relationship is a property, but has no column: listing it as what the entity has
                // would contradict the refusal.
                throw BenchError.storeLacks(.init(scenario: scenario, entity: entity.name, name: name, key: key,
                                                  available: entity.columns.map(\.name),
                                                  isToMany: entity.relationship(named: name)?.isToMany == true))
            }
            return entity.columns[index].columnName
        }

        /// The columns of ``ScenarioConfig/mapProperties`` in `entity` (the scenario's entity by default).
        func mapColumns(of entity: Entity? = nil) throws -> [String] {
            try config.mapProperties.map { try column($0, of: entity, key: "map_properties") }
        }

        /// The to-one relationship and its destination's attribute, when the entity has the relationship.
        func relation() throws -> (relationship: String, column: String, destination: Entity, attribute: String, attributeColumn: String)? {
            guard let name = config.relationship, let attribute = config.relatedAttribute,
                  let destinationID = entity.destinationID(of: name), let destination = store.model.entity(id: destinationID),
                  entity.columnIndex(of: name) != nil else { return nil }
            return (name, try column(name, key: "relationship"), destination, attribute,
                    try column(attribute, of: destination, key: "related_attribute"))
        }

        /// The summary entity of a decomposition and its details, when the store has them.
        func summary() throws -> (entity: Entity, table: String, mapColumns: [String], details: String, detailsColumn: String, detailsEntity: Entity, key: String, keyColumn: String)? {
            guard let name = config.summaryEntity, let summaryEntity = store.model.entity(named: name), let details = config.detailsRelationship,
                  let detailsID = summaryEntity.destinationID(of: details), let detailsEntity = store.model.entity(id: detailsID),
                  let key = config.lookupKey else { return nil }
            return (summaryEntity, summaryEntity.tableName, try mapColumns(of: summaryEntity),
                    details, try column(details, of: summaryEntity, key: "details_relationship"), detailsEntity, key,
                    try column(key, of: summaryEntity, key: "lookup_key"))
        }
    }

    /// The raw batched fetch: `keys` in order, read in `IN` batches of `size` as the engine's batched fetch
    /// reads them: one statement per batch, the full batches' prepared once.
    static func rawBatches(_ db: RawDatabase, keys: ArraySlice<Int64>, columns: String, table: String, size: Int) throws {
        func sql(_ count: Int) -> String {
            "SELECT \(columns) FROM \(table) WHERE Z_PK IN (\(Array(repeating: "?", count: count).joined(separator: ",")))"
        }
        let full = sql(min(size, keys.count))
        var start = keys.startIndex
        while start < keys.endIndex {
            // A batch size past Int's half (2^63 - 1 is allowed) must not overflow the sum.
            let end = keys.endIndex - start <= size ? keys.endIndex : start + size
            try db.readAll(end - start == size || start == keys.startIndex ? full : sql(end - start), Array(keys[start..<end]))
            start = end
        }
    }

    /// The raw to-one read: every row of `source` (whose first column is the foreign key), then each distinct
    /// destination's `destinationColumns` from `destinationTable`: one SELECT per destination, as faults fire,
    /// or one statement for them all, as prefetching reads them (`IN (SELECT value FROM json_each(?))`).
    static func rawToOne(_ db: RawDatabase, source: String, destinationColumns: String, destinationTable: String, prefetch: Bool) throws {
        var seen = Set<Int64>(), keys: [Int64] = []
        let rows = try db.cached(source)
        defer { sqlite3_reset(rows) }
        try db.readRows(rows) { row in
            if sqlite3_column_type(row, 0) == SQLITE_INTEGER, seen.insert(sqlite3_column_int64(row, 0)).inserted {
                keys.append(sqlite3_column_int64(row, 0))
            }
        }
        let select = "SELECT \(destinationColumns) FROM \(destinationTable) WHERE Z_PK "
        if prefetch {
            guard !keys.isEmpty else { return }
            let statement = try db.cached(select + "IN (SELECT value FROM json_each(?))")
            defer { sqlite3_reset(statement) }
            RawDatabase.bind(statement, 1, "[" + keys.map(String.init).joined(separator: ",") + "]")
            try db.readRows(statement)
        } else {
            let one = try db.cached(select + "= ?")
            for key in keys {
                sqlite3_reset(one)
                sqlite3_bind_int64(one, 1, key)
                try db.readRows(one)
            }
            sqlite3_reset(one)
        }
    }

    /// The raw N+1: the first `limit` keys, then one prepared SELECT of `columns` per key.
    static func rawFaults(_ db: RawDatabase, table: String, columns: String, limit: Int) throws {
        let keys = try db.keys("SELECT Z_PK FROM \(table) LIMIT \(limit)")
        let one = try db.cached("SELECT \(columns) FROM \(table) WHERE Z_PK = ?")
        for key in keys {
            sqlite3_reset(one)
            sqlite3_bind_int64(one, 1, key)
            try db.readRows(one)
        }
    }

    /// The key of `entity`'s middle row by primary key: as a predicate constant for the engine, and as the
    /// store keeps it for the raw reference. `nil` (and `NULL`) on an empty store, where the lookup finds nothing.
    static func middleKey(of entity: Entity, key: String, keyColumn: String, store: PersistentStore) throws -> (constant: PredicateConstant, raw: SQLValue) {
        let context = ManagedObjectContext(store: store)
        var middle = FetchRequest(entityName: entity.name)
        middle.fetchOffset = try store.count(of: entity) / 2
        middle.fetchLimit = 1
        middle.returnsObjectsAsFaults = false
        guard let object = try context.fetch(middle).first, let index = entity.columnIndex(of: key) else { return (.null, .null) }
        let raw = try store.connection.scalar("SELECT \(keyColumn) FROM \(entity.tableName) WHERE Z_PK = ?", [.integer(object.objectID.primaryKey)])
        return (object.value(at: index).predicateConstant, raw ?? .null)
    }

    /// Binds `value` as parameter 1 of a raw statement; `NULL` binds nothing (the SQL says `IS NULL`).
    static func bind(_ value: SQLValue, to statement: OpaquePointer) {
        switch value {
        case .null: break
        case .integer(let v): sqlite3_bind_int64(statement, 1, v)
        case .real(let v): sqlite3_bind_double(statement, 1, v)
        case .text(let v): RawDatabase.bind(statement, 1, v)
        case .blob(let v):
            v.withUnsafeBytes { _ = sqlite3_bind_blob64(statement, 1, $0.baseAddress, sqlite3_uint64($0.count), _seedstore_sqlite_transient()) }
        }
    }

    /// `a` or `an` before `word`, by its first letter: `an OrderHead`, `a WellSummary`.
    static func article(_ word: String) -> String {
        word.first.map { "aeiouAEIOU".contains($0) } == true ? "an" : "a"
    }

    // MARK: Families

    static func batchSize(_ s: Names) throws -> BenchScenario {
        let sortColumn = try s.column(s.config.sortKey, key: "sort_key")
        var variants: [BenchVariant] = []
        let screen = s.config.screen
        for size in s.config.batchSizes {
            let label = size == 0 ? "no batch" : "batch \(size)"
            var request = FetchRequest(entityName: s.entity.name)
            request.sortDescriptors = [FetchSort(s.config.sortKey)]
            request.fetchBatchSize = size
            request.returnsObjectsAsFaults = false
            variants.append(BenchVariant(
                name: "\(label), first screen",
                note: "fetch every \(s.entity.name) sorted by \(s.config.sortKey), touch the first \(screen)",
                run: { context in
                    let objects = try context.fetch(request)
                    for i in 0..<min(screen, objects.count) { _ = objects[i].value(at: 0) }
                },
                raw: size == 0
                    ? { db in try db.readAll("SELECT \(s.allColumns) FROM \(s.table) ORDER BY \(sortColumn), Z_PK") }
                    : { db in
                        // The batches the screen touches, as the engine loads them.
                        let keys = try db.keys("SELECT Z_PK FROM \(s.table) ORDER BY \(sortColumn), Z_PK")
                        let touched = size >= screen ? min(keys.count, size) : min(keys.count, (screen + size - 1) / size * size)
                        try rawBatches(db, keys: keys.prefix(touched), columns: s.allColumns, table: s.table, size: size)
                    },
                rawReference: size == 0 ? nil : "the sorted keys, then the screen's rows in IN batches of \(size)"))
            variants.append(BenchVariant(
                name: "\(label), scroll all",
                note: "fetch every \(s.entity.name) sorted, touch each in order",
                run: { context in
                    for object in try context.fetch(request) { _ = object.value(at: 0) }
                },
                raw: size == 0
                    ? { db in try db.readAll("SELECT \(s.allColumns) FROM \(s.table) ORDER BY \(sortColumn), Z_PK") }
                    : { db in
                        let keys = try db.keys("SELECT Z_PK FROM \(s.table) ORDER BY \(sortColumn), Z_PK")
                        try rawBatches(db, keys: keys[...], columns: s.allColumns, table: s.table, size: size)
                    },
                rawReference: size == 0 ? nil : "the sorted keys, then every row in IN batches of \(size)"))
        }
        return BenchScenario(name: "batch-size", question: "Which fetchBatchSize for a sorted list?", variants: variants,
                             entities: [s.entity.name])
    }

    static func faulting(_ s: Names) throws -> BenchScenario {
        let limit = s.config.faultLimit
        let (first, covers) = s.limited(limit, rows: try s.store.count(of: s.entity))
        let faultAttribute = s.config.faultAttribute ?? s.config.sortKey
        _ = try s.column(faultAttribute, key: "fault_attribute")
        let faultIndex = s.entity.columnIndex(of: faultAttribute)!
        var variants: [BenchVariant] = []
        /// Fetches with `request`, then reads the fault attribute of each object.
        func readEach(_ request: FetchRequest) -> (ManagedObjectContext) throws -> Void {
            { context in for object in try context.fetch(request) { _ = object.value(at: faultIndex) } }
        }
        var faults = FetchRequest(entityName: s.entity.name)
        faults.includesPropertyValues = false
        faults.fetchLimit = limit
        variants.append(BenchVariant(
            name: "faults, then read one attribute (N+1)",
            note: "includesPropertyValues false: IDs only, then reading one attribute fires each object's own SELECT (\(first))",
            run: readEach(faults),
            raw: { db in try rawFaults(db, table: s.table, columns: s.faultColumns, limit: limit) },
            rawReference: "the keys, then one SELECT per object", covers: covers))
        variants.append(BenchVariant(
            name: "faults in one read transaction (N+1)",
            note: "the same N+1, but every fault's SELECT runs inside one read transaction",
            run: { context in try context.performRead { try readEach(faults)(context) } },
            raw: { db in
                try db.exec("BEGIN")
                defer { try? db.exec("COMMIT") }
                try rawFaults(db, table: s.table, columns: s.faultColumns, limit: limit)
            },
            rawReference: "in one transaction, the keys, then one SELECT per object", covers: covers))
        var full = FetchRequest(entityName: s.entity.name)
        full.returnsObjectsAsFaults = false
        full.fetchLimit = limit
        variants.append(BenchVariant(
            name: "returnsObjectsAsFaults false",
            note: "whole objects in one statement, then read the attribute (\(first))",
            run: readEach(full),
            raw: { db in try db.readAll("SELECT \(s.allColumns) FROM \(s.table) LIMIT \(limit)") }, covers: covers))
        var ids = FetchRequest(entityName: s.entity.name)
        ids.fetchLimit = limit
        variants.append(BenchVariant(
            name: "object IDs only",
            note: "just the IDs (\(first))",
            run: { context in context.userInfo["results"] = try context.fetchObjectIDs(ids) },
            raw: { db in _ = try db.keys("SELECT Z_PK FROM \(s.table) LIMIT \(limit)") }, covers: covers))
        var entities = [s.entity.name]
        if let relation = try s.relation() {
            entities.append(relation.destination.name)
            let destinationIndex = relation.destination.columnIndex(of: relation.attribute)!
            let destinationColumns = "Z_PK, " + Names.faultColumns(of: relation.destination)
            for prefetch in [false, true] {
                var request = FetchRequest(entityName: s.entity.name)
                request.returnsObjectsAsFaults = false
                if prefetch { request.relationshipKeyPathsForPrefetching = [relation.relationship] }
                let relationColumn = s.entity.columnIndex(of: relation.relationship)!
                variants.append(BenchVariant(
                    name: "\(s.config.entity.lowercased()).\(relation.relationship).\(relation.attribute) \(prefetch ? "with" : "without") prefetching",
                    note: prefetch ? "destinations load in one statement" : "each distinct destination fires its own fault",
                    run: { context in
                        for object in try context.fetch(request) {
                            if case .object(let id) = object.value(at: relationColumn) { _ = context.object(with: id).value(at: destinationIndex) }
                        }
                    },
                    raw: { db in
                        try rawToOne(db, source: "SELECT \(relation.column), \(s.allColumns) FROM \(s.table)",
                                     destinationColumns: destinationColumns, destinationTable: relation.destination.tableName, prefetch: prefetch)
                    },
                    rawReference: prefetch ? "every row, then the destinations in one statement" : "every row, then one SELECT per destination"))
            }
        }
        return BenchScenario(name: "faulting", question: "Fault, fetch whole objects, or prefetch?", variants: variants,
                             entities: entities)
    }

    static func dictionary(_ s: Names) throws -> BenchScenario {
        let properties = s.config.mapProperties
        let mapColumns = try s.mapColumns()
        let indexes = properties.map { s.entity.columnIndex(of: $0)! }
        var rows = FetchRequest(entityName: s.entity.name)
        rows.resultType = .dictionary
        rows.propertiesToFetch = properties.map { .key($0) }
        var objects = FetchRequest(entityName: s.entity.name)
        objects.returnsObjectsAsFaults = false
        var faults = FetchRequest(entityName: s.entity.name)
        faults.includesPropertyValues = false
        faults.fetchLimit = s.config.faultLimit
        let columns = mapColumns.joined(separator: ", ")
        let (first, covers) = s.limited(s.config.faultLimit, rows: try s.store.count(of: s.entity))
        return BenchScenario(name: "dictionary", question: "Fetch \(properties.count) properties as dictionaries or whole objects?", variants: [
            BenchVariant(name: "\(properties.count) properties as dictionaries", note: properties.joined(separator: ", "),
                         run: { context in
                             let fetched = try context.fetchRows(rows)
                             // Every fetched value is read, as the whole-object variant reads its objects' ones.
                             for row in fetched { for i in indexes.indices { _ = row[i] } }
                             // Results live on after the fetch, as in an app: freed with the context, after the clock.
                             context.userInfo["results"] = fetched
                         },
                         raw: { db in try db.readAll("SELECT \(columns) FROM \(s.table)") }),
            BenchVariant(name: "whole objects", note: "every column of every object, then read the \(properties.count)",
                         run: { context in
                             for object in try context.fetch(objects) { for i in indexes { _ = object.value(at: i) } }
                         },
                         raw: { db in try db.readAll("SELECT \(s.allColumns) FROM \(s.table)") }),
            BenchVariant(name: "IDs then faults (N+1)", note: "IDs, then each object fires a SELECT (\(first))",
                         run: { context in
                             for object in try context.fetch(faults) { for i in indexes { _ = object.value(at: i) } }
                         },
                         raw: { db in try rawFaults(db, table: s.table, columns: s.faultColumns, limit: s.config.faultLimit) },
                         rawReference: "the keys, then one SELECT per object", covers: covers),
        ], entities: [s.entity.name])
    }

    static func decomposition(_ s: Names) throws -> BenchScenario? {
        guard let summary = try s.summary() else { return nil }
        _ = try s.mapColumns()
        let properties = s.config.mapProperties
        let monolithic = properties.map { s.entity.columnIndex(of: $0)! }
        let small = properties.map { summary.entity.columnIndex(of: $0)! }
        var wells = FetchRequest(entityName: s.entity.name)
        wells.returnsObjectsAsFaults = false
        var summaries = FetchRequest(entityName: summary.entity.name)
        summaries.returnsObjectsAsFaults = false
        let summaryColumns = (["Z_PK", "Z_OPT"] + summary.entity.columns.map(\.columnName)).joined(separator: ", ")
        let detailsColumns = (["Z_PK", "Z_OPT"] + summary.detailsEntity.columns.map(\.columnName)).joined(separator: ", ")
        let detailsIndex = summary.entity.columnIndex(of: summary.details)!
        var withDetails = summaries
        withDetails.relationshipKeyPathsForPrefetching = [summary.details]
        // One object is opened by its key, as an app opens the row a user picked: the middle row's, so the
        // lookup finds one on any non-empty store and does not sit at either end of an index.
        let lookup = try middleKey(of: summary.entity, key: summary.key, keyColumn: summary.keyColumn, store: s.store)
        var find = FetchRequest(entityName: summary.entity.name)
        find.predicate = .compare(.key(summary.key), .equalTo, .constant(lookup.constant))
        find.fetchLimit = 1
        find.returnsObjectsAsFaults = false
        let rawFind = "SELECT \(summary.detailsColumn) FROM \(summary.table) WHERE \(summary.keyColumn) "
            + (lookup.raw == .null ? "IS NULL" : "= ?") + " LIMIT 1"
        return BenchScenario(name: "decomposition", question: "One monolithic entity, or a summary and its details one-to-one?", variants: [
            BenchVariant(name: "map query, monolithic \(s.entity.name) objects", note: "\(properties.count) values of every object through the big entity",
                         run: { context in
                             for object in try context.fetch(wells) { for i in monolithic { _ = object.value(at: i) } }
                         },
                         raw: { db in try db.readAll("SELECT \(s.allColumns) FROM \(s.table)") }),
            BenchVariant(name: "map query, \(summary.entity.name) objects", note: "the same values through the small entity",
                         run: { context in
                             for object in try context.fetch(summaries) { for i in small { _ = object.value(at: i) } }
                         },
                         raw: { db in try db.readAll("SELECT \(summaryColumns) FROM \(summary.table)") }),
            BenchVariant(name: "open one object's details", note: "find \(article(summary.entity.name)) \(summary.entity.name) by \(summary.key), fire its \(summary.details) fault",
                         run: { context in
                             guard let one = try context.fetch(find).first,
                                   case .object(let id) = one.value(at: detailsIndex) else { return }
                             _ = context.object(with: id).value(at: 0)
                         },
                         raw: { db in
                             let statement = try db.cached(rawFind)
                             defer { sqlite3_reset(statement) }
                             bind(lookup.raw, to: statement)
                             var keys: [Int64] = []
                             while try db.step(statement) { keys.append(sqlite3_column_int64(statement, 0)) }
                             try db.readAll("SELECT \(detailsColumns) FROM \(summary.detailsEntity.tableName) WHERE Z_PK = ?", keys)
                         },
                         rawReference: "the summary by its key, then its details"),
            BenchVariant(name: "list all details with prefetching", note: "every \(summary.entity.name) with its \(summary.details) prefetched",
                         run: { context in
                             for object in try context.fetch(withDetails) {
                                 if case .object(let id) = object.value(at: detailsIndex) { _ = context.object(with: id).value(at: 0) }
                             }
                         },
                         raw: { db in
                             try rawToOne(db, source: "SELECT \(summary.detailsColumn), \(summaryColumns) FROM \(summary.table)",
                                          destinationColumns: detailsColumns, destinationTable: summary.detailsEntity.tableName, prefetch: true)
                         },
                         rawReference: "every summary, then the details in one statement"),
        ], entities: [s.entity.name, summary.entity.name, summary.detailsEntity.name])
    }
}
