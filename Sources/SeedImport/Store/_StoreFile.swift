import Foundation
import ManagedStore
import CSQLite

/// The temporary file a store is built in, next to its target, and the move into place.
///
/// The store is written to `.<name>.importing-<pid>` in the target's directory and renamed over the
/// target with rename(2) only when complete (after an fsync), so killing the importer at any moment leaves
/// the previous store or none, never a half-written one. Temporary files of processes that no longer
/// exist are removed on the next run into that directory, and a SIGINT, SIGTERM or SIGHUP removes this
/// process's own when ``ImportOptions/removesTemporaryFilesOnSignal`` is set (the CLI sets it).
struct _StoreFile {
    /// Where the finished store goes.
    let target: URL
    /// Where it is built.
    let temporary: URL
    /// The path as given: a link to a pipe (`/proc/self/fd/1`) resolves to no file by its text, only by stat.
    let given: String

    /// The suffix SQLite's side files carry.
    static let sideFileSuffixes = ["-journal", "-wal", "-shm"]

    /// The target where the kernel resolves it: a symbolic link to a file stands for that file, which the
    /// store replaces, the link kept (renaming over the link would leave its file as it was), and
    /// `link/..` is the link's target's parent.
    init(target path: String) {
        given = path
        target = URL(fileURLWithPath: OutputPath.canonical(path))
        temporary = Self.temporaryURL(for: target, pid: getpid())
    }

    /// `.<name>.importing-<pid>` next to `target`.
    static func temporaryURL(for target: URL, pid: Int32) -> URL {
        target.deletingLastPathComponent().appendingPathComponent(".\(target.lastPathComponent).importing-\(pid)")
    }

    /// Removes the temporary stores (and their side files) that importers no longer running left in
    /// `directory`, for any target; returns what was removed. Only regular files named
    /// `.<name>.importing-<pid>` (plus a side-file suffix) whose process has ended or is ending
    /// (``_ImporterProcess/mayRun(_:)``), with no grace period.
    @discardableResult
    static func removeStale(in directory: URL) -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return [] }
        var removed: [String] = []
        for name in names where name.hasPrefix(".") {
            guard let marker = name.range(of: ".importing-", options: .backwards), marker.lowerBound > name.index(after: name.startIndex) else { continue }
            var rest = name[marker.upperBound...]
            // A store's side files, and the files a rejects file is sorted through.
            for suffix in sideFileSuffixes + _RejectsWriter.sortFileSuffixes + [_RejectsWriter.asideSuffix] where rest.hasSuffix(suffix) {
                rest = rest.dropLast(suffix.count)
            }
            guard let pid = Int32(rest), pid > 0, !_ImporterProcess.mayRun(pid) else { continue }
            guard removeRegularFile(directory.appendingPathComponent(name).path) else { continue }
            removed.append(name)
        }
        return removed.sorted()
    }

    /// Removes `path` only if it is a regular file (never a directory, a device, a pipe, or the file a
    /// symbolic link names); returns whether it did.
    @discardableResult
    static func removeRegularFile(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG && unlink(path) == 0
    }

    /// Where a finished store that cannot replace the target is kept: `Store.sqlite.complete`, or
    /// `Store.sqlite.complete-2` and on when that is taken.
    private func keptPath() -> String {
        var path = target.path + ".complete"
        var number = 1
        while FileManager.default.fileExists(atPath: path) {
            number += 1
            path = target.path + ".complete-\(number)"
        }
        return path
    }

    /// Removes the temporary store and its side files (a failed or interrupted import).
    func discard() {
        for suffix in [""] + Self.sideFileSuffixes {
            try? FileManager.default.removeItem(atPath: temporary.path + suffix)
        }
    }

    /// Refuses a target the finished store could never be renamed over (a directory), before the import
    /// (and again before the rename, which also removes the target's journal files).
    func checkTarget() throws(ImportError) {
        var info = stat()
        if stat(target.path, &info) == 0 || stat(given, &info) == 0 {
            switch info.st_mode & S_IFMT {
            case S_IFREG:
                break
            case S_IFDIR:
                throw ImportError(.store, reason: "--out names a directory, not a store file", file: target.path,
                                  hint: "Give a file path such as \(target.appendingPathComponent("Store.sqlite").path). Nothing was written.")
            default:
                // A device (/dev/null), a named pipe or a socket: opening a pipe to read it would wait for a
                // writer, and the rename would replace the device itself with the store (a user trial, as
                // root, turned /dev/null into a 12 MB file).
                let kind = switch info.st_mode & S_IFMT {
                case S_IFCHR, S_IFBLK: "a device"
                case S_IFIFO: "a pipe"
                default: "a socket"
                }
                throw ImportError(.store, reason: "--out names \(kind), not a store file: a store is a regular file, renamed into place when complete",
                                  file: given, hint: "Give --out the path of a .sqlite file. Nothing was written.")
            }
        }
        // An immutable or append-only file (chattr +i / +a) cannot be replaced, even by root: say so now,
        // not after the whole import (a user trial). Opening it to write (not to append, nothing written)
        // is refused with EPERM for both; a file that is only read-only gives EACCES and can be replaced.
        let probe = open(target.path, O_WRONLY | O_NONBLOCK | O_NOCTTY)
        let refused = probe < 0 && errno == EPERM
        if probe >= 0 { close(probe) }
        if refused {
            throw ImportError(.store, reason: "--out names a file marked immutable or append-only (lsattr shows the flag), which cannot be replaced",
                              file: target.path, hint: "Clear the flag (chattr -i or -a) or give --out another path. Nothing was written.")
        }
        // An import replaces a store; any other file (a CSV, a model, a document) is refused. Empty files
        // pass (a path made with `touch`).
        if let handle = FileHandle(forReadingAtPath: target.path) {
            defer { try? handle.close() }
            let header = (try? handle.read(upToCount: 16)) ?? Data()
            if !header.isEmpty && header != Data("SQLite format 3\u{0}".utf8) {
                throw ImportError(.store, reason: "--out names a file that is not an SQLite store; the import would replace it", file: target.path,
                                  hint: "Give --out a new path, or remove \(target.path) first if it can go. Nothing was written.")
            }
            if !header.isEmpty {
                switch Self.contents(at: target.path) {
                case .storeOrEmpty:
                    break
                case .foreign(let tables, let missing):
                    // Another program's database (a user trial's `important` table was replaced without a word).
                    let shown = tables.prefix(5).joined(separator: ", ") + (tables.count > 5 ? " and \(tables.count - 5) more" : "")
                    throw ImportError(.store, reason: "--out names an SQLite database that is not a Core Data-style store (it has no "
                                      + "\(missing.joined(separator: " and ")), and holds the table\(tables.count == 1 ? "" : "s") \(shown)); the import would replace it",
                                      file: target.path, hint: "Give --out a new path, or remove \(target.path) first if it can go. Nothing was written.")
                case .unreadable(let reason):
                    // Damaged, or another program's: what it held cannot be told, so it is not replaced unasked.
                    throw ImportError(.store, reason: "--out names an SQLite file whose tables cannot be read (\(reason)), so whether it is a store cannot be told; the import would replace it",
                                      file: target.path, hint: "If it is a damaged store, remove \(target.path) and import again; otherwise give --out a new path. Nothing was written.")
                }
            }
        }
    }

    /// What an SQLite file at `--out` holds, as far as replacing it goes.
    enum Contents {
        /// A Core Data-style store (`Z_PRIMARYKEY` and `Z_METADATA`), or no tables at all.
        case storeOrEmpty
        /// Tables, but not a store's: their names, and which of the store's two tables it lacks.
        case foreign(tables: [String], missing: [String])
        /// SQLite cannot list its tables (damaged, cut short, or locked).
        case unreadable(String)
    }

    /// What the SQLite database at `path` holds.
    static func contents(at path: String) -> Contents {
        let rows: [[SQLValue]]
        do {
            let connection = try Connection(path: path, readOnly: true, create: false)
            rows = try connection.rows("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name")
        } catch {
            // Held by another process: the check for a store in use says so, after this one.
            if error.code == SQLITE_BUSY || error.code == SQLITE_LOCKED { return .storeOrEmpty }
            return .unreadable(error.message)
        }
        let tables = rows.compactMap { row -> String? in if case .text(let name)? = row.first { name } else { nil } }
        let missing = ["Z_PRIMARYKEY", "Z_METADATA"].filter { !tables.contains($0) }
        return tables.isEmpty || missing.isEmpty ? .storeOrEmpty : .foreign(tables: tables, missing: missing)
    }

    /// What an import that stops leaves at `path` (as the user gave it): `Wells.sqlite is unchanged`, or
    /// `no store was created at Wells.sqlite` when nothing stood there.
    static func untouched(_ path: String) -> String {
        FileManager.default.fileExists(atPath: path) ? "\(path) is unchanged" : "no store was created at \(path)"
    }

    /// Whether two paths name the same file (after `.`/`..` and symbolic links).
    static func samePath(_ a: String, _ b: String) -> Bool { OutputPath.same(a, b) }

    /// Refuses a target another running import is building a store for (its `.<name>.importing-<pid>`
    /// is there and its process runs): the two would replace each other's store, and the last to finish
    /// would stand next to the other's rejects file. Two started at the same instant may still both run.
    func checkNoOtherImporter() throws(ImportError) {
        let prefix = ".\(target.lastPathComponent).importing-"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: target.deletingLastPathComponent().path)) ?? []
        for name in names where name.hasPrefix(prefix) {
            guard let pid = Int32(name.dropFirst(prefix.count)), pid != getpid(), _ImporterProcess.mayRun(pid) else { continue }
            throw ImportError(.store, reason: "another import (process \(pid)) is building a store for this --out", file: target.path,
                              hint: "Wait for it to finish, or give --out another path. Nothing was written.")
        }
    }

    /// Guards ``building``.
    private static let buildingLock = NSLock()
    /// The targets this process is building stores for: another import into one of them, from another
    /// thread or task, is refused, as one from another process is (the two would share the temporary
    /// file, which is named by the process).
    nonisolated(unsafe) private static var building: Set<String> = []

    /// Takes the target, and the rejects file when there is one (skip mode), for this import; refuses both
    /// when another import of this process has either: the two would share the temporary store or the
    /// temporary rejects file, both named by the process. ``release(rejects:)`` gives them back.
    func claim(rejects: String?) throws(ImportError) {
        let rejectsPath = rejects.map(OutputPath.canonical)
        let taken: String? = Self.buildingLock.withLock {
            if Self.building.contains(target.path) { return target.path }
            if let rejectsPath, Self.building.contains(rejectsPath) { return rejectsPath }
            Self.building.insert(target.path)
            if let rejectsPath { Self.building.insert(rejectsPath) }
            return nil
        }
        guard let taken else { return }
        let what = taken == target.path ? "building a store for this --out" : "writing its rejects to \(rejects ?? taken)"
        throw ImportError(.store, reason: "another import in this process is \(what)", file: target.path,
                          hint: "Wait for its run(into:) to return, or import into another path\(taken == target.path ? "" : " (or give --rejects another file)"). Nothing was written.")
    }

    /// Gives back what ``claim(rejects:)`` took.
    func release(rejects: String?) {
        let rejectsPath = rejects.map(OutputPath.canonical)
        Self.buildingLock.withLock {
            Self.building.remove(target.path)
            if let rejectsPath { Self.building.remove(rejectsPath) }
        }
    }

    /// Refuses a target whose directory is missing or not writable, before anything else is checked or
    /// written: the rejects file beside the store would otherwise be blamed for it.
    func checkDirectory() throws(ImportError) {
        let directory = target.deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ImportError(.store, reason: "the directory \(directory) does not exist", file: target.path,
                              hint: "Create it first, or choose another --out path.")
        }
        guard access(directory, W_OK) == 0 else {
            throw ImportError(.store, reason: "the directory \(directory) is not writable", file: target.path,
                              hint: "Choose another --out path.")
        }
    }

    /// Refuses a target another process is building or has open, and removes a temporary file of this
    /// process left by an earlier attempt. The caller has checked the target's kind and folder
    /// (``checkTarget()``, ``checkDirectory()``) first, before the rejects file beside it.
    func prepare() throws(ImportError) {
        try checkNoOtherImporter()
        // Before any work: found again at the end, the refusal would cost the whole import.
        try checkPreviousNotOpen()
        discard()
    }

    /// Flushes the finished temporary store to disk and renames it over the target.
    ///
    /// The previous store keeps its permissions and owner. Side files of the previous store (a stale
    /// journal or WAL) are removed first: SQLite would otherwise apply them to the new file. A WAL holding
    /// commits is checkpointed into the previous store first, so a kill before the rename leaves it whole.
    ///
    /// `beforeRename` and `afterRename` run right around the rename itself, after every check, so a file
    /// that goes with the store (its rejects) changes places with it as nearly together as two renames can.
    func commit(beforeRename: () -> Void = {}, afterRename: () -> Void = {}) throws(ImportError) {
        try Self.fsync(temporary.path)
        try checkTarget()
        var previous = stat()
        if stat(target.path, &previous) == 0 {
            // A store kept private stays private (the new file has the umask's mode, this user as owner).
            _ = chmod(temporary.path, previous.st_mode & 0o7777)
            if previous.st_uid != getuid() || previous.st_gid != getgid() { _ = chown(temporary.path, previous.st_uid, previous.st_gid) }
            try checkPreviousNotOpen()
            try checkpointPreviousLog()
            try checkPreviousNotInUse()
        }
        for suffix in Self.sideFileSuffixes {
            let side = target.path + suffix
            if FileManager.default.fileExists(atPath: side) { unlink(side) }
        }
        beforeRename()
        guard rename(temporary.path, target.path) == 0 else {
            let reason = String(cString: strerror(errno))
            // Kept under a name the next import does not take for an unfinished one's (it removes those).
            let kept = keptPath()
            let place = rename(temporary.path, kept) == 0 ? kept : temporary.path
            var error = ImportError(.store, reason: "cannot move the finished store into place: \(reason)", file: target.path,
                                    hint: "The complete store was kept at \(place): move it into place (mv '\(place)' '\(target.path)') once that is possible.")
            error.keepsTemporaryStore = true
            throw error
        }
        afterRename()
        // Make the rename itself durable.
        try? Self.fsync(target.deletingLastPathComponent().path)
    }

    /// Moves the commits a previous store holds in its WAL (`-wal`, as Core Data writes stores) into the
    /// store itself, so that removing the WAL loses nothing if the process ends before the rename.
    /// A store another process has open (its WAL cannot be checkpointed whole) is not replaced.
    func checkpointPreviousLog() throws(ImportError) {
        var log = stat()
        guard stat(target.path + "-wal", &log) == 0, log.st_size > 0 else { return }
        var busy = false
        do {
            let connection = try Connection(path: target.path, create: false)
            let result = try connection.rows("PRAGMA wal_checkpoint(TRUNCATE)")
            busy = result.first?.first?.int64 == 1
        } catch {
            // The previous file cannot be read as a store (it is damaged): its log cannot save it.
            return
        }
        if busy {
            throw ImportError(.store, reason: "the store at --out is open in another process, which holds changes in its WAL (\(target.lastPathComponent)-wal)",
                              file: target.path, hint: "Close what has it open and run the import again; the store there is unchanged.")
        }
    }

    /// Refuses to replace a previous store another process has open, in a transaction or not (found
    /// through `/proc`): replaced, the file it holds would be unlinked under it, its later reads would show
    /// the old store and its writes would go where no one reads them; in WAL mode, its `-wal` would pair
    /// with the new store. A process of another user whose descriptors cannot be read is not seen, so
    /// ``checkPreviousNotInUse()`` still tries the lock.
    func checkPreviousNotOpen() throws(ImportError) {
        let holders = Self.processesHolding([target.path] + Self.sideFileSuffixes.map { target.path + $0 })
        guard !holders.isEmpty else { return }
        let named = holders.prefix(3).map { "\($0.name), pid \($0.pid)" }.joined(separator: "; ") + (holders.count > 3 ? "; …" : "")
        throw ImportError(.store, reason: "the store at --out is open in another process (\(named))",
                          file: target.path,
                          hint: "Replaced under it, that process would go on reading the old file, and its writes would be lost. Close the store there (quit the app or the sqlite3 shell) and run the import again; the store there is unchanged.")
    }

    /// The processes other than this one that have any of `paths` open, from `/proc/<pid>/fd`: each pid
    /// and its command name. Empty when none does, or where `/proc` cannot be read.
    static func processesHolding(_ paths: [String]) -> [(pid: Int32, name: String)] {
        var files = Set<FileID>()
        for path in paths {
            var info = stat()
            if stat(path, &info) == 0 { files.insert(FileID(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))) }
        }
        guard !files.isEmpty, let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        let me = getpid()
        var holders: [(pid: Int32, name: String)] = []
        for entry in entries {
            guard let pid = Int32(entry), pid != me,
                  let descriptors = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd") else { continue }
            let holds = descriptors.contains { descriptor in
                var info = stat()
                return stat("/proc/\(pid)/fd/\(descriptor)", &info) == 0
                    && files.contains(FileID(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)))
            }
            guard holds else { continue }
            let name = (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
            holders.append((pid, name.flatMap { $0.isEmpty ? nil : $0 } ?? "unknown"))
        }
        return holders.sorted { $0.pid < $1.pid }
    }

    /// A file as the kernel names it, whatever path reaches it.
    struct FileID: Hashable {
        let device: UInt64
        let inode: UInt64
    }

    /// Refuses to replace a previous store another process is using: one in a transaction (reading, in
    /// rollback-journal mode, or writing) holds a lock that an exclusive one waits for, up to 2 s. Replacing
    /// it would leave that process on the old file, and remove the journal a writer needs.
    func checkPreviousNotInUse() throws(ImportError) {
        var busy = false
        do {
            let connection = try Connection(path: target.path, create: false)
            try connection.execute("PRAGMA busy_timeout = 2000")
            try connection.execute("BEGIN EXCLUSIVE")
            try connection.execute("COMMIT")
        } catch {
            // SQLITE_BUSY or SQLITE_LOCKED; any other failure is a damaged previous file, which may go.
            busy = error.code == 5 || error.code == 6
        }
        if busy {
            throw ImportError(.store, reason: "the store at --out is in use by another process (it holds a lock on \(target.lastPathComponent))",
                              file: target.path, hint: "Close what has it open and run the import again; the store there is unchanged.")
        }
    }

    /// Starts writing the loaded store to disk on a helper thread, so the disk works while this thread
    /// builds indexes; the fsync in ``commit()`` then waits only for the pages written since.
    ///
    /// Nothing is promised until ``commit()``: this only moves the disk's work earlier. On the 244,292
    /// wells (a 50 MB table) the final flush went from 0.1–0.25 s to the index pages alone.
    ///
    /// ```swift
    /// let flush = _StoreFile.startFlush(storeFile.temporary.path)
    /// defer { flush.wait() }
    /// try buildIndexes()
    /// ```
    static func startFlush(_ path: String) -> _EarlyFlush { _EarlyFlush(path: path) }

    static func fsync(_ path: String) throws(ImportError) {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else {
            throw ImportError(.store, reason: "cannot open \(path) to flush it: \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        guard Foundation.fsync(descriptor) == 0 else {
            throw ImportError(.store, reason: "cannot flush \(path) to disk: \(String(cString: strerror(errno)))")
        }
    }
}

/// An fsync of one file on a helper thread (``_StoreFile/startFlush(_:)``); ``wait()`` joins it.
/// Failures are left to the final, reported fsync.
final class _EarlyFlush: Sendable {
    private let done = DispatchSemaphore(value: 0)

    init(path: String) {
        let done = self.done
        let thread = Thread {
            let descriptor = open(path, O_RDONLY)
            if descriptor >= 0 {
                _ = Foundation.fsync(descriptor)
                close(descriptor)
            }
            done.signal()
        }
        thread.name = "seedstore-flush"
        thread.start()
    }

    /// Waits until the flush has ended.
    func wait() {
        done.wait()
        done.signal()
    }
}
