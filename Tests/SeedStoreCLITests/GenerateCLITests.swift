import Foundation
import Testing

/// `seedstore generate`: same seed, byte-identical files.
@Suite(.enabled(if: CLI.hasBinary, CLI.noBinary))
struct GenerateCLITests {
    @Test func sameSeedSameBytes() throws {
        let a = CLI.temporaryDirectory(), b = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: a); try? FileManager.default.removeItem(at: b) }
        for dir in [a, b] {
            let result = try CLI.run(["generate", "wells", "--rows", "2000", "--seed", "7", "--out", dir.path])
            #expect(result.status == 0, "\(result.stderr)")
        }
        for file in ["wells.csv", "operators.csv", "wells.model.json", "wells.mapping.json"] {
            #expect(try Data(contentsOf: a.appendingPathComponent(file)) == Data(contentsOf: b.appendingPathComponent(file)), "\(file)")
        }
    }
}
