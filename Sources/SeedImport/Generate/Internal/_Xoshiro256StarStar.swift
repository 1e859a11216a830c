/// The pseudo-random generator behind every generated data set: xoshiro256**,
/// seeded through SplitMix64.
///
/// It deliberately does not conform to `RandomNumberGenerator`, so nothing can
/// hand it to a standard-library algorithm whose output might change between
/// Swift releases. Every draw goes through the few methods below, all defined
/// with plain integer arithmetic, so one seed gives the same bytes on every
/// platform and toolchain.
///
/// See <https://prng.di.unimi.it> for the algorithms.
struct _Xoshiro256StarStar {
    private var s0: UInt64
    private var s1: UInt64
    private var s2: UInt64
    private var s3: UInt64

    /// Creates a generator for one named stream of one seed.
    ///
    /// Streams keep data sets independent: the operators of the wells data set
    /// do not shift when the wells stream draws one more number.
    init(seed: UInt64, stream: String) {
        // FNV-1a over the stream name, mixed into the seed.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in stream.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        var state = seed ^ hash
        s0 = _Xoshiro256StarStar.splitMix64(&state)
        s1 = _Xoshiro256StarStar.splitMix64(&state)
        s2 = _Xoshiro256StarStar.splitMix64(&state)
        s3 = _Xoshiro256StarStar.splitMix64(&state)
    }

    /// One step of SplitMix64; also used as a stateless 64-bit mixer.
    static func splitMix64(_ state: inout UInt64) -> UInt64 {
        state = state &+ 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }

    /// The next 64 random bits.
    mutating func next() -> UInt64 {
        let result = ((s1 &* 5) << 7 | (s1 &* 5) >> 57) &* 9
        let t = s1 << 17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = s3 << 45 | s3 >> 19
        return result
    }

    /// A value in `0..<bound` (multiply-high; the bias is below 2^-40 for the
    /// bounds used here).
    mutating func below(_ bound: Int) -> Int {
        precondition(bound > 0, "bound must be positive")
        return Int(UInt64(bound).multipliedFullWidth(by: next()).high)
    }

    /// A value in `range`, both ends included.
    mutating func int(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + below(range.upperBound - range.lowerBound + 1)
    }

    /// A double in `0..<1` with 53 random bits.
    mutating func unit() -> Double {
        Double(next() >> 11) * 0x1p-53
    }

    /// A double in `lower..<upper`.
    mutating func double(_ lower: Double, _ upper: Double) -> Double {
        lower + (upper - lower) * unit()
    }

    /// True with probability `probability`.
    mutating func chance(_ probability: Double) -> Bool {
        unit() < probability
    }

    /// One element of a non-empty array, uniformly.
    mutating func pick<Element>(_ elements: [Element]) -> Element {
        elements[below(elements.count)]
    }

    /// An index drawn with the given integer weights.
    mutating func weightedIndex(_ table: _GeneratorWeights) -> Int {
        table.index(for: below(table.total))
    }

    /// A rank in `0..<count` skewed toward 0 (density falling like
    /// u^2.5), so rank 0 is drawn most often, as the largest operator or
    /// acquirer in a real list is. Uses only IEEE-exact operations (`*` and
    /// `squareRoot()`), never libm's `pow`.
    mutating func skewedRank(_ count: Int) -> Int {
        let u = unit()
        let scaled = u * u * u.squareRoot()
        return min(count - 1, Int(scaled * Double(count)))
    }
}
