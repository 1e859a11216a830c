/// A compiled boolean SQL expression.
///
/// In-memory evaluation has two truth values; SQL has three. A comparison with a NULL column
/// (`t0.ZPRIORITY = ?1`) is NULL, which WHERE and AND/OR treat as false, so NULL only needs care
/// under NOT: ``negated`` turns a nullable condition into `NOT coalesce(c, 0)`, making NULL count
/// as false there too. (For AND and OR, Kleene logic with NULL read as false at the end gives the
/// same answer as reading each NULL as false at once.)
struct SQLCondition {
    enum Shape { case atom, and, or }

    var sql: String
    /// Whether the expression may be NULL.
    var isNullable: Bool
    var shape: Shape = .atom
    /// Whether the text holds placeholders: such text must not be dropped, or its values would
    /// be bound to nothing.
    var hasPlaceholders: Bool

    init(_ sql: String, nullable: Bool, placeholders: Bool, shape: Shape = .atom) {
        self.sql = sql
        self.isNullable = nullable
        self.hasPlaceholders = placeholders
        self.shape = shape
    }

    static let `true` = SQLCondition("1", nullable: false, placeholders: false)
    static let `false` = SQLCondition("0", nullable: false, placeholders: false)

    var isTrue: Bool { sql == "1" }
    var isFalse: Bool { sql == "0" }

    /// The text, parenthesized unless it is one term.
    var parenthesized: String { shape == .atom ? sql : "(\(sql))" }

    /// `NOT c`, with NULL counted as false.
    var negated: SQLCondition {
        if isTrue { return .false }
        if isFalse { return .true }
        let operand = isNullable ? "coalesce(\(sql), 0)" : "(\(sql))"
        return SQLCondition("NOT " + operand, nullable: false, placeholders: hasPlaceholders)
    }

    /// All of `operands`; `1` when there are none.
    static func and(_ operands: [SQLCondition]) -> SQLCondition {
        combine(operands, word: "AND", shape: .and, neutral: .true, absorbing: .false)
    }

    /// Any of `operands`; `0` when there are none.
    static func or(_ operands: [SQLCondition]) -> SQLCondition {
        combine(operands, word: "OR", shape: .or, neutral: .false, absorbing: .true)
    }

    private static func combine(
        _ operands: [SQLCondition], word: String, shape: Shape, neutral: SQLCondition, absorbing: SQLCondition
    ) -> SQLCondition {
        let kept = operands.filter { $0.sql != neutral.sql }
        if kept.contains(where: { $0.sql == absorbing.sql }) && !kept.contains(where: \.hasPlaceholders) {
            return absorbing
        }
        switch kept.count {
        case 0: return neutral
        case 1: return kept[0]
        default:
            let sql = kept.map { $0.shape == shape || $0.shape == .atom ? $0.sql : "(\($0.sql))" }.joined(separator: " \(word) ")
            return SQLCondition(sql, nullable: kept.contains(where: \.isNullable),
                                placeholders: kept.contains(where: \.hasPlaceholders), shape: shape)
        }
    }
}

/// An operand of a comparison, compiled.
enum SQLOperand {
    /// A constant: bound as a parameter where it is used (nil, arrays and NaN included).
    case constant(PredicateConstant)
    /// A column, primary key or scalar subquery, with what it holds.
    case value(sql: String, kind: SQLKind, isNullable: Bool)
    /// A list `{a, b}` with at least one element that is not a constant.
    case list([SQLOperand])

    init(_ end: SQLKeyPathEnd) {
        self = .value(sql: end.sql, kind: end.kind, isNullable: end.isNullable)
    }
}

/// What names mean while compiling: the evaluated object, and the variables SUBQUERYs bind.
struct SQLContext {
    /// A SUBQUERY variable: the element it stands for.
    struct Variable {
        /// The element's object (or the object whose column it is).
        var place: SQLPlace
        var end: SQLKeyPathEnd
    }

    /// The evaluated object (`SELF`, and where bare key paths start).
    var place: SQLPlace
    var variables: [String: Variable] = [:]
}

extension FetchExpression {
    /// Whether the expression involves no object: constants (`now()` too), lists and collection
    /// operators of them.
    var isConstantOnly: Bool {
        switch self {
        case .constant, .now: true
        case .aggregate(let elements): elements.allSatisfy(\.isConstantOnly)
        case .collectionOperator(_, let base, _): base.isConstantOnly
        case .evaluatedObject, .keyPath, .variable, .subquery: false
        }
    }
}
