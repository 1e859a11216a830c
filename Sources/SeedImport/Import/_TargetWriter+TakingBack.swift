import CSVStream
import Foundation
import ManagedStore

/// Skip mode: taking back the writes rows rejected late made to objects other rows keep.
extension _TargetWriter {
    /// Keeps `object`'s values from before this row changes them, when the row keeps its writes
    /// (``rowKeepsWrites``: it may be rejected once the file has been read) or such a row wrote the object
    /// before. `target`: the target that updates the object (its update is counted there).
    func noteWrite(_ object: ManagedObject, line: Int, target: Int = -1) throws(ImportError) {
        let id = object.objectID
        guard rowKeepsWrites || (!writes.isEmpty && writes[id] != nil) else { return }
        if !rowKeepsWrites && chainWriteBytes >= chainWriteBudget {
            unkeptWrites.insert(id)
            return
        }
        if let count = writes[id]?.count, writes[id]![count - 1].line == line {
            if target >= 0 {
                writes[id]![count - 1].target = target
                writes[id]![count - 1].repeatsKey = duplicateInRow[target]
            }
            return
        }
        writes[id, default: []].append(_Write(line: line, target: target, repeatsKey: target >= 0 && duplicateInRow[target],
                                              before: snapshot(object)))
        writesByLine[line, default: []].append(id)
        if id.isTemporary { unsavedInWrites.append((id, object)) }
        rowWrites.append(object)
    }

    /// ``noteWrite(_:line:target:)`` for the object a relationship value names (nothing for null), unless
    /// this row made it; with `partnerAt`, for that object's one-to-one partner at that column too.
    func noteWrite(_ value: Value, line: Int, partnerAt inverse: Int = -1) throws(ImportError) {
        guard case .object(let id) = value,
              rowKeepsWrites || inverse >= 0 || (!writes.isEmpty && writes[id] != nil) else { return }
        for k in 0..<targetCount where insertedInRow[k] && objects[k]?.objectID == id { return }
        let object = try session.existing(id)
        try noteWrite(object, line: line)
        if inverse >= 0 { try noteWrite(object.value(at: inverse), line: line) }
    }

    /// An object's values, each column; an unsaved object a value names is remembered for its permanent ID.
    func snapshot(_ object: ManagedObject) -> ContiguousArray<Value> {
        var values = ContiguousArray<Value>()
        values.reserveCapacity(object.entity.columns.count)
        for c in object.entity.columns.indices {
            let value = object.value(at: c)
            if case .object(let id) = value, id.isTemporary, let named = context.registeredObject(for: id) {
                unsavedInWrites.append((id, named))
            }
            values.append(value)
        }
        return values
    }

    /// The row has ended: the values it left in the objects it wrote, and the columns it set (an update
    /// sets every column its target maps, even to the value it had).
    func endRowWrites(_ line: Int) {
        // The row's keyed objects lead back to it, should one of them be removed.
        for t in 0..<targetCount where keys[t] != nil {
            guard let object = objects[t] else { continue }
            linesByRowObject[object.objectID, default: []].append(line)
            if object.objectID.isTemporary { unsavedInWrites.append((object.objectID, object)) }
        }
        for object in rowWrites {
            let id = object.objectID
            let last = writes[id]!.count - 1
            var write = writes[id]![last]
            let after = snapshot(object)
            if write.target >= 0 {
                write.setColumns = mappedOrdinals[write.target] + oneToOne[write.target].map { relationshipPlans[write.target][$0].ordinal }
            }
            // Only the columns the row changed keep their values (memory).
            for c in write.before.indices where write.before[c] != after[c] {
                write.changes.append((c, write.before[c], after[c]))
                if !write.setColumns.contains(c) { write.setColumns.append(c) }
            }
            write.before = []
            if rowForward.isEmpty { chainWriteBytes += write.estimatedBytes }
            writes[id]![last] = write
        }
        rowWrites.removeAll(keepingCapacity: true)
    }

    /// After a save: the writes name the objects it saved by their permanent IDs.
    func renameSavedInWrites() {
        var renamed: [ObjectID: ObjectID] = [:]
        for (id, object) in unsavedInWrites where object.objectID != id { renamed[id] = object.objectID }
        unsavedInWrites.removeAll(keepingCapacity: true)
        guard !renamed.isEmpty else { return }
        func rename(_ values: inout ContiguousArray<Value>) {
            for c in values.indices {
                if case .object(let id) = values[c], let new = renamed[id] { values[c] = .object(new) }
            }
        }
        var result: [ObjectID: [_Write]] = [:]
        for (id, var list) in writes {
            for i in list.indices {
                for k in list[i].changes.indices {
                    for side in 0..<2 {
                        let value = side == 0 ? list[i].changes[k].before : list[i].changes[k].after
                        guard case .object(let old) = value, let new = renamed[old] else { continue }
                        if side == 0 { list[i].changes[k].before = .object(new) } else { list[i].changes[k].after = .object(new) }
                    }
                }
            }
            result[renamed[id] ?? id] = list
        }
        writes = result
        for (id, new) in renamed {
            if let lines = linesByRowObject.removeValue(forKey: id) { linesByRowObject[new, default: []] += lines }
        }
        for (line, ids) in writesByLine where ids.contains(where: { renamed[$0] != nil }) {
            writesByLine[line] = ids.map { renamed[$0] ?? $0 }
        }
    }

    /// Takes back what rows rejected once the file was read wrote to the objects `ids` that stay, column by
    /// column: of the writes that set a column, the last run of rejected ones is undone (the column
    /// returns to its value before the first of them, that is, what the last row that stands left it),
    /// where nothing else changed the column since; a value naming an object that is gone becomes null.
    /// A one-to-one goes back to its former partner only if that one is free, or held by an object that is
    /// gone or one of `leaving` (the rejected row's own objects, about to go). Undone writes no longer
    /// count as setting the column: this may run again as more rows are rejected.
    func takeBackRejectedWrites(of ids: [ObjectID], leaving: Set<ObjectID>) throws(ImportError) {
        guard !writes.isEmpty else { return }
        var restored: [ManagedObject] = []
        for id in Set(ids).sorted(by: { ($0.entityID, $0.primaryKey) < ($1.entityID, $1.primaryKey) }) {
            guard var list = writes[id], list.contains(where: { !$0.isTakenBack && isRejected($0.line) }) else { continue }
            // Going itself, or its history is not whole: nothing to take back.
            guard !leaving.contains(id), !unkeptWrites.contains(id), !cascadedIDs.contains(id),
                  let object = try? session.existing(id), !object.isDeleted else {
                writes[id] = nil
                continue
            }
            // A rejected row's update no longer counts, nor does its key as a repeat.
            for i in list.indices where !list[i].isTakenBack && isRejected(list[i].line) {
                list[i].isTakenBack = true
                let write = list[i]
                guard write.target >= 0 else { continue }
                updated[write.target] -= 1
                guard write.repeatsKey else { continue }
                duplicates[write.target] -= 1
                duplicateLines[write.target].removeAll { $0 == write.line }
            }
            var changed = false
            for c in object.entity.columns.indices {
                guard let last = list.lastIndex(where: { $0.setColumns.contains(c) }), isRejected(list[last].line) else { continue }
                var first = last
                while let previous = list[..<first].lastIndex(where: { $0.setColumns.contains(c) }), isRejected(list[previous].line) {
                    first = previous
                }
                for i in first...last { list[i].setColumns.removeAll { $0 == c } }
                // The value before the run's first change of the column, and after its last.
                guard let value = list[first...last].lazy.compactMap({ $0.change(of: c) }).first?.before,
                      let expected = list[first...last].reversed().lazy.compactMap({ $0.change(of: c) }).first?.after else { continue }
                let current = object.value(at: c)
                // Changed since by something else (but for a delete rule letting go of an object that is
                // gone): that stays.
                guard value != current, current == expected || (current.isNull && isGone(expected)) else { continue }
                try restore(object, at: c, to: isGone(value) ? .null : value, since: list[first].line, leaving: leaving)
                changed = true
            }
            writes[id] = list
            if changed { restored.append(object) }
        }
        for object in restored { try pairOneToOnes(of: object) }
        objectsTakenBack += restored.count
    }

    /// Whether the row at `line` was rejected, or is about to be.
    func isRejected(_ line: Int) -> Bool {
        file.rejectedLines.contains(line) || doomedLines.contains(line)
    }

    /// Whether this row updates an earlier object, or sets a one-to-one to one.
    func touchesEarlierObjects() -> Bool {
        for t in 0..<targetCount {
            if updatesExisting(t) { return true }
            for r in oneToOne[t] where !rowValues[t][relationshipPlans[t][r].ordinal].isNull { return true }
        }
        return false
    }

    /// `object` is being removed with rejected rows: the rows that made or updated it as a keyed target
    /// are rejected (found again by its key), so what they wrote to other earlier objects is taken back
    /// first, before delete rules run (a partner their link took returns to its earlier object).
    func takeBackWritesOfRows(of object: ManagedObject) throws(ImportError) {
        guard let lines = linesByRowObject.removeValue(forKey: object.objectID), !keyAttributes(of: object.entity.name).isEmpty else { return }
        doomedLines.formUnion(lines)
        var leaving: Set<ObjectID> = [object.objectID]
        for ordinal in linkedColumns[object.entity.name] ?? [] {
            if case .object(let id) = object.value(at: ordinal) { leaving.insert(id) }
        }
        try takeBackRejectedWrites(of: lines.flatMap { writesByLine[$0] ?? [] }, leaving: leaving)
    }

    /// Whether a value names an object that is gone (removed with rejected rows, or never saved).
    func isGone(_ value: Value) -> Bool {
        guard case .object(let id) = value else { return false }
        if id.isTemporary || cascadedIDs.contains(id) { return true }
        guard let object = try? session.existing(id) else { return true }
        return object.isDeleted
    }

    /// Sets column `c` of `object` back to `value`: an attribute with the key indexes that find objects by
    /// it, a relationship through the context (so a one-to-one's other side and the partner's current
    /// holder follow), unless the partner is held by an object that stays, or a row that stands set its
    /// side after line `since` (the first write taken back).
    func restore(_ object: ManagedObject, at c: Int, to value: Value, since: Int, leaving: Set<ObjectID>) throws(ImportError) {
        let column = object.entity.columns[c]
        if let relationship = column.relationship {
            var value = value
            if case .object(let partnerID) = value, let back = oneToOneBack(relationship) {
                let partner = try session.existing(partnerID)
                let heldElsewhere: Bool
                if case .object(let holder) = partner.value(at: back), holder != object.objectID,
                   !leaving.contains(holder), !isGone(.object(holder)) {
                    heldElsewhere = true
                } else {
                    heldElsewhere = writes[partnerID]?.contains { $0.line > since && !isRejected($0.line) && $0.setColumns.contains(back) } ?? false
                }
                if heldElsewhere {
                    // The former partner is not this object's any more; at least let go of the rejected
                    // row's object (its delete rules must not reach this one).
                    guard case .object(let current) = object.value(at: c), leaving.contains(current) || isGone(.object(current)) else { return }
                    value = .null
                }
            }
            do { try object.setValue(value, forKey: relationship.name) } catch {
                throw ImportError(.store, reason: "taking back a rejected row's \(object.entity.name).\(relationship.name) failed: \(error)")
            }
            changes += 1
            return
        }
        let indexes = session.plan.indexes.values.filter { $0.entity.name == object.entity.name && $0.ordinal == c }
        for index in indexes { try vacate(index, object.value(at: c), of: object) }
        object.setValue(value, at: c)
        changes += 1
        for index in indexes where !value.isNull {
            let (entry, isNew) = index.findOrInsert(value, primaryKey: object.objectID.primaryKey, file: position)
            if !isNew && index.objectID(entry) != object.objectID { index.noteRepeated(value) }
        }
    }

    /// The destination's column back, when `relationship` is one-to-one.
    func oneToOneBack(_ relationship: Relationship) -> Int? {
        guard !relationship.isToMany, let inverse = relationship.inverse,
              let destination = context.model.entity(named: relationship.destination),
              destination.relationship(named: inverse)?.isToMany == false else { return nil }
        return destination.columnIndex(of: inverse)
    }

    /// Makes `object`'s one-to-one pairs whole once its columns were set back: a partner that is gone is
    /// let go, a partner whose side is free (or names an object that does not hold it) takes it back, and
    /// a partner another object holds on both sides stays with that one.
    func pairOneToOnes(of object: ManagedObject) throws(ImportError) {
        guard !object.isDeleted else { return }
        for (c, column) in object.entity.columns.enumerated() {
            guard let relationship = column.relationship, let back = oneToOneBack(relationship),
                  case .object(let partnerID) = object.value(at: c) else { continue }
            changes += 1
            if isGone(.object(partnerID)) {
                object.setValue(.null, at: c)
                continue
            }
            let partner = try session.existing(partnerID)
            if case .object(let holderID) = partner.value(at: back) {
                if holderID == object.objectID { continue }
                if !isGone(.object(holderID)), let holder = try? session.existing(holderID),
                   let column = holder.entity.columnIndex(of: relationship.name), holder.value(at: column) == .object(partnerID) {
                    object.setValue(.null, at: c)
                    continue
                }
            }
            partner.setValue(.object(object.objectID), at: back)
        }
    }
}

/// A row's write to an object that existed before it: the object's values before and after the row.
struct _Write {
    let line: Int
    /// The target that updated the object (its update is counted there), or -1.
    var target: Int
    /// Whether the update counted as a repeated key of this file.
    var repeatsKey: Bool
    /// Whether the row was rejected and the write taken back (its counts too).
    var isTakenBack = false
    /// The object's values before the row, while the row is being written.
    var before: ContiguousArray<Value>
    /// The columns the row changed, with their values before and after it.
    var changes: [(column: Int, before: Value, after: Value)] = []
    /// The columns the row set (to a new value, or, by an update, to any).
    var setColumns: [Int] = []

    /// The change the row made to column `c`, if any.
    func change(of c: Int) -> (before: Value, after: Value)? {
        changes.first { $0.column == c }.map { ($0.before, $0.after) }
    }

    /// About how much memory the write holds: its entries, and a long string's or data's heap block
    /// with the allocator's rounding and the pages such long-lived blocks keep from being returned
    /// (measured: about twice the bytes themselves).
    var estimatedBytes: Int {
        func bytes(_ value: Value) -> Int {
            switch value {
            case .string(let text): return text.utf8.count > 15 ? 2 * (48 + text.utf8.count) : 24
            case .data(let data): return 2 * (48 + data.count)
            default: return 24
            }
        }
        return 256 + setColumns.count * 8 + changes.reduce(0) { $0 + 8 + bytes($1.before) + bytes($1.after) }
    }
}
