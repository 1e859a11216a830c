import Foundation

/// Append-only storage for ``_FailureTable``'s packed failures: in memory up to a limit, then in an
/// unnamed temporary file, so a file with hundreds of thousands of rows rejected late keeps only their
/// offsets in memory.
///
/// Each record is its length (LEB128) and its bytes, at an offset that never changes. The file is
/// unlinked as soon as it is made: it goes away with the process, however the process ends. When the
/// file cannot be made or written, the records stay in memory (slower to grow, never lost).
///
/// ```swift
/// let log = _FailureLog(memoryLimit: 1 << 20)
/// let offset = log.append([1, 2, 3])
/// log.record(at: offset)   // .success([1, 2, 3])
/// ```
final class _FailureLog: @unchecked Sendable {
    /// Bytes of failures kept in memory before they move to a temporary file: 1 MiB, some 15,000 rows, or
    /// `SEEDSTORE_FAILURE_MEMORY` bytes (the fuzzer sets 0, so reruns read every failure from the file).
    static let defaultMemoryLimit = ProcessInfo.processInfo.environment["SEEDSTORE_FAILURE_MEMORY"].flatMap { Int($0) }.map { max(0, $0) } ?? 1 << 20
    /// Bytes gathered in memory between writes once the log is in the file.
    static let writeBufferBytes = 64 << 10

    /// A record that could not be read back from the temporary file.
    struct ReadError: Error {
        let message: String
    }

    // Copies of a table share the log, and the rows of a rerun are read on the reading thread.
    private let lock = NSLock()
    private let memoryLimit: Int
    /// Before the move, every record; after it, the records from ``written`` on, not yet in the file.
    private var memory: [UInt8] = []
    /// Bytes in the temporary file (the records before `written`).
    private var written = 0
    private var descriptor: Int32 = -1
    /// The temporary file could not be made or written: everything stays in memory from then on.
    private var fileFailed = false

    init(memoryLimit: Int = _FailureLog.defaultMemoryLimit) {
        self.memoryLimit = max(0, memoryLimit)
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// Whether records have moved to the temporary file.
    var isSpilled: Bool { lock.withLock { descriptor >= 0 } }

    /// Appends `bytes` as one record; returns its offset.
    func append(_ bytes: [UInt8]) -> Int {
        lock.withLock {
            var record: [UInt8] = []
            record.reserveCapacity(bytes.count + 3)
            Self.put(UInt64(bytes.count), into: &record)
            record.append(contentsOf: bytes)
            if descriptor < 0 && !fileFailed && memory.count + record.count > memoryLimit { moveToFile() }
            if descriptor >= 0 && !fileFailed && memory.count + record.count > Self.writeBufferBytes { flush() }
            let offset = written + memory.count
            memory.append(contentsOf: record)
            return offset
        }
    }

    /// The record appended at `offset`.
    func record(at offset: Int) -> Result<[UInt8], ReadError> {
        lock.withLock {
            if offset >= written {
                // Records never straddle the file and memory: each is written whole.
                var at = offset - written
                guard let length = Self.number(memory, at: &at), let count = Int(exactly: length), count <= memory.count - at else {
                    return .failure(ReadError(message: "no failure recorded at offset \(offset)"))
                }
                return .success(Array(memory[at..<(at + count)]))
            }
            // The length, then the bytes; most failures come in the first read.
            var head = [UInt8](repeating: 0, count: min(256, written - offset))
            guard readFile(into: &head, at: offset) else {
                return .failure(ReadError(message: "cannot read the temporary file of rejected rows: \(String(cString: strerror(errno)))"))
            }
            var at = 0
            guard let length = Self.number(head, at: &at), let count = Int(exactly: length), count <= written - offset - at else {
                return .failure(ReadError(message: "the temporary file of rejected rows is damaged at offset \(offset)"))
            }
            if at + count <= head.count { return .success(Array(head[at..<(at + count)])) }
            var bytes = [UInt8](repeating: 0, count: count)
            guard readFile(into: &bytes, at: offset + at) else {
                return .failure(ReadError(message: "cannot read the temporary file of rejected rows: \(String(cString: strerror(errno)))"))
            }
            return .success(bytes)
        }
    }

    /// Makes the unnamed temporary file and writes the records so far to it.
    private func moveToFile() {
        let template = FileManager.default.temporaryDirectory.appendingPathComponent("seedstore-rejected.XXXXXX").path
        var path = Array(template.utf8CString)
        let fd = path.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            fileFailed = true
            return
        }
        path.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        descriptor = fd
        flush()
        if fileFailed { return }
        // The in-memory buffer starts small again.
        memory = []
        memory.reserveCapacity(Self.writeBufferBytes)
    }

    /// Writes the records in memory to the end of the file.
    private func flush() {
        let ok = memory.withUnsafeBytes { buffer in
            Self.whole(buffer.count) { done in pwrite(descriptor, buffer.baseAddress! + done, buffer.count - done, off_t(written + done)) }
        }
        guard ok else {
            // The file keeps what was written before; these records, and every later one, stay in memory
            // (offsets from `written` on, so a record cut short in the file is never read there).
            fileFailed = true
            return
        }
        written += memory.count
        memory.removeAll(keepingCapacity: true)
    }

    private func readFile(into bytes: inout [UInt8], at offset: Int) -> Bool {
        bytes.withUnsafeMutableBytes { buffer in
            Self.whole(buffer.count) { done in pread(descriptor, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done)) }
        }
    }

    /// Calls `move` (a `pread` or `pwrite` of the bytes from `done` on) until `count` bytes are moved,
    /// again after an interrupted call; false on an error or the end of the file.
    private static func whole(_ count: Int, _ move: (_ done: Int) -> Int) -> Bool {
        var done = 0
        while done < count {
            let moved = move(done)
            if moved < 0 && errno == EINTR { continue }
            guard moved > 0 else { return false }
            done += moved
        }
        return true
    }

    /// Appends `number` as LEB128: 7 bits a byte, low first.
    static func put(_ number: UInt64, into bytes: inout [UInt8]) {
        var rest = number
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    /// Reads a LEB128 number at `at`, moving past it; `nil` when the bytes end first or it is too long.
    static func number(_ bytes: [UInt8], at: inout Int) -> UInt64? {
        var result: UInt64 = 0, shift: UInt64 = 0
        while at < bytes.count && shift <= 63 {
            let byte = bytes[at]
            at += 1
            result |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return result }
            shift += 7
        }
        return nil
    }
}
