import CSVStream
import Foundation
import PropertyBased
import Testing

/// The real-world fixtures in the repository's sibling `shared/fixtures-real` folder (never copied into
/// the repo). Tests that need them are disabled, with this folder named, when it is absent.
enum Fixtures {
    /// `…/shared/fixtures-real`, found from this file's real path (symlinks resolved), or
    /// `$SEEDSTORE_FIXTURES_REAL` when set.
    static let root: String? = {
        if let override = ProcessInfo.processInfo.environment["SEEDSTORE_FIXTURES_REAL"] {
            return FileManager.default.fileExists(atPath: override) ? override : nil
        }
        guard let resolved = realpath(#filePath, nil) else { return nil }
        defer { free(resolved) }
        let testFile = URL(fileURLWithPath: String(cString: resolved))
        let repo = testFile.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let candidate = repo.deletingLastPathComponent().appendingPathComponent("shared/fixtures-real").path
        return FileManager.default.fileExists(atPath: candidate) ? candidate : nil
    }()

    /// Whether the fixtures folder is there.
    static var isAvailable: Bool { root != nil }

    /// The message shown for skipped fixture tests.
    static let missing: Comment =
        "shared/fixtures-real not found next to the repository (or at $SEEDSTORE_FIXTURES_REAL): fixture tests skipped"

    /// The absolute path of a fixture, e.g. `path("csv-spectrum/csvs/simple.csv")`.
    static func path(_ relative: String) -> String {
        (root ?? "/nonexistent") + "/" + relative
    }

    /// The raw bytes of a fixture.
    static func bytes(_ relative: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: path(relative))))
    }
}

/// All records of a string or byte array, fields only.
func parse(
    _ bytes: [UInt8], dialect: CSVDialect = CSVDialect(hasHeader: false), chunkSize: Int = CSVReader.defaultChunkSize
) throws(CSVError) -> [[String]] {
    try CSVReader(bytes: bytes, dialect: dialect, chunkSize: chunkSize).readAll().map(\.fields)
}

func parse(
    _ text: String, dialect: CSVDialect = CSVDialect(hasHeader: false), chunkSize: Int = CSVReader.defaultChunkSize
) throws(CSVError) -> [[String]] {
    try parse(Array(text.utf8), dialect: dialect, chunkSize: chunkSize)
}

/// Records with everything they know, comparable across chunk sizes.
struct Snapshot: Equatable, CustomStringConvertible {
    var fields: [String]
    var line: Int
    var offset: Int64
    var length: Int
    var blank: Bool

    init(_ record: CSVRecord) {
        fields = record.fields
        line = record.lineNumber
        offset = record.byteOffset
        length = record.byteCount
        blank = record.isBlank
    }

    var description: String { "\(line)@\(offset)+\(length)\(blank ? " blank" : ""): \(fields)" }
}

/// Everything a reader produces for the input: snapshots, then the error that stopped it (recoverable
/// errors are recorded and skipped).
func outcome(_ bytes: [UInt8], dialect: CSVDialect, chunkSize: Int) -> [String] {
    var lines: [String] = []
    do {
        let reader = try CSVReader(bytes: bytes, dialect: dialect, chunkSize: chunkSize)
        lines.append("header: \(reader.header.map { "\($0)" } ?? "nil")")
        while true {
            do {
                guard let record = try reader.next() else { break }
                lines.append(Snapshot(record).description)
            } catch  where error.isRecoverable {
                lines.append("skipped: \(error)")
            }
        }
    } catch {
        lines.append("error: \(error)")
    }
    return lines
}

/// Writes fields as RFC 4180 CSV: a field is quoted when it holds the delimiter, a quote, CR or LF, or when
/// it is the only field of its record and empty (so that the record is not a blank line), or when it starts
/// with U+FEFF (which at the start of a file is a byte-order mark).
func writeCSV(
    _ records: [[String]], lineEnding: String = "\n", finalLineEnding: Bool = true, delimiter: Character = ","
)
    -> String
{
    var text = ""
    for (index, record) in records.enumerated() {
        let fields = record.map { field -> String in
            let needsQuotes =
                field.contains(delimiter) || field.unicodeScalars.contains { $0 == "\"" || $0 == "\r" || $0 == "\n" }
                || (record.count == 1 && field.isEmpty) || field.hasPrefix("\u{FEFF}")
            guard needsQuotes else { return field }
            return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }
        text += fields.joined(separator: String(delimiter))
        if index < records.count - 1 || finalLineEnding { text += lineEnding }
    }
    return text
}

/// A generator of one of `values` (PropertyBased's `Gen.element(of:)` yields optionals).
func pick<Value: Sendable>(_ values: [Value]) -> Generator<Value, Shrink.None<Value?>> {
    Gen<Value?>.element(of: values).map { $0! }
}

/// Runs one case of a property, recording an error it throws as an issue. PropertyBased counts only the
/// issues a case records and drops an error thrown out of `propertyCheck`'s body, so a property that
/// fails by throwing would pass.
func recordingErrors(_ body: () throws -> Void) {
    do { try body() } catch { Issue.record(error) }
}

/// Whether `bytes` start as UTF-16 or UTF-32 text without a byte-order mark would (`a\0b\0`, `\0a\0b`,
/// `a\0\0\0`, `\0\0\0a`), which the reader refuses rather than reading NULs: properties over arbitrary
/// bytes leave them out.
func startsLikeUnmarkedWideText(_ bytes: [UInt8]) -> Bool {
    guard bytes.count >= 4 else { return false }
    return (bytes[1] == 0 && bytes[3] == 0 && bytes[0] != 0 && bytes[2] != 0)
        || (bytes[0] == 0 && bytes[2] == 0 && bytes[1] != 0 && bytes[3] != 0)
        || (bytes[0] != 0 && bytes[1] == 0 && bytes[2] == 0 && bytes[3] == 0)
        || (bytes[0] == 0 && bytes[1] == 0 && bytes[2] == 0 && bytes[3] != 0)
}
