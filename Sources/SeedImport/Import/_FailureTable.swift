/// Rows' failures by line, packed into one growing buffer.
///
/// Skip mode keeps a failure for every row rejected once its file had been read, and the next run keeps
/// one for every row it sets aside. As a `[Int: _RowFailure]` each took a wide dictionary entry plus a
/// heap block for every string longer than 15 bytes (measured: about 300 bytes a row); packed, a row
/// costs its text and a small entry.
///
/// ```swift
/// var table = _FailureTable()
/// table[12] = _RowFailure(field: 2, reason: "not a number", value: "x")
/// table[12]?.reason   // "not a number"
/// ```
struct _FailureTable: Sendable {
    /// Line → where its failure starts in ``bytes``.
    private var starts: [Int: Int] = [:]
    private var bytes: [UInt8] = []

    init() {}

    var count: Int { starts.count }
    var isEmpty: Bool { starts.isEmpty }
    /// The lines that have a failure, in no particular order.
    var lines: Dictionary<Int, Int>.Keys { starts.keys }

    func contains(_ line: Int) -> Bool { starts[line] != nil }

    /// The failure of `line`. Setting one again packs it anew (the old bytes stay: rows are not rejected twice).
    subscript(line: Int) -> _RowFailure? {
        get { starts[line].map(decode) }
        set {
            guard let newValue else {
                starts[line] = nil
                return
            }
            starts[line] = bytes.count
            encode(newValue)
        }
    }

    /// Adds `other`'s failures for lines this table has none for.
    mutating func merge(_ other: _FailureTable) {
        for line in other.lines where !contains(line) { self[line] = other[line] }
    }

    // MARK: Packing

    // A failure: field and byte offset as numbers (0 for none, else the value + 1), then entity,
    // attribute, reason, value and hint as texts (0 for none, else the UTF-8 byte count + 1, then the bytes).
    // Numbers are LEB128: 7 bits a byte, low first.

    private mutating func encode(_ failure: _RowFailure) {
        put(failure.field.map { UInt64($0) + 1 } ?? 0)
        put(failure.byteOffset.map { UInt64($0) + 1 } ?? 0)
        for text in [failure.entity, failure.attribute, failure.reason, failure.value, failure.hint] {
            guard var text else {
                put(0)
                continue
            }
            text.withUTF8 { utf8 in
                put(UInt64(utf8.count) + 1)
                bytes.append(contentsOf: utf8)
            }
        }
    }

    private mutating func put(_ number: UInt64) {
        var rest = number
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    private func decode(_ start: Int) -> _RowFailure {
        var at = start
        func number() -> UInt64 {
            var result: UInt64 = 0, shift: UInt64 = 0
            while true {
                let byte = bytes[at]
                at += 1
                result |= UInt64(byte & 0x7F) << shift
                if byte < 0x80 { return result }
                shift += 7
            }
        }
        func text() -> String? {
            let count = Int(number())
            guard count > 0 else { return nil }
            defer { at += count - 1 }
            return String(decoding: bytes[at..<(at + count - 1)], as: UTF8.self)
        }
        let field = number()
        let byteOffset = number()
        let entity = text(), attribute = text(), reason = text() ?? "", value = text(), hint = text()
        return _RowFailure(field: field == 0 ? nil : Int(field - 1), entity: entity, attribute: attribute, reason: reason,
                           value: value, byteOffset: byteOffset == 0 ? nil : Int64(byteOffset - 1), hint: hint)
    }
}
