import Foundation
import SeedImport

/// A temporary directory for one generated data set, removed on `remove()`.
struct GenerateScratch {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("seedstore-generate-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }

    func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: url.appendingPathComponent(name)))
    }

    /// The records of a CSV file, header first, each field as text decoded
    /// as UTF-8 (invalid bytes become U+FFFD).
    func records(_ name: String) throws -> [[String]] {
        GenerateCSV.parse(try bytes(name)).map { $0.map { String(decoding: $0, as: UTF8.self) } }
    }

    /// A CSV file's rows as dictionaries keyed by header name.
    func rows(_ name: String) throws -> [[String: String]] {
        let records = try records(name)
        guard let header = records.first else { return [] }
        return records.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(header, $0)) }
    }

    func json(_ name: String) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(try bytes(name)))
        return object as? [String: Any] ?? [:]
    }
}

/// A deliberately tiny RFC 4180 reader for checking generated files: comma
/// delimiter, double-quote quoting with doubled inner quotes, records ended
/// by LF or CRLF (kept verbatim inside quotes), and an optional final line
/// ending. It is independent of the CSVStream module on purpose.
enum GenerateCSV {
    static func parse(_ bytes: [UInt8]) -> [[[UInt8]]] {
        let quote: UInt8 = 0x22
        let comma: UInt8 = 0x2C
        let cr: UInt8 = 0x0D
        let lf: UInt8 = 0x0A
        var records: [[[UInt8]]] = []
        var record: [[UInt8]] = []
        var field: [UInt8] = []
        var inQuotes = false
        var index = 0
        func endRecord() {
            record.append(field)
            records.append(record)
            record = []
            field = []
        }
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if inQuotes {
                if byte == quote {
                    if index < bytes.count, bytes[index] == quote {
                        field.append(quote)
                        index += 1
                    } else {
                        inQuotes = false
                    }
                } else {
                    field.append(byte)
                }
                continue
            }
            switch byte {
            case quote:
                inQuotes = true
            case comma:
                record.append(field)
                field = []
            case cr:
                if index < bytes.count, bytes[index] == lf { index += 1 }
                endRecord()
            case lf:
                endRecord()
            default:
                field.append(byte)
            }
        }
        if !field.isEmpty || !record.isEmpty { endRecord() }
        return records
    }
}
