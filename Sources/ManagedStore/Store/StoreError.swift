/// An error from a persistent store or a context: opening, saving, fetching.
///
/// Each case carries what a person needs to fix the problem, and its description says what to do next.
///
/// For example:
///
/// ```swift
/// do { try context.save() }
/// catch .validation(let failures) { for f in failures { print(f) } }
/// catch { print(error) }
/// ```
public enum StoreError: Error, CustomStringConvertible, Sendable {
    /// SQLite refused a statement.
    case sqlite(SQLiteError)
    /// The store was made with a different model (Core Data's 134100); `differences` names entities and properties.
    case modelMismatch(path: String, differences: [String])
    /// The file is not a store this engine can read.
    case notAStore(path: String, reason: String)
    /// The file is a Core Data store in a layout this engine does not read yet (entity inheritance).
    case unsupportedStore(path: String, reason: String)
    /// A save found invalid objects (Core Data's 1550–1680 codes; 1560 when there are several).
    case validation([ValidationFailure])
    /// Another writer changed a row this context had changed or deleted too (Core Data's 133020).
    case conflict(entity: String, primaryKey: Int64)
    /// A request named an entity the model lacks.
    case unknownEntity(String, suggestions: [String])
    /// A request named a key an entity lacks.
    case unknownKey(entity: String, key: String, suggestions: [String])
    /// The store was opened read-only and a save was attempted.
    case readOnly(path: String)
    /// A request is malformed (a predicate that cannot run, a bad combination of options).
    case invalidRequest(String)
    /// A property a request or an object's accessor names cannot be used the way it asks: a key
    /// neither grouped by nor aggregated, `sum` of a string, an attribute to prefetch; a to-many key
    /// given to a to-one API (or the reverse); a relationship set to an object of another context.
    /// `property` is the key path from `entity`; `reason` says what is wrong and what to do instead.
    case invalidProperty(entity: String, property: String, reason: String)
    /// Another connection or process held the store locked (writing it) for longer than the wait for
    /// it: 5 s, SQLite's busy timeout, which every connection sets. Opening a store, saving and
    /// fetching all report it so (SQLite's `SQLITE_BUSY`); nothing was written, and the same call can
    /// be tried again once that writer is done.
    ///
    /// For example:
    ///
    /// ```swift
    /// do { try context.save() } catch {
    ///     guard case .inUse = error else { throw error }
    ///     try context.save()   // after a pause: the context keeps its changes
    /// }
    /// ```
    case inUse(path: String)

    /// Core Data's error code for the case, where it has one.
    public var code: Int {
        switch self {
        case .modelMismatch: 134100
        case .validation(let failures): failures.count == 1 ? failures[0].code.rawValue : 1560
        case .conflict: 133020
        case .notAStore, .unsupportedStore: 134000
        case .inUse: 134090
        default: 134060
        }
    }

    public var description: String {
        switch self {
        case .sqlite(let error):
            return error.description
        case .modelMismatch(let path, let differences):
            return "error 134100: the model used to open \(path) is not the one it was made with:\n"
                + differences.map { "  - \($0)" }.joined(separator: "\n")
                + "\nOpen it with the model it was made with (or none, to use the model stored in it), or re-import the data with the new model. Nothing was written."
        case .notAStore(let path, let reason):
            return "\(path) is not a SeedStore or Core Data SQLite store: \(reason)"
        case .unsupportedStore(let path, let reason):
            return "\(path) is a Core Data store SeedStore cannot open: \(reason)"
        case .validation(let failures):
            let head = failures.count == 1 ? "error \(failures[0].code.rawValue): the save failed validation:"
                : "error 1560: the save failed validation with \(failures.count) problems:"
            return ([head] + failures.map { "  - \($0)" }).joined(separator: "\n")
                + "\nFix the objects and save again; the context keeps its changes and the store is unchanged."
        case .conflict(let entity, let key):
            return "error 133020: \(entity) p\(key) was changed by another writer since this context read it; refresh the object and apply the change again"
        case .unknownEntity(let name, let suggestions):
            return "the model has no entity '\(name)'" + Self.didYouMean(suggestions)
        case .unknownKey(let entity, let key, let suggestions):
            return "entity \(entity) has no property '\(key)'" + Self.didYouMean(suggestions)
        case .readOnly(let path):
            return "\(path) was opened read-only; open it writable to save"
        case .invalidRequest(let message):
            return message
        case .invalidProperty(let entity, let property, let reason):
            return "\(entity).\(property): \(reason)"
        case .inUse(let path):
            return "error 134090: \(path) is in use: another process is writing it and kept it locked for 5 s; try again when that process is done (an import replacing it, or an app, another connection or an sqlite3 shell with a transaction open)"
        }
    }

    /// SQLite's `error` on the store at `path`: ``inUse(path:)`` when it is `SQLITE_BUSY` (another
    /// writer kept its lock past the busy timeout), ``sqlite(_:)`` otherwise.
    ///
    /// For example:
    ///
    /// ```swift
    /// do { try connection.execute("BEGIN IMMEDIATE") } catch { throw StoreError(error, storePath: path) }
    /// ```
    init(_ error: SQLiteError, storePath path: String) {
        self = error.code == 5 ? .inUse(path: path) : .sqlite(error)   // SQLITE_BUSY
    }

    static func didYouMean(_ suggestions: [String]) -> String {
        suggestions.isEmpty ? "" : "; did you mean " + suggestions.map { "'\($0)'" }.joined(separator: " or ") + "?"
    }
}

/// One reason a save failed validation, naming the entity, the object and the key.
public struct ValidationFailure: Sendable, CustomStringConvertible, Equatable {
    /// Core Data's validation error codes.
    public enum Code: Int, Sendable {
        case invalidValue = 1550
        case missingMandatoryProperty = 1570
        case tooFewDestinations = 1580
        case tooManyDestinations = 1590
        case deleteDenied = 1600
        case numberTooLarge = 1610
        case numberTooSmall = 1620
    }

    /// The code.
    public let code: Code
    /// The object's entity.
    public let entity: String
    /// The object.
    public let objectID: ObjectID
    /// The property at fault.
    public let key: String
    /// What is wrong.
    public let message: String

    public var description: String { "\(entity) \(objectID): '\(key)' \(message) (\(code.rawValue))" }
}

extension Entity {
    /// The error for a key this entity lacks, suggesting the closest of `candidates` (all its
    /// property names when `nil`): the one "did you mean" every request path uses (predicates,
    /// sorts, properties, values; prefetching passes its relationship names).
    ///
    /// For example:
    ///
    /// ```swift
    /// throw task.unknownKey("prority")   // entity Task has no property 'prority'; did you mean 'priority'?
    /// throw person.unknownKey("tag", among: person.relationships.map(\.name))   // did you mean 'tags'?
    /// ```
    func unknownKey(_ key: String, among candidates: [String]? = nil) -> StoreError {
        .unknownKey(entity: name, key: key, suggestions: closestNames(to: key, in: candidates ?? propertyNames))
    }
}

/// Finds the names closest to `name` (edit distance, any case, at most 2 or half the name's length), for
/// "did you mean" hints; the importer's mapping checks use it too.
///
/// ```swift
/// closestNames(to: "prority", in: ["priority", "title"])   // ["priority"]
/// ```
package func closestNames(to name: String, in candidates: [String], limit: Int = 2) -> [String] {
    func distance(_ a: [Character], _ b: [Character]) -> Int {
        var previous = Array(0...b.count)
        for (i, ca) in a.enumerated() {
            var current = [i + 1]
            for (j, cb) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (ca == cb ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
    let target = Array(name.lowercased())
    let scored = candidates.map { ($0, distance(target, Array($0.lowercased()))) }
        .filter { $0.1 <= max(2, target.count / 2) }
        .sorted { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }
    return scored.prefix(limit).map(\.0)
}
