import Foundation

/// Parses the tokens of a format string into a ``FetchPredicate``,
/// substituting format arguments as it meets their specifiers.
///
/// The grammar, loosest binding first (keywords in any case):
///
/// ```text
/// predicate   := or
/// or          := and (("OR" | "||") and)*
/// and         := not (("AND" | "&&") not)*
/// not         := ("NOT" | "!") not | "(" or ")" | "TRUEPREDICATE" | "FALSEPREDICATE" | comparison
/// comparison  := ["ANY" | "SOME" | "ALL" | "NONE"] expression operator ["[" flags "]"] expression
/// expression  := primary ("." key | "." "@" operator ("." key)*)* ["[" "SIZE" "]"]
/// primary     := number | string | YES | NO | TRUE | FALSE | nil | NULL | SELF | key | "#" key
///              | "$" variable | "@" operator | "%@" | "%K" | "%d" … | "{" [expression ("," expression)*] "}"
///              | SUBQUERY "(" expression "," "$" variable "," predicate ")"
///              | CAST "(" expression "," string ")" | "now" "(" ")"
/// ```
///
/// For example:
///
/// ```swift
/// var parser = try PredicateParser(format: "name IN %@", arguments: [["Ben", "Nick"]])
/// let predicate = try parser.parse()
/// ```
struct PredicateParser {
    /// How deeply parentheses, `NOT`, lists, `CAST` and subqueries may nest.
    static let maximumDepth = 64

    private let format: String
    private let tokens: [PredicateToken]
    private let arguments: [PredicateArgument]
    private var position = 0
    private var argumentsUsed = 0
    private var depth = 0

    init(format: String, arguments: [PredicateArgument]) throws(PredicateParseError) {
        var lexer = PredicateLexer(format: format)
        self.format = format
        self.tokens = try lexer.tokenize()
        self.arguments = arguments
    }

    /// Parses the whole format and checks every argument was used.
    mutating func parse() throws(PredicateParseError) -> FetchPredicate {
        let predicate = try parseOr()
        guard current.kind == .end else {
            throw error("expected AND, OR or the end of the predicate after '\(predicate)'", at: current)
        }
        if argumentsUsed < arguments.count {
            throw PredicateParseError(
                .extraArguments,
                "the format uses \(Self.count(argumentsUsed, "argument")) but \(Self.given(arguments.count))",
                scalarOffset: current.offset, format: format)
        }
        return predicate
    }

    // MARK: - Tokens

    private var current: PredicateToken { tokens[Swift.min(position, tokens.count - 1)] }

    private mutating func advance() -> PredicateToken {
        let token = current
        if position < tokens.count - 1 { position += 1 }
        return token
    }

    /// The upper-cased keyword the current token spells, if it is a bare word.
    private var keyword: String? {
        if case .identifier(let word) = current.kind, PredicateLexer.isReserved(word) {
            return word.uppercased()
        }
        return nil
    }

    private mutating func take(_ symbol: PredicateToken.Symbol) -> Bool {
        guard current.kind == .symbol(symbol) else { return false }
        _ = advance()
        return true
    }

    private mutating func take(keyword word: String) -> Bool {
        guard keyword == word else { return false }
        _ = advance()
        return true
    }

    private mutating func expect(_ symbol: PredicateToken.Symbol, _ message: String) throws(PredicateParseError) {
        guard take(symbol) else { throw error(message, at: current) }
    }

    private func error(_ message: String, at token: PredicateToken) -> PredicateParseError {
        PredicateParseError(.syntax, message, scalarOffset: token.offset, format: format)
    }

    private mutating func nested<T>(
        at token: PredicateToken, _ body: (inout PredicateParser) throws(PredicateParseError) -> T
    ) throws(PredicateParseError) -> T {
        guard depth < Self.maximumDepth else {
            throw PredicateParseError(
                .nestingTooDeep, "the predicate nests more than \(Self.maximumDepth) levels deep",
                scalarOffset: token.offset, format: format)
        }
        depth += 1
        defer { depth -= 1 }
        return try body(&self)
    }

    private static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }

    private static func given(_ number: Int) -> String {
        "\(number) \(number == 1 ? "was" : "were") given"
    }

    // MARK: - Predicates

    private mutating func parseOr() throws(PredicateParseError) -> FetchPredicate {
        var operands = [try parseAnd()]
        while take(keyword: "OR") || take(.or) {
            operands.append(try parseAnd())
        }
        return operands.count == 1 ? operands[0] : .or(operands)
    }

    private mutating func parseAnd() throws(PredicateParseError) -> FetchPredicate {
        var operands = [try parseNot()]
        while take(keyword: "AND") || take(.and) {
            operands.append(try parseNot())
        }
        return operands.count == 1 ? operands[0] : .and(operands)
    }

    private mutating func parseNot() throws(PredicateParseError) -> FetchPredicate {
        let token = current
        if take(keyword: "NOT") || take(.not) {
            return .not(try nested(at: token) { parser throws(PredicateParseError) in try parser.parseNot() })
        }
        if take(.leftParenthesis) {
            let inner = try nested(at: token) { parser throws(PredicateParseError) in try parser.parseOr() }
            let closeMessage = "expected ')' to close the '(' at offset \(characterOffset(of: token))"
            try expect(.rightParenthesis, closeMessage)
            return inner
        }
        if take(keyword: "TRUEPREDICATE") { return .truePredicate }
        if take(keyword: "FALSEPREDICATE") { return .falsePredicate }
        return try parseComparison()
    }

    private func characterOffset(of token: PredicateToken) -> Int {
        PredicateParseError(.syntax, "", scalarOffset: token.offset, format: format).offset
    }

    private mutating func parseComparison() throws(PredicateParseError) -> FetchPredicate {
        var modifier = ComparisonModifier.direct
        var negated = false
        switch keyword {
        case "ANY", "SOME":
            modifier = .any
        case "ALL":
            modifier = .all
        case "NONE":
            modifier = .any
            negated = true
        default:
            break
        }
        var expectation = "expected a predicate"
        if modifier != .direct {
            expectation = "expected a key path after \(advance().text)"
        }
        let left = try parseExpression(expectation)
        let operatorToken = current
        guard let op = takeOperator() else {
            throw error("expected an operator after \(Self.phrase(for: left))", at: operatorToken)
        }
        let options = try parseOptions()
        let rightToken = current
        let right = try parseExpression("expected a value after \(operatorToken.text)")
        if op == .between { try checkBounds(right, at: rightToken) }
        let comparison = FetchPredicate.comparison(
            PredicateComparison(left, op, right, options: options, modifier: modifier))
        return negated ? .not(comparison) : comparison
    }

    private mutating func takeOperator() -> ComparisonOperator? {
        let op: ComparisonOperator
        switch current.kind {
        case .symbol(.equal): op = .equalTo
        case .symbol(.notEqual): op = .notEqualTo
        case .symbol(.less): op = .lessThan
        case .symbol(.lessOrEqual): op = .lessThanOrEqualTo
        case .symbol(.greater): op = .greaterThan
        case .symbol(.greaterOrEqual): op = .greaterThanOrEqualTo
        default:
            switch keyword {
            case "MATCHES": op = .matches
            case "LIKE": op = .like
            case "BEGINSWITH": op = .beginsWith
            case "ENDSWITH": op = .endsWith
            case "IN": op = .in
            case "CONTAINS": op = .contains
            case "BETWEEN": op = .between
            default: return nil
            }
        }
        _ = advance()
        return op
    }

    /// Parses `[c]`, `[d]`, `[n]` and their combinations after an operator.
    private mutating func parseOptions() throws(PredicateParseError) -> ComparisonOptions {
        guard take(.leftBracket) else { return [] }
        let flagsToken = current
        guard case .identifier(let flags) = flagsToken.kind else {
            throw error("expected comparison options such as c, d or cd after '['", at: flagsToken)
        }
        var options: ComparisonOptions = []
        for (index, flag) in flags.unicodeScalars.enumerated() {
            switch flag {
            case "c", "C": options.insert(.caseInsensitive)
            case "d", "D": options.insert(.diacriticInsensitive)
            case "n", "N": options.insert(.normalized)
            default:
                throw PredicateParseError(
                    .syntax, "unknown comparison option '\(flag)'; expected c, d or n",
                    scalarOffset: flagsToken.offset + index, format: format)
            }
        }
        _ = advance()
        try expect(.rightBracket, "expected ']' after comparison options")
        return options
    }

    /// Checks the right side of `BETWEEN` can hold a lower and an upper bound.
    private func checkBounds(_ right: FetchExpression, at token: PredicateToken) throws(PredicateParseError) {
        switch right {
        case .constant(.array(let bounds)) where bounds.count == 2: return
        case .aggregate(let bounds) where bounds.count == 2: return
        case .variable, .keyPath: return
        default:
            throw error("expected two bounds such as {1, 10} after BETWEEN", at: token)
        }
    }

    // MARK: - Expressions

    private mutating func parseExpression(_ expectation: String) throws(PredicateParseError) -> FetchExpression {
        var expression = try parsePrimary(expectation)
        while current.kind == .symbol(.dot) || current.kind == .symbol(.leftBracket) {
            if current.kind == .symbol(.leftBracket) { return try parseIndex(of: expression) }
            _ = advance()
            let token = advance()
            switch token.kind {
            case .identifier(let key), .escapedIdentifier(let key):
                switch expression {
                case .keyPath(let components):
                    expression = .keyPath(components + [key])
                case .evaluatedObject:
                    expression = .keyPath([key])
                case .variable(let name, let components):
                    expression = .variable(name, keyPath: components + [key])
                default:
                    throw error(
                        "expected a collection operator such as @count after \(Self.phrase(for: expression))",
                        at: token)
                }
            case .collectionOperator(let name):
                return try parseCollectionOperator(name, of: expression, at: token)
            default:
                throw error("expected a key after '.'", at: token)
            }
        }
        return expression
    }

    /// Parses an index after an expression: `tags[SIZE]` (in any case) is the number of elements, as
    /// `tags.@count`. `[FIRST]`, `[LAST]` and `[2]` pick an element by position, which the SQL a fetch
    /// runs does not do (and an unordered to-many has no positions), so they are refused with what to
    /// write instead.
    private mutating func parseIndex(of base: FetchExpression) throws(PredicateParseError) -> FetchExpression {
        let bracket = advance()
        let token = advance()
        let index: String
        switch token.kind {
        case .identifier(let word) where ["FIRST", "LAST", "SIZE"].contains(word.uppercased()):
            index = word.uppercased()
        case .integer(let value):
            index = String(value)
        default:
            throw error("expected FIRST, LAST or SIZE after '[' (\(base)[SIZE] is the number of elements)", at: token)
        }
        try expect(.rightBracket, "expected ']' after \(index)")
        guard index == "SIZE" else {
            // The key the element was read by (`tags[FIRST].name`), for the example.
            var key = "name"
            if current.kind == .symbol(.dot), case .identifier(let word) = tokens[Swift.min(position + 1, tokens.count - 1)].kind {
                key = word
            }
            throw error("""
                \(base)[\(index)] picks an element by position, which a fetch here does not support; compare the elements with ANY, ALL or NONE (ANY \(base).\(key) == 'x') \
                or SUBQUERY, or their number with \(base)[SIZE] or \(base).@count
                """, at: bracket)
        }
        return .collectionOperator(.count, of: base)
    }

    /// Parses what follows `@name`: `.@count`, or `.@sum.key.path`.
    private mutating func parseCollectionOperator(
        _ name: String, of base: FetchExpression, at token: PredicateToken
    ) throws(PredicateParseError) -> FetchExpression {
        guard let op = PredicateCollectionOperator(rawValue: name.lowercased()) else {
            throw error("unknown collection operator '@\(name)'; expected @count, @sum, @avg, @min or @max", at: token)
        }
        var keyPath: [String] = []
        if op != .count {
            while current.kind == .symbol(.dot) {
                let next = tokens[Swift.min(position + 1, tokens.count - 1)]
                switch next.kind {
                case .identifier(let key), .escapedIdentifier(let key):
                    position += 2
                    keyPath.append(key)
                default:
                    throw error("expected a key after '.'", at: next)
                }
            }
        }
        return .collectionOperator(op, of: base, keyPath: keyPath)
    }

    private mutating func parsePrimary(_ expectation: String) throws(PredicateParseError) -> FetchExpression {
        let token = current
        switch token.kind {
        case .integer(let value):
            _ = advance()
            return .constant(.int(value))
        case .decimal(let value):
            _ = advance()
            return .constant(.double(value))
        case .string(let value):
            _ = advance()
            return .constant(.string(value))
        case .escapedIdentifier(let key):
            _ = advance()
            return .keyPath([key])
        case .variable(let name):
            _ = advance()
            return .variable(name)
        case .collectionOperator(let name):
            _ = advance()
            return try parseCollectionOperator(name, of: .evaluatedObject, at: token)
        case .specifier(let specifier, let index):
            _ = advance()
            return try substitute(specifier, index: index, at: token)
        case .symbol(.leftBrace):
            _ = advance()
            return try nested(at: token) { parser throws(PredicateParseError) in try parser.parseList(from: token) }
        case .identifier(let word):
            guard PredicateLexer.isReserved(word) else {
                _ = advance()
                if take(.leftParenthesis) { return try parseFunction(word, at: token) }
                return .keyPath([word])
            }
            switch word.uppercased() {
            case "YES", "TRUE":
                _ = advance()
                return .constant(.bool(true))
            case "NO", "FALSE":
                _ = advance()
                return .constant(.bool(false))
            case "NIL", "NULL":
                _ = advance()
                return .constant(.null)
            case "SELF":
                _ = advance()
                return .evaluatedObject
            case "SUBQUERY":
                _ = advance()
                return try nested(at: token) { parser throws(PredicateParseError) in try parser.parseSubquery() }
            case "CAST":
                _ = advance()
                return try nested(at: token) { parser throws(PredicateParseError) in try parser.parseCast() }
            default:
                throw error("\(expectation), found keyword '\(word)' (write #\(word) for a key of that name)", at: token)
            }
        default:
            throw error(expectation, at: token)
        }
    }

    /// Parses the rest of `{a, b, …}`; a list of constants becomes an array constant.
    private mutating func parseList(from brace: PredicateToken) throws(PredicateParseError) -> FetchExpression {
        var elements: [FetchExpression] = []
        if !take(.rightBrace) {
            repeat {
                elements.append(try parseExpression("expected a value in the list"))
            } while take(.comma)
            try expect(.rightBrace, "expected ',' or '}' in the list that starts at offset \(characterOffset(of: brace))")
        }
        return FetchExpression.list(elements)
    }

    /// Parses the rest of `SUBQUERY(collection, $x, predicate)`.
    private mutating func parseSubquery() throws(PredicateParseError) -> FetchExpression {
        try expect(.leftParenthesis, "expected '(' after SUBQUERY")
        let collection = try parseExpression("expected a collection key path as the first argument of SUBQUERY")
        try expect(.comma, "expected ',' after the collection of SUBQUERY")
        guard case .variable(let variable) = current.kind else {
            throw error("expected a variable such as $x as the second argument of SUBQUERY", at: current)
        }
        _ = advance()
        try expect(.comma, "expected ',' after the variable of SUBQUERY")
        let predicate = try parseOr()
        try expect(.rightParenthesis, "expected ')' to close SUBQUERY")
        return .subquery(collection: collection, variable: variable, predicate: predicate)
    }

    /// Parses the rest of a function call `name(…)` after its `(`. NSExpression's `now()` is the
    /// one function supported; any other, `FUNCTION(…)` (a method called by name) too, is refused
    /// with what a predicate may write instead.
    private mutating func parseFunction(_ name: String, at token: PredicateToken) throws(PredicateParseError) -> FetchExpression {
        if name == "now" {
            try expect(.rightParenthesis, "expected ')' after 'now(': now() takes no arguments")
            return .now
        }
        let supported = "the one function a predicate may call is now(), the current date (dueDate < now())"
        if name.uppercased() == "FUNCTION" {
            throw error("FUNCTION(…) calls a method by name, which a fetch cannot run in SQL; \(supported)", at: token)
        }
        throw error("""
            unsupported function '\(name)()': \(supported); a date is written CAST(<seconds since \
            2001-01-01 00:00:00 UTC>, "NSDate"), and a key named '\(name)' is not followed by '('
            """, at: token)
    }

    /// Parses the rest of `CAST(value, "type")`: `NSDate` from seconds since
    /// 2001-01-01, `NSUUID` from a UUID string, `NSData` from base64.
    private mutating func parseCast() throws(PredicateParseError) -> FetchExpression {
        try expect(.leftParenthesis, "expected '(' after CAST")
        let valueToken = current
        let value = try parseExpression("expected a value as the first argument of CAST")
        try expect(.comma, "expected ',' after the value of CAST")
        let typeToken = current
        guard case .string(let type) = typeToken.kind else {
            throw error("expected a type name such as \"NSDate\" as the second argument of CAST", at: typeToken)
        }
        _ = advance()
        try expect(.rightParenthesis, "expected ')' to close CAST")
        guard case .constant(let constant) = value else {
            throw error("expected a constant value to CAST", at: valueToken)
        }
        switch (type, constant) {
        case ("NSDate", .int(let seconds)):
            return .constant(.date(Date(timeIntervalSinceReferenceDate: Double(seconds))))
        case ("NSDate", .double(let seconds)):
            return .constant(.date(Date(timeIntervalSinceReferenceDate: seconds)))
        case ("NSDate", .date):
            return value
        case ("NSUUID", .string(let text)):
            guard let uuid = UUID(uuidString: text) else {
                throw error("'\(text)' is not a UUID", at: valueToken)
            }
            return .constant(.uuid(uuid))
        case ("NSUUID", .uuid):
            return value
        case ("NSData", .string(let text)):
            guard let data = Data(base64Encoded: text) else {
                throw error("'\(text)' is not base64 data", at: valueToken)
            }
            return .constant(.data(data))
        case ("NSData", .data):
            return value
        case ("NSDate", _), ("NSUUID", _), ("NSData", _):
            throw error("cannot CAST \(constant.kindName) to \(type)", at: valueToken)
        default:
            throw error("unsupported CAST type \"\(type)\"; expected \"NSDate\", \"NSUUID\" or \"NSData\"", at: typeToken)
        }
    }

    // MARK: - Arguments

    /// Replaces a format specifier with its argument.
    private mutating func substitute(
        _ specifier: String, index: Int, at token: PredicateToken
    ) throws(PredicateParseError) -> FetchExpression {
        guard index < arguments.count else {
            throw PredicateParseError(
                .missingArgument,
                "missing argument for \(token.text): the format needs at least \(Self.count(index + 1, "argument")) but \(Self.given(arguments.count))",
                scalarOffset: token.offset, format: format)
        }
        argumentsUsed = index + 1
        let argument = arguments[index]
        func invalid(_ needed: String) -> PredicateParseError {
            let given: String
            switch argument {
            case .value(let constant): given = constant.kindName
            case .keyPath: given = "a key path"
            }
            return PredicateParseError(
                .invalidArgument, "\(token.text) needs \(needed), but argument \(index + 1) is \(given)",
                scalarOffset: token.offset, format: format)
        }
        switch (specifier.last, argument) {
        case ("@", .value(let constant)):
            return .constant(constant)
        case ("@", .keyPath(let path)), ("K", .keyPath(let path)), ("K", .value(.string(let path))):
            guard let expression = FetchExpression.keyPath(parsing: path) else {
                throw invalid("a key path without empty components")
            }
            return expression
        case ("K", _):
            throw invalid("a key path")
        case ("d", .value(let constant)), ("i", .value(let constant)), ("u", .value(let constant)):
            switch constant {
            case .int: return .constant(constant)
            case .bool(let flag): return .constant(.int(flag ? 1 : 0))
            default: throw invalid("an integer")
            }
        case ("f", .value(let constant)), ("e", .value(let constant)), ("g", .value(let constant)):
            switch constant {
            case .double: return .constant(constant)
            case .int(let integer): return .constant(.double(Double(integer)))
            default: throw invalid("a number")
            }
        case ("s", .value(.string(let string))):
            return .constant(.string(string))
        case ("s", _):
            throw invalid("a string")
        case ("d", _), ("i", _), ("u", _):
            throw invalid("an integer")
        default:
            throw invalid("a number")
        }
    }

    /// Names an expression for a message: `key path 'a.b'`, `variable '$x'`, `'nil'`.
    static func phrase(for expression: FetchExpression) -> String {
        switch expression {
        case .keyPath: return "key path '\(expression)'"
        case .variable: return "variable '\(expression)'"
        default: return "'\(expression)'"
        }
    }
}
