import Foundation

/// Removes this process's temporary files when SIGINT, SIGTERM or SIGHUP ends it (Ctrl-C in a terminal,
/// a CI job cancelled), then ends the process as the signal would have.
///
/// Only async-signal-safe calls run in the handler: `unlink(2)` of paths copied into C strings beforehand,
/// `strlen(3)` and `write(2)` of a message prepared beforehand (``setMessage(_:)``), then `signal(2)` and `raise(3)`. SIGKILL cannot be caught: what it leaves, the next import into the same
/// directory, or from the temporary directory, removes (``_StoreFile/removeStale(in:)``, ``_InputSpool/removeStale()``).
enum _InterruptCleanup {
    /// The most paths registered at once: the temporary store, its three side files, a rejects file, and
    /// copies of inputs that are not regular files (``_InputSpool``).
    private static let capacity = 32
    nonisolated(unsafe) private static let slots: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = {
        let slots = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: capacity)
        slots.initialize(repeating: nil, count: capacity)
        return slots
    }()
    nonisolated(unsafe) private static var installed = false
    /// What the handler writes to standard error, ending in a NUL byte (nil: nothing): one pointer, so a
    /// handler running while it is replaced reads the old line or the new one whole.
    nonisolated(unsafe) private static var message: UnsafeMutablePointer<CChar>?
    /// While the store is renamed into place: the temporary store's path and what to write instead of
    /// ``message`` once it is gone (the rename happened), so the line says what became of the store even
    /// when the signal comes during the rename (``setReplacedMessage(_:whenGone:)``).
    nonisolated(unsafe) private static var replacedCheck: UnsafeMutablePointer<CChar>?
    nonisolated(unsafe) private static var replacedMessage: UnsafeMutablePointer<CChar>?
    /// The text of ``message``, as given to ``setMessage(_:)``.
    nonisolated(unsafe) private static var messageText: String?
    private static let lock = NSLock()

    /// Installs the handlers (once per process).
    static func install() {
        lock.lock()
        defer { lock.unlock() }
        guard !installed else { return }
        installed = true
        _ = slots
        // A process may start with these blocked (a parent's worker thread spawned it): unblock them, or
        // they would stay pending while the import runs to the end.
        var set = sigset_t()
        sigemptyset(&set)
        for signal in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&set, signal) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        for signal in [SIGINT, SIGTERM, SIGHUP] {
            // A signal ignored from the start stays ignored: `nohup` (SIGHUP) and a shell's background job
            // (SIGINT) ask for the import to go on. Asking is setting: ignore, then look at what was there.
            let previous = Foundation.signal(signal, SIG_IGN)
            if Self.isIgnore(previous) { continue }
            _ = Foundation.signal(signal) { received in
                for i in 0..<_InterruptCleanup.capacity {
                    if let path = _InterruptCleanup.slots[i] { unlink(path) }
                }
                var line = _InterruptCleanup.message
                if let check = _InterruptCleanup.replacedCheck, access(check, F_OK) != 0 { line = _InterruptCleanup.replacedMessage }
                if let line { _ = write(2, line, strlen(line)) }
                _ = Foundation.signal(received, SIG_DFL)
                raise(received)
            }
        }
    }

    /// Whether a handler `signal(2)` returned is `SIG_IGN`.
    static func isIgnore(_ handler: __sighandler_t?) -> Bool {
        guard let handler else { return false }
        return unsafeBitCast(handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }

    /// Removes `path` if a signal ends the process before ``unregister(_:)``.
    static func register(_ path: String) {
        lock.lock()
        defer { lock.unlock() }
        for i in 0..<capacity where slots[i] == nil {
            slots[i] = strdup(path)
            return
        }
    }

    /// Stops removing `path` on a signal (it was moved into place, or removed).
    static func unregister(_ path: String) {
        lock.lock()
        defer { lock.unlock() }
        for i in 0..<capacity {
            guard let slot = slots[i], String(cString: slot) == path else { continue }
            slots[i] = nil
            free(slot)
        }
    }

    /// Makes a signal write `text` instead of the message once `path` (the temporary store) no longer
    /// exists: from just before the rename that moves it over the previous store. Like the message, what
    /// is set stays allocated (the handler may be reading it).
    static func setReplacedMessage(_ text: String, whenGone path: String) {
        lock.lock()
        defer { lock.unlock() }
        replacedMessage = cString((isatty(2) == 1 ? "\r\u{1B}[K" : "") + text + "\n")
        replacedCheck = strdup(path)
    }

    /// Stops ``setReplacedMessage(_:whenGone:)``: the import failed, and removed the temporary store itself.
    static func clearReplacedMessage() {
        lock.lock()
        defer { lock.unlock() }
        replacedCheck = nil
    }

    private static func cString(_ text: String) -> UnsafeMutablePointer<CChar> {
        let bytes = Array(text.utf8) + [0]
        let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count)
        bytes.withUnsafeBufferPointer { UnsafeMutableRawPointer(buffer).copyMemory(from: $0.baseAddress!, byteCount: bytes.count) }
        return buffer
    }

    /// Sets what a signal writes to standard error once the files are removed (`nil`: nothing), such as
    /// `import: interrupted; Wells.sqlite is unchanged`. On a terminal the line starts by clearing the
    /// progress bar. Returns the text set before, to set again after a step that says more (the copy of a
    /// pipe: `import: interrupted while copying /dev/stdin to /tmp; …`).
    @discardableResult
    static func setMessage(_ text: String?) -> String? {
        lock.lock()
        defer { lock.unlock() }
        let earlier = messageText
        messageText = text
        // The handler may be reading the old one: it is left allocated (one short string per message).
        guard let text else {
            message = nil
            return earlier
        }
        message = cString((isatty(2) == 1 ? "\r\u{1B}[K" : "") + text + "\n")
        return earlier
    }
}
