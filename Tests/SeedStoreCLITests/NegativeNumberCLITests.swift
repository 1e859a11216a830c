import Foundation
import Testing

/// A negative number given to a numeric option is that option's value, so its range check answers
/// (`--batch-size -5` must be at least 1), not "Missing value" from the parser.
@Suite(.enabled(if: CLI.hasBinary, CLI.noBinary))
struct NegativeNumberCLITests {
    @Test(arguments: [
        (["import", "--batch-size", "-5", "--model", "m.json", "--out", "s.sqlite", "E=e.csv"], "--batch-size must be at least 1."),
        (["import", "--key-memory", "-5", "--model", "m.json", "--out", "s.sqlite", "E=e.csv"], "--key-memory takes MiB from 1 to 1048576 (1 TiB), not -5."),
        (["generate", "banks", "--rows", "-5", "--out", "unused"], "--rows must be between 1 and 50000 for banks."),
        (["generate", "banks", "--seed", "-5", "--out", "unused"], "The value '-5' is invalid for '--seed <seed>'"),
        (["speed", "engine", "--runs", "-1"], "--runs takes 1 or more, not -1."),
        (["speed", "engine", "--rows", "-1"], "--rows takes 1 or more, not -1."),
        (["bench", "s.sqlite", "--runs", "-1"], "--runs takes 1 or more"),
        (["bench", "s.sqlite", "--warmup", "-1"], "--warmup takes 0 or more"),
        (["bench", "s.sqlite", "--time-budget", "-1"], "--time-budget takes seconds, 0 or more"),
        (["bench", "s.sqlite", "--fault-limit", "-1"], "--fault-limit takes 1 or more"),
        (["bench", "s.sqlite", "--threshold", "-1"], "--threshold takes a percentage of 0 or more"),
        (["inspect", "s.sqlite", "--sql-debug", "-1"], "--sql-debug takes 0, 1, 2 or 3"),
        (["query", "s.sqlite", "--entity", "E", "--limit", "-1"], "--limit -1 is negative"),
    ])
    func negativeValuesReachTheRangeCheck(arguments: [String], message: String) throws {
        let directory = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try CLI.run(arguments, directory: directory)
        #expect(result.status == 64, "\(arguments): \(result.stderr)")
        #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        #expect(!result.stderr.contains("Missing value"), "\(arguments): \(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("unused").path))
    }

    /// A user trial: both were accepted and did nothing (`speed engine --store`), or measured nothing
    /// (`--faults` with batches: 0 faults).
    @Test(arguments: [
        (["speed", "engine", "--store", "s.sqlite"], "--store goes with the fetch suite (speed fetch --store Wells.sqlite); the engine suite makes its own stores."),
        (["query", "s.sqlite", "--entity", "E", "--faults", "--batch-size", "5"], "--faults and --batch-size 5: each batch loads its objects' values, so none is a fault"),
    ])
    func optionsThatWouldDoNothingAreRefused(arguments: [String], message: String) throws {
        let directory = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try CLI.run(arguments, directory: directory)
        #expect(result.status == 64, "\(arguments): \(result.stderr)")
        #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
    }
}
