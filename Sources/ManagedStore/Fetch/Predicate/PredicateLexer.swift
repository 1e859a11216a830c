/// Splits a predicate format string into ``PredicateToken``s.
///
/// It works on Unicode scalars, so a combining mark after a quote cannot
/// merge with it, and it never traps: every problem is a
/// ``PredicateParseError`` at the scalar where it starts.
///
/// For example:
///
/// ```swift
/// var lexer = PredicateLexer(format: "age BETWEEN {18, 21}")
/// let tokens = try lexer.tokenize()
/// // identifier("age"), identifier("BETWEEN"), symbol(.leftBrace), integer(18), …
/// ```
struct PredicateLexer {
    /// The words the grammar reserves, upper-cased. A key spelled like one
    /// of them is written with a `#` prefix (`#IN`). `FIRST`, `LAST` and
    /// `SIZE` are keywords only inside an index (`tags[SIZE]`), so a key named
    /// `size` needs no `#` here, though Apple's parser asks for `#size`.
    static let reservedWords: Set<String> = [
        "AND", "OR", "NOT", "IN", "LIKE", "MATCHES", "CONTAINS", "BEGINSWITH", "ENDSWITH",
        "BETWEEN", "ANY", "SOME", "ALL", "NONE", "NULL", "NIL", "SELF", "TRUE", "FALSE",
        "YES", "NO", "TRUEPREDICATE", "FALSEPREDICATE", "SUBQUERY", "CAST",
    ]

    /// Whether a word is a keyword of the grammar, in any case.
    static func isReserved(_ word: String) -> Bool {
        reservedWords.contains(word.uppercased())
    }

    /// Whether a scalar can start a key.
    static func isIdentifierStart(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "_" || scalar.properties.isAlphabetic
    }

    /// Whether a scalar can continue a key.
    static func isIdentifierContinuation(_ scalar: Unicode.Scalar) -> Bool {
        if isIdentifierStart(scalar) || scalar.properties.numericType != nil { return true }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .connectorPunctuation:
            return true
        default:
            return false
        }
    }

    /// Whether a string lexes as one plain identifier (a key without `#`).
    static func isIdentifier(_ word: String) -> Bool {
        var scalars = word.unicodeScalars.makeIterator()
        guard let first = scalars.next(), isIdentifierStart(first) else { return false }
        while let scalar = scalars.next() {
            if !isIdentifierContinuation(scalar) { return false }
        }
        return true
    }

    let format: String
    private let scalars: [Unicode.Scalar]
    private var position = 0
    private var specifierCount = 0

    init(format: String) {
        self.format = format
        self.scalars = Array(format.unicodeScalars)
    }

    /// Lexes the whole format; the last token is `.end`.
    mutating func tokenize() throws(PredicateParseError) -> [PredicateToken] {
        var tokens: [PredicateToken] = []
        while true {
            let token = try nextToken()
            tokens.append(token)
            if token.kind == .end { return tokens }
        }
    }

    // MARK: - Scanning

    private func peek(_ ahead: Int = 0) -> Unicode.Scalar? {
        let index = position + ahead
        return index < scalars.count ? scalars[index] : nil
    }

    private func text(from start: Int) -> String {
        var string = String.UnicodeScalarView()
        string.append(contentsOf: scalars[start..<position])
        return String(string)
    }

    private func error(_ message: String, at offset: Int) -> PredicateParseError {
        PredicateParseError(.syntax, message, scalarOffset: offset, format: format)
    }

    private mutating func nextToken() throws(PredicateParseError) -> PredicateToken {
        while let scalar = peek(), scalar.properties.isWhitespace { position += 1 }
        let start = position
        guard let scalar = peek() else {
            return PredicateToken(kind: .end, offset: start, text: "")
        }
        func token(_ kind: PredicateToken.Kind) -> PredicateToken {
            PredicateToken(kind: kind, offset: start, text: text(from: start))
        }
        func symbol(_ symbol: PredicateToken.Symbol, length: Int) -> PredicateToken {
            position += length
            return token(.symbol(symbol))
        }

        switch scalar {
        case "(": return symbol(.leftParenthesis, length: 1)
        case ")": return symbol(.rightParenthesis, length: 1)
        case "{": return symbol(.leftBrace, length: 1)
        case "}": return symbol(.rightBrace, length: 1)
        case "[": return symbol(.leftBracket, length: 1)
        case "]": return symbol(.rightBracket, length: 1)
        case ",": return symbol(.comma, length: 1)
        case ".": return symbol(.dot, length: 1)
        case "=":
            switch peek(1) {
            case "=": return symbol(.equal, length: 2)
            case "<": return symbol(.lessOrEqual, length: 2)
            case ">": return symbol(.greaterOrEqual, length: 2)
            default: return symbol(.equal, length: 1)
            }
        case "!":
            return peek(1) == "=" ? symbol(.notEqual, length: 2) : symbol(.not, length: 1)
        case "<":
            switch peek(1) {
            case "=": return symbol(.lessOrEqual, length: 2)
            case ">": return symbol(.notEqual, length: 2)
            default: return symbol(.less, length: 1)
            }
        case ">":
            return peek(1) == "=" ? symbol(.greaterOrEqual, length: 2) : symbol(.greater, length: 1)
        case "&":
            guard peek(1) == "&" else { throw error("unexpected character '&' (did you mean '&&'?)", at: start) }
            return symbol(.and, length: 2)
        case "|":
            guard peek(1) == "|" else { throw error("unexpected character '|' (did you mean '||'?)", at: start) }
            return symbol(.or, length: 2)
        case "'", "\"":
            return token(.string(try scanString()))
        case "%":
            return try scanSpecifier()
        case "#", "$", "@":
            position += 1
            guard let next = peek(), Self.isIdentifierStart(next) else {
                let what = scalar == "#" ? "a key" : scalar == "$" ? "a variable name" : "a collection operator such as count"
                throw error("expected \(what) after '\(scalar)'", at: position)
            }
            let word = scanWord()
            switch scalar {
            case "#": return token(.escapedIdentifier(word))
            case "$": return token(.variable(word))
            default: return token(.collectionOperator(word))
            }
        case "-":
            guard let next = peek(1), ("0"..."9").contains(next) else {
                throw error("unexpected character '-' (arithmetic is not supported)", at: start)
            }
            return try scanNumber()
        case "0"..."9":
            return try scanNumber()
        default:
            if Self.isIdentifierStart(scalar) {
                return token(.identifier(scanWord()))
            }
            throw error("unexpected character \(Self.describe(scalar))", at: start)
        }
    }

    /// Quotes a scalar for a message, or names it by code point when it
    /// would not show.
    static func describe(_ scalar: Unicode.Scalar) -> String {
        switch scalar.properties.generalCategory {
        case .control, .format, .surrogate, .privateUse, .unassigned, .lineSeparator,
             .paragraphSeparator, .spaceSeparator, .nonspacingMark, .enclosingMark, .spacingMark:
            return "U+" + String(String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4))
        default:
            return "'\(scalar)'"
        }
    }

    private mutating func scanWord() -> String {
        let start = position
        position += 1
        while let scalar = peek(), Self.isIdentifierContinuation(scalar) { position += 1 }
        return text(from: start)
    }

    private mutating func scanNumber() throws(PredicateParseError) -> PredicateToken {
        let start = position
        var negative = false
        if peek() == "-" {
            negative = true
            position += 1
        }
        // 0x…, 0o…, 0b…
        if peek() == "0", let marker = peek(1), let radix = Self.radix(for: marker) {
            position += 2
            let digitsStart = position
            while let scalar = peek(), scalar.properties.isASCIIHexDigit, Int(String(scalar), radix: radix) != nil {
                position += 1
            }
            let digits = text(from: digitsStart)
            guard !digits.isEmpty else {
                throw error("expected digits after '\(text(from: start))'", at: position)
            }
            guard let value = Int64((negative ? "-" : "") + digits, radix: radix) else {
                throw error("integer literal '\(text(from: start))' does not fit in 64 bits", at: start)
            }
            return PredicateToken(kind: .integer(value), offset: start, text: text(from: start))
        }
        var isDecimal = false
        scanDigits()
        if peek() == ".", let next = peek(1), ("0"..."9").contains(next) {
            isDecimal = true
            position += 1
            scanDigits()
        }
        if peek() == "e" || peek() == "E" {
            var ahead = 1
            if peek(1) == "+" || peek(1) == "-" { ahead = 2 }
            if let digit = peek(ahead), ("0"..."9").contains(digit) {
                isDecimal = true
                position += ahead
                scanDigits()
            }
        }
        let literal = text(from: start)
        if isDecimal {
            guard let value = Double(literal) else {
                throw error("invalid number '\(literal)'", at: start)
            }
            return PredicateToken(kind: .decimal(value), offset: start, text: literal)
        }
        guard let value = Int64(literal) else {
            throw error("integer literal '\(literal)' does not fit in 64 bits", at: start)
        }
        return PredicateToken(kind: .integer(value), offset: start, text: literal)
    }

    private static func radix(for marker: Unicode.Scalar) -> Int? {
        switch marker {
        case "x", "X": return 16
        case "o", "O": return 8
        case "b", "B": return 2
        default: return nil
        }
    }

    private mutating func scanDigits() {
        while let scalar = peek(), ("0"..."9").contains(scalar) { position += 1 }
    }

    /// Scans a quoted string. Known escapes are `\\ \' \" \n \r \t \0`,
    /// `\uXXXX`, `\u{X…}` and `\xXX`; a backslash before anything else stays
    /// in the string with that character, so LIKE and MATCHES patterns such
    /// as `'a\*b'` and `'\d+'` keep their backslashes.
    private mutating func scanString() throws(PredicateParseError) -> String {
        let start = position
        let quote = scalars[position]
        position += 1
        var value = String.UnicodeScalarView()
        while true {
            guard let scalar = peek() else {
                throw error("unterminated string literal", at: start)
            }
            position += 1
            if scalar == quote { return String(value) }
            guard scalar == "\\" else {
                value.append(scalar)
                continue
            }
            guard let escaped = peek() else {
                throw error("unterminated string literal", at: start)
            }
            position += 1
            switch escaped {
            case "\\", "'", "\"": value.append(escaped)
            case "n": value.append("\n")
            case "r": value.append("\r")
            case "t": value.append("\t")
            case "0": value.append("\0")
            case "u", "x":
                if let decoded = scanHexEscape(braced: escaped == "u", digits: escaped == "u" ? 4 : 2) {
                    value.append(decoded)
                } else {
                    value.append("\\")
                    value.append(escaped)
                }
            default:
                value.append("\\")
                value.append(escaped)
            }
        }
    }

    /// Reads the digits of `\uXXXX`, `\u{…}` or `\xXX`; leaves the position
    /// alone and returns nil when they do not make a scalar.
    private mutating func scanHexEscape(braced: Bool, digits: Int) -> Unicode.Scalar? {
        var ahead = 0
        var hex = ""
        if braced, peek() == "{" {
            ahead = 1
            while let scalar = peek(ahead), scalar.properties.isASCIIHexDigit, hex.count < 8 {
                hex.unicodeScalars.append(scalar)
                ahead += 1
            }
            guard peek(ahead) == "}", !hex.isEmpty else { return nil }
            ahead += 1
        } else {
            while hex.count < digits, let scalar = peek(ahead), scalar.properties.isASCIIHexDigit {
                hex.unicodeScalars.append(scalar)
                ahead += 1
            }
            guard hex.count == digits else { return nil }
        }
        guard let code = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(code) else { return nil }
        position += ahead
        return scalar
    }

    /// Scans `%@`, `%K`, `%d`, `%i`, `%u`, `%ld`, `%lld`, `%f`, `%lf`, `%e`,
    /// `%g`, `%s` and similar.
    private mutating func scanSpecifier() throws(PredicateParseError) -> PredicateToken {
        let start = position
        position += 1
        var lengthModifier = ""
        while lengthModifier.count < 2, let scalar = peek(), "lqhz".unicodeScalars.contains(scalar) {
            lengthModifier.unicodeScalars.append(scalar)
            position += 1
        }
        let conversion = peek()
        if conversion != nil { position += 1 }
        let valid: Bool
        switch conversion {
        case nil: valid = false
        case "@", "K", "s": valid = lengthModifier.isEmpty
        case "d", "i", "u": valid = true
        case "f", "e", "g": valid = lengthModifier.isEmpty || lengthModifier == "l"
        default: valid = false
        }
        guard valid else {
            throw error(
                "unknown format specifier '\(text(from: start))'; expected %@, %K, %d, %i, %ld, %f or %s",
                at: start)
        }
        let specifier = String(text(from: start).dropFirst())
        defer { specifierCount += 1 }
        return PredicateToken(kind: .specifier(specifier, index: specifierCount), offset: start, text: "%" + specifier)
    }
}

extension String {
    /// The string with zeros in front, up to `width` characters.
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}

extension PredicateParseError {
    /// An error at a scalar offset of `format`, converted to characters.
    init(_ kind: Kind, _ message: String, scalarOffset: Int, format: String) {
        let scalars = format.unicodeScalars
        let clamped = Swift.min(Swift.max(scalarOffset, 0), scalars.count)
        var prefix = String.UnicodeScalarView()
        prefix.append(contentsOf: scalars.prefix(clamped))
        self.init(kind, message, offset: String(prefix).count, format: format)
    }
}
