import CSVStream
import Foundation
import ManagedStore

/// A relationship key naming a row further down the same file, set once the file has been read.
///
/// One is kept for every such key of the file, so it is laid out small: 64 bytes, from 80, and the row's
/// objects shared with its other keys rather than an array each. Measured on 200,000 employees each naming
/// a later manager, over the same file with every manager first: 166 bytes a forward key, from 262 (238
/// in skip mode, which also keeps which row inserted each key).
struct _ForwardReference {
    let key: Value
    private let targetNumber: UInt16
    private let relationshipNumber: UInt16
    /// A later row with the same key set the relationship itself.
    var isVoid = false
    /// Where the row's objects start in the writer's `forwardObjects`: per target, the object the row
    /// inserted (nil: none, or it updated an existing one), set at the save.
    let objectsAt: Int
    let line: Int
    let byteOffset: Int64
    let byteCount: Int

    init(key: Value, target: UInt16, relationship: UInt16, objectsAt: Int, line: Int, byteOffset: Int64, byteCount: Int) {
        self.key = key
        targetNumber = target
        relationshipNumber = relationship
        self.objectsAt = objectsAt
        self.line = line
        self.byteOffset = byteOffset
        self.byteCount = byteCount
    }

    var target: Int { Int(targetNumber) }
    var relationship: Int { Int(relationshipNumber) }

    /// The same reference, its row's objects at `objectsAt`.
    func placed(at objectsAt: Int) -> _ForwardReference {
        var copy = _ForwardReference(key: key, target: targetNumber, relationship: relationshipNumber, objectsAt: objectsAt,
                                     line: line, byteOffset: byteOffset, byteCount: byteCount)
        copy.isVoid = isVoid
        return copy
    }
}

/// A forward reference set as soon as its key comes (abort mode; ``_TargetWriter``).
struct _EarlyForward {
    let key: Value
    let target: Int
    let relationship: Int
    let line: Int
    let byteOffset: Int64
    let byteCount: Int
    /// The entry of the row's own object in its target's key index (-1: not keyed): a later row updating
    /// it voids the reference.
    let entry: Int
    /// The row's own object while it is not saved, then its ID.
    var unsaved: ManagedObject?
    /// The next reference waiting for a key of the same hash (-1: none).
    var nextWaiting: Int
    /// The next reference of the same object (-1: none).
    var nextSameEntry: Int
    var object: ObjectID? = nil
    /// A later row updating the object set the relationship itself: this reference is not set.
    var isVoid = false
}

/// What the passes that settle forward references keep of those left on disk (``_TargetWriter``, skip
/// mode): 4 bytes a reference for its entry, 16 for its key's hash, and the rows brought back.
final class _DiskForward {
    let spilled: _SpilledForward
    /// Per reference number - 1: the key entry the first pass found (-1: none, or not looked up).
    var found: [Int32]
    /// (key hash, reference number) of the references the first pass found, sorted by hash after it.
    var byHash: [(hash: UInt64, number: Int32)] = []
    /// Rows brought back into the writer's forward references: line → their indexes there.
    var loadedAt: [Int: Range<Int>] = [:]
    /// The references brought back: (key hash, index in the writer's forward references), in runs sorted
    /// by hash, oldest first, each more than twice the next (16 bytes a reference; a dictionary of arrays
    /// took about 90 for rows whose keys all differ, such as rows naming keys that never come). A reference
    /// joins as a run of one and equal runs merge, so bringing one back costs O(log n) amortized and a
    /// lookup a binary search per run: resorting one list at each lookup made a 200,000-row chain,
    /// brought back a row at a time, take 27 s.
    private var runs: [[(hash: UInt64, index: Int)]] = []

    init(spilled: _SpilledForward) {
        self.spilled = spilled
        found = [Int32](repeating: -1, count: spilled.count)
    }

    /// Records that the reference at `index` of the writer's forward references, with key hash `hash`,
    /// was brought back (indexes grow as references come back).
    func noteLoaded(hash: UInt64, index: Int) {
        runs.append([(hash, index)])
        while runs.count >= 2 && runs[runs.count - 2].count <= 2 * runs[runs.count - 1].count {
            let newer = runs.removeLast(), older = runs.removeLast()
            runs.append(Self.merged(older, newer))
        }
    }

    /// The indexes of the references brought back whose key has hash `hash`, in the order brought back.
    func loaded(withHash hash: UInt64) -> [Int] {
        var indexes: [Int] = []
        // Runs hold consecutive stretches of the references, oldest first, and equal hashes sit in the
        // order brought back within a run: so the indexes come out in that order.
        for run in runs {
            var low = run._partitionPoint { $0.hash >= hash }
            while low < run.count && run[low].hash == hash {
                indexes.append(run[low].index)
                low += 1
            }
        }
        return indexes
    }

    /// Two runs as one, by hash; on equal hashes `older`'s first.
    static func merged(_ older: [(hash: UInt64, index: Int)], _ newer: [(hash: UInt64, index: Int)]) -> [(hash: UInt64, index: Int)] {
        var result: [(hash: UInt64, index: Int)] = []
        result.reserveCapacity(older.count + newer.count)
        var i = 0, j = 0
        while i < older.count && j < newer.count {
            if newer[j].hash < older[i].hash {
                result.append(newer[j])
                j += 1
            } else {
                result.append(older[i])
                i += 1
            }
        }
        result.append(contentsOf: older[i...])
        result.append(contentsOf: newer[j...])
        return result
    }
}

/// A forward reference on the walk that merges those on disk with those in memory.
enum _MergedReference {
    case disk(_SpilledForward.Reference)
    case memory(Int)
}
