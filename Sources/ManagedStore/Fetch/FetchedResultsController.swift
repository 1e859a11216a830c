import Foundation

#if os(Linux)
extension IndexPath {
    /// An index path of a row in a section, as a table shows results.
    public init(row: Int, section: Int) { self.init(indexes: [section, row]) }
    /// The section.
    public var section: Int { self[0] }
    /// The row within the section.
    public var row: Int { self[1] }
}
#endif

/// Fetch results grouped into sections for a list, kept up to date as the context changes.
///
/// Sections come from a key path (books by author); the first sort descriptor must sort by it.
/// Objects load through the request's batch size. After each save or ``ManagedObjectContext/processPendingChanges()``
/// the controller re-reads its IDs and reports section and row inserts, deletes, updates and moves.
///
/// For example:
///
/// ```swift
/// var request = FetchRequest(entityName: "Book")
/// request.sortDescriptors = [FetchSort("author"), FetchSort("title")]
/// request.fetchBatchSize = 20
/// let controller = FetchedResultsController(request: request, context: context, sectionNameKeyPath: "author")
/// controller.onChange = { changes in print(changes.insertedSections, changes.insertedRows) }
/// try controller.performFetch()
/// let first = controller.object(at: IndexPath(row: 0, section: 0))
/// ```
public final class FetchedResultsController {
    /// One section of results.
    public struct Section: Sendable, Equatable, Codable {
        /// The section key's value as text ("" for nil).
        public let name: String
        /// The section's index title: the name's first letter, upper-cased.
        public var indexTitle: String { name.first.map { String($0).uppercased() } ?? "" }
        /// The number of objects in the section.
        public let numberOfObjects: Int
        /// The position of the section's first object in ``FetchedResultsController/fetchedObjects``.
        public let offset: Int
    }

    /// What changed between two fetches, in the order a table view applies them.
    public struct Changes: Sendable, Equatable {
        /// The indexes, in the old sections, of the sections that are gone.
        public var deletedSections: [Int] = []
        /// The indexes, in the new sections, of the sections that are new.
        public var insertedSections: [Int] = []
        /// The old index paths of the objects that no longer match, in order.
        public var deletedRows: [IndexPath] = []
        /// The new index paths of the objects that match now and did not before, in order.
        public var insertedRows: [IndexPath] = []
        /// The index paths of updated objects that kept their place, in order.
        public var updatedRows: [IndexPath] = []
        /// The updated objects whose index path changed, in the order of their new index paths.
        public var movedRows: [Move] = []

        /// A report, for tests that state the changes they expect and for callers that forward them.
        ///
        /// For example:
        ///
        /// ```swift
        /// #expect(changes == .init(insertedSections: [1], insertedRows: [IndexPath(row: 0, section: 1)]))
        /// ```
        public init(deletedSections: [Int] = [], insertedSections: [Int] = [], deletedRows: [IndexPath] = [],
                    insertedRows: [IndexPath] = [], updatedRows: [IndexPath] = [], movedRows: [Move] = []) {
            self.deletedSections = deletedSections
            self.insertedSections = insertedSections
            self.deletedRows = deletedRows
            self.insertedRows = insertedRows
            self.updatedRows = updatedRows
            self.movedRows = movedRows
        }

        /// Whether nothing changed.
        public var isEmpty: Bool {
            deletedSections.isEmpty && insertedSections.isEmpty && deletedRows.isEmpty && insertedRows.isEmpty
                && updatedRows.isEmpty && movedRows.isEmpty
        }
    }

    /// A row that moved.
    public struct Move: Sendable, Equatable {
        /// The row's index path before the change.
        public let from: IndexPath
        /// The row's index path after the change.
        public let to: IndexPath

        /// A move from one index path to another.
        ///
        /// For example:
        ///
        /// ```swift
        /// let move = FetchedResultsController.Move(from: IndexPath(row: 1, section: 1), to: IndexPath(row: 1, section: 0))
        /// ```
        public init(from: IndexPath, to: IndexPath) {
            self.from = from
            self.to = to
        }
    }

    /// The fetch whose results the controller holds.
    public let request: FetchRequest
    /// The context the controller fetches from and whose changes it follows.
    public let context: ManagedObjectContext
    /// The key path whose value names each object's section; `nil` puts all objects in one section.
    public let sectionNameKeyPath: String?
    /// The name under which the section layout is kept between runs, if any.
    public let cacheName: String?
    /// Called after each change the controller sees.
    public var onChange: ((Changes) -> Void)?
    /// The sections, in order.
    public private(set) var sections: [Section] = []
    /// The objects, in order (batched when the request has a batch size).
    public private(set) var fetchedObjects: FetchedObjects?
    /// Whether the last ``performFetch()`` took its sections from the cache.
    public private(set) var usedCache = false
    private var rows: [(id: ObjectID, section: String)] = []
    private var observation: ObservationToken?

    /// A controller for `request` in `context`, with sections by `sectionNameKeyPath` (one section when
    /// `nil`) and the section layout kept between runs under `cacheName` (not kept when `nil`), as a file
    /// in the user's cache directory (`~/.cache/SeedStore/FetchedResultsController/<cacheName>.json` on
    /// Linux; ``deleteCache(named:)`` removes it). The cache is used only while the request, the section
    /// key and the store (its file, and its write-ahead log in WAL mode) are unchanged.
    /// It fetches nothing until ``performFetch()``.
    ///
    /// For example:
    ///
    /// ```swift
    /// let controller = FetchedResultsController(request: request, context: context,
    ///                                           sectionNameKeyPath: "author", cacheName: "BooksByAuthor")
    /// try controller.performFetch()
    /// ```
    public init(request: FetchRequest, context: ManagedObjectContext, sectionNameKeyPath: String? = nil, cacheName: String? = nil) {
        self.request = request
        self.context = context
        self.sectionNameKeyPath = sectionNameKeyPath
        self.cacheName = cacheName
    }

    /// Runs the fetch, computes the sections, and starts following the context's changes.
    public func performFetch() throws(StoreError) {
        try request.checkPaging()
        if let key = sectionNameKeyPath, request.sortDescriptors.first?.keyPath != key {
            throw .invalidRequest("the first sort descriptor must sort by the section key path '\(key)' (got \(request.sortDescriptors.first?.keyPath ?? "none")); add FetchSort(\"\(key)\") first")
        }
        try context.checkPrefetchKeyPaths(request.relationshipKeyPathsForPrefetching,
                                          from: try context.store.entity(named: request.entityName))
        usedCache = false
        if let cached = try loadCache() {
            sections = cached.sections
            let ids = try context.fetchObjectIDs(request)
            if ids.count == cached.sections.reduce(0, { $0 + $1.numberOfObjects }) {
                usedCache = true
                rows = zip(ids, sections.flatMap { section in Array(repeating: section.name, count: section.numberOfObjects) }).map { ($0, $1) }
                fetchedObjects = try objects(for: ids)
                follow()
                return
            }
        }
        rows = try readRows()
        sections = Self.sections(of: rows)
        fetchedObjects = try objects(for: rows.map(\.id))
        saveCache()
        follow()
    }

    /// The object at `indexPath`.
    ///
    /// For example:
    ///
    /// ```swift
    /// try controller.performFetch()
    /// let first = controller.object(at: IndexPath(row: 0, section: 0))
    /// ```
    ///
    /// - Precondition: ``performFetch()`` has run and `indexPath` is within ``sections``. As with an
    ///   array's subscript, anything else is a programming error: it stops the program with a
    ///   message that says which (``sections`` and ``fetchedObjects`` are empty and `nil` until
    ///   the first fetch, and ``indexPath(for:)`` is `nil`).
    public func object(at indexPath: IndexPath) -> ManagedObject {
        guard let fetchedObjects else { fatalError(Self.notFetchedMessage) }
        guard isValid(indexPath) else { fatalError(outOfRangeMessage(indexPath)) }
        return fetchedObjects[sections[indexPath.section].offset + indexPath.row]
    }

    /// What ``object(at:)`` says when called before ``performFetch()``.
    static let notFetchedMessage =
        "FetchedResultsController.object(at:) was called before performFetch(): call try controller.performFetch() first"

    /// Whether `indexPath` names an object of the current sections.
    func isValid(_ indexPath: IndexPath) -> Bool {
        indexPath.count == 2 && sections.indices.contains(indexPath.section)
            && (0..<sections[indexPath.section].numberOfObjects).contains(indexPath.row)
    }

    /// What ``object(at:)`` says for an index path outside the sections.
    func outOfRangeMessage(_ indexPath: IndexPath) -> String {
        guard indexPath.count == 2 else { return "FetchedResultsController.object(at:): \(indexPath) is not a row and section" }
        let counts = sections.map { String($0.numberOfObjects) }.joined(separator: ", ")
        return "FetchedResultsController.object(at:): no object at row \(indexPath.row) of section \(indexPath.section); "
            + "there are \(sections.count) section(s) with [\(counts)] object(s)"
    }

    /// Where `object` is, if it is among the results.
    public func indexPath(for object: ManagedObject) -> IndexPath? {
        guard let position = rows.firstIndex(where: { $0.id == object.objectID }) else { return nil }
        let section = sections.lastIndex { $0.offset <= position }!
        return IndexPath(row: position - sections[section].offset, section: section)
    }

    /// The sections' index titles, each once, in order.
    public var sectionIndexTitles: [String] {
        var seen = Set<String>()
        return sections.map(\.indexTitle).filter { seen.insert($0).inserted }
    }

    /// Removes the cached section layout called `name` (all of them with `nil`).
    public static func deleteCache(named name: String?) {
        if let name { try? FileManager.default.removeItem(at: cacheURL(name)) } else { try? FileManager.default.removeItem(at: cacheDirectory) }
    }

    // MARK: Internals

    private func readRows() throws(StoreError) -> [(id: ObjectID, section: String)] {
        guard let key = sectionNameKeyPath else { return try context.fetchObjectIDs(request).map { ($0, "") } }
        let entity = try context.store.entity(named: request.entityName)
        _ = key
        return try context.matchingEntries(request, entity: entity, pending: context.pendingChanges(of: entity, request))
            .map { (id: $0.id, section: $0.keys.first.map(Self.sectionName) ?? "") }
    }

    private func objects(for ids: [ObjectID]) throws(StoreError) -> FetchedObjects {
        let entity = try context.store.entity(named: request.entityName)
        let plan = context.rowPlan(for: entity)
        if request.fetchBatchSize > 0 {
            return FetchedObjects(storage: .batched(BatchLoader(context: context, plan: plan, ids: ids, batchSize: request.fetchBatchSize,
                                                                prefetch: request.relationshipKeyPathsForPrefetching)))
        }
        return FetchedObjects(storage: .array(context.loadBatch(ids, plan: plan)))
    }

    static func sectionName(_ value: Value) -> String { value.cellText }

    static func sections(of rows: [(id: ObjectID, section: String)]) -> [Section] {
        var sections: [Section] = []
        var start = 0
        for i in rows.indices where i == rows.count - 1 || rows[i + 1].section != rows[i].section {
            sections.append(Section(name: rows[i].section, numberOfObjects: i - start + 1, offset: start))
            start = i + 1
        }
        return sections
    }

    private func follow() {
        observation = context.observeChanges { [weak self] change in self?.contextDidChange(change) }
    }

    private func contextDidChange(_ change: ContextChange) {
        let entityName = request.entityName
        guard (change.inserted + change.updated + change.deleted).contains(where: { $0.entity.name == entityName }),
              let newRows = try? readRows() else { return }
        // A save gives inserted objects permanent IDs: follow them, so they are not reported again.
        let oldRows = rows.map { (id: change.savedIDs[$0.id] ?? $0.id, section: $0.section) }
        let newSections = Self.sections(of: newRows)
        var changes = Changes()
        let oldNames = sections.map(\.name), newNames = newSections.map(\.name)
        changes.deletedSections = oldNames.indices.filter { !newNames.contains(oldNames[$0]) }
        changes.insertedSections = newNames.indices.filter { !oldNames.contains(newNames[$0]) }
        func paths(_ rows: [(id: ObjectID, section: String)], _ sections: [Section]) -> [ObjectID: IndexPath] {
            var result: [ObjectID: IndexPath] = [:]
            for (s, section) in sections.enumerated() {
                for r in 0..<section.numberOfObjects { result[rows[section.offset + r].id] = IndexPath(row: r, section: s) }
            }
            return result
        }
        let oldPaths = paths(oldRows, sections)
        let newPaths = paths(newRows, newSections)
        let updated = Set(change.updated.map(\.objectID))
        changes.deletedRows = oldPaths.filter { newPaths[$0.key] == nil }.map(\.value).sorted()
        changes.insertedRows = newPaths.filter { oldPaths[$0.key] == nil }.map(\.value).sorted()
        for (id, path) in newPaths.sorted(by: { $0.value < $1.value }) where updated.contains(id) {
            guard let old = oldPaths[id] else { continue }
            // An updated object whose place changed moved; one that stayed is an update.
            if old != path { changes.movedRows.append(Move(from: old, to: path)) } else { changes.updatedRows.append(path) }
        }
        rows = newRows
        sections = newSections
        fetchedObjects = try? objects(for: newRows.map(\.id))
        saveCache()
        if !changes.isEmpty { onChange?(changes) }
    }

    // MARK: Cache

    private struct CacheFile: Codable {
        let fingerprint: String
        let sections: [Section]
    }

    private static var cacheDirectory: URL {
        FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first!
            .appendingPathComponent("SeedStore/FetchedResultsController", isDirectory: true)
    }

    private static func cacheURL(_ name: String) -> URL {
        cacheDirectory.appendingPathComponent(name.map { $0.isLetter || $0.isNumber ? String($0) : "_" }.joined() + ".json")
    }

    /// What must match for a cached layout to be used: the request, the section key, the store's identity and contents.
    private func fingerprint() -> String {
        let store = context.store
        let attributes = try? FileManager.default.attributesOfItem(atPath: store.path)
        let size = attributes?[.size] as? Int ?? 0
        let modified = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        // In WAL mode another connection's commit changes the -wal file, not the store file, until a checkpoint.
        let wal = try? FileManager.default.attributesOfItem(atPath: store.path + "-wal")
        let walState = wal.map { "\($0[.size] as? Int ?? 0)@\(($0[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0)" } ?? "none"
        let keys = (try? store.connection.scalar("SELECT group_concat(Z_MAX) FROM Z_PRIMARYKEY"))?.string ?? ""
        let dataVersion = (try? store.connection.scalar("PRAGMA data_version"))?.int64 ?? 0
        return "\(request)|\(sectionNameKeyPath ?? "")|\(store.path)|\(store.metadata["NSStoreUUID"] as? String ?? "")|\(size)|\(modified)|\(walState)|\(keys)|\(dataVersion)|\(context.hasChanges)"
    }

    private func loadCache() throws(StoreError) -> CacheFile? {
        guard let cacheName, !context.hasChanges,
              let data = try? Data(contentsOf: Self.cacheURL(cacheName)),
              let file = try? JSONDecoder().decode(CacheFile.self, from: data), file.fingerprint == fingerprint() else { return nil }
        return file
    }

    private func saveCache() {
        guard let cacheName, !context.hasChanges else { return }
        let file = CacheFile(fingerprint: fingerprint(), sections: sections)
        try? FileManager.default.createDirectory(at: Self.cacheDirectory, withIntermediateDirectories: true)
        try? JSONEncoder().encode(file).write(to: Self.cacheURL(cacheName), options: .atomic)
    }
}
