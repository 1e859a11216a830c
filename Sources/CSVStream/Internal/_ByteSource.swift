#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a reader's bytes come from: an open file descriptor read with plain `read(2)`, or bytes in memory.
/// Either way the reader copies fixed-size chunks into its own buffer, so both paths run the same code.
final class _ByteSource {
    private enum Storage {
        case file(descriptor: Int32)
        case memory([UInt8])
        case closed
    }

    private var storage: Storage
    /// The path, for error messages.
    let path: String?
    /// The total size when known (regular files and memory), for progress.
    let size: Int64?
    /// How many bytes have been handed out so far.
    private(set) var position: Int64 = 0

    /// Opens a file for reading.
    init(path: String) throws(CSVError) {
        self.path = path
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw _ByteSource.ioError(errno, "cannot open the file", path: path)
        }
        var info = stat()
        if fstat(descriptor, &info) == 0 {
            let kind = info.st_mode & S_IFMT
            if kind == S_IFDIR {
                close(descriptor)
                throw CSVError(kind: .io, message: "cannot read the file: it is a directory", path: path)
            }
            size = kind == S_IFREG ? Int64(info.st_size) : nil
        } else {
            size = nil
        }
        storage = .file(descriptor: descriptor)
    }

    /// Serves bytes from memory.
    init(bytes: [UInt8]) {
        path = nil
        size = Int64(bytes.count)
        storage = .memory(bytes)
    }

    deinit { release() }

    /// Releases the file descriptor; later reads return 0 bytes and re-reads fail.
    func release() {
        if case .file(let descriptor) = storage {
            _ = close(descriptor)
        }
        storage = .closed
    }

    /// Fills as much of `buffer` as the input allows; 0 means the end.
    ///
    /// - Complexity: O(buffer.count).
    func readChunk(into buffer: UnsafeMutableRawBufferPointer) throws(CSVError) -> Int {
        switch storage {
        case .file(let descriptor):
            while true {
                let count = read(descriptor, buffer.baseAddress, buffer.count)
                if count >= 0 {
                    position += Int64(count)
                    return count
                }
                if errno == EINTR { continue }
                throw _ByteSource.ioError(errno, "cannot read the file", path: path, offset: position)
            }
        case .memory(let bytes):
            let start = Int(position)
            let count = Swift.min(buffer.count, bytes.count - start)
            guard count > 0 else { return 0 }
            bytes.withUnsafeBytes { source in
                buffer.baseAddress!.copyMemory(from: source.baseAddress! + start, byteCount: count)
            }
            position += Int64(count)
            return count
        case .closed:
            return 0
        }
    }

    /// Re-reads the bytes in `range`, independently of the streaming position (`pread(2)` for files).
    func bytes(in range: Range<Int64>) throws(CSVError) -> [UInt8] {
        switch storage {
        case .file(let descriptor):
            var result = [UInt8](repeating: 0, count: range.count)
            var done = 0
            while done < range.count {
                let count = result.withUnsafeMutableBytes { buffer in
                    pread(
                        descriptor, buffer.baseAddress! + done, range.count - done,
                        off_t(range.lowerBound) + off_t(done))
                }
                if count < 0 {
                    if errno == EINTR { continue }
                    throw _ByteSource.ioError(errno, "cannot re-read the record", path: path, offset: range.lowerBound)
                }
                if count == 0 { break }
                done += count
            }
            return Array(result[..<done])
        case .memory(let bytes):
            let lower = Int(Swift.max(0, Swift.min(range.lowerBound, Int64(bytes.count))))
            let upper = Int(Swift.max(Int64(lower), Swift.min(range.upperBound, Int64(bytes.count))))
            return Array(bytes[lower..<upper])
        case .closed:
            throw CSVError(kind: .io, message: "cannot re-read the record: the reader was closed", path: path)
        }
    }

    private static func ioError(_ code: Int32, _ what: String, path: String?, offset: Int64? = nil) -> CSVError {
        CSVError(kind: .io, message: "\(what): \(String(cString: strerror(code)))", path: path, byteOffset: offset)
    }
}
