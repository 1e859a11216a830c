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
        if file.options.escape == nil, record.count > columns, Self.escapedDelimiter(raw, delimiter: delimiter) {
            // `a\<TAB>b`: MySQL's OUTFILE escapes a delimiter inside a value with a backslash.
            hint = "A backslash stands before a \(shown) in the row, which is how MySQL's SELECT … INTO OUTFILE writes a \(shown) inside a value; "
                + "if the file is such an export, re-run with --escape '\\' (or \"escape\": \"\\\\\" for the file in a mapping), which reads it as data."
        } else if !file.options.trim, Self.quoteAfterSpace(raw, delimiter: delimiter, quote: quote) {
            // `A, "Ann, B"`: hand-written CSV with a space after each delimiter, read as text kept as written.
            hint = "A quoted field follows a space after a \(shown): a file that keeps text as written reads the space and the quotes as text, "
                + "so a \(shown) inside those quotes splits the value. If the file puts a space after each delimiter, re-run with --trim "
                + "(or \"trim\": true for the file in a mapping), which drops spaces around quoted fields."
        } else if let split = Self.decimalCommaSplit(record, columns: columns, file: file) {
            // `47,5` in a comma file: one number written with a decimal comma, split in two; a hint to
            // remove an empty last field would import what follows into the wrong columns.
            // `47,5,` against two columns: a stray last comma or a split number; only the other rows can tell.
            hint = extraFieldsEmpty ? split + " If not, the line ends with one \(shown) more than \(basis) has: remove it." : split
        } else if extraFieldsEmpty {
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

    /// Whether `raw` has a quote after a delimiter (or the line's start) and spaces or tabs: `A, "Ann"`.
    static func quoteAfterSpace(_ raw: [UInt8], delimiter: UInt8, quote: UInt8) -> Bool {
        var fieldStart = true, spaces = false
        for byte in raw {
            if byte == quote && fieldStart && spaces { return true }
            if byte == delimiter || byte == 0x0A || byte == 0x0D {
                (fieldStart, spaces) = (true, false)
            } else if fieldStart && (byte == 0x20 || byte == 0x09) {
                spaces = true
            } else {
                fieldStart = false
            }
        }
        return false
    }

    /// For a comma file's record with one field too many: the first field read as a fractional number
    /// (Double, Float, Decimal) that holds digits and is followed by a field of digits alone, named as one
    /// number split at its decimal comma (`47,5`), or `nil`.
    ///
    /// Only where joining the two mends the row: one join fixes the count, and every other mapped field,
    /// read one place to the right past the join, converts. An unquoted `Smith, Jane` before the numbers, or
    /// a stray last field, leaves some field that does not, and the hint would point the wrong way.
    static func decimalCommaSplit(_ record: CSVRawRecord, columns: Int, file: _FilePlan) -> String? {
        guard file.options.delimiter == UInt8(ascii: ","), record.count == columns + 1 else { return nil }
        /// Whether every mapped field but the joined one converts with the row read as if `joined` and the
        /// field after it were one.
        func mends(joinedAt joined: Int) -> Bool {
            file.targets.allSatisfy { target in
                target.fields.allSatisfy { field in
                    guard field.field != joined else { return true }
                    let index = field.field < joined ? field.field : field.field + 1
                    return record.withBytes(at: index) { raw in
                        let bytes = field.converter.fieldBytes(raw)
                        if field.nulls.matches(bytes) && !record.isQuoted(at: index) { return field.nullValue >= 0 }
                        return field.converter.convert(bytes) != nil
                    }
                }
            }
        }
        func digits(_ bytes: UnsafeBufferPointer<UInt8>, signed: Bool) -> Bool {
            var body = bytes[...]
            if signed, let first = body.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") { body = body.dropFirst() }
            return !body.isEmpty && body.allSatisfy { (0x30...0x39).contains($0) }
        }
        for target in file.targets {
            for field in target.fields where field.field + 1 < record.count && !record.isQuoted(at: field.field) {
                let readsDecimalComma: Bool
                switch field.converter {
                case .double, .float, .decimal: readsDecimalComma = false
                case .decimalComma: readsDecimalComma = true
                default: continue
                }
                let whole = record.withBytes(at: field.field) { digits(_trimmed($0), signed: true) }
                let fraction = record.withBytes(at: field.field + 1) { digits(_trimmed($0), signed: false) }
                guard whole && fraction && mends(joinedAt: field.field) else { continue }
                let number = record.withBytes(at: field.field) { a in record.withBytes(at: field.field + 1) { b in
                    _ImportSession.display(_trimmed(a), file) + "," + _ImportSession.display(_trimmed(b), file) } }
                return "Fields \(field.field + 1) (\(file.columnName(field.field))) and \(field.field + 2) look like one number written with a decimal comma, "
                    + "\"\(number)\": quote it" + (readsDecimalComma ? "" : " and import with --decimal-comma (or the mapping's \"decimalComma\")")
                    + ", or export the file with another delimiter."
            }
        }
        return nil
    }

    private init(recordError error: CSVError, record: CSVRawRecord, file: _FilePlan,
                 owner: (entity: String, attribute: String)?) {
        let field = min(max(0, (error.column ?? 1) - 1), record.count - 1)
        let value = record.withBytes(at: field) { raw in
            _ImportSession.display(file.options.trim ? _trimmed(raw) : raw, file)
        }
        var hint = error.hint
        if error.kind == .unterminatedQuote, let escape = error.escape, file.options.isQuoteSet {
            // The quote was chosen: the file quotes its values, so reading it without one is no way out.
            hint = "Escape the quote if it is data (\(Character(Unicode.Scalar(escape)))\(Character(Unicode.Scalar(file.options.quote)))), "
                + "or close it on its line. The record ends with its line; the lines after it are read as records of their own."
        }
        self.init(field: field, entity: owner?.entity, attribute: owner?.attribute, reason: error.message, value: value,
                  byteOffset: error.byteOffset, hint: hint)
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

extension _RowFailure {
    /// Whether `raw` holds a backslash right before `delimiter` (after an odd run of backslashes: an even
    /// run is escaped backslashes).
    ///
    /// ```swift
    /// _RowFailure.escapedDelimiter(Array("a\\\tb".utf8), delimiter: 0x09)   // true
    /// ```
    static func escapedDelimiter(_ raw: [UInt8], delimiter: UInt8) -> Bool {
        var run = 0
        for byte in raw {
            if byte == delimiter && run % 2 == 1 { return true }
            run = byte == 0x5C ? run + 1 : 0
        }
        return false
    }
}
