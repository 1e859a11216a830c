import Foundation
import ManagedStore

/// Forward references of one file moved out of memory until the file has been read: a private
/// temporary SQLite database (``Connection/scratch(schema:)``), read back in line order.
///
/// A file listing employees long before their managers keeps one forward reference per row until the
/// end (about 170 bytes each in memory). Past ``ImportOptions/forwardKeyLimit`` the writer moves them
/// here at a save, once their rows' objects have permanent IDs, and starts over, so memory stays flat
/// however many keys wait (in skip mode, when a key never came, only the rows the passes that set rows
/// aside look at come back into memory: ``references(atLine:)``).
///
/// Rows are appended in line order, so rowid order is line order. A later upsert of a row's object voids
/// that row's references (it set the relationship itself): a bit per key entry says which entries have
/// references here, and those upserts note the entry in a small table the read-back leaves out (an
/// index on every reference instead took a quarter more time to move them).
final class _SpilledForward {
    /// One reference read back: as it was kept (its ``_ForwardReference/objectsAt`` is -1, since the
    /// writer's slots started over), per target of the file the primary key of the object the row
    /// inserted (0: none), and its number here (from 1, in line order; voided ones keep theirs).
    typealias Reference = (reference: _ForwardReference, primaryKeys: [Int64], number: Int)

    private let connection: Connection
    private let targetCount: Int
    /// References written, voided ones included.
    private(set) var count = 0
    /// Per target, a bit per key entry: set when a reference here belongs to the row that inserted the
    /// entry's object.
    private var voidable: [_EntrySet]
    private var objectBytes: [UInt8] = []
    private let insert: Statement
    /// Entries noted void.
    private var voids = 0

    init(targetCount: Int) throws(SQLiteError) {
        self.targetCount = targetCount
        voidable = Array(repeating: _EntrySet(), count: targetCount)
        connection = try Connection.scratch(schema: """
            CREATE TABLE forward (line INTEGER NOT NULL, target INTEGER NOT NULL, relationship INTEGER NOT NULL,
                                  entry INTEGER NOT NULL, offset INTEGER NOT NULL, count INTEGER NOT NULL,
                                  objects BLOB NOT NULL, key);
            CREATE TABLE void (target INTEGER NOT NULL, entry INTEGER NOT NULL, PRIMARY KEY (target, entry)) WITHOUT ROWID;
            """)
        insert = try connection.prepare(
            "INSERT INTO forward (line, target, relationship, entry, offset, count, objects, key) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            persistent: true)
    }

    /// Appends a reference: `entry` is the key entry of its target's object when the row inserted it
    /// (a later upsert voids the reference), else -1; `objects` the row's inserted objects by target.
    func append(_ reference: _ForwardReference, entry: Int, objects: ArraySlice<ObjectID?>) throws(SQLiteError) {
        defer { insert.reset() }
        insert.bind(Int64(reference.line), at: 1)
        insert.bind(Int64(reference.target), at: 2)
        insert.bind(Int64(reference.relationship), at: 3)
        insert.bind(Int64(entry), at: 4)
        insert.bind(reference.byteOffset, at: 5)
        insert.bind(Int64(reference.byteCount), at: 6)
        objectBytes.removeAll(keepingCapacity: true)
        for id in objects {
            withUnsafeBytes(of: (id?.primaryKey ?? 0).littleEndian) { objectBytes.append(contentsOf: $0) }
        }
        try insert.bind(.blob(objectBytes), at: 7)
        insert.bindStored(reference.key, at: 8)
        try insert.run()
        count += 1
        voidable[reference.target].insert(entry)
    }

    /// A later row updated target `target`'s object of key entry `entry`: the references of the row
    /// that inserted it, for that target, are void.
    func void(target: Int, entry: Int) throws(SQLiteError) {
        guard voidable[target].remove(entry) else { return }
        let note = try connection.cachedStatement("INSERT OR IGNORE INTO void (target, entry) VALUES (?, ?)")
        note.bind(Int64(target), at: 1)
        note.bind(Int64(entry), at: 2)
        try note.run()
        voids += 1
    }

    /// Reads the references back in line order, void ones left out. `keyColumns[target][relationship]`
    /// is the column, and its entity, whose values the keys are (the destination's key attribute).
    func cursor(keyColumns: [[(column: Column, entity: Entity)]]) throws(SQLiteError) -> Cursor {
        Cursor(statement: try connection.prepare("SELECT \(Self.columns) FROM forward WHERE \(unvoided) ORDER BY rowid"),
               targetCount: targetCount, keyColumns: keyColumns)
    }

    /// Indexes the references by line, for ``references(atLine:keyColumns:)``: before any cursor is
    /// open (a schema change waits for none). Their rowid order is line order, so the sort is quick.
    func indexLines() throws(SQLiteError) {
        try connection.execute("CREATE INDEX IF NOT EXISTS forward_line ON forward (line)")
    }

    /// The references of the row at `line` (``indexLines()`` first), void ones left out, in their order.
    func references(atLine line: Int, keyColumns: [[(column: Column, entity: Entity)]]) throws(SQLiteError) -> [Reference] {
        try references(where: "line = ?", line, keyColumns: keyColumns)
    }

    /// The references of the row reference `number` (``Reference/number``) belongs to, as
    /// ``references(atLine:keyColumns:)``: one query where the line is not known.
    func references(sharingLineWith number: Int, keyColumns: [[(column: Column, entity: Entity)]]) throws(SQLiteError) -> [Reference] {
        try references(where: "line = (SELECT line FROM forward WHERE rowid = ?)", number, keyColumns: keyColumns)
    }

    private func references(where condition: String, _ argument: Int,
                            keyColumns: [[(column: Column, entity: Entity)]]) throws(SQLiteError) -> [Reference] {
        let statement = try connection.cachedStatement("SELECT \(Self.columns) FROM forward WHERE \(condition) AND (\(unvoided)) ORDER BY rowid")
        statement.bind(Int64(argument), at: 1)
        defer { statement.reset() }
        let cursor = Cursor(statement: statement, targetCount: targetCount, keyColumns: keyColumns)
        var references: [Reference] = []
        while let reference = try cursor.next() { references.append(reference) }
        return references
    }

    private static let columns = "line, target, relationship, offset, count, objects, key, rowid"
    /// The filter that leaves out void references.
    private var unvoided: String {
        voids == 0 ? "1" : "entry < 0 OR NOT EXISTS (SELECT 1 FROM void WHERE void.target = forward.target AND void.entry = forward.entry)"
    }

    /// The references in line order, one at a time.
    final class Cursor {
        private let statement: Statement
        private let targetCount: Int
        private let keyColumns: [[(column: Column, entity: Entity)]]

        fileprivate init(statement: Statement, targetCount: Int, keyColumns: [[(column: Column, entity: Entity)]]) {
            self.statement = statement
            self.targetCount = targetCount
            self.keyColumns = keyColumns
        }

        /// The next reference, or nil once all were read.
        func next() throws(SQLiteError) -> Reference? {
            guard try statement.step() else { return nil }
            let target = Int(statement.int64(at: 1))
            let relationship = Int(statement.int64(at: 2))
            let (column, entity) = keyColumns[target][relationship]
            let primaryKeys = statement.withBlob(at: 5) { bytes in
                (0..<targetCount).map { Int64(littleEndian: bytes.loadUnaligned(fromByteOffset: $0 * 8, as: Int64.self)) }
            }
            let reference = _ForwardReference(key: statement.value(at: 6, as: column, of: entity), target: UInt16(target),
                                              relationship: UInt16(relationship), objectsAt: -1, line: Int(statement.int64(at: 0)),
                                              byteOffset: statement.int64(at: 3), byteCount: Int(statement.int64(at: 4)))
            return (reference, primaryKeys, Int(statement.int64(at: 7)))
        }
    }
}
