import Foundation
import ManagedStore
import SeedImport
import Testing

/// `seedstore import` as a user runs it: exit codes, messages, the summary.
@Suite("Import: the CLI", .enabled(if: ImportFixtures.hasCLI, ImportFixtures.cliSkipReason))
struct ImportCLITests {
    @Test("a mapping import prints the summary and writes --summary-json")
    func success() throws {
        let scratch = ImportScratch()
        let result = try ImportCLI.run([
            "import", "--mapping", ImportFixtures.path("mappings/people.mapping.json"), "--out", scratch.path("People.sqlite"),
            "--progress", "plain", "--summary-json", scratch.path("summary.json"),
        ])
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.contains("Person: 5 objects (5 inserted)"))
        #expect(result.errors.contains("import: building indexes…"), "plain progress lines on standard error")
        #expect(result.output.contains("peak memory"))
        let summary = try JSONDecoder().decode(ImportSummary.self, from: Data(contentsOf: URL(fileURLWithPath: scratch.path("summary.json"))))
        #expect(summary.objects["Team"]?.stored == 6)
        #expect((summary.peakMemoryBytes ?? 0) > 1_000_000)
        #expect(summary.duplicates.first?.lines == [8])
    }

    @Test("Entity=file.csv without a mapping")
    func withoutMapping() throws {
        let scratch = ImportScratch()
        let result = try ImportCLI.run([
            "import", "--model", ImportFixtures.path("models/import-basics.model.json"), "--out", scratch.path("People.sqlite"),
            "--progress", "none", "Person=\(ImportFixtures.path("csv/people.csv"))", "Team=\(ImportFixtures.path("csv/teams.csv"))",
        ])
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.contains("Person: 5 objects"))
        #expect(try StoreReader.scalar(scratch.path("People.sqlite"), "SELECT count(*) FROM ZPERSON WHERE ZTEAM IS NOT NULL") == .integer(4))
    }

    @Test("a bad row aborts with exit code 1 and the place; skip mode exits 0 with the rejects")
    func badRows() throws {
        let scratch = ImportScratch()
        let mapping = ImportFixtures.path("mappings/people-bad.mapping.json")
        let aborted = try ImportCLI.run(["import", "--mapping", mapping, "--out", scratch.path("People.sqlite")])
        #expect(aborted.status == 1)
        #expect(aborted.errors.contains("error: ../csv/people-bad.csv:3:6: Person.height (\"Height\" = \"1,78\"): not a number"))
        #expect(!FileManager.default.fileExists(atPath: scratch.path("People.sqlite")))

        let skipped = try ImportCLI.run([
            "import", "--mapping", mapping, "--out", scratch.path("People.sqlite"), "--on-error", "skip",
            "--rejects", scratch.path("rejects.csv"), "--progress", "none",
        ])
        #expect(skipped.status == 0, "\(skipped.errors)")
        #expect(skipped.output.contains("rejects: 9 written to \(scratch.path("rejects.csv"))"))
    }

    @Test("mapping errors exit with 2, usage errors with 64")
    func exitCodes() throws {
        let scratch = ImportScratch()
        try scratch.write("bad.mapping.json", #"{"format": 1, "model": "\#(ImportFixtures.path("models/import-basics.model.json"))", "files": [{"path": "missing.csv", "targets": [{"entity": "Team"}]}]}"#)
        let mapping = try ImportCLI.run(["import", "--mapping", scratch.path("bad.mapping.json"), "--out", scratch.path("Out.sqlite")])
        #expect(mapping.status == 2)
        #expect(mapping.errors.contains("missing.csv: cannot open"))
        let usage = try ImportCLI.run(["import", "--out", scratch.path("Out.sqlite")])
        #expect(usage.status == 64)
        #expect(usage.errors.contains("Give --mapping MAPPING, or the files as Entity=path.csv arguments."))
        let rejectsWithoutSkip = try ImportCLI.run(["import", "--mapping", scratch.path("bad.mapping.json"), "--out", "x", "--rejects", "r.csv"])
        #expect(rejectsWithoutSkip.status == 64)
        #expect(scratch.files == ["bad.mapping.json"])
    }
}
