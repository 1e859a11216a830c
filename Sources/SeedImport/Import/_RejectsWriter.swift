import Foundation

/// Writes rejected rows as CSV: `file,line,column,entity,attribute,value,reason,raw`, where `raw` is the
/// record's original bytes, unchanged (in the file's encoding, bytes it does not define included; quoted
/// as CSV when needed). The other columns are UTF-8.
///
/// Like the store, the file is written next to its place (`.<name>.importing-<pid>`, created at the first
/// reject) and moved there only when the import completes (``commit()``): a failed import leaves an
/// earlier run's rejects file as it was, and a clean one removes it. A path that is not itself a regular
/// file (`/dev/null`, a named pipe, `/dev/stdout`, a symbolic link) gets the rows when the import completes,
/// from a spool file in the temporary directory: an import that runs again (``restart()``) must be able to
/// take back what it wrote. What such a path names is never truncated (``copyOut()``).
final class _RejectsWriter {
    /// Where the rejects go when the import completes, as given (for messages).
    let path: String
    /// The file renamed into place: `path`, or the regular file a symbolic link `path` leads to, so the
    /// link stays and its file is replaced, as for a path given directly.
    private let placePath: String
    /// Where they are written meanwhile.
    let writingPath: String
    /// Whether `path` is not itself a regular file: the rows are copied there, not renamed.
    private let copiesOut: Bool
    private var handle: UnsafeMutablePointer<FILE>?
    private(set) var count = 0
    /// Rows a file listed again (read once per listing, as the wells mapping reads wells.csv for `Well`, then
    /// for `WellSummary` and `WellDetail`) rejected again at the same column for the same reason (too many
    /// fields, a misplaced quote, bytes not in its encoding, a value that does not convert): written once,
    /// and counted here.
    private(set) var repeats = 0
    /// The files the import reads more than once (by their path in the rows): only their rejects are
    /// remembered, so memory grows with rejects of such files alone.
    var listedAgain: Set<String> = []
    /// Per reject written from a file read more than once: its line and column, and the hash of its reason.
    private var fileLevel: Set<SIMD4<Int>> = []
    private(set) var failure: String?
    /// Why sorting the rows by line failed, if it did: they stay in the order written.
    private(set) var sortProblem: String?
    /// Each input's place in import order, by its path as written in the rows (a file listed twice takes
    /// its first place), for sorting the rows by file and line.
    var fileOrder: [String: Int] = [:]
    /// Whether every row so far came in file and line order, and the last row's place.
    var isInLineOrder = true
    var lastOrder: (Int, Int)?

    static let header = "file,line,column,entity,attribute,value,reason,raw"

    init(path: String) {
        self.path = path
        // A stream is written as it is; a file (or a link to one) where the kernel resolves it, so a link
        // stays and `link/..` means what it does to the kernel.
        copiesOut = OutputPath.isStream(path)
        let place = copiesOut ? path : OutputPath.canonical(path)
        placePath = place
        if copiesOut {
            writingPath = FileManager.default.temporaryDirectory.appendingPathComponent(".seedstore-rejects-\(UUID().uuidString).importing-\(getpid())").path
        } else {
            let url = URL(fileURLWithPath: place)
            writingPath = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).importing-\(getpid())").path
        }
    }

    /// Finishes this run's rejects before the store is moved into place: closes the file, sorts it by
    /// line, and copies it out to a path that is not a regular file (`/dev/stdout`, a pipe). Returns why
    /// the rows could not all be written (a full disk, a closed pipe), in which case neither the store nor
    /// an earlier rejects file may be replaced; a failed sort only leaves the rows in the order written
    /// (``sortProblem``).
    func prepare() -> String? {
        close()
        if let failure { return failure }
        if count > 1, !isInLineOrder, let problem = sortByLine() { sortProblem = problem }
        if copiesOut && count > 0, let problem = copyOut() {
            failure = problem
            return problem
        }
        return nil
    }

    /// What an earlier run's rejects file is renamed to while the store moves (``setAsideEarlier()``).
    static let asideSuffix = ".replaced"

    /// Where an earlier run's rejects file waits while the store is renamed: `.<name>.importing-<pid>.replaced`,
    /// a name the next import into the folder removes if this process dies first (``_StoreFile/removeStale(in:)``).
    private var asidePath: String { writingPath + Self.asideSuffix }

    /// Whether an earlier run's rejects file is at ``asidePath``.
    private var isAside = false

    /// Moves an earlier run's rejects file out of its place just before the store's rename, so that at no
    /// moment does the new store stand next to the old store's rejected rows: a kill between the two
    /// renames leaves the new store with no rejects file, never with the previous import's.
    func setAsideEarlier() {
        var info = stat()
        guard !copiesOut, lstat(placePath, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return }
        isAside = rename(placePath, asidePath) == 0
    }

    /// Finishes what an import killed between the store's rename and its rejects file's left next to
    /// `place` (the rejects file of the store `store`): a set-aside earlier file (``setAsideEarlier()``)
    /// goes back when that import's temporary store is still there (the store was not replaced); else the
    /// store is that import's, so its finished rejects file takes the place and the earlier one goes.
    /// Returns a line for each file moved. Run before the temporary files of dead imports are removed.
    static func recoverInterrupted(place: String, store: URL) -> [String] {
        guard !OutputPath.isStream(place) else { return [] }
        let url = URL(fileURLWithPath: OutputPath.canonical(place))
        let folder = url.deletingLastPathComponent()
        let prefix = ".\(url.lastPathComponent).importing-"
        var said: [String] = []
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        where name.hasPrefix(prefix) && name.hasSuffix(asideSuffix) {
            let pidText = name.dropFirst(prefix.count).dropLast(asideSuffix.count)
            guard let pid = Int32(pidText), pid > 0, !_ImporterProcess.mayRun(pid) else { continue }
            let aside = folder.appendingPathComponent(name).path
            if FileManager.default.fileExists(atPath: _StoreFile.temporaryURL(for: store, pid: pid).path) {
                if !FileManager.default.fileExists(atPath: url.path), rename(aside, url.path) == 0 {
                    said.append("put back \(place), which an import killed just before it replaced the store had set aside")
                }
            } else {
                let finished = folder.appendingPathComponent(prefix + pidText).path
                if FileManager.default.fileExists(atPath: finished), rename(finished, url.path) == 0 {
                    said.append("moved the rejected rows of an import killed just after it replaced the store into \(place)")
                }
                removeEarlier(aside)
            }
        }
        return said
    }

    /// Puts an earlier run's rejects file back (the store was not replaced).
    private func restoreEarlier() {
        guard isAside else { return }
        if rename(asidePath, placePath) == 0 { isAside = false }
    }

    /// Moves this run's rejects into place (after ``prepare()`` and, at once, after the store's rename), or,
    /// with none, removes an earlier run's file so it cannot pass for this run's. Returns what went wrong,
    /// if anything.
    func commit() -> String? {
        close()
        defer {
            if isAside { Self.removeEarlier(asidePath) }
            isAside = false
        }
        if copiesOut {
            // Copied out by prepare().
            Self.removeEarlier(writingPath)
            return failure ?? sortProblem
        }
        if count == 0 {
            Self.removeEarlier(placePath)
            return failure
        }
        guard rename(writingPath, placePath) == 0 else {
            return "cannot move the rejects file into place: \(String(cString: strerror(errno))); they are in \(writingPath)"
        }
        return failure ?? sortProblem
    }

    /// Copies the spool file to `path`, a path that is not itself a regular file; returns what went wrong,
    /// if anything.
    ///
    /// What `path` names is never truncated (``OutputPath/openStream(_:)``): `--rejects /dev/stdout >>log.txt`
    /// once emptied log.txt, as `/dev/stdout` resolves to it and was opened anew with `O_TRUNC`; now the rows
    /// go where the stream's next bytes would, and the summary printed after them follows them.
    private func copyOut() -> String? {
        let source = open(writingPath, O_RDONLY)
        guard source >= 0 else {
            return "cannot read the spooled rejects \(writingPath): \(String(cString: strerror(errno)))"
        }
        defer { Foundation.close(source) }
        let target = OutputPath.openStream(path)
        guard target >= 0 else {
            return "cannot write the rejects to \(path): \(String(cString: strerror(errno)))"
        }
        var failure: String?
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: 1 << 16, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = Foundation.read(source, buffer, 1 << 16)
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                failure = "reading the spooled rejects \(writingPath) failed: \(String(cString: strerror(errno)))"
                break
            }
            if let problem = OutputPath.writeAll(UnsafeRawBufferPointer(start: buffer, count: count), to: target) {
                failure = "writing the rejects to \(path) failed: \(problem)"
                break
            }
        }
        if Foundation.close(target) != 0 && failure == nil {
            failure = "writing the rejects to \(path) failed: \(String(cString: strerror(errno)))"
        }
        return failure
    }

    /// Removes what this run wrote (the import failed); an earlier run's file stays, or comes back.
    func discard() {
        close()
        restoreEarlier()
        Self.removeEarlier(writingPath)
    }

    /// Forgets the rows written so far: the import runs again and sets its rows aside anew.
    func restart() {
        discard()
        count = 0
        repeats = 0
        fileLevel = []
        failure = nil
        sortProblem = nil
        isInLineOrder = true
        lastOrder = nil
    }

    deinit { close() }

    /// Refuses a rejects path the import could not write, before anything is read: a directory (which
    /// must never be replaced by a file), a file that is not writable, a folder that does not exist, or a
    /// descriptor of this process (`/dev/fd/N`) that is not open for writing.
    static func check(_ path: String) throws(ImportError) {
        if let stream = OutputPath.descriptor(named: path) {
            let flags = fcntl(stream, F_GETFL)
            guard flags >= 0, flags & O_ACCMODE != O_RDONLY else {
                throw ImportError(.mapping, reason: "--rejects names descriptor \(stream) of this process, which is not open for writing", file: path,
                                  hint: "Give --rejects a file, or open descriptor \(stream) for writing (\(stream)>>FILE). Nothing was written.")
            }
            return
        }
        if OutputPath.isStream(path) { return }
        // Where the kernel puts it (`link/..` is the link's target's parent).
        let place = OutputPath.canonical(path)
        var info = stat()
        if lstat(place, &info) == 0 {
            if info.st_mode & S_IFMT == S_IFDIR {
                throw ImportError(.mapping, reason: "--rejects names a directory, not a file", file: path,
                                  hint: "Give a file path such as \(URL(fileURLWithPath: path).appendingPathComponent("rejects.csv").path). Nothing was written.")
            }
            if access(place, W_OK) != 0 {
                throw ImportError(.mapping, reason: "the rejects file cannot be written: \(String(cString: strerror(errno)))", file: path,
                                  hint: "Give --rejects a path this user can write. Nothing was written.")
            }
            // The file is replaced, or removed by a run without rejects: only an earlier rejects file (or an
            // empty one) may be, never a store, notes or a CSV the user keeps (a user trial lost notes.txt).
            if let handle = FileHandle(forReadingAtPath: place) {
                defer { try? handle.close() }
                let start = (try? handle.read(upToCount: header.utf8.count)) ?? Data()
                if !start.isEmpty && start != Data(header.utf8) {
                    throw ImportError(.mapping, reason: "--rejects names a file that is not a rejects file (it does not start with \(header)); the import would replace or remove it",
                                      file: path, hint: "Give --rejects a new path, or remove \(path) first if it can go. Nothing was written.")
                }
            }
            return
        }
        let folder = URL(fileURLWithPath: place).deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ImportError(.mapping, reason: "the folder of the rejects file does not exist", file: path,
                              hint: "Create \(folder) or give --rejects another path. Nothing was written.")
        }
        guard access(folder, W_OK) == 0 else {
            throw ImportError(.mapping, reason: "the rejects file cannot be created in \(folder): \(String(cString: strerror(errno)))", file: path,
                              hint: "Give --rejects a path this user can write. Nothing was written.")
        }
    }

    /// Whether `path` is a regular file (not a link) that starts with the rejects header: one an earlier
    /// import wrote, which may be removed.
    static func holdsEarlierRejects(_ path: String) -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: header.utf8.count)) == Data(header.utf8)
    }

    /// Removes the rejects file of an earlier run at `path` so it cannot pass for this run's: only a
    /// regular file (never a directory, a device such as `/dev/null`, or the file a symbolic link names).
    static func removeEarlier(_ path: String) {
        _StoreFile.removeRegularFile(path)
    }

    func write(file: String, line: Int, column: Int?, entity: String?, attribute: String?, value: String?,
               reason: String, raw: [UInt8]) {
        if listedAgain.contains(file), !fileLevel.insert(SIMD4(file.hashValue, line, column ?? 0, reason.hashValue)).inserted {
            repeats += 1
            return
        }
        if handle == nil {
            guard failure == nil else { return }
            guard let opened = fopen(writingPath, "w") else {
                failure = "cannot write the rejects file \(writingPath): \(String(cString: strerror(errno)))"
                return
            }
            handle = opened
            emit(Self.header + "\n")
        }
        noteOrder(file: file, line: line)
        let fields = [file, String(line), column.map(String.init) ?? "", entity ?? "", attribute ?? "", value ?? "", reason]
        var line = Array((fields.map(Self.quote) + [""]).joined(separator: ",").utf8)
        line += Self.quote(raw)
        line.append(0x0A)
        count += 1
        guard failure == nil else { return }
        // The reason is taken at the failed write: a later call (fclose) may leave another errno.
        if line.withUnsafeBufferPointer({ fwrite($0.baseAddress, 1, $0.count, handle) }) != line.count {
            failure = "writing the rejects file \(path) failed: \(String(cString: strerror(errno)))"
        }
    }

    func close() {
        guard let handle else { return }
        if ferror(handle) != 0 || fclose(handle) != 0 {
            if failure == nil { failure = "writing the rejects file \(path) failed: \(String(cString: strerror(errno)))" }
        }
        self.handle = nil
    }

    private func emit(_ text: String) {
        var text = text
        let written = text.withUTF8 { bytes in fwrite(bytes.baseAddress, 1, bytes.count, handle) }
        if written != text.utf8.count, failure == nil {
            failure = "writing the rejects file \(path) failed: \(String(cString: strerror(errno)))"
        }
    }

    /// Bytes as a CSV field: quoted, inner quotes doubled, when they hold a delimiter, quote, line break, or
    /// spaces at either end.
    static func quote(_ bytes: [UInt8]) -> [UInt8] {
        let special: (UInt8) -> Bool = { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }
        guard bytes.contains(where: special) || bytes.first == 0x20 || bytes.last == 0x20 else { return bytes }
        var quoted: [UInt8] = [0x22]
        for byte in bytes {
            quoted.append(byte)
            if byte == 0x22 { quoted.append(0x22) }
        }
        quoted.append(0x22)
        return quoted
    }

    /// A text as a CSV field, as ``quote(_:)-([UInt8])`` quotes bytes (by bytes: `"\r\n"` is one Character,
    /// equal to neither `"\r"` nor `"\n"`).
    static func quote(_ field: String) -> String {
        let bytes = Array(field.utf8)
        let quoted = quote(bytes)
        return quoted.count == bytes.count ? field : String(decoding: quoted, as: UTF8.self)
    }
}
