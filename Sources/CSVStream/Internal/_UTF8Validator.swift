/// Strict UTF-8 validation that reports where the first bad byte is (the standard library only says yes or no).
enum _UTF8Validator {
    /// Whether every byte is below 0x80.
    ///
    /// - Complexity: O(n), eight bytes per step.
    @inline(__always)
    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let count = bytes.count
        var index = 0
        var accumulated: UInt64 = 0
        while index + 8 <= count {
            accumulated |= UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            index += 8
        }
        var tail: UInt8 = 0
        while index < count {
            tail |= base[index]
            index += 1
        }
        return accumulated & 0x8080_8080_8080_8080 == 0 && tail & 0x80 == 0
    }

    /// The index of the first byte of the first invalid sequence, or `nil`.
    ///
    /// Follows Unicode's table 3-7 of well-formed byte sequences: no overlong forms, no surrogates,
    /// nothing above U+10FFFF.
    ///
    /// - Complexity: O(n).
    static func firstInvalidIndex(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        var index = 0
        let count = bytes.count
        while index < count {
            if base[index] < 0x80 {
                // Skip ASCII eight bytes at a time.
                while index + 8 <= count,
                    UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0
                {
                    index += 8
                }
                while index < count && base[index] < 0x80 { index += 1 }
                if index == count { break }
            }
            let length = sequenceLength(in: bytes, at: index)
            if length == 0 { return index }
            index += length
        }
        return nil
    }

    /// How many bytes of the broken sequence at `index` to show in a message (1 to 4).
    static func invalidSequenceLength(in bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int {
        let lead = bytes[index]
        let expected = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
        var length = 1
        while length < expected, index + length < bytes.count, bytes[index + length] & 0xC0 == 0x80 {
            length += 1
        }
        return length
    }

    /// The length of the well-formed sequence at `index`, or 0 when it is not well formed.
    @inline(__always)
    private static func sequenceLength(in bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int {
        let count = bytes.count
        let lead = bytes[index]
        if lead < 0x80 { return 1 }
        @inline(__always)
        func continuation(_ offset: Int, _ range: ClosedRange<UInt8> = 0x80...0xBF) -> Bool {
            index + offset < count && range.contains(bytes[index + offset])
        }
        switch lead {
        case 0xC2...0xDF:
            return continuation(1) ? 2 : 0
        case 0xE0:
            return continuation(1, 0xA0...0xBF) && continuation(2) ? 3 : 0
        case 0xE1...0xEC, 0xEE...0xEF:
            return continuation(1) && continuation(2) ? 3 : 0
        case 0xED:
            return continuation(1, 0x80...0x9F) && continuation(2) ? 3 : 0
        case 0xF0:
            return continuation(1, 0x90...0xBF) && continuation(2) && continuation(3) ? 4 : 0
        case 0xF1...0xF3:
            return continuation(1) && continuation(2) && continuation(3) ? 4 : 0
        case 0xF4:
            return continuation(1, 0x80...0x8F) && continuation(2) && continuation(3) ? 4 : 0
        default:
            return 0
        }
    }
}
