import Foundation
import ManagedStore
@testable import SeedImport
import Testing

/// What a program using SeedImport as a library met that the CLI never does (a library trial): two
/// imports into one store path from one process, and a missing folder in skip mode.
@Suite("Import: as a library")
struct ImportLibraryUseTests {
    static let model = """
        {"entities": [{"name": "E", "attributes": [{"name": "a", "type": "String"}, {"name": "n", "type": "Integer 32"}]}]}
        """

    /// A scratch folder holding the model and `e.csv` with `csv`, and the mapping inferred for it.
    static func setUp(_ csv: String) throws -> (ImportScratch, ObjectModel, ImportMapping) {
        let scratch = ImportScratch()
        try scratch.write("m.model.json", model)
        try scratch.write("e.csv", csv)
        let model = try ObjectModel(contentsOf: scratch.path("m.model.json"))
        return (scratch, model, try ImportMapping.inferred(sources: [("E", "e.csv")], model: model, baseDirectory: scratch.url.path))
    }

    /// Progress lines written.
    typealias Lines = ImportProgressTests.Lines

    /// What the import run inside the first one's pass met.
    final class Outcome: @unchecked Sendable {
        private let lock = NSLock()
        private var value: Result<ImportSummary, ImportError>?
        func set(_ result: Result<ImportSummary, ImportError>) { lock.withLock { value = result } }
        var result: Result<ImportSummary, ImportError>? { lock.withLock { value } }
    }

    @Test("a second import into a store this process is building is refused, and the first completes")
    func sameTargetTwice() throws {
        let (scratch, model, mapping) = try Self.setUp("a,n\nx,1\ny,2\n")
        let target = scratch.path("s.sqlite")
        let second = Outcome()
        var options = ImportOptions()
        // While the first import reads its file, another one (a task, a thread) starts on the same path.
        options.beforeEachPass = { _ in
            do throws(ImportError) { second.set(.success(try SeedImporter(model: model, mapping: mapping).run(into: target))) } catch { second.set(.failure(error)) }
        }
        let first = try SeedImporter(model: model, mapping: mapping, options: options).run(into: target)
        #expect(first.objects["E"]?.stored == 2)
        guard case .failure(let error)? = second.result else {
            Issue.record("the second import ran: \(String(describing: second.result))")
            return
        }
        #expect(error.kind == .store)
        #expect(error.reason.contains("another import in this process is building a store for this --out"), "\(error)")
        #expect(error.hint?.contains("Wait for its run(into:) to return") == true, "\(error)")

        // Skip mode: another store whose rejects go to the same file (s.sqlite and s.db both default to
        // s.rejects.csv) is refused too, as the two would share the temporary rejects file.
        let shared = Outcome()
        let otherStore = scratch.path("s.db")
        var skipping = ImportOptions(onError: .skip)
        skipping.beforeEachPass = { _ in
            do throws(ImportError) {
                shared.set(.success(try SeedImporter(model: model, mapping: mapping, options: ImportOptions(onError: .skip)).run(into: otherStore)))
            } catch { shared.set(.failure(error)) }
        }
        _ = try SeedImporter(model: model, mapping: mapping, options: skipping).run(into: target)
        guard case .failure(let rejectsError)? = shared.result else {
            Issue.record("the second skip-mode import ran: \(String(describing: shared.result))")
            return
        }
        #expect(rejectsError.reason.contains("another import in this process is writing its rejects to") && rejectsError.reason.contains("s.rejects.csv"),
                "\(rejectsError)")

        // Once the first is done, the path is free again.
        let again = try SeedImporter(model: model, mapping: mapping).run(into: target)
        #expect(again.objects["E"]?.stored == 2)
    }

    @Test("the README's library example runs: import with the demo's mapping, then a batched fetch through a key path")
    func readmeExample() throws {
        let scratch = ImportScratch()
        let data = try DataSetGenerator.generate(.wells, rows: 300, into: scratch.url.appendingPathComponent("wells"))
        let storePath = scratch.path("Wells.sqlite")
        // As in the README, paths aside.
        let mapping = try ImportMapping(contentsOf: data.mappingFile.url.path)
        var options = ImportOptions(onError: .skip)
        options.progress = .plain
        options.progressOutput = { _ in }
        let summary = try SeedImporter(model: try mapping.loadModel(), mapping: mapping, options: options)
            .run(into: storePath)
        #expect(summary.objects["Well"]?.stored == 300)

        let store = try PersistentStore(path: storePath, options: .init(readOnly: true))
        let context = ManagedObjectContext(store: store)
        let anyOperator = try #require(try context.fetch(FetchRequest(entityName: "Operator")).first)
        let prefix = String(try #require(anyOperator.get("name", as: String.self)).prefix(3))
        var request = FetchRequest(entityName: "Well")
        request.predicate = try FetchPredicate(format: "operator.name BEGINSWITH %@", prefix)
        request.fetchBatchSize = 20
        let uwis = try context.fetch(request).map { $0.get("uwi", as: String.self) ?? "" }
        #expect(!uwis.isEmpty && uwis.allSatisfy { !$0.isEmpty })
    }

    @Test("a cancelled task stops its import: kind cancelled, the store there unchanged, no temporary file left")
    func cancelledTask() async throws {
        let (scratch, model, mapping) = try Self.setUp("a,n\nx,1\n")
        let target = scratch.path("s.sqlite")
        _ = try SeedImporter(model: model, mapping: mapping).run(into: target)
        let before = try Data(contentsOf: URL(fileURLWithPath: target))
        try scratch.write("e.csv", "a,n\n" + (0..<5_000).map { "row \($0),\($0)\n" }.joined())

        let lines = Lines()
        let task = Task { () throws -> ImportSummary in
            var options = ImportOptions()
            options.progress = .plain
            options.progressOutput = { lines.append($0) }
            // The task is cancelled once the import is under way (as a server cancels a request's task).
            options.beforeEachPass = { _ in withUnsafeCurrentTask { $0?.cancel() } }
            return try SeedImporter(model: model, mapping: mapping, options: options).run(into: target)
        }
        guard case .failure(let thrown) = await task.result, let error = thrown as? ImportError else {
            Issue.record("the cancelled import did not stop with an ImportError: \(await task.result)")
            return
        }
        #expect(error.kind == .cancelled && error.reason == "the import was cancelled", "\(error)")
        #expect(error.hint?.contains("s.sqlite is unchanged") == true, "\(error)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == before)
        let left = try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).filter { $0.contains(".importing-") }
        #expect(left.isEmpty, "\(left)")
        // It stopped at its first chunk of rows, not at the end: the finish never began.
        #expect(lines.all.allSatisfy { !$0.contains("(ANALYZE)") }, "\(lines.all)")
    }

    @Test("a task cancelled during the finish leaves the store there as it was")
    func cancelledDuringFinish() async throws {
        let scratch = ImportScratch()
        try scratch.write("m.model.json", Self.model.replacingOccurrences(of: #""type": "String""#, with: #""type": "String", "indexed": true"#))
        try scratch.write("e.csv", "a,n\nx,1\n")
        let model = try ObjectModel(contentsOf: scratch.path("m.model.json"))
        let mapping = try ImportMapping.inferred(sources: [("E", "e.csv")], model: model, baseDirectory: scratch.url.path)
        let target = scratch.path("s.sqlite")
        _ = try SeedImporter(model: model, mapping: mapping).run(into: target)
        let before = try Data(contentsOf: URL(fileURLWithPath: target))
        try scratch.write("e.csv", "a,n\ny,2\n")
        let lines = Lines()
        let task = Task { () throws -> ImportSummary in
            var options = ImportOptions()
            options.progress = .plain
            // Cancelled as the index build starts: the check before ANALYZE stops it.
            options.progressOutput = { line in
                lines.append(line)
                if line.contains("building index 1 of 1") { withUnsafeCurrentTask { $0?.cancel() } }
            }
            return try SeedImporter(model: model, mapping: mapping, options: options).run(into: target)
        }
        guard case .failure(let thrown) = await task.result, let error = thrown as? ImportError else {
            Issue.record("the import cancelled during its finish completed")
            return
        }
        #expect(error.kind == .cancelled, "\(error)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == before)
        #expect(lines.all.contains { $0.contains("building index 1 of 1 (E.a)") } && lines.all.allSatisfy { !$0.contains("(ANALYZE)") },
                "stopped before ANALYZE: \(lines.all)")
    }

    @Test("skip mode into a folder that does not exist names the store's folder, not the rejects file beside it")
    func missingFolderInSkipMode() throws {
        let (scratch, model, mapping) = try Self.setUp("a,n\nx,1\n")
        let error = try #require(throws: ImportError.self) {
            _ = try SeedImporter(model: model, mapping: mapping, options: ImportOptions(onError: .skip)).run(into: scratch.path("nope/dir/x.sqlite"))
        }
        #expect(error.kind == .store)
        #expect(error.reason.contains("the directory") && error.reason.contains("nope/dir does not exist"), "\(error)")
        #expect(!"\(error)".contains("rejects"), "\(error)")
    }
}
