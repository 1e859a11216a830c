import ManagedStore
import Measure

/// Counts one measured run reports besides its time.
///
/// For example:
///
/// ```swift
/// var counters = RunCounters()
/// counters.statements = used.statements
/// counters.faults = context.faultsFired
/// ```
public struct RunCounters: Sendable, Equatable {
    /// SQL statements run.
    public var statements = 0
    /// Rows stepped.
    public var rows = 0
    /// Managed objects made from rows.
    public var objects = 0
    /// Faults fired.
    public var faults = 0
    /// Counters that are all zero.
    public init() {}
}

/// One way of doing a job, measured next to its raw-SQLite reference.
public struct BenchVariant {
    /// The variant's name within its scenario (`batch 20, first screen`).
    public let name: String
    /// What it does, in a sentence.
    public let note: String
    /// Does the job once through the engine, in the fresh context the runner gives it.
    public let run: (ManagedObjectContext) throws -> Void
    /// Does the same work through the sqlite3 C API: the same rows and columns, in the same statements
    /// where the engine runs several (batches, one SELECT per fault, a prefetch's second statement).
    public let raw: ((RawDatabase) throws -> Void)?
    /// How ``raw`` does the work when it takes more than one statement (``BenchResult/rawReference``); nil for
    /// one statement.
    public var rawReference: String? = nil
    /// The objects the variant covers when it stops at `fault_limit` short of the entity's rows, while its
    /// family's other variants may cover them all (``BenchResult/covers``).
    public var covers: BenchResult.Covers? = nil
}

/// A family of variants that answer one question (which batch size, fault or prefetch, …).
public struct BenchScenario {
    /// The family's name: `batch-size`, `faulting`, `dictionary`, `decomposition`.
    public let name: String
    /// The question it answers.
    public let question: String
    /// The ways of doing the job it compares, in the order they run.
    public var variants: [BenchVariant]
    /// The entities its variants read: their row counts decide what it measures, so a baseline made on a
    /// store with other counts measured something else (``BaselineComparison/mismatches(baseline:config:scenarios:rows:)``).
    public var entities: [String] = []
}
