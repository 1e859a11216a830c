import Foundation
import ManagedStore
import SeedImport
import Testing

/// Paths the import tests need: committed fixtures, the real-world files in ../shared, the built CLI.
enum ImportFixtures {
    /// The repository root (this file is Tests/SeedImportTests/ImportTestSupport.swift).
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    /// The project's committed fixtures.
    static let local = repository.appendingPathComponent("fixtures")
    /// `../shared/fixtures-real`: real-world files made by others, absent outside CI and the dev machines.
    static let real = repository.deletingLastPathComponent().appendingPathComponent("shared/fixtures-real")
    static let hasReal = FileManager.default.fileExists(atPath: real.path)
    static let realSkipReason: Comment = "../shared/fixtures-real is absent: real-world import tests skipped"

    /// The CLI built by `swift build` (`SEEDSTORE_CLI` overrides), for subprocess tests.
    static let cli: URL? = {
        if let path = ProcessInfo.processInfo.environment["SEEDSTORE_CLI"], FileManager.default.isExecutableFile(atPath: path) {
            return URL(fileURLWithPath: path)
        }
        let built = repository.appendingPathComponent(".build/debug/seedstore")
        return FileManager.default.isExecutableFile(atPath: built.path) ? built : nil
    }()
    static let hasCLI = cli != nil
    static let cliSkipReason: Comment = ".build/debug/seedstore is missing (run `swift build` first): CLI import tests skipped"

    static func path(_ relative: String) -> String { local.appendingPathComponent(relative).path }

    static func model(_ name: String) throws -> ObjectModel {
        try ObjectModel(contentsOf: path("models/\(name).model.json"))
    }

    static func mapping(_ name: String) throws -> ImportMapping {
        try ImportMapping(contentsOf: path("mappings/\(name).mapping.json"))
    }
}

/// A temporary directory removed when the value goes away.
final class ImportScratch {
    let url: URL

    init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("seedstore-import-tests-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Writes a text file and returns its path.
    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        let path = self.path(name)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Options that set bad rows aside in `rejects.csv` here (read it with ``rejects``).
    func skipping(batchSize: Int = ImportOptions().batchSize) -> ImportOptions {
        var options = ImportOptions()
        options.onError = .skip
        options.rejectsPath = path("rejects.csv")
        options.batchSize = batchSize
        return options
    }

    /// The text of the rejects file ``skipping(batchSize:)`` names.
    var rejects: String { (try? String(contentsOfFile: path("rejects.csv"), encoding: .utf8)) ?? "" }

    /// The directory's file names, hidden ones included.
    var files: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted() }
}

/// The outcome of a CLI run.
struct CLIResult {
    let status: Int32
    let output: String
    let errors: String
}

enum ImportCLI {
    /// Runs the CLI to completion; `environment` sets variables, or removes those given `nil`.
    static func run(_ arguments: [String], directory: URL? = nil, environment: [String: String?] = [:]) throws -> CLIResult {
        let process = Process()
        process.executableURL = ImportFixtures.cli!
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        if !environment.isEmpty {
            var variables = ProcessInfo.processInfo.environment
            for (name, value) in environment { variables[name] = value }
            process.environment = variables
        }
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Read before waiting, so a full pipe cannot stall the child.
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CLIResult(status: process.terminationStatus, output: String(decoding: out, as: UTF8.self),
                         errors: String(decoding: err, as: UTF8.self))
    }
}

/// Reading a finished store back.
enum StoreReader {
    /// Opens a store read-only with the model stored in it.
    static func open(_ path: String) throws -> PersistentStore {
        try PersistentStore(path: path, options: .init(readOnly: true, create: false))
    }

    /// Every object of an entity.
    static func objects(_ path: String, _ entity: String) throws -> (ManagedObjectContext, [ManagedObject]) {
        let context = ManagedObjectContext(store: try open(path))
        return (context, try context.fetchAll(entity))
    }

    /// Every entity and join table's rows, in primary-key order, as text: two stores with the same
    /// contents give the same dump.
    static func tables(_ path: String) throws -> [String: [String]] {
        let store = try open(path)
        var tables: [String: [String]] = [:]
        for row in try store.connection.rows("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'Z%' AND name NOT IN ('Z_METADATA', 'Z_MODELCACHE')") {
            guard case .text(let table) = row[0] else { continue }
            tables[table] = try store.connection.rows("SELECT * FROM \(table) ORDER BY 1, 2").map { $0.map(\.description).joined(separator: "|") }
        }
        return tables
    }

    /// A single value from the store's SQL.
    static func scalar(_ path: String, _ sql: String) throws -> SQLValue? {
        try open(path).connection.scalar(sql)
    }
}

extension Date {
    /// A UTC civil date, for expectations.
    static func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Int = 0) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second))!
    }
}

/// Runs one case of a property, recording an error it throws as an issue. PropertyBased counts only the
/// issues a case records and drops an error thrown out of `propertyCheck`'s body, so a property that
/// fails by throwing would pass.
func recordingErrors(_ body: () throws -> Void) {
    do { try body() } catch { Issue.record(error) }
}
