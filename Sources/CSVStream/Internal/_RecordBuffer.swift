/// The bytes of the record being assembled: field contents (unquoted, as libcsv hands them over), where
/// each field ends, and the record's raw input bytes. Reused from record to record, so steady-state parsing
/// allocates nothing here.
///
/// libcsv's callbacks reach it through the `void *` context pointer (see ``_LibCSVParser``).
final class _RecordBuffer {
    /// Field contents, back to back.
    private(set) var bytes: UnsafeMutablePointer<UInt8>
    private var bytesCapacity: Int
    private(set) var bytesCount = 0

    /// `fieldEnds[i]` is the end of field `i` in ``bytes``.
    private(set) var fieldEnds: UnsafeMutablePointer<Int>
    private var fieldCapacity: Int
    private(set) var fieldCount = 0

    /// The record's input bytes as read (quotes, delimiters and terminator included).
    private(set) var raw: UnsafeMutablePointer<UInt8>
    private var rawCapacity: Int
    private(set) var rawCount = 0

    /// Set by libcsv's end-of-row callback.
    var rowEnded = false

    init() {
        bytesCapacity = 1024
        bytes = .allocate(capacity: bytesCapacity)
        fieldCapacity = 64
        fieldEnds = .allocate(capacity: fieldCapacity)
        rawCapacity = 1024
        raw = .allocate(capacity: rawCapacity)
    }

    deinit {
        bytes.deallocate()
        fieldEnds.deallocate()
        raw.deallocate()
    }

    /// Forgets the record, keeping the memory.
    @inline(__always)
    func reset() {
        bytesCount = 0
        fieldCount = 0
        rawCount = 0
        rowEnded = false
    }

    /// Appends one field (libcsv's field callback).
    ///
    /// - Complexity: amortized O(length).
    @inline(__always)
    func appendField(_ source: UnsafeRawPointer?, _ length: Int) {
        if bytesCount + length > bytesCapacity { growBytes(to: bytesCount + length) }
        if fieldCount == fieldCapacity { growFields() }
        if length > 0, let source {
            (bytes + bytesCount).update(from: source.assumingMemoryBound(to: UInt8.self), count: length)
            bytesCount += length
        }
        fieldEnds[fieldCount] = bytesCount
        fieldCount += 1
    }

    /// Appends input bytes to the raw capture.
    ///
    /// - Complexity: amortized O(length).
    @inline(__always)
    func appendRaw(_ source: UnsafePointer<UInt8>, _ length: Int) {
        if rawCount + length > rawCapacity { growRaw(to: rawCount + length) }
        (raw + rawCount).update(from: source, count: length)
        rawCount += length
    }

    /// The bytes of field `index`.
    @inline(__always)
    func field(_ index: Int) -> UnsafeBufferPointer<UInt8> {
        let start = index == 0 ? 0 : fieldEnds[index - 1]
        return UnsafeBufferPointer(start: bytes + start, count: fieldEnds[index] - start)
    }

    /// The first `count` captured raw bytes.
    func rawBytes(count: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: raw, count: min(count, rawCount))
    }

    private func growBytes(to needed: Int) {
        bytesCapacity = Swift.max(needed, bytesCapacity * 2)
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: bytesCapacity)
        grown.update(from: bytes, count: bytesCount)
        bytes.deallocate()
        bytes = grown
    }

    private func growFields() {
        fieldCapacity *= 2
        let grown = UnsafeMutablePointer<Int>.allocate(capacity: fieldCapacity)
        grown.update(from: fieldEnds, count: fieldCount)
        fieldEnds.deallocate()
        fieldEnds = grown
    }

    private func growRaw(to needed: Int) {
        rawCapacity = Swift.max(needed, rawCapacity * 2)
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: rawCapacity)
        grown.update(from: raw, count: rawCount)
        raw.deallocate()
        raw = grown
    }
}
