import CSVStream
import Foundation
import ManagedStore
import Measure

/// Forward references kept until the file has been read: moved to disk past a limit, then set, or their
/// rows rejected, in line order.
extension _TargetWriter {
    /// The objects of a forward reference's row, by target (nil: none, or it updated an existing one).
    func rowObjects(of reference: _ForwardReference) -> ArraySlice<ObjectID?> {
        forwardObjects[reference.objectsAt..<(reference.objectsAt + targetCount)]
    }

    /// Keeps this row's forward references (the slots were left empty) until the file has been read.
    func deferForwardReferences(_ row: _RowChunk.Row) {
        var kept = false
        for reference in rowForward {
            let (t, r) = (reference.target, reference.relationship)
            guard settlesEarly(t, r), insertedInRow[t], let object = objects[t] else {
                kept = true
                continue
            }
            let id = nextEarly
            nextEarly += 1
            let entry = keys[t] != nil || keyThrough[t] >= 0 ? entryInRow[t] : -1
            let hash = Self.hash(of: reference.key)
            early[id] = _EarlyForward(key: reference.key, target: t, relationship: r, line: row.line,
                                      byteOffset: row.byteOffset, byteCount: row.byteCount, entry: entry, unsaved: object,
                                      nextWaiting: earlyWaiting[hash] ?? -1,
                                      nextSameEntry: entry >= 0 ? earlyByEntry[t][entry] ?? -1 : -1)
            earlyUnsaved.append(id)
            earlyWaiting[hash] = id
            if entry >= 0 { earlyByEntry[t][entry] = id }
        }
        guard kept else {
            rowForward.removeAll(keepingCapacity: true)
            return
        }
        let objectsAt = forwardObjects.count
        forwardObjects.append(contentsOf: repeatElement(nil, count: targetCount))
        unsavedForward.append((objectsAt, (0..<targetCount).map { insertedInRow[$0] ? objects[$0] : nil }))
        for reference in rowForward where !(settlesEarly(reference.target, reference.relationship) && insertedInRow[reference.target] && objects[reference.target] != nil) {
            forward.append(_ForwardReference(key: reference.key, target: UInt16(reference.target),
                                             relationship: UInt16(reference.relationship), objectsAt: objectsAt,
                                             line: row.line, byteOffset: row.byteOffset, byteCount: row.byteCount))
        }
        rowForward.removeAll(keepingCapacity: true)
    }

    /// Counts a forward key that never came, of a row whose relationship a later row with the same key set
    /// again (so the row stood): ``warnVoidedMissingKeys()`` names the first.
    func noteVoidedMissingKey(_ key: Value, _ t: Int, _ r: Int, line: Int) {
        voidedMissingKeys += 1
        if let first = firstVoidedMissingKey, first.line < line { return }
        firstVoidedMissingKey = (line, relationshipNames[t][r], key)
    }

    /// The summary's word on ``noteVoidedMissingKey(_:_:_:line:)``'s keys: a typo there would otherwise
    /// pass unseen, since the row that named it was overridden rather than rejected.
    func warnVoidedMissingKeys() {
        guard let first = firstVoidedMissingKey else { return }
        let count = voidedMissingKeys
        session.warnings.append("\(file.displayPath): \(count) row\(count == 1 ? "" : "s") named a key no row makes (line \(first.line): \(first.relationship) \(_ImportSession.describe(first.key))\(count > 1 ? ", …" : "")), "
            + (count == 1 ? "but a later row with the same key set that relationship again, so it stood rather than being rejected: check that key"
                          : "but later rows with the same keys set those relationships again, so they stood rather than being rejected: check those keys"))
        voidedMissingKeys = 0
        firstVoidedMissingKey = nil
    }

    /// Moves the forward references (every row's objects saved) to ``spilledForward``, in line order, with
    /// the key entry through which a later upsert voids each; memory starts over.
    func spillForward() throws(ImportError) {
        do {
            if spilledForward == nil { spilledForward = try _SpilledForward(targetCount: targetCount) }
            var entries = [Int](repeating: -1, count: forward.count)
            for t in 0..<targetCount {
                for (entry, first) in forwardByEntry[t] {
                    var i = first
                    while i < forward.count && forward[i].line == forward[first].line {
                        if forward[i].target == t { entries[i] = entry }
                        i += 1
                    }
                }
                forwardByEntry[t] = [:]
            }
            for (i, reference) in forward.enumerated() where !reference.isVoid {
                try spilledForward!.append(reference, entry: entries[i], objects: rowObjects(of: reference))
            }
        } catch {
            throw ImportError(.store, reason: "cannot keep forward keys in a temporary file: \(error)",
                              hint: "Nothing was written: \(session.targetUntouched). Check the space in the temporary directory (TMPDIR).")
        }
        forward.removeAll(keepingCapacity: true)
        resetForwardLines()
        forwardObjects.removeAll(keepingCapacity: true)
    }

    /// Forgets ``forwardLines``: ``forward`` changed other than by appending.
    func resetForwardLines() {
        forwardLines = [:]
        forwardLinesCovered = 0
    }

    /// With references in ``spilledForward``: one pass over them and ``forward``, merged in line order.
    /// In abort mode a key no row made stops the import at the first row naming one, as the end-of-file
    /// path does; the others are set on the way (in abort mode no key leaves an index, and a stop leaves
    /// the store unwritten, so checking every key first changes nothing). Skip mode comes here only when
    /// every key is there and nothing was set aside to take back (``foundInOnePass(_:)``, whose entries it
    /// takes): the passes of ``resolveForwardReferences()`` would then reject nothing, and set the same.
    func settleSpilledForward(_ spilled: _SpilledForward, found: [Int32]? = nil) throws(ImportError) {
        session.settling = file
        defer { session.settling = nil }
        try save()
        relating = relatesSavedRows ? relationshipPlans.map { $0.map { _ in [] } } : nil
        relatingCount = 0
        try walkMerged(Array(forward.indices), spilled: spilled, skippingLoaded: false) { (item) throws(ImportError) in
            let reference: _ForwardReference, id: ObjectID?
            var entry: Int?
            switch item {
            case .disk(let (onDisk, primaryKeys, number)):
                reference = onDisk
                if let found, found[number - 1] >= 0 { entry = Int(found[number - 1]) }
                id = spilledObject(primaryKeys, reference.target)
            case .memory(let i):
                reference = forward[i]
                if reference.isVoid {
                    let (t, r) = (Int(reference.target), Int(reference.relationship))
                    if relationshipPlans[t][r].index.find(reference.key) == nil { noteVoidedMissingKey(reference.key, t, r, line: reference.line) }
                    return
                }
                id = forwardObjects[reference.objectsAt + reference.target]
            }
            let (t, r) = (reference.target, reference.relationship)
            if file.rejectedLines.contains(reference.line) { return }
            guard let entry = entry ?? relationshipPlans[t][r].index.find(reference.key) else {
                // Skip mode comes here only when every key was found (foundInOnePass(_:)).
                guard !takesBackRejectedRows else {
                    throw ImportError(.store, reason: "internal error: the forward key \(_ImportSession.describe(reference.key)) of line \(reference.line) was found, then not")
                }
                try session.reject(file, line: reference.line, missingKeyFailure(reference.key, t, r), ownKey: true,
                                   raw: { rawBytes(line: reference.line, byteOffset: reference.byteOffset, byteCount: reference.byteCount) })
                return
            }
            guard let id else { return }
            if relating != nil {
                relating![t][r].append((id, relationshipPlans[t][r].index.objectID(entry)))
                relatingCount += 1
                if relatingCount >= batchSize { try relateSaved() }
                return
            }
            try setForward(id, t, r, to: entry)
            if changes >= batchSize { try saveRemovals(findingRows: false) }
        }
        try relateSaved()
        relating = nil
        try saveRemovals()
        clearForward()
    }

    /// Whether every relationship of the file's targets can be set on saved rows directly
    /// (``ManagedObjectContext/canRelateSaved(by:of:)``): a many-to-one whose inverse needs nothing loaded
    /// or validated. Then the forward references settled after the file was read skip the objects: no
    /// row read back per reference, and one UPDATE each.
    var relatesSavedRows: Bool {
        let context = session.context
        return relationshipPlans.indices.allSatisfy { t in
            relationshipPlans[t].indices.allSatisfy { r in
                let plan = relationshipPlans[t][r], name = relationshipNames[t][r]
                return !plan.isOneToOne && plan.index.entity.id == entities[t].destinationID(of: name)
                    && context.canRelateSaved(by: name, of: entities[t])
            }
        }
    }

    /// Writes the references gathered in ``relating`` (``ManagedObjectContext/relateSaved(_:by:of:)``).
    func relateSaved() throws(ImportError) {
        guard relating != nil, relatingCount > 0 else { return }
        let start = Clock.now()
        defer { session.saveSeconds += Clock.now() - start }
        for t in relating!.indices {
            for r in relating![t].indices where !relating![t][r].isEmpty {
                do { try session.context.relateSaved(relating![t][r], by: relationshipNames[t][r], of: entities[t]) } catch {
                    throw ImportError(.store, reason: "setting \(entities[t].name).\(relationshipNames[t][r]) failed: \(error)",
                                      hint: "Nothing was written: \(session.targetUntouched).")
                }
                relating![t][r].removeAll(keepingCapacity: true)
            }
        }
        relatingCount = 0
    }

    /// Skip mode: whether every forward key (in ``forward`` and `spilled`) of a row not set aside is
    /// there, and no removal is under way, so the references can be set in one pass from the file. If so,
    /// the key entries of the spilled ones, by ``_SpilledForward/Reference`` number - 1 (-1: a row set
    /// aside, or void), 4 bytes each: nothing
    /// leaves an index before they are set, and a second lookup in an index past 32,768 keys reads the
    /// key back from the store (200,000 employees: 1.7 s without them, 1.5 s with).
    func foundInOnePass(_ spilled: _SpilledForward) throws(ImportError) -> [Int32]? {
        guard doomedLines.isEmpty, cascadedIDs.isEmpty, cascadedKeyValues.isEmpty, cascadedKeys.isEmpty,
              orphanCandidates.isEmpty, keptForLaterRows.isEmpty else { return nil }
        for reference in forward where !reference.isVoid && !file.rejectedLines.contains(reference.line) {
            if relationshipPlans[reference.target][reference.relationship].index.find(reference.key) == nil { return nil }
        }
        var found = [Int32](repeating: -1, count: spilled.count)
        do {
            let cursor = try spilled.cursor(keyColumns: keyColumns)
            while let (reference, _, number) = try cursor.next() {
                if file.rejectedLines.contains(reference.line) { continue }
                guard let entry = relationshipPlans[reference.target][reference.relationship].index.find(reference.key) else { return nil }
                // Entries past Int32 (two billion keys) are looked up again.
                found[number - 1] = Int32(exactly: entry) ?? -1
            }
        } catch {
            throw readBackFailure(error)
        }
        return found
    }

    /// Skip mode, when some forward key never came or rows are being taken back: the references on disk
    /// stay there. The first pass streams them, keeping per reference the entry it found (4 bytes) and its
    /// key's hash (16 bytes); only the rows the passes act on (a key missing, a key removed since, an heir
    /// of a removed row's object) come back into ``forward`` (``loadLine(_:)``). Reading them all back
    /// took about 170 bytes a reference.
    func startOnDisk(_ spilled: _SpilledForward) throws(ImportError) {
        do { try spilled.indexLines() } catch {
            throw ImportError(.store, reason: "cannot index the forward keys kept in a temporary file: \(error)",
                              hint: "Nothing was written: \(session.targetUntouched).")
        }
        diskForward = _DiskForward(spilled: spilled)
    }

    /// Brings the references of the row at `line` back from disk into ``forward`` (once), with the
    /// entries the first pass found for them, their row's objects in new slots; returns where they are.
    @discardableResult
    func loadLine(_ line: Int) throws(ImportError) -> Range<Int> {
        guard let disk = diskForward else { return 0..<0 }
        if let loaded = disk.loadedAt[line] { return loaded }
        do { return bringBack(try disk.spilled.references(atLine: line, keyColumns: keyColumns), line: line) } catch {
            throw readBackFailure(error)
        }
    }

    /// Brings back the row reference `number` belongs to, as ``loadLine(_:)``, in one query; returns
    /// where its references are, or nothing when the row was back already.
    func loadRow(ofReference number: Int) throws(ImportError) -> Range<Int> {
        guard let disk = diskForward else { return 0..<0 }
        let references: [_SpilledForward.Reference]
        do { references = try disk.spilled.references(sharingLineWith: number, keyColumns: keyColumns) } catch {
            throw readBackFailure(error)
        }
        guard let line = references.first?.reference.line, disk.loadedAt[line] == nil else { return 0..<0 }
        return bringBack(references, line: line)
    }

    /// Appends a row's references read from disk to ``forward``.
    func bringBack(_ references: [_SpilledForward.Reference], line: Int) -> Range<Int> {
        let disk = diskForward!
        let start = forward.count
        if let first = references.first {
            let objectsAt = forwardObjects.count
            for t in 0..<targetCount { forwardObjects.append(spilledObject(first.primaryKeys, t)) }
            for (reference, _, number) in references {
                disk.noteLoaded(hash: Self.hash(of: reference.key), index: forward.count)
                forward.append(reference.placed(at: objectsAt))
                forwardFound.append(Int(disk.found[number - 1]))
            }
        }
        disk.loadedAt[line] = start..<forward.count
        return start..<forward.count
    }

    /// The object a spilled row inserted for target `t` (nil: none).
    func spilledObject(_ primaryKeys: [Int64], _ t: Int) -> ObjectID? {
        primaryKeys[t] == 0 ? nil : ObjectID(entityID: entities[t].id, primaryKey: primaryKeys[t])
    }

    /// A failure to read the forward keys kept in a temporary file.
    func readBackFailure(_ error: any Error) -> ImportError {
        ImportError(.store, reason: "cannot read back the forward keys kept in a temporary file: \(error)",
                    hint: "Nothing was written: \(session.targetUntouched).")
    }

    /// The index in ``forward`` of a reference of the row at `line`, brought back from disk if it is there.
    func forwardIndex(ofLine line: Int) throws(ImportError) -> Int? {
        if forwardLinesCovered > forward.count { resetForwardLines() }
        while forwardLinesCovered < forward.count {
            let covered = forward[forwardLinesCovered].line
            if forwardLines[covered] == nil { forwardLines[covered] = forwardLinesCovered }
            forwardLinesCovered += 1
        }
        if let i = forwardLines[line] { return i }
        let loaded = try loadLine(line)
        return loaded.isEmpty ? nil : loaded.lowerBound
    }

    /// Walks the references in `spilled` (but for rows brought back, when `skippingLoaded`) and those in
    /// ``forward`` at `memory` (indexes in line order), merged in line order, a line's on disk first.
    func walkMerged(_ memory: [Int], spilled: _SpilledForward?, skippingLoaded: Bool,
                            _ body: (_MergedReference) throws(ImportError) -> Void) throws(ImportError) {
        var cursor: _SpilledForward.Cursor?
        if let spilled {
            do { cursor = try spilled.cursor(keyColumns: keyColumns) } catch { throw readBackFailure(error) }
        }
        func read() throws(ImportError) -> _SpilledForward.Reference? {
            guard let cursor else { return nil }
            do {
                while let next = try cursor.next() {
                    if !skippingLoaded || diskForward?.loadedAt[next.reference.line] == nil { return next }
                }
                return nil
            } catch {
                throw readBackFailure(error)
            }
        }
        var next = try read()
        var m = 0
        while true {
            if let onDisk = next, m >= memory.count || onDisk.reference.line <= forward[memory[m]].line {
                try body(.disk(onDisk))
                next = try read()
            } else if m < memory.count {
                try body(.memory(memory[m]))
                m += 1
            } else {
                return
            }
        }
    }

    /// The indexes of ``forward`` in line order (rows brought back from disk come after the others there).
    var forwardInLineOrder: [Int] {
        guard let disk = diskForward, !disk.loadedAt.isEmpty else { return Array(forward.indices) }
        return forward.indices.sorted { (forward[$0].line, $0) < (forward[$1].line, $1) }
    }

    /// Per target and relationship, the column (and its entity) whose values the forward keys are.
    var keyColumns: [[(column: Column, entity: Entity)]] {
        relationshipPlans.map { plans in plans.map { ($0.index.entity.columns[$0.index.ordinal], $0.index.entity) } }
    }

    /// The failure of a row whose forward key `key` (target `t`, relationship `r`) no row made.
    func missingKeyFailure(_ key: Value, _ t: Int, _ r: Int) -> _RowFailure {
        let relationship = relationshipPlans[t][r]
        let named = "no \(relationship.index.entity.name) has \(relationship.index.attribute) \(_ImportSession.describe(key))"
        return _RowFailure(field: relationship.field, entity: entities[t].name, attribute: relationshipNames[t][r],
                           reason: wasSetAside(key, in: relationship.index)
                               ? named + " but in rows set aside"
                               : named + relationship.index.spacedKeyNote(key) + " in this file or an earlier one" + laterFillerNote(t, r, key: key),
                           value: key.description)
    }

    /// Sets forward relationship `r` of target `t` on object `id` to the object of key entry `entry`.
    func setForward(_ id: ObjectID, _ t: Int, _ r: Int, to entry: Int) throws(ImportError) {
        let relationship = relationshipPlans[t][r]
        let object = try session.existing(id)
        if relationship.isOneToOne {
            try setOneToOne(object, t, r, .object(relationship.index.objectID(entry)))
        } else {
            object.setValue(.object(relationship.index.objectID(entry)), at: relationship.ordinal)
            changes += 1
        }
    }

    /// Once the file has been read: sets every forward reference whose key a later row made, and rejects
    /// the rows whose keys no row made (aborting, or removing the objects those rows inserted and
    /// writing them to the rejects file; a row pointing at a removed object is then rejected in turn).
    func resolveForwardReferences() throws(ImportError) {
        defer { warnVoidedMissingKeys() }
        if !early.isEmpty {
            try save()
            try settleEarlyForward()
            takeBackEarlyForward()
        }
        if let spilled = spilledForward {
            spilledForward = nil
            // Skip mode takes one pass too when nothing is rejected; else the passes that reject rows and
            // take them back read the references from disk, bringing back the rows they act on.
            if !takesBackRejectedRows {
                try settleSpilledForward(spilled)
                return
            }
            if let found = try foundInOnePass(spilled) {
                try settleSpilledForward(spilled, found: found)
                return
            }
            try startOnDisk(spilled)
        }
        guard !forward.isEmpty || diskForward != nil else { return }
        session.settling = file
        defer { session.settling = nil }
        try save()
        var rejectedLines = Set<Int>()
        var settled = false
        // From the second pass: the forward references by their key's hash, to look up only the keys
        // removed from an index since the last pass began (a hash shared by another key costs a lookup).
        var byHash: [(hash: UInt64, reference: Int)]?
        defer { vacatedKeys = nil }
        // The entries the first pass found, kept for setting the relationships while no index lost one: a
        // lookup of a key whose bytes an index dropped reads the key back from the store (half the time
        // forward keys took, measured on 200,000).
        forwardFound = [Int](repeating: -1, count: forward.count)
        // References past this index came back from disk (``loadLine(_:)``).
        let memoryCount = forward.count
        var firstPass = true
        let removalsBefore = relationshipPlans.joined().reduce(0) { $0 + $1.index.removals }
        func check(_ i: Int) throws(ImportError) {
            if firstPass, forward[i].isVoid, !file.rejectedLines.contains(forward[i].line) {
                let (t, r) = (Int(forward[i].target), Int(forward[i].relationship))
                if relationshipPlans[t][r].index.find(forward[i].key) == nil { noteVoidedMissingKey(forward[i].key, t, r, line: forward[i].line) }
            }
            guard !forward[i].isVoid && !rejectedLines.contains(forward[i].line) && !file.rejectedLines.contains(forward[i].line) else { return }
            let reference = forward[i]
            let relationship = relationshipPlans[reference.target][reference.relationship]
            if let entry = relationship.index.find(reference.key) {
                if firstPass { forwardFound[i] = entry }
                return
            }
            if rejectedLines.isEmpty {
                // Delete rules look up who points at each removed object: without the foreign-key
                // indexes (built after the load) every lookup would scan the table.
                do { try session.store.createIndexes(relationshipsOnly: true) } catch {
                    throw ImportError(.store, reason: "cannot index the relationships before removing rejected rows: \(error)")
                }
            }
            settled = false
            rejectedLines.insert(reference.line)
            try session.reject(file, line: reference.line, missingKeyFailure(reference.key, reference.target, reference.relationship),
                               ownKey: true, raw: { rawBytes(line: reference.line, byteOffset: reference.byteOffset, byteCount: reference.byteCount) })
            // What the row wrote to earlier objects is taken back before its own objects go: a delete
            // rule of theirs must not reach an object the row had taken from another.
            if let written = writesByLine[reference.line] {
                try takeBackRejectedWrites(of: written, leaving: Set(rowObjects(of: reference).compactMap { $0 }))
            }
            try removeObjects(of: reference)
            if changes >= batchSize {
                try forgetCascaded()
                try saveRemovals(findingRows: false)
            }
        }
        while !settled {
            settled = true
            if firstPass {
                vacatedKeys = []
                // Every reference, in line order: those on disk looked up as they stream by, a row brought
                // back (with its others) when one of its keys is missing.
                let inMemory = Array(forward.indices)
                var handled = -1
                try walkMerged(inMemory, spilled: diskForward?.spilled, skippingLoaded: false) { (item) throws(ImportError) in
                    switch item {
                    case .memory(let i):
                        try check(i)
                    case .disk(let (reference, _, number)):
                        let line = reference.line
                        guard !rejectedLines.contains(line) && !file.rejectedLines.contains(line) else { return }
                        if let loaded = diskForward!.loadedAt[line] {
                            // Brought back since the walk began (an heir's row): checked from memory, once.
                            if handled != line {
                                handled = line
                                for i in loaded { try check(i) }
                            }
                            return
                        }
                        if let entry = relationshipPlans[reference.target][reference.relationship].index.find(reference.key) {
                            diskForward!.found[number - 1] = Int32(exactly: entry) ?? -1
                            diskForward!.byHash.append((Self.hash(of: reference.key), Int32(number)))
                            return
                        }
                        handled = line
                        for i in try loadLine(line) { try check(i) }
                    }
                }
                if let disk = diskForward { disk.byHash.sort { $0.hash < $1.hash } }
            } else {
                var order: [Int] = []
                let vacated = vacatedKeys ?? []
                vacatedKeys = []
                // On disk: the rows of references whose key hash is among those removed come back first.
                if let disk = diskForward {
                    for hash in vacated {
                        var low = disk.byHash._partitionPoint { $0.hash >= hash }
                        while low < disk.byHash.count && disk.byHash[low].hash == hash {
                            // A row already back is found by its hash in memory below.
                            order += try loadRow(ofReference: Int(disk.byHash[low].number))
                            low += 1
                        }
                    }
                }
                // In memory: those the file left there, by a sorted list made once, and rows brought back.
                let sorted = byHash ?? (0..<memoryCount).map { (Self.hash(of: forward[$0].key), $0) }.sorted { $0.hash < $1.hash }
                byHash = sorted
                for hash in vacated {
                    var low = sorted._partitionPoint { $0.hash >= hash }
                    while low < sorted.count && sorted[low].hash == hash {
                        order.append(sorted[low].reference)
                        low += 1
                    }
                    if let diskForward { order += diskForward.loaded(withHash: hash) }
                }
                for i in Set(order).sorted(by: { (forward[$0].line, $0) < (forward[$1].line, $1) }) { try check(i) }
            }
            firstPass = false
            if settled {
                // Cascade rules may have taken objects that forward keys name: those rows go in turn.
                let removed = cascadedIDs.count
                try forgetCascaded()
                if cascadedIDs.count != removed { settled = false }
            }
        }
        try forgetCascaded()
        try rejectCascadedRows()
        while try removeOrphanedPartners() {
            try forgetCascaded()
            try rejectCascadedRows()
        }
        // What rows rejected in a chain since wrote to objects that stay is taken back too, before the
        // accepted rows' forward keys are set (those come after every row, as without the rejected ones).
        try takeBackRejectedWrites(of: Array(writes.keys), leaving: [])
        if !cascadedKeys.isEmpty {
            let shown = cascadedKeys.prefix(5).joined(separator: ", ") + (cascadedKeys.count > 5 ? ", …" : "")
            // Their rows stand, which the store would not show: a run without the rejected rows keeps them.
            session.needsRerun = true
            session.warnings.append("\(file.displayPath): removing rejected rows also removed \(cascadedKeys.count) object\(cascadedKeys.count == 1 ? "" : "s") through Cascade delete rules (\(shown)); they have no key to find their rows by, so those rows are not in the rejects file, and no later row links to them")
            cascadedKeys = []
        }
        let foundStands = rejectedLines.isEmpty && relationshipPlans.joined().reduce(0) { $0 + $1.index.removals } == removalsBefore
        func set(_ reference: _ForwardReference, _ id: ObjectID?, found: Int) throws(ImportError) {
            guard !reference.isVoid && !rejectedLines.contains(reference.line) && !file.rejectedLines.contains(reference.line) else { return }
            let relationship = relationshipPlans[reference.target][reference.relationship]
            guard let id, !cascadedIDs.contains(id),
                  let entry = foundStands && found >= 0 ? found : relationship.index.find(reference.key) else { return }
            try setForward(id, reference.target, reference.relationship, to: entry)
            if changes >= batchSize { try saveRemovals(findingRows: false) }
        }
        try walkMerged(forwardInLineOrder, spilled: diskForward?.spilled, skippingLoaded: true) { (item) throws(ImportError) in
            switch item {
            case .memory(let i):
                try set(forward[i], forwardObjects[forward[i].objectsAt + forward[i].target], found: forwardFound[i])
            case .disk(let (reference, primaryKeys, number)):
                try set(reference, spilledObject(primaryKeys, reference.target), found: Int(diskForward!.found[number - 1]))
            }
        }
        try saveRemovals()
        // Chains may since have rejected every later row an object was kept for: it goes now, and the rows
        // naming it follow, as do keyed partners no row standing made (a removal may reject more rows, so
        // until nothing changes).
        while true {
            let keptRemoved = try removeKeptObjectsOfRejectedRows()
            let orphansRemoved = try removeOrphanedPartners()
            guard keptRemoved || orphansRemoved else { break }
            try forgetCascaded()
            try saveRemovals()
        }
        clearForward()
    }

    /// Forgets the file's forward references and what was kept to take rows back once they were settled.
    func clearForward() {
        forward = []
        resetForwardLines()
        forwardObjects = []
        forwardFound = []
        diskForward = nil
        for t in 0..<targetCount { forwardByEntry[t] = [:] }
        writes = [:]
        writesByLine = [:]
        unsavedInWrites = []
        linesByRowObject = [:]
        doomedLines = []
        unkeptWrites = []
        chainWriteBytes = 0
    }
}
