import Foundation
import ManagedStore
import Measure

/// The importer's speed targets, each next to a reference measured in the same run on the same
/// generated wells (244,292 rows × 20 columns by default):
///
/// - the importer at most 1.5x a raw loader (libcsv callbacks → the same conversions → prepared INSERTs
///   through the sqlite3 C API in one transaction, same tables, indexes and ANALYZE), for wells into `Well`
///   with their operators, and for the decomposed `WellSummary` + `WellDetail` pair;
/// - the importer faster than the `sqlite3` shell's `.import` of the same `wells.csv` (which converts
///   nothing, relates nothing and builds no index); skipped with a note when `/usr/bin/sqlite3` is absent;
/// - peak resident memory of the importer at most ``memoryBudgetBytes`` (in the notes: `SpeedCheck` has
///   no memory kind), measured in a child `seedstore import` when ``executable`` is set (a clean process),
///   else in this process after ``ProcessMemory/resetPeak()``.
///
/// A last line measures the importer reading ahead on a second thread (``ImportOptions/readsAhead``), to
/// show what that is worth on the machine at hand. Notes give CPU times too, which other processes disturb
/// less than wall-clock times.
///
/// For example:
///
/// ```swift
/// let checks = try ImportSpeed(rows: 244_292, runs: 3).run { print($0) }
/// print(SpeedCheck.table(checks))
/// ```
///
/// Measure release builds: `swift run -c release seedstore speed import`.
public struct ImportSpeed {
    /// Wells to generate.
    public var rows: Int
    /// Measured runs of each side (the median is reported).
    public var runs: Int
    /// The importer's batch size.
    public var batchSize: Int
    /// Scratch directory (removed afterwards).
    public var directory: URL
    /// The sqlite3 shell for the `.import` reference.
    public var sqlite3Path: String
    /// A `seedstore` executable to measure the importer's peak memory in a child process
    /// (`Bundle.main.executableURL` from the CLI); `nil` measures in this process.
    public var executable: URL?

    /// The importer's peak resident memory target: 100 MB.
    public static let memoryBudgetBytes = 100_000_000

    /// The checks on `rows` generated wells, each side run `runs` times; `directory` takes the scratch files.
    ///
    /// ```swift
    /// let speed = ImportSpeed(rows: 61_073, runs: 5, executable: Bundle.main.executableURL)
    /// ```
    public init(rows: Int = 244_292, runs: Int = 3, batchSize: Int = ImportOptions().batchSize,
                directory: URL = FileManager.default.temporaryDirectory, sqlite3Path: String = "/usr/bin/sqlite3",
                executable: URL? = nil) {
        self.rows = rows
        self.runs = runs
        self.batchSize = batchSize
        self.directory = directory.appendingPathComponent("seedstore-import-speed-\(getpid())")
        self.sqlite3Path = sqlite3Path
        self.executable = executable
    }

    /// The shapes measured.
    enum Variant: CaseIterable {
        case well, decomposed, wellReadingAhead

        var name: String {
            switch self {
            case .well: "wells → Well + Operator"
            case .decomposed: "wells → WellSummary + WellDetail + Operator"
            case .wellReadingAhead: "wells → Well + Operator, reading ahead"
            }
        }

        var entities: [String] {
            switch self {
            case .well, .wellReadingAhead: ["Operator", "Well"]
            case .decomposed: ["Operator", "WellSummary", "WellDetail"]
            }
        }
    }

    /// Generates the wells, then runs every check `runs` times and returns them.
    public func run(progress: (String) -> Void = { _ in }) throws -> [SpeedCheck] {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        progress("generating \(rows) wells")
        let data = directory.appendingPathComponent("data")
        let generated = try DataSetGenerator.generate(.wells, rows: rows, into: data)
        let mapping = try ImportMapping(contentsOf: generated.mappingFile.url.path)
        let model = try mapping.loadModel()
        let indexStatements = try PersistentStore.inMemory(model: model).indexStatements()
        let hasShell = FileManager.default.isExecutableFile(atPath: sqlite3Path)

        var checks: [SpeedCheck] = []
        var shellTimes: [Double] = []
        // The shell doing the importer's whole job that it can: the same load, then the Well indexes
        // (uwi, well_name, and the operator key the relationship column comes from) and ANALYZE.
        var shellIndexedTimes: [Double] = []
        let shellIndexes = ["CREATE INDEX wells_uwi ON wells (uwi);", "CREATE INDEX wells_well_name ON wells (well_name);",
                            "CREATE INDEX wells_operator_id ON wells (operator_id);", "ANALYZE;"]
        // The `.import` comparison takes the importer as a user on an idle machine gets it: reading ahead
        // when there is a second core (the default when one is free, ``ImportOptions/hasSpareCore``).
        let defaultVariant: Variant = ProcessInfo.processInfo.activeProcessorCount > 1 ? .wellReadingAhead : .well
        var wellTimes: [Double] = []
        var wellLoadTimes: [Double] = []
        // The raw loader on the same wells, and its index build + ANALYZE alone: the floor under `.import`.
        var rawWellTimes: [Double] = []
        var rawFinishTimes: [Double] = []
        for variant in Variant.allCases {
            var ours: [Double] = [], raw: [Double] = []
            var oursCPU: [Double] = [], rawCPU: [Double] = []
            var peak = 0
            var resetWorks = true
            var summary: ImportSummary?
            for run in 1...runs {
                progress("\(variant.name): run \(run)/\(runs)")
                let oursPath = directory.appendingPathComponent("ours-\(run).sqlite").path
                let rawPath = directory.appendingPathComponent("raw-\(run).sqlite").path
                func measureOurs() throws {
                    resetWorks = ProcessMemory.resetPeak() && resetWorks
                    var options = ImportOptions(batchSize: batchSize)
                    options.readsAhead = variant == .wellReadingAhead
                    let importer = SeedImporter(model: model, mapping: Self.mapping(mapping, variant), options: options)
                    let cpu = Self.cpuSeconds()
                    let (result, seconds) = try Clock.time { try importer.run(into: oursPath) }
                    oursCPU.append(Self.cpuSeconds() - cpu)
                    ours.append(seconds)
                    if variant == defaultVariant { wellLoadTimes.append(seconds - result.finishSeconds) }
                    summary = result
                    peak = max(peak, ProcessMemory.peakResidentBytes ?? 0)
                }
                func measureRaw() throws {
                    let cpu = Self.cpuSeconds()
                    let (finish, seconds) = try Clock.time { try Self.rawLoad(variant, data: data, model: model, indexes: indexStatements, path: rawPath) }
                    raw.append(seconds)
                    rawCPU.append(Self.cpuSeconds() - cpu)
                    if variant == .well {
                        rawWellTimes.append(seconds)
                        rawFinishTimes.append(finish)
                    }
                }
                // Alternate the order so neither side always runs on a warmer machine.
                if run % 2 == 0 { try measureRaw(); try measureOurs() } else { try measureOurs(); try measureRaw() }
                try? FileManager.default.removeItem(atPath: oursPath)
                try? FileManager.default.removeItem(atPath: rawPath)
                if variant == .well && hasShell {
                    shellTimes.append(try Self.shellImport(sqlite3Path, csv: data.appendingPathComponent("wells.csv").path,
                                                           database: directory.appendingPathComponent("shell-\(run).sqlite").path))
                    shellIndexedTimes.append(try Self.shellImport(sqlite3Path, csv: data.appendingPathComponent("wells.csv").path,
                                                                  database: directory.appendingPathComponent("shell-\(run).sqlite").path,
                                                                  then: shellIndexes))
                }
            }
            if variant == defaultVariant { wellTimes = ours }
            var memory = "peak resident memory \(ProcessMemory.format(peak)) in this process" + (resetWorks ? "" : " (since its start)")
            if let executable {
                let child = try Self.childPeak(executable, mapping: generated.mappingFile.url, variant: variant,
                                               batchSize: batchSize, directory: directory)
                peak = child
                memory = "peak resident memory \(ProcessMemory.format(child)) in a child seedstore import"
            }
            memory += " (budget \(ProcessMemory.format(Self.memoryBudgetBytes)): \(peak <= Self.memoryBudgetBytes ? "met" : "MISSED"))"
            let cpuRatio = Statistics(oursCPU).median / max(1e-9, Statistics(rawCPU).median)
            var notes = [memory, "batch size \(batchSize)",
                         String(format: "CPU time %.2f s vs %.2f s raw (%.2fx; less sensitive to other load than wall time)",
                                Statistics(oursCPU).median, Statistics(rawCPU).median, cpuRatio)]
            if let summary {
                notes.append("\(ProcessMemory.format(summary.storeBytes)) store, \(Int(Double(summary.rowsRead) / (Statistics(ours).median)).formatted()) rows/s")
                // A key index past --key-memory makes the import slower: say so next to the figure.
                notes += summary.warnings.filter { $0.contains("key memory") }
            }
            checks.append(SpeedCheck(name: "import \(rows) \(variant.name)", measured: Statistics(ours), reference: Statistics(raw),
                                     referenceName: "raw libcsv+sqlite3", target: .atMost(1.5), notes: notes))
        }
        // Flat memory: the demo mapping (every shape) on a quarter of the wells and on all of them, each in
        // a child process at the defaults (the key budget included).
        if let executable, rows >= 4 {
            progress("peak memory: the demo mapping on \(rows / 4) and \(rows) wells")
            let quarter = try DataSetGenerator.generate(.wells, rows: rows / 4, into: directory.appendingPathComponent("quarter"))
            // Peaks vary with how far the reading thread runs ahead: the median of a few runs of each.
            var small: [Double] = [], large: [Double] = []
            for _ in 0..<min(runs, 3) {
                small.append(Double(try Self.childPeak(executable, mapping: quarter.mappingFile.url, variant: nil, batchSize: batchSize, directory: directory)))
                large.append(Double(try Self.childPeak(executable, mapping: generated.mappingFile.url, variant: nil, batchSize: batchSize, directory: directory)))
            }
            // Flat means flat across batches: a quarter that fills less than two batches measures start-up
            // and one batch against several, which says nothing about streaming, so it is not judged.
            let judged = rows / 4 >= 2 * batchSize
            var notes = ["every shape (Well, WellSummary + WellDetail), reading ahead, default batch size and key memory, in child seedstore imports"]
            if !judged {
                notes.append("not judged: \((rows / 4).formatted()) wells fill less than two batches of \(batchSize.formatted()); "
                    + "judge with --rows \((8 * batchSize).formatted()) or more")
            }
            var check = SpeedCheck(name: "peak memory, demo mapping, \(rows) wells (4x the rows)", measured: Statistics(large),
                                   reference: Statistics(small), referenceName: "\(rows / 4) wells", target: judged ? .atMost(1.2) : nil,
                                   notes: notes)
            check.unit = .bytes
            checks.append(check)
        }
        if hasShell {
            checks.append(SpeedCheck(name: "import \(rows) \(defaultVariant.name)", measured: Statistics(wellTimes),
                                     reference: Statistics(shellTimes), referenceName: "sqlite3 .import", target: .atMost(1.0),
                                     notes: ["the shell loads wells.csv as text into one table: no conversion, no relationships, no indexes"]))
            checks.append(SpeedCheck(name: "  the same without building indexes", measured: Statistics(wellLoadTimes),
                                     reference: Statistics(shellTimes), referenceName: "sqlite3 .import", target: .atMost(1.0),
                                     notes: ["the importer's time up to its finish (indexes, ANALYZE, flush, rename): the work .import does"]))
            // No target: the shell given the index work too, so the comparison above can be judged.
            checks.append(SpeedCheck(name: "  the importer against .import + the same indexes and ANALYZE", measured: Statistics(wellTimes),
                                     reference: Statistics(shellIndexedTimes), referenceName: "sqlite3 .import + indexes", target: nil,
                                     notes: ["the shell then runs CREATE INDEX on uwi, well_name and operator_id, and ANALYZE, in the same process"]))
            // No target: what the floor itself costs next to the shell, so the comparison above can be judged.
            checks.append(SpeedCheck(name: "  the raw libcsv+sqlite3 loader (one thread)", measured: Statistics(rawWellTimes),
                                     reference: Statistics(shellTimes), referenceName: "sqlite3 .import", target: nil,
                                     notes: [String(format: "of which building the indexes and ANALYZE take %.3f s (median): SQLite's own work the shell skips",
                                                    Statistics(rawFinishTimes).median)]))
            // No target: a bound under the `.import` target. The raw loader's load split perfectly over two
            // cores (no hand-over cost at all), then its finish, which SQLite runs on one core (its sorter
            // threads were measured: no faster). Above 1.00x, no loader that converts these types and builds
            // these indexes beats `.import` on this machine, however it is written.
            let bounds = zip(rawWellTimes, rawFinishTimes).map { load, finish in (load - finish) / 2 + finish }
            checks.append(SpeedCheck(name: "  bound: the raw loader's load on two cores, then its finish", measured: Statistics(bounds),
                                     reference: Statistics(shellTimes), referenceName: "sqlite3 .import", target: nil,
                                     notes: ["computed from the raw loader's measured load and finish in each run: load / 2 + finish"]))
        } else {
            progress("note: \(sqlite3Path) is absent: the sqlite3 .import comparison is skipped")
        }
        return checks
    }

    /// The generated mapping cut down to one variant: operators, then wells into `Well` or into the pair.
    static func mapping(_ mapping: ImportMapping, _ variant: Variant) -> ImportMapping {
        var copy = mapping
        copy.files = mapping.files.filter { file in file.entities.allSatisfy(variant.entities.contains) }
        return copy
    }

    /// Runs `seedstore import` on a variant (`nil`: the whole mapping) in a child process and returns its
    /// peak resident memory.
    static func childPeak(_ executable: URL, mapping: URL, variant: Variant?, batchSize: Int, directory: URL) throws -> Int {
        var json = try JSONSerialization.jsonObject(with: Data(contentsOf: mapping)) as? [String: Any] ?? [:]
        if let variant {
            json["files"] = (json["files"] as? [[String: Any]] ?? []).filter { file in
                let targets = (file["targets"] as? [[String: Any]] ?? []).compactMap { $0["entity"] as? String }
                return !targets.isEmpty && targets.allSatisfy(variant.entities.contains)
            }
        }
        let variantMapping = mapping.deletingLastPathComponent().appendingPathComponent("variant.mapping.json")
        try JSONSerialization.data(withJSONObject: json).write(to: variantMapping)
        let summary = directory.appendingPathComponent("child-summary.json")
        let store = directory.appendingPathComponent("child.sqlite")
        defer {
            try? FileManager.default.removeItem(at: summary)
            try? FileManager.default.removeItem(at: store)
        }
        let process = Process()
        process.executableURL = executable
        process.arguments = ["import", "--mapping", variantMapping.path, "--out", store.path, "--progress", "none",
                             "--batch-size", String(batchSize), "--summary-json", summary.path]
            // The whole mapping reads ahead, as on an idle machine: the larger footprint, the same every run.
            + (variant == .wellReadingAhead || variant == nil ? ["--read-ahead"] : [])
        process.standardOutput = FileHandle.nullDevice
        // Its notes (no Core Data hashes, and the like) would repeat once a run; shown only when it fails.
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let said = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw _SpeedError(message: "the child import exited with \(process.terminationStatus): \(String(decoding: said, as: UTF8.self))")
        }
        let result = try JSONDecoder().decode(ImportSummary.self, from: Data(contentsOf: summary))
        return result.peakMemoryBytes ?? 0
    }

    /// The raw reference for a variant; returns the seconds its finish took (indexes, ANALYZE, flush).
    static func rawLoad(_ variant: Variant, data: URL, model: ObjectModel, indexes: [String], path: String) throws -> Double {
        let loader = try _RawReferenceLoader(path: path, model: model)
        let operators = data.appendingPathComponent("operators.csv").path
        let wells = data.appendingPathComponent("wells.csv").path
        let operatorHeader = try header(operators), wellHeader = try header(wells)
        func target(_ name: String, _ header: [String]) -> _RawReferenceLoader.Target {
            let entity = model.entity(named: name)!
            return .init(entity: entity, fields: entity.attributes.map { header.firstIndex(of: $0.name)! })
        }
        try loader.load(csv: operators, targets: [target("Operator", operatorHeader)], keyField: operatorHeader.firstIndex(of: "operator_id"))
        let operatorField = wellHeader.firstIndex(of: "operator_id")!
        switch variant {
        case .well, .wellReadingAhead:
            var well = target("Well", wellHeader)
            well.foreignKey = ("operator", operatorField)
            try loader.load(csv: wells, targets: [well])
        case .decomposed:
            var summary = target("WellSummary", wellHeader)
            summary.linkColumn = "details"
            var detail = target("WellDetail", wellHeader)
            detail.foreignKey = ("operator", operatorField)
            detail.linkColumn = "summary"
            try loader.load(csv: wells, targets: [summary, detail])
        }
        return try Clock.time { try loader.finish(indexStatements: indexes, path: path) }.1
    }

    private static func header(_ path: String) throws -> [String] {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw _SpeedError(message: "cannot open \(path)") }
        defer { try? handle.close() }
        let head = String(decoding: handle.readData(ofLength: 4096), as: UTF8.self)
        return head.split(whereSeparator: \.isNewline).first.map { $0.split(separator: ",").map(String.init) } ?? []
    }

    /// User and system CPU seconds of this process so far (all threads).
    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
            + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    }

    /// Times `sqlite3 DB` running `.mode csv` and `.import CSV wells`, then the statements of `then`
    /// (process start to exit).
    static func shellImport(_ sqlite3: String, csv: String, database: String, then statements: [String] = []) throws -> Double {
        try? FileManager.default.removeItem(atPath: database)
        defer { try? FileManager.default.removeItem(atPath: database) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: sqlite3)
        process.arguments = [database]
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        let start = Clock.now()
        try process.run()
        input.fileHandleForWriting.write(Data(".mode csv\n.import \(csv) wells\n\(statements.map { $0 + "\n" }.joined()).quit\n".utf8))
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        let seconds = Clock.now() - start
        guard process.terminationStatus == 0 else { throw _SpeedError(message: "sqlite3 .import exited with \(process.terminationStatus)") }
        return seconds
    }
}
