import ArgumentParser
import Foundation
import ManagedStore

/// Options every command that opens a store shares.
struct StoreOptions: ParsableArguments {
    @Argument(help: "The store: a .sqlite file in Core Data's layout.")
    var store: String

    @Option(help: "A model to open the store with (.json, .xcdatamodeld or .xcdatamodel); by default the model stored in it, or one read off its tables.")
    var model: String?

    @Option(name: .customLong("sql-debug"), parsing: .unconditional, help: "Log SQL to stderr: 1 statements, 2 with bound values, 3 with rows.")
    var sqlDebug: Int?

    func validate() throws {
        if let sqlDebug, !(0...3).contains(sqlDebug) {
            throw ValidationError("--sql-debug takes 0, 1, 2 or 3")
        }
        if sqlDebug == nil { try checkSQLDebugVariable(orOption: true) }
    }

    /// Opens the store read-only.
    func open(readOnly: Bool = true) throws -> PersistentStore {
        let model = try self.model.map { path throws(ModelError) in try ObjectModel(contentsOf: path) }
        return try PersistentStore(path: store, model: model, options: .init(readOnly: readOnly, create: false, sqlDebugLevel: sqlDebug))
    }
}

/// Refuses a `SEEDSTORE_SQL_DEBUG` that is not a level: it is read wherever a connection opens, and a
/// level it cannot be was silently 3 (`9`) or 0 (`abc`). `orOption`: the command has `--sql-debug`.
func checkSQLDebugVariable(orOption: Bool) throws {
    let variable = Connection.debugEnvironmentVariable
    if let text = ProcessInfo.processInfo.environment[variable], !text.isEmpty, Int(text).map({ !(0...3).contains($0) }) ?? true {
        throw ValidationError("\(variable)=\(text) is not a level: set it to 0, 1, 2 or 3, or unset it\(orOption ? " (--sql-debug N wins over it)" : "")")
    }
}

/// Writes a line to standard error, with invisible characters written out (a NUL or an escape sequence
/// from a file's header must not act on the terminal); line breaks and tabs stay. Standard output is
/// flushed first, so a log that takes both streams (`2>&1 | tee log`) keeps the order they were written in.
func printError(_ text: String) {
    fflush(nil)
    FileHandle.standardError.write(Data((VisibleText.escaped(text, keepingLines: true) + "\n").utf8))
}
