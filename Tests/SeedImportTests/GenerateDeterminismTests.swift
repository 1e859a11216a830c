import Foundation
import SeedImport
import Testing

/// Same seed, same bytes; another seed, other bytes.
@Suite("Generate: determinism")
struct GenerateDeterminismTests {
    /// Small sizes that still exercise every code path.
    static func rows(for kind: DataSetKind) -> Int {
        switch kind {
        case .wells: 2_000
        case .banks: 567
        case .books: 40
        case .tasks: 1_000
        }
    }

    @Test("the same seed writes byte-identical files", arguments: DataSetKind.allCases)
    func sameSeedSameBytes(kind: DataSetKind) throws {
        let first = try GenerateScratch()
        let second = try GenerateScratch()
        defer {
            first.remove()
            second.remove()
        }
        let a = try DataSetGenerator.generate(kind, rows: Self.rows(for: kind), seed: 7, into: first.url)
        let b = try DataSetGenerator.generate(kind, rows: Self.rows(for: kind), seed: 7, into: second.url)
        #expect(a.files.map(\.name) == b.files.map(\.name))
        #expect(a.files.map(\.bytes) == b.files.map(\.bytes))
        for file in a.files {
            #expect(try first.bytes(file.name) == second.bytes(file.name), "\(file.name) differs")
        }
    }

    @Test("another seed writes other data", arguments: DataSetKind.allCases)
    func differentSeedDifferentBytes(kind: DataSetKind) throws {
        let first = try GenerateScratch()
        let second = try GenerateScratch()
        defer {
            first.remove()
            second.remove()
        }
        let rows = kind == .books ? kind.defaultRows : Self.rows(for: kind)
        _ = try DataSetGenerator.generate(kind, rows: rows, seed: 42, into: first.url)
        _ = try DataSetGenerator.generate(kind, rows: rows, seed: 43, into: second.url)
        #expect(try first.bytes(kind.primaryFileName) != second.bytes(kind.primaryFileName))
        // The model does not depend on the seed.
        #expect(try first.bytes("\(kind.rawValue).model.json") == second.bytes("\(kind.rawValue).model.json"))
    }

    @Test("the report matches the files on disk", arguments: DataSetKind.allCases)
    func reportMatchesDisk(kind: DataSetKind) throws {
        let scratch = try GenerateScratch()
        defer { scratch.remove() }
        let dataSet = try DataSetGenerator.generate(kind, rows: Self.rows(for: kind), into: scratch.url)
        #expect(dataSet.kind == kind)
        #expect(dataSet.seed == 42)
        #expect(dataSet.rows == Self.rows(for: kind))
        #expect(dataSet.primaryFile.name == kind.primaryFileName)
        #expect(dataSet.primaryFile.rows == Self.rows(for: kind))
        #expect(dataSet.modelFile.name == "\(kind.rawValue).model.json")
        #expect(dataSet.mappingFile.name == "\(kind.rawValue).mapping.json")
        for file in dataSet.files {
            let bytes = try scratch.bytes(file.name)
            #expect(bytes.count == file.bytes, "\(file.name)")
            if file.role == .csv {
                let records = GenerateCSV.parse(bytes)
                #expect(records.count - 1 == file.rows, "\(file.name)")
                #expect(records.first?.map { String(decoding: $0, as: UTF8.self) } == file.columns)
                #expect(records.allSatisfy { $0.count == file.columns.count }, "\(file.name) is ragged")
            }
        }
    }

    @Test("generating again into the same directory replaces the files")
    func regenerate() throws {
        let scratch = try GenerateScratch()
        let fresh = try GenerateScratch()
        defer {
            scratch.remove()
            fresh.remove()
        }
        _ = try DataSetGenerator.generate(.wells, rows: 300, seed: 1, into: scratch.url)
        let second = try DataSetGenerator.generate(.wells, rows: 20, seed: 2, into: scratch.url)
        _ = try DataSetGenerator.generate(.wells, rows: 20, seed: 2, into: fresh.url)
        for file in second.files {
            #expect(try scratch.bytes(file.name) == fresh.bytes(file.name), "\(file.name)")
        }
    }

    @Test("a missing output directory is created")
    func createsDirectory() throws {
        let scratch = try GenerateScratch()
        defer { scratch.remove() }
        let nested = scratch.url.appendingPathComponent("a/b", isDirectory: true)
        let dataSet = try DataSetGenerator.generate(.tasks, rows: 3, into: nested)
        #expect(FileManager.default.fileExists(atPath: dataSet.mappingFile.url.path))
    }

    @Test("one row is enough", arguments: DataSetKind.allCases)
    func singleRow(kind: DataSetKind) throws {
        let scratch = try GenerateScratch()
        defer { scratch.remove() }
        let dataSet = try DataSetGenerator.generate(kind, rows: 1, into: scratch.url)
        #expect(dataSet.primaryFile.rows == 1)
        #expect(GenerateCSV.parse(try scratch.bytes(kind.primaryFileName)).count == 2)
    }

    @Test("row counts outside the supported range are refused")
    func rowCountValidation() throws {
        let scratch = try GenerateScratch()
        defer { scratch.remove() }
        #expect(throws: DataSetGeneratorError.rowCountOutOfRange(.books, rows: 0, allowed: 1...1_000_000)) {
            try DataSetGenerator.generate(.books, rows: 0, into: scratch.url)
        }
        #expect(throws: DataSetGeneratorError.self) {
            try DataSetGenerator.generate(.banks, rows: 50_001, into: scratch.url)
        }
    }

    /// About 2 s in a debug build: cheap enough to run every time.
    @Test("the default wells size")
    func defaultWellsSize() throws {
        let scratch = try GenerateScratch()
        defer { scratch.remove() }
        let dataSet = try DataSetGenerator.generate(.wells, into: scratch.url)
        #expect(dataSet.csvFiles.map(\.rows) == [2_002, 244_292])
    }
}
