/// Latin-1 to String: byte `b` is U+00`b`.
enum _Latin1 {
    /// Decodes; Latin-1 has no invalid bytes.
    ///
    /// - Complexity: O(n); one allocation of at most 2n bytes.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        String(unsafeUninitializedCapacity: bytes.count * 2) { output in
            var written = 0
            for byte in bytes {
                written += _UTF8Writer.write(UInt32(byte), into: output, at: written)
            }
            return written
        }
    }
}
