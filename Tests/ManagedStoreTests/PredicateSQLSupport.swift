import Foundation
import Testing
@testable import ManagedStore

/// A store with objects, to run predicates through ``SQLQueryBuilder`` and through in-memory
/// evaluation and compare the answers.
final class SQLTestStore {
    let harness: StoreHarness
    var store: PersistentStore { harness.store }
    var model: ObjectModel { harness.store.model }
    var context: ManagedObjectContext { harness.context }
    /// A context that read the saved objects back, for in-memory evaluation.
    private var reader: ManagedObjectContext?
    private var objectsByEntity: [String: [ManagedObject]] = [:]

    init(model name: String) throws {
        harness = try StoreHarness(model: try Fixtures.model(name))
        harness.store.connection.sqlDebugLevel = 0
        harness.store.connection.registerSeedStoreFunctions()
    }

    init(model: ObjectModel) throws {
        harness = try StoreHarness(model: model)
        harness.store.connection.sqlDebugLevel = 0
        harness.store.connection.registerSeedStoreFunctions()
    }

    func entity(_ name: String) throws -> Entity { try store.entity(named: name) }

    /// The condition, FROM clause and bindings of `predicate` over `entity`.
    func compile(_ predicate: FetchPredicate, _ entityName: String) throws -> (sql: String, bindings: [SQLValue]) {
        var builder = SQLQueryBuilder(model: model, entity: try entity(entityName))
        let condition = try builder.condition(predicate)
        return ("SELECT t0.Z_PK FROM \(builder.fromClause) WHERE \(condition)", builder.bindings)
    }

    /// The WHERE text alone.
    func condition(_ format: String, _ arguments: PredicateArgument..., in entityName: String) throws -> String {
        var builder = SQLQueryBuilder(model: model, entity: try entity(entityName))
        return try builder.condition(FetchPredicate(format: format, arguments: arguments))
    }

    /// The primary keys SQL finds for `predicate`.
    func sqlKeys(_ predicate: FetchPredicate, _ entityName: String) throws -> Set<Int64> {
        let (sql, bindings) = try compile(predicate, entityName)
        return Set(try store.connection.rows(sql, bindings).map { $0[0].int64! })
    }

    func sqlKeys(_ format: String, _ arguments: PredicateArgument..., in entityName: String) throws -> Set<Int64> {
        try sqlKeys(FetchPredicate(format: format, arguments: arguments), entityName)
    }

    /// The saved objects of an entity, read back by a fresh context (so relationships are as stored).
    func objects(_ entityName: String) throws -> [ManagedObject] {
        if let objects = objectsByEntity[entityName] { return objects }
        if reader == nil { reader = ManagedObjectContext(store: store) }
        let objects = try reader!.fetchAll(entityName)
        objectsByEntity[entityName] = objects
        return objects
    }

    /// The primary keys in-memory evaluation finds for `predicate`.
    func memoryKeys(_ predicate: FetchPredicate, _ entityName: String) throws -> Set<Int64> {
        var keys: Set<Int64> = []
        for object in try objects(entityName) where try predicate.evaluate({ try Self.resolve($0, on: object) }) {
            keys.insert(object.objectID.primaryKey)
        }
        return keys
    }

    /// A key path's value on an object, as in-memory evaluation expects it: one value, or one per
    /// related object once a to-many relationship is crossed (a nil to-one on the way gives one nil
    /// element; a nil object before a to-many step gives none).
    static func resolve(_ keyPath: [String], on object: ManagedObject) throws -> PredicateValue {
        if keyPath.isEmpty { return .scalar(.int(object.objectID.primaryKey)) }
        let model = object.context!.model
        var entity = object.entity
        var items: [ManagedObject?] = [object]
        var isCollection = false
        for (i, key) in keyPath.enumerated() {
            let isLast = i == keyPath.count - 1
            var next: [ManagedObject?] = []
            var leaves: [PredicateConstant] = []
            switch entity.slot(of: key) {
            case .column(let index)?:
                for item in items {
                    let value = item?.value(at: index) ?? .null
                    if isLast { leaves.append(value.predicateConstant) } else { next.append(try item?.object(forKey: key)) }
                }
                if let relationship = entity.columns[index].relationship { entity = model.entity(named: relationship.destination)! }
            case .toMany(let index)?:
                isCollection = true
                for case let item? in items {
                    let related = try item.objects(forKey: key)
                    if isLast { leaves += related.map { .int($0.objectID.primaryKey) } } else { next += related.map { $0 } }
                }
                entity = model.entity(named: entity.toManyRelationships[index].destination)!
            case nil:
                Issue.record("no key \(key) on \(entity.name)")
                return nil
            }
            if isLast { return isCollection ? .collection(leaves) : .scalar(leaves.first ?? .null) }
            items = next
        }
        return nil
    }

    /// Expects SQL and memory to find the same objects; returns them.
    @discardableResult
    func expectAgreement(_ predicate: FetchPredicate, _ entityName: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Set<Int64> {
        let memory = try memoryKeys(predicate, entityName)
        let sql: Set<Int64>
        do { sql = try sqlKeys(predicate, entityName) } catch {
            Issue.record("SQL failed for \(predicate) on \(entityName): \(error)", sourceLocation: sourceLocation)
            return []
        }
        if memory != sql {
            let (text, bindings) = (try? compile(predicate, entityName)) ?? ("?", [])
            Issue.record("""
                \(entityName) where \(predicate): memory \(memory.sorted()) but SQL \(sql.sorted())
                  SQL: \(text)  -- \(bindings)
                """, sourceLocation: sourceLocation)
        }
        return sql
    }
}

// MARK: - Data sets

extension SQLTestStore {
    /// Task descriptions that exercise case, diacritics, combining marks, wildcards and quotes.
    static let taskDescriptions: [String] = [
        "Go to the bank", "BANK statement", "Call Zoë", "zoe's party", "Bänk holiday", "Café au lait",
        "straße", "STRASSE", "100% done", "under_score", "file10", "file2", "File1", "",
        "emoji 🏦 bank", "q\u{301}uick", "line\r\nbreak", "İstanbul", "istanbul", "x'); DROP TABLE ZTASK; --",
        "a*b?c", "back\\slash", "Zoë", "ZOË", "Ǆemal", "日本語", "bank", "Kelvin",
    ]

    /// A Tasks store with the descriptions above, priorities 1–5 (and the Integer 32 extremes),
    /// every third completed.
    static func tasks() throws -> SQLTestStore {
        let fixture = try SQLTestStore(model: "tasks")
        let priorities: [Int64] = [1, 2, 3, 4, 5, Int64(Int32.max), Int64(Int32.min), 0]
        for (i, text) in taskDescriptions.enumerated() {
            let task = try fixture.context.insert("Task")
            task["task_description"] = .string(text)
            task["priority"] = .integer(priorities[i % priorities.count])
            task["completed"] = .bool(i % 3 == 0)
        }
        try fixture.context.save()
        return fixture
    }

    static let referenceDate = Date(timeIntervalSinceReferenceDate: 300_000_000)

    /// A date `days` after ``referenceDate``.
    static func day(_ days: Double) -> Date { referenceDate.addingTimeInterval(days * 86_400) }

    /// Failed banks: infos with and without details, details with and without an info, tags shared
    /// by several details, a tag on none; optional values left nil here and there.
    static func banks() throws -> SQLTestStore {
        let fixture = try SQLTestStore(model: "failedbank")
        let context = fixture.context
        let banks: [(name: String, city: String?, state: String?, zip: Int64?, close: Double?, update: Double?)] = [
            ("Signature Bank", "New York", "NY", 10022, 10, 12),
            ("Silicon Valley Bank", "Santa Clara", "CA", 95054, 8, nil),
            ("First Republic", "San Francisco", "CA", 94111, 60, 61),
            ("Banco Zoë", "Álamo", "TX", 78516, 8, 9),
            ("heartland bank", nil, "KS", 0, nil, nil),
            ("Almena State Bank", "Almena", nil, 67622, -5, -1),
            ("Citizens Bank", "Sac City", "IA", 50583, 200, 200),
            ("Washington Mutual", "Henderson", "NV", nil, 0, 1),
            ("no details", "Nowhere", "ZZ", nil, nil, nil),
            ("Ünïcode Bank", "Zürich", "zz", 8001, 30, 31),
        ]
        var details: [ManagedObject] = []
        for (i, bank) in banks.enumerated() {
            let info = try context.insert("FailedBankInfo")
            info["name"] = .string(bank.name)
            info["city"] = bank.city.map(Value.string) ?? .null
            info["state"] = bank.state.map(Value.string) ?? .null
            if i == 8 { continue }
            let detail = try context.insert("FailedBankDetails")
            detail["zip"] = bank.zip.map(Value.integer) ?? .null
            detail["closeDate"] = bank.close.map { .date(day($0)) } ?? .null
            detail["updateDate"] = bank.update.map { .date(day($0)) } ?? .null
            try info.setObject(detail, forKey: "details")
            details.append(detail)
        }
        // Details without an info.
        let orphan = try context.insert("FailedBankDetails")
        orphan["zip"] = .integer(12345)
        orphan["closeDate"] = .date(day(15))
        details.append(orphan)

        let tagNames = ["crisis", "Crisis", "2008", "big", "Zoë", "unused"]
        var tags: [ManagedObject] = []
        for name in tagNames {
            let tag = try context.insert("Tag")
            tag["name"] = .string(name)
            tags.append(tag)
        }
        // details index -> tag indexes
        let links: [Int: [Int]] = [0: [0, 3], 1: [0, 1, 3], 2: [2], 3: [4, 0], 5: [2, 3], 6: [0], 9: [1, 2, 4]]
        for (d, ts) in links {
            for t in ts { try details[d].add(tags[t], toKey: "tags") }
        }
        try context.save()
        return fixture
    }
}

/// A small deterministic random number generator (SplitMix64), so random cases repeat.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
