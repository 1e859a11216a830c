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
    ///
    /// Version 2 added `settings.scenario_config`, which version 2 reports always have; a version 1 report
    /// lacks it (``Settings/scenarioConfig`` is nil) and still loads.
    public static let currentSchemaVersion = 2

    /// The JSON format's version (`schema_version`); ``load(from:)`` refuses one above ``currentSchemaVersion``.
    public var schemaVersion: Int = BenchReport.currentSchemaVersion
    /// `seedstore` and its version.
    public var tool: String
    /// When the run started, ISO 8601 UTC.
    public var createdAt: String
    /// The machine that ran the bench.
    public var machine: Machine
    /// The store the bench measured.
    public var store: StoreInfo
    /// How the bench measured: runs, warm-up, time budget, scenarios and the scenario settings.
    public var settings: Settings
    /// One result per scenario variant, in the order they ran.
    public var results: [BenchResult]

    /// A report of `results`, written by `tool` for a run that started at `createdAt` (ISO 8601 UTC).
    ///
    /// ``schemaVersion`` is set to ``currentSchemaVersion``.
    ///
    /// For example:
    ///
    /// ```swift
    /// let report = BenchReport(tool: "seedstore 0.1.0", createdAt: "2026-11-22T10:00:00Z", machine: .current,
    ///                          store: store, settings: settings, results: results)
    /// try report.write(to: URL(fileURLWithPath: "bench.json"))
    /// ```
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
        /// Active processor cores.
        public var cores: Int
        /// Physical memory, in bytes.
        public var memoryBytes: Int
        /// The operating system's version string.
        public var os: String
        /// The host name.
        public var hostname: String

        enum CodingKeys: String, CodingKey {
            case cores, memoryBytes = "memory_bytes", os, hostname
        }
        /// A machine with the given cores, physical memory in bytes, OS version string and host name.
        ///
        /// For example:
        ///
        /// ```swift
        /// let machine = BenchReport.Machine(cores: 2, memoryBytes: 8 << 30, os: "Ubuntu 24.04", hostname: "ci-runner")
        /// ```
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
        /// The store's path as given on the command line.
        public var path: String
        /// The store file's size, in bytes.
        public var sizeBytes: Int
        /// Rows per entity.
        public var entities: [String: Int]
        /// The store's indexes, by name, each as ``indexDefinition(table:columns:unique:partial:)`` writes it:
        /// `ZWELL(ZUWI)`, `unique ZWELL(ZUWI, ZNAME)`. The raw reference runs on the same store, so a dropped
        /// index slows both sides alike and the ratio to raw cannot show it: a comparison reads this instead
        /// (``BaselineComparison/indexChanges``). Nil in reports written before it was recorded.
        public var indexes: [String: String]?

        enum CodingKeys: String, CodingKey {
            case path, sizeBytes = "size_bytes", entities, indexes
        }
        /// A store at `path` of `sizeBytes` bytes, with `entities` mapping entity names to row counts and
        /// `indexes` index names to their definitions (nil: not recorded).
        ///
        /// For example:
        ///
        /// ```swift
        /// let store = BenchReport.StoreInfo(path: "wells.sqlite", sizeBytes: 4_202_496, entities: ["Well": 10_000],
        ///                                   indexes: ["ZWELL_ZUWI_INDEX": "ZWELL(ZUWI)"])
        /// ```
        public init(path: String, sizeBytes: Int, entities: [String: Int], indexes: [String: String]? = nil) {
            self.path = path
            self.sizeBytes = sizeBytes
            self.entities = entities
            self.indexes = indexes
        }

        /// How ``indexes`` writes one index: its table and columns in order, `unique ` before a unique
        /// index, ` partial` after one with a `WHERE` clause; a column that is an expression is `<expression>`.
        ///
        /// For example:
        ///
        /// ```swift
        /// BenchReport.StoreInfo.indexDefinition(table: "ZWELL", columns: ["ZUWI"], unique: true, partial: false)   // "unique ZWELL(ZUWI)"
        /// ```
        public static func indexDefinition(table: String, columns: [String], unique: Bool, partial: Bool) -> String {
            (unique ? "unique " : "") + "\(table)(\(columns.joined(separator: ", ")))" + (partial ? " partial" : "")
        }
    }

    /// How the run measured.
    public struct Settings: Codable, Sendable, Equatable {
        /// The most measured runs per variant (`--runs`).
        public var runs: Int
        /// Unmeasured runs before measuring each variant.
        public var warmupRuns: Int
        /// Seconds after which, once a variant has its minimum runs, measuring it stops.
        public var timeBudgetSeconds: Double
        /// The scenario families run, in order.
        public var scenarios: [String]
        /// What the runner itself adds to one measured operation (clock reads, a fresh context).
        public var harnessOverheadSeconds: Double?
        /// The entity, properties and sizes the scenarios ran with, as they took effect
        /// (``ScenarioConfig/effective``): `scenario_config`, a scenario file that reruns them. Nil only in a
        /// version 1 report, which did not record them.
        public var scenarioConfig: ScenarioConfig?
        /// What the run left out of the families it was asked for, one sentence each: `faulting: the to-one
        /// prefetching variants skipped: Order has no to-one operator; …`. ``scenarioConfig`` records every
        /// setting, the ones these left unused too. Nil when nothing was skipped.
        public var skipped: [String]?
        /// Settings with the given run counts, time budget in seconds, scenario names, the scenario settings
        /// (recorded as they take effect) and, optionally, the harness overhead in seconds (nil, the default,
        /// leaves `harness_overhead_seconds` out of the JSON).
        ///
        /// For example:
        ///
        /// ```swift
        /// let settings = BenchReport.Settings(runs: 10, warmupRuns: 1, timeBudgetSeconds: 15,
        ///                                     scenarios: ["batch-size", "faulting"], scenarioConfig: ScenarioConfig())
        /// ```
        public init(runs: Int, warmupRuns: Int, timeBudgetSeconds: Double, scenarios: [String], scenarioConfig: ScenarioConfig,
                    harnessOverheadSeconds: Double? = nil) {
            self.runs = runs
            self.warmupRuns = warmupRuns
            self.timeBudgetSeconds = timeBudgetSeconds
            self.scenarios = scenarios
            self.scenarioConfig = scenarioConfig.effective
            self.harnessOverheadSeconds = harnessOverheadSeconds
        }

        /// Reads settings of any schema version: `scenario_config` is read as a report records it
        /// (``ScenarioConfig/Recorded``), and is absent from version 1 reports.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            runs = try c.decode(Int.self, forKey: .runs)
            warmupRuns = try c.decode(Int.self, forKey: .warmupRuns)
            timeBudgetSeconds = try c.decode(Double.self, forKey: .timeBudgetSeconds)
            scenarios = try c.decode([String].self, forKey: .scenarios)
            harnessOverheadSeconds = try c.decodeIfPresent(Double.self, forKey: .harnessOverheadSeconds)
            scenarioConfig = try c.decodeIfPresent(ScenarioConfig.Recorded.self, forKey: .scenarioConfig)?.config
            skipped = try c.decodeIfPresent([String].self, forKey: .skipped)
        }

        /// Writes the settings; `scenario_config` as it takes effect (``ScenarioConfig/effective``).
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(runs, forKey: .runs)
            try c.encode(warmupRuns, forKey: .warmupRuns)
            try c.encode(timeBudgetSeconds, forKey: .timeBudgetSeconds)
            try c.encode(scenarios, forKey: .scenarios)
            try c.encodeIfPresent(harnessOverheadSeconds, forKey: .harnessOverheadSeconds)
            try c.encodeIfPresent(scenarioConfig.map(ScenarioConfig.Recorded.init(config:)), forKey: .scenarioConfig)
            try c.encodeIfPresent(skipped, forKey: .skipped)
        }

        enum CodingKeys: String, CodingKey {
            case runs, warmupRuns = "warmup_runs", timeBudgetSeconds = "time_budget_seconds", scenarios,
                 harnessOverheadSeconds = "harness_overhead_seconds", scenarioConfig = "scenario_config", skipped
        }
    }

    enum CodingKeys: String, CodingKey {
        case schemaVersion = "schema_version", tool, createdAt = "created_at", machine, store, settings, results
    }

    /// Reads a report written by ``write(to:)``; a newer schema version is an error that says so.
    public static func load(from url: URL) throws -> BenchReport {
        let data: Data
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw BenchError.invalidReport(url.path, "it is a directory; name a report file, such as one written with --json")
        }
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
    /// Median of the measured runs, in seconds.
    public var medianSeconds: Double
    /// 90th percentile of the measured runs, in seconds, interpolating linearly between the closest ranks.
    public var p90Seconds: Double
    /// The fastest measured run, in seconds.
    public var minSeconds: Double
    /// The slowest measured run, in seconds.
    public var maxSeconds: Double
    /// Median absolute deviation over the median.
    public var noise: Double
    /// Measured runs behind the figures (fewer than ``BenchReport/Settings/runs`` only when the variant ran
    /// out of its time budget).
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
    /// How the raw reference does the work when it takes more than one statement, as the engine does:
    /// `the sorted keys, then the rows in IN batches of 20`. A comparison uses the ratio to raw only where
    /// both results have the same reference. Nil for one statement, and in older reports.
    public var rawReference: String?
    /// The objects the variant covers when it stops short of the entity's rows (`fault_limit`); nil when
    /// it covers them all. Its times are not comparable with its family's other variants' as they stand.
    public var covers: Covers?

    /// The part of an entity's rows a variant covers: `2,000 of 200,000 objects`.
    ///
    /// For example:
    ///
    /// ```swift
    /// let covers = BenchResult.Covers(objects: 2_000, of: 200_000)
    /// print(covers)   // 2,000 of 200,000 objects
    /// ```
    public struct Covers: Codable, Sendable, Equatable, CustomStringConvertible {
        /// The objects the variant covers.
        public var objects: Int
        /// The entity's rows.
        public var of: Int

        /// `objects` of the entity's `of` rows.
        public init(objects: Int, of: Int) {
            self.objects = objects
            self.of = of
        }

        public var description: String { "\(BenchFormat.count(objects)) of \(BenchFormat.count(of)) objects" }
    }

    /// A result from the engine's run `timings` (seconds) and the raw reference's `raw` (nil when the variant
    /// has none), with the counters of one measured run and its peak memory above the start, in bytes.
    ///
    /// The timing fields, ``noise`` and ``runs`` come from `timings`; ``ratioToRaw`` is nil when `raw` is
    /// nil or its median is zero.
    ///
    /// For example:
    ///
    /// ```swift
    /// let result = BenchResult(scenario: "faulting", variant: "N+1", timings: Statistics([0.010, 0.011, 0.012]),
    ///                          raw: Statistics([0.004, 0.005]), statements: 201, rows: 400, objects: 200, faults: 200,
    ///                          peakMemoryBytes: nil)
    /// ```
    public init(scenario: String, variant: String, timings: Statistics, raw: Statistics?, statements: Int, rows: Int,
                objects: Int, faults: Int, peakMemoryBytes: Int?, note: String? = nil, rawReference: String? = nil,
                covers: Covers? = nil) {
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
        self.rawReference = raw == nil ? nil : rawReference
        self.covers = covers
    }

    /// `scenario / variant`: what baselines match on.
    public var key: String { "\(scenario) / \(variant)" }

    /// The variant's name as the terminal table, Markdown and HTML show it (``label(scenario:variant:)``),
    /// with the objects it covers when it stops short of the entity's rows: `IDs then faults (N+1) (2,000 of
    /// 200,000 objects)`, so a short bar next to full fetches does not read as the faster way.
    public var label: String {
        let name = Self.label(scenario: scenario, variant: variant)
        return covers.map { "\(name) (\($0))" } ?? name
    }

    /// Names shown in place of a variant's ``variant``, which stays as it is in JSON and baselines so old
    /// baselines still match: `faults, then read one attribute (N+1)` fetches IDs only, not Core Data's
    /// default faults, and must not read as though the default fetch caused the N+1.
    static let labels = [
        "faulting / faults, then read one attribute (N+1)": "IDs only (includesPropertyValues false): N+1",
        "faulting / faults in one read transaction (N+1)": "IDs only in one read transaction: N+1",
    ]

    /// What reports show for `variant` of `scenario`: its name, or a clearer one where the stable JSON name
    /// misleads.
    ///
    /// For example:
    ///
    /// ```swift
    /// BenchResult.label(scenario: "faulting", variant: "faults, then read one attribute (N+1)")
    /// // "IDs only (includesPropertyValues false): N+1"
    /// BenchResult.label(scenario: "batch-size", variant: "batch 20, first screen")   // unchanged
    /// ```
    public static func label(scenario: String, variant: String) -> String {
        if let label = labels["\(scenario) / \(variant)"] { return label }
        // The name keeps its plural so baselines still match; the label reads as English.
        if scenario == "dictionary" && variant == "1 properties as dictionaries" { return "1 property as dictionaries" }
        return variant
    }

    enum CodingKeys: String, CodingKey {
        case scenario, variant, medianSeconds = "median_seconds", p90Seconds = "p90_seconds", minSeconds = "min_seconds",
             maxSeconds = "max_seconds", noise, runs, rawMedianSeconds = "raw_median_seconds", rawNoise = "raw_noise",
             ratioToRaw = "ratio_to_raw",
             statements, rows, objects, faults, peakMemoryBytes = "peak_memory_bytes", note,
             rawReference = "raw_reference", covers
    }
}
