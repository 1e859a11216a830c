import Foundation
import ManagedStore
import Measure

/// Inputs that are not regular files (a pipe, `/dev/stdin`, a process substitution such as
/// `<(gunzip -c wells.csv.gz)`), copied once into a temporary file: the importer reads a file more than
/// once (its header while planning, then its rows, and in skip mode again to find rows it set aside),
/// and a pipe gives its bytes only once.
///
/// The copy streams in 1 MiB blocks (memory stays flat), goes to the temporary directory (`TMPDIR`), is
/// made at most once per input for the process, and is removed when the process exits or a signal ends
/// it (``_InterruptCleanup``). What SIGKILL or a crash leaves, the next import removes (``removeStale()``).
/// A copy that an import makes shows itself as the import's progress does (``Reporting``): a line every
/// 3 s, or a bar, saying why the input is copied, and a signal during it says what became of the store.
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
    /// How copies made without a ``Reporting`` of their own show themselves (those made before the import
    /// runs, while a mapping is inferred from headers or saved): set by ``SeedImporter/prepare(into:options:)``.
    nonisolated(unsafe) private static var processReporting: Reporting?

    /// How a copy shows itself while an import waits for it: progress on standard error (a copy of
    /// gigabytes from a slow pipe takes minutes), and the line a signal writes meanwhile.
    struct Reporting {
        /// The import's progress mode: plain lines every ``interval`` seconds, or a bar; none for nothing.
        var progress: ProgressMode
        /// Where progress goes (standard error when nil).
        var output: (@Sendable (String) -> Void)?
        /// What a signal leaves of the store (`Wells.sqlite is unchanged`), for the line it writes; nil for
        /// no line.
        var untouched: String?
        /// Seconds before the first progress line and between lines (the import's own, when nil).
        var interval: Double?
    }

    /// Makes copies made without a ``Reporting`` of their own report as `reporting` says (nil: silently).
    static func setProcessReporting(_ reporting: Reporting?) {
        lock.lock()
        defer { lock.unlock() }
        processReporting = reporting
    }

    /// A path that can be read as often as needed: `path` itself when it is a regular file (or cannot be
    /// inspected: opening it will say why), else a copy of its bytes, made as `reporting` says (as
    /// ``SeedImporter/prepare(into:options:)`` said, when nil).
    ///
    /// - Throws: ``SpoolError`` when the input cannot be read or the copy cannot be written.
    static func readablePath(_ path: String, reporting: Reporting? = nil) throws(SpoolError) -> String {
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
            try Self.copy(path, to: copy, reporting: reporting ?? processReporting, earlierCopies: copies.count)
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

    /// Copies `path` to `copy`; with a `reporting` that shows progress, says every interval how far it got
    /// (waiting for the input at most that long, so a pipe that gives nothing for a while is reported too),
    /// and meanwhile has a signal name the copy in its line.
    private static func copy(_ path: String, to copy: String, reporting: Reporting?, earlierCopies: Int) throws(SpoolError) {
        let input = open(path, O_RDONLY)
        guard input >= 0 else { throw SpoolError(input: path, copy: copy, reason: "cannot open it: \(String(cString: strerror(errno)))") }
        defer { close(input) }
        let output = open(copy, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard output >= 0 else { throw SpoolError(input: path, copy: copy, reason: "cannot create the copy: \(String(cString: strerror(errno)))") }
        defer { close(output) }
        let folder = URL(fileURLWithPath: copy).deletingLastPathComponent().path
        // The line a signal writes names the copy while it is made, then is what it was.
        var earlierMessage: String??
        if let untouched = reporting?.untouched {
            let removed = earlierCopies == 0 ? "the copy was removed" : "the copies were removed"
            earlierMessage = _InterruptCleanup.setMessage("import: interrupted while copying \(path) to \(folder); \(untouched) (\(removed))")
        }
        defer { if let earlierMessage { _InterruptCleanup.setMessage(earlierMessage) } }
        var progress: (reporter: _ProgressReporter, interval: Double)?
        if let reporting, reporting.progress != .none {
            let reporter = _ProgressReporter(mode: reporting.progress, totalBytes: 1, output: reporting.output)
            progress = (reporter, reporting.interval ?? (reporter.style == .bar ? _ProgressReporter.barInterval : _ProgressReporter.plainInterval))
        }
        defer { progress?.reporter.finish() }
        let start = Clock.now()
        var next = start + (progress?.interval ?? 0)
        var copied = 0, reported = false
        let block = UnsafeMutableRawPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { block.deallocate() }
        while true {
            if let (reporter, interval) = progress {
                let now = Clock.now()
                if now >= next {
                    let amount = "\(ProcessMemory.format(copied)) so far, \(ProcessMemory.format(Int(Double(copied) / max(0.001, now - start))))/s"
                    // A line says why once; a bar, fitted to the terminal, keeps the amount at its start.
                    reporter.note(reporter.style == .bar ? "copying: \(amount) — \(path) to \(folder) first, since the importer reads its input more than once"
                                  : reported ? "copying \(path): \(amount)"
                                  : "copying \(path) to \(folder) first, since the importer reads its input more than once: \(amount)")
                    reported = true
                    next = now + interval
                }
                // Waits for input until the next line is due.
                var descriptor = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
                let ready = poll(&descriptor, 1, Int32(max(1, ((next - Clock.now()) * 1000).rounded(.up))))
                if ready == 0 || (ready < 0 && errno == EINTR) { continue }
            }
            let count = read(input, block, 1 << 20)
            if count == 0 { return }
            if count < 0 {
                if errno == EINTR { continue }
                throw SpoolError(input: path, copy: copy, reason: "reading it failed: \(String(cString: strerror(errno)))")
            }
            if let failure = OutputPath.writeAll(UnsafeRawBufferPointer(start: block, count: count), to: output) {
                throw SpoolError(input: path, copy: copy, reason: "writing the copy failed: \(failure)")
            }
            copied += count
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
