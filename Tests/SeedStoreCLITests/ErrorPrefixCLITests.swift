import Foundation
import Testing

/// Errors from argument parsing and from the commands' own checks start the same way (`error:`, as
/// notes start `note:`): ArgumentParser's `Error:` made two spellings in one tool.
@Suite(.enabled(if: CLI.hasBinary, CLI.noBinary))
struct ErrorPrefixCLITests {
    @Test("every command's errors start error:", arguments: [
        ["import", "--model"],
        ["import", "--out", "x.sqlite"],
        ["query", "x.sqlite"],
        ["generate", "nope", "--out", "x"],
        ["bench", "--compare"],
        ["inspect"],
    ])
    func lowercasePrefix(arguments: [String]) throws {
        let directory = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try CLI.run(arguments, directory: directory)
        #expect(result.status != 0)
        #expect(result.stderr.hasPrefix("error: "), "\(result.stderr)")
        #expect(!result.stderr.contains("Error:"), "\(result.stderr)")
    }
}
