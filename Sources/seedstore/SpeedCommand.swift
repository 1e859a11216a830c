import ArgumentParser
import FetchBench
import Foundation
import ManagedStore
import Measure
import SeedImport

struct SpeedCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "speed",
        abstract: "Check the engine's speed targets against raw sqlite3 in the same run.",
        discussion: """
            Each line prints the measured median next to the raw-SQLite reference measured in the same run, \
            their ratio and the target. Build in release mode: swift run -c release seedstore speed engine

            Suites: engine (insert+save and fetch of 100,000 objects; makes its own stores), fetch (the fetch \
            targets on a store: --store, e.g. the wells store the demo imports), import (generates the wells \
            and imports them next to a raw libcsv + sqlite3 loader and the sqlite3 shell's .import).

            Exit status: 0 when every target is met, 3 when one is missed.
            """
    )

    enum Suite: String, ExpressibleByArgument, CaseIterable {
        case engine, fetch
        case `import`
    }

    @Option(help: "The store the fetch suite measures (a wells store from `generate` + `import`).")
    var store: String?

    @Argument(help: "Which targets: \(Suite.allCases.map(\.rawValue).joined(separator: ", ")).")
    var suite: Suite = .engine

    @Option(parsing: .unconditional, help: "Rows: objects for engine (default 100,000), wells for import (default 244,292).")
    var rows: Int?

    @Option(parsing: .unconditional, help: "Measured runs (the median is reported).")
    var runs: Int = 5

    @Option(help: "Write the checks as JSON to this file (format: docs/bench-schema.md, Speed checks).")
    var json: String?

    func validate() throws {
        try checkSQLDebugVariable(orOption: false)
        guard runs >= 1 else { throw ValidationError("--runs takes 1 or more, not \(runs).") }
        if let rows, rows < 1 { throw ValidationError("--rows takes 1 or more, not \(rows).") }
        // Only the fetch suite reads a store; the others make their own, so a --store there was ignored.
        if store != nil && suite != .fetch {
            throw ValidationError("--store goes with the fetch suite (speed fetch --store Wells.sqlite); the \(suite.rawValue) suite makes its own stores.")
        }
        // The fetch suite measures the store it is given, so --rows would be ignored there.
        if suite == .fetch {
            guard store != nil else { throw ValidationError("speed fetch needs --store PATH (e.g. the wells store the demo imports).") }
            if rows != nil {
                throw ValidationError("--rows goes with the engine and import suites; speed fetch measures the rows of its --store.")
            }
        }
        // Refused here, not after generating: the import suite generates that many wells first.
        if suite == .import, let rows, rows > DataSetKind.wells.maximumRows {
            throw ValidationError("--rows takes 1 to \(DataSetKind.wells.maximumRows) wells for the import suite, not \(rows).")
        }
    }

    func run() throws {
        #if DEBUG
        printError("warning: a debug build; measure with -c release for meaningful ratios")
        #endif
        // Checked before measuring, which can take minutes: a file the run reads, or a place the JSON cannot go.
        if let json { try checkJSON(json) }
        let checks: [SpeedCheck]
        switch suite {
        case .engine:
            checks = try EngineSpeed(rows: rows ?? 100_000, runs: runs).run { printError("speed: \($0)") }
        case .fetch:
            // validate() has refused speed fetch without --store.
            guard let store else { throw ValidationError("speed fetch needs --store PATH") }
            let opened = try PersistentStore(path: store, options: .init(readOnly: true, create: false))
            // As `seedstore bench` measures (see BenchCommand): the allocator a long-running app has.
            ProcessMemory.settleAllocator()
            do {
                checks = try FetchSpeed(store: opened, runs: runs).run { printError("speed: \($0)") }
            } catch BenchError.storeLacks(let missing) {
                throw NotAWellsStore(store: store, missing: missing)
            }
        case .import:
            // As `seedstore import` runs (see ImportCommand), so the figures are the command's.
            ProcessMemory.returnFreedMemoryPromptly()
            checks = try ImportSpeed(rows: rows ?? 244_292, runs: runs, executable: Bundle.main.executableURL)
                .run { printError("speed: \($0)") }
        }
        print(SpeedCheck.table(checks))
        if let json {
            do { try OutputPath.write(SpeedReport(suite: suite.rawValue, checks: checks).jsonData(), to: json) } catch {
                throw SpeedRefusal(description: "--json: \(error). The checks were printed above.")
            }
        }
        if checks.contains(where: { !$0.isMet }) { throw ExitCode(3) }
    }

    /// The files this run reads, which `--json` must not replace: the measured store, and the executable.
    func inputs() -> [(role: String, path: String)] {
        var read: [(role: String, path: String)] = []
        if suite == .fetch, let store { read.append(("the store being measured (--store)", store)) }
        if let executable = Bundle.main.executableURL?.path { read.append(("the seedstore executable", executable)) }
        return read
    }

    /// Refuses, before anything is measured, a `--json` path that is a file the run reads (under any
    /// spelling or through a link) or that cannot be written.
    func checkJSON(_ json: String) throws(SpeedRefusal) {
        // A stream (/dev/stdout, a pipe) is written as it is, never replaced.
        if !OutputPath.isStream(json) {
            for (role, path) in inputs() where OutputPath.same(json, path) {
                throw SpeedRefusal(description: "--json \(json) is \(role) (\(path)); the report would replace it. Give --json a path of its own, such as speed.json. Nothing was measured.")
            }
        }
        if let problem = OutputPath.problem(writing: json) {
            throw SpeedRefusal(description: "--json \(json): \(problem). Name a file in a directory you can write, such as speed.json. Nothing was measured.")
        }
    }

    /// A run refused before it measures, or an output it could not write: what is wrong and what to do.
    struct SpeedRefusal: Error, CustomStringConvertible {
        let description: String
    }

    /// `speed fetch` on a store that is not the generated wells store: what it lacks, and how to make one.
    struct NotAWellsStore: Error, CustomStringConvertible {
        let store: String
        let missing: BenchError.MissingName

        var description: String {
            let have = missing.available.joined(separator: ", ")
            let lacks = missing.entity.map { "its \($0) entity has no property '\(missing.name)' (it has \(have))" }
                ?? "it has no entity '\(missing.name)' (its entities: \(have))"
            return "\(store) is not a wells store: \(lacks). speed fetch measures the store that `seedstore generate wells --out DIR` "
                + "and `seedstore import --mapping DIR/wells.mapping.json --out Wells.sqlite` make; to measure another model, "
                + "use `seedstore bench STORE --entity NAME --sort-key NAME --properties A,B`."
        }
    }
}
