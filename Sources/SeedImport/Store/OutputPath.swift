import Foundation

/// How the files an import writes besides its store (`--rejects`, `--summary-json`, `--save-mapping`)
/// are named and written, so that none replaces a file the import reads, a stream, or a link.
///
/// Paths are compared as the kernel resolves them (``canonical(_:)``): a link followed by `..` leads
/// where the link's target's parent is, not where the text suggests. A stream (`/dev/stdout`,
/// `/dev/fd/3`, a device or a named pipe) is written as it is, never replaced or truncated; a link to a
/// regular file stands for that file, which is replaced and the link kept; anything else is written
/// next to its place and renamed over it, so a reader never sees half of it.
///
/// ```swift
/// try OutputPath.write(Data("{}".utf8), to: "/dev/stdout")      // after what this process printed
/// OutputPath.same("sub/../teams.csv", "../data/teams.csv")       // true when sub links to ../data/sub
/// ```
public enum OutputPath {
    /// A failure to write, in words, naming the path.
    public struct WriteError: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    /// `path` absolute, with every symbolic link resolved as the kernel would (in each directory and in
    /// the last component, following links that lead nowhere yet), and `.`/`..` taken after resolving.
    /// Parts that do not exist are kept as written, standardized.
    public static func canonical(_ path: String) -> String {
        var current = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        // The kernel follows at most 40 links.
        for _ in 0..<40 {
            if let resolved = realpath(current, nil) {
                defer { free(resolved) }
                return String(cString: resolved)
            }
            let url = URL(fileURLWithPath: current)
            let name = url.lastPathComponent
            let folder = url.deletingLastPathComponent().path
            let base: String
            if let resolved = realpath(folder, nil) {
                base = String(cString: resolved)
                free(resolved)
            } else {
                return URL(fileURLWithPath: current).standardizedFileURL.path
            }
            let joined = (base == "/" ? "" : base) + "/" + name
            guard name != "." && name != "..", let link = linkTarget(joined) else {
                return URL(fileURLWithPath: joined).standardizedFileURL.path
            }
            // A link whose target does not exist (yet): where a write through it would land.
            current = link.hasPrefix("/") ? link : (base == "/" ? "" : base) + "/" + link
        }
        return URL(fileURLWithPath: current).standardizedFileURL.path
    }

    /// Whether two paths name the same file as the kernel resolves them: the same device and inode when
    /// both exist (so hard links and any spelling through links match), else the same ``canonical(_:)`` path.
    ///
    /// For example:
    ///
    /// ```swift
    /// OutputPath.same("W.sqlite", "./link-to-W.sqlite")   // true
    /// ```
    public static func same(_ a: String, _ b: String) -> Bool {
        var first = stat(), second = stat()
        if stat(a, &first) == 0, stat(b, &second) == 0 {
            return first.st_dev == second.st_dev && first.st_ino == second.st_ino
        }
        return canonical(a) == canonical(b)
    }

    /// Why a file cannot be written at a path, found before any work is done (``problem(writing:)``).
    public enum Problem: Sendable, Equatable, CustomStringConvertible {
        /// The path is empty.
        case empty
        /// The path names a directory (its resolved path).
        case directory(String)
        /// The file exists and this process may not write it.
        case notWritable
        /// The file's directory (resolved) does not exist.
        case missingDirectory(String)
        /// What should be the file's directory (resolved) is a file.
        case notADirectory(String)
        /// The file's directory (resolved) exists but this process may not write in it.
        case directoryNotWritable(String)

        /// The problem in a phrase that follows `PATH: `, such as `the directory /x does not exist`.
        public var description: String {
            switch self {
            case .empty: "the path is empty"
            case .directory: "it is a directory"
            case .notWritable: "it cannot be written (permission denied)"
            case .missingDirectory(let directory): "the directory \(directory) does not exist"
            case .notADirectory(let directory): "\(directory) is a file, not a directory"
            case .directoryNotWritable(let directory): "the directory \(directory) cannot be written (permission denied)"
            }
        }
    }

    /// Why `path` cannot be written as an output file, or `nil` when it can (a stream always can): checked
    /// before the work whose result it keeps, so a long run is not thrown away at the end.
    ///
    /// For example:
    ///
    /// ```swift
    /// if let problem = OutputPath.problem(writing: "/nonexistent/x.json") {
    ///     print("--json /nonexistent/x.json: \(problem)")   // the directory /nonexistent does not exist
    /// }
    /// ```
    public static func problem(writing path: String) -> Problem? {
        guard !path.isEmpty else { return .empty }
        if isStream(path) { return nil }
        // Where the kernel puts it (a link's file; `link/..` is the link's target's parent).
        let url = URL(fileURLWithPath: canonical(path))
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) {
            if isDirectory.boolValue { return .directory(url.path) }
            return FileManager.default.isWritableFile(atPath: url.path) ? nil : .notWritable
        }
        let directory = url.deletingLastPathComponent().path
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            return FileManager.default.fileExists(atPath: directory) ? .notADirectory(directory) : .missingDirectory(directory)
        }
        return FileManager.default.isWritableFile(atPath: directory) ? nil : .directoryNotWritable(directory)
    }

    /// Whether `path` is a stream rather than a file to replace: a descriptor of this process
    /// (`/dev/stdout`, `/dev/fd/N`), or something that exists and is neither a regular file nor a
    /// directory once links are followed (a device, a named pipe, a socket).
    public static func isStream(_ path: String) -> Bool {
        if descriptor(named: path) != nil { return true }
        var info = stat()
        guard stat(path, &info) == 0 else { return false }
        let kind = info.st_mode & S_IFMT
        return kind != S_IFREG && kind != S_IFDIR
    }

    /// Writes `data` to `path`: a stream as it is (``openStream(_:)``); a file, or a link to one, through a
    /// temporary file renamed over the file.
    public static func write(_ data: Data, to path: String) throws(WriteError) {
        if isStream(path) {
            let target = openStream(path)
            guard target >= 0 else { throw WriteError(description: "cannot write to \(path): \(String(cString: strerror(errno)))") }
            defer { close(target) }
            if let failure = data.withUnsafeBytes({ writeAll($0, to: target) }) {
                throw WriteError(description: "writing to \(path) failed: \(failure)")
            }
            return
        }
        do {
            try data.write(to: URL(fileURLWithPath: canonical(path)), options: .atomic)
        } catch {
            throw WriteError(description: "cannot write \(path): \(error.localizedDescription)")
        }
    }

    /// A descriptor to write the stream `path` names, or -1 with `errno` set. Nothing it names is ever
    /// truncated: a descriptor of this process is duplicated, so bytes land where the stream's next ones
    /// would (after what this process buffered, flushed first) and keep its `O_APPEND`; any other path is
    /// opened without `O_TRUNC`, appending when it resolves to a regular file.
    static func openStream(_ path: String) -> Int32 {
        if let stream = descriptor(named: path) {
            fflush(nil)
            return dup(stream)
        }
        var info = stat()
        let resolvesToFile = stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
        return open(path, O_WRONLY | O_CREAT | (resolvesToFile ? O_APPEND : 0), 0o666)
    }

    /// Writes all of `bytes` to `descriptor`, retrying interrupted writes; returns why it failed, if it did.
    static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> String? {
        var written = 0
        while written < bytes.count {
            let step = Foundation.write(descriptor, bytes.baseAddress! + written, bytes.count - written)
            if step < 0 {
                if errno == EINTR { continue }
                return String(cString: strerror(errno))
            }
            written += step
        }
        return nil
    }

    /// What the symbolic link at `path` points to, or `nil` when `path` is not a link.
    static func linkTarget(_ path: String) -> String? {
        var target = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &target, target.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: target[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The descriptor of this process that `path` names, through any symbolic links: 1 for `/dev/stdout`,
    /// 2 for `/dev/stderr`, N for `/dev/fd/N`, `/proc/self/fd/N` or `/proc/<this pid>/fd/N`; nil for any
    /// other path. Such a path is a stream this process holds open, not a file to open anew.
    ///
    /// For example:
    ///
    /// ```swift
    /// OutputPath.descriptor(named: "/dev/stdout")   // 1
    /// OutputPath.descriptor(named: "summary.json")  // nil
    /// ```
    public static func descriptor(named path: String) -> Int32? {
        var current = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        let own = "\(getpid())"
        // The kernel follows at most 40 links.
        for _ in 0..<40 {
            guard let slash = current.lastIndex(of: "/") else { return nil }
            let folder = slash == current.startIndex ? "/" : String(current[..<slash])
            let name = current[current.index(after: slash)...]
            if let resolved = realpath(folder, nil) {
                // `/dev/fd` and `/proc/self/fd` resolve to `/proc/<pid>/fd`; `/proc/thread-self/fd` to
                // `/proc/<pid>/task/<tid>/fd`.
                let parts = String(cString: resolved).split(separator: "/")
                free(resolved)
                if parts.count >= 3, parts[0] == "proc", parts[1] == own, parts.last == "fd",
                   parts.count == 3 || (parts.count == 5 && parts[2] == "task"),
                   name.allSatisfy(\.isASCII), let number = Int32(name), number >= 0 {
                    return number
                }
            }
            guard let link = linkTarget(current) else { return nil }
            current = link.hasPrefix("/") ? link : (folder == "/" ? "" : folder) + "/" + link
        }
        return nil
    }
}
