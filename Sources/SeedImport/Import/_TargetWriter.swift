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
    private let populates: [[_KeyIndex]]
    private let mappedOrdinals: [[Int]]
    private let links: [_LinkPlan?]
    private let hasLinks: Bool
    private let hasRelationships: Bool

    // Touched for every row by this thread alone: no dynamic exclusivity checks.
    @exclusivity(unchecked) private var rowsRead = 0
    @exclusivity(unchecked) private var blankRows = 0
    @exclusivity(unchecked) private var rowsImported = 0
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
    /// Re-reads a record's original text for a reject found here (the reader has moved on).
    private var rawReader: CSVReader?

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
        populates = targets.map(\.populates)
        mappedOrdinals = targets.map(\.mappedOrdinals)
        links = targets.map(\.link)
        hasLinks = links.contains { $0 != nil }
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

    private func rawText(_ row: _RowChunk.Row) -> String {
        if rawReader == nil { rawReader = try? CSVReader(path: file.path, dialect: file.options.dialect) }
        let record = CSVRecord(fields: [], lineNumber: row.line, byteOffset: row.byteOffset, byteCount: row.byteCount)
        return (try? rawReader?.rawText(of: record)) ?? ""
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
        // 1. Relationships: the key values the reader left in the foreign-key slots become objects.
        if hasRelationships, let failure = resolveRelationships() {
            try session.reject(file, line: row.line, failure, raw: { rawText(row) })
            return
        }

        // 2. Insert, or update the object a key names.
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
            let object: ManagedObject
            if let key = keys[t] {
                let (entry, isNew) = key.findOrInsert(values[key.ordinal], primaryKey: 0, file: position)
                if isNew {
                    object = context.insert(entities[t], values: values)
                    key.setPrimaryKey(object.objectID.primaryKey, of: entry)
                    pending.append((key, entry, object))
                    inserted[t] += 1
                } else {
                    if key.touch(entry, file: position) == position {
                        duplicates[t] += 1
                        if duplicateLines[t].count < reportedLines { duplicateLines[t].append(row.line) }
                    }
                    object = try session.existing(key.objectID(entry))
                    for ordinal in mappedOrdinals[t] { object.setValue(values[ordinal], at: ordinal) }
                    updated[t] += 1
                }
            } else {
                object = context.insert(entities[t], values: values)
                inserted[t] += 1
            }
            for index in populates[t] {
                let value = object.value(at: index.ordinal)
                if value.isNull { continue }
                let (entry, isNew) = index.findOrInsert(value, primaryKey: object.objectID.primaryKey, file: position)
                if !isNew {
                    index.collisions += 1
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
                if let ordinal = link.ordinal { mine.setValue(.object(other.objectID), at: ordinal) }
                if let inverse = link.inverseOrdinal { other.setValue(.object(mine.objectID), at: inverse) }
                if let name = link.toManyName { try mine.add(other, toKey: name) }
            }
        }
        for t in 0..<targetCount { objects[t] = nil }
        rowsImported += 1
        changes += targetCount
        if changes >= batchSize {
            try session.flush(&pending)
            changes = 0
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
                    return _RowFailure(
                        field: relationship.field, entity: entities[t].name, attribute: relationshipNames[t][r],
                        reason: "no \(index.entity.name) has \(index.attribute) \(_ImportSession.describe(key)) (the key must name an object of a file imported before this one)",
                        value: key.description)
                }
                rowValues[t][relationship.ordinal] = .object(index.objectID(entry))
            }
        }
        return nil
    }
}
