import Foundation

/// Summary statistics of repeated timings, with a noise estimate.
///
/// For example:
///
/// ```swift
/// let s = Statistics([0.010, 0.011, 0.012, 0.030])
/// s.median   // 0.0115
/// s.noise    // median absolute deviation / median
/// ```
public struct Statistics: Sendable, Equatable, Codable {
    /// The samples, sorted.
    public let samples: [Double]

    /// Statistics of `samples`, in any order and unit (an empty array gives zeros throughout).
    ///
    /// For example:
    ///
    /// ```swift
    /// let timings = Statistics([0.012, 0.010, 0.011])
    /// timings.samples   // [0.010, 0.011, 0.012]
    /// ```
    public init(_ samples: [Double]) {
        self.samples = samples.sorted()
    }

    /// The number of samples.
    public var count: Int { samples.count }
    /// The smallest sample (0 when there are none).
    public var min: Double { samples.first ?? 0 }
    /// The largest sample (0 when there are none).
    public var max: Double { samples.last ?? 0 }
    /// The 50th percentile: the middle sample, or the mean of the middle two (0 when there are none).
    public var median: Double { percentile(50) }
    /// The 90th percentile, interpolating linearly between the closest ranks (0 when there are none).
    public var p90: Double { percentile(90) }

    /// The `p`th percentile (0...100), interpolating linearly between the closest ranks.
    public func percentile(_ p: Double) -> Double {
        guard !samples.isEmpty else { return 0 }
        let rank = (p / 100) * Double(samples.count - 1)
        let low = Int(rank.rounded(.down)), high = Int(rank.rounded(.up))
        let fraction = rank - Double(low)
        return samples[low] + (samples[high] - samples[low]) * fraction
    }

    /// The median absolute deviation from the median.
    public var medianAbsoluteDeviation: Double {
        let m = median
        return Statistics(samples.map { abs($0 - m) }).median
    }

    /// Relative noise: the median absolute deviation over the median (0 for a single sample).
    public var noise: Double {
        let m = median
        return m > 0 ? medianAbsoluteDeviation / m : 0
    }
}

/// Monotonic wall-clock timing.
public enum Clock {
    /// Seconds on a monotonic clock.
    @inline(__always)
    public static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// Runs `body` and returns its result with the seconds it took.
    @inline(__always)
    public static func time<T>(_ body: () throws -> T) rethrows -> (T, Double) {
        let start = now()
        let value = try body()
        return (value, now() - start)
    }
}
