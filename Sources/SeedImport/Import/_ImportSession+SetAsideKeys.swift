import CSVStream
import Foundation
import ManagedStore

/// Skip mode: whether a key a row names, and no object has, was the key of a row set aside, so the
/// row's reject says so (`no Emp has code "E4" but in rows set aside`) instead of calling the key absent
/// from the files, where a user finds it on the line above.
extension _ImportSession {
    /// Whether a row set aside so far, in a file up to `file` that fills `index`'s entity by its key
    /// attribute, held `key` there.
    ///
    /// The files are read again for it once per index and file, and only when such a message is written:
    /// the rows set aside as they were read are not kept. Keys are kept as 64-bit hashes, so a collision
    /// could at worst word one message as if the key were set aside.
    ///
    /// ```swift
    /// session.wasSetAside(.string("E4"), in: index, upTo: file)   // true: line 4 held E4 and was rejected
    /// ```
    func wasSetAside(_ key: Value, in index: _KeyIndex, upTo file: _FilePlan) -> Bool {
        guard options.onError == .skip, plan.files.contains(where: { $0.position <= file.position && $0.rejects > 0 }) else { return false }
        let slot = ObjectIdentifier(index)
        if setAsideKeys[slot]?.file != file.position {
            setAsideKeys[slot] = (file.position, readSetAsideKeys(of: index, upTo: file))
        }
        return _KeyBytes.with(key) { setAsideKeys[slot]?.hashes.contains(_KeyIndex.hash64($0)) ?? false }
    }

    /// The hashes of the keys of `index` that rows set aside held, in the files up to `file`. A file that
    /// cannot be read again gives none: only the wording of messages depends on it.
    private func readSetAsideKeys(of index: _KeyIndex, upTo file: _FilePlan) -> Set<UInt64> {
        var hashes = Set<UInt64>()
        for plan in plan.files where plan.position <= file.position {
            Self.forEachSetAsideKey(in: plan, of: { $0.entity.name == index.entity.name && $0.keyAttribute == index.attribute }) { _, _, value in
                hashes.insert(_KeyBytes.with(value) { _KeyIndex.hash64($0) })
            }
        }
        return hashes
    }

    /// The key targets of `file` that `include` takes held in the rows set aside (a file of targets with
    /// rejects), read again from the file: `body` gets the target's position among `file`'s targets, the
    /// line and the key. A file that cannot be read again gives none.
    static func forEachSetAsideKey(in file: _FilePlan, of include: (_TargetPlan) -> Bool, _ body: (Int, Int, Value) -> Void) {
        guard file.join == nil, file.rejects > 0 else { return }
        let keyed = file.targets.enumerated().compactMap { t, target -> (Int, _TargetPlan, _FieldPlan)? in
            guard include(target), let attribute = target.keyAttribute, let ordinal = target.entity.columnIndex(of: attribute),
                  let field = target.fields.first(where: { $0.ordinal == ordinal }) else { return nil }
            return (t, target, field)
        }
        guard !keyed.isEmpty else { return }
        try? CSVReader(path: file.path, dialect: file.options.dialect).forEachRawRecord { record in
            guard file.rejectedLines.contains(record.lineNumber) else { return }
            for (t, target, field) in keyed {
                if let value = _TargetWriter.key(field, of: target, in: record) { body(t, record.lineNumber, value) }
            }
        }
    }
}

extension _ImportSession {
    /// Skip mode, once the rows are in: for each file whose rows were set aside, the rows whose key
    /// another row stored (a later correction, or an earlier row), with the first one's line and key. The
    /// store holds that other row's values; a set-aside row fixed and imported again as a correction would
    /// replace them, which its reject alone does not tell (a user trial).
    ///
    /// The file is read again for the keys of the rejected lines, and the store is asked once per target
    /// through a temporary table; nothing is done without rejects.
    func setAsideKeysStoredNotes() throws(SQLiteError) -> [String] {
        guard options.onError == .skip else { return [] }
        var notes: [String] = []
        for file in plan.files {
            var keys: [[(line: Int, key: Value)]] = Array(repeating: [], count: file.targets.count)
            Self.forEachSetAsideKey(in: file, of: { _ in true }) { t, line, value in
                if !value.isNull { keys[t].append((line, value)) }
            }
            for (k, target) in file.targets.enumerated() where !keys[k].isEmpty {
                guard let attribute = target.keyAttribute, let ordinal = target.entity.columnIndex(of: attribute) else { continue }
                let column = target.entity.columns[ordinal].columnName
                let connection = store.connection
                try connection.execute("CREATE TEMP TABLE IF NOT EXISTS z_seedstore_set_aside (line INTEGER, key)")
                try connection.execute("DELETE FROM z_seedstore_set_aside")
                let insert = try connection.prepare("INSERT INTO z_seedstore_set_aside VALUES (?, ?)")
                for (line, key) in keys[k] {
                    insert.reset()
                    try insert.bind([.integer(Int64(line)), key.sqlValue])
                    _ = try insert.step()
                }
                // Names from the model; the keys bound.
                let found = try connection.rows("""
                    SELECT count(*), min(line) FROM z_seedstore_set_aside WHERE key IN (SELECT \(column) FROM \(target.entity.tableName))
                    """)
                try connection.execute("DROP TABLE z_seedstore_set_aside")
                guard let row = found.first, case .integer(let count) = row[0], count > 0, case .integer(let first) = row[1],
                      let key = keys[k].first(where: { $0.line == Int(first) })?.key else { continue }
                let rows = count == 1 ? "1 row set aside holds a key" : "\(_ProgressReporter.grouped(Int(count))) rows set aside hold keys"
                notes.append("\(file.displayPath): \(rows) that another row stored (the first: line \(first), \(target.entity.name).\(target.keyAttribute ?? "") "
                    + "\(Self.describe(key))): the store keeps that row's values, and a set-aside row fixed and imported again as a correction "
                    + "would replace them")
            }
        }
        return notes
    }
}
