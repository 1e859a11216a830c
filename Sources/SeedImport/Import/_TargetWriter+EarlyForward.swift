import CSVStream
import Foundation
import ManagedStore

/// Abort mode: forward keys set as soon as their key comes, rather than once the file has been read.
extension _TargetWriter {
    /// Whether relationship `r` of target `t` takes a forward key as soon as it comes (``early``) rather than
    /// once the file has been read. Only where the two cannot differ: in abort mode (no row is rejected
    /// late, so no key leaves an index), not one-to-one (whose later rows take partners from earlier
    /// ones, so the order of setting matters), and found by a key index that upserts never move (not one
    /// other files find objects by while a target fills it with another key).
    func settlesEarly(_ t: Int, _ r: Int) -> Bool {
        earlyOpen && !takesBackRejectedRows && !relationshipPlans[t][r].isOneToOne && !relationshipPlans[t][r].index.isPopulated
    }

    /// A key early references may be waiting for came, as `entry` of `index`, the key of `object` (just
    /// inserted): a reference whose own object is not saved yet points at it now, so the insert writes
    /// the link (most keys of a hierarchy come within a batch); the others are set after the next save.
    func noteKeyCame(_ value: Value, index: _KeyIndex, entry: Int, object: ManagedObject) {
        let hash = Self.hash(of: value)
        guard var id = earlyWaiting.removeValue(forKey: hash) else { return }
        var kept: [Int] = []
        while id >= 0, let reference = early[id] {
            let next = reference.nextWaiting
            if relationshipPlans[reference.target][reference.relationship].index === index, _KeyBytes.equal(reference.key, value) {
                if reference.isVoid {
                    early[id] = nil
                } else if let source = reference.unsaved {
                    source.setValue(.object(object.objectID), at: relationshipPlans[reference.target][reference.relationship].ordinal)
                    forgetEarly(id)
                } else {
                    earlyReady.append((id, entry))
                }
            } else {
                kept.append(id)
            }
            id = next
        }
        // The others (another key with the same hash) wait on.
        for (i, id) in kept.enumerated() { early[id]!.nextWaiting = i + 1 < kept.count ? kept[i + 1] : -1 }
        if let first = kept.first { earlyWaiting[hash] = first }
    }

    /// Drops early reference `id`, set: out of ``early`` and its own object's chain.
    func forgetEarly(_ id: Int) {
        guard let reference = early.removeValue(forKey: id), reference.entry >= 0, !reference.isVoid,
              let head = earlyByEntry[reference.target][reference.entry] else { return }
        if head == id {
            earlyByEntry[reference.target][reference.entry] = reference.nextSameEntry >= 0 ? reference.nextSameEntry : nil
            return
        }
        var previous = head
        while let next = early[previous]?.nextSameEntry, next >= 0 {
            if next == id {
                early[previous]!.nextSameEntry = reference.nextSameEntry
                return
            }
            previous = next
        }
    }

    /// Sets the early references whose key came (after a save, so every object has its permanent ID) and
    /// forgets them.
    func settleEarlyForward() throws(ImportError) {
        let ready = earlyReady
        earlyReady.removeAll(keepingCapacity: true)
        for (id, entry) in ready {
            guard let reference = early[id] else { continue }
            guard !reference.isVoid else {
                early[id] = nil
                continue
            }
            forgetEarly(id)
            guard let id = reference.object else { continue }
            let relationship = relationshipPlans[reference.target][reference.relationship]
            let object = try session.existing(id)
            object.setValue(.object(relationship.index.objectID(entry)), at: relationship.ordinal)
            changes += 1
            // Many keys may come at once (every employee's manager at the end of the file): in batches.
            if changes >= batchSize { try save() }
        }
    }

    /// The early references whose key never came join the others, in line order, to be rejected with them.
    func takeBackEarlyForward() {
        // Void ones still here named a key that never came, and a later row with their key set the
        // relationship again: the row stands, but the key is worth a word.
        for reference in early.values where reference.isVoid { noteVoidedMissingKey(reference.key, reference.target, reference.relationship, line: reference.line) }
        let left = early.values.filter { !$0.isVoid }.sorted { $0.line < $1.line }
        early = [:]
        earlyWaiting = [:]
        earlyByEntry = Array(repeating: [:], count: targetCount)
        guard !left.isEmpty else { return }
        var merged: [_ForwardReference] = []
        merged.reserveCapacity(forward.count + left.count)
        var i = 0
        for reference in left {
            while i < forward.count && forward[i].line <= reference.line {
                merged.append(forward[i])
                i += 1
            }
            let objectsAt = forwardObjects.count
            forwardObjects.append(contentsOf: repeatElement(nil, count: targetCount))
            forwardObjects[objectsAt + reference.target] = reference.object
            merged.append(_ForwardReference(key: reference.key, target: UInt16(reference.target), relationship: UInt16(reference.relationship),
                                            objectsAt: objectsAt, line: reference.line, byteOffset: reference.byteOffset,
                                            byteCount: reference.byteCount))
        }
        merged.append(contentsOf: forward[i...])
        forward = merged
        resetForwardLines()
    }
}
