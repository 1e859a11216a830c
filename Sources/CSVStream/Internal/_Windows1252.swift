/// Windows-1252 to String. Bytes 0x00–0x7F and 0xA0–0xFF equal their Latin-1 code points; 0x80–0x9F follow
/// Microsoft's table, where five bytes are undefined.
enum _Windows1252 {
    /// Code points for 0x80...0x9F; 0 marks the undefined bytes 0x81, 0x8D, 0x8F, 0x90 and 0x9D.
    static let highControls: [UInt16] = [
        0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,  // 0x80
        0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017D, 0,  // 0x88
        0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,  // 0x90
        0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178,  // 0x98
    ]

    /// Whether Windows-1252 leaves `byte` undefined.
    @inline(__always)
    static func isUndefined(_ byte: UInt8) -> Bool {
        byte == 0x81 || byte == 0x8D || byte == 0x8F || byte == 0x90 || byte == 0x9D
    }

    /// The code point of `byte`, or `nil` for an undefined byte.
    @inline(__always)
    static func codePoint(_ byte: UInt8) -> UInt32? {
        guard byte >= 0x80 && byte <= 0x9F else { return UInt32(byte) }
        let value = highControls[Int(byte - 0x80)]
        return value == 0 ? nil : UInt32(value)
    }

    /// Decodes, or returns `nil` at the first undefined byte.
    ///
    /// - Complexity: O(n); one allocation of at most 3n bytes, straight into the String's storage.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var valid = true
        let string = String(unsafeUninitializedCapacity: bytes.count * 3) { output in
            var written = 0
            for byte in bytes {
                guard let scalar = codePoint(byte) else {
                    valid = false
                    return 0
                }
                written += _UTF8Writer.write(scalar, into: output, at: written)
            }
            return written
        }
        return valid ? string : nil
    }
}
