import CSVStream

extension _RowFailure {
    /// The failure of a record holding a byte its file's encoding does not define, in any column (mapped or
    /// not), or text after a closing quote (a record that swallowed the lines after it), or `nil` when every
    /// field is valid: the field, the byte's offset in the file, the encoding's
    /// hint, and the entity and attribute `owner` says the field fills (none for a column nothing reads).
    ///
    /// For example:
    ///
    /// ```swift
    /// if let failure = _RowFailure(validating: record, file: file) { try reject(file, record, failure) }
    /// ```
    ///
    /// - Complexity: O(length of the record), one check of its bytes when they are ASCII; no String is made
    ///   unless a byte is bad.
    @inline(__always)
    init?(validating record: CSVRawRecord, file: _FilePlan,
          owner: (Int) -> (entity: String, attribute: String)? = { _ in nil }) {
        do {
            try record.validateEncoding()
            try record.validateQuotes()
            return nil
        } catch {
            self.init(recordError: error, record: record, file: file, owner: owner(max(0, (error.column ?? 1) - 1)))
        }
    }

    private init(recordError error: CSVError, record: CSVRawRecord, file: _FilePlan,
                 owner: (entity: String, attribute: String)?) {
        let field = min(max(0, (error.column ?? 1) - 1), record.count - 1)
        let value = record.withBytes(at: field) { raw in
            _ImportSession.display(file.options.trim ? _trimmed(raw) : raw, file)
        }
        self.init(field: field, entity: owner?.entity, attribute: owner?.attribute, reason: error.message, value: value,
                  byteOffset: error.byteOffset, hint: error.hint)
    }
}

extension _JoinPlan {
    /// The entity and key attribute a join file's field is read for, for messages.
    func owner(of field: Int) -> (entity: String, attribute: String)? {
        if field == sourceField { return (sourceIndex.entity.name, sourceIndex.attribute) }
        if field == destinationField { return (destinationIndex.entity.name, destinationIndex.attribute) }
        return nil
    }
}
