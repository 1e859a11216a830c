/// A compiled `LIKE` pattern: `*` matches any run, `?` one unit, `\` makes the next unit
/// literal. Everything else, `%` and `_` included, matches itself. The whole string must match.
///
/// Without `[c]` or `[d]` the units are Unicode scalars, compared by their UTF-8 bytes, as the
/// other unmodified string operators compare (``PredicateBytes``): `?` matches a combining mark,
/// and `'Zoe\u{308}' LIKE 'Zoë'` is false. With `[c]` or `[d]` the units are characters of the
/// folded pattern and subject, so canonically equivalent spellings match, as `==[c]` matches them.
///
/// For example:
///
/// ```swift
/// let pattern = PredicateLikePattern("Ma*t?ew", options: [])
/// pattern.matches("Matthew")   // true
/// PredicateLikePattern("Zoe?", options: []).matches("Zoe\u{308}")   // true
/// ```
struct PredicateLikePattern {
    /// A pattern as written: literal runs and wildcards.
    private enum Token {
        case literal(String)
        case anyOne
        case anyRun
    }

    /// A compiled unit of the pattern: a literal byte or character, `?` or `*`.
    private enum PatternElement<Unit: Equatable>: Equatable {
        case literal(Unit)
        case anyOne
        case anyRun
    }

    private typealias ByteElement = PatternElement<UInt8>
    private typealias CharacterElement = PatternElement<Character>

    private enum Compiled {
        /// UTF-8 bytes of literals; `?` steps over one scalar. Literals are ASCII-lower-cased
        /// when `foldsASCIICase` (the SQL function's fast path for `[c]` on ASCII text).
        case bytes([ByteElement], foldsASCIICase: Bool)
        /// Folded characters.
        case characters([CharacterElement], ComparisonOptions)
    }

    private let compiled: Compiled

    init(_ pattern: String, options: ComparisonOptions) {
        let options = options.stringOptions
        if options.isEmpty {
            compiled = .bytes(Self.tokens(pattern.unicodeScalars, String.init).flatMap { token -> [ByteElement] in
                switch token {
                case .literal(let run): run.utf8.map(ByteElement.literal)
                case .anyOne: [.anyOne]
                case .anyRun: [.anyRun]
                }
            }, foldsASCIICase: false)
        } else {
            compiled = .characters(Self.tokens(pattern, String.init).flatMap { token -> [CharacterElement] in
                switch token {
                case .literal(let run): PredicateConstant.fold(run, options).map(CharacterElement.literal)
                case .anyOne: [.anyOne]
                case .anyRun: [.anyRun]
                }
            }, options)
        }
    }

    /// The pattern as `options` fold it, matched on bytes: exact for ASCII subjects without
    /// `\r\n` (one character, two bytes), or nil when a literal does not fold to one ASCII
    /// character. Without options, the pattern itself.
    init?(asciiFolding pattern: String, options: ComparisonOptions) {
        let options = options.stringOptions
        if options.isEmpty {
            self.init(pattern, options: [])
            return
        }
        var elements: [ByteElement] = []
        for token in Self.tokens(pattern, String.init) {
            switch token {
            case .literal(let run):
                for character in PredicateConstant.fold(run, options) {
                    guard character.unicodeScalars.count == 1, let scalar = character.unicodeScalars.first, scalar.isASCII else { return nil }
                    elements.append(.literal(UInt8(scalar.value)))
                }
            case .anyOne: elements.append(.anyOne)
            case .anyRun: elements.append(.anyRun)
            }
        }
        self.init(compiled: .bytes(elements, foldsASCIICase: options.contains(.caseInsensitive)))
    }

    private init(compiled: Compiled) {
        self.compiled = compiled
    }

    /// Reads a pattern as `units` (characters or scalars): literal runs, `?`, and `*` (runs of
    /// them as one).
    private static func tokens<Units: Sequence>(_ units: Units, _ text: (Units.Element) -> String) -> [Token]
        where Units.Element: Equatable & ExpressibleByUnicodeScalarLiteral {
        var tokens: [Token] = []
        var run = ""
        func flush() {
            if !run.isEmpty { tokens.append(.literal(run)) }
            run = ""
        }
        var iterator = units.makeIterator()
        while let unit = iterator.next() {
            switch unit {
            case "*":
                flush()
                if case .anyRun? = tokens.last {} else { tokens.append(.anyRun) }
            case "?":
                flush()
                tokens.append(.anyOne)
            case "\\":
                run += iterator.next().map(text) ?? "\\"
            default:
                run += text(unit)
            }
        }
        flush()
        return tokens
    }

    /// Whether the whole string matches, in O(pattern × string) steps.
    func matches(_ string: String) -> Bool {
        switch compiled {
        case .bytes:
            var string = string
            return string.withUTF8 { matches(utf8: $0) ?? false }
        case .characters(let elements, let options):
            let subject = Array(PredicateConstant.fold(string, options))
            return Self.matches(elements, count: subject.count, unit: { subject[$0] }, width: { _ in 1 })
        }
    }

    /// Whether the whole UTF-8 text matches, or nil when the pattern compares characters
    /// (and needs a `String`). `?` and the backtracking of `*` step over whole scalars, so
    /// every position tried is a scalar boundary (literals are whole scalars).
    func matches(utf8 subject: UnsafeBufferPointer<UInt8>) -> Bool? {
        guard case .bytes(let elements, let fold) = compiled else { return nil }
        return Self.matches(elements, count: subject.count,
                            unit: { fold ? PredicateBytes.asciiLower(subject[$0]) : subject[$0] },
                            width: { PredicateBytes.scalarWidth(subject[$0]) })
    }

    /// The wildcard match both kinds of unit share: a literal takes one unit of the subject, `?` the
    /// `width` of the unit where it stands (a scalar's bytes, or one character), `*` any run, retried one
    /// `width` further when what follows fails (the last `*` only: O(pattern × subject)).
    @inline(__always)
    private static func matches<Unit: Equatable>(_ elements: [PatternElement<Unit>], count: Int,
                                                 unit: (Int) -> Unit, width: (Int) -> Int) -> Bool {
        var p = 0
        var s = 0
        var starPattern: Int?
        var starSubject = 0
        while s < count {
            if p < elements.count {
                switch elements[p] {
                case .anyRun:
                    (starPattern, starSubject) = (p, s)
                    p += 1
                    continue
                case .anyOne:
                    p += 1
                    s = min(s + width(s), count)
                    continue
                case .literal(let literal) where literal == unit(s):
                    (p, s) = (p + 1, s + 1)
                    continue
                case .literal:
                    break
                }
            }
            guard let star = starPattern else { return false }
            p = star + 1
            starSubject = min(starSubject + width(starSubject), count)
            s = starSubject
        }
        while p < elements.count, elements[p] == .anyRun { p += 1 }
        return p == elements.count
    }
}
