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
    ///
    /// In JSON: `{"kind": "at_most", "value": 2}` or `{"kind": "at_least_faster", "value": 3}`.
    public enum Target: Sendable, Codable, Equatable {
        /// The measured median is at most this multiple of the reference's.
        case atMost(Double)
        /// The measured median is at least this many times faster than the reference's.
        case atLeastFaster(Double)
    }

    /// The target's kind as JSON names it.
    enum TargetKind: String, Codable {
        case atMost = "at_most", atLeastFaster = "at_least_faster"
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

    /// The fastest run over the fastest reference run, and the slowest over the slowest, the lower first.
    ///
    /// It is the spread of the runs, not of the medians: the ratio of medians (``ratio``) may lie outside
    /// it, and ``verdict`` judges both.
    public var ratioRange: ClosedRange<Double> {
        let fastest = reference.min > 0 ? measured.min / reference.min : .infinity
        let slowest = reference.max > 0 ? measured.max / reference.max : .infinity
        // The spread of the runs alone: the ratio of medians is reported, and judged, on its own (``verdict``).
        return Swift.min(fastest, slowest)...Swift.max(fastest, slowest)
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
            // Slower than the reference reads as slower: "0.92x faster" would say faster.
            // The spread reads the same way as the ratio beside it.
            let slower = ratio > 1
            ratioText = slower ? String(format: "%.2fx slower", ratio) : String(format: "%.2fx faster", 1 / ratio)
            spread = range.lowerBound == range.upperBound ? ""
                : slower ? String(format: "%.2f–%.2fx", range.lowerBound, range.upperBound)
                : String(format: "%.2f–%.2fx", 1 / range.upperBound, 1 / range.lowerBound)
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
        var table = TextTable(["measured", "median", "raw reference (median)", "ratio", "runs", "target", "verdict"],
                              alignments: [.left, .right, .left, .right, .right, .left, .left])
        for check in checks { table.append(check.cells) }
        var text = table.render()
        for check in checks where !check.notes.isEmpty { text += "\n  \(check.name): " + check.notes.joined(separator: "; ") }
        return text
    }
}

extension SpeedCheck.Target {
    enum CodingKeys: String, CodingKey { case kind, value }

    /// Reads `{"kind": "at_most" | "at_least_faster", "value": NUMBER}`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let value = try c.decode(Double.self, forKey: .value)
        switch try c.decode(SpeedCheck.TargetKind.self, forKey: .kind) {
        case .atMost: self = .atMost(value)
        case .atLeastFaster: self = .atLeastFaster(value)
        }
    }

    /// Writes `{"kind": "at_most" | "at_least_faster", "value": NUMBER}`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .atMost(let limit):
            try c.encode(SpeedCheck.TargetKind.atMost, forKey: .kind)
            try c.encode(limit, forKey: .value)
        case .atLeastFaster(let factor):
            try c.encode(SpeedCheck.TargetKind.atLeastFaster, forKey: .kind)
            try c.encode(factor, forKey: .value)
        }
    }
}

/// The JSON form `seedstore speed --json` writes, documented in `docs/bench-schema.md` (Speed checks):
/// snake_case keys, the samples, and the derived figures the table prints (medians, ratio, its spread,
/// verdict) so a reader need not recompute them. Reading ignores the derived figures.
extension SpeedCheck {
    enum CodingKeys: String, CodingKey {
        case name, unit, measured, reference, referenceName = "reference_name", target, notes,
             measuredMedian = "measured_median", referenceMedian = "reference_median", ratio,
             ratioLow = "ratio_low", ratioHigh = "ratio_high", verdict
    }

    /// Reads a check written by ``encode(to:)``.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(name: try c.decode(String.self, forKey: .name), measured: try c.decode(Statistics.self, forKey: .measured),
                  reference: try c.decode(Statistics.self, forKey: .reference),
                  referenceName: try c.decode(String.self, forKey: .referenceName),
                  target: try c.decodeIfPresent(Target.self, forKey: .target),
                  notes: try c.decodeIfPresent([String].self, forKey: .notes) ?? [])
        let unit = try c.decodeIfPresent(Unit.self, forKey: .unit)
        self.unit = unit == .seconds ? nil : unit
    }

    /// Writes the check with its derived figures; `target` is absent when there is none, and a ratio
    /// over a zero reference (infinite) is absent too.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        // The table indents a check that qualifies the one above it; JSON has no rows to line up.
        try c.encode(name.trimmingCharacters(in: .whitespaces), forKey: .name)
        try c.encode(unit ?? .seconds, forKey: .unit)
        try c.encode(measured, forKey: .measured)
        try c.encode(reference, forKey: .reference)
        try c.encode(referenceName, forKey: .referenceName)
        try c.encodeIfPresent(target, forKey: .target)
        try c.encode(notes, forKey: .notes)
        try c.encode(measured.median, forKey: .measuredMedian)
        try c.encode(reference.median, forKey: .referenceMedian)
        let range = ratioRange
        func finite(_ value: Double) -> Double? { value.isFinite ? value : nil }
        try c.encodeIfPresent(finite(ratio), forKey: .ratio)
        try c.encodeIfPresent(finite(range.lowerBound), forKey: .ratioLow)
        try c.encodeIfPresent(finite(range.upperBound), forKey: .ratioHigh)
        try c.encode(verdict, forKey: .verdict)
    }
}

/// What `seedstore speed --json FILE` writes: the suite and its checks.
///
/// For example:
///
/// ```swift
/// let report = SpeedReport(suite: "engine", checks: checks)
/// try report.jsonData().write(to: URL(fileURLWithPath: "speed.json"))
/// ```
public struct SpeedReport: Codable, Sendable {
    /// The format's version; raised when a key is removed or changes meaning.
    public static let currentSchemaVersion = 1

    /// `schema_version`: the format's version.
    public var schemaVersion = SpeedReport.currentSchemaVersion
    /// The suite that ran: `engine`, `fetch` or `import`.
    public var suite: String
    /// Whether every check was met (the command exits 3 when not).
    public var met: Bool
    /// The checks, in the order the table prints them.
    public var checks: [SpeedCheck]

    /// The report of `checks` from `suite`.
    ///
    /// For example:
    ///
    /// ```swift
    /// let report = SpeedReport(suite: "fetch", checks: try FetchSpeed(store: store).run())
    /// ```
    public init(suite: String, checks: [SpeedCheck]) {
        self.suite = suite
        self.checks = checks
        met = checks.allSatisfy(\.isMet)
    }

    enum CodingKeys: String, CodingKey {
        case schemaVersion = "schema_version", suite, met, checks
    }

    /// The report as pretty, key-sorted JSON.
    ///
    /// For example:
    ///
    /// ```swift
    /// FileHandle.standardOutput.write(try SpeedReport(suite: "engine", checks: checks).jsonData())
    /// ```
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}
