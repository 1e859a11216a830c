import CSVStream
import ManagedStore

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
    /// (found by reading the files again, until nothing changes). The others went along with them (a
    /// Cascade rule, the other rows of an object removed, a partner), or named a key a row refused in
    /// this run may make in the next: a run without the first kind decides them again.
    func ownCauseRejects() throws(ImportError) -> [Int: [Int: _RowFailure]] {
        var own: [Int: Set<Int>] = [:]
        // Why a row that names a key only such rows make is set aside (its first run's reason may be another).
        var reasons: [Int: [Int: _RowFailure]] = [:]
        // The keys each other late row names, by file position and line, with where and what for the reason.
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
        while true {
            var candidates = Set<_NamedKey>()
            for (position, lines) in named {
                for (line, keys) in lines where own[position]?.contains(line) != true { candidates.formUnion(keys.map(\.key)) }
            }
            guard !candidates.isEmpty else { break }
            // Made by a row that may stand in the next run: any row not rejected for itself, or for what it
            // holds. (A row refused as it was read for a key it named, or a partner it would take, may stand.)
            var made = Set<_NamedKey>()
            try forEachRecord(purpose: "for the keys rows that may stand make") { file, record in
                let line = record.lineNumber
                if own[file.position]?.contains(line) == true || excluded(file, line) { return }
                // Rejected as it was read for what it holds (a value, the field count): it stays rejected.
                if file.rejectedLines.contains(line) && lateRejects[file.position]?[line] == nil
                    && contextualRejects[file.position]?.contains(line) != true { return }
                for target in file.targets {
                    guard let attribute = target.keyAttribute, let ordinal = target.entity.columnIndex(of: attribute),
                          let field = target.fields.first(where: { $0.ordinal == ordinal }),
                          let value = _TargetWriter.key(field, of: target, in: record, trim: file.options.trim) else { continue }
                    let key = _NamedKey(entity: target.entity.name, attribute: attribute, bytes: _KeyBytes.with(value) { Array($0) })
                    if candidates.contains(key) { made.insert(key) }
                }
            }
            var added = false
            for (position, lines) in named {
                for (line, keys) in lines where own[position]?.contains(line) != true {
                    guard let gone = keys.first(where: { !made.contains($0.key) }) else { continue }
                    own[position, default: []].insert(line)
                    reasons[position, default: [:]][line] = gone.failure
                    added = true
                }
            }
            if !added { break }
        }
        // Every root's key has a row that may make it in the next run, which may then reject the same rows:
        // the roots go, so each run leaves out more.
        let ownLate = own.contains { position, lines in lines.contains { lateRejects[position]?[$0] != nil } }
        if !ownLate { own = lateRoots }
        var result: [Int: [Int: _RowFailure]] = [:]
        for (position, lines) in lateRejects {
            for (line, failure) in lines where own[position]?.contains(line) == true {
                let root = lateRoots[position]?.contains(line) == true
                result[position, default: [:]][line] = root ? failure : reasons[position]?[line] ?? failure
            }
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
