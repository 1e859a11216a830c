import Foundation
@testable import SeedImport
import Testing

/// The progress line shows the current file's rows next to its name; the rows of all files, when earlier
/// files had some, come after it with a label (a file mapped twice is read once per pass).
@Suite("Import: progress")
struct ImportProgressTests {
    /// Lines a reporter wrote.
    final class Lines: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []
        func append(_ line: String) { lock.withLock { lines.append(line) } }
        var all: [String] { lock.withLock { lines } }
    }

    @Test("rows next to the file's name are that file's; all files' rows follow, labelled")
    func rowsText() {
        let reporter = _ProgressReporter(mode: .plain, totalBytes: 1_000, output: { _ in })
        reporter.begin(file: "operators.csv", bytesBefore: 0, rowsBefore: 0)
        #expect(reporter.rowsText(fileRows: 1_200) == "operators.csv 1,200 rows")
        reporter.begin(file: "wells.csv", bytesBefore: 400, rowsBefore: 245_492)
        #expect(reporter.rowsText(fileRows: 221_000) == "wells.csv 221,000 rows (466,492 in all)")
    }

    @Test("the bar shows the second pass over wells.csv with its own rows")
    func bar() throws {
        let lines = Lines()
        let reporter = _ProgressReporter(mode: .bar, totalBytes: 1_000, output: { lines.append($0) })
        reporter.begin(file: "wells.csv", bytesBefore: 500, rowsBefore: 244_292)
        Thread.sleep(forTimeInterval: _ProgressReporter.barInterval * 1.5)
        reporter.update(bytes: 250, rows: 122_146)
        let line = try #require(lines.all.last)
        #expect(line.contains(" 75%  wells.csv 122,146 rows (366,438 in all)  "), "\(line)")
    }
}
