import CSVStream
import Foundation
import Testing

/// A file many chunks long reads through, with progress that follows the records.
@Suite("Streaming")
struct StreamingTests {
    @Test func readsAChunkAtATime() throws {
        var text = "id,name,note\n"
        for index in 0..<20_000 {
            text += "\(index),name \(index),\"a note, with a comma\nand a line break\"\n"
        }
        let path = try TemporaryFile.make(contents: text)
        defer { try? FileManager.default.removeItem(atPath: path) }

        let reader = try CSVReader(path: path, chunkSize: 4096)
        #expect(reader.fileSize == Int64(text.utf8.count))
        let first = try #require(try reader.next())
        #expect(first.fields == ["0", "name 0", "a note, with a comma\nand a line break"])
        #expect(reader.bytesRead < 200)  // progress counts parsed bytes, not read-ahead
        var count = 1
        var last = first
        while let record = try reader.next() {
            count += 1
            last = record
        }
        #expect(count == 20_000)
        #expect(last.lineNumber == 2 + 2 * 19_999)
        #expect(reader.bytesRead == reader.fileSize)
    }
}
