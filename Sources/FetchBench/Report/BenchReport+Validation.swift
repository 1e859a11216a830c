import Foundation

extension BenchReport {
    /// The first value that no measurement can give, named by its key path, or nil when every value could be
    /// measured: what a hand edit of a baseline may leave behind.
    ///
    /// A comparison with such a baseline would judge nothing, or judge wrongly: a median of 0 has no change
    /// to measure, a negative noise shrinks the noise band, `runs` 0 claims timings from no run, and a
    /// variant listed twice compares with whichever comes first.
    ///
    /// For example:
    ///
    /// ```swift
    /// if let problem = report.valueProblem() { print(problem) }   // results[2].noise is -0.01; it takes 0 or more
    /// ```
    public func valueProblem() -> String? {
        func check(_ path: String, _ value: Double?, positive: Bool = false) -> String? {
            guard let value else { return nil }
            if !value.isFinite { return "\(path) is \(value); it takes a finite number" }
            if positive ? value <= 0 : value < 0 { return "\(path) is \(value); it takes \(positive ? "more than 0" : "0 or more")" }
            return nil
        }
        func check(_ path: String, _ value: Int?, least: Int = 0) -> String? {
            guard let value, value < least else { return nil }
            return "\(path) is \(value); it takes \(least) or more"
        }
        var problems: [String?] = [
            check("settings.runs", settings.runs, least: 1), check("settings.warmup_runs", settings.warmupRuns),
            check("settings.time_budget_seconds", settings.timeBudgetSeconds), check("store.size_bytes", store.sizeBytes),
        ]
        problems += store.entities.keys.sorted().map { check("store.entities.\($0)", store.entities[$0]) }
        var seen: [String: Int] = [:]
        for (index, result) in results.enumerated() {
            let at = "results[\(index)]"
            if let first = seen[result.key] {
                problems.append("\(at) measures '\(result.key)' again, as results[\(first)] does; keep one result per scenario and variant")
            }
            seen[result.key] = seen[result.key] ?? index
            problems += [
                check("\(at).median_seconds", result.medianSeconds, positive: true), check("\(at).p90_seconds", result.p90Seconds, positive: true),
                check("\(at).min_seconds", result.minSeconds, positive: true), check("\(at).max_seconds", result.maxSeconds, positive: true),
                check("\(at).noise", result.noise), check("\(at).runs", result.runs, least: 1),
                check("\(at).raw_median_seconds", result.rawMedianSeconds, positive: true), check("\(at).raw_noise", result.rawNoise),
                check("\(at).ratio_to_raw", result.ratioToRaw, positive: true),
                check("\(at).statements", result.statements), check("\(at).rows", result.rows), check("\(at).objects", result.objects),
                check("\(at).faults", result.faults), check("\(at).peak_memory_bytes", result.peakMemoryBytes),
            ]
            // The order the figures come in from sorted samples; a relative slack for rounding in hand copies.
            let order = [("min_seconds", result.minSeconds), ("median_seconds", result.medianSeconds),
                         ("p90_seconds", result.p90Seconds), ("max_seconds", result.maxSeconds)]
            for (low, high) in zip(order, order.dropFirst()) where low.1 > high.1 * (1 + 1e-9) {
                problems.append("\(at).\(low.0) (\(low.1)) is more than \(at).\(high.0) (\(high.1)); "
                                + "sorted samples give min ≤ median ≤ p90 ≤ max")
            }
        }
        return problems.lazy.compactMap { $0 }.first
    }
}
