/// The objects a fetch returns: an array, or with a batch size a collection that loads its
/// objects N at a time the first time an index in a batch is touched.
///
/// A batched collection keeps only a few batches in memory: older ones are turned back into faults
/// (and forgotten by the context when nothing else holds them), so memory stays bounded while a
/// caller scrolls.
///
/// For example:
///
/// ```swift
/// var request = FetchRequest(entityName: "Well")
/// request.sortDescriptors = [FetchSort("well_name")]
/// request.fetchBatchSize = 20
/// let wells = try context.fetch(request)   // one statement: the primary keys
/// print(wells[0]["well_name"])              // a second statement: the first 20 rows
/// ```
public struct FetchedObjects: RandomAccessCollection {
    enum Storage {
        case array([ManagedObject])
        case batched(BatchLoader)
    }

    let storage: Storage

    /// The first position: always 0.
    public var startIndex: Int { 0 }
    /// The position after the last object: the number of objects, loaded or not.
    public var endIndex: Int {
        switch storage {
        case .array(let objects): objects.count
        case .batched(let loader): loader.ids.count
        }
    }

    /// The object at `position`; with a batch size, its batch loads on first touch.
    ///
    /// - Complexity: O(1), plus one statement the first time a batch is touched.
    public subscript(position: Int) -> ManagedObject {
        switch storage {
        case .array(let objects): objects[position]
        case .batched(let loader): loader.object(at: position)
        }
    }

    /// The objects' IDs, without loading any batch.
    public var objectIDs: [ObjectID] {
        switch storage {
        case .array(let objects): objects.map(\.objectID)
        case .batched(let loader): loader.ids
        }
    }

    /// Whether the collection loads in batches.
    public var isBatched: Bool { if case .batched = storage { return true }; return false }
}

/// Loads the objects of a batched fetch a batch at a time.
final class BatchLoader {
    let context: ManagedObjectContext
    let plan: RowPlan
    let ids: [ObjectID]
    let batchSize: Int
    let prefetch: [String]
    /// How many batches stay materialised; older ones turn back into faults.
    let residentBatches: Int
    private var batches: [Int: [ManagedObject]] = [:]
    private var recent: [Int] = []

    init(context: ManagedObjectContext, plan: RowPlan, ids: [ObjectID], batchSize: Int, prefetch: [String]) {
        self.context = context
        self.plan = plan
        self.ids = ids
        self.batchSize = batchSize
        self.prefetch = prefetch
        self.residentBatches = max(4, 2_000 / batchSize)
    }

    func object(at position: Int) -> ManagedObject {
        guard position >= 0 && position < ids.count else { fatalError("index \(position) out of range 0..<\(ids.count)") }
        let batch = position / batchSize
        if let objects = batches[batch] {
            if recent.last != batch { recent.removeAll { $0 == batch }; recent.append(batch) }
            return objects[position - batch * batchSize]
        }
        let range = (batch * batchSize)..<min(ids.count, (batch + 1) * batchSize)
        let objects = context.loadBatch(Array(ids[range]), plan: plan)
        if !prefetch.isEmpty { try? context.prefetch(prefetch, for: objects) }
        batches[batch] = objects
        recent.append(batch)
        while recent.count > residentBatches {
            let old = recent.removeFirst()
            // Fault the batch, drop this collection's references, then let the context forget
            // the objects nobody else holds: memory stays bounded however far the caller scrolls.
            let ids = batches.removeValue(forKey: old).map { context.turnIntoFaults($0) } ?? []
            context.forgetUnshared(ids)
        }
        return objects[position - batch * batchSize]
    }
}
