extension FetchPredicate {
    /// Parses a predicate in Apple's predicate format syntax, substituting
    /// `arguments` for its format specifiers in order.
    ///
    /// `%@` takes any argument (a ``PredicateArgument/keyPath(_:)`` becomes a
    /// key path), `%K` a key path or a string naming one, `%d`/`%i`/`%ld`
    /// an integer, `%f` a number, `%s` a string. A specifier inside quotes
    /// (`'%@'`) is literal text. `$NAME` variables stay in the tree until
    /// ``substituting(_:)``.
    ///
    /// For example:
    ///
    /// ```swift
    /// let p = try FetchPredicate(format: "%K CONTAINS[cd] %@ AND priority == %d", "task_description", "bank", 1)
    /// ```
    ///
    /// - Throws: ``PredicateParseError`` with the offset of the problem, when
    ///   the format is not valid, or when the arguments do not match its
    ///   specifiers in number or type.
    public init(format: String, _ arguments: PredicateArgument...) throws(PredicateParseError) {
        try self.init(format: format, arguments: arguments)
    }

    /// Parses a predicate, substituting an array of arguments for its
    /// format specifiers in order.
    ///
    /// For example:
    ///
    /// ```swift
    /// let filters: [PredicateArgument] = [1, false]
    /// let p = try FetchPredicate(format: "priority == %@ AND completed == %@", arguments: filters)
    /// ```
    ///
    /// - Throws: ``PredicateParseError``.
    public init(format: String, arguments: [PredicateArgument]) throws(PredicateParseError) {
        var parser = try PredicateParser(format: format, arguments: arguments)
        self = try parser.parse()
    }
}
