// One comparison of two constants, with the in-memory semantics; exposed so
// the SQL layer can register it (or `ComparisonOptions.fold`) as an SQLite
// function where SQL has no equivalent, such as `[cd]` on non-ASCII text,
// and so agree with in-memory evaluation.

extension ComparisonOperator {
    /// Whether `left op[options] right` holds, as in-memory evaluation
    /// decides it (see `FetchPredicate+Evaluation.swift`).
    ///
    /// For example:
    ///
    /// ```swift
    /// try ComparisonOperator.contains.evaluate("Zoë", "zoe", options: [.caseInsensitive, .diacriticInsensitive])   // true
    /// try ComparisonOperator.like.evaluate("100%", "100\\%")                                                       // false
    /// ```
    ///
    /// - Throws: ``PredicateEvaluationError`` for an invalid `MATCHES`
    ///   pattern or `BETWEEN` bounds that are not a two-element array.
    public func evaluate(
        _ left: PredicateConstant, _ right: PredicateConstant, options: ComparisonOptions = []
    ) throws -> Bool {
        try PredicateComparisonTest(self, options, right).matches(left)
    }
}

extension ComparisonOptions {
    /// A string as `[c]` and `[d]` compare it: case folded and diacritics
    /// removed per the options, locale-independent; unchanged without them.
    ///
    /// For example:
    ///
    /// ```swift
    /// ComparisonOptions([.caseInsensitive, .diacriticInsensitive]).fold("Zürich")   // "zurich"
    /// ```
    public func fold(_ string: String) -> String {
        PredicateConstant.fold(string, self)
    }
}
