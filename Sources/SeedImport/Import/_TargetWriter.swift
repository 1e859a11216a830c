import CSVStream
import Foundation
import ManagedStore

/// Writes converted rows of one file into the context: relationship keys become objects, each target's
/// object is inserted (or, when its key was seen, the existing object updated), links are set on both
/// sides, and every batch is saved.
///
/// This file holds the row loop; forward keys live in `_TargetWriter+EarlyForward.swift` (abort mode, set
/// as they come) and `_TargetWriter+ForwardReferences.swift` (set once the file has been read), and skip
/// mode's late rejections in `_TargetWriter+Removal.swift` and `_TargetWriter+TakingBack.swift`.
final class _TargetWriter {
    unowned let session: _ImportSession
    let file: _FilePlan
    let context: ManagedObjectContext
    let targets: [_TargetPlan]
    let targetCount: Int
    let batchSize: Int
    let reportedLines: Int
    let position: Int32
    let relationshipPlans: [[_RelationshipPlan]]
    let relationshipNames: [[String]]
    /// Per target and relationship, ``_TargetPlan/relationshipLaterFillers``.
    let relationshipLaterFillers: [[String?]]
    let entities: [Entity]
    let keys: [_KeyIndex?]
    /// Per target, the earlier target whose linked object it is (``_TargetPlan/keyThrough``), or -1.
    let keyThrough: [Int]
    let populates: [[_KeyIndex]]
    let mappedOrdinals: [[Int]]
    /// Per target, its one-to-one relationships (positions in its relationship plans).
    let oneToOne: [[Int]]
    let links: [_LinkPlan?]
    let hasLinks: Bool
    /// Whether a link has a required side: a row's link may then take a partner its holder requires.
    let hasRequiredLinks: Bool
    /// Whether a target's file lacks columns for required attributes: its rows may only update.
    let updatesOnly: Bool
    let hasRelationships: Bool

    // Touched for every row by this thread alone: no dynamic exclusivity checks.
    @exclusivity(unchecked) var rowsRead = 0
    @exclusivity(unchecked) var blankRows = 0
    @exclusivity(unchecked) var rowsImported = 0
    /// Objects removed through Cascade rules with rejected rows that no key leads back to their rows,
    /// described for the summary.
    var cascadedKeys: [String] = []
    /// The keys of objects removed with rejected rows (by Cascade rules, or because they required or
    /// named such an object), by entity and key attribute, with why: their rows are found again in the
    /// files and set aside too.
    var cascadedKeyValues: [_IndexKey: [[UInt8]: _CascadeCause]] = [:]
    /// Objects removed with rejected rows: forward references of their rows are not set, nor removed again.
    var cascadedIDs = Set<ObjectID>()
    /// While forward references are settled: the hashes of the values removed from indexes since the
    /// pass began. Only a forward key among them can have gone missing since it was found, so a chain of N
    /// rejections does not look every forward key up N times.
    var vacatedKeys: Set<UInt64>?
    /// Removed objects whose pointers (objects naming them in a relationship column) are not looked for yet.
    var unlinkWork: [ManagedObject] = []
    /// Objects whose relationship was moved to the next holder of a value, by that holder: the store
    /// does not show the move until the next save.
    var repointed: [ObjectID: [ObjectID]] = [:]
    var unlinking = false
    /// Per target and relationship (`t << 16 | r`), the key hashes of the later file that fills the
    /// destination (``laterFillerNote(_:_:key:)``); `.some(nil)`: too many, or unreadable.
    var laterFillerKeys: [Int: Set<UInt64>?] = [:]
    /// Forward keys that never came, of rows a later row with the same key overrode (for a warning).
    var voidedMissingKeys = 0
    var firstVoidedMissingKey: (line: Int, relationship: String, key: Value)?
    /// The key hashes of this file's rows set aside as they were read, for messages (``noteSetAsideKeys()``).
    var setAsideKeys = Set<_SetAsideKey>()
    /// The to-one columns that link targets of one row one-to-one (this file's and earlier ones'), by
    /// entity: the ones leading to a partner without a key of its own (none, or found through the link),
    /// which exists only with the removed object. A partner with its own key stays: other rows fill it.
    lazy var linkedColumns: [String: [Int]] = {
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
    lazy var keyedLinkedColumns: [String: [Int]] = {
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
    var orphanCandidates: [ObjectID] = []
    /// The one-to-one link columns of this file's and earlier files' targets, by the entity they point at:
    /// the column's entity and ordinal, the pointed-at side's column back, and whether the column is optional.
    lazy var linkColumnsTo: [String: [(source: Entity, ordinal: Int, back: Int, name: String, isOptional: Bool)]] = {
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
    lazy var filledRelationships: [String: [(source: Entity, name: String, ordinal: Int, column: String, destination: _KeyIndex)]] = {
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
    @exclusivity(unchecked) var inserted: [Int]
    @exclusivity(unchecked) var updated: [Int]
    @exclusivity(unchecked) var duplicates: [Int]
    @exclusivity(unchecked) var duplicateLines: [[Int]]
    @exclusivity(unchecked) var pending: [_PendingKey]
    @exclusivity(unchecked) var changes: Int
    @exclusivity(unchecked) var rowValues: [ContiguousArray<Value>]
    @exclusivity(unchecked) var objects: [ManagedObject?]
    /// Per target, the relationships that point at an object this row makes.
    @exclusivity(unchecked) var sameRow: [[Int]]
    /// Per target, whether this row inserted its object (rather than updating one a key named).
    @exclusivity(unchecked) var insertedInRow: [Bool]
    /// Per keyed target, this row's key entry and whether the key repeats one of this file.
    @exclusivity(unchecked) var entryInRow: [Int]
    @exclusivity(unchecked) var duplicateInRow: [Bool]
    /// Keys of this row naming objects further down the file: (target, relationship, key).
    @exclusivity(unchecked) var rowForward: [(target: Int, relationship: Int, key: Value)] = []
    /// Forward references of the file so far, resolved when it has been read.
    var forward: [_ForwardReference] = []
    /// While forward references are settled on saved rows directly (``relatesSavedRows``): the pairs
    /// gathered per target and relationship, and how many.
    var relating: [[[(object: ObjectID, destination: ObjectID)]]]?
    var relatingCount = 0
    /// Line → index of its first reference, for `forward[0..<forwardLinesCovered]`: how a removal finds
    /// the references of the row that inherits an object (``forwardIndex(ofLine:)``) without a scan of
    /// ``forward`` each time. Appends extend it; anything else that changes ``forward`` resets it
    /// (``resetForwardLines()``).
    var forwardLines: [Int: Int] = [:]
    var forwardLinesCovered = 0
    /// Per row with forward references, the object each target inserted (nil: none, or it updated an
    /// existing one), `targetCount` slots a row: its references share them (``_ForwardReference/objectsAt``).
    /// Set at the save.
    var forwardObjects: [ObjectID?] = []
    /// Rows with forward references whose objects are not saved yet: their IDs are read after the next save.
    var unsavedForward: [(objectsAt: Int, objects: [ManagedObject?])] = []
    /// Per target, key entry → its pending forward reference (a later row with the key replaces it).
    var forwardByEntry: [[Int: Int]]
    /// The forward references moved out of memory (past ``forwardKeyLimit``), all from lines before those
    /// in ``forward`` but for abort mode's early ones whose key never came.
    var spilledForward: _SpilledForward?
    /// While the file's forward references are settled in skip mode with some on disk: what the passes
    /// keep of those (``startOnDisk(_:)``).
    var diskForward: _DiskForward?
    /// While forward references are settled: per reference in ``forward``, the key entry the first pass
    /// found (-1: none).
    var forwardFound: [Int] = []
    lazy var forwardKeyLimit = session.options.forwardKeyLimit
    /// In abort mode, forward references set as soon as their key comes (in the same batch, before the
    /// insert; else after the next save) rather than once the file has been read, and then forgotten:
    /// memory holds only the keys still to come, so a file listing employees before their managers stays
    /// flat (``settlesEarly(_:_:)`` says which references).
    var early: [Int: _EarlyForward] = [:]
    var nextEarly = 0
    /// Whether this row's forward keys may wait in ``early``: while fewer than
    /// ``ImportOptions/earlyForwardLimit`` wait. Past it (keys that come far later, such as every manager
    /// listed at the end), the end-of-file list, smaller a key and moved to disk past its own limit, takes
    /// them (measured: 200,000 employees naming the last 1,000 rows took 150 MB all in ``early``, 93 MB
    /// with a limit of 65,536, 55 MB with 16,384 and the end-of-file list moved to disk).
    var earlyOpen = true
    lazy var earlyLimit = session.options.earlyForwardLimit
    /// The early references whose key has not come, by the key's hash: the first of a chain through
    /// ``_EarlyForward/nextWaiting`` (no array to allocate for each key).
    var earlyWaiting: [UInt64: Int] = [:]
    /// The early references whose key came since the last save, with the key's entry.
    var earlyReady: [(id: Int, entry: Int)] = []
    /// Per target, the entry of an early reference's own object → the first of its early references, a
    /// chain through ``_EarlyForward/nextSameEntry`` (a later row that updates the object sets the
    /// relationships itself and voids them).
    var earlyByEntry: [[Int: Int]]
    /// Early references whose own object is not saved yet: its ID is read after the next save.
    var earlyUnsaved: [Int] = []
    /// Per keyed target, the key entries whose object a row with forward keys inserted: such a row may be
    /// rejected once the file has been read (a bit an entry: a dictionary of lines took about 40 bytes).
    var insertedByForwardRow: [_EntrySet]
    /// Per keyed target, key entry → the later rows that updated an object ``insertedByForwardRow`` holds.
    var laterWriters: [[Int: [Int]]]
    /// Objects a rejected row inserted that were kept for the later rows that upserted them (target, the
    /// rejected row's line, those rows' lines): they go after all if every one of those rows is rejected.
    var keptForLaterRows: [(id: ObjectID, target: Int, line: Int, writers: [Int])] = []
    /// Re-reads a record's original text for a reject found here (the reader has moved on).
    var rawReader: CSVReader?
    /// Whether rejected rows are set aside (skip mode): only then can a row be rejected once the file has
    /// been read, and its changes to earlier objects need keeping.
    let takesBackRejectedRows: Bool
    /// Per object that existed before it, the writes of rows that may be rejected once the file has been
    /// read (rows with forward keys, and in ``keepsChainWrites`` files rows touching earlier objects), and
    /// of every later row that wrote the same object: a rejected row's changes are taken back from them
    /// (``takeBackRejectedWrites(of:leaving:)``).
    var writes: [ObjectID: [_Write]] = [:]
    /// The objects in ``writes`` by the line of a row that wrote them.
    var writesByLine: [Int: [ObjectID]] = [:]
    /// The objects this row wrote so far: their values after the row are read when it ends.
    var rowWrites: [ManagedObject] = []
    /// Unsaved objects whose temporary IDs ``writes`` holds (as a key or in a value): the next save gives
    /// them permanent ones, which the writes take.
    var unsavedInWrites: [(id: ObjectID, object: ManagedObject)] = []
    /// Whether rows without forward keys keep their writes to earlier objects too: in skip mode, when the
    /// file fills a relationship from its own rows, a row may be rejected in a chain once the file has been
    /// read (it names, or is named by, an object removed with a rejected row).
    let keepsChainWrites: Bool
    /// Whether this row keeps its writes to earlier objects.
    @exclusivity(unchecked) var rowKeepsWrites = false
    /// About how many bytes the writes of rows without forward keys take: past
    /// ``ImportOptions/chainWriteBytes`` (``chainWriteBudget``) they keep no more.
    var chainWriteBytes = 0
    let chainWriteBudget: Int
    /// Objects a row wrote past ``chainWriteBudget`` without keeping the write: their history is not
    /// whole, so nothing of theirs is taken back.
    var unkeptWrites = Set<ObjectID>()
    /// The lines of the rows that kept writes, by the object of each of their keyed targets: when that
    /// object is removed, those rows are rejected (found by its key), and their writes are taken back.
    var linesByRowObject: [ObjectID: [Int]] = [:]
    /// Lines whose rows are about to be rejected (their object is being removed).
    var doomedLines = Set<Int>()
    /// How many objects had writes taken back so far.
    var objectsTakenBack = 0

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
        relationshipLaterFillers = targets.map(\.relationshipLaterFillers)
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
        updatesOnly = plans.contains { !$0.unmappedRequired.isEmpty }
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

    func rawBytes(_ row: _RowChunk.Row) -> [UInt8] {
        rawBytes(line: row.line, byteOffset: row.byteOffset, byteCount: row.byteCount)
    }

    /// A record's original bytes, re-read from the file.
    func rawBytes(line: Int, byteOffset: Int64, byteCount: Int) -> [UInt8] {
        if rawReader == nil { rawReader = try? CSVReader(path: file.path, dialect: file.options.dialect) }
        let record = CSVRecord(fields: [], lineNumber: line, byteOffset: byteOffset, byteCount: byteCount)
        return (try? rawReader?.rawBytes(of: record)) ?? []
    }

    /// Writes every row of a chunk (its value arrays are moved out), then reports progress.
    func process(_ chunk: inout _RowChunk) throws {
        try session.checkCancelled()
        for row in chunk.rows {
            rowsRead += 1
            switch row.status {
            case .blank:
                blankRows += 1
            case .repeatedHeader:
                file.noteRepeatedHeader(line: row.line, reporting: reportedLines)
            case .failed(let failure, let raw, let keys):
                // A row an earlier run rejected late comes back as set aside by the reader: its values read.
                try session.reject(file, line: row.line, failure, unread: !file.excluded.contains(row.line), raw: { raw })
                if session.options.onError == .skip { setAsideKeys.formUnion(keys) }
            case .converted(let first):
                for t in 0..<targetCount { swap(&rowValues[t], &chunk.values[first + t]) }
                try write(row)
            }
        }
        session.progress.update(bytes: chunk.bytesRead, rows: file.rowsRead + rowsRead)
        if chunk.unnamedValueRows > 0 {
            file.unnamedValueRows += chunk.unnamedValueRows
            if file.firstUnnamedValueLine == nil { file.firstUnnamedValueLine = chunk.firstUnnamedValueLine }
            file.unnamedValueColumns.formUnion(chunk.unnamedValueColumns)
        }
        if !chunk.textNulls.isEmpty { _FieldTally.merge(chunk.textNulls, into: &file.textNulls) }
        if !chunk.commaGrouped.isEmpty { _FieldTally.merge(chunk.commaGrouped, into: &file.commaGrouped) }
        if !chunk.paddedText.isEmpty { _FieldTally.merge(chunk.paddedText, into: &file.paddedText) }
        if !chunk.escapedText.isEmpty { _FieldTally.merge(chunk.escapedText, into: &file.escapedText) }
        if !chunk.leadingZeros.isEmpty { _FieldTally.merge(chunk.leadingZeros, into: &file.leadingZeros) }
        if let error = chunk.error { throw error }
    }

    /// One converted row, its values in ``rowValues``.
    func write(_ row: _RowChunk.Row) throws {
        // Decided once a row: its forward keys all wait in the same place.
        earlyOpen = early.count < earlyLimit
        // 1. Relationships: the key values the reader left in the foreign-key slots become objects.
        if hasRelationships, let failure = resolveRelationships() {
            // Forward keys the row named before the failing one go with it (a later row must not inherit them).
            rowForward.removeAll(keepingCapacity: true)
            try session.reject(file, line: row.line, failure, contextual: takesBackRejectedRows, raw: { rawBytes(row) })
            noteSetAsideKeys()
            return
        }
        if hasRequiredLinks, let failure = linkTakesRequiredPartner() {
            rowForward.removeAll(keepingCapacity: true)
            try session.reject(file, line: row.line, failure, contextual: takesBackRejectedRows, raw: { rawBytes(row) })
            return
        }
        if updatesOnly, let failure = newObjectLacksRequired() {
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
    static func partnerMayLetGo(_ object: ManagedObject, at ordinal: Int, keeping: ManagedObject, inverseOptional: Bool) -> Bool {
        guard case .object(let partner) = object.value(at: ordinal), partner != keeping.objectID else { return true }
        return inverseOptional
    }

    /// Updates the existing object `id` of target `t` with a row's values (an upsert), counting a
    /// duplicate when the key repeats one of this file.
    func update(_ t: Int, _ id: ObjectID, _ values: ContiguousArray<Value>, _ row: _RowChunk.Row) throws -> ManagedObject {
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
    func setOneToOne(_ object: ManagedObject, _ t: Int, _ r: Int, _ value: Value) throws(ImportError) {
        do { try object.setValue(value, forKey: relationshipNames[t][r]) } catch {
            throw ImportError(.store, reason: "setting \(entities[t].name).\(relationshipNames[t][r]) failed: \(error)")
        }
        changes += 1
    }

    /// `object` no longer holds `value` (an upsert changed it, or it is being removed): if the index
    /// finds `object` by it, the value passes to the next object that holds it, or to none.
    func vacate(_ index: _KeyIndex, _ value: Value, of object: ManagedObject) throws(ImportError) {
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
    func noteVacated(_ value: Value) {
        if vacatedKeys != nil { vacatedKeys!.insert(Self.hash(of: value)) }
    }

    /// A key's hash, as the key indexes compute it from its bytes.
    static func hash(of value: Value) -> UInt64 { _KeyBytes.with(value) { _KeyIndex.hash64($0) } }

    /// Whether only rows set aside so far made `key` of `index`: this file's (noted as they were set aside),
    /// or earlier files' (read again, once).
    func wasSetAside(_ key: Value, in index: _KeyIndex) -> Bool {
        setAsideKeys.contains(_SetAsideKey(index, key)) || session.wasSetAside(key, in: index, upTo: file)
    }

    /// Notes the keys of a row set aside as it was read (skip mode), so that a later row of the file that
    /// requires one is told the key's row was set aside, not that it must come first: 8 bytes a key.
    func noteSetAsideKeys() {
        guard session.options.onError == .skip else { return }
        for t in 0..<targetCount {
            for index in [keys[t]].compactMap({ $0 }) + populates[t] where !rowValues[t][index.ordinal].isNull {
                setAsideKeys.insert(_SetAsideKey(index, rowValues[t][index.ordinal]))
            }
        }
    }

    /// For the message of a key no object has: the file that fills the destination after this one, if any.
    func laterFillerNote(_ t: Int, _ r: Int, key: Value) -> String {
        guard let later = relationshipLaterFillers[t][r] else { return "" }
        let index = relationshipPlans[t][r].index
        // Only when that file holds the key (a user trial was told to reorder files that did not): its keys
        // are read once, as hashes, up to ``laterFillerKeyLimit`` (past that, the note says "if").
        let slot = t << 16 | r
        if laterFillerKeys[slot] == nil { laterFillerKeys[slot] = readLaterFillerKeys(later, index) }
        switch laterFillerKeys[slot]! {
        case .some(let hashes):
            guard hashes.contains(Self.hash(of: key)) else { return "" }
            return "; \(later) makes it, but runs after this file, in the order the files are given: list it first"
        case .none:
            return "; \(later) fills \(index.entity.name) too but runs after this file, in the order the files are given: list it first if its rows make such keys"
        }
    }

    /// The hashes of the keys of `index` a later file (`path`, as displayed) makes, or `nil` when there are
    /// more than ``laterFillerKeyLimit`` or the file cannot be read again.
    func readLaterFillerKeys(_ path: String, _ index: _KeyIndex) -> Set<UInt64>? {
        guard let plan = session.plan.files.first(where: { $0.displayPath == path && $0.position > file.position && $0.join == nil }) else { return nil }
        let fields = plan.targets.compactMap { target -> (_TargetPlan, _FieldPlan)? in
            guard target.entity.name == index.entity.name, let ordinal = target.entity.columnIndex(of: index.attribute),
                  let field = target.fields.first(where: { $0.ordinal == ordinal }) else { return nil }
            return (target, field)
        }
        // A file that does not read the attribute makes no such key.
        guard !fields.isEmpty else { return [] }
        var hashes = Set<UInt64>()
        var tooMany = false
        do {
            try CSVReader(path: plan.path, dialect: plan.options.dialect).forEachRawRecord { record in
                guard !tooMany else { return }
                for (target, field) in fields {
                    guard let value = Self.key(field, of: target, in: record) else { continue }
                    hashes.insert(Self.hash(of: value))
                }
                tooMany = hashes.count > Self.laterFillerKeyLimit
            }
        } catch {
            return nil
        }
        return tooMany ? nil : hashes
    }

    /// The most keys of a later file ``laterFillerNote(_:_:key:)`` keeps (8 bytes each, for a message).
    static let laterFillerKeyLimit = 250_000

    /// Saves the batch; the forward references of its rows learn their objects' permanent IDs.
    func save() throws(ImportError) {
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

    /// Turns the keys in foreign-key slots into objects; the failure of the first key that names none.
    func resolveRelationships() -> _RowFailure? {
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
                    let named = "no \(index.entity.name) has \(index.attribute) \(_ImportSession.describe(key))"
                    return _RowFailure(
                        field: relationship.field, entity: entities[t].name, attribute: relationshipNames[t][r],
                        reason: wasSetAside(key, in: index)
                            ? named + " but in rows set aside"
                            : named + index.spacedKeyNote(key) + " (the key must name an object of a file imported before this one)"
                                + laterFillerNote(t, r, key: key),
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
    func takenPartner(_ t: Int, _ r: Int, _ destination: ObjectID, _ key: Value) -> _RowFailure? {
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
    func linkTakesRequiredPartner() -> _RowFailure? {
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

    /// When a target whose file lacks columns for required attributes (``_TargetPlan/unmappedRequired``)
    /// would insert an object rather than update one: the failure naming its key and the attributes.
    func newObjectLacksRequired() -> _RowFailure? {
        for t in 0..<targetCount where !targets[t].unmappedRequired.isEmpty && !updatesExisting(t) {
            let missing = targets[t].unmappedRequired
            let key = keys[t].map { rowValues[t][$0.ordinal] }
            let field = keys[t].flatMap { key in targets[t].fields.first { $0.ordinal == key.ordinal }?.field }
            let listed = missing.count == 1 ? missing[0] : missing.dropLast().joined(separator: ", ") + " and " + missing.last!
            return _RowFailure(
                field: field, entity: entities[t].name, attribute: targets[t].keyAttribute,
                reason: "no \(entities[t].name) has \(targets[t].keyAttribute ?? "this key") \(key.map(_ImportSession.describe) ?? "") yet, so this row would make a new one, "
                    + "but the file has no column for \(listed), which \(entities[t].name) requires: rows of this file may only update "
                    + "\(entities[t].name) objects an earlier file made; put the row in that file, or add the column\(missing.count == 1 ? "" : "s")",
                value: key?.description)
        }
        return nil
    }

    /// The ID of the object target `t` of this row updates (nil: it inserts one): the one its key names,
    /// or (keyed through its link) the linked target's object's partner.
    func existingObjectID(_ t: Int) -> ObjectID? {
        if let own = keys[t] { return own.find(rowValues[t][own.ordinal]).map { own.objectID($0) } }
        let via = keyThrough[t]
        guard via >= 0, let viaID = existingObjectID(via), let object = try? session.existing(viaID),
              case .object(let id) = object.value(at: links[t]!.inverseOrdinal!) else { return nil }
        return id
    }

    /// The object target `t` of this row updates (nil: it inserts one).
    func existingObject(_ t: Int) -> ManagedObject? {
        existingObjectID(t).flatMap { try? session.existing($0) }
    }

    /// Whether this row will update an existing object of target `t` rather than insert one.
    func updatesExisting(_ t: Int) -> Bool { existingObjectID(t) != nil }

    /// A key naming no object yet, of an entity this file fills: kept for after the file (the slot is
    /// left empty), or the reason it cannot wait.
    func forwardReference(_ t: Int, _ r: Int, _ key: Value) -> _RowFailure? {
        let relationship = relationshipPlans[t][r]
        let index = relationship.index
        func failure(_ why: String) -> _RowFailure {
            _RowFailure(field: relationship.field, entity: entities[t].name, attribute: relationshipNames[t][r],
                        reason: "no \(index.entity.name) has \(index.attribute) \(_ImportSession.describe(key))\(index.spacedKeyNote(key)) before this row, and " + why,
                        value: key.description)
        }
        guard relationship.isOptional else {
            // Its own key: no row can come first. A key only rows set aside made: the row did come first.
            let named = "no \(index.entity.name) has \(index.attribute) \(_ImportSession.describe(key))"
            if (0..<targetCount).contains(where: { keys[$0] === index && rowValues[$0][index.ordinal] == key }) {
                return _RowFailure(field: relationship.field, entity: entities[t].name, attribute: relationshipNames[t][r],
                                   reason: "\(_ImportSession.describe(key)) is this row's own \(index.entity.name), which a required relationship "
                                       + "cannot name (its object is made with the row): name another row's key, or make the relationship optional",
                                   value: key.description)
            }
            if wasSetAside(key, in: index) {
                return _RowFailure(field: relationship.field, entity: entities[t].name, attribute: relationshipNames[t][r],
                                   reason: named + " but in rows set aside", value: key.description)
            }
            return failure("\(relationshipNames[t][r]) is required, so the row it names must come first (or make the relationship optional to allow forward references)")
        }
        if updatesExisting(t) {
            if wasSetAside(key, in: index) {
                return _RowFailure(field: relationship.field, entity: entities[t].name, attribute: relationshipNames[t][r],
                                   reason: "no \(index.entity.name) has \(index.attribute) \(_ImportSession.describe(key)) but in rows set aside", value: key.description)
            }
            return failure("this row updates an existing \(entities[t].name): forward references are kept for new objects only")
        }
        rowValues[t][relationship.ordinal] = .null
        rowForward.append((t, r, key))
        return nil
    }
}

/// A key a row set aside held, in one index: the index and the key's hash (a collision could at worst word
/// one message as if the key were set aside).
struct _SetAsideKey: Hashable, Sendable {
    let index: ObjectIdentifier
    let hash: UInt64

    init(_ index: _KeyIndex, _ key: Value) {
        self.index = ObjectIdentifier(index)
        hash = _TargetWriter.hash(of: key)
    }
}

/// Why an object went with rejected rows, for the rejects file: the words, and when it went for naming a
/// removed object in a to-one, that relationship and the key it named, so the row's reject points at the
/// relationship's column (`boss: no Emp has code "E4" but in rows set aside`) rather than at its key.
struct _CascadeCause {
    let reason: String
    /// The to-one whose destination went (its name in the row's target), and that destination's key.
    var relationship: (name: String, destination: _KeyIndex, value: Value)?
}
