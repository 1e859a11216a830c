import Foundation
import ManagedStore

/// Key value → object, for one attribute of one entity: how rows find the object a key names (upserts,
/// relationship columns, join files), across batched saves.
///
/// An open-addressing table of slots, each a key's 32-bit hash (high half) and its entry number (low
/// half), filled to at most 70%; per entry, the object's primary key and the file that last set it. Entries
/// keep primary keys: temporary (negative) ones for objects inserted since the last save, replaced by
/// permanent ones right after each save (``setPrimaryKey(_:of:)``).
///
/// A small index also keeps each key's bytes, back to back in one arena, so a hash match is confirmed
/// with a `memcmp`. Past ``fingerprintThreshold`` entries, when the session gave it a ``keyReader``, it
/// drops them: a hash match is then confirmed by reading the key back from the object (in the context,
/// or its saved row). Matches are rare when inserting new keys, which is what a large index mostly does,
/// so this costs little, and an index takes about 20 bytes per key whatever the keys' length (a
/// quarter of what the bytes cost for well identifiers).
///
/// With a ``budget``, an index whose growth would take the import's indexes past it moves its keys to a
/// private temporary SQLite file (``_SpilledKeys``) and answers from there, a statement per operation:
/// slower, but memory stays flat however many distinct keys the input holds. A failure there, or in
/// reading a key back, is kept in ``failure`` (the operations cannot throw in the row loop); the session
/// checks it before every save, so nothing is written after one.
///
/// - Complexity: O(1) expected per lookup and insert; O(key length) hashing; O(log n) once spilled.
final class _KeyIndex {
    let entity: Entity
    let attribute: String
    /// The attribute's column ordinal in ``entity``.
    let ordinal: Int

    // The row loop touches these on every key: no dynamic exclusivity checks (one task uses an index).
    /// Key bytes back to back, while ``keepsKeys``; entry `e`'s end at `ends[e]`.
    @exclusivity(unchecked) private var arena: [UInt8] = []
    @exclusivity(unchecked) private var ends: [UInt32] = []
    /// Per entry, the object's primary key (negative: temporary, in the batch being built; ``removedKey``).
    @exclusivity(unchecked) private var primaryKeys: [Int64] = []
    /// Per entry, the position of the file that last set it, to tell duplicates within one file from
    /// updates across files.
    @exclusivity(unchecked) private var files: [Int32] = []
    /// Open addressing: each slot holds a key's 32-bit hash (high half) and its entry number (low half),
    /// so a probe compares hashes without reading the entries; ``emptySlot`` marks a free one.
    @exclusivity(unchecked) private var slots: [UInt64]
    @exclusivity(unchecked) private var mask: Int

    /// Whether entries keep their key bytes (see the type's discussion).
    private(set) var keepsKeys = true
    /// The entries past which an index with a ``keyReader`` drops its key bytes.
    var fingerprintThreshold = 32_768
    /// Reads the current key of an object (its ID, the attribute's ordinal): how an index without key
    /// bytes confirms a hash match. `nil` keeps the bytes however large the index grows.
    var keyReader: ((ObjectID, Int) throws -> Value?)?

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
    /// The first failure of the file the keys spilled to, or of reading a key back, in words.
    private(set) var failure: String?
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
    var count: Int { spilled == nil ? primaryKeys.count : spilledCount }

    /// The object ID of entry `entry`.
    @inline(__always)
    func objectID(_ entry: Int) -> ObjectID {
        if spilled != nil { return ObjectID(entityID: entity.id, primaryKey: spilledRow(entry)?.primaryKey ?? Self.removedKey) }
        return ObjectID(entityID: entity.id, primaryKey: primaryKeys[entry])
    }

    /// Records the permanent primary key an entry's object got at a save.
    @inline(__always)
    func setPrimaryKey(_ key: Int64, of entry: Int) {
        if let spilled {
            if lastSpilled?.entry == entry { lastSpilled?.primaryKey = key }
            record { () throws(SQLiteError) in try spilled.setPrimaryKey(key, of: entry) }
            return
        }
        primaryKeys[entry] = key
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
        let previous = files[entry]
        files[entry] = position
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
              primaryKeys[entry] != Self.removedKey else { return nil }
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
                    // (Only an index that keeps its keys matches a removed entry: it is reused.)
                    guard primaryKeys[entry] == Self.removedKey else { return (entry, false) }
                    primaryKeys[entry] = primaryKey
                    files[entry] = position
                    return (entry, true)
                }
                slot = (slot + 1) & mask
            }
            if budget != nil && !reserve(adding: keepsKeys ? key.count : 0) {
                return spilledFindOrInsert(key, primaryKey: primaryKey, file: position)
            }
            let entry = primaryKeys.count
            primaryKeys.append(primaryKey)
            files.append(position)
            if keepsKeys {
                arena.append(contentsOf: key)
                ends.append(UInt32(truncatingIfNeeded: arena.count))
            }
            slots[slot] = Self.pack(hash, entry)
            if primaryKeys.count * 10 > slots.count * 7 { grow() }
            if keepsKeys && keyReader != nil && primaryKeys.count >= fingerprintThreshold { dropKeys() }
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

    /// Whether entry `entry` holds `key`: its bytes, or (without them) the key its object has now. A
    /// removed entry's object is gone, so without bytes it matches nothing.
    @inline(__always)
    private func equals(_ entry: Int, _ key: UnsafeRawBufferPointer) -> Bool {
        guard keepsKeys else { return confirm(entry, key) }
        let start = entry == 0 ? 0 : Int(ends[entry - 1])
        guard Int(ends[entry]) - start == key.count else { return false }
        return key.count == 0 || arena.withUnsafeBytes { memcmp($0.baseAddress! + start, key.baseAddress!, key.count) == 0 }
    }

    /// Reads the key of entry `entry`'s object back and compares it with `key`.
    private func confirm(_ entry: Int, _ key: UnsafeRawBufferPointer) -> Bool {
        guard let value = readKey(of: entry) else { return false }
        return _KeyBytes.with(value) { stored in
            stored.count == key.count && (key.count == 0 || memcmp(stored.baseAddress!, key.baseAddress!, key.count) == 0)
        }
    }

    /// The key entry `entry`'s object holds now (``keyReader``); `nil` when removed or unreadable.
    private func readKey(of entry: Int) -> Value? {
        let primaryKey = primaryKeys[entry]
        guard primaryKey != Self.removedKey, let keyReader else { return nil }
        let id = ObjectID(entityID: entity.id, primaryKey: primaryKey)
        do { return try keyReader(id, ordinal) } catch {
            if failure == nil { failure = "reading back the key of \(id) failed: \(error)" }
            return nil
        }
    }

    /// Lets go of the key bytes: from now on a hash match is confirmed through ``keyReader``.
    private func dropKeys() {
        keepsKeys = false
        arena = []
        ends = []
        let now = bytes
        if now < reportedBytes { budget?.release(reportedBytes - now) }
        reportedBytes = min(reportedBytes, now)
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
        ends = []
        primaryKeys = []
        files = []
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
        arena.capacity + ends.capacity * 4 + primaryKeys.capacity * 8 + files.capacity * 4 + slots.capacity * 8
    }

    /// Before adding a key of `length` bytes: whether the growth it brings fits ``budget``. When it does not,
    /// the keys move to disk (and `false` says to add this one there); if that fails they stay in memory.
    private func reserve(adding length: Int) -> Bool {
        guard let budget else { return true }
        func grown(_ capacity: Int, by extra: Int, count: Int) -> Int {
            count + extra > capacity ? max(16, 2 * capacity, count + extra) : capacity
        }
        let count = primaryKeys.count
        var projected = grown(primaryKeys.capacity, by: 1, count: count) * 8 + grown(files.capacity, by: 1, count: count) * 4
        if keepsKeys {
            projected += grown(ends.capacity, by: 1, count: count) * 4 + grown(arena.capacity, by: length, count: arena.count)
        }
        projected += ((count + 1) * 10 > slots.count * 7 ? 2 * slots.count : slots.count) * 8
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
    /// Without key bytes, each live entry's key is read back from its object first.
    private func spill() -> Bool {
        let store: _SpilledKeys
        do {
            store = try _SpilledKeys()
            for entry in primaryKeys.indices {
                if keepsKeys {
                    let start = entry == 0 ? 0 : Int(ends[entry - 1])
                    try arena.withUnsafeBytes { arena in
                        try store.add(UnsafeRawBufferPointer(rebasing: arena[start..<Int(ends[entry])]), entry: entry,
                                      primaryKey: primaryKeys[entry], file: files[entry])
                    }
                } else if let value = readKey(of: entry) {
                    var addFailure: SQLiteError?
                    _KeyBytes.with(value) { key in
                        do throws(SQLiteError) { try store.add(key, entry: entry, primaryKey: primaryKeys[entry], file: files[entry]) } catch { addFailure = error }
                    }
                    if let addFailure { throw addFailure }
                }
            }
        } catch {
            return false
        }
        if failure != nil { return false }
        spilledCount = primaryKeys.count
        spilled = store
        arena = []
        ends = []
        primaryKeys = []
        files = []
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
            if failure == nil { failure = "the temporary file its keys moved to, to keep memory flat, could not be read or written: \(error)" }
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
