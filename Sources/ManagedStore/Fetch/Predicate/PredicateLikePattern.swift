/// A compiled `LIKE` pattern: `*` matches any run of characters, `?` one
/// character, `\` makes the next character literal. Everything else,
/// `%` and `_` included, matches itself. The whole string must match.
///
/// With `[c]` or `[d]`, literal runs and the subject are folded alike.
///
/// For example:
///
/// ```swift
/// let pattern = PredicateLikePattern("Ma*t?ew", options: [])
/// pattern.matches("Matthew")   // true
/// ```
struct PredicateLikePattern {
    private enum Element: Equatable {
        case literal(Character)
        case anyCharacter
        case anyRun
    }

    private let elements: [Element]
    private let options: ComparisonOptions

    init(_ pattern: String, options: ComparisonOptions) {
        self.options = options
        var elements: [Element] = []
        var literal = ""
        func flush() {
            elements += PredicateConstant.fold(literal, options).map(Element.literal)
            literal = ""
        }
        var characters = pattern.makeIterator()
        while let character = characters.next() {
            switch character {
            case "*":
                flush()
                if elements.last != .anyRun { elements.append(.anyRun) }
            case "?":
                flush()
                elements.append(.anyCharacter)
            case "\\":
                literal.append(characters.next() ?? "\\")
            default:
                literal.append(character)
            }
        }
        flush()
        self.elements = elements
    }

    /// Whether the whole string matches, in O(pattern × string) steps.
    func matches(_ string: String) -> Bool {
        let subject = Array(PredicateConstant.fold(string, options))
        var p = 0
        var s = 0
        var starPattern: Int?
        var starSubject = 0
        while s < subject.count {
            if p < elements.count {
                switch elements[p] {
                case .anyRun:
                    starPattern = p
                    starSubject = s
                    p += 1
                    continue
                case .anyCharacter:
                    p += 1
                    s += 1
                    continue
                case .literal(let character) where character == subject[s]:
                    p += 1
                    s += 1
                    continue
                case .literal:
                    break
                }
            }
            guard let star = starPattern else { return false }
            p = star + 1
            starSubject += 1
            s = starSubject
        }
        while p < elements.count, elements[p] == .anyRun { p += 1 }
        return p == elements.count
    }
}
