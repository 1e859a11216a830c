import Foundation

/// One speed target: a measured operation next to its raw-SQLite reference from the same run.
///
/// For example:
///
/// ```swift
/// let check = SpeedCheck(name: "insert+save 100,000", measured: ours, reference: raw,
///                        referenceName: "raw sqlite3 INSERTs", target: .atMost(2.0))
/// print(check.line)   // insert+save 100,000  0.412 s  raw 0.251 s  1.64x  (target ≤ 2.00x)  met
/// ```
public struct SpeedCheck: Sendable, Codable {
    /// What a target says of the ratio measured / reference.
    public enum Target: Sendable, Codable, Equatable {
        /// The measured median is at most this multiple of the reference's.
        case atMost(Double)
        /// The measured median is at least this many times faster than the reference's.
        case atLeastFaster(Double)
    }

    public var name: String
    public var measured: Statistics
    public var reference: Statistics
    public var referenceName: String
    public var target: Target?
    /// Extra figures worth printing (memory, statements).
    public var notes: [String] = []

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

    /// Whether the target holds (true when there is none).
    public var isMet: Bool {
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

    /// Rows for a table: name, measured, reference, ratio, target, verdict.
    public var cells: [String] {
        [name, Self.seconds(measured.median), "\(referenceName) \(Self.seconds(reference.median))",
         String(format: "%.2fx", ratio), targetText, target == nil ? "" : (isMet ? "met" : "MISSED")]
    }

    /// Seconds as text with a sensible unit.
    public static func seconds(_ s: Double) -> String {
        s >= 1 ? String(format: "%.3f s", s) : s >= 0.001 ? String(format: "%.2f ms", s * 1000) : String(format: "%.1f µs", s * 1e6)
    }

    /// A table of checks.
    public static func table(_ checks: [SpeedCheck]) -> String {
        var table = TextTable(["measured", "median", "raw reference (median)", "ratio", "target", ""],
                              alignments: [.left, .right, .left, .right, .left, .left])
        for check in checks { table.append(check.cells) }
        var text = table.render()
        for check in checks where !check.notes.isEmpty { text += "\n  \(check.name): " + check.notes.joined(separator: "; ") }
        return text
    }
}
