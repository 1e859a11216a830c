import Foundation

/// Writes deterministic, realistic CSV data sets together with the model
/// and mapping files that import them.
///
/// For example:
///
///     let dataSet = try DataSetGenerator.generate(
///         .wells, rows: 2_000, seed: 42, into: URL(filePath: "/tmp/wells"))
///     // operators.csv, wells.csv, wells.model.json, wells.mapping.json
///     print(dataSet.mappingFile.url.path)
///
/// The same kind, row count and seed always give byte-identical files: all
/// randomness comes from a seeded xoshiro256** generator, and numbers and
/// dates are formatted without locale, time zone or clock. CSV is written
/// through a 1 MiB buffer, so memory stays flat at any size.
public struct DataSetGenerator {
    /// Writes one data set into `directory`, creating it if needed and
    /// replacing files of the same names.
    ///
    /// - Parameters:
    ///   - kind: Which data set.
    ///   - rows: Data rows of the primary CSV file; nil for
    ///     `kind.defaultRows`. Must be in `1...kind.maximumRows`.
    ///   - seed: The seed; the same seed gives the same bytes.
    ///   - directory: Where to write; the mapping refers to files relative to
    ///     itself, so the directory can be moved as a whole.
    /// - Returns: The files written, with row counts and sizes.
    /// - Throws: `DataSetGeneratorError`.
    public static func generate(
        _ kind: DataSetKind, rows: Int? = nil, seed: UInt64 = 42, into directory: URL
    ) throws -> GeneratedDataSet {
        let rows = rows ?? kind.defaultRows
        let allowed = 1...kind.maximumRows
        guard allowed.contains(rows) else {
            throw DataSetGeneratorError.rowCountOutOfRange(kind, rows: rows, allowed: allowed)
        }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw DataSetGeneratorError.cannotCreateDirectory(directory, reason: error.localizedDescription)
        }
        let files: [GeneratedFile]
        switch kind {
        case .wells:
            files = try _WellsDataSet(rows: rows, seed: seed, directory: directory).write()
        case .banks:
            files = try _BanksDataSet(rows: rows, seed: seed, directory: directory).write()
        case .books:
            files = try _BooksDataSet(rows: rows, seed: seed, directory: directory).write()
        case .tasks:
            files = try _TasksDataSet(rows: rows, seed: seed, directory: directory).write()
        }
        return GeneratedDataSet(kind: kind, rows: rows, seed: seed, directory: directory, files: files)
    }
}

extension DataSetGenerator {
    /// Writes a model or mapping document.
    static func writeJSON(
        _ document: _OrderedJSON, role: GeneratedFile.Role, named name: String, in directory: URL
    ) throws -> GeneratedFile {
        let url = directory.appendingPathComponent(name)
        let bytes = Data(document.rendered().utf8)
        do {
            try bytes.write(to: url)
        } catch {
            throw DataSetGeneratorError.cannotWrite(url, reason: error.localizedDescription)
        }
        return GeneratedFile(role: role, url: url, rows: nil, columns: [], bytes: bytes.count)
    }

    /// The `defaults` block every generated mapping starts from.
    static let mappingDefaults: _OrderedJSON = [
        "delimiter": ",", "encoding": "utf-8", "header": true, "nullTokens": [""], "trim": true,
    ]
}
