import Foundation

/// An argument for a format specifier (`%@`, `%K`, `%d`, `%f`, `%s`) or a
/// `$VARIABLE` of a ``FetchPredicate``.
///
/// Literals convert on their own, so arguments read as they would with
/// `NSPredicate`; other values use the static helpers. A ``keyPath(_:)``
/// argument, or any string given for `%K`, becomes a key path; everything
/// else becomes a typed ``PredicateConstant`` that is bound, never spliced
/// into SQL.
///
/// For example:
///
/// ```swift
/// let byPriority = try FetchPredicate(format: "priority == %@", 3)
/// let byName = try FetchPredicate(format: "%K == %@", "name", "Ringo")
/// let recent = try FetchPredicate(format: "due > %@", .date(Date()))
/// let chosen = try FetchPredicate(format: "id IN %@", .array([1, 2, 3]))
/// ```
public enum PredicateArgument: Sendable, Hashable {
    /// A value: bound as a constant.
    case value(PredicateConstant)
    /// A key path such as `"department.name"`: its dots separate components.
    case keyPath(String)
}

extension PredicateArgument {
    /// A null argument.
    public static var null: PredicateArgument { .value(.null) }

    /// A Boolean argument.
    public static func bool(_ value: Bool) -> PredicateArgument { .value(.bool(value)) }

    /// An integer argument.
    public static func int(_ value: Int) -> PredicateArgument { .value(.int(Int64(value))) }

    /// A 64-bit integer argument.
    public static func int(_ value: Int64) -> PredicateArgument { .value(.int(value)) }

    /// A floating-point argument.
    public static func double(_ value: Double) -> PredicateArgument { .value(.double(value)) }

    /// A string argument (a value, even for a string that looks like a key).
    public static func string(_ value: String) -> PredicateArgument { .value(.string(value)) }

    /// A date argument.
    public static func date(_ value: Date) -> PredicateArgument { .value(.date(value)) }

    /// A binary data argument.
    public static func data(_ value: Data) -> PredicateArgument { .value(.data(value)) }

    /// A UUID argument.
    public static func uuid(_ value: UUID) -> PredicateArgument { .value(.uuid(value)) }

    /// An array argument, for `IN %@` and `BETWEEN %@`.
    public static func array(_ values: [PredicateConstant]) -> PredicateArgument { .value(.array(values)) }
}

extension PredicateArgument: ExpressibleByNilLiteral {
    /// A null argument, from `nil`.
    public init(nilLiteral: ()) { self = .value(.null) }
}

extension PredicateArgument: ExpressibleByBooleanLiteral {
    /// A Boolean argument, from `true` or `false`.
    public init(booleanLiteral value: Bool) { self = .value(.bool(value)) }
}

extension PredicateArgument: ExpressibleByIntegerLiteral {
    /// A 64-bit integer argument, from an integer literal.
    public init(integerLiteral value: Int64) { self = .value(.int(value)) }
}

extension PredicateArgument: ExpressibleByFloatLiteral {
    /// A floating-point argument, from a floating-point literal.
    public init(floatLiteral value: Double) { self = .value(.double(value)) }
}

extension PredicateArgument: ExpressibleByStringLiteral {
    /// A string argument, from a string literal.
    public init(stringLiteral value: String) { self = .value(.string(value)) }
}

extension PredicateArgument: ExpressibleByArrayLiteral {
    /// An array argument, from an array literal of constants, for `IN %@` and `BETWEEN %@`.
    public init(arrayLiteral elements: PredicateConstant...) { self = .value(.array(elements)) }
}
