/// One token of a predicate format string, as ``PredicateLexer`` produces it.
///
/// For example, `name ==[c] %@` lexes to `identifier("name")`,
/// `symbol(.equal)`, `symbol(.leftBracket)`, `identifier("c")`,
/// `symbol(.rightBracket)`, `specifier("@", index: 0)` and `end`.
struct PredicateToken: Sendable, Hashable {
    /// What a token is.
    enum Kind: Sendable, Hashable {
        /// A bare word: a key or, when ``PredicateLexer/isReserved(_:)``, a keyword.
        case identifier(String)
        /// `#word`: a key, even when the word is reserved.
        case escapedIdentifier(String)
        /// `$name`.
        case variable(String)
        /// `@name`, such as `@count`.
        case collectionOperator(String)
        /// An integer literal.
        case integer(Int64)
        /// A decimal literal (with a fraction or an exponent).
        case decimal(Double)
        /// A quoted string, escapes resolved.
        case string(String)
        /// A format specifier: its text after `%` (`@`, `K`, `ld`, …) and
        /// which argument it takes, from 0.
        case specifier(String, index: Int)
        /// Punctuation or a symbolic operator.
        case symbol(Symbol)
        /// The end of the format.
        case end
    }

    /// Punctuation and symbolic operators.
    enum Symbol: String, Sendable, Hashable {
        case leftParenthesis = "("
        case rightParenthesis = ")"
        case leftBrace = "{"
        case rightBrace = "}"
        case leftBracket = "["
        case rightBracket = "]"
        case comma = ","
        case dot = "."
        case equal = "=="
        case notEqual = "!="
        case less = "<"
        case lessOrEqual = "<="
        case greater = ">"
        case greaterOrEqual = ">="
        case and = "&&"
        case or = "||"
        case not = "!"
    }

    /// What the token is.
    var kind: Kind
    /// Where it starts, in Unicode scalars from the start of the format.
    var offset: Int
    /// Its text as written.
    var text: String
}
