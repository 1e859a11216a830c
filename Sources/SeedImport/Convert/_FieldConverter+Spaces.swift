/// Spaces around a field: which conversions drop them.
extension _FieldConverter {
    /// The bytes this converter reads from a field as the reader gave them: spaces and tabs around a
    /// number, date, Boolean, key or other non-text value are dropped (they can never be part of one);
    /// text keeps every byte. Trimming text is the reader's business (`trim`: libcsv drops spaces around
    /// unquoted fields and outside quotes), and what is inside quotes is kept as written.
    ///
    /// ```swift
    /// converter.fieldBytes(raw)  // " 42 " → "42" for an Integer 64; " padded " as is for a String
    /// ```
    @inline(__always)
    func fieldBytes(_ raw: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        if case .string = self { return raw }
        return _trimmed(raw)
    }
}
