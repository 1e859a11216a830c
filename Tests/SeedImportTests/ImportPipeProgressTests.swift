import Foundation
import ManagedStore
@testable import SeedImport
import Testing

/// A copy of a pipe shows itself on standard error as the import's progress does: the importer reads a
/// pipe whole before its first row, and a slow one kept a user waiting in silence.
@Suite("Import: progress while a pipe is copied")
struct ImportPipeProgressTests {
    /// Text a reporter wrote.
    final class Written: @unchecked Sendable {
        private let lock = NSLock()
        private var parts: [String] = []
        func append(_ text: String) { lock.withLock { parts.append(text) } }
        var all: [String] { lock.withLock { parts } }
    }

    /// A named pipe in `scratch` that a thread feeds `first`, then after `pause` seconds `rest`, then closes.
    static func feedingPipe(in scratch: ImportScratch, _ first: String, pause: Double, _ rest: String) throws -> String {
        let path = scratch.path("input.pipe")
        try #require(mkfifo(path, 0o644) == 0)
        Thread {
            // Blocks until the copy opens the pipe to read.
            let descriptor = open(path, O_WRONLY)
            guard descriptor >= 0 else { return }
            for (index, part) in [first, rest].enumerated() {
                if index == 1 { Thread.sleep(forTimeInterval: pause) }
                _ = part.withCString { write(descriptor, $0, strlen($0)) }
            }
            close(descriptor)
        }.start()
        return path
    }

    @Test("plain progress: a line each interval, the first saying where the input is copied and why; the copy is whole")
    func plainLines() throws {
        let scratch = ImportScratch()
        let pipe = try Self.feedingPipe(in: scratch, "code,name\n", pause: 0.5, "E1,Ann\n")
        let written = Written()
        let reporting = _InputSpool.Reporting(progress: .plain, output: { written.append($0) }, untouched: nil, interval: 0.1)
        let copy = try _InputSpool.readablePath(pipe, reporting: reporting)
        defer { unlink(copy) }
        #expect(try String(contentsOfFile: copy, encoding: .utf8) == "code,name\nE1,Ann\n")
        let lines = written.all
        let folder = FileManager.default.temporaryDirectory.path
        #expect(lines.first?.hasPrefix("import: copying \(pipe) to \(folder) first, since the importer reads its input more than once: ") == true,
                "\(lines)")
        #expect(lines.count >= 3 && lines.dropFirst().allSatisfy { $0.hasPrefix("import: copying \(pipe): ") && $0.hasSuffix("B/s\n") },
                "a line every 0.1 s while the pipe gives nothing: \(lines)")
        #expect(lines.contains { $0.hasPrefix("import: copying \(pipe): 10 B so far, ") }, "\(lines)")
    }

    @Test("a bar is redrawn in place, the amount first, and cleared when the copy ends; none writes nothing")
    func barAndNone() throws {
        let scratch = ImportScratch()
        let pipe = try Self.feedingPipe(in: scratch, "code,name\n", pause: 0.3, "E1,Ann\n")
        let written = Written()
        let copy = try _InputSpool.readablePath(pipe, reporting: .init(progress: .bar, output: { written.append($0) }, untouched: nil, interval: 0.1))
        unlink(copy)
        let parts = written.all
        #expect(parts.first?.hasPrefix("\rcopying: ") == true && parts.contains { $0.hasPrefix("\rcopying: 10 B so far, ") }, "\(parts)")
        #expect(parts.first?.contains(" — ") == true && parts.first?.hasSuffix("\u{1B}[K") == true, "then where from, fitted to the terminal: \(parts)")
        #expect(parts.last == "\r\u{1B}[K", "the bar's line is cleared for the import's own")

        let quiet = ImportScratch()
        let silent = Written()
        let other = try Self.feedingPipe(in: quiet, "code,name\n", pause: 0.3, "E1,Ann\n")
        unlink(try _InputSpool.readablePath(other, reporting: .init(progress: .none, output: { silent.append($0) }, untouched: nil, interval: 0.1)))
        #expect(silent.all.isEmpty)
    }

    /// The copy `ImportMapping.inferred` makes comes before the importer runs: `SeedImporter.prepare`
    /// tells it how the import shows progress (what `seedstore import Entity=/dev/stdin` needs).
    @Test("SeedImporter.prepare makes the copy a mapping inferred from a pipe's header needs show progress")
    func preparedBeforeInferring() throws {
        let scratch = ImportScratch()
        let model = try ObjectModel(json: Data(#"{"entities":[{"name":"Emp","attributes":[{"name":"code","type":"String"},{"name":"name","type":"String"}]}]}"#.utf8))
        let pipe = try Self.feedingPipe(in: scratch, "code,name\n", pause: _ProgressReporter.plainInterval + 0.3, "E1,Ann\n")
        let written = Written()
        var options = ImportOptions(progress: .plain)
        options.progressOutput = { written.append($0) }
        SeedImporter.prepare(into: scratch.path("E.sqlite"), options: options)
        defer { SeedImporter.prepare(into: scratch.path("E.sqlite"), options: ImportOptions()) }
        let mapping = try ImportMapping.inferred(sources: [("Emp", pipe)], model: model)
        #expect(mapping.files.count == 1)
        #expect(written.all.first?.hasPrefix("import: copying \(pipe) to ") == true, "\(written.all)")
        let summary = try SeedImporter(model: model, mapping: mapping, options: ImportOptions()).run(into: scratch.path("E.sqlite"))
        #expect(summary.files.first?.rowsImported == 1, "the import reads the copy")
    }
}
