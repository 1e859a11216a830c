import Measure
import Testing

/// A speed check's verdict: the medians and the spread of runs a noisy machine gives.
@Suite("Speed checks: ratio, spread, verdict")
struct SpeedCheckTests {
    static func check(_ ours: [Double], _ raw: [Double], _ target: SpeedCheck.Target?) -> SpeedCheck {
        SpeedCheck(name: "x", measured: Statistics(ours), reference: Statistics(raw), referenceName: "raw", target: target)
    }

    @Test("every run inside the target is met; the spread is fastest/fastest to slowest/slowest")
    func met() {
        let check = Self.check([1.2, 1.3, 1.25], [1.0, 1.05, 1.02], .atMost(1.5))
        #expect(abs(check.ratio - 1.25 / 1.02) < 1e-9)
        #expect(abs(check.ratioRange.lowerBound - 1.2) < 1e-9)
        #expect(abs(check.ratioRange.upperBound - 1.3 / 1.05) < 1e-9)
        #expect(check.verdict == .met && check.isMet)
        #expect(check.cells.last == "met")
        #expect(check.cells[4] == "1.20–1.24x")
    }

    @Test("medians inside but a slow pair outside is borderline, and not met")
    func borderline() {
        let check = Self.check([1.3, 1.4, 2.0], [1.0, 1.0, 1.1], .atMost(1.5))
        #expect(check.ratio <= 1.5)
        #expect(check.ratioRange.upperBound > 1.5)
        #expect(check.verdict == .borderline)
        #expect(!check.isMet)
        #expect(check.cells.last == "borderline")
    }

    @Test("nothing inside is missed; a faster-by target reads the ratio the other way")
    func missed() {
        #expect(Self.check([2.0, 2.1], [1.0, 1.0], .atMost(1.5)).verdict == .missed)
        #expect(Self.check([0.25, 0.3], [1.0, 1.0], .atLeastFaster(3)).verdict == .met)
        #expect(Self.check([0.3, 0.5], [1.0, 1.1], .atLeastFaster(3)).verdict == .borderline)
        #expect(Self.check([0.5, 0.6], [1.0, 1.0], .atLeastFaster(3)).cells.last == "MISSED")
        let faster = Self.check([0.25, 0.3], [1.0, 1.0], .atLeastFaster(3)).cells
        #expect(faster[3] == "3.64x faster")
        #expect(faster[4] == "3.33–4.00x")
        #expect(Self.check([0.5], [1.0], nil).verdict == .met)
    }
}
