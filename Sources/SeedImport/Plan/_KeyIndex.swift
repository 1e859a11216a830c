import Foundation
import ManagedStore

/// Key value → object, for one attribute of one entity: how rows find the object a key names (upserts,
/// relationship columns, join files), across batched saves.
///
/// Keys are stored as bytes back to back in one arena, with an open-addressing table of entry numbers:
/// about 45 bytes per key plus the key itself (up to 4 GB of key bytes), a third of a `[Value: ObjectID]` dictionary, so an index of
/// 244,292 well identifiers stays near 19 MB. Entries keep primary keys: temporary (negative) ones for
/// objects inserted since the last save, replaced by permanent ones right after each save
/// (``setPrimaryKey(_:of:)``).
///
/// With a ``budget``, an index whose growth would take the import's indexes past it moves its keys to a
/// private temporary SQLite file (``_SpilledKeys``) and answers from there, a statement per operation:
/// slower, but memory stays flat however many distinct keys the input holds. A failure of that file is
/// kept in ``failure`` (the operations cannot throw in the row loop); the session checks it before every
/// save, so nothing is written after one.
///
/// - Complexity: O(1) expected per lookup and insert; O(key length) hashing; O(log n) once spilled.
final class _KeyIndex {
    let entity: Entity
    let attribute: String
    /// The attribute's column ordinal in ``entity``.
    let ordinal: Int

    /// One key: where its bytes are, its object, and the file that last set it.
    struct Entry {
        /// The object's primary key (negative: temporary, in the batch being built).
        var primaryKey: Int64
        var start: UInt32
        var length: UInt32
        /// The position of the file that last set the entry, to tell duplicates within one file from
        /// updates across files.
        var file: Int32
    }

    // The row loop touches these on every key: no dynamic exclusivity checks (one task uses an index).
    @exclusivity(unchecked) private var arena: [UInt8] = []
    @exclusivity(unchecked) private(set) var entries: [Entry] = []
    /// Open addressing: each slot holds a key's 32-bit hash (high half) and its entry number (low half),
    /// so a probe compares hashes without reading ``entries``; ``emptySlot`` marks a free one.
    @exclusivity(unchecked) private var slots: [UInt64]
    @exclusivity(unchecked) private var mask: Int

    /// Keys that arrived again for an index that keeps the first object (a destination key that is not
    /// the entity's mapped key).
    var collisions = 0

    /// The import's memory budget for key indexes; `nil` keeps every key in memory.
    var budget: _KeyMemoryBudget?
    /// The bytes this index has reported to ``budget``.
    private var reportedBytes = 0
    /// The keys on disk, once this index outgrew its share of ``budget``.
    @exclusivity(unchecked) private var spilled: _SpilledKeys?
    /// Entries on disk (entry numbers go on from the in-memory ones).
    private var spilledCount = 0
    /// The last entry read from disk, which the next call (``objectID(_:)`` after a find) usually wants.
    private var lastSpilled: _SpilledKeys.Row?
    /// The first failure of the file the keys spilled to.
    private(set) var failure: SQLiteError?
    /// Whether the keys live on disk.
    var isSpilled: Bool { spilled != nil }

    init(entity: Entity, attribute: String) {
        self.entity = entity
        self.attribute = attribute
        self.ordinal = entity.columnIndex(of: attribute)!
        slots = Array(repeating: Self.emptySlot, count: 1024)
        mask = 1023
    }

    /// The number of keys.
    var count: Int { spilled == nil ? entries.count : spilledCount }

    /// The object ID of entry `entry`.
    @inline(__always)
    func objectID(_ entry: Int) -> ObjectID {
        if spilled != nil { return ObjectID(entityID: entity.id, primaryKey: spilledRow(entry)?.primaryKey ?? Self.removedKey) }
        return ObjectID(entityID: entity.id, primaryKey: entries[entry].primaryKey)
    }

    /// Records the permanent primary key an entry's object got at a save.
    @inline(__always)
    func setPrimaryKey(_ key: Int64, of entry: Int) {
        if let spilled {
            if lastSpilled?.entry == entry { lastSpilled?.primaryKey = key }
            record { () throws(SQLiteError) in try spilled.setPrimaryKey(key, of: entry) }
            return
        }
        entries[entry].primaryKey = key
    }

    /// The file position that last set `entry`; then marks it as set by `position`.
    @inline(__always)
    func touch(_ entry: Int, file position: Int32) -> Int32 {
        if let spilled {
            guard let row = spilledRow(entry) else { return position }
            lastSpilled?.file = position
            record { () throws(SQLiteError) in try spilled.set(row.primaryKey, file: position, of: entry) }
            return row.file
        }
        let previous = entries[entry].file
        entries[entry].file = position
        return previous
    }

    /// The primary key of an entry whose object was removed (``remove(_:)``).
    static let removedKey = Int64.min

    /// The entry holding `value`, if any (and its object was not removed).
    @inline(__always)
    func find(_ value: Value) -> Int? {
        if spilled != nil {
            return _KeyBytes.with(value) { key in
                guard let row = spilledRow(key), row.primaryKey != Self.removedKey else { return nil }
                return row.entry
            }
        }
        guard let entry = _KeyBytes.with(value, { key in find(key, hash: Self.hash(key)) }),
              entries[entry].primaryKey != Self.removedKey else { return nil }
        return entry
    }

    /// Forgets the object of `entry` (its row was rejected after it was written): lookups miss it, and
    /// a later row with the key inserts anew.
    func remove(_ entry: Int) { setPrimaryKey(Self.removedKey, of: entry) }

    /// The entry holding `value`, adding it for `primaryKey` when it is new; `inserted` tells which.
    @inline(__always)
    func findOrInsert(_ value: Value, primaryKey: Int64, file position: Int32) -> (entry: Int, inserted: Bool) {
        _KeyBytes.with(value) { key in
            if spilled != nil { return spilledFindOrInsert(key, primaryKey: primaryKey, file: position) }
            let hash = Self.hash(key)
            var slot = Int(hash) & mask
            while true {
                let packed = slots[slot]
                if packed == Self.emptySlot { break }
                let entry = Int(truncatingIfNeeded: packed & 0xFFFF_FFFF)
                if UInt32(truncatingIfNeeded: packed >> 32) == hash && equals(entry, key) {
                    guard entries[entry].primaryKey == Self.removedKey else { return (entry, false) }
                    entries[entry].primaryKey = primaryKey
                    entries[entry].file = position
                    return (entry, true)
                }
                slot = (slot + 1) & mask
            }
            if budget != nil && !reserve(adding: key.count) {
                return spilledFindOrInsert(key, primaryKey: primaryKey, file: position)
            }
            let entry = entries.count
            entries.append(Entry(primaryKey: primaryKey, start: UInt32(truncatingIfNeeded: arena.count),
                                 length: UInt32(truncatingIfNeeded: key.count), file: position))
            arena.append(contentsOf: key)
            slots[slot] = Self.pack(hash, entry)
            if entries.count * 2 > slots.count { grow() }
            return (entry, true)
        }
    }

    private func find(_ key: UnsafeRawBufferPointer, hash: UInt32) -> Int? {
        var slot = Int(hash) & mask
        while true {
            let packed = slots[slot]
            if packed == Self.emptySlot { return nil }
            let entry = Int(truncatingIfNeeded: packed & 0xFFFF_FFFF)
            if UInt32(truncatingIfNeeded: packed >> 32) == hash && equals(entry, key) { return entry }
            slot = (slot + 1) & mask
        }
    }

    @inline(__always)
    private func equals(_ entry: Int, _ key: UnsafeRawBufferPointer) -> Bool {
        let start = Int(entries[entry].start)
        guard Int(entries[entry].length) == key.count else { return false }
        return key.count == 0 || arena.withUnsafeBytes { memcmp($0.baseAddress! + start, key.baseAddress!, key.count) == 0 }
    }

    private static let emptySlot = UInt64.max

    @inline(__always)
    private static func pack(_ hash: UInt32, _ entry: Int) -> UInt64 { UInt64(hash) << 32 | UInt64(UInt32(truncatingIfNeeded: entry)) }

    private func grow() {
        let old = slots
        slots = Array(repeating: Self.emptySlot, count: old.count * 2)
        mask = slots.count - 1
        for packed in old where packed != Self.emptySlot {
            var slot = Int(truncatingIfNeeded: packed >> 32) & mask
            while slots[slot] != Self.emptySlot { slot = (slot + 1) & mask }
            slots[slot] = packed
        }
    }

    /// Frees the index's memory once no later file needs it.
    func release() {
        arena = []
        entries = []
        slots = Array(repeating: Self.emptySlot, count: 16)
        mask = 15
        spilled = nil
        lastSpilled = nil
        budget?.release(reportedBytes)
        reportedBytes = 0
    }

    // MARK: Memory budget and spilling

    /// The bytes the in-memory table takes.
    private var bytes: Int {
        arena.capacity + entries.capacity * MemoryLayout<Entry>.stride + slots.capacity * MemoryLayout<UInt64>.stride
    }

    /// Before adding a key of `length` bytes: whether the growth it brings fits ``budget``. When it does not,
    /// the keys move to disk (and `false` says to add this one there); if that fails they stay in memory.
    private func reserve(adding length: Int) -> Bool {
        guard let budget else { return true }
        var projected = 0
        projected += (entries.count == entries.capacity ? max(16, 2 * entries.capacity) : entries.capacity) * MemoryLayout<Entry>.stride
        projected += arena.count + length > arena.capacity ? max(2 * arena.capacity, arena.count + length) : arena.capacity
        projected += ((entries.count + 1) * 2 > slots.count ? 2 * slots.count : slots.count) * MemoryLayout<UInt64>.stride
        if projected <= reportedBytes || budget.grow(from: reportedBytes, to: projected) {
            reportedBytes = max(reportedBytes, projected)
            return true
        }
        if spill() { return false }
        budget.force(from: reportedBytes, to: projected)
        reportedBytes = projected
        return true
    }

    /// Moves every key to a ``_SpilledKeys`` file and frees the in-memory table; `false` if the file fails.
    private func spill() -> Bool {
        let store: _SpilledKeys
        do {
            store = try _SpilledKeys()
            try arena.withUnsafeBytes { arena in
                for (number, entry) in entries.enumerated() {
                    let start = Int(entry.start)
                    try store.add(UnsafeRawBufferPointer(rebasing: arena[start..<start + Int(entry.length)]), entry: number,
                                  primaryKey: entry.primaryKey, file: entry.file)
                }
            }
        } catch {
            return false
        }
        spilledCount = entries.count
        spilled = store
        arena = []
        entries = []
        slots = []
        mask = 0
        budget?.release(reportedBytes)
        budget?.noteSpill("\(entity.name).\(attribute)")
        reportedBytes = 0
        return true
    }

    private func spilledFindOrInsert(_ key: UnsafeRawBufferPointer, primaryKey: Int64, file position: Int32) -> (entry: Int, inserted: Bool) {
        guard let spilled else { return (0, true) }
        if let row = spilledRow(key) {
            guard row.primaryKey == Self.removedKey else { return (row.entry, false) }
            lastSpilled = _SpilledKeys.Row(entry: row.entry, primaryKey: primaryKey, file: position)
            record { () throws(SQLiteError) in try spilled.set(primaryKey, file: position, of: row.entry) }
            return (row.entry, true)
        }
        let entry = spilledCount
        spilledCount += 1
        lastSpilled = _SpilledKeys.Row(entry: entry, primaryKey: primaryKey, file: position)
        record { () throws(SQLiteError) in try spilled.add(key, entry: entry, primaryKey: primaryKey, file: position) }
        return (entry, true)
    }

    private func spilledRow(_ key: UnsafeRawBufferPointer) -> _SpilledKeys.Row? {
        guard let spilled else { return nil }
        let row = record { () throws(SQLiteError) in try spilled.row(key) } ?? nil
        if let row { lastSpilled = row }
        return row
    }

    private func spilledRow(_ entry: Int) -> _SpilledKeys.Row? {
        if let last = lastSpilled, last.entry == entry { return last }
        guard let spilled else { return nil }
        let row = record { () throws(SQLiteError) in try spilled.row(entry: entry) } ?? nil
        if let row { lastSpilled = row }
        return row
    }

    /// Runs a disk operation, keeping its first failure in ``failure``.
    private func record<R>(_ body: () throws(SQLiteError) -> R) -> R? {
        do { return try body() } catch {
            if failure == nil { failure = error }
            return nil
        }
    }

    /// A fast 32-bit hash of a short byte string (8 bytes at a time, multiply and fold).
    @inline(__always)
    static func hash(_ key: UnsafeRawBufferPointer) -> UInt32 {
        var h: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(key.count)
        var i = 0
        let count = key.count
        while i + 8 <= count {
            let word = key.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            h = (h ^ word) &* 0xBF58_476D_1CE4_E5B9
            h ^= h >> 29
            i += 8
        }
        if i < count {
            var tail: UInt64 = 0
            var shift: UInt64 = 0
            while i < count {
                tail |= UInt64(key[i]) << shift
                shift += 8
                i += 1
            }
            h = (h ^ tail) &* 0x94D0_49BB_1331_11EB
        }
        h ^= h >> 32
        h = h &* 0xD6E8_FEB8_6659_FD93
        h ^= h >> 32
        return UInt32(truncatingIfNeeded: h)
    }
}

/// The bytes a ``Value`` is keyed by: UTF-8 for text, the bits for numbers and dates.
enum _KeyBytes {
    @inline(__always)
    static func with<R>(_ value: Value, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        switch value {
        case .string(var text):
            return text.withUTF8 { body(UnsafeRawBufferPointer($0)) }
        case .integer(let number):
            return withUnsafeBytes(of: number) { body($0) }
        case .double(let number):
            return withUnsafeBytes(of: number == 0 ? 0.0 : number) { body($0) }
        case .bool(let flag):
            return withUnsafeBytes(of: flag ? UInt8(1) : 0) { body($0) }
        case .date(let date):
            return withUnsafeBytes(of: date.timeIntervalSinceReferenceDate) { body($0) }
        case .uuid(let uuid):
            return withUnsafeBytes(of: uuid.uuid) { body($0) }
        case .data(let data):
            return data.withUnsafeBytes { body($0) }
        case .object(let id):
            return withUnsafeBytes(of: id.primaryKey) { body($0) }
        case .null, .decimal, .uri:
            var text = value.description
            return text.withUTF8 { body(UnsafeRawBufferPointer($0)) }
        }
    }
}
