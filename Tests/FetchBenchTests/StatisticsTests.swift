import Measure
import Testing

/// Measure.Statistics on samples whose answers are known by hand.
@Suite struct StatisticsTests {
    @Test func medianOfOddAndEvenCounts() {
        #expect(Statistics([3, 1, 2]).median == 2)
        #expect(Statistics([4, 1, 3, 2]).median == 2.5)
        #expect(Statistics([7]).median == 7)
    }

    @Test func samplesAreSortedAndBoundsRead() {
        let s = Statistics([0.3, 0.1, 0.2])
        #expect(s.samples == [0.1, 0.2, 0.3])
        #expect(s.min == 0.1 && s.max == 0.3 && s.count == 3)
    }

    @Test func percentilesInterpolateBetweenClosestRanks() {
        let s = Statistics((1...10).map(Double.init))
        // Rank 0.9 × 9 = 8.1: between the 9th (9) and 10th (10) samples.
        #expect(abs(s.p90 - 9.1) < 1e-12)
        #expect(s.percentile(0) == 1)
        #expect(s.percentile(100) == 10)
        #expect(abs(s.percentile(25) - 3.25) < 1e-12)
    }

    @Test func medianAbsoluteDeviationIgnoresOneOutlier() {
        // Median 3; deviations 2, 1, 0, 1, 97; their median is 1.
        let s = Statistics([1, 2, 3, 4, 100])
        #expect(s.medianAbsoluteDeviation == 1)
        #expect(abs(s.noise - 1.0 / 3) < 1e-12)
    }

    @Test func noiseIsZeroForOneSampleOrAZeroMedian() {
        #expect(Statistics([0.5]).noise == 0)
        #expect(Statistics([0, 0, 0]).noise == 0)
    }

    @Test func emptySamplesReadAsZero() {
        let s = Statistics([])
        #expect(s.median == 0 && s.p90 == 0 && s.min == 0 && s.max == 0 && s.noise == 0)
    }
}

/// Counts in tables, summaries and progress lines group digits by three, whatever the locale.
@Suite("Text: grouped counts")
struct GroupedCountTests {
    @Test func digitsGroupByThreeWithASign() {
        #expect(TextTable.grouped(0) == "0")
        #expect(TextTable.grouped(999) == "999")
        #expect(TextTable.grouped(1_000) == "1,000")
        #expect(TextTable.grouped(244_292) == "244,292")
        #expect(TextTable.grouped(-1_234_567) == "-1,234,567")
        #expect(TextTable.grouped(Int.min) == "-9,223,372,036,854,775,808")
    }
}
