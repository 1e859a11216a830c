/// What a save or `processPendingChanges()` changed, as observers see it.
///
/// For example:
///
/// ```swift
/// let token = context.observeChanges { change in print(change.inserted.count, "inserted") }
/// ```
public struct ContextChange {
    /// Objects inserted (saved, when the change comes from a save).
    public let inserted: [ManagedObject]
    /// Objects updated.
    public let updated: [ManagedObject]
    /// Objects deleted.
    public let deleted: [ManagedObject]
    /// Whether the change was a save.
    public let isSave: Bool
    /// For a save: the temporary ID each inserted object had → its permanent ID.
    public var savedIDs: [ObjectID: ObjectID] = [:]
}

/// Keeps an observation alive; dropping it or calling ``cancel()`` stops it.
public final class ObservationToken {
    private var cancellation: (() -> Void)?
    init(_ cancellation: @escaping () -> Void) { self.cancellation = cancellation }
    /// Stops the observation.
    public func cancel() { cancellation?(); cancellation = nil }
    deinit { cancel() }
}

extension ManagedObjectContext {
    /// Calls `observer` after each save, each ``processPendingChanges()`` that changed something, and each
    /// ``rollback()`` that dropped changes.
    public func observeChanges(_ observer: @escaping (ContextChange) -> Void) -> ObservationToken {
        let key = nextObserverKey
        nextObserverKey += 1
        observers[key] = observer
        return ObservationToken { [weak self] in self?.observers[key] = nil }
    }

    /// Tells observers about the unsaved changes made since the last notification.
    public func processPendingChanges() {
        let inserted = insertedList.filter { $0.isInserted && !notified.contains(ObjectIdentifier($0)) }
        let updated = updatedList.filter { $0.isUpdated && !$0.isDeleted && !notified.contains(ObjectIdentifier($0)) }
        let deleted = deletedList.filter { !notified.contains(ObjectIdentifier($0)) }
        guard !(inserted.isEmpty && updated.isEmpty && deleted.isEmpty) else { return }
        for object in inserted + updated + deleted { notified.insert(ObjectIdentifier(object)) }
        notify(ContextChange(inserted: inserted, updated: updated, deleted: deleted, isSave: false))
    }

    func notify(_ change: ContextChange) {
        for key in observers.keys.sorted() { observers[key]?(change) }
    }
}
