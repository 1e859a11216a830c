import Foundation

/// A Swift value that can stand for a format specifier of a ``FetchPredicate``: integers (`UInt` and
/// `UInt64` aside, which may not fit), floating-point numbers, decimals, strings, Booleans, dates, data,
/// UUIDs, optionals, arrays and sets of them, and ``PredicateArgument`` itself. It lets variables go in
/// as they are. An argument written as an implicit member (`.keyPath("name")`, `.date(d)`) next to
/// variables names its type: `PredicateArgument.keyPath("name")`.
///
/// For example:
///
/// ```swift
/// let name = "Ringo", minimum = 3
/// let p = try FetchPredicate(format: "name == %@ AND priority >= %@", name, minimum)
/// ```
public protocol PredicateArgumentConvertible {
    /// The argument this value stands for: a bound constant.
    var predicateArgument: PredicateArgument { get }
}

extension PredicateArgument: PredicateArgumentConvertible {
    /// Itself.
    public var predicateArgument: PredicateArgument { self }
}

extension PredicateConstant: PredicateArgumentConvertible {
    /// The constant as a value argument.
    public var predicateArgument: PredicateArgument { .value(self) }
}

extension PredicateArgumentConvertible where Self: BinaryInteger {
    /// An integer argument (the conforming integer types all fit in 64 signed bits).
    public var predicateArgument: PredicateArgument { .value(.int(Int64(self))) }
}

extension PredicateArgumentConvertible where Self: BinaryFloatingPoint {
    /// A floating-point argument (a `Float` widened to `Double`).
    public var predicateArgument: PredicateArgument { .value(.double(Double(self))) }
}

extension Int: PredicateArgumentConvertible {}
extension Int64: PredicateArgumentConvertible {}
extension Int32: PredicateArgumentConvertible {}
extension Int16: PredicateArgumentConvertible {}
extension Int8: PredicateArgumentConvertible {}
extension UInt32: PredicateArgumentConvertible {}
extension UInt16: PredicateArgumentConvertible {}
extension UInt8: PredicateArgumentConvertible {}
extension Double: PredicateArgumentConvertible {}
extension Float: PredicateArgumentConvertible {}

extension Bool: PredicateArgumentConvertible {
    /// A Boolean argument.
    public var predicateArgument: PredicateArgument { .value(.bool(self)) }
}

extension Decimal: PredicateArgumentConvertible {
    /// A number argument: compared as a `Double`, as SQLite compares a Decimal attribute's column
    /// (numeric affinity, about 15 significant digits).
    public var predicateArgument: PredicateArgument { .value(.double(NSDecimalNumber(decimal: self).doubleValue)) }
}

extension String: PredicateArgumentConvertible {
    /// A string argument (for `%K`, the key path it names).
    public var predicateArgument: PredicateArgument { .value(.string(self)) }
}

extension Substring: PredicateArgumentConvertible {
    /// A string argument.
    public var predicateArgument: PredicateArgument { .value(.string(String(self))) }
}

extension Date: PredicateArgumentConvertible {
    /// A date argument.
    public var predicateArgument: PredicateArgument { .value(.date(self)) }
}

extension Data: PredicateArgumentConvertible {
    /// A binary data argument.
    public var predicateArgument: PredicateArgument { .value(.data(self)) }
}

extension UUID: PredicateArgumentConvertible {
    /// A UUID argument.
    public var predicateArgument: PredicateArgument { .value(.uuid(self)) }
}

extension Optional: PredicateArgumentConvertible where Wrapped: PredicateArgumentConvertible {
    /// The wrapped value's argument, or null.
    public var predicateArgument: PredicateArgument { self?.predicateArgument ?? .null }
}

extension Set: PredicateArgumentConvertible where Element: PredicateArgumentConvertible {
    /// An array argument of the members, for `IN %@`.
    public var predicateArgument: PredicateArgument { Array(self).predicateArgument }
}

extension Array: PredicateArgumentConvertible where Element: PredicateArgumentConvertible {
    /// An array argument, for `IN %@` and `BETWEEN %@` (a key path among the elements counts as its
    /// name, a string).
    public var predicateArgument: PredicateArgument {
        .value(.array(map { element in
            switch element.predicateArgument {
            case .value(let constant): constant
            case .keyPath(let path): .string(path)
            }
        }))
    }
}
