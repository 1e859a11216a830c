import Foundation
import ManagedStore
import SeedImport
import Testing

/// Rows rejected once their file has been read that changed what later rows found run the import again
/// without them: rows of an earlier file rejected along with a later file's rows, and rows whose update
/// or one-to-one partner later rows used. The store then holds exactly what the other rows make.
@Suite("Import: running again without rows rejected late")
struct ImportRerunTests {
    /// A reduced fuzzer case under scripts/fuzz/cases (model, mapping and CSVs), copied to a scratch folder.
    static func fuzzCase(_ name: String, into scratch: ImportScratch) throws -> ImportMapping {
        let folder = ImportFixtures.repository.appendingPathComponent("scripts/fuzz/cases/\(name)")
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path)
        where file.hasSuffix(".csv") || file.hasSuffix(".json") && file != "case.json" {
            try FileManager.default.copyItem(atPath: folder.appendingPathComponent(file).path, toPath: scratch.path(file))
        }
        return try ImportMapping(contentsOf: scratch.path("mapping.json"))
    }

    static func rejectedLines(_ path: String) throws -> [String] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return text.split(separator: "\n").dropFirst().map { line in
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            return "\(fields[0]):\(fields[1])"
        }.sorted()
    }

    /// depts.csv row 4 (08) upserts DeptInfo 0104 (big 12 → null) and takes it from K1; the Emp row is
    /// rejected (its manager never comes), Cascade takes Dept K10, and rows 3 and 4 of depts.csv go with
    /// it. The one-pass import left 0104 with 08's null and without K1; the second run never sees them.
    @Test("a row of an earlier file rejected with a later file's rows leaves neither its update nor its link",
          arguments: [1, 10_000])
    func crossFileRowLeavesNothing(batchSize: Int) throws {
        let scratch = ImportScratch()
        let mapping = try Self.fuzzCase("wrong-value-96425", into: scratch)
        let store = scratch.path("s.sqlite")
        let summary = try SeedImporter(model: try mapping.loadModel(), mapping: mapping, options: scratch.skipping(batchSize: batchSize))
            .run(into: store)
        #expect(try StoreReader.scalar(store, "SELECT group_concat(ZCODE) FROM ZDEPT") == .text("K1"))
        #expect(try StoreReader.scalar(store, "SELECT i.ZCODE || ' ' || i.ZBIG FROM ZDEPTINFO i JOIN ZDEPT d ON d.Z_PK = i.ZHOST AND d.ZINFO = i.Z_PK WHERE d.ZCODE = 'K1'")
                == .text("0104 12"))
        #expect(try StoreReader.scalar(store, "SELECT count(*) FROM ZDEPTINFO") == .integer(1))
        #expect(try Self.rejectedLines(scratch.path("rejects.csv")) == ["depts.csv:3", "depts.csv:4", "emps.csv:2"])
        #expect(summary.rejects == 3)
        #expect(summary.files.map(\.rowsImported) == [1, 0])
        #expect(summary.objects["DeptInfo"].map { "\($0.inserted) \($0.updated) \($0.stored)" } == "1 0 1")
        #expect(summary.duplicates.isEmpty, "08's repeat of 0104 was rejected: \(summary.duplicates)")
        #expect(summary.warnings.contains { $0.contains("the import ran 2 times") }, "\(summary.warnings)")
    }

    /// Row 3 (06, whose manager K4 never comes) takes K103 from 03, so 03's row 4 can link it to k107 and
    /// K13's row 5 can take K103: the one-pass import kept rows 4 and 5 although, without row 3, row 4
    /// would take 03 from K103, whose host is required. Run 2 leaves row 3 out: row 4 is refused, so
    /// row 2's forward key (K1, never made) is no longer replaced by row 4's empty one, row 2 is rejected
    /// and Cascade (Dept.reports) takes K13 with 03. Run 3 leaves rows 2, 3 and 5 out, and row 4 stands.
    @Test("a row that stood only because a row rejected later moved a partner away is decided again")
    func onePassEffectIsUndone() throws {
        let scratch = ImportScratch()
        let mapping = try Self.fuzzCase("accepted-row-takes-required-247841", into: scratch)
        let store = scratch.path("s.sqlite")
        let summary = try SeedImporter(model: try mapping.loadModel(), mapping: mapping, options: scratch.skipping()).run(into: store)
        #expect(try StoreReader.scalar(store, "SELECT group_concat(p, ' ') FROM (SELECT d.ZCODE || '-' || i.ZCODE AS p FROM ZDEPT d JOIN ZDEPTINFO i ON i.ZHOST = d.Z_PK AND d.ZINFO = i.Z_PK ORDER BY 1)")
                == .text("03-k107"))
        #expect(try StoreReader.scalar(store, "SELECT count(*) FROM ZDEPTINFO") == .integer(1))
        #expect(try StoreReader.scalar(store, "SELECT count(*) FROM ZDEPT") == .integer(1))
        #expect(try Self.rejectedLines(scratch.path("rejects.csv")) == ["depts.csv:2", "depts.csv:3", "depts.csv:5"])
        #expect(summary.rejects == 3 && summary.files[0].rowsImported == 1)
        #expect(summary.warnings.contains { $0.contains("the import ran 3 times") }, "\(summary.warnings)")
    }

    /// The same case with fewer runs allowed: the last run's result stays, and the summary says so.
    @Test("past the most runs, the last run's store stays and the summary warns", arguments: [1, 2, 3])
    func runLimit(maxRuns: Int) throws {
        let scratch = ImportScratch()
        let mapping = try Self.fuzzCase("accepted-row-takes-required-247841", into: scratch)
        var options = scratch.skipping()
        options.maxRuns = maxRuns
        let summary = try SeedImporter(model: try mapping.loadModel(), mapping: mapping, options: options).run(into: scratch.path("s.sqlite"))
        let stopped = summary.warnings.contains { $0.contains("stopped running again without them after \(maxRuns) run") }
        #expect(stopped == (maxRuns < 3), "\(summary.warnings)")
        #expect(summary.warnings.contains { $0.contains("the import ran \(maxRuns) times") } == (maxRuns > 1), "\(summary.warnings)")
        // Run 1 rejects row 3 only; run 2 row 4 too (refused as it reads it), then rows 2 and 5 (see above).
        let expected = [1: ["depts.csv:3"], 2: ["depts.csv:2", "depts.csv:3", "depts.csv:4", "depts.csv:5"],
                        3: ["depts.csv:2", "depts.csv:3", "depts.csv:5"]]
        #expect(try Self.rejectedLines(scratch.path("rejects.csv")) == expected[maxRuns])
    }

    /// N1 (notes.csv) names a manager that never comes; Cascade (Note.crate) takes crate C1, made by
    /// crates.csv row 2, whose tag pair is crate_tags.csv row 2: both earlier files' rows go with N1's.
    /// The second run sets the join row aside as it reads it, with the first run's reason, and C2's pair stays.
    @Test("a join row of an earlier file rejected with a later file's rows is set aside as the next run reads it")
    func joinRowOfEarlierFile() throws {
        let scratch = ImportScratch()
        let (summary, rejects, store) = try ImportRemovalChainTests.run(model: """
            {"entities":[
             {"name":"Crate","attributes":[{"name":"code","type":"String","optional":false}],
              "relationships":[{"name":"tags","destination":"Tag","inverse":"crates","toMany":true},
                               {"name":"notes","destination":"Note","inverse":"crate","toMany":true}]},
             {"name":"Tag","attributes":[{"name":"code","type":"String","optional":false}],
              "relationships":[{"name":"crates","destination":"Crate","inverse":"tags","toMany":true}]},
             {"name":"Note","attributes":[{"name":"code","type":"String","optional":false}],
              "relationships":[{"name":"crate","destination":"Crate","inverse":"notes","deleteRule":"Cascade"},
                               {"name":"mgr","destination":"Note","inverse":"reports"},
                               {"name":"reports","destination":"Note","inverse":"mgr","toMany":true}]}]}
            """, mapping: """
            {"format":1,"model":"m.json","files":[
             {"path":"crates.csv","targets":[{"entity":"Crate","key":"code"}]},
             {"path":"tags.csv","targets":[{"entity":"Tag","key":"code"}]},
             {"path":"crate_tags.csv","join":{"entity":"Crate","relationship":"tags","sourceColumn":"crate","sourceKey":"code","destinationColumn":"tag","destinationKey":"code"}},
             {"path":"notes.csv","targets":[{"entity":"Note","key":"code","relationships":{"crate":{"column":"crate","destinationKey":"code"},"mgr":{"column":"mgr","destinationKey":"code"}}}]}]}
            """, files: ["crates.csv": "code\nC1\nC2\n", "tags.csv": "code\nT1\n", "crate_tags.csv": "crate,tag\nC1,T1\nC2,T1\n",
                         "notes.csv": "code,crate,mgr\nN1,C1,NOPE\nN2,C2,\n"], in: scratch)
        #expect(rejects.map { $0.split(separator: ",").prefix(2).joined(separator: ":") }.sorted()
                == ["crate_tags.csv:2", "crates.csv:2", "notes.csv:2"], "\(rejects)")
        #expect(rejects.contains { $0.hasPrefix("crate_tags.csv,2,") && $0.contains("went with the rejected rows of notes.csv") }, "\(rejects)")
        #expect(try StoreReader.scalar(store, "SELECT group_concat(ZCODE) FROM ZCRATE") == .text("C2"))
        #expect(try StoreReader.scalar(store, "SELECT count(*) FROM Z_1TAGS") == .integer(1))
        #expect(summary.files.map(\.rowsImported) == [1, 1, 1, 1])
        #expect(summary.files[2].joins == 1)
        #expect(summary.warnings.contains { $0.contains("the import ran 2 times") }, "\(summary.warnings)")
    }

    /// A rejects path that is not a regular file gets the rows when the import completes (spooled): a
    /// second run must not repeat the first run's rows there.
    @Test("a named pipe as the rejects file gets the final run's rows once")
    func rejectsToAPipe() throws {
        let scratch = ImportScratch()
        let mapping = try Self.fuzzCase("wrong-value-96425", into: scratch)
        let pipe = scratch.path("rejects.pipe")
        #expect(mkfifo(pipe, 0o644) == 0)
        let received = ReceivedBytes()
        let reader = Thread {
            // Blocks until the import opens the pipe to write, then reads to its end.
            let descriptor = open(pipe, O_RDONLY)
            var bytes = Data()
            var buffer = [UInt8](repeating: 0, count: 4096)
            while descriptor >= 0 {
                let count = read(descriptor, &buffer, buffer.count)
                if count <= 0 { break }
                bytes.append(contentsOf: buffer[..<count])
            }
            if descriptor >= 0 { close(descriptor) }
            received.set(bytes)
            received.done.signal()
        }
        reader.start()
        var options = scratch.skipping()
        options.rejectsPath = pipe
        let summary = try SeedImporter(model: try mapping.loadModel(), mapping: mapping, options: options).run(into: scratch.path("s.sqlite"))
        #expect(summary.warnings.contains { $0.contains("the import ran 2 times") })
        #expect(received.done.wait(timeout: .now() + 10) == .success, "the pipe was written and closed")
        let lines = String(decoding: received.get(), as: UTF8.self).split(separator: "\n")
        #expect(lines.first == "file,line,column,entity,attribute,value,reason,raw")
        #expect(lines.dropFirst().map { $0.split(separator: ",").prefix(2).joined(separator: ":") }.sorted()
                == ["depts.csv:3", "depts.csv:4", "emps.csv:2"], "\(lines)")
        let spools = try FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path)
            .filter { $0.hasPrefix(".seedstore-rejects-") && $0.hasSuffix(".importing-\(getpid())") }
        #expect(spools.isEmpty, "no spool file is left: \(spools)")
    }

    /// Every reduced case the fuzzer found, checked by its oracle with the CLI built here: none has a
    /// signal left but those INDEX.txt classes as review.
    @Test("the fuzzer's reduced cases pass its oracle",
          .enabled(if: ImportFixtures.hasCLI, ImportFixtures.cliSkipReason),
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "python3 is missing: the fuzzer's oracle cannot run"))
    func reducedFuzzCases() throws {
        let cases = ImportFixtures.repository.appendingPathComponent("scripts/fuzz/cases")
        let index = try String(contentsOf: cases.appendingPathComponent("INDEX.txt"), encoding: .utf8)
        let entries = index.split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }
        let scratch = ImportScratch()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [ImportFixtures.repository.appendingPathComponent("scripts/fuzz/fuzz.py").path, "case"]
            + entries.map { $0[0] } + ["--bin", ImportFixtures.cli!.path]
        process.environment = ProcessInfo.processInfo.environment.merging(["FUZZ_WORK": scratch.url.path]) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text)")
        let results = Dictionary(text.split(separator: "\n").compactMap { line -> (String, String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), String(line[line.index(after: colon)...]))
        }, uniquingKeysWith: { $1 })
        #expect(results.count == entries.count, "\(text)")
        for entry in entries {
            guard let result = results[entry[0]] else { continue }
            #expect(!result.contains("defect/") && !result.contains("known/"), "\(entry[0]): \(result)")
            if entry[1] != "review" { #expect(result.hasSuffix("no signals"), "\(entry[0]): \(result)") }
        }
    }
}

/// Bytes a reader thread hands to the test.
private final class ReceivedBytes: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    let done = DispatchSemaphore(value: 0)

    func set(_ bytes: Data) { lock.withLock { data = bytes } }
    func get() -> Data { lock.withLock { data } }
}
