import Foundation
import ManagedStore

/// Key value → object, for one attribute of one entity: how rows find the object a key names (upserts,
/// relationship columns, join files), across batched saves.
///
/// Keys are stored as bytes back to back in one arena, with an open-addressing table of entry numbers:
/// about 32 bytes per key plus the key itself (up to 4 GB of key bytes), a third of a `[Value: ObjectID]` dictionary, so an index of
/// 244,292 well identifiers stays near 12 MB. Entries keep primary keys: temporary (negative) ones for
/// objects inserted since the last save, replaced by permanent ones right after each save
/// (``setPrimaryKey(_:of:)``).
///
/// - Complexity: O(1) expected per lookup and insert; O(key length) hashing.
final class _KeyIndex {
    let entity: Entity
    let attribute: String
    /// The attribute's column ordinal in ``entity``.
    let ordinal: Int

    /// One key: where its bytes are, its hash, its object, and the file that last set it.
    struct Entry {
        /// The object's primary key (negative: temporary, in the batch being built).
        var primaryKey: Int64
        var start: UInt32
        var hash: UInt32
        var length: UInt32
        /// The position of the file that last set the entry, to tell duplicates within one file from
        /// updates across files.
        var file: Int32
    }

    // The row loop touches these on every key: no dynamic exclusivity checks (one task uses an index).
    @exclusivity(unchecked) private var arena: [UInt8] = []
    @exclusivity(unchecked) private(set) var entries: [Entry] = []
    @exclusivity(unchecked) private var slots: [Int32]
    @exclusivity(unchecked) private var mask: Int

    /// Keys that arrived again for an index that keeps the first object (a destination key that is not
    /// the entity's mapped key).
    var collisions = 0

    init(entity: Entity, attribute: String) {
        self.entity = entity
        self.attribute = attribute
        self.ordinal = entity.columnIndex(of: attribute)!
        slots = Array(repeating: -1, count: 1024)
        mask = 1023
    }

    /// The number of keys.
    var count: Int { entries.count }

    /// The object ID of entry `entry`.
    @inline(__always)
    func objectID(_ entry: Int) -> ObjectID { ObjectID(entityID: entity.id, primaryKey: entries[entry].primaryKey) }

    /// Records the permanent primary key an entry's object got at a save.
    @inline(__always)
    func setPrimaryKey(_ key: Int64, of entry: Int) { entries[entry].primaryKey = key }

    /// The file position that last set `entry`; then marks it as set by `position`.
    @inline(__always)
    func touch(_ entry: Int, file position: Int32) -> Int32 {
        let previous = entries[entry].file
        entries[entry].file = position
        return previous
    }

    /// The primary key of an entry whose object was removed (``remove(_:)``).
    static let removedKey = Int64.min

    /// The entry holding `value`, if any (and its object was not removed).
    @inline(__always)
    func find(_ value: Value) -> Int? {
        guard let entry = _KeyBytes.with(value, { key in find(key, hash: Self.hash(key)) }),
              entries[entry].primaryKey != Self.removedKey else { return nil }
        return entry
    }

    /// Forgets the object of `entry` (its row was rejected after it was written): lookups miss it, and
    /// a later row with the key inserts anew.
    func remove(_ entry: Int) { entries[entry].primaryKey = Self.removedKey }

    /// The entry holding `value`, adding it for `primaryKey` when it is new; `inserted` tells which.
    @inline(__always)
    func findOrInsert(_ value: Value, primaryKey: Int64, file position: Int32) -> (entry: Int, inserted: Bool) {
        _KeyBytes.with(value) { key in
            let hash = Self.hash(key)
            var slot = Int(hash) & mask
            while true {
                let entry = Int(slots[slot])
                if entry < 0 { break }
                if entries[entry].hash == hash && equals(entry, key) {
                    guard entries[entry].primaryKey == Self.removedKey else { return (entry, false) }
                    entries[entry].primaryKey = primaryKey
                    entries[entry].file = position
                    return (entry, true)
                }
                slot = (slot + 1) & mask
            }
            let entry = entries.count
            entries.append(Entry(primaryKey: primaryKey, start: UInt32(truncatingIfNeeded: arena.count), hash: hash,
                                 length: UInt32(truncatingIfNeeded: key.count), file: position))
            arena.append(contentsOf: key)
            slots[slot] = Int32(entry)
            if entries.count * 2 > slots.count { grow() }
            return (entry, true)
        }
    }

    private func find(_ key: UnsafeRawBufferPointer, hash: UInt32) -> Int? {
        var slot = Int(hash) & mask
        while true {
            let entry = Int(slots[slot])
            if entry < 0 { return nil }
            if entries[entry].hash == hash && equals(entry, key) { return entry }
            slot = (slot + 1) & mask
        }
    }

    @inline(__always)
    private func equals(_ entry: Int, _ key: UnsafeRawBufferPointer) -> Bool {
        let start = Int(entries[entry].start)
        guard Int(entries[entry].length) == key.count else { return false }
        return key.count == 0 || arena.withUnsafeBytes { memcmp($0.baseAddress! + start, key.baseAddress!, key.count) == 0 }
    }

    private func grow() {
        let size = slots.count * 2
        slots = Array(repeating: -1, count: size)
        mask = size - 1
        for entry in entries.indices {
            var slot = Int(entries[entry].hash) & mask
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(entry)
        }
    }

    /// Frees the index's memory once no later file needs it.
    func release() {
        arena = []
        entries = []
        slots = Array(repeating: -1, count: 16)
        mask = 15
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
