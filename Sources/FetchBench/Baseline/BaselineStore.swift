import Foundation

/// Named baselines: bench reports kept as JSON files in one directory, to compare later runs with.
///
/// A name (`main`, `release-1.2`) is the file `NAME.json` in ``directory``; anything with a `/` or ending
/// in `.json` is a path to a report file instead, relative to the current directory, so a name itself
/// never ends in `.json` (saving `main.json` is refused: save `main`, compare with `main`).
///
/// For example:
///
/// ```swift
/// let baselines = BaselineStore(directory: BaselineStore.defaultDirectory)
/// try baselines.save(report, as: "main")                 // .seedstore/baselines/main.json
/// let main = try baselines.load("main")
/// let other = try baselines.load("artifacts/bench.json") // a report written with --json
/// ```
public struct BaselineStore: Sendable {
    /// Where named baselines live.
    public let directory: URL

    /// Baselines in `directory` (created when the first is saved).
    public init(directory: URL) {
        self.directory = directory
    }

    /// `.seedstore/baselines` under the current directory.
    public static var defaultDirectory: URL {
        URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
            .appendingPathComponent(".seedstore/baselines", isDirectory: true)
    }

    /// Whether `nameOrPath` means a file rather than a name: it holds a `/` or ends in `.json` (in any case,
    /// so `main.JSON` is a path too).
    public static func isPath(_ nameOrPath: String) -> Bool {
        nameOrPath.contains("/") || hasJSONSuffix(nameOrPath)
    }

    /// Whether `name` ends in `.json`, `.JSON` or any other casing of it.
    static func hasJSONSuffix(_ name: String) -> Bool {
        name.lowercased().hasSuffix(".json")
    }

    /// Why `name` cannot name a baseline, as a phrase that says what to do, or `nil` when it can.
    ///
    /// A name uses letters, digits, `.`, `-` and `_`, does not start with `.`, and does not end in
    /// `.json` in any case (`main.JSON` neither): the file is `NAME.json`, and ``load(_:)`` takes an argument ending in `.json` as a path.
    ///
    /// For example:
    ///
    /// ```swift
    /// BaselineStore.problem(withName: "main")        // nil
    /// BaselineStore.problem(withName: "main.json")   // "drop the .json suffix (main): …"
    /// ```
    public static func problem(withName name: String) -> String? {
        let allowed = name.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "_" || $0 == "."
        }
        if name.isEmpty { return "a name cannot be empty; use letters, digits, '.', '-' and '_', such as main" }
        if hasJSONSuffix(name), !name.contains("/") {
            let stem = String(name.dropLast(5))
            let example = problem(withName: stem) == nil ? stem : "main"
            return "drop the \(name.suffix(5)) suffix (\(example)): a baseline NAME is kept as NAME.json, and compared with --compare \(example)"
        }
        if name.count > 200 { return "a name has at most 200 characters" }
        if !allowed || name.hasPrefix(".") {
            return "use letters, digits, '.', '-' and '_', not starting with '.', such as main"
        }
        return nil
    }

    /// The file a name is kept in; throws ``BenchError/invalidBaselineName(_:)`` for names that could
    /// escape the directory, are not portable file names, or end in `.json` (``problem(withName:)``).
    ///
    /// For example:
    ///
    /// ```swift
    /// try baselines.url(for: "main").lastPathComponent   // main.json
    /// ```
    public func url(for name: String) throws(BenchError) -> URL {
        guard Self.problem(withName: name) == nil else { throw BenchError.invalidBaselineName(name) }
        return directory.appendingPathComponent(name + ".json")
    }

    /// Saves `report` as the baseline `name`, replacing any before it, and returns the file written.
    ///
    /// For example:
    ///
    /// ```swift
    /// let file = try baselines.save(report, as: "main")
    /// ```
    @discardableResult
    public func save(_ report: BenchReport, as name: String) throws -> URL {
        let url = try url(for: name)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try report.write(to: url)
        return url
    }

    /// The file ``load(_:)`` reads for `nameOrPath`: a path as given, a name as ``url(for:)`` makes it.
    ///
    /// For example:
    ///
    /// ```swift
    /// try baselines.file(for: "main").lastPathComponent         // main.json, in directory
    /// try baselines.file(for: "artifacts/bench.json").path      // artifacts/bench.json, under the current directory
    /// ```
    public func file(for nameOrPath: String) throws(BenchError) -> URL {
        Self.isPath(nameOrPath) ? URL(fileURLWithPath: nameOrPath) : try url(for: nameOrPath)
    }

    /// Loads the baseline `nameOrPath`: a saved name, or the path of a report file.
    ///
    /// Throws ``BenchError/missingBaseline(name:path:)`` when there is no such file,
    /// ``BenchError/unsupportedSchema(_:_:)`` for a report from a newer seedstore, and
    /// ``BenchError/invalidReport(_:_:)`` for a file that is not a report.
    ///
    /// For example:
    ///
    /// ```swift
    /// let main = try baselines.load("main")
    /// ```
    public func load(_ nameOrPath: String) throws -> BenchReport {
        let url = try file(for: nameOrPath)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw BenchError.missingBaseline(name: nameOrPath, path: url.path)
        }
        return try BenchReport.load(from: url)
    }

    /// The names saved in ``directory``, sorted.
    ///
    /// For example:
    ///
    /// ```swift
    /// print(baselines.names().joined(separator: ", "))   // main, release-1.2
    /// ```
    public func names() -> [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return files.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.map { String($0.dropLast(5)) }.sorted()
    }
}
