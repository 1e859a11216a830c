import CSVStream
import Foundation
import ManagedStore

/// How an import runs: batch size, what to do with bad rows, progress, and the finish.
///
/// For example:
///
/// ```swift
/// var options = ImportOptions()
/// options.onError = .skip
/// options.rejectsPath = "rejects.csv"
/// options.progress = .plain
/// ```
public struct ImportOptions: Sendable {
    /// Objects inserted or updated between saves; the context is reset after each save, so memory
    /// stays flat. 10,000 measured best on the 244,292 wells (5,000 is within 2%; 1,000 is 8% slower).
    public var batchSize: Int
    /// What a bad row does: stop the import, or go to the rejects file.
    public var onError: ErrorPolicy
    /// Where rejected rows go in skip mode; by default next to the store, named after it without its
    /// extension (`Wells.sqlite` → `Wells.rejects.csv`), written only when there are rejects.
    public var rejectsPath: String?
    /// How progress is shown, on standard error or through ``progressOutput`` (default `.none`; the
    /// CLI's default is `auto`).
    public var progress: ProgressMode
    /// Whether to `VACUUM` the store after building indexes.
    public var vacuum: Bool
    /// Core Data's entity version hashes of the app's model, written into the store's metadata so that
    /// Core Data opens it (``CoreDataVersionHashes``; the CLI's `--core-data-hashes`). Without them the
    /// metadata holds SeedStore's own hashes only, and Core Data refuses the store as made with another model.
    public var coreDataVersionHashes: CoreDataVersionHashes?
    /// Overrides every file's encoding (the CLI's `--encoding`).
    public var encoding: TextEncoding?
    /// Overrides every file's delimiter (the CLI's `--delimiter`).
    public var delimiter: UInt8?
    /// Overrides every file's longest record in bytes (``CSVOptions/maximumRecordBytes``; the CLI's
    /// `--max-record-size`, in MiB).
    public var maximumRecordBytes: Int?
    /// Overrides every file's quote (the CLI's `--quote`; ``CSVDialect/noQuote``, 0, for none).
    public var quote: UInt8?
    /// Overrides every file's escape byte (``CSVOptions/escape``; the CLI's `--escape`): a backslash reads
    /// MySQL's and PostgreSQL's text exports, 0 turns a mapping's escape off, `nil` leaves each file as its
    /// mapping says (none by default).
    public var escape: UInt8?
    /// Overrides every escaped file's line ends (``CSVOptions/escapedLineEnd``; the CLI's `--line-end`).
    public var escapedLineEnd: CSVDialect.EscapedLineEnd?
    /// Reads every file's numbers with a decimal comma (``CSVOptions/decimalComma``; the CLI's
    /// `--decimal-comma`). Off leaves each file as its mapping says.
    public var decimalComma = false
    /// Overrides every file's trimming (``CSVOptions/trim``; the CLI's `--trim` and `--no-trim`): `true`
    /// drops spaces and tabs around unquoted text, `false` keeps them, `nil` leaves each file as its
    /// mapping says (off by default).
    public var trim: Bool?
    /// Overrides every file's time zone for Date values written without one (``CSVOptions/timeZone``;
    /// the CLI's `--time-zone`).
    public var timeZone: String?
    /// Overrides every file's lines to skip above the header (``CSVOptions/skipLines``; the CLI's
    /// `--skip-lines`).
    public var skipLines: Int?
    /// Overrides every file's null tokens (the CLI's `--null`).
    public var nullTokens: [String]?
    /// The date formats, tried in order, of Date columns the mapping gives none (the CLI's
    /// `--date-format`): how dates other than ISO 8601 are read without a mapping file. See ``DateFormat``.
    ///
    /// ```swift
    /// options.dateFormats = ["d-MMM-yy"]
    /// options.pivotYear = 2000   // 13-Oct-00 is 2000-10-13
    /// ```
    public var dateFormats: [String]?
    /// Where two-digit years start for Date columns the mapping gives no pivot year (the CLI's `--pivot-year`).
    public var pivotYear: Int?
    /// More words for true in Boolean columns the mapping gives none for (the CLI's `--true-value`),
    /// read besides true/false, yes/no, y/n, t/f and 1/0 (``ColumnMapping/trueValues``).
    ///
    /// ```swift
    /// options.trueValues = ["ja", "oui"]
    /// options.falseValues = ["nein", "non"]
    /// ```
    public var trueValues: [String]?
    /// More words for false (the CLI's `--false-value`): see ``trueValues``.
    public var falseValues: [String]?

    /// Why null tokens given as options (`--null`) cannot be matched, or `nil` when they can: at most four
    /// besides `""`, each at most 32 bytes.
    ///
    /// ```swift
    /// ImportOptions.nullTokensProblem(["", "NA"])   // nil
    /// ```
    public static func nullTokensProblem(_ tokens: [String]) -> String? {
        _NullTokens.limitProblem(tokens)
    }

    /// Why Boolean words given as options cannot be read, naming them as `names` (the options they came
    /// from), or `nil` when they can: a word may not be empty, in both lists, or a built-in word for the
    /// other value.
    ///
    /// ```swift
    /// ImportOptions.booleanWordsProblem(true: ["no"], false: [])
    /// // "--true-value holds \"no\", which already reads as false"
    /// ```
    public static func booleanWordsProblem(true trueValues: [String], false falseValues: [String],
                                           names: (true: String, false: String) = ("--true-value", "--false-value")) -> String? {
        guard case .failure(let problem) = _BooleanWords.make(true: trueValues, false: falseValues, names: names) else { return nil }
        return problem.message
    }
    /// SQLite's page cache during the load, in KiB. Inserts append pages, so a small cache costs nothing
    /// and keeps memory flat.
    public var cacheSizeKiB: Int
    /// SQLite's page cache while the indexes are built, in KiB: the sorter keeps this much in memory
    /// before it spills to a sorted run in a temporary file. Small runs that fit the CPU's caches sort
    /// faster than one big in-memory list: on the 244,292 wells, building the four indexes and `ANALYZE`
    /// took 0.30 s with 1 MiB against 0.36–0.47 s with 8 MiB, and less CPU.
    public var indexCacheSizeKiB: Int
    /// Helper threads SQLite's sorter may use while the indexes are built (`PRAGMA threads`): it sorts
    /// runs on them while the import's thread reads the table. The load is over by then, so its second
    /// core is free: on the 244,292 wells, the three Well indexes took 0.20–0.21 s with 2 against
    /// 0.26–0.28 s with 0 (1: 0.22 s), the same peak memory. 0 sorts on the import's thread alone.
    ///
    /// ```swift
    /// var options = ImportOptions()
    /// options.indexSortThreads = 0   // a machine whose other cores are taken
    /// ```
    public var indexSortThreads = ImportOptions.defaultIndexSortThreads
    /// The memory the key indexes (key value → object, for upserts and relationship columns) may take
    /// together, in bytes. An index of more than 32,768 keys keeps no key bytes (it confirms a match by
    /// reading the object's key back) and costs about 20–30 bytes per distinct key. An index whose growth
    /// passes this budget moves its keys, at the next save, to a temporary SQLite file as a sorted run,
    /// and starts over in memory; Bloom filters spare most lookups of new keys the file. Memory stays flat
    /// however many distinct keys the input holds, for an import slower past the budget (on the wells,
    /// 1.1x the time at a million rows, 1.4–1.55x at four million).
    /// The default, 12 MiB, keeps about 400,000 keys of one index in memory: the 244,292 wells do not
    /// reach it, and four times as many stay within 20% of their peak.
    public var keyIndexMemoryBytes: Int
    /// The keys past which an index drops their bytes (``keyIndexMemoryBytes``); tests set it low to
    /// take that path with a few rows.
    package var keyBytesThreshold = 32_768
    /// In abort mode, how many forward keys may wait to be set as their rows come; past it they wait for
    /// the end of the file, as in skip mode (16,384, about 3 MB; tests set it low to mix the two).
    package var earlyForwardLimit = 1 << 14
    /// How many forward keys waiting for the end of the file stay in memory; past it, at the next save,
    /// they move to a temporary file, read back in line order once the file has been read (16,384, about
    /// 3 MB; tests set it low to take that path with a few rows). On 800,000 employees each naming one of
    /// the last 1,000 rows, abort mode: 70 MB and 5.7 s, against 171 MB and 5.1 s all in memory.
    package var forwardKeyLimit = 1 << 14
    /// About how many bytes of writes to earlier objects by rows without forward keys a file keeps, in
    /// skip mode, to take back should such a row be rejected in a chain (16 MiB, as estimated); tests
    /// set it low to pass it with a few rows.
    package var chainWriteBytes = 16 << 20
    /// The most runs an import makes, in skip mode, when rows rejected late changed what later rows found
    /// (each run leaves out the rows rejected late before it, and reads every file again): 8, since a
    /// chain the fuzzer found needs 5 and leaving out one row a run needs runs to spare; tests set it
    /// low to reach the limit.
    package var maxRuns = 8
    /// Whether records are read and converted on a second thread while this one inserts and saves.
    /// The work splits about in half, so with a core to spare an import takes up to a third less time;
    /// without one (a busy machine) the hand-over and cross-thread allocation cost more than they save.
    /// By default ``hasSpareCore``: on when this machine has a core that is not busy right now.
    public var readsAhead: Bool
    /// How many line numbers a duplicate-key report lists.
    public var reportedLines: Int
    /// Called with each file pass's position before it is read; tests change a file there.
    var beforeEachPass: (@Sendable (Int) -> Void)?
    /// Where progress text goes (standard error by default): the lines ``progress`` asks for, as the CLI
    /// prints them (a bar's redraws start with `\r`; plain lines end with a line break). With ``progress``
    /// at `.none`, its default here, nothing comes.
    ///
    /// ```swift
    /// options.progress = .plain
    /// options.progressOutput = { line in print(line, terminator: "") }
    /// ```
    public var progressOutput: (@Sendable (String) -> Void)?
    /// Whether SIGINT, SIGTERM and SIGHUP remove the temporary store (and a rejects file this run
    /// created) before the process ends. For command-line tools, which the signal ends anyway (the
    /// `seedstore` CLI sets it); an app that handles these signals itself leaves it off.
    ///
    /// ```swift
    /// var options = ImportOptions()
    /// options.removesTemporaryFilesOnSignal = true   // Ctrl-C leaves no `.Store.sqlite.importing-<pid>`
    /// ```
    public var removesTemporaryFilesOnSignal = false

    /// The default ``cacheSizeKiB``: 2 MiB.
    public static let defaultCacheSizeKiB = 2_048
    /// The default ``keyIndexMemoryBytes``: 12 MiB.
    public static let defaultKeyIndexMemoryBytes = 12 << 20
    /// The default ``indexCacheSizeKiB``: 1 MiB, about the smallest run SQLite's sorter makes.
    public static let defaultIndexCacheSizeKiB = 1_024
    /// The default ``indexSortThreads``: 2 on a machine with more than one core, else 0.
    public static let defaultIndexSortThreads = ProcessInfo.processInfo.activeProcessorCount > 1 ? 2 : 0

    /// Options with the defaults of `seedstore import`, save those given.
    ///
    /// ```swift
    /// var options = ImportOptions(batchSize: 5_000, onError: .skip, rejectsPath: "rejects.csv")
    /// options.vacuum = true
    /// ```
    public init(batchSize: Int = 10_000, onError: ErrorPolicy = .abort, rejectsPath: String? = nil,
                progress: ProgressMode = .none, vacuum: Bool = false, encoding: TextEncoding? = nil,
                delimiter: UInt8? = nil, nullTokens: [String]? = nil, cacheSizeKiB: Int = ImportOptions.defaultCacheSizeKiB,
                indexCacheSizeKiB: Int = ImportOptions.defaultIndexCacheSizeKiB, readsAhead: Bool = ImportOptions.hasSpareCore, reportedLines: Int = 5) {
        self.batchSize = batchSize
        self.onError = onError
        self.rejectsPath = rejectsPath
        self.progress = progress
        self.vacuum = vacuum
        self.encoding = encoding
        self.delimiter = delimiter
        self.nullTokens = nullTokens
        self.cacheSizeKiB = cacheSizeKiB
        self.indexCacheSizeKiB = indexCacheSizeKiB
        self.keyIndexMemoryBytes = Self.defaultKeyIndexMemoryBytes
        self.readsAhead = readsAhead
        self.reportedLines = reportedLines
    }
}

extension ImportOptions {
    /// Whether a second thread would find a core to run on: more than one core, and a one-minute load
    /// average that leaves at least one of them idle.
    ///
    /// For example:
    ///
    /// ```swift
    /// let options = ImportOptions(readsAhead: ImportOptions.hasSpareCore)  // the default
    /// ```
    public static var hasSpareCore: Bool {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        guard cores > 1 else { return false }
        var load = [0.0]
        guard getloadavg(&load, 1) == 1 else { return true }
        return load[0] <= Double(cores) - 1
    }
}

/// What a bad row does.
///
/// For example:
///
/// ```swift
/// var options = ImportOptions()
/// options.onError = .skip   // rejects go to options.rejectsPath
/// ```
public enum ErrorPolicy: String, Sendable, CaseIterable, Codable {
    /// Stop at the first bad row, naming file:line:column, entity, attribute, value and reason; the
    /// store is left as it was.
    case abort
    /// Write the row to the rejects file and go on.
    case skip
}

/// How progress is shown.
///
/// For example:
///
/// ```swift
/// var options = ImportOptions()
/// options.progress = .plain   // import: 42% wells.csv, 102,310 rows, 61,020 rows/s, ETA 0:03
/// ```
public enum ProgressMode: String, Sendable, CaseIterable, Codable {
    /// A bar on a terminal, plain lines otherwise.
    case auto
    /// A bar redrawn in place (at most ten times a second): percent of bytes, rows/s, ETA.
    case bar
    /// A line every few seconds, for logs.
    case plain
    /// Nothing.
    case none
}
