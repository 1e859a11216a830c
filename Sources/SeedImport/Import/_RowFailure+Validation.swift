import CSVStream

extension _RowFailure {
    /// The failure of a record holding a lone CR outside quotes in a file of LF or CRLF lines, a byte its
    /// file's encoding does not define, in any column (mapped or not), text after a closing quote or a quote never closed (the reader ended the record with that
    /// line), or `nil` when every field is valid: the field, the byte's offset in the file, the encoding's
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
            // A lone CR first: the record it runs on explains any other finding (a field count, say).
            try record.validateLineEnds()
            try record.validateEncoding()
            try record.validateQuotes()
            return nil
        } catch {
            self.init(recordError: error, record: record, file: file, owner: owner(max(0, (error.column ?? 1) - 1)))
        }
    }

    /// The failure of a record whose field count is not the header's (`columns`; without a header, the
    /// first record's, and the message says so), with what likely went wrong. Extra fields that are all
    /// empty are named as delimiters the line ends with (an export that ends data lines with a `,` its
    /// header lacks). Past that count, the first unquoted delimiter of the record's text (`raw`) followed
    /// by a space (`24, place Kléber`) is named as a value split at a delimiter it should have quoted.
    ///
    /// ```swift
    /// guard record.count == columns else {
    ///     return .failed(_RowFailure(fieldCount: record, columns: columns, file: file, raw: raw), raw: raw)
    /// }
    /// ```
    init(fieldCount record: CSVRawRecord, columns: Int, file: _FilePlan, raw: [UInt8]) {
        let delimiter = file.options.delimiter, quote = file.options.quote
        let character = Character(Unicode.Scalar(delimiter))
        let shown = character == "\t" ? "tab" : character.isPunctuation || character.isSymbol ? "\"\(character)\"" : "delimiter"
        // What the count is compared with: without a header, the first record set it.
        let basis = file.header != nil ? "the header" : "the first record"
        var hint = "A field is missing, or a value runs over lines without quotes."
        let extraFieldsEmpty = record.count > columns
            && (columns..<record.count).allSatisfy { field in record.withBytes(at: field) { _trimmed($0).isEmpty } }
        if extraFieldsEmpty {
            let extra = record.count - columns
            let remedy = file.header != nil ? ", or add \(extra == 1 ? "a column" : "columns") to the header" : ""
            hint = "The \(extra == 1 ? "field" : "\(extra) fields") past \(basis)'s \(extra == 1 ? "is" : "are") empty: the line ends with \(extra == 1 ? "one" : "\(extra)") \(shown) more than \(basis) has. Remove \(extra == 1 ? "it" : "them")\(remedy)."
        } else if record.count > columns {
            hint = "A value holding a \(shown) must be in quotes (or \(basis) lacks a \(file.header != nil ? "column" : "field"))."
            var quoted = false, field = 0, start = 0
            for (i, byte) in raw.enumerated() {
                if byte == quote { quoted.toggle() }
                guard !quoted, byte == delimiter else { continue }
                // A value before the delimiter (not empty, not quoted) and a space after it.
                if i + 1 < raw.count, raw[i + 1] == 0x20, start < i, raw[start] != quote {
                    var end = i + 1
                    while end < raw.count, raw[end] != delimiter, raw[end] != 0x0A, raw[end] != 0x0D { end += 1 }
                    let value = raw[start..<end].withUnsafeBufferPointer { _ImportSession.display($0, file) }
                    let name = file.header != nil && field < columns ? " (\(file.columnName(field)))" : ""
                    hint = "Fields \(field + 1)\(name) and \(field + 2) look like one value split at its \(shown): \"\(value)\" must be in quotes."
                    break
                }
                field += 1
                start = i + 1
            }
        }
        // The row's entity when the file fills one: rejects name it, as for any other reject of its rows.
        self.init(entity: file.targets.count == 1 ? file.targets[0].entity.name : nil,
                  reason: "the record has \(record.count) field\(record.count == 1 ? "" : "s"); \(basis) has \(columns)", hint: hint)
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
