import Foundation

/// Rows' failures by line, packed into one growing log that moves to a temporary file past a limit.
///
/// Skip mode keeps a failure for every row rejected once its file had been read, and the next run keeps
/// one for every row it sets aside. As a `[Int: _RowFailure]` each took a wide dictionary entry plus a
/// heap block for every string longer than 15 bytes (measured: about 300 bytes a row); packed, a row
/// costs its text and a small entry; once the texts pass ``_FailureLog/defaultMemoryLimit`` they go to
/// an unnamed temporary file, and a row costs its dictionary entry (400,000 employees rejected late, half
/// of them naming a manager that never comes and the rest a manager among those: a peak of 164 MB, against
/// 204 MB with every text in memory).
///
/// Copies share the log, which only grows: each keeps the offsets of its own failures.
///
/// ```swift
/// var table = _FailureTable()
/// table[12] = _RowFailure(field: 2, reason: "not a number", value: "x")
/// table[12]?.reason   // "not a number"
/// ```
struct _FailureTable: Sendable {
    /// Line → where its failure starts in ``log``.
    private var starts: [Int: Int] = [:]
    private var log: _FailureLog

    /// An empty table whose texts stay in memory up to `memoryLimit` bytes.
    init(memoryLimit: Int = _FailureLog.defaultMemoryLimit) {
        log = _FailureLog(memoryLimit: memoryLimit)
    }

    var count: Int { starts.count }
    var isEmpty: Bool { starts.isEmpty }
    /// The lines that have a failure, in no particular order.
    var lines: Dictionary<Int, Int>.Keys { starts.keys }
    /// Whether the texts have moved to the temporary file.
    var isSpilled: Bool { log.isSpilled }

    func contains(_ line: Int) -> Bool { starts[line] != nil }

    /// The failure of `line`. Setting one again packs it anew (the old bytes stay: rows are not rejected twice).
    subscript(line: Int) -> _RowFailure? {
        get { starts[line].map { Self.decode(log.record(at: $0)) } }
        set {
            guard let newValue else {
                starts[line] = nil
                return
            }
            starts[line] = log.append(Self.encode(newValue))
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

    private static func encode(_ failure: _RowFailure) -> [UInt8] {
        var bytes: [UInt8] = []
        _FailureLog.put(failure.field.map { UInt64($0) + 1 } ?? 0, into: &bytes)
        _FailureLog.put(failure.byteOffset.map { UInt64($0) + 1 } ?? 0, into: &bytes)
        for text in [failure.entity, failure.attribute, failure.reason, failure.value, failure.hint] {
            guard var text else {
                _FailureLog.put(0, into: &bytes)
                continue
            }
            text.withUTF8 { utf8 in
                _FailureLog.put(UInt64(utf8.count) + 1, into: &bytes)
                bytes.append(contentsOf: utf8)
            }
        }
        return bytes
    }

    private static func decode(_ record: Result<[UInt8], _FailureLog.ReadError>) -> _RowFailure {
        let bytes: [UInt8]
        switch record {
        case .success(let read): bytes = read
        case .failure(let error):
            // The row is still rejected; only what was wrong with it is lost.
            return _RowFailure(reason: "the reason was lost: \(error.message)")
        }
        // Bounds-checked: a damaged temporary file gives a placeholder, never a crash.
        var at = 0
        var damaged = false
        func number() -> UInt64 {
            guard let value = _FailureLog.number(bytes, at: &at) else {
                damaged = true
                return 0
            }
            return value
        }
        func text() -> String? {
            let length = number()
            guard length > 0 else { return nil }
            guard length - 1 <= UInt64(bytes.count - at) else {
                damaged = true
                return nil
            }
            let count = Int(length - 1)
            defer { at += count }
            return String(decoding: bytes[at..<(at + count)], as: UTF8.self)
        }
        let field = number()
        let byteOffset = number()
        let entity = text(), attribute = text(), reason = text() ?? "", value = text(), hint = text()
        if damaged { return _RowFailure(reason: "the reason was lost: the temporary file of rejected rows is damaged") }
        return _RowFailure(field: field == 0 ? nil : Int(truncatingIfNeeded: field - 1), entity: entity, attribute: attribute, reason: reason,
                           value: value, byteOffset: byteOffset == 0 ? nil : Int64(truncatingIfNeeded: byteOffset - 1), hint: hint)
    }
}
