import Foundation
import ManagedStore
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
        let reporter = _ProgressReporter(mode: .bar, totalBytes: 1_000, output: { lines.append($0) }, columns: 200)
        reporter.begin(file: "wells.csv", bytesBefore: 500, rowsBefore: 244_292)
        Thread.sleep(forTimeInterval: _ProgressReporter.barInterval * 1.5)
        reporter.update(bytes: 250, rows: 122_146)
        let line = try #require(lines.all.last)
        #expect(line.contains(" 75%  wells.csv 122,146 rows (366,438 in all)  "), "\(line)")
    }

    /// A line longer than the terminal wraps, and the next `\r` redraws only its last row.
    @Test("the bar fits the terminal: a narrower bar, the name without its folders, the totals and the rate left out, the name cut")
    func fitsTheTerminal() {
        let reporter = _ProgressReporter(mode: .bar, totalBytes: 1_000, output: { _ in })
        let name = "exports/2026-11/wells.csv → WellSummary + WellDetail"
        reporter.begin(file: name, bytesBefore: 500, rowsBefore: 244_292)
        func bar(_ columns: Int) -> String {
            reporter.barLine(fraction: 0.75, fileRows: 122_146, rate: 381_684, eta: "0:01", columns: columns)
        }
        #expect(bar(200) == "[==================      ]  75%  \(name) 122,146 rows (366,438 in all)  381,684 rows/s  ETA 0:01")
        #expect(bar(128) == "[==================      ]  75%  wells.csv → WellSummary + WellDetail 122,146 rows (366,438 in all)  381,684 rows/s  ETA 0:01",
                "the name without its folders before a narrower bar")
        #expect(bar(120) == "[=========   ]  75%  wells.csv → WellSummary + WellDetail 122,146 rows (366,438 in all)  381,684 rows/s  ETA 0:01")
        #expect(bar(100) == "[=========   ]  75%  wells.csv → WellSummary + WellDetail 122,146 rows  381,684 rows/s  ETA 0:01")
        #expect(bar(82) == "[=========   ]  75%  wells.csv → WellSummary + WellDetail 122,146 rows  ETA 0:01")
        #expect(bar(80) == "[=========   ]  75%  …lls.csv → WellSummary + WellDetail 122,146 rows  ETA 0:01")
        #expect(bar(80).count == 79, "a cut name takes all the room there is")
        for columns in [12, 20, 40, 60, 80, 100, 120, 150, 200] {
            #expect(bar(columns).count <= columns - 1, "\(columns): \(bar(columns))")
        }
        #expect(bar(60) == "[=========   ]  75%  …y + WellDetail 122,146 rows  ETA 0:01")
        #expect(bar(20) == "[=========   ]  75%", "past 12 characters of the name, the line is cut")

        reporter.begin(file: "wells.csv", bytesBefore: 500, rowsBefore: 244_292)
        #expect(bar(80) == "[=========   ]  75%  wells.csv 122,146 rows  381,684 rows/s  ETA 0:01",
                "a short name keeps the rate on 80 columns")
    }

    /// A user trial: a bar written to a pipe named `data/wells/wells.csv` as `wells.csv`, fitted to a
    /// terminal of 80 columns that was not there, while the summary named it as given.
    @Test("a bar on standard error that is no terminal (and no COLUMNS) names the file as given, as the summary does",
          .enabled(if: ImportFixtures.hasCLI, ImportFixtures.cliSkipReason))
    func barInAPipe() throws {
        let scratch = ImportScratch()
        try scratch.write("w.model.json", """
            {"entities": [{"name": "W", "attributes": [{"name": "id", "type": "Integer 64"}, {"name": "name", "type": "String"}]}]}
            """)
        try FileManager.default.createDirectory(at: scratch.url.appendingPathComponent("data/wells"), withIntermediateDirectories: true)
        try scratch.write("data/wells/wells.csv", "id,name\n" + (0..<60_000).map { "\($0),a well named \($0)\n" }.joined())
        let result = try ImportCLI.run(["import", "--model", "w.model.json", "--out", "w.sqlite", "--progress", "bar", "W=data/wells/wells.csv"],
                                       directory: scratch.url, environment: ["COLUMNS": nil])
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.contains("  data/wells/wells.csv → W: 60,000 rows read"), "\(result.output)")
        let lines = result.errors.split(separator: "\r").filter { $0.hasPrefix("[") }
        // The finish's steps follow the load's bars.
        let finish = lines.filter { $0.contains("building index") || $0.contains("(ANALYZE)") }
        #expect(finish.count == 1 && finish[0].contains("gathering statistics (ANALYZE)  ETA "), "W has no index: ANALYZE alone: \(finish)")
        let bars = lines.filter { !finish.contains($0) }
        #expect(!bars.isEmpty, "\(result.errors)")
        #expect(bars.allSatisfy { $0.contains("%  data/wells/wells.csv ") && $0.contains(" rows/s  ETA ") }, "\(bars)")
    }

    @Test("a note on the bar's line is cut to the terminal's width too")
    func noteFits() throws {
        let lines = Lines()
        let reporter = _ProgressReporter(mode: .bar, totalBytes: 1_000, output: { lines.append($0) }, columns: 40)
        reporter.note("running again without the 12 rows rejected once their file had been read…")
        let line = try #require(lines.all.last)
        #expect(line == "\rrunning again without the 12 rows reje…\u{1B}[K", "39 columns, the last an ellipsis: \(line)")
    }

    @Test("the ETA covers the index build: the indexes each file's rows fill, weighed by its bytes")
    func finishInTheETA() throws {
        let scratch = ImportScratch()
        let data = try DataSetGenerator.generate(.wells, rows: 50, into: scratch.url.appendingPathComponent("data"))
        let mapping = try ImportMapping(contentsOf: data.mappingFile.url.path)
        let model = try mapping.loadModel()
        let plan = try _ImportPlanner.plan(model: model, mapping: mapping, options: ImportOptions())
        let indexes = try PersistentStore.inMemory(model: model).indexes()
        #expect(indexes.map(\.label) == ["Operator.operator_id", "Well.uwi", "Well.well_name", "Well.operator", "WellDetail.uwi",
                                         "WellDetail.summary", "WellDetail.operator", "WellSummary.uwi", "WellSummary.well_name",
                                         "WellSummary.details"])
        // operators.csv fills Operator (1 index), wells.csv Well (3), then WellSummary + WellDetail (3 + 3).
        let sizes = plan.files.map { Double($0.size) }
        let expected = (sizes[0] * 1 + sizes[1] * 3 + sizes[2] * 6) / sizes.reduce(0, +)
        #expect(abs(_ImportSession.indexesPerByte(plan, indexes: indexes) - expected) < 1e-9)

        let reporter = _ProgressReporter(mode: .plain, totalBytes: 1_000, output: { _ in })
        #expect(reporter.finishEstimate(loadSeconds: 10) == 0, "nothing expected: no finish in the ETA")
        reporter.expectFinish(indexesPerByte: 4.5)
        #expect(abs(reporter.finishEstimate(loadSeconds: 10) - 10 * 4.5 * _ProgressReporter.finishPerIndex) < 1e-9)
    }

    @Test("the finish's steps show on the bar, fitted to the terminal, and the first as a plain line")
    func finishSteps() throws {
        let lines = Lines()
        let plain = _ProgressReporter(mode: .plain, totalBytes: 1_000, output: { lines.append($0) })
        plain.finishStep("building index 1 of 3 (Well.uwi)", done: 0)
        plain.finishStep("building index 2 of 3 (Well.well_name)", done: 0.3)
        #expect(lines.all.count == 1, "later steps wait for the plain interval: \(lines.all)")
        let first = try #require(lines.all.first)
        #expect(first.hasPrefix("import: building index 1 of 3 (Well.uwi), 0% of the finish, ETA "), "\(first)")

        let bar = _ProgressReporter(mode: .bar, totalBytes: 1_000, output: { _ in })
        #expect(bar.finishLine("building index 2 of 3 (Well.well_name)", done: 0.5, eta: "0:01", columns: 100)
                == "[======      ]  50%  building index 2 of 3 (Well.well_name)  ETA 0:01")
        let cut = bar.finishLine("building index 2 of 3 (WellSummary.well_name)", done: 0.5, eta: "0:01", columns: 50)
        #expect(cut == "[======      ]  50%  building index 2 …  ETA 0:01", "\(cut)")
        for columns in [12, 20, 30, 50, 80] {
            #expect(bar.finishLine("building index 2 of 3 (WellSummary.well_name)", done: 0.5, eta: "0:01", columns: columns).count <= columns - 1)
        }
    }

    @Test("a file mapped twice is named with the entities of each pass; a file mapped once by its name alone")
    func passLabels() throws {
        let scratch = ImportScratch()
        let data = try DataSetGenerator.generate(.wells, rows: 20, into: scratch.url.appendingPathComponent("data"))
        let mapping = try ImportMapping(contentsOf: data.mappingFile.url.path)
        let plan = try _ImportPlanner.plan(model: try mapping.loadModel(), mapping: mapping, options: ImportOptions())
        #expect(plan.files.map { _ImportSession.progressLabel($0, in: plan) }
                == ["operators.csv", "wells.csv → Well", "wells.csv → WellSummary + WellDetail"])
    }
}
