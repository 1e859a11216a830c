/// Writes one code point below U+10000 as UTF-8.
enum _UTF8Writer {
    @inline(__always)
    static func write(_ scalar: UInt32, into output: UnsafeMutableBufferPointer<UInt8>, at index: Int) -> Int {
        if scalar < 0x80 {
            output[index] = UInt8(scalar)
            return 1
        } else if scalar < 0x800 {
            output[index] = UInt8(0xC0 | (scalar >> 6))
            output[index + 1] = UInt8(0x80 | (scalar & 0x3F))
            return 2
        } else {
            output[index] = UInt8(0xE0 | (scalar >> 12))
            output[index + 1] = UInt8(0x80 | ((scalar >> 6) & 0x3F))
            output[index + 2] = UInt8(0x80 | (scalar & 0x3F))
            return 3
        }
    }
}
