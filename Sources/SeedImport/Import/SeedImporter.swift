import CSVStream
import Foundation
import ManagedStore
import Measure

/// Streams CSV files into a new seed store: mapped columns become typed values, key columns become
/// relationships, objects are saved in batches with the context reset in between, and the finished store
/// replaces the target file in one rename.
///
/// The store is built in a temporary file next to the target (`.<name>.importing-<pid>`) without
/// indexes and with fast pragmas (no journal, no syncing: safe, as the file is only renamed into place
/// when complete). Then indexes are built for attributes marked indexed and for foreign keys, `ANALYZE`
/// runs, optionally `VACUUM`, the journal mode goes back to `DELETE` so the store is one file, the file is
/// flushed to disk and renamed over the target. Killing the process at any moment leaves the previous
/// store or none; temporary files of dead importers are removed on the next run.
///
/// For example:
///
/// ```swift
/// let mapping = try ImportMapping(contentsOf: "/tmp/wells/wells.mapping.json")
/// let model = try mapping.loadModel()
/// var options = ImportOptions()
/// options.onError = .skip
/// let summary = try SeedImporter(model: model, mapping: mapping, options: options).run(into: "Wells.sqlite")
/// print(summary)
/// ```
public final class SeedImporter {
    /// The model the store is created with.
    public let model: ObjectModel
    /// What to import.
    public let mapping: ImportMapping
    /// How to import it.
    public var options: ImportOptions

    /// An importer of `mapping`'s files into stores of `model`; ``run(into:)`` does the work.
    ///
    /// ```swift
    /// let importer = SeedImporter(model: model, mapping: mapping, options: ImportOptions(onError: .skip))
    /// ```
    public init(model: ObjectModel, mapping: ImportMapping, options: ImportOptions = ImportOptions()) {
        self.model = model
        self.mapping = mapping
        self.options = options
    }

    /// Imports every file of the mapping into a new store at `storePath`, replacing what is there only
    /// when the import completes.
    ///
    /// - Returns: what was imported, rejected and repeated, with timing and peak memory.
    /// The call is synchronous. Run from a Swift task, it stops when the task is cancelled (checked at
    /// each chunk of rows, before each index and before the store moves into place), throwing
    /// ``ImportError/Kind/cancelled``.
    ///
    /// - Throws: ``ImportError``: a mapping that does not fit (nothing written), a bad row in abort
    ///   mode, unreadable input, a store that cannot be written, or a cancelled task. The target is
    ///   untouched in every case.
    public func run(into storePath: String) throws(ImportError) -> ImportSummary {
        let start = Clock.now()
        guard options.batchSize >= 1 else {
            throw ImportError(.mapping, reason: "the batch size must be at least 1 (got \(options.batchSize))",
                              hint: "Set ImportOptions.batchSize (--batch-size) to 1 or more, or leave it at its default, \(ImportOptions().batchSize). Nothing was written.")
        }
        // A copy of a pipe made while planning shows itself, and a signal from now on says what became of
        // the store.
        let copying = Self.announce(into: storePath, options: options)
        defer {
            // Done, one way or the other: a later signal has nothing to tell.
            if options.removesTemporaryFilesOnSignal && options.progressOutput == nil {
                _InterruptCleanup.setMessage(nil)
                _InterruptCleanup.clearReplacedMessage()
            }
        }
        var plan = try _ImportPlanner.plan(model: model, mapping: mapping, options: options, copying: copying)
        let fingerprints = Dictionary(plan.files.compactMap { file in file.fingerprint.map { (file.path, $0) } }, uniquingKeysWith: { a, _ in a })
        let storeFile = _StoreFile(target: storePath)
        // Named as the store is given (relative stays relative, for the summary).
        let rejectsPath = options.rejectsPath ?? (storePath as NSString).deletingPathExtension + ".rejects.csv"
        let readFiles: [(path: String?, role: String)] = [(mapping.source, "the mapping"), (mapping.modelPath, "the model")]
            + plan.files.map { ($0.path, "an input file") }
        // The store replaces what --out names: never a file the import reads.
        for file in readFiles {
            guard let path = file.path, _StoreFile.samePath(path, storeFile.target.path) else { continue }
            throw ImportError(.mapping, reason: "--out \(storePath) is \(file.role); the finished store would replace it",
                              hint: "Give --out a path of its own. Nothing was written.")
        }
        // One import at a time into a target from this process; and a missing folder named as the
        // store's, before the rejects file beside it is checked.
        let claimedRejects = options.onError == .skip ? rejectsPath : nil
        try storeFile.claim(rejects: claimedRejects)
        defer { storeFile.release(rejects: claimedRejects) }
        try storeFile.checkTarget()
        try storeFile.checkDirectory()
        if options.onError == .skip {
            // The rejects file is replaced: it must not be one of the files the import reads or writes.
            for file in [(storeFile.target.path, "the store (--out)")] + readFiles {
                guard let path = file.path, _StoreFile.samePath(path, rejectsPath) else { continue }
                throw ImportError(.mapping, reason: "the rejects file \(rejectsPath) is \(file.role); it would be overwritten",
                                  hint: "Give --rejects a path of its own. Nothing was written.")
            }
            try _RejectsWriter.check(rejectsPath)
        }
        var warnings = mapping.warnings + plan.warnings
        // A kill between the store's rename and its rejects file's left one of them aside: put right first,
        // as the sweep below removes what dead imports left.
        warnings += _RejectsWriter.recoverInterrupted(place: rejectsPath, store: storeFile.target)
        let storeFolder = storeFile.target.deletingLastPathComponent()
        for name in _StoreFile.removeStale(in: storeFolder) {
            warnings.append("removed \(name), left by an import that did not finish")
        }
        // Elsewhere, each folder once: copies of pipes, and the rows killed imports were writing in the rejects
        // file's folder and in the temporary directory.
        var staleElsewhere = _InputSpool.removeStale()
        var swept = [storeFolder]
        let rejectsFolder = OutputPath.isStream(rejectsPath) ? nil : URL(fileURLWithPath: OutputPath.canonical(rejectsPath)).deletingLastPathComponent()
        for folder in [rejectsFolder, FileManager.default.temporaryDirectory].compactMap({ $0 })
        where !swept.contains(where: { _StoreFile.samePath($0.path, folder.path) }) {
            swept.append(folder)
            staleElsewhere += _StoreFile.removeStale(in: folder).map { folder.appendingPathComponent($0).path }
        }
        for path in staleElsewhere {
            warnings.append("removed \(path), left by an import that did not finish")
        }
        try storeFile.prepare()
        // Only a store this import replaces can own the rejects file at the default place (T.db is new,
        // while T.rejects.csv may be T.sqlite's).
        let replacesStore = FileManager.default.fileExists(atPath: storePath)
        let progress = _ProgressReporter(mode: options.progress, totalBytes: plan.totalBytes, output: options.progressOutput)
        let rejects = options.onError == .skip ? _RejectsWriter(path: rejectsPath) : nil
        for (order, file) in plan.files.enumerated() {
            guard rejects?.fileOrder[file.displayPath] == nil else {
                rejects?.listedAgain.insert(file.displayPath)
                continue
            }
            rejects?.fileOrder[file.displayPath] = order
        }
        // What a signal removes: the temporary store and the rejects being written.
        var interruptPaths: [String] = []
        if options.removesTemporaryFilesOnSignal {
            interruptPaths = ([""] + _StoreFile.sideFileSuffixes).map { storeFile.temporary.path + $0 }
            if let rejects, rejects.writingPath != rejects.path {
                // The rows, and the files sorting them by line uses.
                interruptPaths += ([""] + _RejectsWriter.sortFileSuffixes).map { rejects.writingPath + $0 }
            }
            interruptPaths.forEach(_InterruptCleanup.register)
        }
        defer { interruptPaths.forEach(_InterruptCleanup.unregister) }
        var counts: [String: ImportSummary.EntityReport] = [:]
        var saveSeconds = 0.0, finishSeconds = 0.0
        var rejectsFailure: String?
        do throws(ImportError) {
            // Rows rejected late (once their file had been read) that changed what other rows found, or took
            // other rows along (a Cascade, the other rows of an object removed), run the import again
            // without the rows rejected for themselves, until a run needs no other (at most `maxRuns`).
            var excluded: [Int: _FailureTable] = [:]
            var runs = 1
            // The session (context, store, connection) goes away before the file is flushed and renamed.
            func load() throws(ImportError) -> Bool {
                for file in plan.files { file.excluded = excluded[file.position] ?? _FailureTable() }
                let session = try _ImportSession(path: storeFile.temporary.path, model: model, options: options, plan: plan,
                                                  rejects: rejects, progress: progress, storeDisplayPath: storePath)
                try session.run()
                if !session.lateRejects.isEmpty {
                    // Rows taken along with rows rejected for themselves are decided again by a run without those.
                    // Roots one at a time while runs remain to spare, then all that are left.
                    let own = try session.ownCauseRejects(oneRoot: runs + 1 < options.maxRuns)
                    let lateCount = session.lateRejects.values.reduce(0) { $0 + $1.count }
                    if session.needsRerun || own.values.reduce(0, { $0 + $1.count }) < lateCount {
                        guard runs >= options.maxRuns else {
                            for (position, lines) in own { excluded[position, default: _FailureTable()].merge(lines) }
                            return false
                        }
                        warnings.append("rows rejected once their file had been read changed or took along what other rows made, and the import stopped running again without them after \(runs) run\(runs == 1 ? "" : "s"): some of what the last run's rejected rows changed or took along remains (see the rejects file)")
                    }
                }
                // The loaded rows go to disk while the indexes are built, so the final fsync waits for less.
                let flush = _StoreFile.startFlush(storeFile.temporary.path)
                defer { flush.wait() }
                counts = try session.finish()
                warnings += session.warnings
                saveSeconds = session.saveSeconds
                finishSeconds = session.finishSeconds
                return true
            }
            while try !load() {
                runs += 1
                let rows = excluded.values.reduce(0) { $0 + $1.count }
                progress.note("running again without the \(rows) row\(rows == 1 ? "" : "s") rejected once their file had been read…")
                storeFile.discard()
                rejects?.restart()
                plan = try _ImportPlanner.plan(model: model, mapping: mapping, options: options, copying: copying)
                // A run again checks the files against what the first run read.
                for file in plan.files { file.fingerprint = fingerprints[file.path] ?? file.fingerprint }
            }
            if runs > 1 {
                let rows = excluded.values.reduce(0) { $0 + $1.count }
                warnings.append("the import ran \(runs) times: \(rows) row\(rows == 1 ? "" : "s") rejected once \(rows == 1 ? "its" : "their") file had been read (a forward key that never came, or a key only such rows make) had changed or taken along what other rows made, so the import started again without \(rows == 1 ? "it" : "them"), and the store holds what the other rows make")
            }
            let commitStart = Clock.now()
            // The rejects are finished (sorted) before the store moves: a full disk then replaces neither,
            // and the store and its rejects file change places together.
            if let rejects, let failure = rejects.prepare() {
                throw ImportError(.store, reason: "the rejected rows could not all be written: \(failure)", file: rejects.path,
                                  hint: "Nothing was replaced: \(storePath) and \(rejects.path) are as they were. Free some space, or give --rejects another place, and run again.")
            }
            if options.removesTemporaryFilesOnSignal {
                // Once the rename has moved the temporary store, the store is the new one: a signal then,
                // even during the rename, must not say it is unchanged.
                _InterruptCleanup.setReplacedMessage("import: interrupted after \(storePath) was replaced by the new store"
                    + (rejects.map { "; its rejected rows may not have reached \($0.path)" } ?? ""), whenGone: storeFile.temporary.path)
            }
            // The last moment a cancelled task can leave the target as it was.
            try _ImportSession.checkCancelled(untouched: _StoreFile.untouched(storePath))
            // The rejects file changes places with the store, an earlier run's set aside first: a kill between
            // the two renames leaves the new store without a rejects file, never next to the old one's.
            try storeFile.commit(beforeRename: { rejects?.setAsideEarlier() }, afterRename: { rejectsFailure = rejects?.commit() })
            finishSeconds += Clock.now() - commitStart
        } catch {
            progress.finish()
            _InterruptCleanup.clearReplacedMessage()
            // A complete store that could not be renamed into place is left where the message says.
            if !error.keepsTemporaryStore { storeFile.discard() }
            // The rows set aside belong to an import that wrote nothing: an earlier run's rejects stay.
            rejects?.discard()
            throw Self.explainingFullDisk(error, building: storeFile, store: storePath)
        }
        progress.finish()
        if let rejectsFailure { warnings.append(rejectsFailure) }
        // Abort mode writes no rejects: an earlier skip run's file at the default place described the store
        // just replaced, and would pass for this one's (a user trial found one next to a clean import).
        if options.onError == .abort, options.rejectsPath == nil, replacesStore, _RejectsWriter.holdsEarlierRejects(rejectsPath) {
            _RejectsWriter.removeEarlier(rejectsPath)
            warnings.append("removed \(rejectsPath), the rejected rows of an earlier import of this store, which no longer go with it")
        }

        var duplicates: [ImportSummary.DuplicateReport] = []
        for file in plan.files {
            for target in file.targets where target.duplicateCount > 0 {
                duplicates.append(.init(file: file.displayPath, entity: target.entity.name, key: target.keyAttribute ?? "?",
                                        count: target.duplicateCount, lines: target.duplicateLines))
            }
            for target in file.targets {
                counts[target.entity.name, default: .init(inserted: 0, updated: 0, stored: 0)].inserted += target.inserted
                counts[target.entity.name, default: .init(inserted: 0, updated: 0, stored: 0)].updated += target.updated
            }
        }
        // A file with a header and nothing under it imports nothing, which may be what is meant, or an
        // export that failed: said, not silent.
        var emptyFiles: Set<String> = []
        for file in plan.files where file.rowsRead == file.blankRows && emptyFiles.insert(file.displayPath).inserted {
            warnings.append("\(file.displayPath): \(file.header != nil ? "a header and " : "")no rows\(file.blankRows > 0 ? " (\(file.blankRows) blank line\(file.blankRows == 1 ? "" : "s"))" : ""), so nothing was imported from it")
        }
        for index in plan.indexes.values where index.collisions > 0 {
            warnings.append("\(index.entity.name).\(index.attribute) is not unique (\(index.collisions) repeated value\(index.collisions == 1 ? "" : "s")): relationship columns find the first object with each value")
        }
        // A row a file listed again rejects again for the file's own reasons is one reject (written once).
        let rejectCount = plan.files.reduce(0) { $0 + $1.rejects } - (rejects?.repeats ?? 0)
        // The store's own size, not a link's that names it.
        let size = (try? FileManager.default.attributesOfItem(atPath: storeFile.target.path)[.size] as? Int) ?? 0
        return ImportSummary(
            store: storePath,
            files: plan.files.map {
                .init(path: $0.displayPath, rowsRead: $0.rowsRead, rowsImported: $0.rowsImported, blankRows: $0.blankRows,
                      rejects: $0.rejects, joins: $0.joinsAdded, entities: $0.mapping.entities,
                      relationship: $0.join.map { "\($0.entity.name).\($0.relationship)" },
                      repeatedHeaders: $0.repeatedHeaders > 0 ? $0.repeatedHeaders : nil,
                      repeatedHeaderLines: $0.repeatedHeaders > 0 ? $0.repeatedHeaderLines : nil,
                      relationshipRejects: $0.relationshipRejects)
            },
            objects: counts, duplicates: duplicates, rejects: rejectCount,
            rejectsFile: rejectCount > 0 ? rejects?.path : nil, warnings: warnings,
            elapsedSeconds: Clock.now() - start, saveSeconds: saveSeconds, finishSeconds: finishSeconds, peakMemoryBytes: ProcessMemory.peakResidentBytes, storeBytes: size)
    }
}

extension SeedImporter {
    /// Readies this process for an import into `storePath` before anything reads its inputs: a pipe copied
    /// while a mapping is inferred from its header (``ImportMapping/inferred(sources:model:defaults:baseDirectory:)``)
    /// or saved then shows itself as the import's progress will (with `options.progress`, a line every 3 s
    /// saying it is copied to `TMPDIR` and why), and, with ``ImportOptions/removesTemporaryFilesOnSignal``,
    /// a signal says in one line what became of the store, as during ``run(into:)``.
    ///
    /// ``run(into:)`` does the same for the copies it makes; call this first when the inputs are read
    /// before it. It lasts for the process, like the signal handlers it installs.
    ///
    /// For example:
    ///
    /// ```swift
    /// var options = ImportOptions(progress: .plain)
    /// options.removesTemporaryFilesOnSignal = true
    /// SeedImporter.prepare(into: "Wells.sqlite", options: options)
    /// let mapping = try ImportMapping.inferred(sources: [("Well", "/dev/stdin")], model: model)
    /// let summary = try SeedImporter(model: model, mapping: mapping, options: options).run(into: "Wells.sqlite")
    /// ```
    public static func prepare(into storePath: String, options: ImportOptions) {
        _InputSpool.setProcessReporting(announce(into: storePath, options: options))
    }

    /// A store error SQLite gave for a full disk (SQLITE_FULL: "database or disk is full") or a write that
    /// found no space, made to say where the store was being built and what became of the target: a user
    /// trial saw "saving a batch failed: SQLite error 13 (database or disk is full) — while running: COMMIT
    /// TRANSACTION" with neither.
    static func explainingFullDisk(_ error: ImportError, building storeFile: _StoreFile, store storePath: String) -> ImportError {
        let text = error.reason.lowercased()
        // Only the store's own writes: a rejects file that found no space says so itself, naming its place.
        guard error.kind == .store, text.contains("disk is full") || text.contains("no space left on device"),
              error.file.map({ $0 == storePath || $0 == storeFile.target.path || $0 == storeFile.temporary.path }) ?? true else { return error }
        var explained = error
        let folder = storeFile.target.deletingLastPathComponent().path
        let untouched = _StoreFile.untouched(storePath)
        explained.hint = "The disk holding \(folder) is full: the store is built there (as \(storeFile.temporary.lastPathComponent)) before it replaces "
            + "--out, and SQLite sorts the indexes in TMPDIR. Free some space there, or import to another place. \(untouched); the temporary files were removed."
        return explained
    }

    /// Installs the signal handlers the options ask for and, where progress goes to standard error, the line
    /// a signal writes; returns how copies of pipes show themselves meanwhile.
    static func announce(into storePath: String, options: ImportOptions) -> _InputSpool.Reporting {
        var untouched: String?
        if options.removesTemporaryFilesOnSignal {
            _InterruptCleanup.install()
            // A signal says what became of the store on standard error, even with --progress none (a user
            // trial saw an interrupted import end without a word); tests capturing progress are left quiet.
            if options.progressOutput == nil {
                let state = _StoreFile.untouched(storePath)
                _InterruptCleanup.setMessage("import: interrupted; \(state) (the temporary files were removed)")
                // Copies of pipes name it in their own line only where progress shows.
                if options.progress != .none { untouched = state }
            }
        }
        return _InputSpool.Reporting(progress: options.progress, output: options.progressOutput, untouched: untouched)
    }
}

extension ImportMapping {
    /// Loads the model: `path` when given, else the one the mapping names (relative to the mapping).
    ///
    /// For example:
    ///
    /// ```swift
    /// let model = try mapping.loadModel()   // wells.model.json next to wells.mapping.json
    /// ```
    public func loadModel(_ given: String? = nil) throws(ImportError) -> ObjectModel {
        guard let path = given ?? modelPath else {
            throw ImportError(.mapping, reason: "no model: the mapping names none", file: source,
                              hint: "Pass --model MODEL (a .json model, .xcdatamodeld or .xcdatamodel).")
        }
        if given != nil, !FileManager.default.fileExists(atPath: path) {
            throw ImportError(.mapping, reason: "no model at \(path)\(_NameSuggestion.file(for: path, where: _NameSuggestion.isModelName))", file: nil,
                              hint: "Give --model the path of a .json model, an .xcdatamodeld or an .xcdatamodel.")
        }
        if !FileManager.default.fileExists(atPath: path) {
            let mappingName = source.map { URL(fileURLWithPath: $0).lastPathComponent }
            let suggestion = _NameSuggestion.file(for: path) { _NameSuggestion.isModelName($0) && $0 != mappingName }
            throw ImportError(.mapping, reason: "the mapping's \"model\" names \(path), which does not exist\(suggestion)", file: source,
                              hint: "Fix \"model\" in the mapping (a path relative to the mapping file), or pass --model MODEL.")
        }
        do { return try ObjectModel(contentsOf: path) } catch {
            throw ImportError(.mapping, reason: "the model cannot be used: \(error)", file: path)
        }
    }
}
