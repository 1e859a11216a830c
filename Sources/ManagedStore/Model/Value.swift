import Foundation

/// An attribute's value, or a to-one relationship's destination.
///
/// Objects keep their values as a flat array of `Value`, indexed by the property's ordinal.
///
/// For example:
///
/// ```swift
/// task["priority"] = .integer(1)
/// if case .string(let text) = task["task_description"] { print(text) }
/// ```
public enum Value: Sendable, Hashable, CustomStringConvertible {
    case null
    case integer(Int64)
    case double(Double)
    case decimal(Decimal)
    case string(String)
    case bool(Bool)
    case date(Date)
    case data(Data)
    case uuid(UUID)
    case uri(URL)
    /// A to-one relationship's destination.
    case object(ObjectID)

    /// Whether the value is `.null`.
    @inlinable public var isNull: Bool { if case .null = self { return true }; return false }

    public var description: String {
        switch self {
        case .null: "nil"
        case .integer(let v): String(v)
        case .double(let v): String(v)
        case .decimal(let v): "\(v)"
        case .string(let v): v
        case .bool(let v): v ? "YES" : "NO"
        case .date(let v): ISO8601.string(from: v)
        case .data(let v): "<\(v.count) bytes>"
        case .uuid(let v): v.uuidString
        case .uri(let v): v.absoluteString
        case .object(let id): id.description
        }
    }

    /// A short name for the kind of value, for error messages.
    public var kindName: String {
        switch self {
        case .null: "nil"
        case .integer: "integer"
        case .double: "double"
        case .decimal: "decimal"
        case .string: "string"
        case .bool: "boolean"
        case .date: "date"
        case .data: "binary data"
        case .uuid: "UUID"
        case .uri: "URI"
        case .object: "object"
        }
    }

    /// ``kindName`` with its article, for messages ("an integer", "a string", "a UUID").
    var kindNameWithArticle: String {
        let name = kindName
        return (name.first.map { "aeio".contains($0) } == true ? "an " : "a ") + name
    }

    /// The value as a plain Swift value (`Int64`, `Double`, `String`, `Date`, …), `nil` for `.null`.
    public var anyValue: Any? {
        switch self {
        case .null: nil
        case .integer(let v): v
        case .double(let v): v
        case .decimal(let v): v
        case .string(let v): v
        case .bool(let v): v
        case .date(let v): v
        case .data(let v): v
        case .uuid(let v): v
        case .uri(let v): v
        case .object(let v): v
        }
    }

    /// Whether the value can be stored in an attribute of `type` (`.null` fits every type).
    ///
    /// A number must be within the type's range; NaN fits no type, since SQLite stores NaN as NULL;
    /// a Boolean takes `.bool`, or the integers 0 and 1 (what SQLite holds), and no other integer.
    ///
    /// For example:
    ///
    /// ```swift
    /// Value.integer(70_000).fits(.integer16)   // false
    /// Value.double(.nan).fits(.double)         // false
    /// Value.integer(1).fits(.boolean)          // true; .integer(5) does not
    /// ```
    public func fits(_ type: AttributeType) -> Bool {
        switch (self, type) {
        case (.null, _): true
        case (.double(let v), _) where v.isNaN: false
        case (.integer(let v), .integer16), (.integer(let v), .integer32), (.integer(let v), .integer64):
            type.integerRange!.contains(v)
        case (.double(let v), .float):
            // Infinity is a Float value too; a finite number that rounds beyond Float's largest is not.
            !v.isFinite || Float(v).isFinite
        case (.integer, .double), (.integer, .float), (.integer, .decimal), (.double, .double),
             (.double, .decimal), (.decimal, .decimal), (.decimal, .double):
            true
        case (.bool, .boolean): true
        case (.integer(let v), .boolean): v == 0 || v == 1
        case (.string, .string), (.date, .date), (.data, .binary), (.data, .transformable),
             (.uuid, .uuid), (.uri, .uri):
            true
        default: false
        }
    }
}

extension Value {
    /// The value as an attribute of `type` holds it: a number in a Float attribute rounded to 32 bits,
    /// which is what Core Data writes; any other value, and a number beyond Float's range (which
    /// ``fits(_:)`` rejects), as it is.
    ///
    /// Contexts apply this as values are set or inserted, so a Float attribute reads back what an app
    /// reading it as `Float` sees; the seed importer applies it as it converts.
    ///
    /// For example:
    ///
    /// ```swift
    /// Value.double(16_777_217).stored(as: .float)   // .double(16_777_216)
    /// Value.double(1e-50).stored(as: .float)        // .double(0)
    /// ```
    @inline(__always)
    public func stored(as type: AttributeType) -> Value {
        guard type == .float else { return self }
        switch self {
        case .double(let v) where fits(.float): return .double(Double(Float(v)))
        case .integer(let v): return .double(Double(Float(v)))
        default: return self
        }
    }
}

extension Value {
    /// The whole number `number` is, when it is one within 64 bits; otherwise nil.
    ///
    /// For example:
    ///
    /// ```swift
    /// Value.wholeInteger(Decimal(string: "42.0")!)   // 42
    /// Value.wholeInteger(Decimal(string: "4.2")!)    // nil
    /// ```
    public static func wholeInteger(_ number: Decimal) -> Int64? {
        guard number >= Decimal(Int64.min), number <= Decimal(Int64.max) else { return nil }
        var value = number, whole = Decimal()
        NSDecimalRound(&whole, &value, 0, .plain)
        guard whole == number else { return nil }
        // Through its digits: Foundation's integer conversions may pass through a Double.
        return Int64(whole.description)
    }

    /// Whether a Decimal reads back from the store as it is. SQLite keeps a whole number within 64 bits
    /// as an INTEGER and any other as a double, as Core Data's stores do: about 15 significant digits.
    ///
    /// For example:
    ///
    /// ```swift
    /// Value.storesExactly(Decimal(string: "0.1")!)                   // true
    /// Value.storesExactly(Decimal(string: "0.12345678901234567")!)   // false: 0.12345678901234566 is stored
    /// ```
    public static func storesExactly(_ decimal: Decimal) -> Bool {
        if wholeInteger(decimal) != nil { return true }
        guard let double = Double(decimal.description) else { return false }
        return Decimal(string: "\(double)", locale: Locale(identifier: "en_US_POSIX")) == decimal
    }
}
