import CSVStream
import ManagedStore

/// A row of a file, by the file's position in the plan and the row's line.
struct _RowRef: Hashable {
    let position: Int
    let line: Int
}

/// A key a row names in a relationship column, or makes as a keyed target: entity, key attribute, and
/// the key's bytes (as the key indexes compare).
struct _NamedKey: Hashable {
    let entity: String
    let attribute: String
    let bytes: [UInt8]
}

extension _ImportSession {
    /// Of the rows this run rejected late, those rejected for what they hold themselves: they name a key
    /// (a forward key that never came, among them) that no row may make in the next run but such rows
    /// (found by reading the files twice: the keys those rows name, then who makes them). The others
    /// went along with them (a Cascade rule, the other rows of an object removed, a partner), or named a
    /// key a row refused in this run may make in the next: a run without the first kind decides them again.
    func ownCauseRejects() throws(ImportError) -> [Int: [Int: _RowFailure]] {
        var own: [Int: Set<Int>] = [:]
        // The keys each late row (or row refused for a key) names, by file position and line, with where
        // and what for the reason.
        var named: [Int: [Int: [(key: _NamedKey, failure: _RowFailure)]]] = [:]
        let keyAttributes = Set(plan.files.flatMap(\.targets).compactMap { target in
            target.keyAttribute.map { _IndexKey(entity: target.entity.name, attribute: $0) }
        })
        // Rows refused as they were read for a key they named may make their own key in the next run only
        // if what they name may be made then: they go through the same test, though only late rows are left out.
        try forEachRecord(purpose: "for the keys rows rejected late name") { file, record in
            let line = record.lineNumber
            guard lateRejects[file.position]?[line] != nil || contextualRejects[file.position]?.contains(line) == true else { return }
            var keys: [(key: _NamedKey, failure: _RowFailure)] = []
            for target in file.targets {
                for (r, relationship) in target.relationships.enumerated() {
                    let index = relationship.index
                    // A destination found by a value that is not a target's key: no row "makes" it here.
                    guard keyAttributes.contains(_IndexKey(entity: index.entity.name, attribute: index.attribute)),
                          let value = Self.relationshipKey(relationship, in: record, trim: file.options.trim) else { continue }
                    let failure = _RowFailure(
                        field: relationship.field, entity: target.entity.name, attribute: target.relationshipNames[r],
                        reason: "no \(index.entity.name) has \(index.attribute) \(Self.describe(value)) but in rows set aside", value: value.description)
                    keys.append((_NamedKey(entity: index.entity.name, attribute: index.attribute, bytes: _KeyBytes.with(value) { Array($0) }), failure))
                }
            }
            if !keys.isEmpty { named[file.position, default: [:]][line] = keys }
        }
        // Who may make each key those rows name, read once: rows not rejected for themselves (nor left out by
        // an earlier run), nor rejected as they were read for what they hold (a value, the field count). A
        // row refused as it was read for a key it named, or a partner it would take, may stand.
        var candidates = Set<_NamedKey>()
        for lines in named.values { for keys in lines.values { candidates.formUnion(keys.map(\.key)) } }
        var makers: [_NamedKey: Set<_RowRef>] = [:]
        if !candidates.isEmpty {
            try forEachRecord(purpose: "for the keys rows that may stand make") { file, record in
                let line = record.lineNumber
                if excluded(file, line) { return }
                if file.rejectedLines.contains(line) && lateRejects[file.position]?[line] == nil
                    && contextualRejects[file.position]?.contains(line) != true { return }
                for target in file.targets {
                    guard let attribute = target.keyAttribute, let ordinal = target.entity.columnIndex(of: attribute),
                          let field = target.fields.first(where: { $0.ordinal == ordinal }),
                          let value = _TargetWriter.key(field, of: target, in: record, trim: file.options.trim) else { continue }
                    let key = _NamedKey(entity: target.entity.name, attribute: attribute, bytes: _KeyBytes.with(value) { Array($0) })
                    if candidates.contains(key) { makers[key, default: []].insert(_RowRef(position: file.position, line: line)) }
                }
            }
        }
        // A row naming a key no maker left may make is rejected for itself and makes nothing, which may leave
        // other keys without makers: a work list of such keys, each row and key visited once.
        var namers: [_NamedKey: [_RowRef]] = [:]
        for (position, lines) in named {
            for (line, keys) in lines { for key in keys { namers[key.key, default: []].append(_RowRef(position: position, line: line)) } }
        }
        var makes: [_RowRef: [_NamedKey]] = [:]
        var liveMakers: [_NamedKey: Int] = [:]
        for (key, rows) in makers {
            liveMakers[key] = rows.count
            for row in rows { makes[row, default: []].append(key) }
        }
        var unmade = candidates.filter { liveMakers[$0, default: 0] == 0 }.sorted { $0.bytes.lexicographicallyPrecedes($1.bytes) }
        while let key = unmade.popLast() {
            for row in namers[key] ?? [] where own[row.position]?.contains(row.line) != true {
                own[row.position, default: []].insert(row.line)
                for made in makes[row] ?? [] {
                    liveMakers[made, default: 0] -= 1
                    if liveMakers[made] == 0 { unmade.append(made) }
                }
            }
        }
        // Every root's key has a row that may make it in the next run, which may then reject the same rows:
        // the roots go, so each run leaves out more.
        let ownLate = own.contains { position, lines in lines.contains { lateRejects[position]?[$0] != nil } }
        if !ownLate { own = lateRoots }
        var result: [Int: [Int: _RowFailure]] = [:]
        for (position, lines) in lateRejects {
            guard let ownLines = own[position] else { continue }
            // Sized once: growing a table of many rows step by step held two copies at each step.
            var kept = [Int: _RowFailure](minimumCapacity: ownLines.count)
            for (line, failure) in lines where ownLines.contains(line) {
                // A root keeps its reason; another row's is the first key it names (in column order) that no
                // row left may make (its first run's reason may be another).
                let root = lateRoots[position]?.contains(line) == true
                let unmade = root ? nil : named[position]?[line]?.first { liveMakers[$0.key, default: 0] == 0 }
                kept[line] = unmade?.failure ?? failure
            }
            if !kept.isEmpty { result[position] = kept }
        }
        return result
    }

    /// The destination key a record names in a relationship column (nil: empty, or not a key).
    static func relationshipKey(_ relationship: _RelationshipPlan, in record: CSVRawRecord, trim: Bool) -> Value? {
        guard relationship.field < record.count else { return nil }
        return record.withBytes(at: relationship.field) { raw in
            let bytes = trim ? _trimmed(raw) : raw
            if relationship.nulls.matches(bytes) && !record.isQuoted(at: relationship.field) { return nil }
            return relationship.converter.convert(bytes)
        }
    }

    /// Whether an earlier run set the row aside for itself (this run read it as rejected).
    private func excluded(_ file: _FilePlan, _ line: Int) -> Bool { file.excluded[line] != nil }

    /// Reads every file with targets again, calling `body` for each record.
    private func forEachRecord(purpose: String, _ body: (_FilePlan, CSVRawRecord) throws -> Void) throws(ImportError) {
        for file in plan.files where file.join == nil {
            do {
                let reader = try CSVReader(path: file.path, dialect: file.options.dialect)
                try reader.forEachRawRecord { record in try body(file, record) }
            } catch let error as ImportError {
                throw error
            } catch {
                throw ImportError(.input, reason: "cannot read the file again \(purpose): \(error)", file: file.displayPath)
            }
        }
    }
}
