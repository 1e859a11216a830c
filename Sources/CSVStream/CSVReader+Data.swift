#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension CSVReader {
    /// Reads CSV from `Data` in memory (chunked like a file).
    ///
    /// For example:
    ///
    /// ```swift
    /// let reader = try CSVReader(data: Data("a,b\n1,2\n".utf8))
    /// ```
    public convenience init(data: Data, dialect: CSVDialect = .csv, chunkSize: Int = CSVReader.defaultChunkSize)
        throws(CSVError)
    {
        try self.init(bytes: [UInt8](data), dialect: dialect, chunkSize: chunkSize)
    }
}
