import CSVStream
import ManagedStore

/// A key a row names in a relationship column, or makes as a keyed target: the entity and key attribute
/// (numbered), and the key's bytes (as the key indexes compare).
struct _NamedKey: Hashable {
    let index: Int
    let bytes: [UInt8]
}

extension _ImportSession {
    /// Of the rows this run rejected late, those rejected for what they hold themselves: they name a key
    /// (a forward key that never came, among them) that no row may make in the next run but such rows
    /// (found by reading the files twice: the keys those rows name, then who makes them). The others
    /// went along with them (a Cascade rule, the other rows of an object removed, a partner), or named a
    /// key a row refused in this run may make in the next: a run without the first kind decides them again.
    ///
    /// Every row and key is a number and what they hold sits in flat arrays, not a dictionary or set for
    /// each: nearly every row of a file may have been rejected late. Measured on 200,000 such rows (a chain,
    /// and 10% naming a manager that never comes), with ``_FailureTable``: the import's peak went from 446
    /// and 364 MB to 151 and 144 MB, and this search is no longer where it peaks.
    func ownCauseRejects(oneRoot: Bool = false) throws(ImportError) -> [Int: _FailureTable] {
        var indexNumbers: [_IndexKey: Int] = [:]
        for target in plan.files.flatMap(\.targets) {
            guard let attribute = target.keyAttribute else { continue }
            let index = _IndexKey(entity: target.entity.name, attribute: attribute)
            if indexNumbers[index] == nil { indexNumbers[index] = indexNumbers.count }
        }
        let fileNumbers = Dictionary(uniqueKeysWithValues: plan.files.enumerated().map { ($1.position, $0) })
        // The rows that name keys (rows rejected late, and rows refused as they were read for a key they named,
        // which may make their own key in the next run only if what they name may be made then), in reading
        // order: file number and line.
        var rowFiles: [Int32] = []
        var rowLines: [Int] = []
        // What they name, in column order, row after row: row r's are entries entryStarts[r]..<entryStarts[r + 1].
        var entryStarts: [Int32] = [0]
        var entryKeys: [Int32] = []
        var entryRows: [Int32] = []
        var entryPlaces: [(target: UInt16, relationship: UInt16)] = []
        var entryValues: [Value] = []
        var keyNumbers: [_NamedKey: Int32] = [:]
        try forEachRecord(purpose: "for the keys rows rejected late name") { file, record in
            let line = record.lineNumber
            guard lateRejects[file.position]?.contains(line) == true || contextualRejects[file.position]?.contains(line) == true else { return }
            let first = entryKeys.count
            for (t, target) in file.targets.enumerated() {
                for (r, relationship) in target.relationships.enumerated() {
                    let index = relationship.index
                    // A destination found by a value that is not a target's key: no row "makes" it here.
                    guard let number = indexNumbers[_IndexKey(entity: index.entity.name, attribute: index.attribute)],
                          let value = Self.relationshipKey(relationship, in: record) else { continue }
                    let key = _NamedKey(index: number, bytes: _KeyBytes.with(value) { Array($0) })
                    let keyNumber = keyNumbers[key] ?? Int32(keyNumbers.count)
                    if keyNumber == keyNumbers.count { keyNumbers[key] = keyNumber }
                    entryKeys.append(keyNumber)
                    entryRows.append(Int32(rowLines.count))
                    entryPlaces.append((UInt16(t), UInt16(r)))
                    entryValues.append(value)
                }
            }
            guard entryKeys.count > first else { return }
            rowFiles.append(Int32(fileNumbers[file.position] ?? 0))
            rowLines.append(line)
            entryStarts.append(Int32(entryKeys.count))
        }
        let rowCount = rowLines.count
        // Who may make each key those rows name, read once: rows not rejected for themselves (nor left out by
        // an earlier run), nor rejected as they were read for what they hold (a value, the field count). A
        // row refused as it was read for a key it named, or a partner it would take, may stand. Each row
        // counts once a key; for the rows above, the keys they make.
        var liveMakers = [Int32](repeating: 0, count: keyNumbers.count)
        var made: [(row: Int32, key: Int32)] = []
        if !keyNumbers.isEmpty {
            var next = 0
            var rowKeys: [Int32] = []
            try forEachRecord(purpose: "for the keys rows that may stand make") { file, record in
                let line = record.lineNumber
                // The files are read in the same order again: the rows above come up in turn.
                let here = (Int32(fileNumbers[file.position] ?? 0), line)
                while next < rowCount && (rowFiles[next], rowLines[next]) < here { next += 1 }
                let row = next < rowCount && (rowFiles[next], rowLines[next]) == here ? Int32(next) : nil
                if file.excluded.contains(line) { return }
                if file.rejectedLines.contains(line) && lateRejects[file.position]?.contains(line) != true
                    && contextualRejects[file.position]?.contains(line) != true { return }
                rowKeys.removeAll(keepingCapacity: true)
                for target in file.targets {
                    guard let attribute = target.keyAttribute, let ordinal = target.entity.columnIndex(of: attribute),
                          let number = indexNumbers[_IndexKey(entity: target.entity.name, attribute: attribute)],
                          let field = target.fields.first(where: { $0.ordinal == ordinal }),
                          let value = _TargetWriter.key(field, of: target, in: record) else { continue }
                    guard let key = keyNumbers[_NamedKey(index: number, bytes: _KeyBytes.with(value) { Array($0) })],
                          !rowKeys.contains(key) else { continue }
                    rowKeys.append(key)
                    liveMakers[Int(key)] += 1
                    if let row { made.append((row, key)) }
                }
            }
        }
        // A row naming a key no maker left may make is rejected for itself and makes nothing, which may leave
        // other keys without makers: a work list of such keys, each row and key visited once.
        let namers = Self.grouped(entryKeys.indices.map { (group: entryKeys[$0], item: Int32($0)) }, groups: keyNumbers.count)
        let makes = Self.grouped(made.map { (group: $0.row, item: $0.key) }, groups: rowCount)
        var own = [Bool](repeating: false, count: rowCount)
        var unmade = liveMakers.indices.filter { liveMakers[$0] == 0 }.reversed().map { Int32($0) }
        while let key = unmade.popLast() {
            for entry in namers.items[Int(namers.starts[Int(key)])..<Int(namers.starts[Int(key) + 1])] {
                let row = Int(entryRows[Int(entry)])
                guard !own[row] else { continue }
                own[row] = true
                for madeKey in makes.items[Int(makes.starts[row])..<Int(makes.starts[row + 1])] {
                    liveMakers[Int(madeKey)] -= 1
                    if liveMakers[Int(madeKey)] == 0 { unmade.append(madeKey) }
                }
            }
        }
        var result: [Int: _FailureTable] = [:]
        let ownLate = own.indices.contains { own[$0] && lateRejects[plan.files[Int(rowFiles[$0])].position]?.contains(rowLines[$0]) == true }
        guard ownLate else {
            // Every root's key has a row that may make it in the next run, which may then reject the same rows:
            // roots go, so each run leaves out more. With `oneRoot`, only the last root read: roots may block
            // each other's makers (each holds a partner another's maker needed), and leaving out one may let
            // the others stand (over-rejected-2403481).
            var roots = lateRoots
            if oneRoot, let last = lateRoots.flatMap({ position, lines in lines.map { (fileNumbers[position] ?? 0, $0, position) } }).max(by: { ($0.0, $0.1) < ($1.0, $1.1) }) {
                roots = [last.2: [last.1]]
            }
            for (position, lines) in roots {
                for line in lines { if let failure = lateRejects[position]?[line] { result[position, default: _FailureTable()][line] = failure } }
            }
            return result
        }
        for row in own.indices where own[row] {
            let file = plan.files[Int(rowFiles[row])]
            let line = rowLines[row]
            guard let failure = lateRejects[file.position]?[line] else { continue }
            // A root keeps its reason; another row's is the first key it names (in column order) that no row
            // left may make (its first run's reason may be another).
            let entries = Int(entryStarts[row])..<Int(entryStarts[row + 1])
            let unmadeEntry = lateRoots[file.position]?.contains(line) == true ? nil : entries.first { liveMakers[Int(entryKeys[$0])] == 0 }
            result[file.position, default: _FailureTable()][line] = unmadeEntry.map { entry in
                let (t, r) = (Int(entryPlaces[entry].target), Int(entryPlaces[entry].relationship))
                let target = file.targets[t], relationship = target.relationships[r], value = entryValues[entry]
                return _RowFailure(
                    field: relationship.field, entity: target.entity.name, attribute: target.relationshipNames[r],
                    reason: "no \(relationship.index.entity.name) has \(relationship.index.attribute) \(Self.describe(value)) but in rows set aside",
                    value: value.description)
            } ?? failure
        }
        return result
    }

    /// Items by group, as one array of items ordered by group and where each group starts (a counting
    /// sort): group g's items are `items[starts[g]..<starts[g + 1]]`, in the order given.
    static func grouped(_ pairs: [(group: Int32, item: Int32)], groups: Int) -> (starts: [Int32], items: [Int32]) {
        var starts = [Int32](repeating: 0, count: groups + 1)
        for pair in pairs { starts[Int(pair.group) + 1] += 1 }
        for g in 0..<groups { starts[g + 1] += starts[g] }
        var fill = starts
        var items = [Int32](repeating: 0, count: pairs.count)
        for pair in pairs {
            items[Int(fill[Int(pair.group)])] = pair.item
            fill[Int(pair.group)] += 1
        }
        return (starts, items)
    }

    /// The destination key a record names in a relationship column (nil: empty, or not a key).
    static func relationshipKey(_ relationship: _RelationshipPlan, in record: CSVRawRecord) -> Value? {
        guard relationship.field < record.count else { return nil }
        return record.withBytes(at: relationship.field) { raw in
            let bytes = relationship.converter.fieldBytes(raw)
            if relationship.nulls.matches(bytes) && !record.isQuoted(at: relationship.field) { return nil }
            return relationship.converter.convert(bytes)
        }
    }

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
