import Benchmark
import ManagedStore

/// The counters SeedStore's suites record besides package-benchmark's own metrics.
///
/// They come from ``ConnectionStats`` (statements run, rows stepped) and the context (objects, faults),
/// do not depend on the machine, and so are gated with zero tolerance.
///
/// For example:
///
/// ```swift
/// Benchmark("Fetch object IDs", configuration: SeedStoreBenchmark.configuration()) { benchmark in … }
/// ```
public enum SeedStoreMetric {
    /// SQL statements stepped in one iteration.
    public static var statements: BenchmarkMetric { .custom("SQL statements", polarity: .prefersSmaller, useScalingFactor: false) }
    /// Rows SQLite stepped in one iteration.
    public static var rows: BenchmarkMetric { .custom("SQL rows", polarity: .prefersSmaller, useScalingFactor: false) }
    /// Managed objects materialised (or, for imports, inserted) in one iteration.
    public static var objects: BenchmarkMetric { .custom("objects", polarity: .prefersSmaller, useScalingFactor: false) }
    /// Faults fired in one iteration.
    public static var faults: BenchmarkMetric { .custom("faults", polarity: .prefersSmaller, useScalingFactor: false) }

    /// The connection counters.
    public static var sql: [BenchmarkMetric] { [statements, rows] }
}

/// Shared configuration: which metrics, how long, and the thresholds `baseline check` applies.
public enum SeedStoreBenchmark {
    /// Counters: any difference at any percentile is a regression or an improvement.
    public static var exact: BenchmarkThresholds {
        BenchmarkThresholds(absolute: [.p0: 0, .p25: 0, .p50: 0, .p75: 0, .p90: 0, .p99: 0, .p100: 0])
    }

    /// Wall clock on a shared machine: the 25th percentile (the least disturbed by other work) may move
    /// 10 %, the median 20 %.
    public static var wallClock: BenchmarkThresholds { BenchmarkThresholds(relative: [.p25: 10, .p50: 20]) }

    /// Allocation counts: 10 % at the median (small counts move by a few allocations between runs).
    public static var mallocs: BenchmarkThresholds { BenchmarkThresholds(relative: [.p50: 10]) }

    /// Peak resident memory is sampled: 20 % at the median.
    public static var memory: BenchmarkThresholds { BenchmarkThresholds(relative: [.p50: 20]) }

    /// The metrics every suite measures: wall clock, mallocs, peak memory, and `counters`.
    public static func metrics(counters: [BenchmarkMetric]) -> [BenchmarkMetric] {
        [.wallClock, .mallocCountTotal, .peakMemoryResident] + counters
    }

    /// A configuration measuring ``metrics(counters:)`` with their thresholds.
    ///
    /// For example:
    ///
    /// ```swift
    /// Benchmark.defaultConfiguration = SeedStoreBenchmark.configuration(counters: SeedStoreMetric.sql)
    /// ```
    public static func configuration(counters: [BenchmarkMetric] = SeedStoreMetric.sql, maxSeconds: Int = 2,
                                     maxIterations: Int = 100, warmupIterations: Int = 1) -> Benchmark.Configuration {
        var thresholds: [BenchmarkMetric: BenchmarkThresholds] = [
            .wallClock: wallClock, .mallocCountTotal: mallocs, .peakMemoryResident: memory,
        ]
        for counter in counters { thresholds[counter] = exact }
        return Benchmark.Configuration(
            metrics: metrics(counters: counters), timeUnits: .microseconds, warmupIterations: warmupIterations,
            maxDuration: .seconds(maxSeconds), maxIterations: maxIterations, thresholds: thresholds)
    }
}

extension Benchmark {
    /// Records what the connection did in one iteration as ``SeedStoreMetric/statements`` and ``SeedStoreMetric/rows``.
    ///
    /// For example:
    ///
    /// ```swift
    /// let before = store.connection.stats
    /// … // the work
    /// benchmark.record(store.connection.stats - before)
    /// ```
    public func record(_ stats: ConnectionStats) {
        measurement(SeedStoreMetric.statements, stats.statements)
        measurement(SeedStoreMetric.rows, stats.rows)
    }

    /// Records what a context made and fired in one iteration.
    public func record(objects: Int, faults: Int? = nil) {
        measurement(SeedStoreMetric.objects, objects)
        if let faults { measurement(SeedStoreMetric.faults, faults) }
    }
}
