import ArgumentParser
import CSVStream
import Foundation
import ManagedStore
import SeedImport

/// `seedstore import`: streams CSV files into a new seed store.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Preload a seed store from CSV files, with a mapping file or by header names.",
        discussion: """
            With a mapping (docs/mapping.md), each CSV file fills the entities it names; --model is optional \
            when the mapping names one. Without a mapping, name each file as Entity=path.csv: columns match \
            attributes by name (case, spaces and '_' folded), and a column such as operator_id fills the \
            relationship to the Operator file.

            The store is built next to --out as .<name>.importing-<pid> and renamed over --out only when \
            complete: an interrupted import leaves the previous store or none.

            Exit status: 0 on success (rejected rows included), 1 when a bad row aborts the import or the \
            store cannot be written at --out, 2 for problems found before anything is imported: the mapping, the \
            files, an output path (--out, --rejects, --save-mapping, --summary-json) that names a file the \
            import reads or another output, or a path of the other outputs that cannot be written; 64 for usage \
            errors.

            Examples:
              seedstore import --mapping /tmp/wells/wells.mapping.json --out Wells.sqlite
              seedstore import --model wells.model.json --out Wells.sqlite Operator=operators.csv Well=wells.csv
              seedstore import --model items.model.json --out Items.sqlite --save-mapping items.mapping.json Item=items.csv
              seedstore import --mapping banks.mapping.json --out Banks.sqlite --on-error skip --rejects rejects.csv
              seedstore import --model items.model.json --out Items.sqlite --delimiter ';' --decimal-comma Item=items.csv
            """)

    @Option(help: ArgumentHelp("The model: .json, .xcdatamodeld or .xcdatamodel (default: the one the mapping names).", valueName: "model"))
    var model: String?

    @Option(help: ArgumentHelp("A mapping file naming, for each CSV file, the entities it fills.", valueName: "mapping"))
    var mapping: String?

    @Argument(help: ArgumentHelp("Without --mapping: the files to import, as Entity=path.csv.", valueName: "Entity=file.csv"))
    var sources: [String] = []

    @Option(help: ArgumentHelp("The store to write; an existing store is replaced when the import completes (any other file is refused).", valueName: "store"))
    var out: String

    @Option(name: .customLong("batch-size"), parsing: .unconditional, help: "Objects saved per batch; the context is reset after each.")
    var batchSize: Int = ImportOptions().batchSize

    @Option(name: .customLong("on-error"), help: "What a bad row does: abort (stop, store unchanged) or skip (write it to the rejects file, with the rows naming a key only rejected rows make; every other row stands, and the import runs again when removing rejected rows took others along).")
    var onError: ErrorPolicy = .abort

    @Option(help: ArgumentHelp("The rejects CSV in skip mode (default: next to the store, named after it without its extension: Wells.sqlite → Wells.rejects.csv).", valueName: "file"))
    var rejects: String?

    @Option(help: "Progress on standard error: auto (a bar on a terminal, lines otherwise), bar, plain or none.")
    var progress: ProgressMode = .auto

    @Option(help: ArgumentHelp("The files' encoding, overriding the mapping: utf-8, windows1252 or latin1 (case, \"-\" and \"_\" do not matter: windows-1252, cp1252 and iso-8859-1 read too).", valueName: "encoding"))
    var encoding: String?

    @Option(help: ArgumentHelp("The field delimiter, overriding the mapping (one character, \\t, or \\xHH such as \\x01; default: ',', or tab for a .tsv file).", valueName: "char"))
    var delimiter: String?

    @Option(help: ArgumentHelp("The quote character, overriding the mapping (default \"; none for a file that never quotes).", valueName: "char"))
    var quote: String?

    @Option(help: ArgumentHelp("The escape character of MySQL's SELECT … INTO OUTFILE and PostgreSQL's text-format COPY: '\\' decodes \\N as null, \\t, \\n and an escaped delimiter or line end, overriding the mapping (default none: RFC 4180 CSV). PostgreSQL's text format never quotes: add --quote none.", valueName: "char"))
    var escape: String?

    @Option(name: .customLong("line-end"), help: ArgumentHelp("How the lines of files read with --escape end, when their text does not tell it: crlf for MySQL's LINES TERMINATED BY '\\r\\n' (an LF in a value is text), lf for its default (a CR before the LF is text), overriding the mapping's \"lineEnd\" (default: told from the text).", valueName: "lf|crlf"))
    var lineEnd: CSVDialect.EscapedLineEnd?

    @Option(name: .customLong("skip-lines"), help: ArgumentHelp("Lines above the header that are not CSV (a report's title, notes), skipped as written in every file, overriding the mapping (whose \"skipLines\" sets them per file); line numbers still count them.", valueName: "n"))
    var skipLines: Int?

    @Flag(help: "Numbers are written with a decimal comma: 1.234,5 is 1234.5 ('.' groups thousands), as European spreadsheets export them with ';' between fields.")
    var decimalComma = false

    @Flag(inversion: .prefixedNo,
          help: "Drop spaces and tabs around unquoted text (fixed-width exports pad their values); text inside quotes, and numbers, dates and other non-text values, are unaffected (default: the mapping's \"trim\", else text keeps its spaces).")
    var trim: Bool?

    @Option(name: .customLong("null"), parsing: .unconditionalSingleValue, help: ArgumentHelp("A value that means null, overriding the mapping's defaults and files (a column's own \"nullTokens\" still win); repeat for several (default: empty, NULL, NA). The tokens given replace the whole list, so an empty field is null only when --null '' is among them: --null '' --null '-'.", valueName: "token"))
    var nullTokens: [String] = []

    @Option(name: .customLong("date-format"), help: ArgumentHelp("How Date columns the mapping gives no format are written (without a mapping: every Date column): d-MMM-yy, M/d/yyyy, dd.MM.yyyy HH:mm, epoch…; repeat for several, tried in order (default: ISO 8601).", valueName: "format"))
    var dateFormats: [String] = []

    @Option(name: .customLong("pivot-year"), help: ArgumentHelp("Two-digit years fall in the hundred years from this one, where the mapping gives none: 2000 reads 13-Oct-00 as 2000 (default: 1969, as POSIX strptime).", valueName: "year"))
    var pivotYear: Int?

    @Option(name: .customLong("time-zone"), parsing: .unconditional, help: ArgumentHelp("The time zone of dates and times written without one (MySQL's DATETIME, Excel and R local times), overriding the mapping: a region such as Europe/Berlin, or an offset such as +05:30, -08 or UTC-08 (default: UTC). Values that name their zone keep it.", valueName: "zone"))
    var timeZone: String?

    @Option(name: .customLong("true-value"), parsing: .unconditionalSingleValue, help: ArgumentHelp("A word Boolean columns write for true, besides true, yes, y, t and 1 (any case), where the mapping gives none; repeat for several: --true-value ja --true-value oui.", valueName: "word"))
    var trueValues: [String] = []

    @Option(name: .customLong("false-value"), parsing: .unconditionalSingleValue, help: ArgumentHelp("A word Boolean columns write for false, besides false, no, n, f and 0 (any case), where the mapping gives none; repeat for several.", valueName: "word"))
    var falseValues: [String] = []

    @Flag(help: "VACUUM the store after building its indexes.")
    var vacuum = false

    @Option(name: .customLong("core-data-hashes"),
            help: ArgumentHelp("The app's compiled model (Model.momd, or its VersionInfo.plist), or a plist of entityVersionHashesByName: its hashes go into the store's metadata, so that Core Data opens the store with that model.", valueName: "file"))
    var coreDataHashes: String?

    @Flag(inversion: .prefixedNo,
          help: "Read and convert rows on a second thread while saving on this one (default: when a core is idle).")
    var readAhead: Bool?

    @Option(name: .customLong("key-memory"), parsing: .unconditional,
            help: ArgumentHelp("MiB the key indexes (upserts, relationship columns) may take; an index that grows past it moves its keys to a temporary file, sorted, and starts over in memory: slower (1.1x at a million wells), but memory stays flat (1 to 1048576; default 12, about 400,000 keys).", valueName: "MiB"))
    var keyMemory: Int = ImportOptions.defaultKeyIndexMemoryBytes >> 20

    /// For the fuzzer and memory checks: the end-of-file forward keys kept in memory before
    /// they move to a temporary file (``ImportOptions/forwardKeyLimit``).
    @Option(name: .customLong("forward-key-limit"), help: .hidden)
    var forwardKeyLimit: Int?

    @Option(name: .customLong("max-record-size"), parsing: .unconditional,
            help: ArgumentHelp("MiB one record may take; a longer one stops the import, naming the quote left open that usually causes it (1 to 4096), overriding the mapping's maxRecordSize (default \(CSVDialect.defaultMaximumRecordBytes >> 20)).", valueName: "MiB"))
    var maxRecordSize: Int?

    @Option(name: .customLong("save-mapping"), help: ArgumentHelp("Also write the mapping this import runs with (made from the headers, or the --mapping file's), with the options given here written in, to this file (JSON, docs/mapping.md), to edit and pass as --mapping; written before the import runs.", valueName: "file"))
    var saveMapping: String?

    @Option(name: .customLong("summary-json"), help: ArgumentHelp("Also write the summary as JSON (with peakMemoryBytes) to this file, or to /dev/stdout; never one the import reads or writes (checked before it runs).", valueName: "file"))
    var summaryJSON: String?

    /// The largest `--key-memory`, in MiB: 1 TiB, far past any machine, and no overflow in bytes.
    static let maximumKeyMemory = 1 << 20

    func validate() throws {
        try checkSQLDebugVariable(orOption: false)
        if mapping == nil && sources.isEmpty {
            throw ValidationError("Give --mapping MAPPING, or the files as Entity=path.csv arguments.")
        }
        if mapping != nil && !sources.isEmpty {
            throw ValidationError("Give either --mapping or Entity=path.csv arguments, not both.")
        }
        if mapping == nil && model == nil {
            throw ValidationError("Without --mapping, --model MODEL is required.")
        }
        if batchSize < 1 {
            throw ValidationError("--batch-size must be at least 1.")
        }
        if let skipLines, skipLines < 0 {
            throw ValidationError("--skip-lines takes 0 or more, not \(skipLines).")
        }
        if !(1...Self.maximumKeyMemory).contains(keyMemory) {
            throw ValidationError("--key-memory takes MiB from 1 to \(Self.maximumKeyMemory) (1 TiB), not \(keyMemory).")
        }
        if let maxRecordSize, !(1...4096).contains(maxRecordSize) {
            throw ValidationError("--max-record-size takes MiB from 1 to 4096, not \(maxRecordSize).")
        }
        if rejects != nil && onError != .skip {
            throw ValidationError("--rejects applies with --on-error skip.")
        }
        if let encoding, TextEncoding(label: encoding) == nil {
            throw ValidationError("Unknown --encoding '\(encoding)'; use utf-8, windows-1252 or latin1.")
        }
        if let delimiter, CSVOptions.byte(delimiter) == nil {
            throw ValidationError("--delimiter takes one ASCII character, \\t or \\xHH (\\x01), not '\(Self.visible(delimiter))'.")
        }
        if let quote, CSVOptions.byteOrNone(quote) == nil {
            throw ValidationError("--quote takes one ASCII character, \\xHH or none, not '\(Self.visible(quote))'.")
        }
        if let escape, ["\n", "\r", "\r\n", "\\n", "\\r"].contains(escape) {
            throw ValidationError("--escape cannot be a line break, which ends records; MySQL's and PostgreSQL's exports use '\\'.")
        }
        if let escape, CSVOptions.byteOrNone(escape) == nil {
            throw ValidationError("--escape takes one ASCII character ('\\' for MySQL's and PostgreSQL's exports) or none, not '\(Self.visible(escape))'.")
        }
        if lineEnd != nil && escape.flatMap(CSVOptions.byteOrNone).map({ $0 == 0 }) ?? (mapping == nil) {
            throw ValidationError("--line-end applies to files read with an escape (--escape '\\'); CSV files take LF, CRLF and CR lines as they come.")
        }
        // Against each file's own delimiter and quote once they are known (``checkDelimiterAndQuote(_:)``).
        if let escape, let byte = CSVOptions.byteOrNone(escape), byte != 0 {
            for (name, value) in [("--delimiter", delimiter), ("--quote", quote)] {
                if let value, CSVOptions.byteOrNone(value) == byte {
                    throw ValidationError("--escape and \(name) are both '\(Self.visible(escape))'; they must differ.")
                }
            }
        }
        // With a mapping, each file's quote and delimiter are known only once it is read (``checkDelimiterAndQuote(_:)``).
        if let delimiter, let byte = CSVOptions.byte(delimiter), let other = quote.flatMap(CSVOptions.byteOrNone) ?? (mapping == nil ? UInt8(ascii: "\"") : nil), byte == other {
            throw ValidationError("--delimiter and the quote are both '\(Self.visible(delimiter))'; they must differ (choose another --quote).")
        }
        if let timeZone, (try? DateFormat("iso8601", timeZone: timeZone)) == nil {
            throw ValidationError("--time-zone: " + DateFormat.unknownZone(timeZone) + ".")
        }
        if let pivotYear, !DateFormat.pivotYears.contains(pivotYear) {
            throw ValidationError("--pivot-year takes a year from \(DateFormat.pivotYears.lowerBound) to \(DateFormat.pivotYears.upperBound), such as 2000, not \(pivotYear).")
        }
        if !dateFormats.isEmpty {
            do { _ = try DateFormat(anyOf: dateFormats, pivotYear: pivotYear) } catch {
                throw ValidationError("--date-format: \(error) (see docs/mapping.md, Date formats)")
            }
        }
        // A line break never sits in an unquoted field, and no one means a tab or an escape in a word.
        for (option, words) in [("--true-value", trueValues), ("--false-value", falseValues)] {
            if let word = words.first(where: { $0.unicodeScalars.contains { $0.properties.generalCategory == .control } }) {
                throw ValidationError("\(option) takes a word as the file writes it, without line breaks, tabs or other control characters, not '\(Self.visible(word))'.")
            }
        }
        // These take the next argument whatever it is (--null -999): an option there was most likely a value left out.
        for (option, values) in [("--null", nullTokens), ("--true-value", trueValues), ("--false-value", falseValues)] {
            if let value = values.first(where: { ($0.hasPrefix("--") && $0.dropFirst(2).first?.isLetter == true) || $0 == "-h" }) {
                throw ValidationError("\(option) took '\(value)', an option, as its value: give \(option) its value first"
                                      + (option == "--null" ? " (--null '' for an empty one)." : "."))
            }
        }
        if let problem = ImportOptions.nullTokensProblem(nullTokens) {
            throw ValidationError("--null: \(problem).")
        }
        if !trueValues.isEmpty || !falseValues.isEmpty, let problem = ImportOptions.booleanWordsProblem(true: trueValues, false: falseValues) {
            throw ValidationError("\(problem); see docs/mapping.md, Converting values.")
        }
        for source in sources where Self.split(source) == nil {
            throw ValidationError("'\(source)' is not Entity=path.csv.")
        }
    }

    /// An option's value with line breaks, tabs and other controls written out (`\n`), as a message quotes it.
    static func visible(_ value: String) -> String {
        value.unicodeScalars.map { $0.properties.generalCategory == .control ? $0.escaped(asASCII: true) : String($0) }.joined()
    }

    /// A path for an output of `kind` (`mapping`, `summary`) next to `path`, which is taken, that names
    /// no file: `bank.csv` gives `bank.mapping.json`, and `bank.mapping.json` gives `bank.new.mapping.json`,
    /// or `bank.new2.mapping.json` when that one exists, and so on. In `path`'s directory, as written.
    static func ownPath(besides path: String, kind: String) -> String {
        let directory = (path as NSString).deletingLastPathComponent
        var base = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        // 0: base.kind.json, 1: base.new.kind.json, n: base.new<n>.kind.json.
        var number = 0
        if base.hasSuffix("." + kind) {
            base = String(base.dropLast(kind.count + 1))
            number = 1
        }
        func named(_ number: Int) -> String {
            let name = base + (number == 0 ? "" : number == 1 ? ".new" : ".new\(number)") + "." + kind + ".json"
            return directory.isEmpty ? name : (directory as NSString).appendingPathComponent(name)
        }
        // Any entry counts as taken, a link that leads nowhere too (writing would follow it).
        while number < 1000, (try? FileManager.default.attributesOfItem(atPath: named(number))) != nil { number += 1 }
        return named(number)
    }

    func run() throws {
        // Freed row buffers and outgrown tables go back to the system as the import goes, so its peak
        // resident memory is what it holds (244,292 wells: 61–64 MB, against 62.5–66 MB with glibc's
        // defaults, at the same speed). Not for the fetch commands: fetching 100,000 objects took 5–8%
        // longer with it, as large arrays were mapped afresh each time.
        ProcessMemory.returnFreedMemoryPromptly()
        var options = ImportOptions()
        options.batchSize = batchSize
        options.onError = onError
        options.rejectsPath = rejects
        options.progress = progress
        options.vacuum = vacuum
        options.keyIndexMemoryBytes = keyMemory << 20
        options.maximumRecordBytes = maxRecordSize.map { $0 << 20 }
        if let readAhead { options.readsAhead = readAhead }   // else the default: ImportOptions.hasSpareCore
        if let forwardKeyLimit { options.forwardKeyLimit = max(0, forwardKeyLimit) }
        options.encoding = encoding.flatMap(TextEncoding.init(label:))
        options.delimiter = delimiter.flatMap(CSVOptions.byte)
        options.quote = quote.flatMap(CSVOptions.byteOrNone)
        options.escape = escape.flatMap(CSVOptions.byteOrNone)
        options.escapedLineEnd = lineEnd
        options.decimalComma = decimalComma
        options.trim = trim
        options.skipLines = skipLines
        options.nullTokens = nullTokens.isEmpty ? nil : nullTokens
        options.dateFormats = dateFormats.isEmpty ? nil : dateFormats
        options.pivotYear = pivotYear
        options.timeZone = timeZone
        options.trueValues = trueValues.isEmpty ? nil : trueValues
        options.falseValues = falseValues.isEmpty ? nil : falseValues
        options.removesTemporaryFilesOnSignal = true
        // Read now, and checked against the model before anything is imported (exit 2).
        let versionHashes: CoreDataVersionHashes?
        do { versionHashes = try coreDataHashes.map { path throws(StoreError) in try CoreDataVersionHashes(contentsOf: path) } } catch {
            printError("error: --core-data-hashes: \(error)")
            throw ExitCode(2)
        }
        options.coreDataVersionHashes = versionHashes
        // Inputs that are pipes are copied while the mapping is made or saved, before the import runs:
        // the signal handlers, the interrupted line and the copy's progress are set up first.
        SeedImporter.prepare(into: out, options: options)
        // A usage error found once the files' settings are known (ExitCode) goes past the catch.
        do {
            var importMapping: ImportMapping
            let objectModel: ObjectModel
            if let mapping {
                importMapping = try ImportMapping(contentsOf: mapping)
                objectModel = try importMapping.loadModel(model)
                // Inputs named from here, so a place a message or the rejects file names can be opened.
                importMapping = importMapping.rebased(to: FileManager.default.currentDirectoryPath)
                try checkDelimiterAndQuote(importMapping.files.map { ($0.path, $0.options) })
            } else {
                let empty = ImportMapping(files: [])
                objectModel = try empty.loadModel(model)
                var defaults = CSVOptions()
                if let encoding = options.encoding { defaults.encoding = encoding }
                if let delimiter = options.delimiter { defaults.delimiter = delimiter }
                if let quote = options.quote { defaults.quote = quote }
                if let escape = options.escape, escape != 0 { defaults.escape = escape }
                if let skipLines = options.skipLines { defaults.skipLines = skipLines }
                try checkDelimiterAndQuote(sources.compactMap(Self.split).map { ($0.path, defaults) })
                importMapping = try ImportMapping.inferred(sources: sources.compactMap(Self.split), model: objectModel, defaults: defaults)
            }
            // The mapping names the model this import reads (so --out and --rejects cannot replace it).
            if let model { importMapping.model = URL(fileURLWithPath: model).standardizedFileURL.path }
            if let summaryJSON { try checkSummaryPath(summaryJSON, mapping: importMapping) }
            if let problem = versionHashes?.mismatch(with: objectModel) {
                throw ImportError(.mapping, reason: "--core-data-hashes \(coreDataHashes!) is not for this model: \(problem)",
                                  file: coreDataHashes,
                                  hint: "Give the compiled model of the version the import's model describes (the app's Model.momd). Nothing was written.")
            }
            if let versionHashes, let coreDataHashes {
                // Core Data opens the store on these hashes alone, and SeedStore cannot compute them to compare.
                printError("note: --core-data-hashes \(coreDataHashes): the store will carry these hashes for "
                    + "\(versionHashes.hashes.keys.sorted().joined(separator: ", ")); only the entity names were checked. Core Data trusts them "
                    + "and opens the store with the app's model, so the import's model must be that version exactly (attributes, their "
                    + "types and optionality, relationships), or the app fails when it reads the store.")
            }
            if let saveMapping { try save(importMapping.applying(options, model: objectModel), model: objectModel, to: saveMapping) }
            let summary = try SeedImporter(model: objectModel, mapping: importMapping, options: options).run(into: out)
            // With the JSON on standard output, the summary for people goes to standard error, so the
            // output stays one JSON document (`--summary-json /dev/stdout > summary.json`).
            if let summaryJSON, OutputPath.descriptor(named: summaryJSON) == 1 {
                printError(summary.description)
            } else {
                // Warnings quote header names as the file has them: a NUL or an escape is written out.
                print(VisibleText.escaped(summary.description, keepingLines: true))
            }
            if let summaryJSON { try writeSummary(summary, to: summaryJSON) }
            if versionHashes == nil {
                // Core Data compares these hashes with its model's and refuses a store without them (134100).
                printError("note: the store carries no Core Data version hashes, so Core Data will not open it; "
                           + "for an app's store, import with --core-data-hashes App.momd (the app's compiled model)")
            }
        } catch let error as ImportError {
            printError("error: \(error)")
            throw ExitCode(error.exitCode)
        }
    }

    /// A usage error (exit 64) found once the files' settings are known: `--quote` equal to a file's
    /// delimiter (its mapping's, a `.tsv` file's tab, an Excel `sep=` line's, or ','), or `--delimiter` equal to
    /// a file's quote (its mapping's), as ``validate()`` refuses `--delimiter` equal to `--quote` or '"'. A
    /// pipe is left to the import, which reads it once.
    func checkDelimiterAndQuote(_ files: [(path: String, options: CSVOptions)]) throws(ExitCode) {
        let escapeByte = escape.flatMap(CSVOptions.byteOrNone).flatMap { $0 == 0 ? nil : $0 }
        guard (delimiter == nil) != (quote == nil) || escapeByte != nil else { return }
        for (path, options) in files {
            guard (try? FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType) == .typeRegular else { continue }
            let (shown, message): (String, String)
            let fileDelimiter = delimiter.flatMap(CSVOptions.byte) ?? options.forFile(path).withSeparatorLine(of: path).delimiter
            let fileQuote = quote.flatMap(CSVOptions.byteOrNone) ?? options.quote
            if let escape, let escapeByte, escapeByte == fileDelimiter || escapeByte == fileQuote {
                let which = escapeByte == fileDelimiter ? "delimiter" : "quote"
                (shown, message) = (escape, "--escape and the \(which) of \(path) are both '%@'; they must differ (choose another --\(which == "delimiter" ? "delimiter" : "quote")).")
            } else if (delimiter == nil) == (quote == nil) {
                continue
            } else if let quote, let byte = CSVOptions.byte(quote), options.forFile(path).withSeparatorLine(of: path).delimiter == byte {
                (shown, message) = (quote, "--quote and the delimiter of \(path) are both '%@'; they must differ (choose another --delimiter).")
            } else if let delimiter, let byte = CSVOptions.byte(delimiter), options.quote == byte {
                (shown, message) = (delimiter, "--delimiter and the quote of \(path) are both '%@'; they must differ (choose another --quote).")
            } else {
                continue
            }
            // As ArgumentParser prints a ValidationError: thrown from run(), one would show the root command's usage.
            printError("error: " + message.replacingOccurrences(of: "%@", with: Self.visible(shown)) + "\n"
                       + "Usage: " + SeedStoreCommand.usageString(for: ImportCommand.self) + "\n"
                       + "  See 'seedstore import --help' for more information.")
            throw ExitCode.validationFailure
        }
    }

    /// What the file at `path` already is to this import (`"the model"`, `"an input file"`…), or `nil`
    /// when the import neither reads nor writes it: an output option must not name such a file. The
    /// rejects file counts in skip mode, where it is written (at its default path when not given).
    func role(of path: String, mapping: ImportMapping, besides option: String) -> String? {
        // A stream (/dev/stdout, a pipe) is written as it is, never replaced: several outputs may share one.
        guard !OutputPath.isStream(path) else { return nil }
        let rejectsPath = onError == .skip ? rejects ?? (out as NSString).deletingPathExtension + ".rejects.csv" : nil
        var used = [(mapping.source, "the mapping given"), (mapping.modelPath, "the model"), (out, "the store (--out)"), (rejectsPath, "the rejects file")]
            + mapping.files.map { (Optional(mapping.resolve($0.path)), "an input file") }
        if option != "--save-mapping" { used.append((saveMapping, "the mapping --save-mapping writes")) }
        if option != "--summary-json" { used.append((summaryJSON, "the summary --summary-json writes")) }
        // The same file however it is spelled: through links, `..`, or a hard link (``OutputPath/same(_:_:)``).
        return used.first { other, _ in other.map { OutputPath.same($0, path) } ?? false }?.1
    }

    /// Refuses a `--summary-json` path the import reads or writes, or one that cannot be written, before
    /// anything is imported: written after the import, it would replace an input or the store just made,
    /// or be found missing only when the work is done.
    func checkSummaryPath(_ path: String, mapping: ImportMapping) throws(ImportError) {
        // One stream for both: the JSON would follow the rejects' CSV, and neither would read as what it is.
        if onError == .skip, let rejects, let stream = OutputPath.descriptor(named: path), OutputPath.descriptor(named: rejects) == stream {
            throw ImportError(.mapping, reason: "--summary-json \(path) and --rejects \(rejects) both write to descriptor \(stream) of this process: the JSON would follow the rejects' CSV",
                              file: path, hint: "Send one of them to a file. Nothing was imported.")
        }
        if let role = role(of: path, mapping: mapping, besides: "--summary-json") {
            throw ImportError(.mapping, reason: "--summary-json \(path) is \(role); the summary would replace it", file: path,
                              hint: "Give --summary-json a path of its own, such as \(Self.ownPath(besides: path, kind: "summary")). Nothing was imported.")
        }
        try Self.checkReplaceable(path, option: "--summary-json", kind: "summary", what: "a summary seedstore import wrote") { json in
            json["store"] is String && json["files"] is [Any] && json["objects"] != nil
        }
        switch OutputPath.problem(writing: path) {
        case nil:
            return
        case .empty?:
            throw ImportError(.mapping, reason: "--summary-json is empty", hint: "Name a file, such as summary.json. Nothing was imported.")
        case .directory(let directory)?:
            throw ImportError(.mapping, reason: "--summary-json \(path) is a directory", file: path,
                              hint: "Name a file, such as \(URL(fileURLWithPath: directory).appendingPathComponent("summary.json").path). Nothing was imported.")
        case .notWritable?:
            throw ImportError(.mapping, reason: "--summary-json \(path) cannot be written (permission denied)", file: path,
                              hint: "Name a file you can write. Nothing was imported.")
        case let problem?:
            if case .directoryNotWritable = problem {
                throw ImportError(.mapping, reason: "--summary-json \(path): \(problem)", file: path,
                                  hint: "Name a file in a directory you can write. Nothing was imported.")
            }
            throw ImportError(.mapping, reason: "--summary-json \(path): \(problem)", file: path,
                              hint: "Name a file in a directory that exists. Nothing was imported.")
        }
    }

    /// Refuses to replace an existing, non-empty file that is not what `option` writes (`isOurs` says, from
    /// its JSON object): a typo (`--summary-json wells.csv`, `--save-mapping notes.json`) must not cost
    /// a file the import neither reads nor wrote. Streams, new files and empty files pass.
    ///
    /// ```swift
    /// try ImportCommand.checkReplaceable("notes.txt", option: "--summary-json", kind: "summary",
    ///                                    what: "a summary seedstore import wrote") { $0["store"] is String }
    /// ```
    static func checkReplaceable(_ path: String, option: String, kind: String, what: String,
                                 isOurs: ([String: Any]) -> Bool) throws(ImportError) {
        guard !OutputPath.isStream(path) else { return }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
              let handle = FileHandle(forReadingAtPath: path) else { return }
        // A summary or mapping is small; a file of more than 16 MiB is not one.
        let head = (try? handle.read(upToCount: 16 << 20)) ?? Data()
        try? handle.close()
        guard !head.isEmpty else { return }
        if head.count < 16 << 20, let json = try? JSONSerialization.jsonObject(with: head) as? [String: Any], isOurs(json) { return }
        throw ImportError(.mapping, reason: "\(option) \(path) exists and is not \(what); it would be replaced", file: path,
                          hint: "Give \(option) another path, such as \(Self.ownPath(besides: path, kind: kind)), or remove the file first if it may go. Nothing was imported.")
    }

    /// Writes the summary as JSON, ending with a line break as a text file does: a regular file (or a new
    /// one) through a temporary file renamed into place, so a reader never sees half of it; a device or
    /// pipe (`/dev/stdout`) directly.
    func writeSummary(_ summary: ImportSummary, to path: String) throws(ImportError) {
        do { try OutputPath.write(summary.jsonData() + [UInt8(ascii: "\n")], to: path) } catch {
            throw ImportError(.store, reason: "the store was written, but the summary could not be: \(error)", file: path,
                              hint: "The store at \(out) is complete; re-run with a --summary-json path you can write if you need the summary.")
        }
    }

    /// Writes `mapping` to `path`, its paths relative to the file's directory (``ImportMapping/jsonData(relativeTo:model:)``);
    /// never over a file the import reads or writes.
    func save(_ mapping: ImportMapping, model: ObjectModel, to path: String) throws(ImportError) {
        if let role = role(of: path, mapping: mapping, besides: "--save-mapping") {
            throw ImportError(.mapping, reason: "--save-mapping \(path) is \(role); the mapping would replace it", file: path,
                              hint: "Give --save-mapping a path of its own, such as \(Self.ownPath(besides: path, kind: "mapping")). Nothing was imported.")
        }
        try Self.checkReplaceable(path, option: "--save-mapping", kind: "mapping", what: "a mapping") { json in
            json["format"] != nil && json["files"] is [Any]
        }
        // Paths relative to where the file lands (the kernel's place: a link's file, `link/..` resolved);
        // a stream gets them relative to the current directory.
        let place = OutputPath.isStream(path) ? FileManager.default.currentDirectoryPath
            : URL(fileURLWithPath: OutputPath.canonical(path)).deletingLastPathComponent().path
        do { try OutputPath.write(mapping.jsonData(relativeTo: place, model: model), to: path) } catch {
            throw ImportError(.mapping, reason: "cannot write the mapping: \(error)", file: path,
                              hint: "Check that the directory exists and is writable, and that the path is not a directory. Nothing was imported.")
        }
        if OutputPath.isStream(path) {
            printError("wrote the mapping to \(path): save it to a file, edit it and import with --mapping FILE")
        } else {
            printError("wrote the mapping to \(path): edit it and import with --mapping \(path)")
        }
    }

    /// `Entity=path.csv` as its two parts.
    static func split(_ source: String) -> (entity: String, path: String)? {
        guard let equals = source.firstIndex(of: "=") else { return nil }
        let entity = String(source[..<equals]).trimmingCharacters(in: .whitespaces)
        let path = String(source[source.index(after: equals)...])
        return entity.isEmpty || path.isEmpty ? nil : (entity, path)
    }

}

extension ErrorPolicy: ExpressibleByArgument {}
extension ProgressMode: ExpressibleByArgument {}
extension CSVDialect.EscapedLineEnd: ExpressibleByArgument {}
