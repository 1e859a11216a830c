import CSVStream
import Foundation
import ManagedStore

/// Writes converted rows of one file into the context: relationship keys become objects, each target's
/// object is inserted (or, when its key was seen, the existing object updated), links are set on both
/// sides, and every batch is saved.
final class _TargetWriter {
    private unowned let session: _ImportSession
    private let file: _FilePlan
    private let context: ManagedObjectContext
    private let targets: [_TargetPlan]
    private let targetCount: Int
    private let batchSize: Int
    private let reportedLines: Int
    private let position: Int32
    private let relationshipPlans: [[_RelationshipPlan]]
    private let relationshipNames: [[String]]
    private let entities: [Entity]
    private let keys: [_KeyIndex?]
    /// Per target, the earlier target whose linked object it is (``_TargetPlan/keyThrough``), or -1.
    private let keyThrough: [Int]
    private let populates: [[_KeyIndex]]
    private let mappedOrdinals: [[Int]]
    /// Per target, its one-to-one relationships (positions in its relationship plans).
    private let oneToOne: [[Int]]
    private let links: [_LinkPlan?]
    private let hasLinks: Bool
    /// Whether a link has a required side: a row's link may then take a partner its holder requires.
    private let hasRequiredLinks: Bool
    private let hasRelationships: Bool

    // Touched for every row by this thread alone: no dynamic exclusivity checks.
    @exclusivity(unchecked) private var rowsRead = 0
    @exclusivity(unchecked) private var blankRows = 0
    @exclusivity(unchecked) private var rowsImported = 0
    /// Objects removed through Cascade rules with rejected rows that no key leads back to their rows,
    /// described for the summary.
    private var cascadedKeys: [String] = []
    /// The keys of objects removed with rejected rows (by Cascade rules, or because they required or
    /// named such an object), by entity and key attribute, with why: their rows are found again in the
    /// files and set aside too.
    private var cascadedKeyValues: [_IndexKey: [[UInt8]: String]] = [:]
    /// Objects removed with rejected rows: forward references of their rows are not set, nor removed again.
    private var cascadedIDs = Set<ObjectID>()
    /// While forward references are settled: the hashes of the values removed from indexes since the
    /// pass began. Only a forward key among them can have gone missing since it was found, so a chain of N
    /// rejections does not look every forward key up N times.
    private var vacatedKeys: Set<UInt64>?
    /// Removed objects whose pointers (objects naming them in a relationship column) are not looked for yet.
    private var unlinkWork: [ManagedObject] = []
    /// Objects whose relationship was moved to the next holder of a value, by that holder: the store
    /// does not show the move until the next save.
    private var repointed: [ObjectID: [ObjectID]] = [:]
    private var unlinking = false
    /// The to-one columns that link targets of one row one-to-one (this file's and earlier ones'), by
    /// entity: the ones leading to a partner without a key of its own (none, or found through the link),
    /// which exists only with the removed object. A partner with its own key stays: other rows fill it.
    private lazy var linkedColumns: [String: [Int]] = {
        var found: [String: Set<Int>] = [:]
        for plan in session.plan.files where plan.position <= file.position && plan.join == nil {
            for target in plan.targets {
                guard let link = target.link else { continue }
                let other = plan.targets[link.other]
                // Keyed by the same column as its partner (a WellDetail with its WellSummary by uwi): the
                // same rows fill both, so it goes too.
                func keyField(_ plan: _TargetPlan) -> Int? {
                    plan.key.flatMap { key in plan.fields.first { $0.ordinal == key.ordinal }?.field }
                }
                let sameKey = (keyField(target) != nil && keyField(target) == keyField(other)) || target.keyThrough == link.other
                if let ordinal = link.ordinal, other.key == nil || sameKey { found[target.entity.name, default: []].insert(ordinal) }
                if let inverse = link.inverseOrdinal, target.key == nil || sameKey { found[other.entity.name, default: []].insert(inverse) }
            }
        }
        return found.mapValues { $0.sorted() }
    }()
    /// The other link columns of ``linkedColumns``' kind: those leading to a partner with a key of its own,
    /// which other rows may fill too. It goes only when no row that stands has its key
    /// (``removeOrphanedPartners()``).
    private lazy var keyedLinkedColumns: [String: [Int]] = {
        var found: [String: Set<Int>] = [:]
        for plan in session.plan.files where plan.position <= file.position && plan.join == nil {
            for target in plan.targets {
                guard let link = target.link else { continue }
                if let ordinal = link.ordinal, !(linkedColumns[target.entity.name] ?? []).contains(ordinal) {
                    found[target.entity.name, default: []].insert(ordinal)
                }
                let other = plan.targets[link.other]
                if let inverse = link.inverseOrdinal, !(linkedColumns[other.entity.name] ?? []).contains(inverse) {
                    found[other.entity.name, default: []].insert(inverse)
                }
            }
        }
        return found.mapValues { $0.sorted() }
    }()
    /// Keyed link partners of removed objects, which may have no row left that stands.
    private var orphanCandidates: [ObjectID] = []
    /// The one-to-one link columns of this file's and earlier files' targets, by the entity they point at:
    /// the column's entity and ordinal, the pointed-at side's column back, and whether the column is optional.
    private lazy var linkColumnsTo: [String: [(source: Entity, ordinal: Int, back: Int, name: String, isOptional: Bool)]] = {
        var found: [String: [(source: Entity, ordinal: Int, back: Int, name: String, isOptional: Bool)]] = [:]
        func add(_ source: Entity, _ ordinal: Int, _ destination: Entity, _ back: Int) {
            guard let relationship = source.columns[ordinal].relationship,
                  !(found[destination.name] ?? []).contains(where: { $0.source.name == source.name && $0.ordinal == ordinal }) else { return }
            found[destination.name, default: []].append((source, ordinal, back, relationship.name, relationship.isOptional))
        }
        for plan in session.plan.files where plan.position <= file.position && plan.join == nil {
            for target in plan.targets {
                guard let link = target.link, let ordinal = link.ordinal, let inverse = link.inverseOrdinal else { continue }
                let other = plan.targets[link.other].entity
                add(target.entity, ordinal, other, inverse)
                add(other, inverse, target.entity, ordinal)
            }
        }
        return found
    }()
    /// Relationships the import fills from a column (this file's and earlier ones'), by destination table.
    private lazy var filledRelationships: [String: [(source: Entity, name: String, ordinal: Int, column: String, destination: _KeyIndex)]] = {
        var found: [String: [(source: Entity, name: String, ordinal: Int, column: String, destination: _KeyIndex)]] = [:]
        for plan in session.plan.files where plan.position <= file.position && plan.join == nil {
            for target in plan.targets {
                for (name, relationship) in zip(target.relationshipNames, target.relationships) {
                    let column = target.entity.columns[relationship.ordinal].columnName
                    // Cascade and Deny rules act themselves when the destination goes (its pointers go too,
                    // or the import stops); Nullify, No Action and a missing inverse would keep the row.
                    let inverse = target.entity.relationship(named: name)?.inverse.flatMap { relationship.index.entity.relationship(named: $0) }
                    if let rule = inverse?.deleteRule, rule == .cascade || rule == .deny { continue }
                    guard !(found[relationship.index.entity.tableName] ?? []).contains(where: { $0.source.name == target.entity.name && $0.name == name }) else { continue }
                    found[relationship.index.entity.tableName, default: []].append((target.entity, name, relationship.ordinal, column, relationship.index))
                }
            }
        }
        return found
    }()
    @exclusivity(unchecked) private var inserted: [Int]
    @exclusivity(unchecked) private var updated: [Int]
    @exclusivity(unchecked) private var duplicates: [Int]
    @exclusivity(unchecked) private var duplicateLines: [[Int]]
    @exclusivity(unchecked) private var pending: [_PendingKey]
    @exclusivity(unchecked) private var changes: Int
    @exclusivity(unchecked) private var rowValues: [ContiguousArray<Value>]
    @exclusivity(unchecked) private var objects: [ManagedObject?]
    /// Per target, the relationships that point at an object this row makes.
    @exclusivity(unchecked) private var sameRow: [[Int]]
    /// Per target, whether this row inserted its object (rather than updating one a key named).
    @exclusivity(unchecked) private var insertedInRow: [Bool]
    /// Per keyed target, this row's key entry and whether the key repeats one of this file.
    @exclusivity(unchecked) private var entryInRow: [Int]
    @exclusivity(unchecked) private var duplicateInRow: [Bool]
    /// Keys of this row naming objects further down the file: (target, relationship, key).
    @exclusivity(unchecked) private var rowForward: [(target: Int, relationship: Int, key: Value)] = []
    /// Forward references of the file so far, resolved when it has been read.
    private var forward: [_ForwardReference] = []
    /// Per row with forward references, the object each target inserted (nil: none, or it updated an
    /// existing one), `targetCount` slots a row: its references share them (``_ForwardReference/objectsAt``).
    /// Set at the save.
    private var forwardObjects: [ObjectID?] = []
    /// Rows with forward references whose objects are not saved yet: their IDs are read after the next save.
    private var unsavedForward: [(objectsAt: Int, objects: [ManagedObject?])] = []
    /// Per target, key entry → its pending forward reference (a later row with the key replaces it).
    private var forwardByEntry: [[Int: Int]]
    /// The forward references moved out of memory (past ``forwardKeyLimit``), all from lines before those
    /// in ``forward`` but for abort mode's early ones whose key never came.
    private var spilledForward: _SpilledForward?
    /// While the file's forward references are settled in skip mode with some on disk: what the passes
    /// keep of those (``startOnDisk(_:)``).
    private var diskForward: _DiskForward?
    /// While forward references are settled: per reference in ``forward``, the key entry the first pass
    /// found (-1: none).
    private var forwardFound: [Int] = []
    private lazy var forwardKeyLimit = session.options.forwardKeyLimit
    /// In abort mode, forward references set as soon as their key comes (in the same batch, before the
    /// insert; else after the next save) rather than once the file has been read, and then forgotten:
    /// memory holds only the keys still to come, so a file listing employees before their managers stays
    /// flat (``settlesEarly(_:_:)`` says which references).
    private var early: [Int: _EarlyForward] = [:]
    private var nextEarly = 0
    /// Whether this row's forward keys may wait in ``early``: while fewer than
    /// ``ImportOptions/earlyForwardLimit`` wait. Past it (keys that come far later, such as every manager
    /// listed at the end), the end-of-file list, smaller a key and moved to disk past its own limit, takes
    /// them (measured: 200,000 employees naming the last 1,000 rows took 150 MB all in ``early``, 93 MB
    /// with a limit of 65,536, 55 MB with 16,384 and the end-of-file list moved to disk).
    private var earlyOpen = true
    private lazy var earlyLimit = session.options.earlyForwardLimit
    /// The early references whose key has not come, by the key's hash: the first of a chain through
    /// ``_EarlyForward/nextWaiting`` (no array to allocate for each key).
    private var earlyWaiting: [UInt64: Int] = [:]
    /// The early references whose key came since the last save, with the key's entry.
    private var earlyReady: [(id: Int, entry: Int)] = []
    /// Per target, the entry of an early reference's own object → the first of its early references, a
    /// chain through ``_EarlyForward/nextSameEntry`` (a later row that updates the object sets the
    /// relationships itself and voids them).
    private var earlyByEntry: [[Int: Int]]
    /// Early references whose own object is not saved yet: its ID is read after the next save.
    private var earlyUnsaved: [Int] = []
    /// Per keyed target, the key entries whose object a row with forward keys inserted: such a row may be
    /// rejected once the file has been read (a bit an entry: a dictionary of lines took about 40 bytes).
    private var insertedByForwardRow: [_EntrySet]
    /// Per keyed target, key entry → the later rows that updated an object ``insertedByForwardRow`` holds.
    private var laterWriters: [[Int: [Int]]]
    /// Objects a rejected row inserted that were kept for the later rows that upserted them (target, the
    /// rejected row's line, those rows' lines): they go after all if every one of those rows is rejected.
    private var keptForLaterRows: [(id: ObjectID, target: Int, line: Int, writers: [Int])] = []
    /// Re-reads a record's original text for a reject found here (the reader has moved on).
    private var rawReader: CSVReader?
    /// Whether rejected rows are set aside (skip mode): only then can a row be rejected once the file has
    /// been read, and its changes to earlier objects need keeping.
    private let takesBackRejectedRows: Bool
    /// Per object that existed before it, the writes of rows that may be rejected once the file has been
    /// read (rows with forward keys, and in ``keepsChainWrites`` files rows touching earlier objects), and
    /// of every later row that wrote the same object: a rejected row's changes are taken back from them
    /// (``takeBackRejectedWrites(of:leaving:)``).
    private var writes: [ObjectID: [_Write]] = [:]
    /// The objects in ``writes`` by the line of a row that wrote them.
    private var writesByLine: [Int: [ObjectID]] = [:]
    /// The objects this row wrote so far: their values after the row are read when it ends.
    private var rowWrites: [ManagedObject] = []
    /// Unsaved objects whose temporary IDs ``writes`` holds (as a key or in a value): the next save gives
    /// them permanent ones, which the writes take.
    private var unsavedInWrites: [(id: ObjectID, object: ManagedObject)] = []
    /// Whether rows without forward keys keep their writes to earlier objects too: in skip mode, when the
    /// file fills a relationship from its own rows, a row may be rejected in a chain once the file has been
    /// read (it names, or is named by, an object removed with a rejected row).
    private let keepsChainWrites: Bool
    /// Whether this row keeps its writes to earlier objects.
    @exclusivity(unchecked) private var rowKeepsWrites = false
    /// About how many bytes the writes of rows without forward keys take: past
    /// ``ImportOptions/chainWriteBytes`` (``chainWriteBudget``) they keep no more.
    private var chainWriteBytes = 0
    private let chainWriteBudget: Int
    /// Objects a row wrote past ``chainWriteBudget`` without keeping the write: their history is not
    /// whole, so nothing of theirs is taken back.
    private var unkeptWrites = Set<ObjectID>()
    /// The lines of the rows that kept writes, by the object of each of their keyed targets: when that
    /// object is removed, those rows are rejected (found by its key), and their writes are taken back.
    private var linesByRowObject: [ObjectID: [Int]] = [:]
    /// Lines whose rows are about to be rejected (their object is being removed).
    private var doomedLines = Set<Int>()
    /// How many objects had writes taken back so far.
    private var objectsTakenBack = 0

    init(session: _ImportSession, file: _FilePlan, pending: [_PendingKey], changes: Int) {
        self.session = session
        self.file = file
        context = session.context
        targets = file.targets
        targetCount = targets.count
        batchSize = session.options.batchSize
        reportedLines = session.options.reportedLines
        position = Int32(file.position)
        relationshipPlans = targets.map(\.relationships)
        relationshipNames = targets.map(\.relationshipNames)
        entities = targets.map(\.entity)
        keys = targets.map(\.key)
        keyThrough = targets.map { $0.keyThrough ?? -1 }
        populates = targets.map(\.populates)
        mappedOrdinals = targets.map(\.mappedOrdinals)
        oneToOne = targets.map(\.oneToOne)
        links = targets.map(\.link)
        hasLinks = links.contains { $0 != nil }
        let plans = file.targets
        hasRequiredLinks = plans.contains { plan in
            guard let link = plan.link, let ordinal = link.ordinal, let inverse = link.inverseOrdinal else { return false }
            return plan.entity.columns[ordinal].relationship?.isOptional == false
                || plans[link.other].entity.columns[inverse].relationship?.isOptional == false
        }
        hasRelationships = relationshipPlans.contains { !$0.isEmpty }
        inserted = Array(repeating: 0, count: targetCount)
        updated = Array(repeating: 0, count: targetCount)
        duplicates = Array(repeating: 0, count: targetCount)
        duplicateLines = Array(repeating: [], count: targetCount)
        self.pending = pending
        self.changes = changes
        rowValues = Array(repeating: [], count: targetCount)
        objects = Array(repeating: nil, count: targetCount)
        sameRow = Array(repeating: [], count: targetCount)
        insertedInRow = Array(repeating: false, count: targetCount)
        entryInRow = Array(repeating: -1, count: targetCount)
        duplicateInRow = Array(repeating: false, count: targetCount)
        forwardByEntry = Array(repeating: [:], count: targetCount)
        earlyByEntry = Array(repeating: [:], count: targetCount)
        insertedByForwardRow = Array(repeating: _EntrySet(), count: targetCount)
        laterWriters = Array(repeating: [:], count: targetCount)
        takesBackRejectedRows = session.options.onError == .skip
        chainWriteBudget = session.options.chainWriteBytes
        keepsChainWrites = takesBackRejectedRows && targets.contains { target in target.relationships.contains(where: \.destinationInFile) }
    }

    /// Writes the counts into the plans; returns the objects still waiting for a save.
    func finish() -> (pending: [_PendingKey], changes: Int) {
        file.rowsRead += rowsRead
        file.blankRows += blankRows
        file.rowsImported += rowsImported
        for t in 0..<targetCount {
            targets[t].inserted += inserted[t]
            targets[t].updated += updated[t]
            targets[t].duplicateCount += duplicates[t]
            targets[t].duplicateLines += duplicateLines[t].prefix(max(0, reportedLines - targets[t].duplicateLines.count))
        }
        let result = (pending, changes)
        pending = []
        return result
    }

    private func rawBytes(_ row: _RowChunk.Row) -> [UInt8] {
        rawBytes(line: row.line, byteOffset: row.byteOffset, byteCount: row.byteCount)
    }

    /// A record's original bytes, re-read from the file.
    private func rawBytes(line: Int, byteOffset: Int64, byteCount: Int) -> [UInt8] {
        if rawReader == nil { rawReader = try? CSVReader(path: file.path, dialect: file.options.dialect) }
        let record = CSVRecord(fields: [], lineNumber: line, byteOffset: byteOffset, byteCount: byteCount)
        return (try? rawReader?.rawBytes(of: record)) ?? []
    }

    /// Writes every row of a chunk (its value arrays are moved out), then reports progress.
    func process(_ chunk: inout _RowChunk) throws {
        for row in chunk.rows {
            rowsRead += 1
            switch row.status {
            case .blank:
                blankRows += 1
            case .failed(let failure, let raw):
                try session.reject(file, line: row.line, failure, raw: { raw })
            case .converted(let first):
                for t in 0..<targetCount { swap(&rowValues[t], &chunk.values[first + t]) }
                try write(row)
            }
        }
        session.progress.update(bytes: chunk.bytesRead, rows: file.rowsRead + rowsRead)
        if let error = chunk.error { throw error }
    }

    /// One converted row, its values in ``rowValues``.
    private func write(_ row: _RowChunk.Row) throws {
        // Decided once a row: its forward keys all wait in the same place.
        earlyOpen = early.count < earlyLimit
        // 1. Relationships: the key values the reader left in the foreign-key slots become objects.
        if hasRelationships, let failure = resolveRelationships() {
            // Forward keys the row named before the failing one go with it (a later row must not inherit them).
            rowForward.removeAll(keepingCapacity: true)
            try session.reject(file, line: row.line, failure, contextual: takesBackRejectedRows, raw: { rawBytes(row) })
            return
        }
        if hasRequiredLinks, let failure = linkTakesRequiredPartner() {
            rowForward.removeAll(keepingCapacity: true)
            try session.reject(file, line: row.line, failure, contextual: takesBackRejectedRows, raw: { rawBytes(row) })
            return
        }

        // 2. Insert, or update the object a key names.
        var touchesEarlier = false
        if takesBackRejectedRows {
            rowKeepsWrites = !rowForward.isEmpty || (keepsChainWrites && chainWriteBytes < chainWriteBudget && touchesEarlierObjects())
        }
        for t in 0..<targetCount {
            var values = ContiguousArray<Value>()
            swap(&values, &rowValues[t])
            if hasRelationships && !sameRow[t].isEmpty {
                for r in sameRow[t] {
                    let relationship = relationshipPlans[t][r]
                    values[relationship.ordinal] = .object(objects[relationship.sameRowTarget]!.objectID)
                }
                sameRow[t].removeAll(keepingCapacity: true)
            }
            // One-to-one relationships are set once the object exists, through the context (both sides).
            var oneToOneValues: [Value] = []
            if !oneToOne[t].isEmpty {
                for r in oneToOne[t] {
                    let ordinal = relationshipPlans[t][r].ordinal
                    oneToOneValues.append(values[ordinal])
                    values[ordinal] = .null
                }
            }
            let object: ManagedObject
            if let key = keys[t] {
                let (entry, isNew) = key.findOrInsert(values[key.ordinal], primaryKey: 0, file: position)
                insertedInRow[t] = isNew
                entryInRow[t] = entry
                if isNew {
                    object = context.insert(entities[t], values: values)
                    key.setPrimaryKey(object.objectID.primaryKey, of: entry)
                    pending.append((key, entry, object))
                    inserted[t] += 1
                    if !earlyWaiting.isEmpty { noteKeyCame(values[key.ordinal], index: key, entry: entry, object: object) }
                } else {
                    duplicateInRow[t] = key.touch(entry, file: position) == position
                    object = try update(t, key.objectID(entry), values, row)
                    touchesEarlier = true
                }
                // The row's forward references are appended next, from forward.count on.
                if isNew && rowForward.contains(where: { $0.target == t && !settlesEarly(t, $0.relationship) }) { forwardByEntry[t][entry] = forward.count }
                // Only rows set aside once the file has been read need this (skip mode).
                if isNew && !rowForward.isEmpty && takesBackRejectedRows { insertedByForwardRow[t].insert(entry) }
            } else if keyThrough[t] >= 0 {
                // Keyed like the earlier target this one links to: that object's linked one, if it has one.
                let via = keyThrough[t]
                entryInRow[t] = entryInRow[via]
                var linked: ObjectID?
                if !insertedInRow[via], let other = objects[via], case .object(let id) = other.value(at: links[t]!.inverseOrdinal!) {
                    linked = id
                }
                if let linked {
                    insertedInRow[t] = false
                    duplicateInRow[t] = duplicateInRow[via] && targets[t].reportsDuplicates
                    object = try update(t, linked, values, row)
                    touchesEarlier = true
                } else {
                    object = context.insert(entities[t], values: values)
                    insertedInRow[t] = true
                    inserted[t] += 1
                    if rowForward.contains(where: { $0.target == t && !settlesEarly(t, $0.relationship) }) { forwardByEntry[t][entryInRow[t]] = forward.count }
                }
            } else {
                object = context.insert(entities[t], values: values)
                insertedInRow[t] = true
                inserted[t] += 1
            }
            for (i, r) in oneToOne[t].enumerated() where !(insertedInRow[t] && oneToOneValues[i].isNull) {
                touchesEarlier = true
                if takesBackRejectedRows && (rowKeepsWrites || !writes.isEmpty) {
                    // The object, its partner, the new partner and that one's partner may all change.
                    let relationship = relationshipPlans[t][r]
                    if !insertedInRow[t] { try noteWrite(object, line: row.line) }
                    try noteWrite(object.value(at: relationship.ordinal), line: row.line)
                    try noteWrite(oneToOneValues[i], line: row.line, partnerAt: relationship.inverseOrdinal)
                }
                try setOneToOne(object, t, r, oneToOneValues[i])
            }
            for index in populates[t] {
                let value = object.value(at: index.ordinal)
                if value.isNull { continue }
                let (entry, isNew) = index.findOrInsert(value, primaryKey: object.objectID.primaryKey, file: position)
                if !isNew {
                    // Another object had the value first (an upsert of the same object is no repeat).
                    if index.objectID(entry) != object.objectID { index.noteRepeated(value) }
                } else if object.objectID.isTemporary {
                    pending.append((index, entry, object))
                }
            }
            objects[t] = object
        }

        // 3. Links between this row's objects, both sides.
        if hasLinks {
            for t in 0..<targetCount {
                guard let link = links[t], let mine = objects[t], let other = objects[link.other] else { continue }
                if takesBackRejectedRows && !(insertedInRow[t] && insertedInRow[link.other]) && (rowKeepsWrites || !writes.isEmpty) {
                    // Both objects, and the partners either had, may change.
                    if !insertedInRow[t] { try noteWrite(mine, line: row.line) }
                    if !insertedInRow[link.other] { try noteWrite(other, line: row.line) }
                    if let ordinal = link.ordinal { try noteWrite(mine.value(at: ordinal), line: row.line) }
                    if let inverse = link.inverseOrdinal { try noteWrite(other.value(at: inverse), line: row.line) }
                }
                if let ordinal = link.ordinal, let inverse = link.inverseOrdinal, !(insertedInRow[t] && insertedInRow[link.other]),
                   Self.partnerMayLetGo(mine, at: ordinal, keeping: other, inverseOptional: entities[link.other].columns[inverse].relationship?.isOptional ?? false),
                   Self.partnerMayLetGo(other, at: inverse, keeping: mine, inverseOptional: entities[t].columns[ordinal].relationship?.isOptional ?? false) {
                    // One-to-one with an object that existed: through the context, so a former partner
                    // of either lets go (two new objects have none, and take the quick way below). A
                    // former partner that requires its side was refused with the row
                    // (``linkTakesRequiredPartner()``).
                    do { try mine.setValue(.object(other.objectID), forKey: entities[t].columns[ordinal].name) } catch {
                        throw ImportError(.store, reason: "linking \(entities[t].name) to \(entities[link.other].name) failed: \(error)")
                    }
                    continue
                }
                if let ordinal = link.ordinal { mine.setValue(.object(other.objectID), at: ordinal) }
                if let inverse = link.inverseOrdinal { other.setValue(.object(mine.objectID), at: inverse) }
                if let name = link.toManyName { try mine.add(other, toKey: name) }
            }
        }
        if !rowWrites.isEmpty { endRowWrites(row.line) }
        // Only a file that fills a relationship from its own rows rejects rows late (a later file's rows
        // taking one along run the import again anyway).
        if touchesEarlier && keepsChainWrites { file.touchedLines.insert(row.line) }
        if !rowForward.isEmpty { deferForwardReferences(row) }
        for t in 0..<targetCount { objects[t] = nil }
        rowsImported += 1
        changes += targetCount
        if changes >= batchSize {
            try save()
            if !earlyReady.isEmpty { try settleEarlyForward() }
            if forward.count >= forwardKeyLimit { try spillForward() }
        }
    }

    /// Whether `object`'s partner at `ordinal` (a one-to-one), if it is not `keeping`, may lose its side of
    /// the link: that side (the inverse) is optional. A partner left without a required one would make
    /// the save fail.
    private static func partnerMayLetGo(_ object: ManagedObject, at ordinal: Int, keeping: ManagedObject, inverseOptional: Bool) -> Bool {
        guard case .object(let partner) = object.value(at: ordinal), partner != keeping.objectID else { return true }
        return inverseOptional
    }

    /// Updates the existing object `id` of target `t` with a row's values (an upsert), counting a
    /// duplicate when the key repeats one of this file.
    private func update(_ t: Int, _ id: ObjectID, _ values: ContiguousArray<Value>, _ row: _RowChunk.Row) throws -> ManagedObject {
        if duplicateInRow[t] {
            duplicates[t] += 1
            if duplicateLines[t].count < reportedLines { duplicateLines[t].append(row.line) }
        }
        let object = try session.existing(id)
        if takesBackRejectedRows { try noteWrite(object, line: row.line, target: t) }
        if !insertedByForwardRow[t].isEmpty, keys[t] != nil, insertedByForwardRow[t].contains(entryInRow[t]) {
            laterWriters[t][entryInRow[t], default: []].append(row.line)
        }
        let previous = populates[t].map { object.value(at: $0.ordinal) }
        for ordinal in mappedOrdinals[t] { object.setValue(values[ordinal], at: ordinal) }
        // A value other files find this object by moved: the old one no longer names it (the new one is
        // added with the other indexes' values after this).
        for (i, index) in populates[t].enumerated() where !_KeyBytes.equal(previous[i], object.value(at: index.ordinal)) {
            try vacate(index, previous[i], of: object)
        }
        updated[t] += 1
        // This row sets the relationships again: an earlier row's forward reference is void.
        if !earlyByEntry[t].isEmpty, var id = earlyByEntry[t].removeValue(forKey: entryInRow[t]) {
            // Kept, marked, until their key comes (or the file ends): their waiting chains run through them.
            while id >= 0, let reference = early[id] {
                early[id]!.isVoid = true
                early[id]!.nextSameEntry = -1
                id = reference.nextSameEntry
            }
        }
        if !forwardByEntry[t].isEmpty, var i = forwardByEntry[t].removeValue(forKey: entryInRow[t]) {
            let line = forward[i].line
            while i < forward.count && forward[i].line == line {
                if forward[i].target == t { forward[i].isVoid = true }
                i += 1
            }
        } else if let spilledForward {
            do { try spilledForward.void(target: t, entry: entryInRow[t]) } catch {
                throw ImportError(.store, reason: "cannot update the forward keys kept in a temporary file: \(error)",
                                  hint: "Nothing was written: \(session.targetUntouched).")
            }
        }
        return object
    }

    /// Sets one-to-one relationship `r` of target `t` through the context: the destination's column
    /// and a former partner's follow.
    private func setOneToOne(_ object: ManagedObject, _ t: Int, _ r: Int, _ value: Value) throws(ImportError) {
        do { try object.setValue(value, forKey: relationshipNames[t][r]) } catch {
            throw ImportError(.store, reason: "setting \(entities[t].name).\(relationshipNames[t][r]) failed: \(error)")
        }
        changes += 1
    }

    /// `object` no longer holds `value` (an upsert changed it, or it is being removed): if the index
    /// finds `object` by it, the value passes to the next object that holds it, or to none.
    private func vacate(_ index: _KeyIndex, _ value: Value, of object: ManagedObject) throws(ImportError) {
        guard let entry = index.find(value), index.objectID(entry) == object.objectID else { return }
        index.remove(entry)
        noteVacated(value)
        guard index.isPopulated, index.wasRepeated(value),
              // Not an object a delete rule is about to take (it is not marked deleted until the save).
              let holder = try session.firstHolder(of: value, in: index, besides: object.objectID, leaving: cascadedIDs) else { return }
        let (next, _) = index.findOrInsert(value, primaryKey: holder.objectID.primaryKey, file: position)
        if holder.objectID.isTemporary { pending.append((index, next, holder)) }
    }

    /// Remembers, while forward references are settled, that `value` left an index.
    @inline(__always)
    private func noteVacated(_ value: Value) {
        if vacatedKeys != nil { vacatedKeys!.insert(Self.hash(of: value)) }
    }

    /// A key's hash, as the key indexes compute it from its bytes.
    private static func hash(of value: Value) -> UInt64 { _KeyBytes.with(value) { _KeyIndex.hash64($0) } }

    /// Saves the batch; the forward references of its rows learn their objects' permanent IDs.
    private func save() throws(ImportError) {
        try session.flush(&pending)
        changes = 0
        for (objectsAt, objects) in unsavedForward {
            for (t, object) in objects.enumerated() { forwardObjects[objectsAt + t] = object?.objectID }
        }
        unsavedForward.removeAll(keepingCapacity: true)
        for id in earlyUnsaved where early[id] != nil {
            early[id]!.object = early[id]!.unsaved?.objectID
            early[id]!.unsaved = nil
        }
        earlyUnsaved.removeAll(keepingCapacity: true)
        if !unsavedInWrites.isEmpty { renameSavedInWrites() }
    }

    /// Whether relationship `r` of target `t` takes a forward key as soon as it comes (``early``) rather than
    /// once the file has been read. Only where the two cannot differ: in abort mode (no row is rejected
    /// late, so no key leaves an index), not one-to-one (whose later rows take partners from earlier
    /// ones, so the order of setting matters), and found by a key index that upserts never move (not one
    /// other files find objects by while a target fills it with another key).
    private func settlesEarly(_ t: Int, _ r: Int) -> Bool {
        earlyOpen && !takesBackRejectedRows && !relationshipPlans[t][r].isOneToOne && !relationshipPlans[t][r].index.isPopulated
    }

    /// A key early references may be waiting for came, as `entry` of `index`, the key of `object` (just
    /// inserted): a reference whose own object is not saved yet points at it now, so the insert writes
    /// the link (most keys of a hierarchy come within a batch); the others are set after the next save.
    private func noteKeyCame(_ value: Value, index: _KeyIndex, entry: Int, object: ManagedObject) {
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
    private func forgetEarly(_ id: Int) {
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
    private func settleEarlyForward() throws(ImportError) {
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
    private func takeBackEarlyForward() {
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
    }

    /// The objects of a forward reference's row, by target (nil: none, or it updated an existing one).
    private func rowObjects(of reference: _ForwardReference) -> ArraySlice<ObjectID?> {
        forwardObjects[reference.objectsAt..<(reference.objectsAt + targetCount)]
    }

    /// Keeps this row's forward references (the slots were left empty) until the file has been read.
    private func deferForwardReferences(_ row: _RowChunk.Row) {
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

    /// Moves the forward references (every row's objects saved) to ``spilledForward``, in line order, with
    /// the key entry through which a later upsert voids each; memory starts over.
    private func spillForward() throws(ImportError) {
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
        forwardObjects.removeAll(keepingCapacity: true)
    }

    /// With references in ``spilledForward``: one pass over them and ``forward``, merged in line order.
    /// In abort mode a key no row made stops the import at the first row naming one, as the end-of-file
    /// path does; the others are set on the way (in abort mode no key leaves an index, and a stop leaves
    /// the store unwritten, so checking every key first changes nothing). Skip mode comes here only when
    /// every key is there and nothing was set aside to take back (``foundInOnePass(_:)``, whose entries it
    /// takes): the passes of ``resolveForwardReferences()`` would then reject nothing, and set the same.
    private func settleSpilledForward(_ spilled: _SpilledForward, found: [Int32]? = nil) throws(ImportError) {
        session.settling = file
        defer { session.settling = nil }
        try save()
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
                if reference.isVoid { return }
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
            try setForward(id, t, r, to: entry)
            if changes >= batchSize { try saveRemovals(findingRows: false) }
        }
        try saveRemovals()
        clearForward()
    }

    /// Skip mode: whether every forward key (in ``forward`` and `spilled`) of a row not set aside is
    /// there, and no removal is under way, so the references can be set in one pass from the file. If so,
    /// the key entries of the spilled ones, by ``_SpilledForward/Reference`` number - 1 (-1: a row set
    /// aside, or void), 4 bytes each: nothing
    /// leaves an index before they are set, and a second lookup in an index past 32,768 keys reads the
    /// key back from the store (200,000 employees: 1.7 s without them, 1.5 s with).
    private func foundInOnePass(_ spilled: _SpilledForward) throws(ImportError) -> [Int32]? {
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
    private func startOnDisk(_ spilled: _SpilledForward) throws(ImportError) {
        do { try spilled.indexLines() } catch {
            throw ImportError(.store, reason: "cannot index the forward keys kept in a temporary file: \(error)",
                              hint: "Nothing was written: \(session.targetUntouched).")
        }
        diskForward = _DiskForward(spilled: spilled)
    }

    /// Brings the references of the row at `line` back from disk into ``forward`` (once), with the
    /// entries the first pass found for them, their row's objects in new slots; returns where they are.
    @discardableResult
    private func loadLine(_ line: Int) throws(ImportError) -> Range<Int> {
        guard let disk = diskForward else { return 0..<0 }
        if let loaded = disk.loadedAt[line] { return loaded }
        do { return bringBack(try disk.spilled.references(atLine: line, keyColumns: keyColumns), line: line) } catch {
            throw readBackFailure(error)
        }
    }

    /// Brings back the row reference `number` belongs to, as ``loadLine(_:)``, in one query; returns
    /// where its references are, or nothing when the row was back already.
    private func loadRow(ofReference number: Int) throws(ImportError) -> Range<Int> {
        guard let disk = diskForward else { return 0..<0 }
        let references: [_SpilledForward.Reference]
        do { references = try disk.spilled.references(sharingLineWith: number, keyColumns: keyColumns) } catch {
            throw readBackFailure(error)
        }
        guard let line = references.first?.reference.line, disk.loadedAt[line] == nil else { return 0..<0 }
        return bringBack(references, line: line)
    }

    /// Appends a row's references read from disk to ``forward``.
    private func bringBack(_ references: [_SpilledForward.Reference], line: Int) -> Range<Int> {
        let disk = diskForward!
        let start = forward.count
        if let first = references.first {
            let objectsAt = forwardObjects.count
            for t in 0..<targetCount { forwardObjects.append(spilledObject(first.primaryKeys, t)) }
            for (reference, _, number) in references {
                disk.loadedByHash[Self.hash(of: reference.key), default: []].append(forward.count)
                forward.append(reference.placed(at: objectsAt))
                forwardFound.append(Int(disk.found[number - 1]))
            }
        }
        disk.loadedAt[line] = start..<forward.count
        return start..<forward.count
    }

    /// The object a spilled row inserted for target `t` (nil: none).
    private func spilledObject(_ primaryKeys: [Int64], _ t: Int) -> ObjectID? {
        primaryKeys[t] == 0 ? nil : ObjectID(entityID: entities[t].id, primaryKey: primaryKeys[t])
    }

    /// A failure to read the forward keys kept in a temporary file.
    private func readBackFailure(_ error: any Error) -> ImportError {
        ImportError(.store, reason: "cannot read back the forward keys kept in a temporary file: \(error)",
                    hint: "Nothing was written: \(session.targetUntouched).")
    }

    /// The index in ``forward`` of a reference of the row at `line`, brought back from disk if it is there.
    private func forwardIndex(ofLine line: Int) throws(ImportError) -> Int? {
        if let i = forward.firstIndex(where: { $0.line == line }) { return i }
        let loaded = try loadLine(line)
        return loaded.isEmpty ? nil : loaded.lowerBound
    }

    /// Walks the references in `spilled` (but for rows brought back, when `skippingLoaded`) and those in
    /// ``forward`` at `memory` (indexes in line order), merged in line order, a line's on disk first.
    private func walkMerged(_ memory: [Int], spilled: _SpilledForward?, skippingLoaded: Bool,
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
    private var forwardInLineOrder: [Int] {
        guard let disk = diskForward, !disk.loadedAt.isEmpty else { return Array(forward.indices) }
        return forward.indices.sorted { (forward[$0].line, $0) < (forward[$1].line, $1) }
    }

    /// Per target and relationship, the column (and its entity) whose values the forward keys are.
    private var keyColumns: [[(column: Column, entity: Entity)]] {
        relationshipPlans.map { plans in plans.map { ($0.index.entity.columns[$0.index.ordinal], $0.index.entity) } }
    }

    /// The failure of a row whose forward key `key` (target `t`, relationship `r`) no row made.
    private func missingKeyFailure(_ key: Value, _ t: Int, _ r: Int) -> _RowFailure {
        let relationship = relationshipPlans[t][r]
        return _RowFailure(field: relationship.field, entity: entities[t].name, attribute: relationshipNames[t][r],
                           reason: "no \(relationship.index.entity.name) has \(relationship.index.attribute) \(_ImportSession.describe(key)) in this file or an earlier one",
                           value: key.description)
    }

    /// Sets forward relationship `r` of target `t` on object `id` to the object of key entry `entry`.
    private func setForward(_ id: ObjectID, _ t: Int, _ r: Int, to entry: Int) throws(ImportError) {
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
                    if let loaded = diskForward?.loadedByHash[hash] { order += loaded }
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
    private func clearForward() {
        forward = []
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

    /// Saves while rejected rows are being removed. In skip mode, objects the removals left invalid (a
    /// required to-one whose destination a delete rule took) are removed in turn, their rows set aside
    /// with the others, and the save tried again; anything else still fails the import. The rows of
    /// removed objects are looked for (a read of the files) only when `findingRows`: once, at the end,
    /// not at every batch (with a small batch size that was a read of the files per batch).
    private func saveRemovals(findingRows: Bool = true) throws(ImportError) {
        while true {
            do {
                try save()
                break
            } catch {
                guard session.options.onError == .skip, !error.validationFailures.isEmpty else { throw error }
                var removed = false
                for failure in error.validationFailures {
                    guard let object = context.registeredObject(for: failure.objectID), !object.isDeleted,
                          !cascadedIDs.contains(object.objectID) else { continue }
                    context.delete(object)
                    try forget(object)
                    removed = true
                }
                guard removed else { throw error }
                try forgetCascaded()
            }
        }
        if findingRows { try rejectCascadedRows() }
    }

    /// The objects pending removals take with them through Cascade rules: their keys are forgotten, so no
    /// later row or join file links to an object that is gone, and they are named in a summary warning.
    private func forgetCascaded() throws(ImportError) {
        // Until nothing new: objects removed for pointing at a cascaded one may cascade further.
        while true {
            let cascaded: [ManagedObject]
            do { cascaded = try context.objectsCascadedByPendingDeletes() } catch {
                throw ImportError(.store, reason: "removing rejected rows failed: \(error)",
                                  hint: "A Deny delete rule keeps a rejected row's object while others point at it; fix the row or relax the rule. Nothing was written.")
            }
            let new = cascaded.filter { !cascadedIDs.contains($0.objectID) }
            if new.isEmpty { return }
            // What the rows of these objects wrote to earlier objects is taken back first, one object at a
            // time: a partner given back leaves the closure, which is then computed again.
            if !writes.isEmpty, !linesByRowObject.isEmpty {
                var changed = false
                for object in new where linesByRowObject[object.objectID] != nil {
                    let before = objectsTakenBack
                    try takeBackWritesOfRows(of: object)
                    if objectsTakenBack != before {
                        changed = true
                        break
                    }
                }
                if changed { continue }
            }
            for object in new { try forget(object) }
        }
    }

    /// Forgets an object removed along with rejected rows: its keys, and (by key) its rows for the
    /// rejects file, or, without a key, its name for the summary.
    private func forget(_ object: ManagedObject, reason: String? = nil, rowRejected: Bool = false) throws(ImportError) {
        guard cascadedIDs.insert(object.objectID).inserted else { return }
        // Its keyed link partners, as they are before its rows' writes are taken back (which may let go of them).
        noteOrphanCandidates(of: object)
        if !writes.isEmpty { try takeBackWritesOfRows(of: object) }
        let reason = reason ?? "its \(object.entity.name) went with the rejected rows of \(file.displayPath) (a Cascade delete rule took it, or an object it requires)"
        do {
            for index in session.plan.indexes.values where index.entity.name == object.entity.name {
                try vacate(index, object.value(at: index.ordinal), of: object)
            }
            // Its rows are found again by the key of a target that fills the entity (one keyed through its
            // link included); a relationship's index alone does not lead back to a row.
            var located = false
            for name in keyAttributes(of: object.entity.name) {
                guard let ordinal = object.entity.columnIndex(of: name) else { continue }
                // By bytes, as the key indexes compare (Swift's String == would make "é" and "e\u{301}" one).
                let key = _KeyBytes.with(object.value(at: ordinal)) { Array($0) }
                if cascadedKeyValues[_IndexKey(entity: object.entity.name, attribute: name), default: [:]][key] == nil {
                    cascadedKeyValues[_IndexKey(entity: object.entity.name, attribute: name), default: [:]][key] = reason
                }
                located = true
            }
            if !located && !rowRejected { cascadedKeys.append("\(object.entity.name) \(object.objectID)") }
        }
        try unlinked(object)
    }

    /// Removes, in turn, the objects whose rows name a removed object in a relationship column: a delete
    /// rule would clear that relationship (or leave it pointing at nothing) and the row would pass for
    /// imported with a value it does not hold. Their rows go to the rejects file; so do rows naming them.
    private func unlinked(_ object: ManagedObject) throws(ImportError) {
        unlinkWork.append(object)
        guard !unlinking else { return }
        unlinking = true
        defer { unlinking = false }
        while let removed = unlinkWork.popLast() {
            // The objects its row made with it, linked one-to-one (a ShelfInfo with its Shelf): that row is
            // set aside, so they go too, whatever the delete rule would leave of them.
            for ordinal in linkedColumns[removed.entity.name] ?? [] {
                guard case .object(let id) = removed.value(at: ordinal), !cascadedIDs.contains(id) else { continue }
                let partner = try session.existing(id)
                guard !partner.isDeleted else { continue }
                context.delete(partner)
                changes += 1
                try forget(partner, reason: "the \(removed.entity.name) its row made went with the rejected rows of \(file.displayPath)", rowRejected: true)
            }
            noteOrphanCandidates(of: removed)
            // A one-to-one under No Action: the partner keeps a foreign key to an object that is gone. The
            // import is taking back the row that linked them, so the partner lets go (as Nullify would).
            for relationship in removed.entity.relationships where relationship.deleteRule == .noAction && !relationship.isToMany {
                guard let column = removed.entity.columnIndex(of: relationship.name), case .object(let id) = removed.value(at: column),
                      let inverse = relationship.inverse, !cascadedIDs.contains(id) else { continue }
                let partner = try session.existing(id)
                guard !partner.isDeleted, let inverseColumn = partner.entity.columnIndex(of: inverse),
                      partner.value(at: inverseColumn) == .object(removed.objectID) else { continue }
                partner.setValue(.null, at: inverseColumn)
                changes += 1
            }
            try releaseFormerPartners(of: removed)
            guard !removed.objectID.isTemporary, let filled = filledRelationships[removed.entity.tableName] else { continue }
            for relationship in filled {
                // Every row is saved while removals run (forward references are set afterwards): the
                // store's foreign keys still hold what the rows named.
                var pointers = try storedPointers(to: removed, in: relationship.source.tableName, column: relationship.column,
                                                  finding: "the rows that name a removed \(removed.entity.name)")
                // Pointers moved to this object since the last save (not in the store yet), but not those a
                // move took to another object since (a delete rule may have cleared one: it stays).
                pointers += repointed[removed.objectID] ?? []
                pointers = pointers.filter { id in
                    guard let pointer = try? session.existing(id) else { return false }
                    if case .object(let current) = pointer.value(at: relationship.ordinal) { return current == removed.objectID }
                    return true
                }
                let destination = relationship.destination
                let value = removed.value(at: destination.ordinal)
                // A destination found by a value that is not its key: the rows named the value, which another
                // object may hold now (``vacate`` passed it on). They point at that one instead.
                if destination.isPopulated, let entry = destination.find(value), destination.objectID(entry) != removed.objectID {
                    for id in pointers where !cascadedIDs.contains(id) {
                        let pointer = try session.existing(id)
                        guard !pointer.isDeleted else { continue }
                        // Through the context, so a one-to-one's other side (and a former partner) follows.
                        let holder = try session.existing(destination.objectID(entry))
                        repointed[holder.objectID, default: []].append(id)
                        do { try pointer.setObject(holder, forKey: relationship.name) } catch {
                            throw ImportError(.store, reason: "moving \(relationship.source.name).\(relationship.name) to the next holder of a rejected row's value failed: \(error)")
                        }
                        changes += 1
                    }
                    continue
                }
                let named = "\(destination.entity.name) with \(destination.attribute) \(_ImportSession.describe(value))"
                for id in pointers where !cascadedIDs.contains(id) {
                    let pointer = try session.existing(id)
                    guard !pointer.isDeleted else { continue }
                    context.delete(pointer)
                    changes += 1
                    try forget(pointer, reason: "its \(relationship.name) names \(named), whose row was rejected")
                }
            }
        }
    }

    /// The saved objects of `table` whose to-one `column` names `removed`; `finding` words the error.
    private func storedPointers(to removed: ManagedObject, in table: String, column: String, finding: String) throws(ImportError) -> [ObjectID] {
        var pointers: [ObjectID] = []
        do {
            let statement = try session.store.connection.cachedStatement("SELECT Z_PK, Z_ENT FROM \(table) WHERE \(column) = ?")
            defer { statement.reset() }
            statement.bind(removed.objectID.primaryKey, at: 1)
            while try statement.step() {
                pointers.append(ObjectID(entityID: Int32(truncatingIfNeeded: statement.int64(at: 1)), primaryKey: statement.int64(at: 0)))
            }
        } catch {
            throw ImportError(.store, reason: "finding \(finding) failed: \(error)")
        }
        return pointers
    }

    /// Lets go of a removed object on behalf of its *former* one-to-one partners: objects a later row's link
    /// left pointing at it because their side is required (a link does not strip a partner of a required
    /// destination). Delete rules reach only the current partner, so their column would name a row that
    /// is gone: an optional one is cleared, and an object that requires it goes too, its rows set aside.
    private func releaseFormerPartners(of removed: ManagedObject) throws(ImportError) {
        guard !removed.objectID.isTemporary, let links = linkColumnsTo[removed.entity.name] else { return }
        for link in links {
            let pointers = try storedPointers(to: removed, in: link.source.tableName, column: link.source.columns[link.ordinal].columnName,
                                              finding: "the former partners of a removed \(removed.entity.name)")
            for id in pointers where !cascadedIDs.contains(id) && removed.value(at: link.back) != .object(id) {
                let pointer = try session.existing(id)
                guard !pointer.isDeleted, pointer.value(at: link.ordinal) == .object(removed.objectID) else { continue }
                changes += 1
                if link.isOptional {
                    pointer.setValue(.null, at: link.ordinal)
                } else {
                    context.delete(pointer)
                    try forget(pointer, reason: "its \(link.name) is required, and its \(removed.entity.name) went with the rejected rows of \(file.displayPath) (a later row had linked that \(removed.entity.name) to another \(pointer.entity.name))")
                }
            }
        }
    }

    /// The key attributes of the targets, in this file and the ones before it, that fill `entity`.
    private func keyAttributes(of entity: String) -> Set<String> {
        var names = Set<String>()
        for plan in session.plan.files where plan.position <= file.position {
            for target in plan.targets where target.entity.name == entity {
                if let name = target.keyAttribute { names.insert(name) }
            }
        }
        return names
    }

    /// Reads each file so far that fills an entity by one of `indexKeys` again, and calls `body` for every
    /// row not set aside, with the target and key attribute, the record, and its key as the import made it
    /// (a null token becomes the attribute's default, or no key) and that key's bytes (the key indexes
    /// compare bytes). `body` returns whether it is done with the record. `purpose` words a read error.
    private func forEachKeyedRow(
        filling indexKeys: Set<_IndexKey>, purpose: String,
        _ body: (_ plan: _FilePlan, _ target: _TargetPlan, _ field: _FieldPlan, _ attribute: String,
                 _ record: CSVRawRecord, _ reader: CSVReader, _ key: Value, _ bytes: [UInt8]) throws -> Bool
    ) throws(ImportError) {
        for plan in session.plan.files where plan.position <= file.position && plan.join == nil {
            var wanted: [(target: _TargetPlan, field: _FieldPlan, attribute: String)] = []
            for target in plan.targets {
                guard let attribute = target.keyAttribute, indexKeys.contains(_IndexKey(entity: target.entity.name, attribute: attribute)),
                      let ordinal = target.entity.columnIndex(of: attribute),
                      let field = target.fields.first(where: { $0.ordinal == ordinal }) else { continue }
                wanted.append((target, field, attribute))
            }
            guard !wanted.isEmpty else { continue }
            let trim = plan.options.trim
            do {
                let reader = try CSVReader(path: plan.path, dialect: plan.options.dialect)
                try reader.forEachRawRecord { record in
                    guard !plan.rejectedLines.contains(record.lineNumber) else { return }
                    for wanted in wanted {
                        guard let key = Self.key(wanted.field, of: wanted.target, in: record, trim: trim) else { continue }
                        if try body(plan, wanted.target, wanted.field, wanted.attribute, record, reader, key, _KeyBytes.with(key) { Array($0) }) {
                            return
                        }
                    }
                }
            } catch let error as ImportError {
                throw error
            } catch {
                throw ImportError(.input, reason: "cannot read the file again \(purpose): \(error)", file: plan.displayPath)
            }
        }
    }

    /// Notes the keyed link partners of a removed object: ``removeOrphanedPartners()`` looks at them.
    private func noteOrphanCandidates(of removed: ManagedObject) {
        for ordinal in keyedLinkedColumns[removed.entity.name] ?? [] {
            if case .object(let id) = removed.value(at: ordinal), !cascadedIDs.contains(id) { orphanCandidates.append(id) }
        }
    }

    /// Removes the keyed link partners of removed objects (``orphanCandidates``) that no row standing has
    /// the key of (each file so far that fills their entity is read again): only rows set aside made them.
    /// Returns whether it removed any; rows naming them then go in turn.
    private func removeOrphanedPartners() throws(ImportError) -> Bool {
        guard !orphanCandidates.isEmpty else { return false }
        // The rows of objects removed so far are set aside first: they no longer stand.
        try rejectCascadedRows()
        var candidates: [_IndexKey: [[UInt8]: ObjectID]] = [:]
        for id in orphanCandidates where !cascadedIDs.contains(id) {
            guard let object = try? session.existing(id), !object.isDeleted else { continue }
            for name in keyAttributes(of: object.entity.name) {
                guard let ordinal = object.entity.columnIndex(of: name) else { continue }
                let key = _KeyBytes.with(object.value(at: ordinal)) { Array($0) }
                candidates[_IndexKey(entity: object.entity.name, attribute: name), default: [:]][key] = id
            }
        }
        orphanCandidates = []
        guard !candidates.isEmpty else { return false }
        var standing = Set<ObjectID>()
        try forEachKeyedRow(filling: Set(candidates.keys), purpose: "for the partners of rows set aside") {
            _, target, _, attribute, _, _, _, bytes in
            if let id = candidates[_IndexKey(entity: target.entity.name, attribute: attribute)]?[bytes] { standing.insert(id) }
            return false
        }
        var removed = false
        for id in Set(candidates.values.flatMap(\.values)).sorted(by: { ($0.entityID, $0.primaryKey) < ($1.entityID, $1.primaryKey) })
        where !standing.contains(id) && !cascadedIDs.contains(id) {
            guard let object = try? session.existing(id), !object.isDeleted else { continue }
            context.delete(object)
            changes += 1
            try forget(object, reason: "every row with its key was set aside with the rejected rows of \(file.displayPath)", rowRejected: true)
            // Its rows were set aside for its partner's key: it no longer counts as inserted.
            if let t = targets.indices.first(where: { targets[$0].entity.name == object.entity.name && keys[$0] != nil }) {
                inserted[t] -= 1
            } else if let target = session.plan.files.lazy.filter({ $0.position < self.file.position })
                .flatMap(\.targets).first(where: { $0.entity.name == object.entity.name && $0.key != nil }) {
                target.inserted -= 1
            }
            removed = true
        }
        // Rows that stand now may be set aside by later removals: those partners are looked at again.
        orphanCandidates = Array(standing)
        return removed
    }

    /// The key a record holds in `field`, as the import made it: a null token becomes the target's
    /// default for the attribute, or no key.
    static func key(_ field: _FieldPlan, of target: _TargetPlan, in record: CSVRawRecord, trim: Bool) -> Value? {
        guard field.field < record.count else { return nil }
        return record.withBytes(at: field.field) { raw in
            let bytes = trim ? _trimmed(raw) : raw
            if field.nulls.matches(bytes) && !record.isQuoted(at: field.field) {
                return field.nullValue >= 0 ? target.nullValues[field.nullValue] : nil
            }
            return field.converter.convert(bytes)
        }
    }

    /// Sets aside the rows that made objects Cascade rules removed: each file so far that fills their
    /// entity by the key is read again, and every row with one of their keys goes to the rejects file.
    /// Rows already set aside are skipped. (Without a key, ``cascadedKeys`` names the objects instead.)
    private func rejectCascadedRows() throws(ImportError) {
        guard !cascadedKeyValues.isEmpty else { return }
        defer { cascadedKeyValues = [:] }
        // The first row of a key inserted its object (files and rows in import order); later ones updated it.
        var seen: [_IndexKey: Set<[UInt8]>] = [:]
        try forEachKeyedRow(filling: Set(cascadedKeyValues.keys), purpose: "for rows removed through Cascade rules") {
            plan, target, field, attribute, record, reader, key, bytes in
            let indexKey = _IndexKey(entity: target.entity.name, attribute: attribute)
            guard let reason = cascadedKeyValues[indexKey]?[bytes] else { return false }
            try session.reject(
                plan, line: record.lineNumber,
                _RowFailure(field: field.field, entity: target.entity.name, attribute: attribute, reason: reason, value: key.description),
                raw: { reader.lastRecordRawBytes })
            if plan === file { rowsImported -= 1 } else { plan.rowsImported -= 1 }
            if seen[indexKey, default: []].insert(bytes).inserted {
                target.inserted -= 1
            } else {
                target.updated -= 1
            }
            // The row's other keyed objects: if no row standing has their keys, they go too.
            for other in plan.targets where other !== target {
                guard let index = other.key, let name = other.keyAttribute, let ordinal = other.entity.columnIndex(of: name),
                      let keyField = other.fields.first(where: { $0.ordinal == ordinal }),
                      let value = Self.key(keyField, of: other, in: record, trim: plan.options.trim) else { continue }
                if let entry = index.find(value) {
                    orphanCandidates.append(index.objectID(entry))
                } else if index.isReleased, let holder = try session.firstHolder(of: value, in: index, besides: ObjectID(entityID: 0, primaryKey: 0)) {
                    // An earlier file's index, freed after its last file: the store finds the object.
                    orphanCandidates.append(holder.objectID)
                }
            }
            return true
        }
        // Join files read before this one: a pair with a removed object is gone from the join table (the
        // save takes it), so its row is set aside too and the pair no longer counts.
        for plan in session.plan.files where plan.position < file.position {
            guard let join = plan.join else { continue }
            let sources = cascadedKeyValues[_IndexKey(entity: join.sourceIndex.entity.name, attribute: join.sourceIndex.attribute)]
            let destinations = cascadedKeyValues[_IndexKey(entity: join.destinationIndex.entity.name, attribute: join.destinationIndex.attribute)]
            guard sources != nil || destinations != nil else { continue }
            let trim = plan.options.trim
            var pairs = Set<[UInt8]>()
            do {
                let reader = try CSVReader(path: plan.path, dialect: plan.options.dialect)
                try reader.forEachRawRecord { record in
                    guard !plan.rejectedLines.contains(record.lineNumber), record.count > max(join.sourceField, join.destinationField) else { return }
                    func key(_ field: Int, _ converter: _FieldConverter) -> (value: Value, bytes: [UInt8])? {
                        let value: Value? = record.withBytes(at: field) { raw in
                            let bytes = trim ? _trimmed(raw) : raw
                            if join.nulls.matches(bytes) && !record.isQuoted(at: field) { return nil }
                            return converter.convert(bytes)
                        }
                        return value.map { value in (value, _KeyBytes.with(value) { Array($0) }) }
                    }
                    guard let source = key(join.sourceField, join.sourceConverter),
                          let destination = key(join.destinationField, join.destinationConverter) else { return }
                    let (reason, field, index, value): (String, Int, _KeyIndex, Value)
                    if let why = sources?[source.bytes] {
                        (reason, field, index, value) = (why, join.sourceField, join.sourceIndex, source.value)
                    } else if let why = destinations?[destination.bytes] {
                        (reason, field, index, value) = (why, join.destinationField, join.destinationIndex, destination.value)
                    } else {
                        return
                    }
                    try session.reject(
                        plan, line: record.lineNumber,
                        _RowFailure(field: field, entity: index.entity.name, attribute: index.attribute, reason: reason,
                                    value: value.description),
                        raw: { reader.lastRecordRawBytes })
                    plan.rowsImported -= 1
                    // A repeated pair was stored, and counted, once.
                    let pair = withUnsafeBytes(of: source.bytes.count) { Array($0) } + source.bytes + destination.bytes
                    if pairs.insert(pair).inserted { plan.joinsAdded = max(0, plan.joinsAdded - 1) }
                }
            } catch let error as ImportError {
                throw error
            } catch {
                throw ImportError(.input, reason: "cannot read the join file again for pairs removed with rejected rows: \(error)", file: plan.displayPath)
            }
        }
    }

    /// Deletes the objects a rejected row inserted (delete rules apply) and forgets their keys.
    private func removeObjects(of reference: _ForwardReference) throws(ImportError) {
        rowsImported -= 1
        for t in 0..<targetCount {
            guard let id = forwardObjects[reference.objectsAt + t], !cascadedIDs.contains(id) else { continue }
            let object = try session.existing(id)
            // A later row that stands upserted the object: it is that row's now, as if that row had inserted
            // it (and goes with that row, should it be rejected in turn).
            if let key = keys[t], let entry = key.find(object.value(at: key.ordinal)), key.objectID(entry) == id,
               let writers = laterWriters[t][entry], let heir = writers.first(where: { $0 > reference.line && !file.rejectedLines.contains($0) }) {
                updated[t] -= 1
                keptForLaterRows.append((id, t, reference.line, writers))
                // The later row updated what the rejected one made: without it, that row inserts.
                session.needsRerun = true
                // The heir's references share their row's slots: the first found sets them for all.
                if let j = try forwardIndex(ofLine: heir) { forwardObjects[forward[j].objectsAt + t] = id }
                continue
            }
            if let key = keys[t], let entry = key.find(object.value(at: key.ordinal)) {
                key.remove(entry)
                noteVacated(object.value(at: key.ordinal))
            }
            context.delete(object)
            for index in populates[t] { try vacate(index, object.value(at: index.ordinal), of: object) }
            inserted[t] -= 1
            changes += 1
            try unlinked(object)
        }
    }

    /// Removes the objects kept for later rows (``keptForLaterRows``) whose later rows were all rejected
    /// since; returns whether it removed any.
    private func removeKeptObjectsOfRejectedRows() throws(ImportError) -> Bool {
        var removed = false
        var remaining: [(id: ObjectID, target: Int, line: Int, writers: [Int])] = []
        for kept in keptForLaterRows {
            if kept.writers.contains(where: { $0 > kept.line && !file.rejectedLines.contains($0) }) {
                remaining.append(kept)
                continue
            }
            // Gone already when the later row inserted it in turn (its forward reference took it along).
            guard !cascadedIDs.contains(kept.id), let object = try? session.existing(kept.id), !object.isDeleted else { continue }
            context.delete(object)
            inserted[kept.target] -= 1
            updated[kept.target] += 1
            changes += 1
            try forget(object, reason: "its \(object.entity.name) went with the rejected rows of \(file.displayPath) (the row that made it, and every later row with its key, were rejected)", rowRejected: true)
            removed = true
        }
        keptForLaterRows = remaining
        return removed
    }

    // MARK: Taking back the writes of rows rejected late

    /// Keeps `object`'s values from before this row changes them, when the row keeps its writes
    /// (``rowKeepsWrites``: it may be rejected once the file has been read) or such a row wrote the object
    /// before. `target`: the target that updates the object (its update is counted there).
    private func noteWrite(_ object: ManagedObject, line: Int, target: Int = -1) throws(ImportError) {
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
    private func noteWrite(_ value: Value, line: Int, partnerAt inverse: Int = -1) throws(ImportError) {
        guard case .object(let id) = value,
              rowKeepsWrites || inverse >= 0 || (!writes.isEmpty && writes[id] != nil) else { return }
        for k in 0..<targetCount where insertedInRow[k] && objects[k]?.objectID == id { return }
        let object = try session.existing(id)
        try noteWrite(object, line: line)
        if inverse >= 0 { try noteWrite(object.value(at: inverse), line: line) }
    }

    /// An object's values, each column; an unsaved object a value names is remembered for its permanent ID.
    private func snapshot(_ object: ManagedObject) -> ContiguousArray<Value> {
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
    private func endRowWrites(_ line: Int) {
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
    private func renameSavedInWrites() {
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
    private func takeBackRejectedWrites(of ids: [ObjectID], leaving: Set<ObjectID>) throws(ImportError) {
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
    private func isRejected(_ line: Int) -> Bool {
        file.rejectedLines.contains(line) || doomedLines.contains(line)
    }

    /// Whether this row updates an earlier object, or sets a one-to-one to one.
    private func touchesEarlierObjects() -> Bool {
        for t in 0..<targetCount {
            if updatesExisting(t) { return true }
            for r in oneToOne[t] where !rowValues[t][relationshipPlans[t][r].ordinal].isNull { return true }
        }
        return false
    }

    /// `object` is being removed with rejected rows: the rows that made or updated it as a keyed target
    /// are rejected (found again by its key), so what they wrote to other earlier objects is taken back
    /// first, before delete rules run (a partner their link took returns to its earlier object).
    private func takeBackWritesOfRows(of object: ManagedObject) throws(ImportError) {
        guard let lines = linesByRowObject.removeValue(forKey: object.objectID), !keyAttributes(of: object.entity.name).isEmpty else { return }
        doomedLines.formUnion(lines)
        var leaving: Set<ObjectID> = [object.objectID]
        for ordinal in linkedColumns[object.entity.name] ?? [] {
            if case .object(let id) = object.value(at: ordinal) { leaving.insert(id) }
        }
        try takeBackRejectedWrites(of: lines.flatMap { writesByLine[$0] ?? [] }, leaving: leaving)
    }

    /// Whether a value names an object that is gone (removed with rejected rows, or never saved).
    private func isGone(_ value: Value) -> Bool {
        guard case .object(let id) = value else { return false }
        if id.isTemporary || cascadedIDs.contains(id) { return true }
        guard let object = try? session.existing(id) else { return true }
        return object.isDeleted
    }

    /// Sets column `c` of `object` back to `value`: an attribute with the key indexes that find objects by
    /// it, a relationship through the context (so a one-to-one's other side and the partner's current
    /// holder follow), unless the partner is held by an object that stays, or a row that stands set its
    /// side after line `since` (the first write taken back).
    private func restore(_ object: ManagedObject, at c: Int, to value: Value, since: Int, leaving: Set<ObjectID>) throws(ImportError) {
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
    private func oneToOneBack(_ relationship: Relationship) -> Int? {
        guard !relationship.isToMany, let inverse = relationship.inverse,
              let destination = context.model.entity(named: relationship.destination),
              destination.relationship(named: inverse)?.isToMany == false else { return nil }
        return destination.columnIndex(of: inverse)
    }

    /// Makes `object`'s one-to-one pairs whole once its columns were set back: a partner that is gone is
    /// let go, a partner whose side is free (or names an object that does not hold it) takes it back, and
    /// a partner another object holds on both sides stays with that one.
    private func pairOneToOnes(of object: ManagedObject) throws(ImportError) {
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

    /// Turns the keys in foreign-key slots into objects; the failure of the first key that names none.
    private func resolveRelationships() -> _RowFailure? {
        for t in 0..<targetCount where !relationshipPlans[t].isEmpty {
            sameRow[t].removeAll(keepingCapacity: true)
            let relationships = relationshipPlans[t]
            for r in relationships.indices {
                let relationship = relationships[r]
                let key = rowValues[t][relationship.ordinal]
                if key.isNull { continue }
                if relationship.sameRowTarget >= 0, let otherKey = keys[relationship.sameRowTarget],
                   rowValues[relationship.sameRowTarget][otherKey.ordinal] == key {
                    sameRow[t].append(r)
                    continue
                }
                let index = relationship.index
                guard let entry = index.find(key) else {
                    if relationship.destinationInFile {
                        if let failure = forwardReference(t, r, key) { return failure }
                        continue
                    }
                    return _RowFailure(
                        field: relationship.field, entity: entities[t].name, attribute: relationshipNames[t][r],
                        reason: "no \(index.entity.name) has \(index.attribute) \(_ImportSession.describe(key)) (the key must name an object of a file imported before this one)",
                        value: key.description)
                }
                let destination = index.objectID(entry)
                if relationship.isOneToOne && !relationship.isOptional, let failure = takenPartner(t, r, destination, key) { return failure }
                rowValues[t][relationship.ordinal] = .object(destination)
            }
        }
        return nil
    }

    /// A required one-to-one whose destination already belongs to another object: taking it would leave
    /// that object without its required destination (Core Data's one-to-one moves the destination), so
    /// the row is refused instead, naming the holder.
    private func takenPartner(_ t: Int, _ r: Int, _ destination: ObjectID, _ key: Value) -> _RowFailure? {
        let relationship = relationshipPlans[t][r]
        guard let object = try? session.existing(destination),
              case .object(let holder) = object.value(at: relationship.inverseOrdinal) else { return nil }
        // The row's own object (an upsert keeping its partner) may hold it.
        if let own = keys[t], let entry = own.find(rowValues[t][own.ordinal]), own.objectID(entry) == holder { return nil }
        let holderKey = keys[t].flatMap { own in (try? session.existing(holder)).map { $0.value(at: own.ordinal) } }
        return _RowFailure(
            field: relationship.field, entity: entities[t].name, attribute: relationshipNames[t][r],
            reason: "\(relationship.index.entity.name) with \(relationship.index.attribute) \(_ImportSession.describe(key)) is already the \(relationshipNames[t][r]) of another \(entities[t].name)\(holderKey.map { " (" + _ImportSession.describe($0) + ")" } ?? ""): the relationship is one-to-one and required, so taking it would leave that one without",
            value: key.description)
    }

    /// A link of this row that would take a one-to-one partner from an object that requires it: that
    /// object would be left without (Core Data's save refuses it), so the row is refused, naming it, as a
    /// relationship column taking a required partner is (``takenPartner(_:_:_:_:)``).
    private func linkTakesRequiredPartner() -> _RowFailure? {
        for t in 0..<targetCount {
            guard let link = links[t], let ordinal = link.ordinal, let inverse = link.inverseOrdinal else { continue }
            let mine = existingObject(t), other = existingObject(link.other)
            if mine == nil && other == nil { continue }
            // (moving: the target whose object changes hands, its object, its column to the holder, the
            // holder's column back, the target it is linked to now, and the object it would be linked to.)
            for (moving, object, column, back, holderTarget, keeping) in [(t, mine, ordinal, inverse, link.other, other),
                                                                          (link.other, other, inverse, ordinal, t, mine)] {
                guard let object, case .object(let holderID) = object.value(at: column), holderID != keeping?.objectID,
                      entities[holderTarget].columns[back].relationship?.isOptional == false else { continue }
                let holderKey = keys[holderTarget].flatMap { key in (try? session.existing(holderID)).map { $0.value(at: key.ordinal) } }
                let movingKey = keys[moving].map { rowValues[moving][$0.ordinal] }
                let field = keys[moving].flatMap { key in targets[moving].fields.first { $0.ordinal == key.ordinal }?.field }
                let name = entities[holderTarget].columns[back].name
                return _RowFailure(
                    field: field, entity: entities[moving].name, attribute: entities[moving].columns[column].name,
                    reason: "\(entities[moving].name)\(movingKey.map { " " + _ImportSession.describe($0) } ?? "") is already the \(name) of another \(entities[holderTarget].name)\(holderKey.map { " (" + _ImportSession.describe($0) + ")" } ?? ""), which requires it: linking it to this row's \(entities[holderTarget].name) would leave that one without",
                    value: movingKey?.description)
            }
        }
        return nil
    }

    /// The ID of the object target `t` of this row updates (nil: it inserts one): the one its key names,
    /// or (keyed through its link) the linked target's object's partner.
    private func existingObjectID(_ t: Int) -> ObjectID? {
        if let own = keys[t] { return own.find(rowValues[t][own.ordinal]).map { own.objectID($0) } }
        let via = keyThrough[t]
        guard via >= 0, let viaID = existingObjectID(via), let object = try? session.existing(viaID),
              case .object(let id) = object.value(at: links[t]!.inverseOrdinal!) else { return nil }
        return id
    }

    /// The object target `t` of this row updates (nil: it inserts one).
    private func existingObject(_ t: Int) -> ManagedObject? {
        existingObjectID(t).flatMap { try? session.existing($0) }
    }

    /// Whether this row will update an existing object of target `t` rather than insert one.
    private func updatesExisting(_ t: Int) -> Bool { existingObjectID(t) != nil }

    /// A key naming no object yet, of an entity this file fills: kept for after the file (the slot is
    /// left empty), or the reason it cannot wait.
    private func forwardReference(_ t: Int, _ r: Int, _ key: Value) -> _RowFailure? {
        let relationship = relationshipPlans[t][r]
        let index = relationship.index
        func failure(_ why: String) -> _RowFailure {
            _RowFailure(field: relationship.field, entity: entities[t].name, attribute: relationshipNames[t][r],
                        reason: "no \(index.entity.name) has \(index.attribute) \(_ImportSession.describe(key)) before this row, and " + why,
                        value: key.description)
        }
        guard relationship.isOptional else {
            return failure("\(relationshipNames[t][r]) is required, so the row it names must come first (or make the relationship optional to allow forward references)")
        }
        if updatesExisting(t) {
            return failure("this row updates an existing \(entities[t].name): forward references are kept for new objects only")
        }
        rowValues[t][relationship.ordinal] = .null
        rowForward.append((t, r, key))
        return nil
    }
}

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
    /// The references brought back, by their key's hash: their indexes in the writer's forward references.
    var loadedByHash: [UInt64: [Int]] = [:]

    init(spilled: _SpilledForward) {
        self.spilled = spilled
        found = [Int32](repeating: -1, count: spilled.count)
    }
}

/// A forward reference on the walk that merges those on disk with those in memory.
enum _MergedReference {
    case disk(_SpilledForward.Reference)
    case memory(Int)
}
