extension TextEncoding {
    /// Decodes, replacing bytes that are invalid with U+FFFD: for showing text, never for importing it.
    func decodeRepairing(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        if let string = decodeIfValid(bytes) { return string }
        switch self {
        case .utf8, .latin1:
            return String(decoding: bytes, as: UTF8.self)
        case .windows1252:
            var scalars = String.UnicodeScalarView()
            for byte in bytes {
                scalars.append(_Windows1252.codePoint(byte).flatMap(Unicode.Scalar.init) ?? "\u{FFFD}")
            }
            return String(scalars)
        }
    }
}
