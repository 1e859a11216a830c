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

    /// Parses a predicate in Apple's predicate format syntax, substituting Swift values (variables as
    /// well as literals) for its format specifiers in order: see ``PredicateArgumentConvertible``.
    ///
    /// For example:
    ///
    /// ```swift
    /// let word = "bank", priority: Int32 = 1, due: Date? = nil
    /// let p = try FetchPredicate(format: "task_description CONTAINS[cd] %@ AND priority == %@ AND due == %@", word, priority, due)
    /// ```
    ///
    /// - Throws: ``PredicateParseError``, as ``init(format:_:)-(_,PredicateArgument...)`` does.
    public init<each Argument: PredicateArgumentConvertible>(format: String, _ arguments: repeat each Argument) throws(PredicateParseError) {
        var list: [PredicateArgument] = []
        for argument in repeat each arguments { list.append(argument.predicateArgument) }
        try self.init(format: format, arguments: list)
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
