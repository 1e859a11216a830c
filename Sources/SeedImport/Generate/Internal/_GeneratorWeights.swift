/// Integer weights for drawing an index, stored cumulatively.
///
/// For example, `_GeneratorWeights([85, 10, 5])` draws 0 85% of the time.
///
/// - Complexity: O(log n) per draw.
struct _GeneratorWeights {
    private let cumulative: [Int]
    let total: Int

    init(_ weights: [Int]) {
        var running = 0
        var cumulative: [Int] = []
        cumulative.reserveCapacity(weights.count)
        for weight in weights {
            precondition(weight >= 0, "weights must not be negative")
            running += weight
            cumulative.append(running)
        }
        precondition(running > 0, "weights must not all be zero")
        self.cumulative = cumulative
        self.total = running
    }

    /// The index whose share of `0..<total` holds `draw`.
    func index(for draw: Int) -> Int {
        // `draw` is below `total`, the last running sum, so some index holds it.
        cumulative._partitionPoint { draw < $0 }
    }
}
