import Foundation
import ManagedStore

/// Key value → object, for one attribute of one entity: how rows find the object a key names (upserts,
/// relationship columns, join files), across batched saves.
///
/// In memory: an open-addressing table of slots, each a key's 32-bit hash (high half) and its entry
/// number (low half), filled to at most 70%; per entry, the object's primary key and the file that last
/// set it. Entries keep primary keys: temporary (negative) ones for objects inserted since the last save,
/// replaced by permanent ones right after each save (``setPrimaryKey(_:of:)``).
///
/// A small index also keeps each key's bytes, back to back in one arena, so a hash match is confirmed
/// with a `memcmp`. Past ``fingerprintThreshold`` entries, when the session gave it a ``keyReader``, it
/// drops them: a hash match is then confirmed by reading the key back from the object (in the context,
/// or its saved row). Matches are rare when inserting new keys, which is what a large index mostly does,
/// so this costs little, and an index takes about 20–30 bytes per key whatever the keys' length.
///
/// With a ``budget``: an index whose growth takes the import's indexes past it is flushed, at the next
/// save, to a private temporary SQLite file (``_SpilledKeys``), sorted by key so that SQLite's B-tree
/// takes them in order; memory starts over from empty. Entries below ``base`` live there, and a Bloom
/// filter of their hashes answers most lookups of new keys without reading the file. Memory stays flat
/// however many distinct keys the input holds. A failure there, or in reading a key back, is kept in
/// ``failure`` (the operations cannot throw in the row loop); the session checks it before every save,
/// so nothing is written after one.
///
/// - Complexity: O(1) expected per lookup and insert; O(key length) hashing; O(log n) for a lookup
///   the Bloom filter cannot answer once flushed.
final class _KeyIndex {
    let entity: Entity
    let attribute: String
    /// The attribute's column ordinal in ``entity``.
    let ordinal: Int

    // The row loop touches these on every key: no dynamic exclusivity checks (one task uses an index).
    /// Key bytes back to back, while ``keepsKeys``; in-memory entry `i`'s end at `ends[i]`.
    @exclusivity(unchecked) private var arena: [UInt8] = []
    @exclusivity(unchecked) private var ends: [UInt32] = []
    /// Per in-memory entry, the object's primary key (negative: temporary, in the batch being built;
    /// ``removedKey``).
    @exclusivity(unchecked) private var primaryKeys: [Int64] = []
    /// Per in-memory entry, the position of the file that last set it, to tell duplicates within one
    /// file from updates across files.
    @exclusivity(unchecked) private var files: [Int32] = []
    /// Open addressing: each slot holds a key's 32-bit hash (high half) and its in-memory entry number
    /// (low half), so a probe compares hashes without reading the entries; ``emptySlot`` marks a free one.
    @exclusivity(unchecked) private var slots: [UInt64]
    @exclusivity(unchecked) private var mask: Int

    /// Whether entries keep their key bytes (see the type's discussion).
    private(set) var keepsKeys = true
    /// The entries past which an index with a ``keyReader`` drops its key bytes.
    var fingerprintThreshold = 32_768
    /// Reads the current key of an object (its ID, the attribute's ordinal): how an index without key
    /// bytes confirms a hash match. `nil` keeps the bytes however large the index grows.
    var keyReader: ((ObjectID, Int) throws -> Value?)?
    /// Compares the key an object holds now with given key bytes, without building a value: the
    /// cheaper way to confirm a hash match that ``keyReader`` serves otherwise. A relationship column or
    /// a join file naming a large entity confirms every key it finds, one saved row read each.
    var keyMatcher: ((ObjectID, UnsafeRawBufferPointer) throws -> Bool)?
    /// Whether a key read back from a saved row is byte for byte the key that was stored (Decimal keys
    /// are keyed as the REAL the store keeps). Other types keep their key bytes.
    var readsBackExactly: Bool {
        switch entity.attribute(named: attribute)?.type {
        case .string?, .integer16?, .integer32?, .integer64?, .double?, .float?, .boolean?, .date?, .uuid?, .decimal?: true
        default: false
        }
    }
    /// Whether other files find this entity's objects by this attribute while a target fills it with
    /// another key: an upsert may then change the value, and the first object that had it keeps it
    /// (see ``_TargetWriter``), which only the key bytes remember.
    var isPopulated = false
    /// Values more than one object held (``collisions``), by their 64-bit hash (``hash64(_:)``): only
    /// these can pass to another holder when the first lets go of one, so only these are looked for. A
    /// hash that two values share only makes a search that finds no other holder. Kept as bytes, they took
    /// about 110 bytes a value: 100,000 → 800,000 parents, each value held by two, with 1 MiB of key
    /// memory, grew from 46 to 85 MB, against 42 to 53 MB as hashes.
    private(set) var repeatedValues = Set<UInt64>()

    /// Records that another object holds `value` too.
    func noteRepeated(_ value: Value) {
        collisions += 1
        repeatedValues.insert(_KeyBytes.with(value) { Self.hash64($0) })
    }

    /// Whether more than one object may have held `value` at some point (`false`: certainly not).
    func wasRepeated(_ value: Value) -> Bool {
        !repeatedValues.isEmpty && repeatedValues.contains(_KeyBytes.with(value) { Self.hash64($0) })
    }

    /// Keys that arrived again for an index that keeps the first object (a destination key that is not
    /// the entity's mapped key).
    var collisions = 0

    /// The import's memory budget for key indexes; `nil` keeps every key in memory.
    var budget: _KeyMemoryBudget?
    /// The bytes this index has reported to ``budget``.
    private var reportedBytes = 0
    /// Entries below this number are in ``spilled``; in-memory entry `i` is entry `base + i`.
    private(set) var base = 0
    /// The keys flushed to disk.
    @exclusivity(unchecked) private var spilled: _SpilledKeys?
    /// Whether the index outgrew its share of ``budget``: it moves to disk at the next save.
    private(set) var needsFlush = false
    /// Whether flushing failed to start (no temporary file): the keys then stay in memory.
    private var cannotFlush = false
    /// The last entry read from disk, which the next call (``objectID(_:)`` after a find) usually wants.
    private var lastSpilled: _SpilledKeys.Row?
    /// The first failure of the file the keys moved to, or of reading a key back, in words.
    private(set) var failure: String?
    /// Whether some keys live on disk.
    var isSpilled: Bool { spilled != nil }

    init(entity: Entity, attribute: String) {
        self.entity = entity
        self.attribute = attribute
        self.ordinal = entity.columnIndex(of: attribute)!
        slots = Array(repeating: Self.emptySlot, count: 1024)
        mask = 1023
    }

    /// The number of entries.
    var count: Int { base + primaryKeys.count }

    /// The object ID of entry `entry`.
    @inline(__always)
    func objectID(_ entry: Int) -> ObjectID {
        if entry < base { return ObjectID(entityID: entity.id, primaryKey: spilledRow(entry)?.primaryKey ?? Self.removedKey) }
        return ObjectID(entityID: entity.id, primaryKey: primaryKeys[entry - base])
    }

    /// Records the permanent primary key an entry's object got at a save (or ``removedKey``).
    @inline(__always)
    func setPrimaryKey(_ key: Int64, of entry: Int) {
        if entry < base {
            guard var row = spilledRow(entry) else { return }
            row.primaryKey = key
            updateSpilled(row)
            return
        }
        primaryKeys[entry - base] = key
    }

    /// After a save: records the permanent primary key of an entry made in the batch, unless the entry
    /// was removed since (a value an upsert moved, a rejected row's object).
    @inline(__always)
    func savedPrimaryKey(_ key: Int64, of entry: Int) {
        if entry >= base && primaryKeys[entry - base] == Self.removedKey { return }
        setPrimaryKey(key, of: entry)
    }

    /// The file position that last set `entry`; then marks it as set by `position`.
    @inline(__always)
    func touch(_ entry: Int, file position: Int32) -> Int32 {
        if entry < base {
            guard var row = spilledRow(entry) else { return position }
            let previous = row.file
            row.file = position
            updateSpilled(row)
            return previous
        }
        let previous = files[entry - base]
        files[entry - base] = position
        return previous
    }

    /// The primary key of an entry whose object was removed (``remove(_:)``).
    static let removedKey = Int64.min

    /// The entry holding `value`, if any (and its object was not removed).
    @inline(__always)
    func find(_ value: Value) -> Int? {
        _KeyBytes.with(value) { key in
            let hash = Self.hash64(key)
            if let local = find(key, hash: UInt32(truncatingIfNeeded: hash)) {
                return primaryKeys[local] == Self.removedKey ? nil : base + local
            }
            guard let row = spilledRow(key, hash: hash), row.primaryKey != Self.removedKey else { return nil }
            return row.entry
        }
    }

    /// Forgets the object of `entry` (its row was rejected after it was written): lookups miss it, and
    /// a later row with the key inserts anew.
    func remove(_ entry: Int) {
        removals += 1
        setPrimaryKey(Self.removedKey, of: entry)
    }

    /// How many entries were removed so far: while it stays the same, an entry ``find(_:)`` returned is
    /// still the one it would return (entries are reused only after a removal).
    private(set) var removals = 0

    /// The entry holding `value`, adding it for `primaryKey` when it is new; `inserted` tells which.
    @inline(__always)
    func findOrInsert(_ value: Value, primaryKey: Int64, file position: Int32) -> (entry: Int, inserted: Bool) {
        _KeyBytes.with(value) { key in
            let full = Self.hash64(key)
            let hash = UInt32(truncatingIfNeeded: full)
            var slot = Int(hash) & mask
            while true {
                let packed = slots[slot]
                if packed == Self.emptySlot { break }
                let local = Int(truncatingIfNeeded: packed & 0xFFFF_FFFF)
                if UInt32(truncatingIfNeeded: packed >> 32) == hash && equals(local, key) {
                    // (Only an index that keeps its keys matches a removed entry: it is reused.)
                    guard primaryKeys[local] == Self.removedKey else { return (base + local, false) }
                    primaryKeys[local] = primaryKey
                    files[local] = position
                    return (base + local, true)
                }
                slot = (slot + 1) & mask
            }
            // On disk, unless removed there (then it is made again in memory, which a flush writes over it).
            if let row = spilledRow(key, hash: full), row.primaryKey != Self.removedKey { return (row.entry, false) }
            if budget != nil { reserve(adding: keepsKeys ? key.count : 0) }
            let local = primaryKeys.count
            if needsFlush && local == primaryKeys.capacity { reserveForFlush(adding: key.count) }
            primaryKeys.append(primaryKey)
            files.append(position)
            if keepsKeys {
                arena.append(contentsOf: key)
                ends.append(UInt32(truncatingIfNeeded: arena.count))
            }
            slots[slot] = Self.pack(hash, local)
            // Waiting for a flush, the table fills to 90% rather than doubling just before it empties.
            if primaryKeys.count * 10 > slots.count * (needsFlush ? 9 : 7) { grow() }
            // Once keys have gone to disk, memory keeps their bytes: a flush writes them without reading back.
            if keepsKeys && spilled == nil && keyReader != nil && primaryKeys.count >= fingerprintThreshold { dropKeys() }
            return (base + local, true)
        }
    }

    private func find(_ key: UnsafeRawBufferPointer, hash: UInt32) -> Int? {
        var slot = Int(hash) & mask
        while true {
            let packed = slots[slot]
            if packed == Self.emptySlot { return nil }
            let local = Int(truncatingIfNeeded: packed & 0xFFFF_FFFF)
            if UInt32(truncatingIfNeeded: packed >> 32) == hash && equals(local, key) { return local }
            slot = (slot + 1) & mask
        }
    }

    /// Whether in-memory entry `local` holds `key`: its bytes, or (without them) the key its object has
    /// now. A removed entry's object is gone, so without bytes it matches nothing.
    @inline(__always)
    private func equals(_ local: Int, _ key: UnsafeRawBufferPointer) -> Bool {
        guard keepsKeys else { return confirm(local, key) }
        let start = local == 0 ? 0 : Int(ends[local - 1])
        guard Int(ends[local]) - start == key.count else { return false }
        return arena.withUnsafeBytes { _KeyBytes.same(UnsafeRawBufferPointer(rebasing: $0[start..<start + key.count]), key) }
    }

    /// Reads the key of in-memory entry `local`'s object back and compares it with `key`.
    private func confirm(_ local: Int, _ key: UnsafeRawBufferPointer) -> Bool {
        if let keyMatcher {
            let primaryKey = primaryKeys[local]
            guard primaryKey != Self.removedKey else { return false }
            let id = ObjectID(entityID: entity.id, primaryKey: primaryKey)
            do { return try keyMatcher(id, key) } catch {
                if failure == nil { failure = "reading back the key of \(id) failed: \(error)" }
                return false
            }
        }
        guard let value = readKey(of: local) else { return false }
        return _KeyBytes.with(value) { _KeyBytes.same($0, key) }
    }

    /// The key in-memory entry `local`'s object holds now (``keyReader``); `nil` when removed or unreadable.
    private func readKey(of local: Int) -> Value? {
        let primaryKey = primaryKeys[local]
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
    private static func pack(_ hash: UInt32, _ local: Int) -> UInt64 { UInt64(hash) << 32 | UInt64(UInt32(truncatingIfNeeded: local)) }

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

    /// Empties the in-memory table (its entries are on disk, or no longer needed).
    private func clearMemory() {
        arena = []
        ends = []
        primaryKeys = []
        files = []
        slots = Array(repeating: Self.emptySlot, count: 1024)
        mask = 1023
        keepsKeys = true
    }

    /// Whether ``release()`` freed the index: it finds nothing any more (the store still can).
    private(set) var isReleased = false

    /// Frees the index's memory once no later file needs it.
    func release() {
        isReleased = true
        clearMemory()
        slots = Array(repeating: Self.emptySlot, count: 16)
        mask = 15
        spilled = nil
        lastSpilled = nil
        budget?.release(reportedBytes)
        reportedBytes = 0
    }

    // MARK: Memory budget and flushing to disk

    /// The bytes the in-memory table and the Bloom filter take.
    private var bytes: Int {
        arena.capacity + ends.capacity * 4 + primaryKeys.capacity * 8 + files.capacity * 4 + slots.capacity * 8 + (spilled?.bloomBytes ?? 0)
    }

    /// Before adding a key of `length` bytes: records the growth it brings with ``budget``; when that
    /// does not fit, the index is marked to move to disk at the next save (and grows until then).
    private func reserve(adding length: Int) {
        guard let budget else { return }
        func grown(_ capacity: Int, by extra: Int, count: Int) -> Int {
            count + extra > capacity ? max(16, 2 * capacity, count + extra) : capacity
        }
        let count = primaryKeys.count
        var projected = grown(primaryKeys.capacity, by: 1, count: count) * 8 + grown(files.capacity, by: 1, count: count) * 4
        if keepsKeys {
            projected += grown(ends.capacity, by: 1, count: count) * 4 + grown(arena.capacity, by: length, count: arena.count)
        }
        projected += ((count + 1) * 10 > slots.count * 7 ? 2 * slots.count : slots.count) * 8 + (spilled?.bloomBytes ?? 0)
        guard projected > reportedBytes else { return }
        if !budget.grow(from: reportedBytes, to: projected) {
            budget.force(from: reportedBytes, to: projected)
            if !cannotFlush { needsFlush = true }
        }
        reportedBytes = projected
    }

    /// Grows the entry arrays by an eighth, not double: they empty at the next save.
    private func reserveForFlush(adding length: Int) {
        let count = primaryKeys.count + primaryKeys.count / 8 + 16
        primaryKeys.reserveCapacity(count)
        files.reserveCapacity(count)
        if keepsKeys {
            ends.reserveCapacity(count)
            arena.reserveCapacity(arena.count + arena.count / 8 + length)
        }
    }

    /// Moves the in-memory entries to the disk file as a sorted run (``_SpilledKeys``); memory starts
    /// over. Called right after a save, when every entry holds a permanent primary key. Without key bytes,
    /// each live entry's key is read back from its object, a chunk at a time (each chunk its own run).
    func flush() {
        guard needsFlush else { return }
        needsFlush = false
        if spilled == nil {
            do { spilled = try _SpilledKeys() } catch {
                cannotFlush = true   // no temporary file: the keys stay in memory
                return
            }
            budget?.noteSpill("\(entity.name).\(attribute)")
        }
        guard let spilled else { return }
        lastSpilled = nil
        if keepsKeys {
            let order = sortedLocals(0..<primaryKeys.count) { local in
                let start = local == 0 ? 0 : Int(ends[local - 1])
                return (start, Int(ends[local]))
            }
            let written: Void? = arena.withUnsafeBytes { arena in
                record { () throws(SQLiteError) in
                    try spilled.addRun(count: order.count) { i, write throws(SQLiteError) in
                        let local = Int(order[i])
                        let start = local == 0 ? 0 : Int(ends[local - 1])
                        try write(UnsafeRawBufferPointer(rebasing: arena[start..<Int(ends[local])]), base + local, primaryKeys[local], files[local])
                    }
                }
            }
            guard written != nil else { return }
        } else {
            // Keys read back into one buffer per chunk: bounded extra memory, no allocation per key.
            let chunk = 32_768
            var buffer: [UInt8] = []
            var bounds: [(start: Int, end: Int)] = []
            var locals: [Int] = []
            for first in stride(from: 0, to: primaryKeys.count, by: chunk) {
                buffer.removeAll(keepingCapacity: true)
                bounds.removeAll(keepingCapacity: true)
                locals.removeAll(keepingCapacity: true)
                for local in first..<min(first + chunk, primaryKeys.count) {
                    guard let value = readKey(of: local) else { continue }   // removed: nothing on disk needs it
                    let start = buffer.count
                    _KeyBytes.with(value) { buffer.append(contentsOf: $0) }
                    bounds.append((start, buffer.count))
                    locals.append(local)
                }
                let order = sortedLocals(0..<locals.count, in: buffer) { bounds[$0] }
                let written: Void? = buffer.withUnsafeBytes { buffer in
                    record { () throws(SQLiteError) in
                        try spilled.addRun(count: order.count) { i, write throws(SQLiteError) in
                            let j = Int(order[i]), local = locals[j]
                            try write(UnsafeRawBufferPointer(rebasing: buffer[bounds[j].start..<bounds[j].end]), base + local, primaryKeys[local], files[local])
                        }
                    }
                }
                guard written != nil else { return }
            }
        }
        base += primaryKeys.count
        clearMemory()
        let now = bytes
        budget?.release(max(0, reportedBytes - now))
        reportedBytes = now
    }

    /// The positions `range` sorted by the key bytes `bounds` gives for each (in ``arena`` by default).
    private func sortedLocals(_ range: Range<Int>, in bytes: [UInt8]? = nil, bounds: (Int) -> (start: Int, end: Int)) -> [Int32] {
        var order = range.map { Int32($0) }
        func sort(_ raw: UnsafeRawBufferPointer) {
            order.sort { a, b in
                let x = bounds(Int(a)), y = bounds(Int(b))
                return _SpilledKeys.compare(UnsafeRawBufferPointer(rebasing: raw[x.start..<x.end]),
                                            UnsafeRawBufferPointer(rebasing: raw[y.start..<y.end])) < 0
            }
        }
        if let bytes { bytes.withUnsafeBytes(sort) } else { arena.withUnsafeBytes(sort) }
        return order
    }

    /// The disk row of `key`, if the runs' Bloom filters do not rule it out.
    private func spilledRow(_ key: UnsafeRawBufferPointer, hash: UInt64) -> _SpilledKeys.Row? {
        guard let spilled else { return nil }
        if let last = lastSpilled, last.key.withUnsafeBytes({ _KeyBytes.same($0, key) }) {
            return last
        }
        let row = record { () throws(SQLiteError) in try spilled.row(key, hash: hash) } ?? nil
        if let row { lastSpilled = row }
        return row
    }

    /// The disk row of entry `entry`: the last one read (a find comes first), else a search by entry.
    private func spilledRow(_ entry: Int) -> _SpilledKeys.Row? {
        if let last = lastSpilled, last.entry == entry { return last }
        guard let spilled else { return nil }
        let row = record { () throws(SQLiteError) in try spilled.row(entry: entry) } ?? nil
        if let row { lastSpilled = row }
        return row
    }

    /// Writes a changed disk row back.
    private func updateSpilled(_ row: _SpilledKeys.Row) {
        guard let spilled else { return }
        lastSpilled = row
        record { () throws(SQLiteError) in try spilled.update(row) }
    }

    /// Runs a disk operation, keeping its first failure in ``failure``.
    @discardableResult
    private func record<R>(_ body: () throws(SQLiteError) -> R) -> R? {
        do { return try body() } catch {
            if failure == nil { failure = "the temporary file its keys moved to, to keep memory flat, could not be read or written: \(error)" }
            return nil
        }
    }

    /// A fast 32-bit hash of a short byte string: the low half of ``hash64(_:)``.
    @inline(__always)
    static func hash(_ key: UnsafeRawBufferPointer) -> UInt32 { UInt32(truncatingIfNeeded: hash64(key)) }

    /// A fast 64-bit hash of a short byte string (8 bytes at a time, multiply and fold).
    @inline(__always)
    static func hash64(_ key: UnsafeRawBufferPointer) -> UInt64 {
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
        return h
    }
}

/// The bytes a ``Value`` is keyed by: UTF-8 for text, the bits for numbers and dates.
enum _KeyBytes {
    /// Whether two values are the same key (byte for byte, as the indexes compare).
    static func equal(_ a: Value, _ b: Value) -> Bool {
        with(a) { x in with(b) { y in same(x, y) } }
    }

    /// Whether two keys' bytes are the same (empty ones included).
    @inline(__always)
    static func same(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        a.count == b.count && (a.count == 0 || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0)
    }

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
        case .null:
            // Bytes no UTF-8 text holds, and of no number's length: null is not the text "nil" or "".
            return withUnsafeBytes(of: UInt16(0xFEFF)) { body($0) }
        case .decimal(let number):
            // As the store keeps it (a key read back from a row must equal the key given): a whole number
            // within 64 bits as an INTEGER, exactly (2^53 + 1 is not 2^53), tagged so its 9 bytes never
            // equal a double's 8; anything else as a REAL, which the import made sure holds it.
            if let whole = Value.wholeInteger(number) {
                let tagged = [UInt8(1)] + withUnsafeBytes(of: whole) { Array($0) }
                return tagged.withUnsafeBytes { body($0) }
            }
            let real = NSDecimalNumber(decimal: number).doubleValue
            return withUnsafeBytes(of: real == 0 ? 0.0 : real) { body($0) }
        case .uri:
            var text = value.description
            return text.withUTF8 { body(UnsafeRawBufferPointer($0)) }
        }
    }
}

extension _KeyIndex {
    /// For a text key this index does not hold: a note when the key has spaces or tabs around it and the
    /// index holds it without them (` K1` for `K1`), since text keeps its spaces unless the file trims;
    /// empty otherwise.
    ///
    /// ```swift
    /// "no Owner has code \" K1\"" + index.spacedKeyNote(key)   // … (it has spaces around it; "K1" exists: …)
    /// ```
    func spacedKeyNote(_ key: Value) -> String {
        guard case .string(let text) = key else { return "" }
        let trimmed = text.trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
        guard trimmed != text, !trimmed.isEmpty, find(.string(trimmed)) != nil else { return "" }
        return " (it has spaces around it; \(_ImportSession.describe(.string(trimmed))) exists: text keeps its spaces unless the file trims, "
            + "so re-run with --trim, or \"trim\": true for the file in a mapping)"
    }
}
