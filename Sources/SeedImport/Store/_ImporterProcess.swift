import Foundation

/// Whether the importer a temporary file is named after (`.<name>.importing-<pid>`,
/// `seedstore-input-<pid>-<n>-<name>`) may still use it, for the cleanup of what killed importers leave
/// (``_StoreFile/removeStale(in:)``, ``_InputSpool/removeStale()``).
///
/// There is no grace period: a file is removed as soon as its process can no longer run. A process that
/// was sent SIGKILL still exists until it has finished exiting and its parent has reaped it, which may take
/// seconds (a thread in an fsync leaves it only when the disk is done; a parent that does not wait leaves a
/// zombie): `kill(pid, 0)` succeeds meanwhile, and a user saw the next import, started 1.5 s after the kill,
/// keep the killed one's temporary store. Such a process counts as ended.
///
/// ```swift
/// if !_ImporterProcess.mayRun(4242) { unlink(".Wells.sqlite.importing-4242") }
/// ```
enum _ImporterProcess {
    /// The `PF_EXITING` bit of a thread's flags in `/proc/<pid>/task/<tid>/stat`: the thread is ending.
    private static let exitingFlag: UInt = 0x4

    /// Whether process `pid` may still run code, and so still write the files named after it: true for
    /// this process, and for any process unless none has that pid, or every thread it has is ended (a
    /// zombie its parent has not reaped) or ending (leaving the kernel with SIGKILL pending, or exiting).
    /// When its threads cannot be read, a process that exists counts as running.
    ///
    /// A pid the system gave to another process since keeps the file until that process ends too.
    static func mayRun(_ pid: Int32) -> Bool {
        guard pid > 0 else { return false }
        if pid == getpid() { return true }
        // EPERM: it exists, under another user; its threads can still be read.
        if kill(pid, 0) == -1 && errno == ESRCH { return false }
        guard let threads = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task") else {
            // Gone since, or /proc is not there: only the first is known to be safe.
            return !(kill(pid, 0) == -1 && errno == ESRCH)
        }
        return threads.contains { !threadHasEnded(pid: pid, thread: $0) }
    }

    /// Whether a thread is a zombie, is exiting, or has SIGKILL pending (it never returns to the program);
    /// true when it is gone.
    private static func threadHasEnded(pid: Int32, thread: String) -> Bool {
        guard let stat = read("/proc/\(pid)/task/\(thread)/stat") else { return true }
        // `tid (name) state ppid pgrp session tty tpgid flags …`: the name may hold spaces and parentheses,
        // so the fields are counted from the last ")".
        guard let close = stat.lastIndex(of: ")") else { return false }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 6 else { return false }
        if ["Z", "X", "x"].contains(fields[0]) { return true }
        if let flags = UInt(fields[6]), flags & exitingFlag != 0 { return true }
        guard let status = read("/proc/\(pid)/task/\(thread)/status") else { return true }
        let kill: UInt64 = 1 << (UInt64(SIGKILL) - 1)
        for line in status.split(separator: "\n") where line.hasPrefix("SigPnd:") || line.hasPrefix("ShdPnd:") {
            if let mask = UInt64(line.dropFirst(7).trimmingCharacters(in: .whitespaces), radix: 16), mask & kill != 0 { return true }
        }
        return false
    }

    /// A small file of `/proc` (which reports a size of 0), or nil when it cannot be read.
    private static func read(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { return count == 0 ? String(decoding: bytes, as: UTF8.self) : nil }
            bytes += buffer[..<count]
        }
    }
}
