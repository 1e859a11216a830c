// Helpers the parser shares with substitution and messages.

extension PredicateConstant {
    /// The kind of value, with an article, for messages: "a string", "an integer".
    var kindName: String {
        switch self {
        case .null: return "nil"
        case .bool: return "a Boolean"
        case .int: return "an integer"
        case .double: return "a double"
        case .string: return "a string"
        case .date: return "a date"
        case .data: return "data"
        case .uuid: return "a UUID"
        case .array: return "an array"
        }
    }
}

extension FetchExpression {
    /// The key path of a `%K` argument or key-path substitution: dots
    /// separate components, and nothing else is interpreted, so a
    /// component may hold any text. `""` is `SELF`; an empty component
    /// (`"a..b"`) gives nil.
    static func keyPath(parsing path: String) -> FetchExpression? {
        if path.isEmpty { return .evaluatedObject }
        let components = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard !components.contains(where: \.isEmpty) else { return nil }
        return .keyPath(components)
    }

    /// A list literal: an array constant when every element is a constant.
    static func list(_ elements: [FetchExpression]) -> FetchExpression {
        var constants: [PredicateConstant] = []
        for element in elements {
            guard case .constant(let constant) = element else { return .aggregate(elements) }
            constants.append(constant)
        }
        return .constant(.array(constants))
    }
}
