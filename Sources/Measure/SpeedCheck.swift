import Foundation

/// One speed target: a measured operation next to its raw-SQLite reference from the same run.
///
/// For example:
///
/// ```swift
/// let check = SpeedCheck(name: "insert+save 100,000", measured: ours, reference: raw,
///                        referenceName: "raw sqlite3 INSERTs", target: .atMost(2.0))
/// print(SpeedCheck.table([check]))   // insert+save 100,000  0.412 s  raw 0.251 s  1.64x  1.52–1.71x  ≤ 2.00x  met
/// ```
///
/// Besides the ratio of medians, a check keeps the spread a noisy machine gives it: the fastest run
/// over the fastest reference run, and the slowest over the slowest. A target that holds for the
/// medians but not across that spread is *borderline*, not met: another run could land either side.
public struct SpeedCheck: Sendable, Codable {
    /// What a target says of the ratio measured / reference.
    public enum Target: Sendable, Codable, Equatable {
        /// The measured median is at most this multiple of the reference's.
        case atMost(Double)
        /// The measured median is at least this many times faster than the reference's.
        case atLeastFaster(Double)
    }

    /// What the medians measure: seconds (the default), or bytes (a memory check).
    public enum Unit: String, Sendable, Codable {
        case seconds, bytes
    }

    /// What the check measures, as its table row names it (`insert+save 100,000`).
    public var name: String
    /// `nil` means seconds.
    public var unit: Unit?
    /// The measured operation's samples, in seconds or bytes (``unit``).
    public var measured: Statistics
    /// The reference's samples from the same run, in the same unit as ``measured``.
    public var reference: Statistics
    /// What the reference is (`raw sqlite3 INSERTs`).
    public var referenceName: String
    /// The ratio the check must meet; nil for a figure shown without a target, which always counts as met.
    public var target: Target?
    /// Extra figures worth printing (memory, statements).
    public var notes: [String] = []

    /// A check of `measured` against `reference` under `target`, with `notes` printed under the table.
    ///
    /// ``unit`` starts nil (seconds); set it to ``Unit/bytes`` for a memory check.
    ///
    /// For example:
    ///
    /// ```swift
    /// let check = SpeedCheck(name: "fetch 100,000 objects", measured: Statistics(ours), reference: Statistics(raw),
    ///                        referenceName: "raw SELECT *", target: .atMost(2.5))
    /// print(check.verdict, check.ratio)
    /// ```
    public init(name: String, measured: Statistics, reference: Statistics, referenceName: String, target: Target?, notes: [String] = []) {
        self.name = name
        self.measured = measured
        self.reference = reference
        self.referenceName = referenceName
        self.target = target
        self.notes = notes
    }

    /// Measured median over reference median.
    public var ratio: Double { reference.median > 0 ? measured.median / reference.median : .infinity }

    /// The fastest run over the fastest reference run, and the slowest over the slowest, in order.
    public var ratioRange: ClosedRange<Double> {
        let fastest = reference.min > 0 ? measured.min / reference.min : .infinity
        let slowest = reference.max > 0 ? measured.max / reference.max : .infinity
        return Swift.min(fastest, slowest, ratio)...Swift.max(fastest, slowest, ratio)
    }

    /// What the runs say of the target.
    public enum Verdict: String, Sendable, Codable {
        /// The medians and the whole spread meet it (or there is no target).
        case met
        /// The medians meet it, but not the whole spread (or the other way round).
        case borderline
        /// Neither the medians nor any end of the spread meet it.
        case missed
    }

    /// The verdict over the medians and the spread.
    public var verdict: Verdict {
        guard target != nil else { return .met }
        let range = ratioRange
        let ends = [range.lowerBound, range.upperBound].map(meets)
        if meets(ratio) && !ends.contains(false) { return .met }
        if !meets(ratio) && !ends.contains(true) { return .missed }
        return .borderline
    }

    /// Whether the target holds for the medians and across the spread (true when there is none).
    public var isMet: Bool { verdict == .met }

    private func meets(_ ratio: Double) -> Bool {
        switch target {
        case .atMost(let limit)?: ratio <= limit
        case .atLeastFaster(let factor)?: ratio > 0 && 1 / ratio >= factor
        case nil: true
        }
    }

    /// The target as text.
    public var targetText: String {
        switch target {
        case .atMost(let limit)?: String(format: "≤ %.2fx", limit)
        case .atLeastFaster(let factor)?: String(format: "≥ %.1fx faster", factor)
        case nil: "-"
        }
    }

    /// Rows for a table: name, measured, reference, ratio, its spread, target, verdict.
    public var cells: [String] {
        let range = ratioRange
        let verdictText = switch verdict { case .met: "met"; case .borderline: "borderline"; case .missed: "MISSED" }
        let ratioText: String
        let spread: String
        if case .atLeastFaster? = target {
            // Read the way the target is: how many times faster, slowest pair first.
            ratioText = String(format: "%.2fx faster", 1 / ratio)
            spread = range.lowerBound == range.upperBound ? "" : String(format: "%.2f–%.2fx", 1 / range.upperBound, 1 / range.lowerBound)
        } else {
            ratioText = String(format: "%.2fx", ratio)
            spread = range.lowerBound == range.upperBound ? "" : String(format: "%.2f–%.2fx", range.lowerBound, range.upperBound)
        }
        let format = unit == .bytes ? Self.bytes : Self.seconds
        return [name, format(measured.median), "\(referenceName) \(format(reference.median))",
                ratioText, spread, targetText, target == nil ? "" : verdictText]
    }

    /// Bytes as decimal megabytes, as ``ProcessMemory`` prints them.
    public static func bytes(_ b: Double) -> String { String(format: "%.1f MB", b / 1e6) }

    /// Seconds as text with a sensible unit.
    public static func seconds(_ s: Double) -> String {
        s >= 1 ? String(format: "%.3f s", s) : s >= 0.001 ? String(format: "%.2f ms", s * 1000) : String(format: "%.1f µs", s * 1e6)
    }

    /// A table of checks.
    public static func table(_ checks: [SpeedCheck]) -> String {
        var table = TextTable(["measured", "median", "raw reference (median)", "ratio", "runs", "target", ""],
                              alignments: [.left, .right, .left, .right, .right, .left, .left])
        for check in checks { table.append(check.cells) }
        var text = table.render()
        for check in checks where !check.notes.isEmpty { text += "\n  \(check.name): " + check.notes.joined(separator: "; ") }
        return text
    }
}
