import Foundation
import ManagedStore

/// What an import did: rows per file, objects per entity, rejects, duplicate keys, time and memory.
///
/// Encodes to JSON (the CLI's `--summary-json`); its description is the human summary.
///
/// For example:
///
/// ```swift
/// let summary = try SeedImporter(model: model, mapping: mapping).run(into: "Wells.sqlite")
/// print(summary)
/// print(summary.objects["Well"]?.inserted ?? 0)   // 244292
/// ```
public struct ImportSummary: Sendable, Codable {
    /// One file's figures.
    public struct FileReport: Sendable, Codable {
        /// The file as the mapping names it.
        public var path: String
        /// Records read after the header.
        public var rowsRead: Int
        /// Rows that filled their targets.
        public var rowsImported: Int
        /// Blank lines and records whose fields are all empty, skipped.
        public var blankRows: Int
        /// Rows set aside (skip mode).
        public var rejects: Int
        /// Pairs a join file added to the store: a pair repeated in the file, or already stored, counts once.
        public var joins: Int
        /// The entities its rows filled (empty for a join file); `nil` in summaries written before
        /// this was recorded.
        public var entities: [String]?
        /// For a join file, the to-many relationship its pairs fill (`FailedBankDetails.tags`); `nil` for
        /// other files and in summaries written before this was recorded.
        public var relationship: String? = nil
        /// Rows that repeat the header (files concatenated with their headers), skipped; `nil` when none.
        public var repeatedHeaders: Int? = nil
        /// The first few lines of those rows.
        public var repeatedHeaderLines: [Int]? = nil
        /// Of ``rejects``, rows whose values read but whose keys did not hold (a key naming no object, a row
        /// taken along with one, a partner taken); `nil` in summaries written before this was recorded.
        public var relationshipRejects: Int? = nil

        /// Whether the file had rows and every one was rejected: an import that succeeded in name only,
        /// usually a format, delimiter or encoding that does not fit the file.
        public var everyRowRejected: Bool { rejects > 0 && rejects == rowsRead - blankRows - (repeatedHeaders ?? 0) }

        /// Of a join file's rows, those whose pair was stored already (repeated in the file, or in the
        /// store before): they added no row, so ``joins`` counts each pair once.
        public var repeatedPairs: Int { entities?.isEmpty == true || joins > 0 ? max(0, rowsImported - joins) : 0 }
    }

    /// Objects of one entity.
    public struct EntityReport: Sendable, Codable {
        /// Objects made.
        public var inserted: Int
        /// Existing objects a later row with the same key updated.
        public var updated: Int
        /// Rows of the entity's table when the import finished.
        public var stored: Int
    }

    /// Keys that came again within one file: the later rows updated the earlier object.
    public struct DuplicateReport: Sendable, Codable {
        /// The file the key came again in, as the mapping names it.
        public var file: String
        /// The entity whose key it is.
        public var entity: String
        /// The key attribute.
        public var key: String
        /// How many rows repeated a key seen earlier in the file.
        public var count: Int
        /// The first few lines that did.
        public var lines: [Int]
    }

    /// The finished store.
    public var store: String
    /// One report per file of the mapping, in import order (a file mapped twice has two).
    public var files: [FileReport]
    /// By entity name.
    public var objects: [String: EntityReport]
    /// Keys that came again within a file, per file and entity.
    public var duplicates: [DuplicateReport]
    /// Rows rejected in all files.
    public var rejects: Int
    /// Where rejected rows were written, when there were any.
    public var rejectsFile: String?
    /// Other things worth knowing (stale temporary files removed, keys that are not unique, …).
    public var warnings: [String]
    /// Wall-clock seconds from start to the store in place.
    public var elapsedSeconds: Double
    /// Of ``elapsedSeconds``: saving batches (the context's save and reset).
    public var saveSeconds: Double
    /// Of ``elapsedSeconds``: building indexes, ANALYZE, VACUUM and moving the store into place.
    public var finishSeconds: Double
    /// The highest resident memory of the process (`VmHWM`), in bytes, when readable.
    public var peakMemoryBytes: Int?
    /// The store's size in bytes.
    public var storeBytes: Int

    /// Rows read over all files.
    public var rowsRead: Int { files.reduce(0) { $0 + $1.rowsRead } }

    /// Rows read per second.
    public var rowsPerSecond: Double { elapsedSeconds > 0 ? Double(rowsRead) / elapsedSeconds : 0 }

    /// Duplicate keys over all files.
    public var duplicateCount: Int { duplicates.reduce(0) { $0 + $1.count } }

    enum CodingKeys: String, CodingKey {
        case store, files, objects, duplicates, rejects, rejectsFile, warnings, elapsedSeconds, saveSeconds, finishSeconds
        case peakMemoryBytes, storeBytes
        case rowsRead, rowsPerSecond
    }

    /// A summary with these figures (the importer makes one; tests and tools that read `--summary-json`
    /// back decode one).
    ///
    /// ```swift
    /// let summary = ImportSummary(store: "Wells.sqlite", files: [], objects: [:], duplicates: [], rejects: 0,
    ///                             rejectsFile: nil, warnings: [], elapsedSeconds: 0.8, peakMemoryBytes: nil, storeBytes: 0)
    /// ```
    public init(store: String, files: [FileReport], objects: [String: EntityReport], duplicates: [DuplicateReport],
                rejects: Int, rejectsFile: String?, warnings: [String], elapsedSeconds: Double, saveSeconds: Double = 0,
                finishSeconds: Double = 0, peakMemoryBytes: Int?, storeBytes: Int) {
        self.store = store
        self.files = files
        self.objects = objects
        self.duplicates = duplicates
        self.rejects = rejects
        self.rejectsFile = rejectsFile
        self.warnings = warnings
        self.elapsedSeconds = elapsedSeconds
        self.saveSeconds = saveSeconds
        self.finishSeconds = finishSeconds
        self.peakMemoryBytes = peakMemoryBytes
        self.storeBytes = storeBytes
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        store = try container.decode(String.self, forKey: .store)
        files = try container.decode([FileReport].self, forKey: .files)
        objects = try container.decode([String: EntityReport].self, forKey: .objects)
        duplicates = try container.decode([DuplicateReport].self, forKey: .duplicates)
        rejects = try container.decode(Int.self, forKey: .rejects)
        rejectsFile = try container.decodeIfPresent(String.self, forKey: .rejectsFile)
        warnings = try container.decode([String].self, forKey: .warnings)
        elapsedSeconds = try container.decode(Double.self, forKey: .elapsedSeconds)
        saveSeconds = try container.decodeIfPresent(Double.self, forKey: .saveSeconds) ?? 0
        finishSeconds = try container.decodeIfPresent(Double.self, forKey: .finishSeconds) ?? 0
        peakMemoryBytes = try container.decodeIfPresent(Int.self, forKey: .peakMemoryBytes)
        storeBytes = try container.decode(Int.self, forKey: .storeBytes)
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(store, forKey: .store)
        try container.encode(files, forKey: .files)
        try container.encode(objects, forKey: .objects)
        try container.encode(duplicates, forKey: .duplicates)
        try container.encode(rejects, forKey: .rejects)
        try container.encodeIfPresent(rejectsFile, forKey: .rejectsFile)
        try container.encode(warnings, forKey: .warnings)
        try container.encode(elapsedSeconds, forKey: .elapsedSeconds)
        try container.encode(saveSeconds, forKey: .saveSeconds)
        try container.encode(finishSeconds, forKey: .finishSeconds)
        try container.encodeIfPresent(peakMemoryBytes, forKey: .peakMemoryBytes)
        try container.encode(storeBytes, forKey: .storeBytes)
        try container.encode(rowsRead, forKey: .rowsRead)
        try container.encode(rowsPerSecond, forKey: .rowsPerSecond)
    }

    /// The summary as JSON (sorted keys), as `--summary-json` writes it.
    public func jsonData() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return (try? encoder.encode(self)) ?? Data()
    }
}

extension ImportSummary: CustomStringConvertible {
    /// The human summary: one line per file and entity, then rejects, duplicates, time and memory.
    public var description: String {
        let g = _ProgressReporter.grouped
        /// A count and its noun, singular for one: "1 row", "2,002 rows".
        func counted(_ count: Int, _ noun: String) -> String { "\(g(count)) \(noun)\(count == 1 ? "" : "s")" }
        var lines = ["Imported \(store) (\(ProcessMemory.format(storeBytes)))"]
        // Right under the first line: the import succeeded, but nothing of these files is in the store.
        for file in files where file.everyRowRejected {
            let reasons = rejectsFile.map { " (the reasons are in \($0))" } ?? ""
            // Rows whose values all read but whose keys found nothing call for another check than rows that did not read.
            let check = file.relationshipRejects == file.rejects
                ? "check that the keys its relationship columns name exist: the file making them is imported before this one (or is this one), and each relationship's destinationKey is the attribute those values are"
                : "check the mapping's formats, the delimiter and the encoding"
            lines.append("  warning: every row of \(file.path) was rejected (\(g(file.rejects))): \(check)\(reasons)")
        }
        for file in files {
            // A file mapped twice (wells into Well, and into WellSummary + WellDetail) says which pass is which.
            // A join file says which relationship its pairs fill.
            let into = file.relationship.map { " → " + $0 } ?? file.entities.map { $0.isEmpty ? "" : " → " + $0.joined(separator: " + ") } ?? ""
            var text = "  \(file.path)\(into): \(counted(file.rowsRead, "row")) read"
            if file.joins > 0 || file.entities?.isEmpty == true {
                text += ", \(counted(file.joins, "pair")) joined"
                // A join row whose pair was stored already (earlier in the file or before) adds no row.
                let repeated = file.repeatedPairs
                if repeated > 0 { text += " (\(g(repeated)) repeated pair\(repeated == 1 ? "" : "s") stored once)" }
            } else {
                text += ", \(g(file.rowsImported)) imported"
            }
            if file.rejects > 0 { text += ", \(g(file.rejects)) rejected" }
            if file.blankRows > 0 { text += ", \(g(file.blankRows)) blank skipped" }
            if let repeated = file.repeatedHeaders, repeated > 0 {
                let lines = file.repeatedHeaderLines ?? []
                let shown = lines.map { g($0) }.joined(separator: ", ") + (repeated > lines.count ? ", …" : "")
                text += ", \(g(repeated)) repeating the header skipped (line\(lines.count == 1 ? "" : "s") \(shown))"
            }
            lines.append(text)
        }
        for name in objects.keys.sorted() {
            let report = objects[name]!
            var text = "  \(name): \(counted(report.stored, "object")) (\(g(report.inserted)) inserted"
            if report.updated > 0 { text += ", \(g(report.updated)) updated by a repeated key" }
            lines.append(text + ")")
        }
        if rejects > 0 {
            lines.append("  rejects: \(g(rejects))" + (rejectsFile.map { " written to \($0)" } ?? ""))
        }
        for duplicate in duplicates {
            let shown = duplicate.lines.map(String.init).joined(separator: ", ")
            let more = duplicate.count > duplicate.lines.count ? ", …" : ""
            let lineWord = duplicate.lines.count == 1 && duplicate.count == 1 ? "line" : "lines"
            // The count is of rows, not of distinct keys: seven rows may repeat two keys.
            let rows = duplicate.count == 1 ? "row in \(duplicate.file) repeats" : "rows in \(duplicate.file) repeat"
            let updates = duplicate.count == 1 ? "updates" : "update"
            lines.append("  duplicates: \(g(duplicate.count)) \(rows) the \(duplicate.entity).\(duplicate.key) key of an earlier row (\(lineWord) \(shown)\(more)) and \(updates) its object")
        }
        for warning in warnings { lines.append("  warning: \(warning)") }
        var timing = String(format: "  %.2f s (reading and converting %.2f s, saving %.2f s, indexes and finish %.2f s), %@ rows/s",
                            elapsedSeconds, max(0, elapsedSeconds - saveSeconds - finishSeconds), saveSeconds, finishSeconds,
                            g(Int(rowsPerSecond)))
        if let peakMemoryBytes { timing += ", peak memory \(ProcessMemory.format(peakMemoryBytes))" }
        lines.append(timing)
        return lines.joined(separator: "\n")
    }
}
