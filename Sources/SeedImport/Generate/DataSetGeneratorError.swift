import Foundation

/// Why a data set could not be generated.
public enum DataSetGeneratorError: Error, Equatable, CustomStringConvertible {
    /// The row count is outside what the data set supports.
    case rowCountOutOfRange(DataSetKind, rows: Int, allowed: ClosedRange<Int>)
    /// The output directory does not exist and could not be created.
    case cannotCreateDirectory(URL, reason: String)
    /// A file could not be created or written.
    case cannotWrite(URL, reason: String)

    public var description: String {
        switch self {
        case .rowCountOutOfRange(let kind, let rows, let allowed):
            "\(kind.rawValue): \(rows) rows is out of range; "
                + "use \(allowed.lowerBound) to \(allowed.upperBound)"
        case .cannotCreateDirectory(let url, let reason):
            "cannot create directory \(url.path): \(reason)"
        case .cannotWrite(let url, let reason):
            "cannot write \(url.path): \(reason)"
        }
    }
}
