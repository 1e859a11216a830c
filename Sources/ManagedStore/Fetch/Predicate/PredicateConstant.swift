import Foundation

/// A typed value inside a predicate: a literal of the format string or a
/// `%@` argument.
///
/// Constants are never pasted into SQL text: the SQL compiler binds each one
/// as a statement argument. Literals keep the type they were written with
/// (`1` is an ``int(_:)``, `1.0` a ``double(_:)``, `YES` a ``bool(_:)``), and
/// a literal list whose elements are all constants (`{1, 2}`) becomes an
/// ``array(_:)``, the same value an array argument to `IN %@` gives.
///
/// For example:
///
/// ```swift
/// let constants: [PredicateConstant] = [nil, true, 3, 2.5, "Ringo", [1, 2]]
/// let today = PredicateConstant.date(Date())
/// ```
public enum PredicateConstant: Sendable, Hashable {
    /// `nil` or `NULL`.
    case null
    /// `YES`, `NO`, `TRUE` or `FALSE`.
    case bool(Bool)
    /// An integer literal such as `42`, `-7` or `0x1F`.
    case int(Int64)
    /// A decimal literal such as `2.5` or `1e-3`.
    case double(Double)
    /// A quoted string, `'Ringo'` or `"Ringo"`.
    case string(String)
    /// A date; written `CAST(<seconds since 2001-01-01>, "NSDate")`.
    case date(Date)
    /// Binary data; written `CAST("<base64>", "NSData")`.
    case data(Data)
    /// A UUID; written `CAST("<uuid>", "NSUUID")`.
    case uuid(UUID)
    /// A list of constants, `{1, 2, 3}` or an array argument.
    case array([PredicateConstant])
}

extension PredicateConstant: ExpressibleByNilLiteral {
    /// A null constant, from `nil`.
    public init(nilLiteral: ()) { self = .null }
}

extension PredicateConstant: ExpressibleByBooleanLiteral {
    /// A Boolean constant, from `true` or `false`.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension PredicateConstant: ExpressibleByIntegerLiteral {
    /// A 64-bit integer constant, from an integer literal.
    public init(integerLiteral value: Int64) { self = .int(value) }
}

extension PredicateConstant: ExpressibleByFloatLiteral {
    /// A floating-point constant, from a floating-point literal.
    public init(floatLiteral value: Double) { self = .double(value) }
}

extension PredicateConstant: ExpressibleByStringLiteral {
    /// A string constant, from a string literal.
    public init(stringLiteral value: String) { self = .string(value) }
}

extension PredicateConstant: ExpressibleByArrayLiteral {
    /// An ``array(_:)`` constant, from an array literal of constants.
    public init(arrayLiteral elements: PredicateConstant...) { self = .array(elements) }
}
