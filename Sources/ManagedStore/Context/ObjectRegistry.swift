/// The context's uniquing table for saved objects: object ID → object, one object per row.
///
/// An open-addressing hash table over one flat array of entries, keyed by the ID's two integers with
/// a multiplicative hash: on the fetch hot path it costs a fraction of a `Dictionary` with SipHash.
/// Objects not yet saved are not here: the context finds them by their temporary key.
///
/// - Complexity: O(1) expected for lookup, insert and removal.
struct ObjectRegistry {
    private struct Entry {
        /// `entityID` 0 marks an empty slot, -1 a removed one.
        var id: ObjectID
        var object: ManagedObject?
    }

    private static var empty: Entry { Entry(id: ObjectID(entityID: 0, primaryKey: 0), object: nil) }
    private var entries: [Entry]
    private(set) var count = 0
    private var used = 0   // live entries and tombstones
    private var mask: Int

    init(capacity: Int = 64) {
        var size = 64
        while size * 3 < capacity * 4 + 4 { size <<= 1 }
        entries = Array(repeating: Self.empty, count: size)
        mask = size - 1
    }

    @inline(__always)
    private func slot(for id: ObjectID) -> Int {
        let packed = UInt64(bitPattern: id.primaryKey) &+ (UInt64(UInt32(bitPattern: id.entityID)) &* 0x9E37_79B9_7F4A_7C15)
        return Int(truncatingIfNeeded: (packed &* 0xBF58_476D_1CE4_E5B9) >> 21) & mask
    }

    /// The object registered under `id`.
    @inline(__always)
    subscript(id: ObjectID) -> ManagedObject? {
        get {
            var i = slot(for: id)
            while true {
                let entityID = entries[i].id.entityID
                if entityID == 0 { return nil }
                if entries[i].id == id { return entries[i].object }
                i = (i + 1) & mask
            }
        }
        set {
            if let newValue { insert(newValue, for: id) } else { remove(id) }
        }
    }

    /// The object registered under `id`, or the one `make` returns, registered now: one probe for both.
    @inline(__always)
    mutating func object(for id: ObjectID, orMake make: () -> ManagedObject) -> ManagedObject {
        if (used + 1) * 4 > entries.count * 3 { rehash(minimum: max(count * 2, 64)) }
        var i = slot(for: id)
        var reuse = -1
        while true {
            let entityID = entries[i].id.entityID
            if entityID == 0 { break }
            if entityID == -1 {
                if reuse < 0 { reuse = i }
            } else if entries[i].id == id {
                return entries[i].object!
            }
            i = (i + 1) & mask
        }
        if reuse >= 0 { i = reuse } else { used += 1 }
        let object = make()
        entries[i] = Entry(id: id, object: object)
        count += 1
        return object
    }

    private mutating func insert(_ object: ManagedObject, for id: ObjectID) {
        if self.object(for: id, orMake: { object }) !== object {
            // Already registered under `id`: replace it.
            var i = slot(for: id)
            while entries[i].id != id { i = (i + 1) & mask }
            entries[i].object = object
        }
    }

    private mutating func remove(_ id: ObjectID) {
        var i = slot(for: id)
        while true {
            let entityID = entries[i].id.entityID
            if entityID == 0 { return }
            if entries[i].id == id {
                entries[i] = Entry(id: ObjectID(entityID: -1, primaryKey: 0), object: nil)
                count -= 1
                return
            }
            i = (i + 1) & mask
        }
    }

    /// Forgets the object under `id` when nothing but the registry holds it.
    mutating func removeIfUnshared(_ id: ObjectID) {
        var i = slot(for: id)
        while true {
            let entityID = entries[i].id.entityID
            if entityID == 0 { return }
            if entries[i].id == id {
                if isKnownUniquelyReferenced(&entries[i].object) {
                    entries[i] = Entry(id: ObjectID(entityID: -1, primaryKey: 0), object: nil)
                    count -= 1
                }
                return
            }
            i = (i + 1) & mask
        }
    }

    /// Makes room for at least `capacity` objects without rehashing.
    mutating func reserveCapacity(_ capacity: Int) {
        if (capacity + (used - count)) * 4 > entries.count * 3 { rehash(minimum: capacity) }
    }

    private mutating func rehash(minimum: Int) {
        var table = ObjectRegistry(capacity: max(minimum, count))
        for entry in entries where entry.id.entityID > 0 { table.insert(entry.object!, for: entry.id) }
        self = table
    }

    /// Every registered object.
    var values: [ManagedObject] { entries.compactMap { $0.id.entityID > 0 ? $0.object : nil } }
}
