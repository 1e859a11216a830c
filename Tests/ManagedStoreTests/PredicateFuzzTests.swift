import Foundation
import PropertyBased
import Testing
@testable import ManagedStore

@Suite("Predicate parsing never crashes and descriptions round-trip")
struct PredicateFuzzTests {
    /// A format and arguments made up by a generator.
    struct Input: Sendable, CustomStringConvertible {
        var format: String
        var arguments: [PredicateArgument]
        var description: String { "\(format.debugDescription) \(arguments)" }
    }

    /// Parses; on success the tree must survive describe-and-parse and
    /// evaluate without trapping, on failure the error must point inside
    /// the format.
    private static func check(_ input: Input) {
        do {
            let predicate = try FetchPredicate(format: input.format, arguments: input.arguments)
            // A %K key that is not an identifier has no spelling of its own.
            if predicate.keysAreIdentifiers {
                expectPredicateRoundTrip(predicate)
            }
            _ = try? predicate.evaluate(with: PredicateEvaluationTests.ringo)
        } catch {
            #expect((0...input.format.count).contains(error.offset), "\(error)")
            #expect(error.description.contains(" at offset \(error.offset)\n"))
        }
    }

    @Test func randomUnicodeNeverCrashesTheParser() async {
        let strings = Generator<Input, Shrink.None<Input>> { rng in
            Input(format: PredicateFuzzText.randomText(&rng), arguments: PredicateFuzzText.randomArguments(&rng))
        }
        await propertyCheck(count: 400, input: strings) { input in
            Self.check(input)
        }
    }

    @Test func grammarTokenSoupNeverCrashesTheParser() async {
        let soups = Generator<Input, Shrink.None<Input>> { rng in
            Input(format: PredicateFuzzText.tokenSoup(&rng), arguments: PredicateFuzzText.randomArguments(&rng))
        }
        await propertyCheck(count: 500, input: soups) { input in
            Self.check(input)
        }
    }

    @Test func grammaticalAndMutatedFormatsNeverCrashTheParser() async {
        let formats = Generator<Input, Shrink.None<Input>> { rng in
            var text = PredicateGrammaticalFormat()
            text.predicate(&rng, depth: 3)
            if Int.random(in: 0..<3, using: &rng) == 0 { text.mutate(&rng) }
            return Input(format: text.format(&rng), arguments: text.arguments)
        }
        await propertyCheck(count: 1500, input: formats) { input in
            Self.check(input)
        }
    }

    @Test func generatedTreesRoundTripThroughTheirDescription() async {
        let trees = Generator<FetchPredicate, Shrink.None<FetchPredicate>> { rng in
            var generator = PredicateTreeGenerator()
            return generator.predicate(&rng, depth: 3)
        }
        await propertyCheck(count: 400, input: trees) { predicate in
            expectPredicateRoundTrip(predicate)
        }
    }

    @Test func knownTrickyInputs() {
        let inputs = [
            "'\u{301}' == x", "\"\u{301}\"", "x == \"\\", "x == '\\u{110000}'", "x == '\\uD800'",
            "x == 0b", "x == 0x8000000000000000", "x == -0x8000000000000000", "x == 1e99999",
            "x == 1.e5", "x.@count.@count == 1", "@", "$", "#", "%", "%l", "%lll", "x == %@%@",
            "SUBQUERY(", "SUBQUERY(a, $x, ", "CAST(", "{", "}", "[", "[c]", "x ==[", "\u{0}", "\r\n",
            String(repeating: "a.", count: 5000) + "b == 1", String(repeating: "x == 1 AND ", count: 2000) + "y == 2",
        ]
        for format in inputs {
            Self.check(Input(format: format, arguments: []))
        }
    }
}

/// Expects a predicate's description to parse back to the same tree.
func expectPredicateRoundTrip(_ predicate: FetchPredicate, sourceLocation: SourceLocation = #_sourceLocation) {
    let description = predicate.description
    do {
        let reparsed = try FetchPredicate(format: description)
        #expect(reparsed == predicate, "\(description)", sourceLocation: sourceLocation)
    } catch {
        Issue.record("\(description) does not parse: \(error)", sourceLocation: sourceLocation)
    }
}

extension FetchPredicate {
    /// Whether every key in the tree is an identifier, so that the
    /// description spells it.
    var keysAreIdentifiers: Bool {
        switch self {
        case .truePredicate, .falsePredicate: return true
        case .comparison(let comparison): return comparison.left.keysAreIdentifiers && comparison.right.keysAreIdentifiers
        case .and(let operands), .or(let operands): return operands.allSatisfy(\.keysAreIdentifiers)
        case .not(let operand): return operand.keysAreIdentifiers
        }
    }
}

extension FetchExpression {
    var keysAreIdentifiers: Bool {
        switch self {
        case .constant, .evaluatedObject, .now: return true
        case .keyPath(let keys): return keys.allSatisfy(PredicateLexer.isIdentifier)
        case .variable(let name, let keys): return PredicateLexer.isIdentifier(name) && keys.allSatisfy(PredicateLexer.isIdentifier)
        case .aggregate(let elements): return elements.allSatisfy(\.keysAreIdentifiers)
        case .collectionOperator(_, let base, let keys):
            return base.keysAreIdentifiers && keys.allSatisfy(PredicateLexer.isIdentifier)
        case .subquery(let collection, let variable, let predicate):
            return collection.keysAreIdentifiers && PredicateLexer.isIdentifier(variable) && predicate.keysAreIdentifiers
        }
    }
}

/// Random format text for the fuzz tests.
enum PredicateFuzzText {
    /// A `%K` argument that must stay one key path component.
    static let sqlLookingKey = "x; DROP TABLE t"

    static let tokens: [String] = [
        "name", "a.b", "tags", "SELF", "self", "ANY", "ALL", "NONE", "SOME", "NOT", "!", "AND", "&&", "OR",
        "||", "(", ")", "{", "}", ",", ".", "==", "=", "!=", "<>", "<", "<=", "=<", ">", ">=", "=>",
        "BETWEEN", "IN", "LIKE", "MATCHES", "CONTAINS", "BEGINSWITH", "ENDSWITH", "[c]", "[cd]", "[n]",
        "[", "]", "'str'", "\"q\\\"\"", "'a*b?'", "'(['", "'unterminated", "1", "-2", "3.5", "0x1F", "1e3",
        "YES", "NO", "nil", "NULL", "TRUE", "TRUEPREDICATE", "FALSEPREDICATE", "%@", "%K", "%d", "%f", "%s",
        "%ld", "'%@'", "$VAR", "$x", "$x.y", "#IN", "#size", "@count", ".@count", ".@sum.x", "@avg",
        "SUBQUERY(", "SUBQUERY(tags, $x, $x.v == 1)", "CAST(", "CAST(0, 'NSDate')", "\"NSDate\"", "é",
        "\u{301}", "😀", "\\", "%", "#", "$", "@", "-", "&", "|", ";", "name == 'x'", "age BETWEEN {1, 2}",
    ]

    static func tokenSoup(_ rng: inout some RandomNumberGenerator) -> String {
        let count = Int.random(in: 0...14, using: &rng)
        let separator = Bool.random(using: &rng) ? " " : ""
        return (0..<count).map { _ in tokens.randomElement(using: &rng)! }.joined(separator: separator)
    }

    static func randomText(_ rng: inout some RandomNumberGenerator) -> String {
        let count = Int.random(in: 0...40, using: &rng)
        var text = String.UnicodeScalarView()
        for _ in 0..<count {
            let value: UInt32
            switch Int.random(in: 0..<10, using: &rng) {
            case 0..<4: value = UInt32.random(in: 0x20...0x7E, using: &rng)
            case 4: value = UInt32.random(in: 0...0x1F, using: &rng)
            case 5: value = UInt32.random(in: 0x300...0x36F, using: &rng)  // combining marks
            case 6: value = UInt32.random(in: 0x80...0xD7FF, using: &rng)
            case 7: value = UInt32.random(in: 0xE000...0xFFFF, using: &rng)
            case 8: value = UInt32.random(in: 0x10000...0x10FFFF, using: &rng)
            default: value = "()'\"{}[]%$#@.,=!<>&|\\ *?".unicodeScalars.randomElement(using: &rng)!.value
            }
            if let scalar = Unicode.Scalar(value) { text.append(scalar) }
        }
        return String(text)
    }

    static let argumentPool: [PredicateArgument] = [
        1, "name", .keyPath("a.b"), [1, 2], nil, 2.5, true, "x'; DROP TABLE t; --",
        .date(Date(timeIntervalSinceReferenceDate: 3)),
    ]

    static func randomArguments(_ rng: inout some RandomNumberGenerator) -> [PredicateArgument] {
        (0..<Int.random(in: 0...3, using: &rng)).map { _ in argumentPool.randomElement(using: &rng)! }
    }
}

/// Random predicate trees in the canonical shape the parser produces:
/// compounds of two or more, lists with a non-constant element, keys that
/// are identifiers, no NaN.
struct PredicateTreeGenerator {
    static let keys = [
        "name", "age", "department", "firstName", "x", "_private", "prénom", "名前", "size", "first",
        "IN", "self", "SELF", "and", "Any", "nil", "yes", "cast", "subquery", "truepredicate",
    ]
    static let strings = [
        "", "Ringo", "it's", "say \"hi\"", "back\\slash", "tab\tnew\nline\r", "\u{0}\u{7}\u{1F}\u{7F}",
        "\u{301}starts with a mark", "Zoë", "😀 emoji", "%@", "%K", "$VAR", "a*b?c", "\\d+", "{1, 2}",
        "#IN", "'single'", "\u{2028}\u{FEFF}",
    ]

    mutating func predicate(_ rng: inout some RandomNumberGenerator, depth: Int) -> FetchPredicate {
        let choice = depth <= 0 ? Int.random(in: 0..<4, using: &rng) : Int.random(in: 0..<8, using: &rng)
        switch choice {
        case 0: return .truePredicate
        case 1: return .falsePredicate
        case 2, 3: return comparison(&rng, depth: depth)
        case 4: return .and(operands(&rng, depth: depth - 1))
        case 5: return .or(operands(&rng, depth: depth - 1))
        case 6: return .not(predicate(&rng, depth: depth - 1))
        default: return comparison(&rng, depth: depth)
        }
    }

    private mutating func operands(_ rng: inout some RandomNumberGenerator, depth: Int) -> [FetchPredicate] {
        (0..<Int.random(in: 2...4, using: &rng)).map { _ in predicate(&rng, depth: depth) }
    }

    private mutating func comparison(_ rng: inout some RandomNumberGenerator, depth: Int) -> FetchPredicate {
        let op = ComparisonOperator.allCases.randomElement(using: &rng)!
        let modifier = ComparisonModifier.allCases.randomElement(using: &rng)!
        let options = ComparisonOptions(rawValue: UInt8.random(in: 0...7, using: &rng))
        let left = expression(&rng, depth: depth - 1)
        let right: FetchExpression
        if op == .between {
            switch Int.random(in: 0..<3, using: &rng) {
            case 0: right = .constant(.array([constant(&rng, depth: 0), constant(&rng, depth: 0)]))
            case 1: right = .aggregate([keyPath(&rng), expression(&rng, depth: 0)])
            default: right = .variable(Self.keys.randomElement(using: &rng)!)
            }
        } else {
            right = expression(&rng, depth: depth - 1)
        }
        return .compare(left, op, right, options: options, modifier: modifier)
    }

    private func keyPath(_ rng: inout some RandomNumberGenerator) -> FetchExpression {
        .keyPath(keys(&rng, count: 1...3))
    }

    private func keys(_ rng: inout some RandomNumberGenerator, count: ClosedRange<Int>) -> [String] {
        (0..<Int.random(in: count, using: &rng)).map { _ in Self.keys.randomElement(using: &rng)! }
    }

    mutating func expression(_ rng: inout some RandomNumberGenerator, depth: Int) -> FetchExpression {
        switch Int.random(in: 0..<(depth <= 0 ? 4 : 7), using: &rng) {
        case 0: return .constant(constant(&rng, depth: 1))
        case 1: return keyPath(&rng)
        case 2: return .evaluatedObject
        case 3: return .variable(Self.keys.randomElement(using: &rng)!, keyPath: keys(&rng, count: 0...2))
        case 4:
            var elements = (0..<Int.random(in: 0...3, using: &rng)).map { _ in expression(&rng, depth: depth - 1) }
            elements.insert(keyPath(&rng), at: Int.random(in: 0...elements.count, using: &rng))
            return .aggregate(elements)
        case 5:
            let op = PredicateCollectionOperator.allCases.randomElement(using: &rng)!
            let base: FetchExpression
            switch Int.random(in: 0..<5, using: &rng) {
            case 0: base = .evaluatedObject
            case 1: base = .constant(constant(&rng, depth: 1))
            case 2: base = .variable(Self.keys.randomElement(using: &rng)!)
            case 3: base = subquery(&rng, depth: depth - 1)
            default: base = keyPath(&rng)
            }
            return .collectionOperator(op, of: base, keyPath: op == .count ? [] : keys(&rng, count: 0...2))
        default:
            return subquery(&rng, depth: depth - 1)
        }
    }

    private mutating func subquery(_ rng: inout some RandomNumberGenerator, depth: Int) -> FetchExpression {
        .subquery(
            collection: keyPath(&rng), variable: Self.keys.randomElement(using: &rng)!,
            predicate: predicate(&rng, depth: depth))
    }

    func constant(_ rng: inout some RandomNumberGenerator, depth: Int) -> PredicateConstant {
        switch Int.random(in: 0..<(depth <= 0 ? 9 : 10), using: &rng) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &rng))
        case 2:
            return .int([Int64.min, Int64.max, 0, -1, Int64.random(in: .min ... .max, using: &rng)]
                .randomElement(using: &rng)!)
        case 3: return .double(double(&rng))
        case 4, 5: return .string(Self.strings.randomElement(using: &rng)!)
        case 6: return .date(Date(timeIntervalSinceReferenceDate: double(&rng)))
        case 7:
            let hex = String(UInt64.random(in: .min ... .max, using: &rng), radix: 16) + String(repeating: "0", count: 32)
            let digits = Array(hex.prefix(32))
            let text = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(digits[$0]) }.joined(separator: "-")
            return .uuid(UUID(uuidString: text)!)
        case 8: return .data(Data((0..<Int.random(in: 0...6, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }))
        default: return .array((0..<Int.random(in: 0...3, using: &rng)).map { _ in constant(&rng, depth: depth - 1) })
        }
    }

    /// Any double but NaN, often an awkward one.
    private func double(_ rng: inout some RandomNumberGenerator) -> Double {
        switch Int.random(in: 0..<4, using: &rng) {
        case 0: return [0.0, -0.0, 0.1, 1e300, -1e-300, .leastNonzeroMagnitude, .infinity, -.infinity, 1e16].randomElement(using: &rng)!
        case 1: return Double.random(in: -1000...1000, using: &rng)
        default:
            let value = Double(bitPattern: UInt64.random(in: .min ... .max, using: &rng))
            return value.isNaN ? 1.5 : value
        }
    }
}

/// Random formats written from the grammar, in its many spellings, with
/// matching arguments; optionally mutated token by token.
struct PredicateGrammaticalFormat {
    var tokens: [String] = []
    var arguments: [PredicateArgument] = []

    static let keys = ["name", "age", "a.b", "department.name", "#IN", "tags", "_x", "prénom", "size"]
    static let literals = [
        "1", "-2", "3.5", "-0.5", "0x1F", "0b11", "1e3", "2.5E-2", "'text'", "\"text\"", "'it\\'s'", "\"a\\\"b\"",
        "'%@'", "'tab\\t'", "'\\u00e9'", "'a*b?'", "YES", "no", "TRUE", "false", "nil", "NULL", "'Zoë'",
        "CAST(0, \"NSDate\")", "CAST(-1.5, 'NSDate')", "{}", "{1, 2}", "{'a', nil, 2.5}",
    ]
    static let operators = [
        "==", "=", "!=", "<>", "<", "<=", "=<", ">", ">=", "=>", "LIKE", "like", "MATCHES", "CONTAINS",
        "contains", "BEGINSWITH", "ENDSWITH", "endswith", "IN", "in",
    ]

    mutating func predicate(_ rng: inout some RandomNumberGenerator, depth: Int) {
        switch Int.random(in: 0..<(depth <= 0 ? 3 : 8), using: &rng) {
        case 0: tokens.append(["TRUEPREDICATE", "truepredicate", "FALSEPREDICATE"].randomElement(using: &rng)!)
        case 1, 2, 3: comparison(&rng, depth: depth)
        case 4, 5:
            predicate(&rng, depth: depth - 1)
            for _ in 0..<Int.random(in: 1...2, using: &rng) {
                tokens.append(["AND", "and", "&&", "OR", "or", "||"].randomElement(using: &rng)!)
                predicate(&rng, depth: depth - 1)
            }
        case 6:
            tokens.append(["NOT", "not", "!"].randomElement(using: &rng)!)
            predicate(&rng, depth: depth - 1)
        default:
            tokens.append("(")
            predicate(&rng, depth: depth - 1)
            tokens.append(")")
        }
    }

    mutating func comparison(_ rng: inout some RandomNumberGenerator, depth: Int) {
        if Int.random(in: 0..<4, using: &rng) == 0 {
            tokens.append(["ANY", "any", "SOME", "ALL", "NONE"].randomElement(using: &rng)!)
        }
        expression(&rng, depth: depth - 1)
        if Int.random(in: 0..<6, using: &rng) == 0 {
            tokens.append(["BETWEEN", "between"].randomElement(using: &rng)!)
            if Bool.random(using: &rng) {
                tokens += ["{", Self.literals.randomElement(using: &rng)!, ",", Self.keys.randomElement(using: &rng)!, "}"]
            } else {
                tokens.append("%@")
                arguments.append(PredicateArgument.array([1, 5]))
            }
            return
        }
        tokens.append(Self.operators.randomElement(using: &rng)!)
        if Int.random(in: 0..<3, using: &rng) == 0 {
            tokens.append(["[c]", "[d]", "[cd]", "[CD]", "[n]"].randomElement(using: &rng)!)
        }
        expression(&rng, depth: depth - 1)
    }

    mutating func expression(_ rng: inout some RandomNumberGenerator, depth: Int) {
        switch Int.random(in: 0..<(depth <= 0 ? 9 : 12), using: &rng) {
        case 0, 1: tokens.append(Self.keys.randomElement(using: &rng)!)
        case 2, 3: tokens.append(Self.literals.randomElement(using: &rng)!)
        case 4: tokens.append(["SELF", "self", "$VAR", "$x.name"].randomElement(using: &rng)!)
        case 5:
            tokens.append("%@")
            arguments.append(PredicateFuzzText.argumentPool.randomElement(using: &rng)!)
        case 6:
            tokens.append("%K")
            arguments.append([.keyPath("a.b"), "name", "SELF", .string(PredicateFuzzText.sqlLookingKey)].randomElement(using: &rng)!)
        case 7:
            let (specifier, argument): (String, PredicateArgument) =
                [("%d", 3), ("%ld", -4), ("%i", 5), ("%f", 2.5), ("%s", "s")].randomElement(using: &rng)!
            tokens.append(specifier)
            arguments.append(argument)
        case 8:
            tokens.append(Self.keys.randomElement(using: &rng)! + [".@count", ".@sum.x", ".@avg.y", ".@min", ".@max"].randomElement(using: &rng)!)
        case 9:
            tokens += ["SUBQUERY", "(", Self.keys.randomElement(using: &rng)!, ",", "$x", ","]
            predicate(&rng, depth: depth - 1)
            tokens += [")", ".@count"]
        default:
            tokens.append("{")
            expression(&rng, depth: depth - 1)
            tokens.append(",")
            expression(&rng, depth: depth - 1)
            tokens.append("}")
        }
    }

    /// Deletes, inserts, duplicates or swaps a few tokens or arguments.
    mutating func mutate(_ rng: inout some RandomNumberGenerator) {
        for _ in 0..<Int.random(in: 1...3, using: &rng) {
            let index = Int.random(in: 0..<Swift.max(tokens.count, 1), using: &rng)
            switch Int.random(in: 0..<6, using: &rng) {
            case 0 where !tokens.isEmpty: tokens.remove(at: index)
            case 1: tokens.insert(PredicateFuzzText.tokens.randomElement(using: &rng)!, at: Swift.min(index, tokens.count))
            case 2 where !tokens.isEmpty: tokens.insert(tokens[index], at: index)
            case 3 where index + 1 < tokens.count: tokens.swapAt(index, index + 1)
            case 4 where !arguments.isEmpty: arguments.removeLast()
            default: arguments.append(PredicateFuzzText.argumentPool.randomElement(using: &rng)!)
            }
        }
    }

    /// The tokens joined by random white space (sometimes none).
    func format(_ rng: inout some RandomNumberGenerator) -> String {
        var text = ""
        for token in tokens {
            if !text.isEmpty { text += [" ", " ", " ", "", "  ", "\n\t"].randomElement(using: &rng)! }
            text += token
        }
        return text
    }
}
