import Foundation
import Testing
@testable import FetchBench

/// Saving and loading named baselines and report files, and the errors when they are not there.
@Suite struct BaselineStoreTests {
    @Test func savesAndLoadsByName() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = BaselineStore(directory: directory.appendingPathComponent("nested/baselines"))
        let written = try store.save(sampleReport(), as: "main")
        #expect(written.lastPathComponent == "main.json")
        #expect(FileManager.default.fileExists(atPath: written.path))
        #expect(try store.load("main") == sampleReport())
        try store.save(sampleReport(), as: "release-1.2_rc")
        #expect(store.names() == ["main", "release-1.2_rc"])
    }

    @Test func savingAgainReplaces() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = BaselineStore(directory: directory)
        try store.save(sampleReport(), as: "main")
        let smaller = report([result()])
        try store.save(smaller, as: "main")
        #expect(try store.load("main") == smaller)
    }

    @Test func loadsAReportFileByPath() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("bench.json")
        try sampleReport().write(to: file)
        #expect(try BaselineStore(directory: directory.appendingPathComponent("unused")).load(file.path) == sampleReport())
        #expect(BaselineStore.isPath("out/bench.json") && BaselineStore.isPath("bench.json") && !BaselineStore.isPath("main"))
    }

    @Test func aMissingBaselineIsAClearError() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = BaselineStore(directory: directory)
        do {
            _ = try store.load("main")
            Issue.record("loading a missing baseline succeeded")
        } catch BenchError.missingBaseline(let name, let path) {
            #expect(name == "main")
            #expect(path == directory.appendingPathComponent("main.json").path)
            #expect(BenchError.missingBaseline(name: name, path: path).description
                    == "no baseline named 'main' at \(path); save one first with --save-baseline main")
        }
        let missingFile = directory.appendingPathComponent("nope.json").path
        #expect(throws: BenchError.self) { try store.load(missingFile) }
        #expect(BenchError.missingBaseline(name: missingFile, path: missingFile).description.hasPrefix("no baseline report at \(missingFile)"))
    }

    @Test func namesThatCouldEscapeTheDirectoryAreRefused() throws {
        let store = BaselineStore(directory: URL(fileURLWithPath: "/tmp/none"))
        for name in ["", "../main", "a/b", ".hidden", "with space", "main\n"] {
            #expect(throws: BenchError.self, "\(name.debugDescription) was accepted") { try store.url(for: name) }
        }
        #expect(try store.url(for: "main").path == "/tmp/none/main.json")
    }

    /// `--save-baseline foo.json` was saved as `foo.json.json`, which neither `--compare foo.json` (a path)
    /// nor `--compare foo` found: a name ending in `.json` is refused, saying to drop the suffix.
    @Test func aNameEndingInJSONIsRefusedWithTheNameToUse() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = BaselineStore(directory: directory)
        #expect(throws: BenchError.self) { try store.save(sampleReport(), as: "foo.json") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
        let problem = try #require(BaselineStore.problem(withName: "foo.json"))
        #expect(problem.contains("drop the .json suffix (foo)") && problem.contains("--compare foo"), "\(problem)")
        #expect(BenchError.invalidBaselineName("foo.json").description.hasPrefix("'foo.json' cannot name a baseline: drop the .json suffix"))
        // The description says nothing of paths, which only --compare takes.
        #expect(!BenchError.invalidBaselineName(".bad").description.contains("path"))
        #expect(BaselineStore.problem(withName: "release-1.2") == nil)
    }

    /// From a user trial: `--save-baseline foo.JSON` was saved as `foo.JSON.json`, where foo.json was refused.
    @Test func aNameEndingInJSONInAnyCaseIsRefusedAndTakenAsAPath() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = BaselineStore(directory: directory)
        for name in ["foo.JSON", "foo.Json"] {
            #expect(throws: BenchError.self) { try store.save(sampleReport(), as: name) }
            let problem = try #require(BaselineStore.problem(withName: name))
            #expect(problem.contains("drop the \(name.suffix(5)) suffix (foo)"), "\(problem)")
            #expect(BaselineStore.isPath(name), "\(name) is a report path for --compare, as foo.json is")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    @Test func aNewerReportIsRefusedWithTheDocumentedMessage() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("future.json")
        // A future shape: only the version is certain.
        try Data(#"{"schema_version": 3, "results": "elsewhere"}"#.utf8).write(to: file)
        do {
            _ = try BaselineStore(directory: directory).load(file.path)
            Issue.record("a schema_version 3 report loaded")
        } catch let error as BenchError {
            guard case .unsupportedSchema(let path, 3) = error else { Issue.record("wrong error: \(error)"); return }
            #expect(path == file.path)
            #expect(error.description == "\(file.path) has report schema version 3; this seedstore reads up to 2. Update seedstore or re-run the baseline.")
        }
    }

    @Test func aFileThatIsNotAReportSaysWhy() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("bad.json")
        try Data(#"{"schema_version": 1, "tool": "seedstore"}"#.utf8).write(to: file)
        do {
            _ = try BenchReport.load(from: file)
            Issue.record("an incomplete report loaded")
        } catch let error as BenchError {
            guard case .invalidReport(let path, let reason) = error else { Issue.record("wrong error: \(error)"); return }
            #expect(path == file.path)
            #expect(reason.contains("missing key"))
        }
        try Data("not json".utf8).write(to: file)
        #expect(throws: BenchError.self) { try BenchReport.load(from: file) }
    }

    @Test func defaultDirectoryIsUnderTheCurrentDirectory() {
        let path = BaselineStore.defaultDirectory.path
        #expect(path.hasSuffix("/.seedstore/baselines"))
        #expect(path.hasPrefix(FileManager.default.currentDirectoryPath))
    }
}
