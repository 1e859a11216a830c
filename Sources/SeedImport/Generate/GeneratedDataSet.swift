import Foundation

/// One file written by `DataSetGenerator`.
public struct GeneratedFile: Sendable, Equatable {
    /// What the file is for.
    public enum Role: String, Sendable {
        /// CSV data for the importer.
        case csv
        /// The managed object model (`*.model.json`).
        case model
        /// The import mapping (`*.mapping.json`).
        case mapping
    }

    /// What the file is for: data, model or mapping.
    public let role: Role
    /// Where the file was written.
    public let url: URL
    /// Data rows, header excluded; nil for the model and mapping files.
    public let rows: Int?
    /// The header's column names exactly as written (trailing spaces
    /// included); empty for the model and mapping files.
    public let columns: [String]
    /// The file's size in bytes.
    public let bytes: Int

    /// A file's description, as the generator makes it once the file is written.
    ///
    /// ```swift
    /// let file = GeneratedFile(role: .csv, url: URL(fileURLWithPath: "data/wells.csv"), rows: 244_292,
    ///                          columns: ["uwi", "well_name"], bytes: 61_000_000)
    /// ```
    public init(role: Role, url: URL, rows: Int?, columns: [String], bytes: Int) {
        self.role = role
        self.url = url
        self.rows = rows
        self.columns = columns
        self.bytes = bytes
    }

    /// The file's name within the data set's directory.
    public var name: String { url.lastPathComponent }
}

/// What `DataSetGenerator.generate(_:rows:seed:into:)` wrote.
///
/// Files are listed in the order the mapping imports them, then the model
/// and the mapping.
public struct GeneratedDataSet: Sendable, Equatable {
    /// Which data set: wells, banks, books or tasks.
    public let kind: DataSetKind
    /// The row count of the primary CSV file (`DataSetKind.primaryFileName`).
    public let rows: Int
    /// The seed the data came from: the same seed and rows give byte-identical files.
    public let seed: UInt64
    /// The directory the files were written to.
    public let directory: URL
    /// Every file written: the CSV files in import order, then the model and the mapping.
    public let files: [GeneratedFile]

    /// A data set's description, as ``DataSetGenerator`` makes it once every file is written.
    ///
    /// ```swift
    /// let set = try DataSetGenerator.generate(.wells, rows: 1_000, into: URL(fileURLWithPath: "data"))
    /// print(set.kind, set.rows, set.files.map(\.name))   // wells 1000 ["operators.csv", "wells.csv", …]
    /// ```
    public init(kind: DataSetKind, rows: Int, seed: UInt64, directory: URL, files: [GeneratedFile]) {
        self.kind = kind
        self.rows = rows
        self.seed = seed
        self.directory = directory
        self.files = files
    }

    /// The CSV files, in import order.
    public var csvFiles: [GeneratedFile] { files.filter { $0.role == .csv } }

    /// The CSV file the row count counts (`DataSetKind.primaryFileName`).
    public var primaryFile: GeneratedFile { files.first { $0.name == kind.primaryFileName }! }

    /// The model file (`<kind>.model.json`).
    public var modelFile: GeneratedFile { files.first { $0.role == .model }! }

    /// The mapping file (`<kind>.mapping.json`), the one to hand the importer.
    public var mappingFile: GeneratedFile { files.first { $0.role == .mapping }! }

    /// The size of all files together.
    public var totalBytes: Int { files.reduce(0) { $0 + $1.bytes } }
}
