import Testing
@testable import FetchBench

/// The progress indicator's three styles.
@Suite struct BenchProgressTests {
    final class Sink: @unchecked Sendable { var text = "" }

    @Test func textNamesScenarioVariantAndRun() {
        #expect(BenchProgress.text(index: 3, of: 12, name: "faulting / N+1", run: 4, runs: 10) == "scenario 3/12: faulting / N+1 (run 4/10)")
        #expect(BenchProgress.text(index: 1, of: 2, name: "dictionary / whole objects") == "scenario 1/2: dictionary / whole objects")
    }

    @Test func linesStyleWritesOneLinePerVariant() {
        let sink = Sink()
        let progress = BenchProgress(style: .lines) { sink.text += $0 }
        for run in 1...3 { progress.update(index: 1, of: 2, name: "faulting / N+1", run: run, runs: 3) }
        progress.update(index: 2, of: 2, name: "faulting / IDs", run: 1, runs: 3)
        progress.message("done")
        progress.finish()
        #expect(sink.text == "scenario 1/2: faulting / N+1\nscenario 2/2: faulting / IDs\ndone\n")
    }

    @Test func liveStyleRewritesOneLineAndClearsIt() {
        let sink = Sink()
        let progress = BenchProgress(style: .live, minimumInterval: 0) { sink.text += $0 }
        progress.update(index: 3, of: 12, name: "faulting / N+1", run: 4, runs: 10)
        progress.update(index: 3, of: 12, name: "faulting / N+1", run: 5, runs: 10)
        #expect(sink.text == "\rscenario 3/12: faulting / N+1 (run 4/10)\rscenario 3/12: faulting / N+1 (run 5/10)")
        #expect(!sink.text.contains("\n"))
        sink.text = ""
        progress.finish()
        #expect(sink.text.filter { $0 != " " } == "\r\r")
        #expect(sink.text.count == 2 + "scenario 3/12: faulting / N+1 (run 5/10)".count)
    }

    @Test func liveStyleThrottlesRunsButNotNewVariants() {
        let sink = Sink()
        let progress = BenchProgress(style: .live, minimumInterval: 3600) { sink.text += $0 }
        progress.update(index: 1, of: 2, name: "a", run: 1, runs: 9)
        progress.update(index: 1, of: 2, name: "a", run: 2, runs: 9)
        progress.update(index: 2, of: 2, name: "b", run: 1, runs: 9)
        #expect(sink.text.components(separatedBy: "\r").count - 1 == 2)
        #expect(sink.text.hasSuffix("scenario 2/2: b (run 1/9)"))
    }

    @Test func quietWritesNothing() {
        let sink = Sink()
        let progress = BenchProgress(style: .quiet) { sink.text += $0 }
        progress.update(index: 1, of: 1, name: "a", run: 1, runs: 1)
        progress.message("hello")
        progress.finish()
        #expect(sink.text.isEmpty)
    }

    @Test func longLinesAreCutToTheTerminal() {
        #expect(BenchProgress.fit(String(repeating: "x", count: 200), width: 80).count == 79)
        #expect(BenchProgress.fit("short", width: 80) == "short")
    }
}

/// Free-text updates, for callers that phrase progress themselves.
@Suite struct BenchProgressTextTests {
    final class Sink: @unchecked Sendable { var text = "" }

    @Test func linesStyleWritesEachText() {
        let sink = Sink()
        let progress = BenchProgress(style: .lines) { sink.text += $0 }
        progress.update("1/2 faulting / N+1")
        progress.update("2/2 faulting / IDs")
        #expect(sink.text == "1/2 faulting / N+1\n2/2 faulting / IDs\n")
    }

    @Test func liveStyleRewritesTheLineAndUsesTheStoredTotal() {
        let sink = Sink()
        let progress = BenchProgress(style: .live, total: 12, minimumInterval: 0) { sink.text += $0 }
        progress.update(index: 3, name: "faulting / N+1", run: 4, runs: 10)
        progress.update("short")
        #expect(sink.text.hasPrefix("\rscenario 3/12: faulting / N+1 (run 4/10)\rshort "))
    }
}
