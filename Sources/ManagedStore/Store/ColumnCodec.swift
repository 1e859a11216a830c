import CSQLite
import Foundation

/// How a column's SQLite value becomes a ``Value`` and back: decided once per column, used per row.
enum ColumnCodec: Sendable, Hashable {
    case integer, boolean, real, decimal, text, date, blob, uuid, uri
    case object(entityID: Int32)

    init(_ column: Column, entity: Entity) {
        if let attribute = column.attribute {
            switch attribute.type {
            case .integer16, .integer32, .integer64: self = .integer
            case .boolean: self = .boolean
            case .double, .float: self = .real
            case .decimal: self = .decimal
            case .string: self = .text
            case .date: self = .date
            case .binary, .transformable: self = .blob
            case .uuid: self = .uuid
            case .uri: self = .uri
            }
        } else {
            self = .object(entityID: entity.destinationID(of: column.name)!)
        }
    }

    /// Reads column `index` of the statement's current row.
    @inline(__always)
    func read(_ statement: Statement, _ index: Int32) -> Value {
        let type = statement.storageClass(at: index)
        if type == SQLITE_NULL { return .null }
        switch self {
        case .integer: return .integer(statement.int64(at: index))
        case .boolean: return .bool(statement.int64(at: index) != 0)
        case .real: return .double(statement.double(at: index))
        case .text: return .string(statement.text(at: index))
        case .date: return .date(Date(timeIntervalSinceReferenceDate: statement.double(at: index)))
        case .decimal:
            if type == SQLITE_TEXT, let decimal = Decimal(string: statement.text(at: index)) { return .decimal(decimal) }
            // DECIMAL has NUMERIC affinity: SQLite holds a whole number that fits 64 bits as INTEGER,
            // exactly, beyond Double's 53 bits (9007199254740993), so read it as an integer.
            if type == SQLITE_INTEGER { return .decimal(Decimal(statement.int64(at: index))) }
            // Other numbers it holds as REAL (about 15 significant digits, as in Core Data's stores): go
            // through the Double's shortest round-trip text, not its binary expansion.
            let real = statement.double(at: index)
            return .decimal(Decimal(string: "\(real)") ?? Decimal(real))
        case .blob: return .data(Data(statement.blob(at: index)))
        case .uuid:
            if type == SQLITE_TEXT { return UUID(uuidString: statement.text(at: index)).map(Value.uuid) ?? .null }
            let bytes = statement.blob(at: index)
            guard bytes.count == 16 else { return .null }
            return .uuid(UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                                     bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15])))
        case .uri: return URL(string: statement.text(at: index)).map(Value.uri) ?? .null
        case .object(let entityID): return .object(ObjectID(entityID: entityID, primaryKey: statement.int64(at: index)))
        }
    }
}

extension Statement {
    /// Binds a ``Value`` as Core Data's layout stores it (dates as seconds since 2001, booleans 0/1).
    @inline(__always)
    func bind(value: Value, at index: Int32) {
        switch value {
        case .null: bindNull(at: index)
        case .integer(let v): bind(v, at: index)
        case .double(let v): bind(v, at: index)
        case .string(let v): bind(v, at: index)
        case .bool(let v): bind(Int64(v ? 1 : 0), at: index)
        case .date(let v): bind(v.timeIntervalSinceReferenceDate, at: index)
        case .decimal(let v): bind("\(v)", at: index)
        case .data(let v): try? bind(.blob(Array(v)), at: index)
        case .uuid(let v): try? bind(.blob(withUnsafeBytes(of: v.uuid) { Array($0) }), at: index)
        case .uri(let v): bind(v.absoluteString, at: index)
        case .object(let id): bind(id.primaryKey, at: index)
        }
    }
}

extension Statement {
    /// Reads column `index` of the current row as `entity`'s `column` holds it (for SeedImport's own
    /// temporary files, which keep values as the store does).
    package func value(at index: Int32, as column: Column, of entity: Entity) -> Value {
        ColumnCodec(column, entity: entity).read(self, index)
    }

    /// Binds `value` as the store keeps it (see ``value(at:as:of:)``).
    package func bindStored(_ value: Value, at index: Int32) { bind(value: value, at: index) }
}

extension Value {
    /// The value as Core Data's layout stores it, for binding into a predicate or a raw query.
    public var sqlValue: SQLValue {
        switch self {
        case .null: .null
        case .integer(let v): .integer(v)
        case .double(let v): .real(v)
        case .string(let v): .text(v)
        case .bool(let v): .integer(v ? 1 : 0)
        case .date(let v): .real(v.timeIntervalSinceReferenceDate)
        case .decimal(let v): .text("\(v)")
        case .data(let v): .blob(Array(v))
        case .uuid(let v): .blob(withUnsafeBytes(of: v.uuid) { Array($0) })
        case .uri(let v): .text(v.absoluteString)
        case .object(let id): .integer(id.primaryKey)
        }
    }
}
