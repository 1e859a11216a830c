/// What a key path resolves to during in-memory evaluation: one value, or
/// the values along a to-many path.
///
/// For example, for a department with three employees:
///
/// ```swift
/// let name: PredicateValue = "Sales"                          // .scalar(.string("Sales"))
/// let firstNames: PredicateValue = ["Ben", "Melissa", "Nick"] // .collection([...])
/// let missing: PredicateValue = nil                           // .scalar(.null)
/// ```
public enum PredicateValue: Sendable, Hashable {
    /// The value of an attribute or to-one path (`.null` when absent).
    case scalar(PredicateConstant)
    /// The values of a to-many path, one per related object (for a path
    /// that ends at the relationship, any constant per object, such as its
    /// primary key, so that `@count` counts them).
    case collection([PredicateConstant])

    /// The value as one constant; a collection becomes an array.
    var constant: PredicateConstant {
        switch self {
        case .scalar(let constant): return constant
        case .collection(let elements): return .array(elements)
        }
    }

    /// The values a modifier or collection operator ranges over: a
    /// collection's elements, an array's elements, none for null, or the
    /// one value.
    var elements: [PredicateConstant] {
        switch self {
        case .collection(let elements), .scalar(.array(let elements)): return elements
        case .scalar(.null): return []
        case .scalar(let constant): return [constant]
        }
    }
}

extension PredicateValue: ExpressibleByNilLiteral {
    /// A null scalar, from `nil`.
    public init(nilLiteral: ()) { self = .scalar(.null) }
}

extension PredicateValue: ExpressibleByBooleanLiteral {
    /// A Boolean scalar, from `true` or `false`.
    public init(booleanLiteral value: Bool) { self = .scalar(.bool(value)) }
}

extension PredicateValue: ExpressibleByIntegerLiteral {
    /// A 64-bit integer scalar, from an integer literal.
    public init(integerLiteral value: Int64) { self = .scalar(.int(value)) }
}

extension PredicateValue: ExpressibleByFloatLiteral {
    /// A floating-point scalar, from a floating-point literal.
    public init(floatLiteral value: Double) { self = .scalar(.double(value)) }
}

extension PredicateValue: ExpressibleByStringLiteral {
    /// A string scalar, from a string literal.
    public init(stringLiteral value: String) { self = .scalar(.string(value)) }
}

extension PredicateValue: ExpressibleByArrayLiteral {
    /// A ``collection(_:)``, from an array literal of constants.
    public init(arrayLiteral elements: PredicateConstant...) { self = .collection(elements) }
}
