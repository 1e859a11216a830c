import Foundation
import ManagedStore
import Testing

/// Runs the built `seedstore` binary and captures what it prints.
enum CLI {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let real = repository.deletingLastPathComponent().appendingPathComponent("shared/fixtures-real")
    static let hasReal = FileManager.default.fileExists(atPath: real.path)
    static let skipReason: Comment = "../shared/fixtures-real is absent: real-world fixture tests skipped"

    /// The debug binary `swift build` puts next to the tests: the one built with them first (a
    /// build with its own `--scratch-path` must not run another build's binary), then `.build`'s.
    static let binary: URL? = {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("seedstore"),
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("seedstore"),
            repository.appendingPathComponent(".build/debug/seedstore"),
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()
    static let hasBinary = binary != nil
    static let noBinary: Comment = "the seedstore binary is not built (run swift build first): CLI tests skipped"

    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// Runs `seedstore` with `arguments`; environment additions in `environment`.
    static func run(_ arguments: [String], environment: [String: String] = [:], directory: URL? = nil) throws -> Result {
        let process = Process()
        process.executableURL = binary!
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["COLUMNS"] = "80"
        for (key, value) in environment { env[key] = value }
        process.environment = env
        if let directory { process.currentDirectoryURL = directory }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read both pipes fully before waiting, so a large output cannot block the child.
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }

    /// A new store at `path` made with the fixture model `fixtures/models/<model>.model.json`, and a
    /// context on it to insert the objects a suite needs (saved by the caller).
    static func store(at path: String, model: String) throws -> ManagedObjectContext {
        let model = try ObjectModel(contentsOf: repository.appendingPathComponent("fixtures/models/\(model).model.json").path)
        return ManagedObjectContext(store: try PersistentStore(path: path, model: model))
    }

    static func temporaryDirectory() -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("seedstore-cli-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
