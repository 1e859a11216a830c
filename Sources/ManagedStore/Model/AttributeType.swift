/// The type of an attribute: Core Data's attribute types.
///
/// Raw values are the names Xcode writes in a `.xcdatamodel` (`Integer 32`); JSON model files
/// accept those and the short forms of ``init(name:)`` (`int32`, `string`, `bool`, …).
///
/// For example:
///
/// ```swift
/// Attribute("priority", .integer32, optional: false, defaultValue: .integer(5))
/// ```
public enum AttributeType: String, Sendable, Hashable, CaseIterable, Codable {
    case integer16 = "Integer 16"
    case integer32 = "Integer 32"
    case integer64 = "Integer 64"
    case decimal = "Decimal"
    case double = "Double"
    case float = "Float"
    case string = "String"
    case boolean = "Boolean"
    case date = "Date"
    case binary = "Binary"
    case transformable = "Transformable"
    case uri = "URI"
    case uuid = "UUID"

    /// Reads a type name as Xcode writes it or in a short form; `nil` for an unknown name.
    public init?(name: String) {
        if let exact = AttributeType(rawValue: name) { self = exact; return }
        let folded = name.lowercased().filter { $0.isLetter || $0.isNumber }
        switch folded {
        case "integer16", "int16", "short": self = .integer16
        case "integer32", "int32", "int", "integer": self = .integer32
        case "integer64", "int64", "long": self = .integer64
        case "decimal": self = .decimal
        case "double", "real": self = .double
        case "float": self = .float
        case "string", "text": self = .string
        case "boolean", "bool": self = .boolean
        case "date", "datetime", "timestamp": self = .date
        case "binary", "binarydata", "data", "blob": self = .binary
        case "transformable": self = .transformable
        case "uri", "url": self = .uri
        case "uuid": self = .uuid
        default: return nil
        }
    }

    /// The column type Core Data declares for this attribute type in its SQLite stores.
    public var sqlType: String {
        switch self {
        case .integer16, .integer32, .integer64, .boolean: "INTEGER"
        case .decimal: "DECIMAL"
        case .double, .float: "FLOAT"
        case .string, .uri: "VARCHAR"
        case .date: "TIMESTAMP"
        case .binary, .transformable, .uuid: "BLOB"
        }
    }

    /// Whether the type is one of the integer types.
    public var isInteger: Bool { self == .integer16 || self == .integer32 || self == .integer64 }

    /// Whether values of the type are numbers (integers, decimals, floating point, booleans).
    public var isNumeric: Bool { isInteger || self == .decimal || self == .double || self == .float || self == .boolean }

    /// The inclusive range an integer type holds.
    public var integerRange: ClosedRange<Int64>? {
        switch self {
        case .integer16: Int64(Int16.min)...Int64(Int16.max)
        case .integer32: Int64(Int32.min)...Int64(Int32.max)
        case .integer64: Int64.min...Int64.max
        default: nil
        }
    }
}
