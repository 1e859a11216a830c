import Foundation

/// Inputs that are not regular files (a pipe, `/dev/stdin`, a process substitution such as
/// `<(gunzip -c wells.csv.gz)`), copied once into a temporary file: the importer reads a file more than
/// once (its header while planning, then its rows, and in skip mode again to find rows it set aside),
/// and a pipe gives its bytes only once.
///
/// The copy streams in 1 MiB blocks (memory stays flat), goes to the temporary directory (`TMPDIR`), is
/// made at most once per input for the process, and is removed when the process exits or a signal ends
/// it (``_InterruptCleanup``). What SIGKILL or a crash leaves, the next import removes (``removeStale()``).
///
/// ```swift
/// let readable = try _InputSpool.readablePath("/dev/stdin")   // "/tmp/seedstore-input-4242-1-stdin"
/// ```
enum _InputSpool {
    private static let lock = NSLock()
    /// Input path → its copy.
    nonisolated(unsafe) private static var copies: [String: String] = [:]
    nonisolated(unsafe) private static var removesAtExit = false
    /// The name every copy starts with: `seedstore-input-<pid>-<n>-<name>`.
    static let prefix = "seedstore-input-"
    /// Whether this process has removed the copies of dead importers before making its first copy.
    nonisolated(unsafe) private static var sweptBeforeCopying = false
    /// What that removed, until ``removeStale()`` reports it.
    nonisolated(unsafe) private static var removedBeforeCopying: [String] = []

    /// A path that can be read as often as needed: `path` itself when it is a regular file (or cannot be
    /// inspected: opening it will say why), else a copy of its bytes.
    ///
    /// - Throws: ``SpoolError`` when the input cannot be read or the copy cannot be written.
    static func readablePath(_ path: String) throws(SpoolError) -> String {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) != S_IFREG, (info.st_mode & S_IFMT) != S_IFDIR else { return path }
        lock.lock()
        defer { lock.unlock() }
        if let copy = copies[path] { return copy }
        if !sweptBeforeCopying {
            // A killed import's copy may be as large as this one will be: it goes first.
            sweptBeforeCopying = true
            removedBeforeCopying = sweep(FileManager.default.temporaryDirectory)
        }
        let name = URL(fileURLWithPath: path).lastPathComponent
        let copy = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(prefix)\(getpid())-\(copies.count + 1)-\(name.isEmpty ? "input" : name)").path
        _InterruptCleanup.install()
        _InterruptCleanup.register(copy)
        if !removesAtExit {
            removesAtExit = true
            atexit { _InputSpool.removeCopies() }
        }
        do throws(SpoolError) {
            try Self.copy(path, to: copy)
        } catch {
            unlink(copy)
            _InterruptCleanup.unregister(copy)
            throw error
        }
        copies[path] = copy
        return copy
    }

    /// Removes every copy made (at exit).
    static func removeCopies() {
        lock.lock()
        defer { lock.unlock() }
        for copy in copies.values {
            unlink(copy)
            _InterruptCleanup.unregister(copy)
        }
        copies = [:]
    }

    /// Removes the copies that importers no longer running left in the temporary directory (`TMPDIR`), and
    /// returns their paths, with those removed before this process's first copy (to make room for it) not
    /// yet returned.
    ///
    /// Only regular files (never a directory, a pipe, or the file a symbolic link names) named exactly
    /// `seedstore-input-<pid>-<n>-<name>`, whose process has ended or is ending
    /// (``_ImporterProcess/mayRun(_:)``): the rule of the temporary stores (``_StoreFile/removeStale(in:)``),
    /// with no grace period.
    static func removeStale() -> [String] {
        lock.lock()
        defer { lock.unlock() }
        let removed = removedBeforeCopying + sweep(FileManager.default.temporaryDirectory)
        removedBeforeCopying = []
        return removed
    }

    /// The paths of the stale copies removed from `directory`, sorted.
    static func sweep(_ directory: URL) -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return [] }
        var removed: [String] = []
        for name in names where name.hasPrefix(prefix) {
            // `<pid>-<n>-<name>`: two runs of digits, then a name that is not empty.
            let parts = name.dropFirst(prefix.count).split(separator: "-", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3, !parts[2].isEmpty,
                  parts[0].allSatisfy({ $0.isASCII && $0.isNumber }), parts[1].allSatisfy({ $0.isASCII && $0.isNumber }), !parts[1].isEmpty,
                  let pid = Int32(parts[0]), pid > 0, !_ImporterProcess.mayRun(pid) else { continue }
            let path = directory.appendingPathComponent(name).path
            if _StoreFile.removeRegularFile(path) { removed.append(path) }
        }
        return removed.sorted()
    }

    private static func copy(_ path: String, to copy: String) throws(SpoolError) {
        let input = open(path, O_RDONLY)
        guard input >= 0 else { throw SpoolError(input: path, copy: copy, reason: "cannot open it: \(String(cString: strerror(errno)))") }
        defer { close(input) }
        let output = open(copy, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard output >= 0 else { throw SpoolError(input: path, copy: copy, reason: "cannot create the copy: \(String(cString: strerror(errno)))") }
        defer { close(output) }
        let block = UnsafeMutableRawPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { block.deallocate() }
        while true {
            let count = read(input, block, 1 << 20)
            if count == 0 { return }
            if count < 0 {
                if errno == EINTR { continue }
                throw SpoolError(input: path, copy: copy, reason: "reading it failed: \(String(cString: strerror(errno)))")
            }
            var written = 0
            while written < count {
                let step = write(output, block + written, count - written)
                if step < 0 {
                    if errno == EINTR { continue }
                    throw SpoolError(input: path, copy: copy, reason: "writing the copy failed: \(String(cString: strerror(errno)))")
                }
                written += step
            }
        }
    }

    /// An input that is not a regular file could not be copied.
    struct SpoolError: Error, CustomStringConvertible {
        let input: String
        let copy: String
        let reason: String

        var description: String {
            "\(input) is not a regular file (a pipe or a device), so it is copied to a temporary file first, since the importer reads each file more than once; \(reason). Set TMPDIR to a directory with room, or save the input to a file and import that."
        }
    }
}
