import Foundation
import Testing
@testable import ManagedStore

/// The SQLite layer: counters, statement cache, SQL debug logging and errors.
@Suite struct ConnectionTests {
    @Test func countsStatementsAndRows() throws {
        let db = try Connection(path: ":memory:")
        try db.execute("CREATE TABLE t(x INTEGER)")
        for i in 0..<5 { try db.execute("INSERT INTO t(x) VALUES (?)", [.integer(Int64(i))]) }
        let before = db.stats
        let rows = try db.rows("SELECT x FROM t ORDER BY x")
        #expect(rows.count == 5)
        #expect(db.stats - before == ConnectionStats(statements: 1, rows: 5, prepares: 1))
        _ = try db.rows("SELECT x FROM t ORDER BY x")
        #expect((db.stats - before).prepares == 1, "the second run reuses the cached statement")
    }

    @Test func sqlDebugLevels() throws {
        let db = try Connection(path: ":memory:")
        var lines: [String] = []
        db.log = { lines.append($0) }
        try db.execute("CREATE TABLE t(x TEXT)")
        db.sqlDebugLevel = 1
        try db.execute("INSERT INTO t(x) VALUES (?)", [.text("secret")])
        #expect(lines.last?.hasPrefix("  0 row(s) in") == true)
        #expect(lines.contains("INSERT INTO t(x) VALUES (?)"))
        #expect(!lines.joined().contains("secret"), "level 1 does not show bound values")
        lines = []
        db.sqlDebugLevel = 2
        try db.execute("INSERT INTO t(x) VALUES (?)", [.text("shown")])
        #expect(lines.first == "INSERT INTO t(x) VALUES (?)  -- bound: 'shown'")
        lines = []
        db.sqlDebugLevel = 3
        _ = try db.rows("SELECT x FROM t")
        #expect(lines.contains("  row: 'secret'") && lines.contains("  row: 'shown'"))
    }

    @Test func errorsCarryCodeMessageAndSQL() throws {
        let db = try Connection(path: ":memory:")
        try db.execute("CREATE TABLE t(x INTEGER UNIQUE)")
        try db.execute("INSERT INTO t(x) VALUES (1)")
        #expect {
            try db.execute("INSERT INTO t(x) VALUES (?)", [.integer(1)])
        } throws: { error in
            guard let error = error as? SQLiteError else { return false }
            return error.code == 19 && error.extendedCode == 2067 && error.sql == "INSERT INTO t(x) VALUES (?)"
                && error.message.contains("UNIQUE")
        }
    }

    @Test func transactionsRollBackOnError() throws {
        let db = try Connection(path: ":memory:")
        try db.execute("CREATE TABLE t(x INTEGER)")
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try db.transaction {
                try db.execute("INSERT INTO t(x) VALUES (1)")
                throw Stop()
            }
        }
        #expect(try db.scalar("SELECT count(*) FROM t") == .integer(0))
        #expect(!db.isInTransaction)
    }

    /// A user trial: a 1,200-condition AND failed with SQLite's raw message and 30,000 characters of SQL.
    @Test func aLongStatementIsCutAndTooDeepAPredicateSaysHowToWriteIt() {
        let sql = "SELECT 1 WHERE " + Array(repeating: "1", count: 400).joined(separator: " AND ")
        let error = SQLiteError(code: 1, message: "Expression tree is too large (maximum depth 1000)", sql: sql)
        #expect(error.description.contains("… (\(sql.count.formatted()) characters)"))
        #expect(error.description.count < 600, "\(error.description.count)")
        #expect(error.description.hasSuffix("write a long list of values as IN {…} (name IN {'a', 'b'}, or NOT (name IN {…}))"))
        let short = SQLiteError(code: 19, message: "UNIQUE constraint failed: ZTAG.ZNAME", sql: "INSERT INTO ZTAG (ZNAME) VALUES (?1)")
        #expect(short.description.hasSuffix("— while running: INSERT INTO ZTAG (ZNAME) VALUES (?1)"))
    }
}
