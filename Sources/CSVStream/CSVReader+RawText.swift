extension CSVReader {
    /// The bytes of the record last returned by ``next()`` (or last skipped for an encoding error), as they
    /// are in the input, without the terminator. Captured while parsing, so this costs one copy.
    ///
    /// For example:
    ///
    /// ```swift
    /// do { _ = try reader.next() } catch where error.isRecoverable {
    ///     rejects.write("\(error.recordLine ?? 0)\t\(error.message)\t\(reader.lastRecordRawText)\n")
    /// }
    /// ```
    public var lastRecordRawBytes: [UInt8] {
        Array(scanner.record.rawBytes(count: scanner.recordLength))
    }

    /// ``lastRecordRawBytes`` decoded with the dialect's encoding; bytes that do not decode become U+FFFD.
    public var lastRecordRawText: String {
        dialect.encoding.decodeRepairing(scanner.record.rawBytes(count: scanner.recordLength))
    }

    /// The bytes of any record read earlier, re-read from the input by its ``CSVRecord/byteRange``
    /// (`pread(2)` on files), without the terminator.
    ///
    /// For example:
    ///
    /// ```swift
    /// let original = try reader.rawBytes(of: record)
    /// ```
    ///
    /// Re-reading needs a seekable input: for a pipe it fails with ``CSVError/Kind/io``, and
    /// ``lastRecordRawBytes`` is the way to get the current record's bytes.
    ///
    /// - Complexity: O(record length) plus one read system call.
    public func rawBytes(of record: CSVRecord) throws(CSVError) -> [UInt8] {
        try scanner.source.bytes(in: record.byteRange)
    }

    /// The original text of a record read earlier: what a rejects file should show.
    ///
    /// Bytes that do not decode in the dialect's encoding become U+FFFD.
    ///
    /// For example:
    ///
    /// ```swift
    /// rejects.append("\(record.lineNumber)\tbad date\t\(try reader.rawText(of: record))")
    /// ```
    public func rawText(of record: CSVRecord) throws(CSVError) -> String {
        let bytes = try rawBytes(of: record)
        return bytes.withUnsafeBufferPointer { dialect.encoding.decodeRepairing($0) }
    }
}
