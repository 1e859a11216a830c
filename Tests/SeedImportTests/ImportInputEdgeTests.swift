import Foundation
import ManagedStore
@testable import SeedImport
import Testing

/// Inputs a user trial of adverse conditions found handled silently: a file written to between the
/// passes that read it, NUL bytes in text, and a file listed twice rejecting its ragged rows twice.
@Suite("Import: inputs that change, NUL bytes, files listed twice")
struct ImportInputEdgeTests {
    static let modelJSON = """
        {"entities":[{"name":"A","attributes":[{"name":"code","type":"String","optional":false},{"name":"n","type":"Integer 32"}]},
                     {"name":"B","attributes":[{"name":"code","type":"String","optional":false},{"name":"n","type":"Integer 32"}]}]}
        """
    static let model = try! ObjectModel(json: Data(modelJSON.utf8))

    /// The same file into A, then into B.
    static func mapping(_ scratch: ImportScratch) throws -> ImportMapping {
        try ImportMapping(json: Data("""
            {"format":1,"files":[{"path":"e.csv","targets":[{"entity":"A","key":"code"}]},
                                 {"path":"e.csv","targets":[{"entity":"B","key":"code"}]}]}
            """.utf8), baseDirectory: scratch.url.path)
    }

    @Test("a file written between the passes that read it stops the import; nothing is written")
    func changedBetweenPasses() throws {
        let scratch = ImportScratch()
        try scratch.write("e.csv", "code,n\nx,1\ny,2\n")
        var options = ImportOptions()
        let path = scratch.path("e.csv")
        options.beforeEachPass = { position in
            guard position == 1, let handle = FileHandle(forWritingAtPath: path) else { return }
            handle.seekToEndOfFile()
            handle.write(Data("z,3\n".utf8))
            try? handle.close()
        }
        #expect {
            _ = try SeedImporter(model: Self.model, mapping: try Self.mapping(scratch), options: options).run(into: scratch.path("S.sqlite"))
        } throws: { error in
            guard let error = error as? ImportError else { return false }
            return error.kind == .input && error.reason.hasPrefix("the file changed while the import read it (15 bytes when the import began, 19 now)")
                && error.hint?.contains("no store was created at") == true
        }
        #expect(!FileManager.default.fileExists(atPath: scratch.path("S.sqlite")))
        #expect(!scratch.files.contains { $0.contains(".importing-") }, "\(scratch.files)")
    }

    @Test("a rewrite of the same size with the modification time set back is caught too (by the change time)")
    func sameSizeRewriteCaught() throws {
        let scratch = ImportScratch()
        try scratch.write("e.csv", "code,n\nx,1\ny,2\n")
        var options = ImportOptions()
        let path = scratch.path("e.csv")
        options.beforeEachPass = { position in
            guard position == 1 else { return }
            var info = stat()
            _ = stat(path, &info)
            try? Data("code,n\nx,1\ny,3\n".utf8).write(to: URL(fileURLWithPath: path))
            var times = [timespec(tv_sec: info.st_atim.tv_sec, tv_nsec: info.st_atim.tv_nsec),
                         timespec(tv_sec: info.st_mtim.tv_sec, tv_nsec: info.st_mtim.tv_nsec)]
            _ = utimensat(AT_FDCWD, path, &times, 0)
        }
        #expect {
            _ = try SeedImporter(model: Self.model, mapping: try Self.mapping(scratch), options: options).run(into: scratch.path("S.sqlite"))
        } throws: { error in
            (error as? ImportError)?.reason.hasPrefix("the file changed while the import read it (the same size, written again)") == true
        }
    }

    @Test("a NUL byte in text is a reject naming it; text around it is not cut short in the store")
    func nulInText() throws {
        let scratch = ImportScratch()
        try scratch.write("e.csv", "code,n\na\u{0}b,1\nc,2\n")
        let mapping = try ImportMapping(json: Data(#"{"format":1,"files":[{"path":"e.csv","targets":[{"entity":"A"}]}]}"#.utf8),
                                        baseDirectory: scratch.url.path)
        let summary = try SeedImporter(model: Self.model, mapping: mapping, options: scratch.skipping()).run(into: scratch.path("S.sqlite"))
        #expect(summary.rejects == 1 && summary.objects["A"]?.stored == 1)
        #expect(scratch.rejects.contains("the text holds a NUL byte (0x00, byte 2 of the value), where SQLite's text functions and most readers of the store end it"),
                "\(scratch.rejects)")
    }

    @Test("a value's NUL, escape and byte-order mark are written out in the message, not sent to the terminal")
    func invisibleCharactersInMessages() throws {
        let scratch = ImportScratch()
        try scratch.write("e.csv", "code,n\n\u{FEFF}a\u{1B}[31m,x\u{0}\n")
        let mapping = try ImportMapping(json: Data(#"{"format":1,"files":[{"path":"e.csv","targets":[{"entity":"A"}]}]}"#.utf8),
                                        baseDirectory: scratch.url.path)
        let error = try #require(throws: ImportError.self) {
            try SeedImporter(model: Self.model, mapping: mapping).run(into: scratch.path("S.sqlite"))
        }
        #expect(error.description.hasPrefix(#"e.csv:2:2: A.n ("n" = "x\0"): "#), "\(error)")
        #expect(ImportError(.badRow, reason: "r", value: "\u{FEFF}a\u{1B}[31m\n").subject == #"value "\u{FEFF}a\u{1B}[31m\n""#)
        #expect(!error.description.unicodeScalars.contains { $0.value == 0 || $0.value == 0x1B })
    }

    /// A user trial: the summary's warning about a column no attribute takes printed its name raw.
    @Test("the summary writes out a header's escape character too", .enabled(if: ImportFixtures.hasCLI, ImportFixtures.cliSkipReason))
    func invisibleCharactersInTheSummary() throws {
        let scratch = ImportScratch()
        try scratch.write("m.model.json", Self.modelJSON)
        try scratch.write("e.csv", "code,no\u{1B}te\nx,1\n")
        let result = try ImportCLI.run(["import", "--model", "m.model.json", "--out", "x.sqlite", "--progress", "none", "A=e.csv"],
                                       directory: scratch.url)
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.contains("no\\u{1B}te") && !result.output.contains("\u{1B}"), "\(result.output)")
    }

    @Test("a header holding a NUL matches no attribute by folding; a line break in a quoted header still folds")
    func controlCharactersInHeaders() {
        #expect(HeaderName.fold("co\u{0}de") != HeaderName.fold("code"))
        #expect(HeaderName.fold("co\u{1B}de") != HeaderName.fold("code"))
        #expect(HeaderName.fold("Closing\r\nDate\t") == HeaderName.fold("closing_date"))
        #expect(HeaderName.index(of: "code", in: ["co\u{0}de", "n"], columnCount: 2) == nil)
    }

    @Test("a file that starts as UTF-16 without a byte-order mark is named as such, with iconv's name for it")
    func unmarkedUTF16() throws {
        let scratch = ImportScratch()
        try scratch.write("m.model.json", Self.modelJSON)
        for (order, name) in [(0, "little-endian"), (1, "big-endian")] {
            var bytes: [UInt8] = []
            for unit in "code,n\nx,1\n".utf16 { bytes += order == 0 ? [UInt8(unit & 0xFF), UInt8(unit >> 8)] : [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
            try Data(bytes).write(to: URL(fileURLWithPath: scratch.path("e.csv")))
            let result = try ImportCLI.run(["import", "--model", "m.model.json", "--out", "x.sqlite", "--progress", "none", "A=e.csv"],
                                           directory: scratch.url)
            #expect(result.status == 2, "\(result.errors)")
            #expect(result.errors.contains("e.csv:1: the header cannot be read: the file looks like UTF-16 (\(name)) without a byte-order mark"),
                    "\(result.errors)")
            #expect(result.errors.contains("iconv -f UTF-16\(order == 0 ? "LE" : "BE") -t UTF-8"), "\(result.errors)")
            #expect(!FileManager.default.fileExists(atPath: scratch.path("x.sqlite")))
        }
    }

    /// Reading ahead reserved room for a whole batch: `--batch-size 10000000000` trapped allocating 240 GB.
    @Test("a batch size far beyond the rows imports them, reading ahead or not")
    func hugeBatchSize() throws {
        let scratch = ImportScratch()
        try scratch.write("e.csv", "code,n\nx,1\ny,2\n")
        let mapping = try ImportMapping(json: Data(#"{"format":1,"files":[{"path":"e.csv","targets":[{"entity":"A"}]}]}"#.utf8),
                                        baseDirectory: scratch.url.path)
        for readsAhead in [true, false] {
            var options = ImportOptions(batchSize: 10_000_000_000)
            options.readsAhead = readsAhead
            let summary = try SeedImporter(model: Self.model, mapping: mapping, options: options).run(into: scratch.path("S\(readsAhead).sqlite"))
            #expect(summary.objects["A"]?.stored == 2)
        }
    }

    @Test("a bad row of a file listed twice is one reject, written once")
    func raggedRowOfAFileListedTwice() throws {
        let scratch = ImportScratch()
        try Data("code,n\nx,1\ny,2,extra\n\"q\"w,4\nb\u{FF}ad,5\nv,x\nz,3\n".utf8).write(to: URL(fileURLWithPath: scratch.path("e.csv")))
        var bytes = try Data(contentsOf: URL(fileURLWithPath: scratch.path("e.csv")))
        bytes[bytes.firstIndex(of: 0xC3)!] = 0xFF   // "ÿ" as UTF-8 (C3 BF) becomes the invalid FF BF
        try bytes.write(to: URL(fileURLWithPath: scratch.path("e.csv")))
        let summary = try SeedImporter(model: Self.model, mapping: try Self.mapping(scratch), options: scratch.skipping())
            .run(into: scratch.path("S.sqlite"))
        // The raw column holds the byte that is not UTF-8: read the file as bytes.
        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: scratch.path("rejects.csv"))), as: UTF8.self)
        let rows = text.split(separator: "\n").dropFirst()
        // A ragged row, a misplaced quote, a byte not UTF-8 and a value that does not convert: each once.
        #expect(rows.map { $0.prefix(8) } == ["e.csv,3,", "e.csv,4,", "e.csv,5,", "e.csv,6,"], "\(text)")
        #expect(summary.rejects == 4)
        #expect(summary.objects["A"]?.stored == 2 && summary.objects["B"]?.stored == 2)
    }

    @Test("a full disk says where the store was built and that the target is as it was")
    func fullDiskExplained() {
        let file = _StoreFile(target: "/data/out/W.sqlite")
        let error = ImportError(.store, reason: "saving a batch failed: SQLite error 13 (database or disk is full) — while running: COMMIT TRANSACTION")
        let explained = SeedImporter.explainingFullDisk(error, building: file, store: "W.sqlite")
        #expect(explained.hint?.hasPrefix("The disk holding /data/out is full: the store is built there (as .W.sqlite.importing-") == true, "\(explained)")
        #expect(explained.hint?.contains("no store was created at W.sqlite") == true)
        let rejects = ImportError(.store, reason: "the rejected rows could not all be written: … No space left on device", file: "r.csv", hint: "Nothing was replaced")
        #expect(SeedImporter.explainingFullDisk(rejects, building: file, store: "W.sqlite").hint == "Nothing was replaced", "the rejects' own words")
        let other = ImportError(.store, reason: "cannot create the store: permission denied")
        #expect(SeedImporter.explainingFullDisk(other, building: file, store: "W.sqlite").hint == nil)
    }
}
