import CSVStream

/// What a file's reader counted that the summary warns of once the file is read: a byte-order mark starting
/// a row, a UTF-8 file read in a one-byte encoding, Latin-1 control bytes.
extension _ImportSession {
    /// The warning for a file whose rows, past its start, began with a UTF-8 byte-order mark (files joined
    /// with `cat`), which the reader dropped from their first field; `nil` when none did.
    ///
    /// ```swift
    /// byteOrderMarkWarning(file, reader)   // "all.csv: 1 row began with a byte-order mark (line 3), …"
    /// ```
    static func byteOrderMarkWarning(_ file: _FilePlan, _ reader: CSVReader) -> String? {
        guard reader.droppedByteOrderMarks > 0, let line = reader.firstDroppedByteOrderMarkLine else { return nil }
        let count = reader.droppedByteOrderMarks
        let rows = count == 1 ? "1 row began" : "\(_ProgressReporter.grouped(count)) rows began"
        return "\(file.displayPath): \(rows) with a UTF-8 byte-order mark (\(count == 1 ? "line" : "the first on line") \(line)), the start of "
            + "another file joined to this one: the mark is not data and was skipped, as a file's first is"
    }

    /// The warning for a file read as Windows-1252 or Latin-1 whose records that are not all ASCII are
    /// all valid UTF-8, once it has been read: such a file is UTF-8, and its letters were stored as two
    /// or three characters each (`München` as `MÃ¼nchen`). `nil` otherwise (``CSVReader/utf8LookingRecords``).
    ///
    /// ```swift
    /// utf8Warning(file, reader)   // "v.csv: read as windows-1252, but its 3 records with non-ASCII bytes are all valid UTF-8 …"
    /// ```
    static func utf8Warning(_ file: _FilePlan, _ reader: CSVReader) -> String? {
        guard reader.utf8LookingRecords > 0, reader.otherNonASCIIRecords == 0, let line = reader.firstUTF8LookingLine else { return nil }
        let count = reader.utf8LookingRecords
        let records = count == 1 ? "its 1 record with non-ASCII bytes (line \(line)) is" : "its \(_ProgressReporter.grouped(count)) records with non-ASCII bytes (the first on line \(line)) are all"
        return "\(file.displayPath): read as \(file.options.encoding.rawValue), but \(records) valid UTF-8: the file is most likely UTF-8, "
            + "and its letters were stored as two or three characters each (ü as Ã¼); read it as UTF-8 (without --encoding, "
            + "or with \"encoding\": \"utf-8\" for the file in a mapping; files of several encodings need a mapping that gives each its own)"
    }

    /// For a file read with an escape byte (``CSVOptions/escape``), once it has been read: values read as
    /// quoted while the quote was left at its default (PostgreSQL's text format never quotes, so a value
    /// starting with `"` lost its quotes, where MySQL's `ENCLOSED BY` meant them); doubled quotes, which
    /// neither export writes (the file is likely plain CSV); and lines after PostgreSQL's end-of-data
    /// marker, which were not read.
    ///
    /// ```swift
    /// escapedTextWarnings(file, reader)   // ["t.txt: 2 rows hold values read as quoted, …"]
    /// ```
    static func escapedTextWarnings(_ file: _FilePlan, _ reader: CSVReader) -> [String] {
        guard file.options.escape != nil else { return [] }
        func rows(_ count: Int, _ line: Int) -> String {
            count == 1 ? "1 row (line \(line)) holds" : "\(_ProgressReporter.grouped(count)) rows (the first on line \(line)) hold"
        }
        var warnings: [String] = []
        let quote = Character(Unicode.Scalar(file.options.quote))
        if reader.doubledQuoteRecords > 0, let line = reader.firstDoubledQuoteLine {
            warnings.append("\(file.displayPath): \(rows(reader.doubledQuoteRecords, line)) a doubled quote inside quotes (\(quote)\(quote)), "
                + "RFC 4180 CSV's way to write a quote, which neither MySQL's OUTFILE nor PostgreSQL's text COPY writes: if the file "
                + "is CSV, re-run without --escape (or \"escape\": \"none\" for the file), or its backslashes were read as escapes")
        } else if !file.options.isQuoteSet, reader.enclosedRecords > 0, let line = reader.firstEnclosedLine {
            warnings.append("\(file.displayPath): \(rows(reader.enclosedRecords, line)) values that start with \(quote), read as quoted (the quotes "
                + "dropped), as MySQL's ENCLOSED BY '\(quote)' writes them; if the file never quotes its values (PostgreSQL's text format, "
                + "MySQL's default OUTFILE), re-run with --quote none (or \"quote\": \"none\" for the file in a mapping); if it does, "
                + "give the quote (--quote '\(quote)') and this is not said again")
        }
        if let line = reader.endOfDataLine, reader.hasBytesAfterEndOfData, let escape = file.options.escape {
            let marker = String(Character(Unicode.Scalar(escape))) + "."
            warnings.append("\(file.displayPath): line \(line) is \(marker) alone, PostgreSQL's end of data, so the lines after it were not read")
        }
        let ends = reader.escapedLineEnds
        // One LF alone is a header written apart (`echo header; cat export`): nothing to say.
        if ends.lineFeed > 1 && ends.carriageReturnLineFeed > 0 {
            let crlf = ends.carriageReturnLineFeed
            warnings.append("\(file.displayPath): \(_ProgressReporter.grouped(crlf)) line\(crlf == 1 ? "" : "s") end\(crlf == 1 ? "s" : "") with CR LF and "
                + "\(_ProgressReporter.grouped(ends.lineFeed)) with LF alone, all read as line ends, a CR before an LF dropped: from MySQL's "
                + "OUTFILE with LINES TERMINATED BY '\\r\\n', an LF in a value was text and split its row; with '\\n', a CR ending a value "
                + "was dropped. Nothing in the file told which (MySQL escapes the terminator's first byte in text, and CRLF lines twice as many as LF ones are taken as the line ends): "
                + "re-run with --line-end crlf or --line-end lf (or \"lineEnd\" for the file in a mapping) to say which")
        }
        return warnings
    }

    /// The warning for a file read as Latin-1 that holds bytes 0x80–0x9F, once it has been read: Latin-1
    /// makes them invisible control characters, while they are Windows-1252's `€` and curly quotes, which
    /// is what such a file almost always is. `nil` when the reader counted none (``CSVReader/latin1ControlBytes``).
    ///
    /// ```swift
    /// latin1Warning(file, reader)
    /// // "notes.csv: 3 bytes from 0x80 to 0x9F (the first on line 5) read as Latin-1 control characters, …"
    /// ```
    static func latin1Warning(_ file: _FilePlan, _ reader: CSVReader) -> String? {
        guard reader.latin1ControlBytes > 0, let line = reader.firstLatin1ControlLine else { return nil }
        let count = reader.latin1ControlBytes
        let bytes = count == 1 ? "1 byte from 0x80 to 0x9F (line \(line))" : "\(_ProgressReporter.grouped(count)) bytes from 0x80 to 0x9F (the first on line \(line))"
        let undefined = reader.latin1ControlBytesUndefinedInWindows1252
        // 0x81, 0x8D, 0x8F, 0x90 and 0x9D are not Windows-1252 either: re-reading as it would refuse them.
        guard undefined < count else {
            return "\(file.displayPath): \(bytes) read as Latin-1 control characters, which text does not hold; Windows-1252 leaves "
                + "\(count == 1 ? "it" : "them") undefined too (0x81, 0x8D, 0x8F, 0x90, 0x9D), so the file may be in another encoding: check what wrote it"
        }
        let caveat = undefined == 0 ? "" : " (\(_ProgressReporter.grouped(undefined)) of them, 0x81, 0x8D, 0x8F, 0x90 or 0x9D, are undefined there too and would be rejects)"
        return "\(file.displayPath): \(bytes) read as Latin-1 control characters, which text does not hold: the file is most likely "
            + "Windows-1252, where they are € and curly quotes (‘ ’ “ ”, – —); re-run with --encoding cp1252 (or \"encoding\": \"windows1252\" in a mapping)" + caveat
    }
}
