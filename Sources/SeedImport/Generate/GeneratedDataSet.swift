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
    public let kind: DataSetKind
    /// The row count of the primary CSV file (`DataSetKind.primaryFileName`).
    public let rows: Int
    public let seed: UInt64
    public let directory: URL
    public let files: [GeneratedFile]

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
