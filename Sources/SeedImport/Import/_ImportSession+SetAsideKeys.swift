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
        for plan in plan.files where plan.position <= file.position && plan.join == nil && plan.rejects > 0 {
            let keyed = plan.targets.compactMap { target -> (_TargetPlan, _FieldPlan)? in
                guard target.entity.name == index.entity.name, target.keyAttribute == index.attribute,
                      let ordinal = target.entity.columnIndex(of: index.attribute),
                      let field = target.fields.first(where: { $0.ordinal == ordinal }) else { return nil }
                return (target, field)
            }
            guard !keyed.isEmpty else { continue }
            try? CSVReader(path: plan.path, dialect: plan.options.dialect).forEachRawRecord { record in
                guard plan.rejectedLines.contains(record.lineNumber) else { return }
                for (target, field) in keyed {
                    guard let value = _TargetWriter.key(field, of: target, in: record) else { continue }
                    hashes.insert(_KeyBytes.with(value) { _KeyIndex.hash64($0) })
                }
            }
        }
        return hashes
    }
}
