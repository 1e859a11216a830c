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
        #expect(result.errors.contains("import: building index 1 of "), "plain progress lines on standard error: \(result.errors)")
        #expect(result.output.contains("peak memory"))
        let json = try Data(contentsOf: URL(fileURLWithPath: scratch.path("summary.json")))
        // A user trial: `cat summary.json` left the prompt on its last line.
        #expect(json.last == UInt8(ascii: "\n") && json.dropLast().last == UInt8(ascii: "}"), "one line break at the end")
        let summary = try JSONDecoder().decode(ImportSummary.self, from: json)
        #expect(summary.objects["Team"]?.stored == 6)
        #expect((summary.peakMemoryBytes ?? 0) > 1_000_000)
        #expect(summary.duplicates.first?.lines == [8])
    }

    @Test("--rejects naming an input, the mapping or the store is refused, and nothing is deleted (found by fuzzing)")
    func rejectsPathConflicts() throws {
        let scratch = ImportScratch()
        let model = ImportFixtures.path("models/import-basics.model.json")
        try scratch.write("people.csv", try String(contentsOfFile: ImportFixtures.path("csv/people.csv"), encoding: .utf8))
        try scratch.write("teams.csv", try String(contentsOfFile: ImportFixtures.path("csv/teams.csv"), encoding: .utf8))
        let good = try ImportCLI.run(["import", "--model", model, "--out", scratch.path("P.sqlite"), "--progress", "none",
                                      "Person=\(scratch.path("people.csv"))", "Team=\(scratch.path("teams.csv"))"])
        #expect(good.status == 0, "\(good.errors)")
        let store = try Data(contentsOf: URL(fileURLWithPath: scratch.path("P.sqlite")))
        for (rejects, role) in [(scratch.path("people.csv"), "an input file"), (scratch.path("P.sqlite"), "the store (--out)"),
                                (scratch.url.appendingPathComponent("./teams.csv").path, "an input file")] {
            let result = try ImportCLI.run(["import", "--model", model, "--out", scratch.path("P.sqlite"), "--progress", "none",
                                            "--on-error", "skip", "--rejects", rejects,
                                            "Person=\(scratch.path("people.csv"))", "Team=\(scratch.path("teams.csv"))"])
            #expect(result.status != 0 && result.errors.contains("is \(role); it would be overwritten"), "\(rejects): \(result.errors)")
        }
        #expect(FileManager.default.fileExists(atPath: scratch.path("people.csv")) && FileManager.default.fileExists(atPath: scratch.path("teams.csv")))
        #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.path("P.sqlite"))) == store, "the store is untouched")
    }

    /// A user trial was offered bank.new.mapping.json for a taken --save-mapping path, a file it had saved before.
    @Test("a taken --save-mapping or --summary-json path gets a suggestion that names no file, in the directory given")
    func ownPathSuggestionIsFree() throws {
        let scratch = ImportScratch()
        try scratch.write("m.model.json", try String(contentsOfFile: ImportFixtures.path("models/import-basics.model.json"), encoding: .utf8))
        try FileManager.default.createDirectory(atPath: scratch.path("in"), withIntermediateDirectories: true)
        try scratch.write("in/people.csv", try String(contentsOfFile: ImportFixtures.path("csv/people.csv"), encoding: .utf8))
        try scratch.write("in/teams.csv", try String(contentsOfFile: ImportFixtures.path("csv/teams.csv"), encoding: .utf8))
        func importing(_ extra: [String]) throws -> CLIResult {
            try ImportCLI.run(["import", "--model", "m.model.json", "--out", "P.sqlite", "--progress", "none"] + extra
                              + ["Person=in/people.csv", "Team=in/teams.csv"], directory: scratch.url)
        }
        let first = try importing(["--save-mapping", "in/people.csv"])
        #expect(first.status == 2 && first.errors.contains("such as in/people.mapping.json."), "\(first.errors)")
        // Taken names are passed over; a link that leads nowhere counts as taken, as writing would follow it.
        try scratch.write("in/people.mapping.json", "{}")
        try scratch.write("in/people.new.mapping.json", "{}")
        try FileManager.default.createSymbolicLink(atPath: scratch.path("in/people.new2.mapping.json"), withDestinationPath: "nowhere.json")
        let taken = try importing(["--save-mapping", "in/people.csv"])
        #expect(taken.status == 2 && taken.errors.contains("such as in/people.new3.mapping.json."), "\(taken.errors)")
        try scratch.write("in/teams.summary.json", "{}")
        let summary = try importing(["--summary-json", "in/teams.csv"])
        #expect(summary.status == 2 && summary.errors.contains("such as in/teams.new.summary.json."), "\(summary.errors)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("P.sqlite")))
    }

    /// `--summary-json notes.txt` or `--save-mapping report.json` replaced any existing file the import
    /// neither reads nor writes (a typo cost the file); only what such an option writes is replaced now.
    @Test("--summary-json and --save-mapping replace only a summary or a mapping, an empty file, or nothing")
    func outputsReplaceOnlyTheirOwn() throws {
        let scratch = ImportScratch()
        try scratch.write("m.model.json", try String(contentsOfFile: ImportFixtures.path("models/import-basics.model.json"), encoding: .utf8))
        try scratch.write("people.csv", try String(contentsOfFile: ImportFixtures.path("csv/people.csv"), encoding: .utf8))
        try scratch.write("teams.csv", try String(contentsOfFile: ImportFixtures.path("csv/teams.csv"), encoding: .utf8))
        func importing(_ extra: [String]) throws -> CLIResult {
            try ImportCLI.run(["import", "--model", "m.model.json", "--out", "P.sqlite", "--progress", "none"] + extra
                              + ["Person=people.csv", "Team=teams.csv"], directory: scratch.url)
        }
        try scratch.write("notes.txt", "my notes\n")
        try scratch.write("report.json", #"{"title": "Q3"}"#)
        for (option, path, what) in [("--summary-json", "notes.txt", "a summary seedstore import wrote"),
                                     ("--summary-json", "report.json", "a summary seedstore import wrote"),
                                     ("--save-mapping", "notes.txt", "a mapping"), ("--save-mapping", "report.json", "a mapping")] {
            let refused = try importing([option, path])
            #expect(refused.status == 2 && refused.errors.contains("\(option) \(path) exists and is not \(what); it would be replaced"),
                    "\(option) \(path): \(refused.errors)")
            #expect(refused.errors.contains("or remove the file first if it may go. Nothing was imported."), "\(refused.errors)")
        }
        #expect(try String(contentsOfFile: scratch.path("notes.txt"), encoding: .utf8) == "my notes\n")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("P.sqlite")))
        // Their own files are replaced: a second run over the first's summary and mapping, and an empty file.
        try scratch.write("empty.json", "")
        let first = try importing(["--summary-json", "s.json", "--save-mapping", "m.mapping.json"])
        #expect(first.status == 0, "\(first.errors)")
        let again = try importing(["--summary-json", "s.json", "--save-mapping", "m.mapping.json"])
        #expect(again.status == 0, "\(again.errors)")
        #expect(try importing(["--summary-json", "empty.json"]).status == 0)
    }

    /// `--summary-json` was written after the import wherever it pointed: over an input, the model, the
    /// rejects file, even the store just made (a user trial). It is checked with the other outputs first.
    @Test("--summary-json naming a file the import reads or writes, or a place it cannot write, is refused before importing")
    func summaryPathConflicts() throws {
        let scratch = ImportScratch()
        try scratch.write("m.model.json", try String(contentsOfFile: ImportFixtures.path("models/import-basics.model.json"), encoding: .utf8))
        try scratch.write("people.csv", try String(contentsOfFile: ImportFixtures.path("csv/people.csv"), encoding: .utf8))
        try scratch.write("teams.csv", try String(contentsOfFile: ImportFixtures.path("csv/teams.csv"), encoding: .utf8))
        let inputs = ["Person=people.csv", "Team=teams.csv"]
        func importing(_ extra: [String]) throws -> CLIResult {
            try ImportCLI.run(["import", "--model", "m.model.json", "--out", "P.sqlite", "--progress", "none"] + extra + inputs,
                              directory: scratch.url)
        }
        let good = try importing([])
        #expect(good.status == 0, "\(good.errors)")
        try scratch.write("P.rejects.csv", "file,line,column,entity,attribute,value,reason,raw\n")
        let before = try ["m.model.json", "people.csv", "teams.csv", "P.sqlite", "P.rejects.csv"].map {
            try Data(contentsOf: scratch.url.appendingPathComponent($0))
        }
        for (path, extra, role) in [("people.csv", [], "an input file"), ("./teams.csv", [], "an input file"), ("m.model.json", [], "the model"),
                                    ("P.sqlite", [], "the store (--out)"), ("P.rejects.csv", ["--on-error", "skip"], "the rejects file"),
                                    ("s.json", ["--save-mapping", "s.json"], "the mapping --save-mapping writes")] {
            let result = try importing(extra + ["--summary-json", path])
            #expect(result.status == 2 && result.errors.contains("--summary-json \(path) is \(role); the summary would replace it"),
                    "\(path): \(result.errors)")
        }
        let after = try ["m.model.json", "people.csv", "teams.csv", "P.sqlite", "P.rejects.csv"].map {
            try Data(contentsOf: scratch.url.appendingPathComponent($0))
        }
        #expect(after == before, "nothing the import reads or wrote is touched")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("s.json")), "nothing imported, no mapping saved")

        let nowhere = try importing(["--summary-json", "missing/dir/s.json"])
        #expect(nowhere.status == 2 && nowhere.errors.contains("missing/dir does not exist"), "\(nowhere.errors)")
        let folder = try importing(["--summary-json", "."])
        #expect(folder.status == 2 && folder.errors.contains("is a directory"), "\(folder.errors)")
        #expect(try Data(contentsOf: scratch.url.appendingPathComponent("P.sqlite")) == before[3], "the store is untouched")

        // A device is written as it is: the summary can go to standard output, alone (the text goes to stderr).
        let piped = try importing(["--summary-json", "/dev/stdout"])
        #expect(piped.status == 0, "\(piped.errors)")
        #expect(try JSONDecoder().decode(ImportSummary.self, from: Data(piped.output.utf8)).objects["Person"]?.stored == 5, "\(piped.output)")
        #expect(piped.output.hasSuffix("}\n"), "\(piped.output)")
        #expect(piped.errors.contains("Imported P.sqlite"), "\(piped.errors)")
    }

    /// A user trial's `--out link.sqlite` replaced the link with a new file and left the store it named as
    /// it was: the link now stands for its file, as for `--rejects`.
    @Test("--out naming a symbolic link to a store replaces that store, and the link stays")
    func outThroughLink() throws {
        let scratch = ImportScratch()
        let model = ImportFixtures.path("models/import-basics.model.json")
        let inputs = ["Person=\(ImportFixtures.path("csv/people.csv"))", "Team=\(ImportFixtures.path("csv/teams.csv"))"]
        try FileManager.default.createDirectory(atPath: scratch.path("stores"), withIntermediateDirectories: true)
        let first = try ImportCLI.run(["import", "--model", model, "--out", scratch.path("stores/P.sqlite"), "--progress", "none", inputs[1]])
        #expect(first.status == 0, "\(first.errors)")
        try FileManager.default.createSymbolicLink(atPath: scratch.path("link.sqlite"), withDestinationPath: scratch.path("stores/P.sqlite"))
        let again = try ImportCLI.run(["import", "--model", model, "--out", scratch.path("link.sqlite"), "--progress", "none"] + inputs)
        #expect(again.status == 0, "\(again.errors)")
        var info = stat()
        #expect(lstat(scratch.path("link.sqlite"), &info) == 0 && info.st_mode & S_IFMT == S_IFLNK, "the link stays a link")
        #expect(try StoreReader.scalar(scratch.path("stores/P.sqlite"), "SELECT count(*) FROM ZPERSON") == .integer(5), "the store it names is the new one")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path("stores")) == ["P.sqlite"], "no temporary file left")
    }

    /// `--rejects DIR` once removed the directory and everything in it (a user trial lost `/tmp` this way):
    /// an earlier rejects file is removed only when it is a regular file.
    @Test("--rejects naming a directory, a missing folder or a special file never deletes it")
    func rejectsPathIsNotAFile() throws {
        let scratch = ImportScratch()
        let model = ImportFixtures.path("models/import-basics.model.json")
        let inputs = ["Person=\(ImportFixtures.path("csv/people.csv"))", "Team=\(ImportFixtures.path("csv/teams.csv"))"]
        func importing(rejects: String) throws -> CLIResult {
            try ImportCLI.run(["import", "--model", model, "--out", scratch.path("P.sqlite"), "--progress", "none",
                               "--on-error", "skip", "--rejects", rejects] + inputs)
        }
        try FileManager.default.createDirectory(atPath: scratch.path("Kept"), withIntermediateDirectories: true)
        try scratch.write("Kept/precious.txt", "keep me")
        let directory = try importing(rejects: scratch.path("Kept"))
        #expect(directory.status != 0 && directory.errors.contains("--rejects names a directory"), "\(directory.errors)")
        #expect(try String(contentsOfFile: scratch.path("Kept/precious.txt"), encoding: .utf8) == "keep me")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("P.sqlite")), "refused before the import")

        let missing = try importing(rejects: scratch.path("Nowhere/rejects.csv"))
        #expect(missing.status != 0 && missing.errors.contains("the folder of the rejects file does not exist"), "\(missing.errors)")

        // A named pipe stands for any special file (/dev/null): these inputs have no rejects, so nothing
        // opens it, and it must still be there afterwards.
        #expect(mkfifo(scratch.path("pipe"), 0o644) == 0)
        let pipe = try importing(rejects: scratch.path("pipe"))
        #expect(pipe.status == 0, "\(pipe.errors)")
        var info = stat()
        #expect(lstat(scratch.path("pipe"), &info) == 0 && info.st_mode & S_IFMT == S_IFIFO, "the pipe is not removed")

        // An earlier run's regular rejects file still goes, so it cannot pass for this run's.
        try scratch.write("old.rejects.csv", "file,line,column,entity,attribute,value,reason,raw\nstale\n")
        let regular = try importing(rejects: scratch.path("old.rejects.csv"))
        #expect(regular.status == 0, "\(regular.errors)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("old.rejects.csv")))
    }

    /// A user trial replaced an input CSV and the model with the store (exit 0).
    @Test("--out naming an input, the model, the mapping or any file that is not a store is refused, and the file kept")
    func outIsNotAStore() throws {
        let scratch = ImportScratch()
        let people = try scratch.write("people.csv", try String(contentsOfFile: ImportFixtures.path("csv/people.csv"), encoding: .utf8))
        let teams = try scratch.write("teams.csv", try String(contentsOfFile: ImportFixtures.path("csv/teams.csv"), encoding: .utf8))
        let model = try scratch.write("m.json", try String(contentsOfFile: ImportFixtures.path("models/import-basics.model.json"), encoding: .utf8))
        let notes = try scratch.write("notes.txt", "my notes")
        let inputs = ["Person=\(people)", "Team=\(teams)"]
        for (out, expected) in [(people, "is an input file"), (model, "is the model"), (notes, "not an SQLite store")] {
            let before = try Data(contentsOf: URL(fileURLWithPath: out))
            let result = try ImportCLI.run(["import", "--model", model, "--out", out, "--progress", "none"] + inputs)
            #expect(result.status != 0 && result.errors.contains(expected), "\(out): \(result.errors)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: out)) == before, "\(out) is unchanged")
        }
        let mappingPath = try scratch.write("people.mapping.json", try String(contentsOfFile: ImportFixtures.path("mappings/people.mapping.json"), encoding: .utf8)
            .replacingOccurrences(of: "\"../", with: "\"\(ImportFixtures.path("mappings"))/../"))
        let viaMapping = try ImportCLI.run(["import", "--mapping", mappingPath, "--out", mappingPath, "--progress", "none"])
        #expect(viaMapping.status != 0 && viaMapping.errors.contains("is the mapping"), "\(viaMapping.errors)")
        // Another program's SQLite database is not a store either (a user trial lost its table).
        let other = scratch.path("other.db")
        do {
            let connection = try Connection(path: other)
            try connection.execute("CREATE TABLE important (x)")
            try connection.execute("INSERT INTO important VALUES ('keep me')")
        }
        let otherBefore = try Data(contentsOf: URL(fileURLWithPath: other))
        let foreign = try ImportCLI.run(["import", "--model", model, "--out", other, "--progress", "none"] + inputs)
        #expect(foreign.status != 0, "\(foreign.errors)")
        #expect(foreign.errors.contains("is not a Core Data-style store (it has no Z_PRIMARYKEY and Z_METADATA, and holds the table important)"),
                "\(foreign.errors)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: other)) == otherBefore)
        // One of the store's two tables is not enough, and the message names the one missing.
        let half = scratch.path("half.db")
        do {
            let connection = try Connection(path: half)
            try connection.execute("CREATE TABLE Z_PRIMARYKEY (x)")
            try connection.execute("CREATE TABLE important (x)")
        }
        let halfResult = try ImportCLI.run(["import", "--model", model, "--out", half, "--progress", "none"] + inputs)
        #expect(halfResult.errors.contains("(it has no Z_METADATA, and holds the tables Z_PRIMARYKEY, important)"), "\(halfResult.errors)")
        // A database whose schema cannot be read may be anything: kept, not replaced (a check of the fix).
        var damaged = try Data(contentsOf: URL(fileURLWithPath: other))
        for i in 100..<min(4096, damaged.count) { damaged[i] = 0xAB }
        try damaged.write(to: URL(fileURLWithPath: scratch.path("damaged.db")))
        let damagedResult = try ImportCLI.run(["import", "--model", model, "--out", scratch.path("damaged.db"), "--progress", "none"] + inputs)
        #expect(damagedResult.status != 0 && damagedResult.errors.contains("whose tables cannot be read"), "\(damagedResult.errors)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.path("damaged.db"))) == damaged)
        // A store (and an empty file) is still replaced.
        try scratch.write("empty.sqlite", "")
        for out in [scratch.path("empty.sqlite"), scratch.path("new.sqlite"), scratch.path("new.sqlite")] {
            let result = try ImportCLI.run(["import", "--model", model, "--out", out, "--progress", "none"] + inputs)
            #expect(result.status == 0, "\(out): \(result.errors)")
        }
        // Core Data's own store is a store: replaced as asked.
        if ImportFixtures.hasReal {
            let books = scratch.path("Books.sqlite")
            try FileManager.default.copyItem(atPath: ImportFixtures.real.appendingPathComponent("coredata-books/CoreDataBooks.sqlite").path, toPath: books)
            let replaced = try ImportCLI.run(["import", "--model", model, "--out", books, "--progress", "none"] + inputs)
            #expect(replaced.status == 0, "\(replaced.errors)")
        }
    }

    @Test("--out naming a directory is refused before the import, leaving nothing behind (found by fuzzing)")
    func outIsADirectory() throws {
        let scratch = ImportScratch()
        try FileManager.default.createDirectory(atPath: scratch.path("Out"), withIntermediateDirectories: true)
        let result = try ImportCLI.run(["import", "--model", ImportFixtures.path("models/import-basics.model.json"), "--out", scratch.path("Out"),
                                        "--progress", "none", "Person=\(ImportFixtures.path("csv/people.csv"))", "Team=\(ImportFixtures.path("csv/teams.csv"))"])
        #expect(result.status == 1 && result.errors.contains("--out names a directory"), "\(result.errors)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).filter { $0.contains("importing") }.isEmpty)
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

    /// Ten real related files without a mapping file: relationships found from the headers (an order's
    /// `customerID` names `Customer.customerID`), files ordered by them, `NULL` as null, and the ragged rows
    /// with what names them set aside, as with the mapping (ImportRealFixturesTests.northwind).
    @Test("Entity=file.csv on the Northwind tables: relationships from the headers, the same rows stand",
          .enabled(if: ImportFixtures.hasReal, ImportFixtures.realSkipReason))
    func withoutMappingNorthwind() throws {
        let scratch = ImportScratch()
        let data = ImportFixtures.real.appendingPathComponent("northwind-neo4j")
        let files = ["Customer=customers.csv", "Order=orders.csv", "OrderLine=order-details.csv", "Product=products.csv",
                     "Supplier=suppliers.csv", "Category=categories.csv", "Employee=employees.csv", "Shipper=shippers.csv",
                     "Region=regions.csv", "Territory=territories.csv"]
        let result = try ImportCLI.run(["import", "--model", ImportFixtures.path("models/northwind.model.json"),
                                        "--out", scratch.path("N.sqlite"), "--on-error", "skip", "--progress", "none"] + files,
                                       directory: data)
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.contains("order-details.csv → OrderLine: 2,155 rows read, 1,064 imported, 1,091 rejected"), "\(result.output)")
        #expect(result.output.contains("rejects: 1,325 written to \(scratch.path("N.rejects.csv"))"), "\(result.output)")
        #expect(result.output.contains("warning: employees.csv → Employee: no attribute takes the column \"reportsTo\""),
                "a column named like no relationship nor destination attribute is listed, not guessed")
        let customers = try StoreReader.scalar(scratch.path("N.sqlite"), """
            SELECT count(DISTINCT c.Z_PK) FROM ZORDER o JOIN ZCUSTOMER c ON o.ZCUSTOMER = c.Z_PK
            """)
        #expect(customers == .integer(67), "every order stands linked to its customer, and every customer standing has orders")

        // The mapping made from the headers, saved and given back, imports the same.
        let saved = try ImportCLI.run(["import", "--model", ImportFixtures.path("models/northwind.model.json"),
                                       "--out", scratch.path("S.sqlite"), "--on-error", "skip", "--progress", "none",
                                       "--save-mapping", scratch.path("northwind.mapping.json")] + files, directory: data)
        #expect(saved.status == 0, "\(saved.errors)")
        #expect(saved.errors.contains("wrote the mapping to \(scratch.path("northwind.mapping.json"))"), "\(saved.errors)")
        let again = try ImportCLI.run(["import", "--mapping", scratch.path("northwind.mapping.json"), "--out", scratch.path("M.sqlite"),
                                       "--on-error", "skip", "--progress", "none"])
        #expect(again.status == 0, "\(again.errors)")
        func counts(_ output: String) -> [Substring] {
            output.split(separator: "\n").filter { $0.contains(" rows read") || $0.contains(" objects") }.map { $0.drop { $0 == " " } }
                .map { line in line.hasPrefix("/") ? line.split(separator: "/").last! : line }
        }
        #expect(counts(again.output) == counts(result.output), "\(again.output)")
        #expect(!counts(again.output).isEmpty)
        #expect(try StoreReader.scalar(scratch.path("N.sqlite"), "SELECT count(*) FROM ZORDER WHERE ZSHIPPEDDATE IS NULL") == .integer(18),
                "NULL dates are null")
    }

    /// Without a mapping file, dates other than ISO 8601 need --date-format: the FDIC list's `28-Jul-23`.
    @Test("Entity=file.csv with --date-format and --pivot-year reads the FDIC list's two-digit years",
          .enabled(if: ImportFixtures.hasReal, ImportFixtures.realSkipReason))
    func withoutMappingDateFormat() throws {
        let scratch = ImportScratch()
        try scratch.write("bank.model.json", """
            {"entities": [{"name": "Bank", "attributes": [
              {"name": "bankName", "type": "String", "optional": false}, {"name": "city", "type": "String"},
              {"name": "state", "type": "String"}, {"name": "cert", "type": "Integer 32", "optional": false},
              {"name": "acquiringInstitution", "type": "String"}, {"name": "closingDate", "type": "Date"},
              {"name": "fund", "type": "Integer 32"}]}]}
            """)
        let banklist = "Bank=" + ImportFixtures.real.appendingPathComponent("fdic-banklist-2023/banklist.csv").path
        let base = ["import", "--model", "bank.model.json", "--out", "B.sqlite", "--progress", "none", "--encoding", "windows-1252"]
        let iso = try ImportCLI.run(base + [banklist], directory: scratch.url)
        #expect(iso.status == 1)
        #expect(iso.errors.contains("Bank.closingDate (\"Closing Date\" = \"28-Jul-23\"): not an ISO 8601 date"), "\(iso.errors)")
        #expect(iso.errors.contains("unless --date-format gives how they are written (--date-format dd/MM/yyyy;"), "\(iso.errors)")

        let read = try ImportCLI.run(base + ["--date-format", "d-MMM-yy", "--pivot-year", "2000", banklist], directory: scratch.url)
        #expect(read.status == 0, "\(read.errors)")
        #expect(read.output.contains("Bank: 567 objects"))
        do {
            // Closed before the next import replaces the store (one this process holds open is not replaced).
            let (context, banks) = try StoreReader.objects(scratch.path("B.sqlite"), "Bank")
            let honolulu = banks.first { $0["bankName"] == .string("Bank of Honolulu") }
            #expect(honolulu?["closingDate"] == .date(Date.utc(2000, 10, 13)), "13-Oct-00 is 2000 with --pivot-year 2000")
            withExtendedLifetime(context) {}
        }

        // Saved with the options, the mapping reads the same without them.
        let saving = try ImportCLI.run(base + ["--date-format", "d-MMM-yy", "--pivot-year", "2000", "--save-mapping", "bank.mapping.json", banklist],
                                       directory: scratch.url)
        #expect(saving.status == 0, "\(saving.errors)")
        let saved = try String(contentsOfFile: scratch.path("bank.mapping.json"), encoding: .utf8)
        #expect(saved.contains("\"model\": \"bank.model.json\""), "\(saved)")
        #expect(saved.contains("\"encoding\": \"windows-1252\""), "\(saved)")
        #expect(saved.contains("\"closingDate\": {\"column\": \"Closing Date\", \"format\": \"d-MMM-yy\", \"pivotYear\": 2000}"), "\(saved)")
        let mapped = try ImportCLI.run(["import", "--mapping", "bank.mapping.json", "--out", "C.sqlite", "--progress", "none"], directory: scratch.url)
        #expect(mapped.status == 0, "\(mapped.errors)")
        #expect(mapped.output.contains("Bank: 567 objects"))
        let (savedContext, savedBanks) = try StoreReader.objects(scratch.path("C.sqlite"), "Bank")
        #expect(savedBanks.first { $0["bankName"] == .string("Bank of Honolulu") }?["closingDate"] == .date(Date.utc(2000, 10, 13)))
        withExtendedLifetime(savedContext) {}
        // With --mapping, the mapping saved is that one with the options given written in.
        let both = try ImportCLI.run(["import", "--mapping", "bank.mapping.json", "--out", "D.sqlite", "--null", "", "--null", "n/a",
                                      "--save-mapping", "again.mapping.json"], directory: scratch.url)
        #expect(both.status == 0, "\(both.errors)")
        let againText = try String(contentsOfFile: scratch.path("again.mapping.json"), encoding: .utf8)
        #expect(againText.contains("\"nullTokens\": [\"\", \"n/a\"]") && againText.contains("\"pivotYear\": 2000"), "\(againText)")
        let over = try ImportCLI.run(["import", "--mapping", "bank.mapping.json", "--out", "D.sqlite", "--save-mapping", "bank.mapping.json"],
                                     directory: scratch.url)
        #expect(over.status == 2 && over.errors.contains("--save-mapping bank.mapping.json is the mapping given; the mapping would replace it"), "\(over.errors)")
        // A user trial was offered bank.mapping.mapping.json.
        #expect(over.errors.contains("such as bank.new.mapping.json."), "\(over.errors)")
        let nowhere = try ImportCLI.run(["import", "--model", "bank.model.json", "--out", "E.sqlite", "--encoding", "windows-1252",
                                         "--save-mapping", "missing/dir/bank.mapping.json", banklist], directory: scratch.url)
        #expect(nowhere.status == 2 && nowhere.errors.contains("cannot write the mapping"), "\(nowhere.errors)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("E.sqlite")), "nothing is imported when the mapping cannot be saved")
        let clobber = try ImportCLI.run(["import", "--model", "bank.model.json", "--out", "E.sqlite", "--save-mapping", "./bank.model.json", banklist],
                                        directory: scratch.url)
        #expect(clobber.status == 2 && clobber.errors.contains("--save-mapping ./bank.model.json is the model; the mapping would replace it"), "\(clobber.errors)")
        #expect(try String(contentsOfFile: scratch.path("bank.model.json"), encoding: .utf8).contains("\"entities\""), "the model is untouched")

        let bad = try ImportCLI.run(base + ["--date-format", "dd.QQ.yyyy", banklist], directory: scratch.url)
        #expect(bad.status == 64 && bad.errors.contains("--date-format: unknown date format 'dd.QQ.yyyy'"), "\(bad.errors)")
        let pivot = try ImportCLI.run(base + ["--pivot-year", "20", banklist], directory: scratch.url)
        #expect(pivot.status == 64 && pivot.errors.contains("--pivot-year takes a year from 1000 to 9899"), "\(pivot.errors)")
    }

    @Test("a bad row aborts with exit code 1 and the place; skip mode exits 0 with the rejects")
    func badRows() throws {
        let scratch = ImportScratch()
        let mapping = ImportFixtures.path("mappings/people-bad.mapping.json")
        let aborted = try ImportCLI.run(["import", "--mapping", mapping, "--out", scratch.path("People.sqlite")],
                                        directory: URL(fileURLWithPath: ImportFixtures.path("mappings")))
        #expect(aborted.status == 1)
        #expect(aborted.errors.contains("error: ../csv/people-bad.csv:3:6: Person.height (\"Height\" = \"1,78\"): not a number"), "\(aborted.errors)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("People.sqlite")))
        // Run from elsewhere, the place is named from there, so it can be opened (a user trial found
        // paths relative to the mapping's directory that led nowhere from the current one).
        let fromFixtures = try ImportCLI.run(["import", "--mapping", "mappings/people-bad.mapping.json", "--out", scratch.path("People.sqlite"),
                                              "--on-error", "skip", "--rejects", scratch.path("r.csv"), "--progress", "none"],
                                             directory: URL(fileURLWithPath: ImportFixtures.path("")))
        #expect(fromFixtures.status == 0, "\(fromFixtures.errors)")
        let rejects = try String(contentsOfFile: scratch.path("r.csv"), encoding: .utf8)
        #expect(rejects.contains("\ncsv/people-bad.csv,3,6,Person,height,\"1,78\","), "\(rejects)")
        #expect(fromFixtures.output.contains("csv/people-bad.csv → Person:"), "\(fromFixtures.output)")

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
        #expect(mapping.errors.contains("missing.csv: cannot open the file: No such file or directory"), "\(mapping.errors)")
        let usage = try ImportCLI.run(["import", "--out", scratch.path("Out.sqlite")])
        #expect(usage.status == 64)
        #expect(usage.errors.contains("Give --mapping MAPPING, or the files as Entity=path.csv arguments."))
        let rejectsWithoutSkip = try ImportCLI.run(["import", "--mapping", scratch.path("bad.mapping.json"), "--out", "x", "--rejects", "r.csv"])
        #expect(rejectsWithoutSkip.status == 64)
        #expect(scratch.files == ["bad.mapping.json"])
    }

    @Test("the issue's enc.csv: the error names the bad byte's offset and suggests --encoding; the header too")
    func invalidBytes() throws {
        let scratch = ImportScratch()
        try scratch.write("m.model.json", ImportEncodingErrorTests.modelJSON)
        try Data(ImportEncodingErrorTests.enc).write(to: URL(fileURLWithPath: scratch.path("enc.csv")))
        let result = try ImportCLI.run(["import", "--model", "m.model.json", "--out", "x.sqlite", "--progress", "none", "R=enc.csv"],
                                       directory: scratch.url)
        #expect(result.status == 1)
        #expect(result.errors.contains("error: enc.csv:3:3: R.note (\"note\" = \"caf\u{FFFD}\"): byte 0xE9 is not valid UTF-8 (byte offset 31)\n"),
                "\(result.errors)")
        #expect(result.errors.contains("re-run with --encoding windows1252"))
        let decoded = try ImportCLI.run(["import", "--model", "m.model.json", "--out", "x.sqlite", "--progress", "none", "--encoding", "latin1",
                                         "R=enc.csv"], directory: scratch.url)
        #expect(decoded.status == 0, "\(decoded.errors)")

        try Data(Array("code,amount,not".utf8) + [0xE9] + Array("\nA,1,ok\n".utf8)).write(to: URL(fileURLWithPath: scratch.path("h.csv")))
        let header = try ImportCLI.run(["import", "--model", "m.model.json", "--out", "y.sqlite", "R=h.csv"], directory: scratch.url)
        #expect(header.status == 2)
        #expect(header.errors.contains("  - h.csv:1:3: the header cannot be read: byte 0xE9 is not valid UTF-8 (byte offset 15)"), "\(header.errors)")
        #expect(header.errors.contains("--encoding windows1252"))
        #expect(!header.errors.contains("Name each file as Entity=path.csv"))
        #expect(!FileManager.default.fileExists(atPath: scratch.path("y.sqlite")))
    }

    /// A user trial: a Windows-1252 file read with --encoding latin1 stored its curly quotes and € as
    /// invisible C1 control characters, without a word.
    @Test("--encoding latin1 on a file with bytes 0x80–0x9F warns once, with the first line and the count, and suggests cp1252")
    func latin1ControlBytes() throws {
        let scratch = ImportScratch()
        try scratch.write("m.model.json", ImportEncodingErrorTests.modelJSON)
        let bytes = Array("code,amount,note\nA,1,ok\nB,2,caf".utf8) + [0xE9] + Array("\nC,3,".utf8) + [0x93] + Array("hi".utf8) + [0x94]
            + Array("\nD,4,".utf8) + [0x80] + Array("5\n".utf8)
        try Data(bytes).write(to: URL(fileURLWithPath: scratch.path("w.csv")))
        let latin1 = try ImportCLI.run(["import", "--model", "m.model.json", "--out", "x.sqlite", "--progress", "none", "--encoding", "latin1",
                                        "--summary-json", "s.json", "R=w.csv"], directory: scratch.url)
        #expect(latin1.status == 0, "\(latin1.errors)")
        let warning = "warning: w.csv: 3 bytes from 0x80 to 0x9F (the first on line 4) read as Latin-1 control characters"
        #expect(latin1.output.components(separatedBy: warning).count == 2, "once: \(latin1.output)")
        #expect(latin1.output.contains("re-run with --encoding cp1252"), "\(latin1.output)")
        let summary = try JSONDecoder().decode(ImportSummary.self, from: Data(contentsOf: URL(fileURLWithPath: scratch.path("s.json"))))
        #expect(summary.warnings.filter { $0.contains("Latin-1 control characters") }.count == 1)
        // Read as Windows-1252, the same bytes are text: no warning.
        let cp1252 = try ImportCLI.run(["import", "--model", "m.model.json", "--out", "y.sqlite", "--progress", "none", "--encoding", "cp1252",
                                        "R=w.csv"], directory: scratch.url)
        #expect(cp1252.status == 0 && !cp1252.output.contains("control characters"), "\(cp1252.output)")
        #expect(try StoreReader.scalar(scratch.path("y.sqlite"), "SELECT ZNOTE FROM ZR WHERE ZCODE = 'C'") == .text("\u{201C}hi\u{201D}"))

        // A user trial: a file whose only such byte is 0x81 was sent to cp1252, which refuses it.
        try Data(Array("code,amount,note\nA,1,x".utf8) + [0x81] + Array("\n".utf8)).write(to: URL(fileURLWithPath: scratch.path("u.csv")))
        let undefined = try ImportCLI.run(["import", "--model", "m.model.json", "--out", "z.sqlite", "--progress", "none", "--encoding", "latin1",
                                           "R=u.csv"], directory: scratch.url)
        #expect(undefined.status == 0 && undefined.output.contains("Windows-1252 leaves it undefined too"), "\(undefined.output)")
        #expect(!undefined.output.contains("--encoding cp1252"), "\(undefined.output)")
    }

    /// A user trial: a UTF-8 file read with --encoding windows-1252 (meant for another file) stored München as MÃ¼nchen silently.
    @Test("a UTF-8 file read as windows-1252 or latin1 is named in a warning; a real Windows-1252 file is not", arguments: ["windows-1252", "latin1"])
    func utf8ReadAsSingleByte(encoding: String) throws {
        let scratch = ImportScratch()
        try scratch.write("m.model.json", ImportEncodingErrorTests.modelJSON)
        try scratch.write("v.csv", "code,amount,note\nA,1,München\nB,2,plain\nC,3,Köln\n")
        let wrong = try ImportCLI.run(["import", "--model", "m.model.json", "--out", "x.sqlite", "--progress", "none", "--encoding", encoding,
                                       "R=v.csv"], directory: scratch.url)
        #expect(wrong.status == 0, "\(wrong.errors)")
        #expect(wrong.output.contains("warning: v.csv: read as "), "\(wrong.output)")
        #expect(wrong.output.contains("but its 2 records with non-ASCII bytes (the first on line 2) are all valid UTF-8: the file is most likely UTF-8"), "\(wrong.output)")
        try Data(Array("code,amount,note\nA,1,caf".utf8) + [0xE9] + Array("\n".utf8)).write(to: URL(fileURLWithPath: scratch.path("w.csv")))
        let right = try ImportCLI.run(["import", "--model", "m.model.json", "--out", "y.sqlite", "--progress", "none", "--encoding", encoding,
                                       "R=w.csv"], directory: scratch.url)
        #expect(right.status == 0 && !right.output.contains("valid UTF-8"), "\(right.output)")
        // UTF-8 curly quotes hold 0x80–0x9F bytes: read as latin1, UTF-8 is the one thing said (a check of this fix).
        // (Windows-1252 leaves the 0x9D of ” undefined: that import stops, naming UTF-8 as a likely encoding.)
        guard encoding == "latin1" else { return }
        try scratch.write("q.csv", "code,amount,note\nA,1,\u{201C}q\u{201D}\n")
        let quotes = try ImportCLI.run(["import", "--model", "m.model.json", "--out", "z.sqlite", "--progress", "none", "--encoding", encoding,
                                        "R=q.csv"], directory: scratch.url)
        #expect(quotes.output.contains("valid UTF-8") && !quotes.output.contains("--encoding cp1252"), "\(quotes.output)")
    }

    @Test("a UTF-16 file (Excel's Unicode Text) is named as such, with how to convert it, whatever --encoding says")
    func utf16() throws {
        let scratch = ImportScratch()
        try scratch.write("m.model.json", ImportEncodingErrorTests.modelJSON)
        var bytes: [UInt8] = [0xFF, 0xFE]
        for unit in "code\tamount\tnote\r\nA\t1\tok\r\n".utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        try Data(bytes).write(to: URL(fileURLWithPath: scratch.path("unicode.txt")))
        for encoding in [[], ["--encoding", "latin1"]] {
            let result = try ImportCLI.run(["import", "--model", "m.model.json", "--out", "x.sqlite", "--progress", "none", "--delimiter", "\\t",
                                            "R=unicode.txt"] + encoding, directory: scratch.url)
            #expect(result.status == 2, "\(result.errors)")
            #expect(result.errors.contains("  - unicode.txt:1: the header cannot be read: the file is UTF-16 (little-endian), by the byte-order mark it starts with"),
                    "\(result.errors)")
            #expect(result.errors.contains("iconv -f UTF-16 -t UTF-8"), "\(result.errors)")
            #expect(!FileManager.default.fileExists(atPath: scratch.path("x.sqlite")))
        }
    }

    /// A user trial's `--delimiter $'\n'` printed the line break itself inside the quotes.
    @Test("a --delimiter or --quote that is a control character is written out in the message", arguments: ["--delimiter", "--quote"])
    func controlCharacterOptionShown(option: String) throws {
        let scratch = ImportScratch()
        let result = try ImportCLI.run(["import", "--model", "m.model.json", "--out", "x.sqlite", option, "\n\u{1B}", "R=q.csv"], directory: scratch.url)
        #expect(result.status == 64)
        #expect(result.errors.contains(#"not '\n\u{1B}'."#), "\(result.errors)")
    }

    /// A user trial: `--true-value $'ja\n'` was taken, a word no unquoted field can hold.
    @Test("a --true-value or --false-value holding a control character is a usage error that writes it out", arguments: ["--true-value", "--false-value"])
    func controlCharacterBooleanWord(option: String) throws {
        let scratch = ImportScratch()
        try scratch.write("m.model.json", #"{"entities": [{"name": "R", "attributes": [{"name": "code", "type": "String"}, {"name": "flag", "type": "Boolean"}]}]}"#)
        try scratch.write("b.csv", "code,flag\nA,ja\nB,nein\n")
        for (word, shown) in [("ja\n", #"ja\n"#), ("\tnein", #"\tnein"#), ("o\u{1B}ui", #"o\u{1B}ui"#)] {
            let result = try ImportCLI.run(["import", "--model", "m.model.json", "--out", "x.sqlite", option, word, "R=b.csv"], directory: scratch.url)
            #expect(result.status == 64, "\(result.errors)")
            #expect(result.errors.hasPrefix("error: \(option) takes a word as the file writes it, without line breaks, tabs or other control characters, not '\(shown)'.\nUsage:"),
                    "\(result.errors)")
        }
        #expect(!FileManager.default.fileExists(atPath: scratch.path("x.sqlite")))
    }

    @Test("Entity=file.csv with --quote reads the header with that quote too")
    func quoteWithoutMapping() throws {
        let scratch = ImportScratch()
        try scratch.write("m.model.json", ImportEncodingErrorTests.modelJSON)
        try scratch.write("q.csv", "'code','amount','note'\n'A',1,'x,y'\n")
        let result = try ImportCLI.run(["import", "--model", "m.model.json", "--out", "q.sqlite", "--progress", "none", "--quote", "'",
                                        "R=q.csv"], directory: scratch.url)
        #expect(result.status == 0, "\(result.errors)")
        #expect(try StoreReader.scalar(scratch.path("q.sqlite"), "SELECT ZNOTE FROM ZR WHERE ZCODE = 'A'") == .text("x,y"))
    }

    @Test("Entity=file.csv whose header matches no attribute exits 2 and writes nothing")
    func headerMatchesNothing() throws {
        let scratch = ImportScratch()
        try scratch.write("teams.csv", "Kürzel,Bezeichnung\nENG,Engines\n")
        let result = try ImportCLI.run(["import", "--model", ImportFixtures.path("models/import-basics.model.json"), "--out", "t.sqlite",
                                        "Team=teams.csv"], directory: scratch.url)
        #expect(result.status == 2)
        #expect(result.errors.contains("teams.csv: no column of its header matches an attribute of Team"), "\(result.errors)")
        #expect(result.errors.contains("(the header has: \"Kürzel\", \"Bezeichnung\"; Team has: code, name, founded)"))
        #expect(scratch.files == ["teams.csv"])
    }

    @Test("--key-memory takes 1 MiB to 1 TiB: 0, negatives and values whose bytes would overflow are refused")
    func keyMemoryRange() throws {
        let scratch = ImportScratch()
        for value in ["0", "-1", "1048577", "8796093022208", String(Int.max)] {
            let result = try ImportCLI.run(["import", "--mapping", ImportFixtures.path("mappings/people.mapping.json"),
                                            "--out", scratch.path("P.sqlite"), "--key-memory=\(value)"])
            #expect(result.status == 64, "\(value): \(result.errors)")
            #expect(result.errors.contains("--key-memory takes MiB from 1 to 1048576"), "\(value): \(result.errors)")
        }
        let top = try ImportCLI.run(["import", "--mapping", ImportFixtures.path("mappings/people.mapping.json"),
                                     "--out", scratch.path("P.sqlite"), "--key-memory", "1048576", "--progress", "none"])
        #expect(top.status == 0, "\(top.errors)")
        #expect(!top.output.contains("--key-memory"), "nothing spills under 1 TiB")
    }

    @Test("--max-record-size takes 1 to 4096 MiB, and a record past it stops the import naming the open quote")
    func maxRecordSize() throws {
        let scratch = ImportScratch()
        let model = ImportFixtures.path("models/import-basics.model.json")
        for value in ["0", "-1", "4097", String(Int.max)] {
            let result = try ImportCLI.run(["import", "--model", model, "--out", scratch.path("P.sqlite"),
                                            "--max-record-size=\(value)", "Team=\(ImportFixtures.path("csv/teams.csv"))"])
            #expect(result.status == 64, "\(value): \(result.errors)")
            #expect(result.errors.contains("--max-record-size takes MiB from 1 to 4096"), "\(value): \(result.errors)")
        }
        // 1.5 MiB of lines after a quote never closed: past a 1 MiB limit, within the default.
        let lines = String(repeating: "T9,Lorem ipsum dolor sit amet consectetur adipiscing\n", count: 30_000)
        let teams = try scratch.write("teams.csv", "code,name\nT1,\"Open\n" + lines)
        let stopped = try ImportCLI.run(["import", "--model", model, "--out", scratch.path("P.sqlite"), "--progress", "none",
                                         "--max-record-size", "1", "Team=\(teams)"])
        #expect(stopped.status == 1, "\(stopped.errors)")
        #expect(stopped.errors.contains("teams.csv:2:2: the record that starts on line 2 passes 1 MiB without ending: the quote that opens field 2 on line 2 is still open"),
                "\(stopped.errors)")
        let read = try ImportCLI.run(["import", "--model", model, "--out", scratch.path("P.sqlite"), "--progress", "none", "Team=\(teams)"])
        #expect(read.status == 1 && read.errors.contains("the quote that opens field 2 is never closed: the input ends 30,001 lines later"),
                "within the default limit the record is read, and its quote reported: \(read.errors)")

        // Saved with the mapping (`maxRecordSize`, in MiB), the limit holds with --mapping alone.
        let saved = try ImportCLI.run(["import", "--model", model, "--out", scratch.path("P.sqlite"), "--progress", "none",
                                       "--max-record-size", "1", "--save-mapping", scratch.path("teams.mapping.json"), "Team=\(teams)"])
        #expect(saved.status == 1)
        let json = try String(contentsOfFile: scratch.path("teams.mapping.json"), encoding: .utf8)
        #expect(json.contains("\"maxRecordSize\": 1"), "\(json)")
        let again = try ImportCLI.run(["import", "--mapping", scratch.path("teams.mapping.json"), "--out", scratch.path("P.sqlite"), "--progress", "none"])
        #expect(again.status == 1 && again.errors.contains("passes 1 MiB without ending"), "\(again.errors)")
        // Given explicitly, the default overrides the mapping's limit: the record is read, its quote reported.
        let overridden = try ImportCLI.run(["import", "--mapping", scratch.path("teams.mapping.json"), "--out", scratch.path("P.sqlite"),
                                            "--progress", "none", "--max-record-size", "16"])
        #expect(overridden.status == 1 && overridden.errors.contains("is never closed: the input ends 30,001 lines later"), "\(overridden.errors)")
        // Out of range in a mapping: a mapping error naming the key.
        for bad in ["0", "4097", "1.5", "\"16\""] {
            try scratch.write("bad.mapping.json", """
                {"format": 1, "model": "\(model)", "defaults": {"maxRecordSize": \(bad)}, "files": [{"path": "teams.csv", "targets": [{"entity": "Team"}]}]}
                """)
            let refused = try ImportCLI.run(["import", "--mapping", scratch.path("bad.mapping.json"), "--out", scratch.path("P.sqlite"), "--progress", "none"])
            #expect(refused.status == 2 && refused.errors.contains("defaults.maxRecordSize: expected the longest record in MiB, from 1 to 4096"),
                    "\(bad): \(refused.errors)")
        }
    }

    @Test("--null tokens that can never match an unquoted, trimmed value are refused, once")
    func nullTokensThatCannotMatch() throws {
        let scratch = ImportScratch()
        let result = try ImportCLI.run(["import", "--mapping", ImportFixtures.path("mappings/people.mapping.json"), "--out", scratch.path("P.sqlite"),
                                        "--null", " NULL ", "--null", "a,b", "--null", "x\ny", "--null", "NA"])
        #expect(result.status == 2)
        #expect(result.errors.contains("(1 problem)"), "\(result.errors)")
        #expect(result.errors.contains("--null: \" NULL \", \"a,b\", \"x\\ny\" can never match"), "\(result.errors)")
        #expect(scratch.files.isEmpty)
    }

    @Test("a null token with a quote inside matches, as non-strict reading keeps such values unquoted")
    func nullTokenWithInnerQuote() throws {
        let scratch = ImportScratch()
        let result = try ImportCLI.run(["import", "--model", "m.model.json", "--out", "n.sqlite", "--progress", "none", "--null", "N\"A",
                                        "R=n.csv"], directory: try {
            try scratch.write("m.model.json", ImportQuoteTests.model)
            try scratch.write("n.csv", "code,amount,note\nA,1,N\"A\n")
            return scratch.url
        }())
        #expect(result.status == 0, "\(result.errors)")
        #expect(try StoreReader.scalar(scratch.path("n.sqlite"), "SELECT count(*) FROM ZR WHERE ZNOTE IS NULL") == .integer(1))
    }

    @Test("values that start with '-' are taken as values: --null -999 (a sentinel), --time-zone -08, --true-value -1")
    func dashValues() throws {
        let scratch = ImportScratch()
        try scratch.write("m.model.json", """
            {"entities": [{"name": "R", "attributes": [{"name": "code", "type": "String"}, {"name": "depth", "type": "Double", "optional": true},
                                                      {"name": "at", "type": "Date", "optional": true}, {"name": "ok", "type": "Boolean", "optional": true}]}]}
            """)
        try scratch.write("r.csv", "code,depth,at,ok\nA,-999,2020-01-01 10:00,-1\nB,12.5,,0\n")
        let result = try ImportCLI.run(["import", "--model", "m.model.json", "--out", "r.sqlite", "--progress", "none",
                                        "--null", "", "--null", "-999", "--time-zone", "-08", "--true-value", "-1", "R=r.csv"],
                                       directory: scratch.url)
        #expect(result.status == 0, "\(result.errors)")
        #expect(try StoreReader.scalar(scratch.path("r.sqlite"), "SELECT count(*) FROM ZR WHERE ZDEPTH IS NULL") == .integer(1))
        #expect(try StoreReader.scalar(scratch.path("r.sqlite"), "SELECT ZOK FROM ZR WHERE ZCODE = 'A'") == .integer(1))
        let expected = Date.utc(2020, 1, 1, 18).timeIntervalSinceReferenceDate
        #expect(try StoreReader.scalar(scratch.path("r.sqlite"), "SELECT CAST(ZAT AS REAL) FROM ZR WHERE ZCODE = 'A'") == .real(expected))
    }

    @Test("skip mode removes a rejects file an earlier run left at --rejects when this run rejects nothing")
    func staleRejectsRemoved() throws {
        let scratch = ImportScratch()
        try scratch.write("old-rejects.csv", "file,line,column,entity,attribute,value,reason,raw\nstale,1\n")
        let result = try ImportCLI.run(["import", "--mapping", ImportFixtures.path("mappings/people.mapping.json"), "--out", scratch.path("P.sqlite"),
                                        "--on-error", "skip", "--rejects", scratch.path("old-rejects.csv"), "--progress", "none"])
        #expect(result.status == 0, "\(result.errors)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("old-rejects.csv")))
    }

    @Test("too many --null tokens, or one too long, is a usage error (exit 64), named once")
    func nullTokensOnce() throws {
        let scratch = ImportScratch()
        var arguments = ["import", "--mapping", ImportFixtures.path("mappings/people.mapping.json"), "--out", scratch.path("P.sqlite")]
        for token in ["", "NULL", "NA", "N/A", "-", "none"] { arguments += ["--null", token] }
        let many = try ImportCLI.run(arguments)
        #expect(many.status == 64)
        #expect(many.errors.hasPrefix("error: --null: at most 4 tokens"), "\(many.errors)")
        #expect(many.errors.components(separatedBy: "at most 4 tokens").count == 2)
        #expect(many.errors.contains("(5 tokens besides \"\")"))
        let long = try ImportCLI.run(["import", "--mapping", ImportFixtures.path("mappings/people.mapping.json"), "--out", scratch.path("P.sqlite"),
                                      "--null", "NOT-AVAILABLE-AT-ALL-IN-THIS-FILE"])
        #expect(long.status == 64)
        #expect(long.errors.contains("\"NOT-AVAILABLE-AT-ALL-IN-THIS-FILE\" is 33 bytes"))
        #expect(scratch.files.isEmpty)
    }

    @Test("skip mode without --rejects writes <store name without extension>.rejects.csv next to the store")
    func defaultRejectsPath() throws {
        let scratch = ImportScratch()
        let result = try ImportCLI.run([
            "import", "--mapping", ImportFixtures.path("mappings/people-bad.mapping.json"), "--out", scratch.path("p2.sqlite"),
            "--on-error", "skip", "--progress", "none",
        ])
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.contains("written to \(scratch.path("p2.rejects.csv"))"))
        #expect(scratch.files == ["p2.rejects.csv", "p2.sqlite"])
        let help = try ImportCLI.run(["import", "--help"])
        #expect(help.output.contains("Wells.sqlite → Wells.rejects.csv"))
    }
}
