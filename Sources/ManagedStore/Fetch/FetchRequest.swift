import Foundation

/// What to fetch and how: Core Data's fetch vocabulary.
///
/// For example:
///
/// ```swift
/// var request = FetchRequest(entityName: "Task")
/// request.predicate = try FetchPredicate(format: "priority == %@ AND completed == NO", 1)
/// request.sortDescriptors = [FetchSort("priority"), FetchSort("task_description")]
/// request.fetchBatchSize = 20
/// let tasks = try context.fetch(request)
/// ```
public struct FetchRequest: Sendable, CustomStringConvertible {
    /// What a fetch hands back.
    public enum ResultType: String, Sendable, CaseIterable {
        /// Managed objects (``ManagedObjectContext/fetch(_:)``).
        case managedObject
        /// Object IDs only (``ManagedObjectContext/fetchObjectIDs(_:)``).
        case managedObjectID
        /// Light rows of the properties asked for (``ManagedObjectContext/fetchRows(_:)``).
        case dictionary
        /// The number of matches (``ManagedObjectContext/count(for:)``).
        case count
    }

    /// The entity to fetch.
    public var entityName: String
    /// Which objects match; `nil` matches all.
    public var predicate: FetchPredicate?
    /// The order; the primary key breaks ties, so results are always deterministic (grouped and
    /// distinct rows, which have none, by their columns in the order fetched). A dictionary
    /// fetch may also sort by a fetched aggregate's name; a grouped one only by group-by keys and
    /// those names, a distinct one only by fetched properties.
    public var sortDescriptors: [FetchSort] = []
    /// The most results to return (0: no limit). A negative limit is refused when the request runs
    /// (Core Data's is unsigned).
    public var fetchLimit = 0
    /// Results to skip first. A negative offset is refused when the request runs.
    public var fetchOffset = 0
    /// With N > 0, the first statement selects only primary keys and objects load N at a time,
    /// the first time an index in their batch is touched; 0 loads them all with the fetch. A negative
    /// size is refused when the request runs.
    public var fetchBatchSize = 0
    /// Return objects as faults. With ``includesPropertyValues`` their row is read into the
    /// snapshot anyway, so firing them costs no statement; without it, each fires one SELECT.
    public var returnsObjectsAsFaults = true
    /// Read the rows' values with the fetch (true) or only their primary keys (false).
    public var includesPropertyValues = true
    /// Take in the context's unsaved inserts, updates and deletes (object, ID and count results).
    public var includesPendingChanges = true
    /// To-one and to-many key paths whose destinations load with the fetch, one statement per key path.
    public var relationshipKeyPathsForPrefetching: [String] = []
    /// What the fetch hands back.
    public var resultType: ResultType = .managedObject
    /// For dictionary results: the attributes, to-one key paths and aggregate expressions to select.
    public var propertiesToFetch: [FetchProperty] = []
    /// For dictionary results: the key paths to group by.
    public var propertiesToGroupBy: [String] = []
    /// For grouped dictionary results: which groups to keep. It may name group-by keys and the
    /// names of fetched aggregates (`banks > 1` with `count(*) as banks` fetched); it calls no
    /// functions, so fetch an aggregate under a name to test it.
    public var havingPredicate: FetchPredicate?
    /// For dictionary results: drop duplicate rows.
    public var returnsDistinctResults = false

    /// A request for all objects of `entityName`, as managed objects: no predicate, sort keys or limit.
    ///
    /// For example:
    ///
    /// ```swift
    /// var request = FetchRequest(entityName: "Task")
    /// request.fetchLimit = 10
    /// let tasks = try context.fetch(request)
    /// ```
    public init(entityName: String) {
        self.entityName = entityName
    }

    /// Whether a count of this request counts dictionary rows (groups, distinct rows, one row of
    /// aggregates) rather than objects.
    var countsRows: Bool {
        !propertiesToGroupBy.isEmpty || havingPredicate != nil || (returnsDistinctResults && !propertiesToFetch.isEmpty)
            || propertiesToFetch.contains { if case .expression = $0 { true } else { false } }
    }

    /// Refuses a negative ``fetchLimit``, ``fetchOffset`` or ``fetchBatchSize``: every way of running a
    /// request checks them first, so a paging bug (`(page - 1) * size` with page 0) fails the same way
    /// whether or not the context has unsaved changes.
    ///
    /// For example:
    ///
    /// ```swift
    /// var request = FetchRequest(entityName: "Book")
    /// request.fetchOffset = -20
    /// _ = try context.fetch(request)   // throws: fetchOffset must be 0 or more (got -20; …)
    /// ```
    func checkPaging() throws(StoreError) {
        for (name, value, meaning) in [("fetchLimit", fetchLimit, "0 for no limit"), ("fetchOffset", fetchOffset, "0 to skip none"),
                                       ("fetchBatchSize", fetchBatchSize, "0 to load every object with the fetch")] where value < 0 {
            throw .invalidRequest("\(name) must be 0 or more (got \(value); \(meaning)): check how the request's paging is computed")
        }
    }

    public var description: String {
        var parts = ["FetchRequest(\(entityName)"]
        if let predicate { parts.append("predicate: \(predicate)") }
        if !sortDescriptors.isEmpty { parts.append("sort: " + sortDescriptors.map(\.description).joined(separator: ",")) }
        if fetchLimit > 0 { parts.append("limit: \(fetchLimit)") }
        if fetchOffset > 0 { parts.append("offset: \(fetchOffset)") }
        if fetchBatchSize > 0 { parts.append("batch: \(fetchBatchSize)") }
        if resultType != .managedObject { parts.append("result: \(resultType.rawValue)") }
        if !propertiesToFetch.isEmpty { parts.append("properties: " + propertiesToFetch.map(\.name).joined(separator: ",")) }
        if !propertiesToGroupBy.isEmpty { parts.append("group by: " + propertiesToGroupBy.joined(separator: ",")) }
        return parts.joined(separator: ", ") + ")"
    }
}

/// A property a dictionary fetch selects: a key path, or an aggregate over one.
///
/// For example:
///
/// ```swift
/// request.propertiesToFetch = [.key("author"), .expression("books", .count, of: "title")]
/// let parsed = try FetchProperty.parse("count(title) as books")
/// ```
public enum FetchProperty: Sendable, Hashable {
    /// An aggregate function. `sum` of no values (no rows, or only nulls) is 0, as `@sum` of an empty
    /// set is; `average`, `min` and `max` of no values are null.
    public enum Function: String, Sendable, Hashable, CaseIterable {
        case count, sum, min, max, average
    }

    /// An attribute or a key path through to-one relationships (`details.zip`); a to-one relationship
    /// itself gives the destination's primary key.
    case key(String)
    /// `function(keyPath)` named `name` in the result.
    case expression(String, Function, of: String)

    /// The name the value goes by in a result row.
    public var name: String {
        switch self {
        case .key(let keyPath): keyPath
        case .expression(let name, _, _): name
        }
    }

    /// Reads `keyPath`, `function(keyPath)` or `function(keyPath) as name` (`avg` for average). Without
    /// a name, an aggregate goes by the function and key path as written (`avg_depth`, `max_details_zip`),
    /// or by the function alone for `*` (`count`).
    public static func parse(_ text: String) throws(StoreError) -> FetchProperty {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let open = trimmed.firstIndex(of: "("), let close = trimmed.firstIndex(of: ")"), open < close else {
            guard !trimmed.isEmpty, trimmed.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }) else {
                throw .invalidRequest("'\(text)' is not a property; write a key path (details.zip) or function(keyPath) [as name]")
            }
            return .key(trimmed)
        }
        let functionName = trimmed[..<open].lowercased()
        let function: Function? = functionName == "avg" ? .average : Function(rawValue: functionName)
        guard let function else {
            throw .invalidRequest("unknown function '\(functionName)' in '\(text)'; use count, sum, min, max or avg")
        }
        let keyPath = trimmed[trimmed.index(after: open)..<close].trimmingCharacters(in: .whitespaces)
        try checkArgument(keyPath, of: function)
        // Named as written, so --having can use it: avg(depth) is avg_depth, count(*) is count.
        var name = keyPath == "*" ? String(functionName) : "\(functionName)_\(keyPath.replacingOccurrences(of: ".", with: "_"))"
        let rest = trimmed[trimmed.index(after: close)...].trimmingCharacters(in: .whitespaces)
        if !rest.isEmpty {
            let words = rest.split(separator: " ")
            guard words.count == 2, words[0].lowercased() == "as" else {
                throw .invalidRequest("'\(text)': after the closing parenthesis write 'as name'")
            }
            name = String(words[1])
        }
        return .expression(name, function, of: keyPath)
    }

    /// Refuses what a function cannot take: an empty argument (`count()`), and `*` for anything
    /// but `count`. `count(*)` counts rows; `count(keyPath)` counts non-nil values.
    static func checkArgument(_ keyPath: String, of function: Function) throws(StoreError) {
        if keyPath.isEmpty {
            throw .invalidRequest(function == .count
                ? "count() needs an argument: count(*) counts rows, count(keyPath) counts the non-nil values of a key path"
                : "\(function.displayName)() needs a key path, such as \(function.displayName)(price)")
        }
        if keyPath == "*" && function != .count {
            throw .invalidRequest("only count takes *: write \(function.displayName)(keyPath), such as \(function.displayName)(price)")
        }
    }
}

extension FetchProperty.Function {
    /// The name the command line and messages use: `avg` for ``average``.
    var displayName: String { self == .average ? "avg" : rawValue }
}

/// One row of a dictionary fetch: values by property name, sharing one key table across rows.
///
/// For example:
///
/// ```swift
/// for row in try context.fetchRows(request) { print(row["uwi"], row["surface_latitude"]) }
/// ```
public struct ResultRow: Sendable, CustomStringConvertible {
    /// The names of the values, shared by every row of one fetch.
    public let keys: ResultKeys
    /// Every row's values, in one buffer the rows of a fetch share (no allocation per row).
    let storage: ResultStorage
    let start: Int

    init(keys: ResultKeys, storage: ResultStorage, row: Int) {
        self.keys = keys
        self.storage = storage
        self.start = row * keys.names.count
    }

    /// The values, in ``ResultKeys/names`` order.
    public var values: [Value] { Array(storage.values[start..<(start + keys.names.count)]) }

    /// The value at `position` (in ``ResultKeys/names`` order).
    @inline(__always)
    public subscript(position: Int) -> Value { storage.values[start + position] }

    /// The value called `key`, or `.null` when the fetch has no such column, as a dictionary result has no
    /// key for a nil value in Core Data: a misspelt key reads as null too; ``value(forKey:)`` throws instead.
    public subscript(key: String) -> Value {
        keys.index[key].map { storage.values[start + $0] } ?? .null
    }

    /// The value called `key`, or an error naming the columns the fetch has when it has no such one.
    ///
    /// For example:
    ///
    /// ```swift
    /// let latitude = try row.value(forKey: "surface_latitude")
    /// ```
    ///
    /// - Throws: ``StoreError/invalidRequest(_:)`` for a key the fetch did not select (a typo, or a
    ///   property left out of ``FetchRequest/propertiesToFetch``).
    public func value(forKey key: String) throws(StoreError) -> Value {
        guard let position = keys.index[key] else {
            let names = keys.names.map { "\"\($0)\"" }.joined(separator: ", ")
            throw .invalidRequest("the rows have no \"\(key)\": the fetch selected \(names); add it to propertiesToFetch, or read one of those")
        }
        return storage.values[start + position]
    }

    /// The row as a dictionary.
    public var dictionary: [String: Value] { Dictionary(zip(keys.names, values), uniquingKeysWith: { first, _ in first }) }

    public var description: String {
        "{" + zip(keys.names, values).map { "\($0): \($1)" }.joined(separator: ", ") + "}"
    }
}

/// The values of all rows of one dictionary fetch, row after row.
final class ResultStorage: @unchecked Sendable {
    // Written once while the fetch runs, read-only afterwards.
    var values = ContiguousArray<Value>()
}

/// The names of a dictionary fetch's columns.
public final class ResultKeys: Sendable {
    /// The column names, in the order of each row's values.
    public let names: [String]
    let index: [String: Int]

    init(_ names: [String]) {
        self.names = names
        self.index = Dictionary(names.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    }
}
