import Foundation
import ManagedStore

/// The rejects file in line order: rows are rejected as they are read, and others once their file has
/// been read (a forward key that never came, rows a removal took along), so they are written out of
/// order. When they were, ``commit()`` sorts them by file (in import order) and line, through a
/// temporary SQLite file whose sorter keeps memory flat, however many rows there are.
extension _RejectsWriter {
    /// Notes where a row goes in line order; the file stays as written while every row came in order.
    func noteOrder(file: String, line: Int) {
        let key = (fileOrder[file] ?? Int.max, line)
        if let last = lastOrder, key < last { isInLineOrder = false }
        lastOrder = key
    }

    /// Rewrites ``writingPath`` with its rows by file and line (a row's several rejects stay in the order
    /// written); returns what went wrong, if anything (the file then stays as written).
    /// What the files ``sortByLine()`` uses add to ``writingPath``; a signal, or the next import into the
    /// folder (``_StoreFile/removeStale(in:)``), removes them.
    static let sortFileSuffixes = [".sort", ".sort-journal", ".sorted"]

    func sortByLine() -> String? {
        let database = writingPath + ".sort", sorted = writingPath + ".sorted"
        defer {
            for suffix in ["", "-journal"] { unlink(database + suffix) }
            unlink(sorted)
        }
        do {
            let connection = try Connection(path: database)
            try connection.execute("PRAGMA journal_mode = OFF")
            try connection.execute("PRAGMA synchronous = OFF")
            try connection.execute("CREATE TABLE row (file INTEGER, line INTEGER, record BLOB)")
            try connection.transaction {
                let insert = try connection.cachedStatement("INSERT INTO row VALUES (?, ?, ?)")
                try Self.forEachRecord(in: writingPath) { file, line, record in
                    insert.reset()
                    insert.bind(Int64(fileOrder[file] ?? Int.max), at: 1)
                    insert.bind(Int64(line), at: 2)
                    try record.withUnsafeBytes { try insert.bindBlob($0, at: 3) }
                    try insert.run()
                }
            }
            guard let out = fopen(sorted, "w") else { return "cannot sort the rejects by line: \(String(cString: strerror(errno)))" }
            var written = fwrite(Self.header + "\n", 1, Self.header.utf8.count + 1, out) == Self.header.utf8.count + 1
            let select = try connection.cachedStatement("SELECT record FROM row ORDER BY file, line, rowid")
            while try select.step() {
                let record = select.blob(at: 0)
                written = written && record.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, out) } == record.count
            }
            if fclose(out) != 0 || !written { return "cannot sort the rejects by line: writing \(sorted) failed" }
            guard rename(sorted, writingPath) == 0 else { return "cannot sort the rejects by line: \(String(cString: strerror(errno)))" }
            return nil
        } catch {
            return "cannot sort the rejects by line: \(error)"
        }
    }

    /// Calls `body` with each row of a rejects file this writer wrote: its `file` and `line` fields and its
    /// bytes, line end included. The rows are its own CSV (fields quoted with inner quotes doubled), so a
    /// row ends at the first line feed outside quotes.
    static func forEachRecord(in path: String, _ body: (String, Int, [UInt8]) throws -> Void) throws {
        guard let input = fopen(path, "r") else { throw _SortError(message: "cannot read \(path): \(String(cString: strerror(errno)))") }
        defer { fclose(input) }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var record: [UInt8] = []
        var quoted = false, header = true
        while true {
            let count = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, input) }
            if count == 0 { break }
            for byte in chunk[..<count] {
                record.append(byte)
                if byte == 0x22 { quoted.toggle() }
                guard byte == 0x0A, !quoted else { continue }
                if header {
                    header = false
                } else {
                    let (file, line) = leadingFields(record)
                    try body(file, line, record)
                }
                record.removeAll(keepingCapacity: true)
            }
        }
        if ferror(input) != 0 { throw _SortError(message: "reading \(path) failed") }
    }

    /// A row's first two fields: the file (unquoted) and the line.
    static func leadingFields(_ record: [UInt8]) -> (String, Int) {
        var i = 0
        var file: [UInt8] = []
        if record.first == 0x22 {
            i = 1
            while i < record.count {
                if record[i] == 0x22 {
                    if i + 1 < record.count && record[i + 1] == 0x22 {
                        file.append(0x22)
                        i += 2
                        continue
                    }
                    i += 1
                    break
                }
                file.append(record[i])
                i += 1
            }
        } else {
            while i < record.count && record[i] != 0x2C { file.append(record[i]); i += 1 }
        }
        i += 1   // the comma
        var line = 0
        while i < record.count, record[i] >= 0x30 && record[i] <= 0x39 {
            line = line * 10 + Int(record[i] - 0x30)
            i += 1
        }
        return (String(decoding: file, as: UTF8.self), line)
    }
}

private struct _SortError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
