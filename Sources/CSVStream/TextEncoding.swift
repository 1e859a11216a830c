/// The text encoding of a CSV file's bytes: UTF-8 (the default), Windows-1252 or Latin-1 (ISO-8859-1).
///
/// Decoding is strict: bytes that are not valid in the encoding are reported, never replaced with U+FFFD.
/// In Windows-1252, 0x80–0x9F map per the Windows table (0x96 is U+2013 EN DASH, 0x99 is U+2122 TRADE MARK
/// SIGN) and 0x81, 0x8D, 0x8F, 0x90, 0x9D are undefined; Latin-1 maps every byte to the code point of the
/// same value, so it never fails.
///
/// For example:
///
/// ```swift
/// let text = try TextEncoding.windows1252.decode([0x46, 0x96, 0x43])  // "F–C"
/// ```
///
/// See <https://www.unicode.org/Public/MAPPINGS/VENDORS/MICSFT/WINDOWS/CP1252.TXT>.
public enum TextEncoding: String, Sendable, Hashable, CaseIterable {
    /// UTF-8, validated strictly (no overlong forms, surrogates or code points above U+10FFFF).
    case utf8
    /// Windows code page 1252, the "ANSI" encoding of Western-European Windows.
    case windows1252
    /// ISO-8859-1: byte `b` is U+00`b`.
    case latin1

    /// Looks an encoding up by any of its common names, ignoring case: `utf-8`, `utf8`, `windows-1252`,
    /// `cp1252`, `latin1`, `iso-8859-1`, …
    ///
    /// For example:
    ///
    /// ```swift
    /// TextEncoding(label: "CP1252")  // .windows1252
    /// ```
    public init?(label: String) {
        let folded = String(label.lowercased().filter { $0 != "-" && $0 != "_" && $0 != " " })
        switch folded {
        case "utf8": self = .utf8
        case "windows1252", "cp1252", "win1252", "ansi": self = .windows1252
        case "latin1", "iso88591", "l1", "iso885911987": self = .latin1
        default: return nil
        }
    }

    /// The name people know the encoding by (`UTF-8`, `Windows-1252`, `ISO-8859-1`).
    public var displayName: String {
        switch self {
        case .utf8: "UTF-8"
        case .windows1252: "Windows-1252"
        case .latin1: "ISO-8859-1 (Latin-1)"
        }
    }

    /// Decodes bytes to a String, failing on the first byte that is not valid in this encoding.
    ///
    /// The error's ``CSVError/byteOffset`` is the index of that byte in `bytes`.
    ///
    /// For example:
    ///
    /// ```swift
    /// let name = try bytes.withUnsafeBufferPointer { try TextEncoding.utf8.decode($0) }
    /// ```
    ///
    /// - Complexity: O(n). ASCII input is checked eight bytes at a time; other input is validated, then
    ///   copied into the String (which checks it once more).
    public func decode(_ bytes: UnsafeBufferPointer<UInt8>) throws(CSVError) -> String {
        if let string = decodeIfValid(bytes) { return string }
        let index = firstInvalidByteIndex(in: bytes) ?? 0
        throw CSVError(
            kind: .invalidEncoding, message: invalidByteMessage(bytes, at: index),
            byteOffset: Int64(index), encoding: self)
    }

    /// Decodes an array of bytes, failing on the first byte that is not valid in this encoding.
    ///
    /// For example:
    ///
    /// ```swift
    /// try TextEncoding.latin1.decode([0xA9])  // "©"
    /// ```
    public func decode(_ bytes: [UInt8]) throws(CSVError) -> String {
        let result: Result<String, CSVError> = bytes.withUnsafeBufferPointer { buffer in
            do throws(CSVError) { return .success(try decode(buffer)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// The index of the first byte that is not valid in this encoding, or `nil` when all are valid.
    ///
    /// For a broken UTF-8 sequence this is the index of its first byte.
    ///
    /// For example:
    ///
    /// ```swift
    /// [0x61, 0x96].withUnsafeBufferPointer { TextEncoding.utf8.firstInvalidByteIndex(in: $0) }  // 1
    /// ```
    ///
    /// - Complexity: O(n).
    public func firstInvalidByteIndex(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        switch self {
        case .utf8: return _UTF8Validator.firstInvalidIndex(in: bytes)
        case .windows1252: return bytes.firstIndex(where: _Windows1252.isUndefined)
        case .latin1: return nil
        }
    }

    /// Decodes, or returns `nil` when some byte is invalid. The hot path of ``CSVReader``.
    ///
    /// - Complexity: O(n): a validation pass and a copy.
    @inline(__always)
    func decodeIfValid(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        switch self {
        case .utf8:
            // `String(validating:as:)` is generic and unspecialized here (metadata lookups per call); our
            // own check plus the specialized `String(decoding:as:)` is about three times faster.
            guard _UTF8Validator.isASCII(bytes) || _UTF8Validator.firstInvalidIndex(in: bytes) == nil else {
                return nil
            }
            return String(decoding: bytes, as: UTF8.self)
        case .windows1252:
            if _UTF8Validator.isASCII(bytes) { return String(decoding: bytes, as: UTF8.self) }
            return _Windows1252.decode(bytes)
        case .latin1:
            if _UTF8Validator.isASCII(bytes) { return String(decoding: bytes, as: UTF8.self) }
            return _Latin1.decode(bytes)
        }
    }

    /// `byte 0x96 is not valid UTF-8`, naming up to four bytes of a broken sequence.
    func invalidByteMessage(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> String {
        guard index < bytes.count else { return "the bytes are not valid \(displayName)" }
        if self == .utf8 {
            let length = _UTF8Validator.invalidSequenceLength(in: bytes, at: index)
            if length > 1 {
                let shown = bytes[index..<(index + length)].map { "0x" + $0.hexDigits }.joined(separator: " ")
                return "bytes \(shown) are not valid \(displayName)"
            }
        }
        return "byte 0x\(bytes[index].hexDigits) is not valid \(displayName)"
    }
}
