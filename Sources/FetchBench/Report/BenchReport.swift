import Foundation
import Measure

/// The results of one `seedstore bench` run: what ran, where, and each scenario variant's figures.
///
/// Its JSON form is versioned (``schemaVersion``) and documented in `docs/bench-schema.md`; keys are
/// snake_case.
///
/// For example:
///
/// ```swift
/// let report = try BenchReport.load(from: URL(fileURLWithPath: "bench.json"))
/// for result in report.results { print(result.scenario, result.variant, result.ratioToRaw ?? 0) }
/// ```
public struct BenchReport: Codable, Sendable, Equatable {
    /// The schema version this code writes.
    public static let currentSchemaVersion = 1

    public var schemaVersion: Int = BenchReport.currentSchemaVersion
    /// `seedstore` and its version.
    public var tool: String
    /// When the run started, ISO 8601 UTC.
    public var createdAt: String
    public var machine: Machine
    public var store: StoreInfo
    public var settings: Settings
    public var results: [BenchResult]

    public init(tool: String, createdAt: String, machine: Machine, store: StoreInfo, settings: Settings, results: [BenchResult]) {
        self.tool = tool
        self.createdAt = createdAt
        self.machine = machine
        self.store = store
        self.settings = settings
        self.results = results
    }

    /// The machine the run measured.
    public struct Machine: Codable, Sendable, Equatable {
        public var cores: Int
        public var memoryBytes: Int
        public var os: String
        public var hostname: String

        enum CodingKeys: String, CodingKey {
            case cores, memoryBytes = "memory_bytes", os, hostname
        }
        public init(cores: Int, memoryBytes: Int, os: String, hostname: String) {
            self.cores = cores
            self.memoryBytes = memoryBytes
            self.os = os
            self.hostname = hostname
        }

        /// This machine.
        public static var current: Machine {
            let info = ProcessInfo.processInfo
            return Machine(cores: info.activeProcessorCount, memoryBytes: Int(info.physicalMemory),
                           os: info.operatingSystemVersionString, hostname: info.hostName)
        }
    }

    /// The store the run measured.
    public struct StoreInfo: Codable, Sendable, Equatable {
        public var path: String
        public var sizeBytes: Int
        /// Rows per entity.
        public var entities: [String: Int]

        enum CodingKeys: String, CodingKey {
            case path, sizeBytes = "size_bytes", entities
        }
        public init(path: String, sizeBytes: Int, entities: [String: Int]) {
            self.path = path
            self.sizeBytes = sizeBytes
            self.entities = entities
        }
    }

    /// How the run measured.
    public struct Settings: Codable, Sendable, Equatable {
        public var runs: Int
        public var warmupRuns: Int
        public var timeBudgetSeconds: Double
        public var scenarios: [String]
        /// What the runner itself adds to one measured operation (clock reads, a fresh context).
        public var harnessOverheadSeconds: Double?
        public init(runs: Int, warmupRuns: Int, timeBudgetSeconds: Double, scenarios: [String], harnessOverheadSeconds: Double? = nil) {
            self.runs = runs
            self.warmupRuns = warmupRuns
            self.timeBudgetSeconds = timeBudgetSeconds
            self.scenarios = scenarios
            self.harnessOverheadSeconds = harnessOverheadSeconds
        }

        enum CodingKeys: String, CodingKey {
            case runs, warmupRuns = "warmup_runs", timeBudgetSeconds = "time_budget_seconds", scenarios,
                 harnessOverheadSeconds = "harness_overhead_seconds"
        }
    }

    enum CodingKeys: String, CodingKey {
        case schemaVersion = "schema_version", tool, createdAt = "created_at", machine, store, settings, results
    }

    /// Reads a report written by ``write(to:)``; a newer schema version is an error that says so.
    public static func load(from url: URL) throws -> BenchReport {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw BenchError.invalidReport(url.path, "cannot read it (\(error.localizedDescription))")
        }
        return try decode(data, source: url.path)
    }

    /// Writes the report as pretty, key-sorted JSON.
    public func write(to url: URL) throws {
        try jsonData().write(to: url, options: .atomic)
    }
}

/// One scenario variant's measurement.
public struct BenchResult: Codable, Sendable, Equatable {
    /// The scenario family: `batch-size`, `faulting`, `dictionary`, `decomposition`.
    public var scenario: String
    /// The variant within it: `batch 20, first screen`.
    public var variant: String
    public var medianSeconds: Double
    public var p90Seconds: Double
    public var minSeconds: Double
    public var maxSeconds: Double
    /// Median absolute deviation over the median.
    public var noise: Double
    public var runs: Int
    /// The same rows and columns through the sqlite3 C API, measured in the same run.
    public var rawMedianSeconds: Double?
    /// The raw reference's median absolute deviation over its median.
    public var rawNoise: Double?
    /// `medianSeconds / rawMedianSeconds`.
    public var ratioToRaw: Double?
    /// Statements run in one measured run (exact: no machine dependence).
    public var statements: Int
    /// Rows stepped in one measured run.
    public var rows: Int
    /// Managed objects made from rows in one measured run.
    public var objects: Int
    /// Faults fired in one measured run.
    public var faults: Int
    /// Peak resident memory during one run, above what the process held before it.
    public var peakMemoryBytes: Int?
    /// What the variant does, in a sentence.
    public var note: String?

    public init(scenario: String, variant: String, timings: Statistics, raw: Statistics?, statements: Int, rows: Int,
                objects: Int, faults: Int, peakMemoryBytes: Int?, note: String? = nil) {
        self.scenario = scenario
        self.variant = variant
        self.medianSeconds = timings.median
        self.p90Seconds = timings.p90
        self.minSeconds = timings.min
        self.maxSeconds = timings.max
        self.noise = timings.noise
        self.runs = timings.count
        self.rawMedianSeconds = raw?.median
        self.rawNoise = raw?.noise
        self.ratioToRaw = raw.flatMap { $0.median > 0 ? timings.median / $0.median : nil }
        self.statements = statements
        self.rows = rows
        self.objects = objects
        self.faults = faults
        self.peakMemoryBytes = peakMemoryBytes
        self.note = note
    }

    /// `scenario / variant`: what baselines match on.
    public var key: String { "\(scenario) / \(variant)" }

    enum CodingKeys: String, CodingKey {
        case scenario, variant, medianSeconds = "median_seconds", p90Seconds = "p90_seconds", minSeconds = "min_seconds",
             maxSeconds = "max_seconds", noise, runs, rawMedianSeconds = "raw_median_seconds", rawNoise = "raw_noise",
             ratioToRaw = "ratio_to_raw",
             statements, rows, objects, faults, peakMemoryBytes = "peak_memory_bytes", note
    }
}

/// What can go wrong in the bench harness.
public enum BenchError: Error, CustomStringConvertible, Sendable {
    case unsupportedSchema(String, Int)
    case missingBaseline(name: String, path: String)
    case unknownScenario(String, known: [String])
    case storeLacks(String)
    /// A report or baseline file that is not a bench report: its path and what is wrong.
    case invalidReport(String, String)
    /// A baseline name that cannot be a file name.
    case invalidBaselineName(String)

    public var description: String {
        switch self {
        case .unsupportedSchema(let path, let version):
            "\(path) has report schema version \(version); this seedstore reads up to \(BenchReport.currentSchemaVersion). Update seedstore or re-run the baseline."
        case .missingBaseline(let name, let path):
            BaselineStore.isPath(name)
                ? "no baseline report at \(path); write one with --json \(name), or pass a saved baseline's name"
                : "no baseline named '\(name)' at \(path); save one first with --save-baseline \(name)"
        case .unknownScenario(let name, let known):
            "unknown scenario '\(name)'; choose from \(known.joined(separator: ", "))"
        case .storeLacks(let what):
            "the store cannot run this scenario: \(what). Pass the entity and property names with --entity/--properties, or a scenario file."
        case .invalidReport(let path, let reason):
            "\(path) is not a readable bench report: \(reason)"
        case .invalidBaselineName(let name):
            "'\(name)' cannot name a baseline: use letters, digits, '.', '-' and '_', or pass a path ending in .json"
        }
    }
}
