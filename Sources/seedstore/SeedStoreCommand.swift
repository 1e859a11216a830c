import ArgumentParser
import ManagedStore

@main
struct SeedStoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seedstore",
        abstract: "Preload Core Data-style SQLite seed stores from CSV, query them, and benchmark fetch strategies.",
        discussion: """
            Stores follow Core Data's SQLite layout (Z-tables, Z_PRIMARYKEY, Z_METADATA), so a seed store made \
            here looks like one Core Data made, and stores Core Data wrote open here.

            Set SEEDSTORE_SQL_DEBUG=1..3 to see the SQL of any command that opens a store, like Core Data's SQLDebug; query and \
            inspect also take --sql-debug 1..3.
            """,
        version: PersistentStore.version,
        subcommands: [GenerateCommand.self, ImportCommand.self, InspectCommand.self, QueryCommand.self, BenchCommand.self, SpeedCommand.self]
    )

    /// Every error line starts `error:`, as the notes and warnings start `note:` and `warning:` (and as
    /// swift's and the compiler's do): ArgumentParser's own `Error:` made two spellings in one tool.
    static var _errorPrefix: String { "error: " }
}
