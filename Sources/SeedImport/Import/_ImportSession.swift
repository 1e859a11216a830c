import CSVStream
import Foundation
import ManagedStore
import Measure

/// One run of an import over a temporary store: opens it for a bulk load, streams every file through
/// its plan, saves in batches, and finishes the store (indexes, ANALYZE, journal mode).
final class _ImportSession {
    let store: PersistentStore
    let context: ManagedObjectContext
    let options: ImportOptions
    let plan: _ImportPlan
    let rejects: _RejectsWriter?
    let progress: _ProgressReporter
    /// The target path, for messages ("the store … is unchanged").
    let storeDisplayPath: String
    /// What a failed import left at the target: "Wells.sqlite is unchanged", or, when there was no store
    /// there, "no store was created at Wells.sqlite".
    let targetUntouched: String
    var warnings: [String] = []
    /// Seconds spent saving batches (context save and reset).
    var saveSeconds = 0.0
    /// Seconds spent building indexes, analysing and finishing the store.
    private(set) var finishSeconds = 0.0
    /// Indexes made to find another holder of a repeated value (table.attribute → index name).
    private var lookupIndexes: [String: String] = [:]
    /// The memory the plan's key indexes share before one that grows moves to disk.
    let keyMemory: _KeyMemoryBudget
    /// The file whose rows are being settled once it has been read (forward keys, chains): rows rejected
    /// meanwhile are rejected late, after later rows saw what they wrote.
    var settling: _FilePlan?
    /// Rows rejected late, by file position and line, with why (packed: there may be as many as rows).
    private(set) var lateRejects: [Int: _FailureTable] = [:]
    /// Of ``lateRejects``, the rows whose own forward key never came.
    private(set) var lateRoots: [Int: Set<Int>] = [:]
    /// Rows refused as they were read for what other rows made (a key that names nothing, a partner they
    /// would take): in another run they may stand. In skip mode only.
    private(set) var contextualRejects: [Int: Set<Int>] = [:]
    /// Per key index, the hashes of the keys rows set aside held, read for the file at `file` (see
    /// ``wasSetAside(_:in:upTo:)``).
    var setAsideKeys: [ObjectIdentifier: (file: Int, hashes: Set<UInt64>)] = [:]
    /// Whether a row rejected late may have changed what later rows found: an object that existed before it
    /// (an upsert, a one-to-one partner), an object a later row then upserted, a row of an earlier file, or
    /// an object without a key a Cascade took. Taking its writes back cannot undo what later rows did
    /// because of them (accepted, or refused, in one pass), so the import runs again without the rows
    /// rejected for themselves (``ownCauseRejects()``, ``SeedImporter``). Rows taken along (late rejects
    /// that are not such rows) call for another run too.
    var needsRerun = false

    /// Objects inserted since the last save whose index entries still hold temporary keys.
    @exclusivity(unchecked) private var pending: [_PendingKey] = []
    /// Objects inserted or changed since the last save.
    private var changes = 0
    /// The reader of the file being imported (for the raw text of rejected records).
    private var reader: CSVReader?
    /// Bytes and rows of the files already done, for progress.
    private var bytesDone: Int64 = 0
    private var rowsDone = 0

    init(path: String, model: ObjectModel, options: ImportOptions, plan: _ImportPlan, rejects: _RejectsWriter?,
         progress: _ProgressReporter, storeDisplayPath: String) throws(ImportError) {
        self.options = options
        self.plan = plan
        self.rejects = rejects
        self.progress = progress
        self.storeDisplayPath = storeDisplayPath
        targetUntouched = _StoreFile.untouched(storeDisplayPath)
        do {
            store = try PersistentStore(path: path, model: model)
            // A bulk load: no index upkeep per row, no journal, no syncing. Safe because the file is
            // renamed into place only when complete; a crash leaves a temporary file, never the target.
            try store.dropIndexes()
            try store.connection.execute("PRAGMA journal_mode = OFF")
            try store.connection.execute("PRAGMA synchronous = OFF")
            try store.connection.execute("PRAGMA cache_size = -\(max(256, options.cacheSizeKiB))")
            try store.connection.execute("PRAGMA temp_store = FILE")
            // The temporary file is this connection's alone: hold its lock rather than take it per read
            // (key indexes read keys back one row at a time).
            try store.connection.execute("PRAGMA locking_mode = EXCLUSIVE")
        } catch let error as StoreError {
            throw ImportError(.store, reason: "cannot create the store: \(error)", file: path)
        } catch {
            throw ImportError(.store, reason: "cannot prepare the store for loading: \(error)", file: path)
        }
        context = ManagedObjectContext(store: store)
        progress.expectFinish(indexesPerByte: Self.indexesPerByte(plan, indexes: store.indexes()))
        // The store is this import's own: every row stays at version 1, whatever the batch size.
        context.countsVersions = false
        keyMemory = _KeyMemoryBudget(limit: options.keyIndexMemoryBytes)
        // A join file finds an existing key at every pair: its indexes keep their key bytes (a memcmp per
        // pair instead of a saved row read back), within the key memory like any other.
        let joined = Set(plan.files.compactMap(\.join).flatMap { [ObjectIdentifier($0.sourceIndex), ObjectIdentifier($0.destinationIndex)] })
        for index in plan.indexes.values {
            index.budget = keyMemory
            // Keys read back must be the keys stored, byte for byte, and an object must hold its key.
            index.fingerprintThreshold = index.readsBackExactly && !index.isPopulated && !joined.contains(ObjectIdentifier(index)) ? options.keyBytesThreshold : .max
            index.keyReader = { [unowned self] id, ordinal throws(StoreError) in try self.currentKey(of: id, at: ordinal) }
            index.keyMatcher = keyMatcher(for: index)
        }
    }

    /// ``_KeyIndex/keyMatcher`` for a String or integer key: the context's object when it has one, else
    /// the saved row's column bytes through a statement prepared once, compared in place (the bytes
    /// ``_KeyBytes`` gives such a value). Other types read the value back (``currentKey(of:at:)``).
    private func keyMatcher(for index: _KeyIndex) -> ((ObjectID, UnsafeRawBufferPointer) throws -> Bool)? {
        let isText: Bool
        switch index.entity.attribute(named: index.attribute)?.type {
        case .string?: isText = true
        case .integer16?, .integer32?, .integer64?: isText = false
        default: return nil
        }
        let ordinal = index.ordinal
        let sql = "SELECT \(index.entity.columns[ordinal].columnName) FROM \(index.entity.tableName) WHERE Z_PK = ?"
        var statement: Statement?
        return { [unowned self] id, key in
            if let object = context.registeredObject(for: id) {
                return _KeyBytes.with(object.value(at: ordinal)) { _KeyBytes.same($0, key) }
            }
            if id.isTemporary { return false }
            let select = try statement ?? store.connection.prepare(sql, persistent: true)
            statement = select
            // Reset after each use, not before: it ends the read, so no lock or page is held between rows.
            defer { select.reset() }
            select.bind(id.primaryKey, at: 1)
            guard try select.step() else { return false }
            if select.isNull(at: 0) { return _KeyBytes.with(.null) { _KeyBytes.same($0, key) } }
            if isText { return select.withBlob(at: 0) { _KeyBytes.same($0, key) } }
            return withUnsafeBytes(of: select.int64(at: 0)) { _KeyBytes.same($0, key) }
        }
    }

    /// Frees the objects of saved batches off the saving thread (reading ahead, with a core to spare).
    private static let reclaimQueue = DispatchQueue(label: "seedstore.reclaim")
    /// The batch being freed there: the next waits for it, so at most one batch is held past its save.
    private var reclaiming: DispatchWorkItem?

    // MARK: Running

    func run() throws(ImportError) {
        for file in plan.files {
            options.beforeEachPass?(file.position)
            try checkUnchanged(file)
            progress.begin(file: Self.progressLabel(file, in: plan), bytesBefore: bytesDone, rowsBefore: rowsDone)
            let reader: CSVReader
            do {
                reader = try CSVReader(path: file.path, dialect: file.options.dialect)
            } catch {
                throw ImportError(.input, reason: "cannot read the file: \(error)", file: file.displayPath)
            }
            self.reader = reader
            defer { self.reader = nil }
            // A join file's pairs are counted as the saves store them: a repeated pair is stored once.
            let joinRowsBefore = context.joinRowsInserted
            do {
                if let join = file.join {
                    try runJoin(file, join, reader: reader)
                } else {
                    try runTargets(file, reader: reader)
                }
            } catch let error as ImportError {
                // A file cut short or rewritten while read shows as a bad row (a record with one field):
                // say what happened to it instead.
                try checkUnchanged(file)
                throw error
            } catch let error as CSVError {
                try checkUnchanged(file)
                var hint = error.hint + " Nothing was written: \(targetUntouched)."
                if error.isRecoverable { hint = error.hint }
                throw ImportError(.input, reason: error.message, file: file.displayPath, line: error.line,
                                  column: error.column, byteOffset: error.byteOffset, hint: hint)
            } catch {
                throw ImportError(.input, reason: "\(error)", file: file.displayPath)
            }
            try checkUnchanged(file)
            try flush()
            // PostgreSQL's end-of-data line (`\.`) was read as a blank row: it is no row of the table.
            if file.options.escape != nil, reader.endOfDataLine != nil, file.blankRows > 0 {
                file.blankRows -= 1
                file.rowsRead -= 1
            }
            if file.join != nil { file.joinsAdded = context.joinRowsInserted - joinRowsBefore }
            if let warning = file.unnamedValuesWarning, !warnings.contains(warning) { warnings.append(warning) }
            for warning in file.tallyWarnings where !warnings.contains(warning) { warnings.append(warning) }
            // A UTF-8 file read as Latin-1 holds 0x80–0x9F too (€, curly quotes): UTF-8 is then what to say.
            if let warning = Self.utf8Warning(file, reader) ?? Self.latin1Warning(file, reader), !warnings.contains(warning) {
                warnings.append(warning)
            }
            if let warning = Self.byteOrderMarkWarning(file, reader), !warnings.contains(warning) { warnings.append(warning) }
            for warning in Self.escapedTextWarnings(file, reader) where !warnings.contains(warning) { warnings.append(warning) }
            for key in file.releases { plan.indexes[key]?.release() }
            bytesDone += file.size
            rowsDone += file.rowsRead
        }
    }

    /// Stops the import when `file` is not as it was when the import planned it (another size or
    /// modification time): a user trial appended rows while the WellSummary pass ran and got a store with
    /// 200,000 Wells and 200,793 WellSummaries, exit 0.
    func checkUnchanged(_ file: _FilePlan) throws(ImportError) {
        guard let first = file.fingerprint, let now = _Fingerprint(path: file.path), now != first else { return }
        let sizes = now.size == first.size ? "the same size, written again" : "\(first.size.formatted()) bytes when the import began, \(now.size.formatted()) now"
        throw ImportError(.input, reason: "the file changed while the import read it (\(sizes)): entities filled from it would come from two versions",
                          file: file.displayPath,
                          hint: "Nothing was written: \(targetUntouched). Run the import again once nothing writes the file (or import a copy of it).")
    }

    /// The file's name on the progress line; for a file mapped more than once, with the entities this pass
    /// fills, as the summary writes them (`wells.csv → WellSummary + WellDetail`).
    static func progressLabel(_ file: _FilePlan, in plan: _ImportPlan) -> String {
        let entities = file.mapping.entities
        let mappedTwice = plan.files.contains { $0 !== file && $0.path == file.path }
        return file.displayPath + (mappedTwice && !entities.isEmpty ? " → " + entities.joined(separator: " + ") : "")
    }

    /// Saves the batch, records the permanent keys of the objects it inserted, and empties the context.
    func flush() throws(ImportError) {
        try flush(&pending)
        changes = 0
    }

    func flush(_ pending: inout [_PendingKey]) throws(ImportError) {
        guard !pending.isEmpty || context.hasChanges else { return }
        try checkKeyIndexes()
        let start = Clock.now()
        defer { saveSeconds += Clock.now() - start }
        // Objects keep their permanent IDs through the reset: record them for later rows' lookups.
        do { try context.saveAndReset() } catch {
            var failure = ImportError(.store, reason: "saving a batch failed: \(error)",
                                      hint: "Nothing was written: \(targetUntouched).")
            if case .validation(let failures) = error { failure.validationFailures = failures }
            throw failure
        }
        for item in pending { item.index.savedPrimaryKey(item.object.objectID.primaryKey, of: item.entry) }
        if options.readsAhead {
            // Freeing a batch's objects and values (memory the reading thread allocated) took about 5% of
            // the saving thread's time: another thread does it (0.92 → 0.84 s for the 244,292 wells).
            reclaiming?.wait()
            // Room for a batch like this one: not `batchSize`, which may be far beyond the rows there are.
            let saved = pending.count
            let batch = _Garbage(pending)
            pending = []
            pending.reserveCapacity(saved)
            let work = DispatchWorkItem { batch.drop() }
            reclaiming = work
            Self.reclaimQueue.async(execute: work)
        } else {
            pending.removeAll(keepingCapacity: true)
        }
        // Every entry now holds a permanent key: indexes past their memory share move to disk.
        for index in plan.indexes.values where index.needsFlush { index.flush() }
    }

    /// Throws when a key index failed (its temporary file, or reading a key back): its lookups since may
    /// be wrong, so nothing more is saved.
    func checkKeyIndexes() throws(ImportError) {
        for index in plan.indexes.values {
            guard let failure = index.failure else { continue }
            throw ImportError(.store, reason: "the key index of \(index.entity.name).\(index.attribute) failed: \(failure)",
                              hint: "Free space in the temporary directory, or raise --key-memory so the keys stay in memory. Nothing was written: \(targetUntouched).")
        }
    }

    /// Another object that holds `value` in `index`'s attribute now (unsaved changes included), the one
    /// saved first: who a relationship column finds by a repeated value once the object that had it first
    /// lets go of it. Byte for byte, as the indexes compare.
    func firstHolder(of value: Value, in index: _KeyIndex, besides id: ObjectID, leaving: Set<ObjectID> = []) throws(ImportError) -> ManagedObject? {
        let constant: PredicateConstant
        switch value {
        case .string(let text): constant = .string(text)
        case .integer(let number): constant = .int(number)
        case .double(let number): constant = .double(number)
        case .decimal(let number): constant = .double(NSDecimalNumber(decimal: number).doubleValue)
        case .bool(let flag): constant = .bool(flag)
        case .date(let date): constant = .date(date)
        case .uuid(let uuid): constant = .uuid(uuid)
        default: return nil   // null and the types a predicate cannot name: nobody is looked for
        }
        do {
            // The load runs without indexes: the first search by this attribute makes one, so later
            // searches do not scan the table (dropped before the store's own indexes are built).
            if lookupIndexes[index.entity.tableName + "." + index.attribute] == nil {
                let name = "Z_SEEDSTORE_LOOKUP_\(lookupIndexes.count)"
                let column = index.entity.columns[index.ordinal].columnName
                try store.connection.execute("CREATE INDEX \(name) ON \(index.entity.tableName) (\(column))")
                lookupIndexes[index.entity.tableName + "." + index.attribute] = name
            }
            var request = FetchRequest(entityName: index.entity.name)
            request.predicate = try FetchPredicate(format: "%K == %@", .keyPath(index.attribute), .value(constant))
            // IDs only, in the order SQLite's index gives (saved objects by primary key), then the batch's
            // unsaved ones; the first that holds the value byte for byte (a predicate compares as SQL does).
            for candidate in try context.fetchObjectIDs(request) where candidate != id && !leaving.contains(candidate) {
                let holder = try existing(candidate)
                if !holder.isDeleted && _KeyBytes.equal(holder.value(at: index.ordinal), value) { return holder }
            }
            return nil
        } catch {
            throw ImportError(.store, reason: "looking for another \(index.entity.name) with \(index.attribute) \(Self.describe(value)) failed: \(error)",
                              hint: "Nothing was written: \(targetUntouched).")
        }
    }

    /// The current key of an object, for an index that keeps no key bytes: the object's value when the
    /// context has it (inserted or changed in this batch), else the saved row's.
    func currentKey(of id: ObjectID, at ordinal: Int) throws(StoreError) -> Value? {
        if let object = context.registeredObject(for: id) { return object.value(at: ordinal) }
        if id.isTemporary { return nil }
        return try store.storedValue(at: ordinal, of: id)
    }

    /// Stops the import when the Swift task running it was cancelled: checked at each chunk of rows, every
    /// 512 rows of a join file, before each index and ANALYZE, and before the store moves into place
    /// (``SeedImporter``), so a cancelled import ends within a fraction of a
    /// second and writes nothing (``SeedImporter/run(into:)`` is synchronous; outside a task this never
    /// stops it).
    func checkCancelled() throws(ImportError) {
        try Self.checkCancelled(untouched: targetUntouched)
    }

    /// ``checkCancelled()`` where no session is at hand: `untouched` says what became of the target.
    static func checkCancelled(untouched: String) throws(ImportError) {
        guard Task.isCancelled else { return }
        throw ImportError(.cancelled, reason: "the import was cancelled", hint: "Nothing was written: \(untouched).")
    }

    /// The indexes on the tables each file fills, weighed by the file's bytes, over all bytes: what the
    /// progress's ETA reckons the finish by (``_ProgressReporter/expectFinish(indexesPerByte:)``).
    static func indexesPerByte(_ plan: _ImportPlan, indexes: [StoreIndex]) -> Double {
        var perTable: [String: Int] = [:]
        for index in indexes { perTable[index.table, default: 0] += 1 }
        var weighed = 0.0
        var bytes = 0.0
        for file in plan.files {
            // A join file fills one join table, which has one index.
            let count = file.join != nil ? 1 : file.targets.reduce(0) { $0 + perTable[$1.entity.tableName, default: 0] }
            weighed += Double(file.size) * Double(count)
            bytes += Double(file.size)
        }
        return bytes > 0 ? weighed / bytes : 0
    }

    /// Builds the store's indexes one at a time, saying which and how far (by the rows of the tables
    /// indexed; ANALYZE after them counts as ``_ProgressReporter/analyzeShare`` of them), then ANALYZE.
    private func buildIndexesAndAnalyze() throws {
        let indexes = store.indexes()
        var rows: [Double] = []
        for index in indexes {
            // The largest rowid: the table's rows, without reading them all (a few deleted ones aside).
            rows.append(Double(try store.connection.scalar("SELECT max(rowid) FROM \(index.table)")?.int64 ?? 0))
        }
        let total = max(1, rows.reduce(0, +) * (1 + _ProgressReporter.analyzeShare))
        var done = 0.0
        for (i, index) in indexes.enumerated() {
            try checkCancelled()
            progress.finishStep("building index \(i + 1) of \(indexes.count) (\(index.label))", done: done / total)
            try store.connection.execute(index.sql)
            done += rows[i]
        }
        try checkCancelled()
        progress.finishStep("gathering statistics (ANALYZE)", done: done / total)
        try store.connection.execute("ANALYZE")
    }

    /// Indexes, statistics, optional vacuum, and a one-file journal mode; returns the objects per entity.
    func finish() throws(ImportError) -> [String: ImportSummary.EntityReport] {
        try checkKeyIndexes()
        for name in keyMemory.spilled {
            warnings.append("the keys of \(name) outgrew the key memory (\(max(1, keyMemory.limit >> 20)) MiB) and moved to a temporary file to keep memory flat, which is slower: raise --key-memory to keep them in memory")
        }
        let start = Clock.now()
        defer { finishSeconds = Clock.now() - start }
        var counts: [String: ImportSummary.EntityReport] = [:]
        do {
            // Sorting for the indexes gets its own cache size, and helper threads: the reading thread is
            // done, so its core is free.
            try store.connection.execute("PRAGMA cache_size = -\(max(256, options.indexCacheSizeKiB))")
            try store.connection.execute("PRAGMA threads = \(max(0, options.indexSortThreads))")
            warnings += try setAsideKeysStoredNotes()
            for name in lookupIndexes.values { try store.connection.execute("DROP INDEX \(name)") }
            // Members of ordered to-manys linked from their to-one side (a relationship column) get their
            // positions, in the order of the rows that made them: Core Data reads the order from them alone.
            _ = try store.positionUnplacedMembers()
            if let hashes = options.coreDataVersionHashes { try store.writeCoreDataVersionHashes(hashes) }
            try buildIndexesAndAnalyze()
            warnings += try futureTwoDigitYearNotes()
            if options.vacuum {
                progress.note("vacuuming…")
                try store.connection.execute("VACUUM")
            } else if let note = try freePagesNote() {
                warnings.append(note)
            }
            try store.connection.execute("PRAGMA journal_mode = DELETE")
            // The store is this import's own, one entity a table: count(*) without a filter, which SQLite
            // answers from the smallest index instead of reading every row for its Z_ENT (0.03 s a table
            // of 244,292 wells).
            for entity in store.model.entities {
                let stored = try store.connection.scalar("SELECT count(*) FROM \(entity.tableName)")?.int64 ?? 0
                counts[entity.name] = .init(inserted: 0, updated: 0, stored: Int(stored))
            }
        } catch let error as ImportError {
            throw error
        } catch let error as StoreError {
            throw ImportError(.store, reason: "finishing the store failed: \(error)")
        } catch {
            throw ImportError(.store, reason: "finishing the store failed: \(error)")
        }
        return counts
    }

    /// For each Date attribute read with two-digit years and the default pivot year, a note when values
    /// stored in it are after today (`3-Mar-45` read as 2045, where a birth date meant 1945): how many, the
    /// latest, and the option that places them. Asked of the store once the rows are in, so reading
    /// pays nothing for it.
    func futureTwoDigitYearNotes() throws(SQLiteError) -> [String] {
        var notes: [String] = []
        var checked = Set<String>()
        let now = Date().timeIntervalSinceReferenceDate
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        for file in plan.files {
            for target in file.targets {
                for (f, field) in target.fields.enumerated() where field.checksFutureYears {
                    let name = target.attributeNames[f]
                    guard checked.insert("\(target.entity.name).\(name)").inserted,
                          let column = target.entity.columnIndex(of: name).map({ target.entity.columns[$0].columnName }) else { continue }
                    // Identifiers from the model, the moment bound.
                    let row = try store.connection.rows(
                        "SELECT count(*), CAST(max(\(column)) AS REAL), CAST(min(\(column)) AS REAL) FROM \(target.entity.tableName) WHERE \(column) > ?",
                        [.real(now)])
                    guard let first = row.first, case .integer(let count) = first[0], count > 0, case .real(let latest) = first[1],
                          case .real(let earliest) = first[2] else { continue }
                    // The pivot that reads them all a hundred years earlier: the earliest one's year, less 100.
                    let pastPivot = max(DateFormat.pivotYears.lowerBound,
                                        calendar.component(.year, from: Date(timeIntervalSinceReferenceDate: earliest)) - 100)
                    let day = ISO8601DateFormatter.string(from: Date(timeIntervalSinceReferenceDate: latest), timeZone: TimeZone(identifier: "UTC")!,
                                                          formatOptions: [.withFullDate])
                    notes.append("\(target.entity.name).\(name): \(_ProgressReporter.grouped(Int(count))) value\(count == 1 ? " is" : "s are") after today "
                        + "(the latest \(day)), read from two-digit years, which fall in \(DateFormat.defaultPivotYear)–\(DateFormat.defaultPivotYear + 99) "
                        + "unless a pivot year is given; if they are past dates, re-run with --pivot-year \(pastPivot), which reads two-digit "
                        + "years as \(pastPivot)–\(pastPivot + 99) (or \"pivotYear\" for the column in a mapping)")
                }
            }
        }
        return notes
    }

    /// A note when much of the store's file is free pages, which a shipped seed store would carry: over
    /// 1 MiB and a tenth of the file. Rows taken back in skip mode leave them, as can the indexes the
    /// import made to find repeated values and dropped.
    func freePagesNote() throws(SQLiteError) -> String? {
        let free = try store.connection.scalar("PRAGMA freelist_count")?.int64 ?? 0
        let pages = try store.connection.scalar("PRAGMA page_count")?.int64 ?? 0
        let pageSize = try store.connection.scalar("PRAGMA page_size")?.int64 ?? 4_096
        guard free * pageSize > 1 << 20, free * 10 > pages else { return nil }
        return "\(ProcessMemory.format(Int(free * pageSize))) of the store (\(free * 100 / max(1, pages))%) is free pages (space rows taken back, or the import's own lookup indexes, left): import with --vacuum (or run VACUUM on the store) to ship it without them"
    }

    // MARK: Rows that fill targets

    /// Reads and converts rows (``_RowReader``, on a second thread with ``ImportOptions/readsAhead``) and
    /// hands them to a ``_TargetWriter``, which finds relationships, inserts or updates objects, links them
    /// and saves in batches.
    private func runTargets(_ file: _FilePlan, reader: CSVReader) throws {
        let writer = _TargetWriter(session: self, file: file, pending: pending, changes: changes)
        pending = []
        defer {
            let (pending, changes) = writer.finish()
            self.pending = pending
            self.changes = changes
        }
        // The reader may run a whole batch ahead, so it keeps converting while a batch is saved.
        let capacity = max(4, options.batchSize / max(1, file.targets.count) / _RowReader.chunkRows + 2)
        let rowReader = _RowReader(reader: reader, file: file, queue: _ChunkQueue(capacity: capacity))
        guard options.readsAhead else {
            try rowReader.read { chunk in
                try writer.process(&chunk)
                return true
            }
            try writer.resolveForwardReferences()
            return
        }
        // The reading thread is always stopped and waited for before this returns.
        rowReader.start()
        defer {
            rowReader.queue.cancel()
            rowReader.waitUntilDone()
        }
        while var chunk = rowReader.queue.take() { try writer.process(&chunk) }
        try writer.resolveForwardReferences()
    }

    /// The object a key index names: the one inserted in this batch, or the saved one read back.
    @inline(__always)
    func existing(_ id: ObjectID) throws(ImportError) -> ManagedObject {
        if id.isTemporary, let object = context.registeredObject(for: id) { return object }
        do { return try context.existingObject(with: id) } catch {
            throw ImportError(.store, reason: "cannot read back \(id): \(error)")
        }
    }

    // MARK: Join files

    private func runJoin(_ file: _FilePlan, _ join: _JoinPlan, reader: CSVReader) throws {
        let columnCount = file.columnCount
        // An escaped export's rows are its table's, as COPY FROM reads them: one equal to the header too.
        let headerEcho = file.options.escape == nil ? _HeaderEcho(file.header, raw: reader.headerRawBytes) : nil
        // Pairs of saved objects go straight to the join table in batches (``linkSaved``), when the
        // relationship needs no object loaded or validated to take them; else through the context.
        let inBulk = join.sourceIndex.entity === join.entity && context.canLinkSaved(by: join.relationship, of: join.entity)
        var linking: [(owner: ObjectID, member: ObjectID)] = []
        let linkBatch = max(options.batchSize, Self.joinPairsPerBatch)
        var tick = 0
        try reader.forEachRawRecord { record in
            file.rowsRead += 1
            tick &+= 1
            if tick & 511 == 0 {
                progress.update(bytes: reader.bytesRead, rows: file.rowsRead)
                try checkCancelled()
            }
            if record.isEmptyRow(delimiter: file.options.delimiter, escaped: file.options.escape != nil, columns: columnCount,
                                 endOfData: reader.endOfDataLine) {
                file.blankRows += 1
                return
            }
            if let headerEcho, record.repeats(headerEcho) {
                file.noteRepeatedHeader(line: record.lineNumber, reporting: options.reportedLines)
                return
            }
            if let failure = _RowFailure(validating: record, file: file, owner: join.owner(of:)) {
                try reject(file, record, failure, unread: true)
                return
            }
            guard record.count == columnCount else {
                try reject(file, record, _RowFailure(fieldCount: record, columns: columnCount, file: file, raw: reader.lastRecordRawBytes), unread: true)
                return
            }
            var ids: [ObjectID] = []
            for (field, converter, index) in [(join.sourceField, join.sourceConverter, join.sourceIndex),
                                              (join.destinationField, join.destinationConverter, join.destinationIndex)] {
                var failure: _RowFailure?
                let key: Value? = record.withBytes(at: field) { raw in
                    let bytes = converter.fieldBytes(raw)
                    if join.nulls.matches(bytes) && !record.isQuoted(at: field) {
                        failure = _RowFailure(field: field, entity: index.entity.name, attribute: index.attribute,
                                              reason: "a join row needs both keys; this one is empty", value: Self.display(bytes, file))
                        return nil
                    }
                    guard let value = converter.convert(bytes) else {
                        failure = _RowFailure(field: field, entity: index.entity.name, attribute: index.attribute,
                                              reason: converter.explainKey(bytes, quoted: record.isQuoted(at: field)), value: Self.display(bytes, file))
                        return nil
                    }
                    return value
                }
                if let failure {
                    try reject(file, record, failure, unread: true)
                    return
                }
                guard let key, let entry = index.find(key) else {
                    // Skip mode: a key only rows set aside held is said to be theirs, as for a to-one's key.
                    let setAside = key.map { wasSetAside($0, in: index, upTo: file) } ?? false
                    try reject(file, record, _RowFailure(
                        field: field, entity: index.entity.name, attribute: index.attribute,
                        reason: "no \(index.entity.name) has \(index.attribute) \(Self.describe(key ?? .null))"
                            + (setAside ? " but in rows set aside" : key.map(index.spacedKeyNote) ?? ""), value: key?.description))
                    return
                }
                ids.append(index.objectID(entry))
            }
            if inBulk && !ids[0].isTemporary && !ids[1].isTemporary {
                linking.append((ids[0], ids[1]))
                file.rowsImported += 1
                if linking.count >= linkBatch { try link(&linking, join, file) }
                return
            }
            let owner = context.object(with: ids[0])
            let member = context.object(with: ids[1])
            do { try owner.add(member, toKey: join.relationship) } catch {
                throw ImportError(.store, reason: "cannot join \(ids[0]) and \(ids[1]): \(error)", file: file.displayPath,
                                  line: record.lineNumber)
            }
            file.rowsImported += 1
            changes += 1
            if changes >= options.batchSize { try flush() }
        }
        try link(&linking, join, file)
        progress.update(bytes: reader.bytesRead, rows: file.rowsRead)
    }

    /// The pairs of a join file written to the join table at a time (or the batch size, if larger): they
    /// hold no objects, 64 bytes a pair while buffered, and each batch reaches every page of the table's
    /// key that its pairs land on, so fewer, larger batches read and write it fewer times (3.84 million
    /// pairs: saving 20.4 s in batches of 10,000, 11.2 s of 65,536, 10.3 s of 131,072 for 7 MB more).
    static let joinPairsPerBatch = 65_536

    /// Writes a batch of a join file's pairs to the join table (``ManagedObjectContext/linkSaved(_:by:of:)``).
    private func link(_ pairs: inout [(owner: ObjectID, member: ObjectID)], _ join: _JoinPlan, _ file: _FilePlan) throws(ImportError) {
        guard !pairs.isEmpty else { return }
        try checkKeyIndexes()
        let start = Clock.now()
        defer { saveSeconds += Clock.now() - start }
        do { try context.linkSaved(pairs, by: join.relationship, of: join.entity) } catch {
            throw ImportError(.store, reason: "saving a batch of \(join.entity.name).\(join.relationship) pairs failed: \(error)",
                              file: file.displayPath, hint: "Nothing was written: \(targetUntouched).")
        }
        pairs.removeAll(keepingCapacity: true)
    }

    // MARK: Bad rows

    /// A bad row: abort with an ``ImportError``, or write it to the rejects file with its original bytes.
    func reject(_ file: _FilePlan, line: Int, _ failure: _RowFailure, ownKey: Bool = false, contextual: Bool = false,
                unread: Bool = false, raw: () -> [UInt8]) throws(ImportError) {
        let columnName = failure.field.map { file.columnName($0) }
        guard options.onError == .skip, let rejects else {
            throw ImportError(
                .badRow, reason: failure.reason, file: file.displayPath, line: line,
                column: failure.field.map { $0 + 1 }, byteOffset: failure.byteOffset, columnName: columnName,
                entity: failure.entity, attribute: failure.attribute, value: failure.value,
                hint: (failure.hint.map { $0 + " " } ?? "")
                    + "The import stopped; \(targetUntouched). Fix the row, or re-run with --on-error skip --rejects FILE to set bad rows aside.")
        }
        file.rejects += 1
        if !unread { file.relationshipRejects += 1 }
        file.rejectedLines.insert(line)
        if contextual { contextualRejects[file.position, default: []].insert(line) }
        if let settling {
            lateRejects[file.position, default: _FailureTable()][line] = failure
            if ownKey { lateRoots[file.position, default: []].insert(line) }
            if file !== settling || file.touchedLines.contains(line) { needsRerun = true }
        }
        var reason = failure.reason
        if let columnName { reason = "\(columnName): " + reason }
        if let byteOffset = failure.byteOffset { reason += " (byte offset \(byteOffset))" }
        if let hint = failure.hint { reason += ". " + hint }
        rejects.write(file: file.displayPath, line: line, column: failure.field.map { $0 + 1 },
                      entity: failure.entity, attribute: failure.attribute, value: failure.value, reason: reason,
                      raw: raw())
    }

    private func reject(_ file: _FilePlan, _ record: CSVRawRecord, _ failure: _RowFailure, unread: Bool = false) throws(ImportError) {
        try reject(file, line: record.lineNumber, failure, unread: unread, raw: { reader?.lastRecordRawBytes ?? [] })
    }

    /// The bytes of a value shown in full in messages; past them, the start and the length. A quote never
    /// closed reads the rest of the file into one field: a message must not repeat it.
    static let displayedBytes = 200

    /// A field's bytes as text for messages: decoded when valid, with U+FFFD for bytes that are not; a
    /// longer value than ``displayedBytes`` is cut (at a character) and its length added:
    /// `E1,Employee number 1…` + ` (141,444,400 bytes)`.
    static func display(_ bytes: UnsafeBufferPointer<UInt8>, _ file: _FilePlan?) -> String {
        display(bytes, encoding: file?.options.encoding)
    }

    static func display(_ bytes: UnsafeBufferPointer<UInt8>, encoding: TextEncoding?) -> String {
        var shown = bytes
        if bytes.count > displayedBytes {
            var end = displayedBytes
            // UTF-8: not in the middle of a character (continuation bytes are 10xxxxxx).
            if encoding == nil || encoding == .utf8 { while end > 0 && bytes[end] & 0xC0 == 0x80 { end -= 1 } }
            shown = UnsafeBufferPointer(rebasing: bytes[..<end])
        }
        var text = (try? encoding?.decode(shown)) ?? String(decoding: shown, as: UTF8.self)
        if shown.count < bytes.count { text += "… (\(_ProgressReporter.grouped(bytes.count)) bytes)" }
        return text
    }

    /// A key or value for messages: text in quotes (cut as ``display(_:_:)`` cuts), anything else as it prints.
    static func describe(_ value: Value) -> String {
        if case .string(var text) = value {
            if text.utf8.count > displayedBytes { text = text.withUTF8 { display($0, encoding: nil) } }
            // A quote inside is escaped, so where the value ends is plain: "E 7 \"q\"".
            let escaped = text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            return "\"" + VisibleText.escaped(escaped) + "\""
        }
        return value.description
    }
}

/// A saved batch's objects, handed to another thread to be freed there. Nothing else touches them
/// once handed over (the context was reset), so only their reference counts cross threads.
final class _Garbage: @unchecked Sendable {
    private var items: [_PendingKey]
    init(_ items: [_PendingKey]) { self.items = items }
    func drop() { items = [] }
}

/// An object inserted since the last save, and the index entry that must learn its permanent key.
typealias _PendingKey = (index: _KeyIndex, entry: Int, object: ManagedObject)

/// Why a row cannot be imported.
struct _RowFailure: Sendable {
    var field: Int?
    var entity: String?
    var attribute: String?
    var reason: String
    var value: String?
    /// The offset in the file of the byte to blame, when one is.
    var byteOffset: Int64?
    /// What to do about it, when something specific helps.
    var hint: String?

    init(field: Int? = nil, entity: String? = nil, attribute: String? = nil, reason: String, value: String? = nil,
         byteOffset: Int64? = nil, hint: String? = nil) {
        self.field = field
        self.entity = entity
        self.attribute = attribute
        self.reason = reason
        self.value = value
        self.byteOffset = byteOffset
        self.hint = hint
    }
}
