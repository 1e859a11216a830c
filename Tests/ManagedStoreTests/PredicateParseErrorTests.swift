import Foundation
import Testing
@testable import ManagedStore

@Suite("Malformed predicates fail with a position and what was expected")
struct PredicateParseErrorTests {
    struct Expectation: Sendable, CustomStringConvertible {
        var input: PredicateFormatCase
        var kind: PredicateParseError.Kind
        var offset: Int
        var message: String

        init(_ input: PredicateFormatCase, _ kind: PredicateParseError.Kind, at offset: Int, _ message: String) {
            self.input = input
            self.kind = kind
            self.offset = offset
            self.message = message
        }

        var description: String { input.description }
    }

    static let syntaxErrors: [Expectation] = [
        Expectation(PredicateFormatCase("priority 1"), .syntax, at: 9,
                    "expected an operator after key path 'priority'"),
        Expectation(PredicateFormatCase("priority"), .syntax, at: 8,
                    "expected an operator after key path 'priority'"),
        Expectation(PredicateFormatCase(""), .syntax, at: 0, "expected a predicate"),
        Expectation(PredicateFormatCase("   "), .syntax, at: 3, "expected a predicate"),
        Expectation(PredicateFormatCase("name == "), .syntax, at: 8, "expected a value after =="),
        Expectation(PredicateFormatCase("name == 'abc"), .syntax, at: 8, "unterminated string literal"),
        Expectation(PredicateFormatCase(#"name == "abc\""#), .syntax, at: 8, "unterminated string literal"),
        Expectation(PredicateFormatCase("(a == 1"), .syntax, at: 7, "expected ')' to close the '(' at offset 0"),
        Expectation(PredicateFormatCase("a == 1)"), .syntax, at: 6,
                    "expected AND, OR or the end of the predicate after 'a == 1'"),
        Expectation(PredicateFormatCase("a == 1 b == 2"), .syntax, at: 7,
                    "expected AND, OR or the end of the predicate after 'a == 1'"),
        Expectation(PredicateFormatCase("a == 1 AND"), .syntax, at: 10, "expected a predicate"),
        Expectation(PredicateFormatCase("a ==[x] 1"), .syntax, at: 5, "unknown comparison option 'x'; expected c, d or n"),
        Expectation(PredicateFormatCase("a LIKE[cx] 'b'"), .syntax, at: 8, "unknown comparison option 'x'; expected c, d or n"),
        Expectation(PredicateFormatCase("a ==[] 1"), .syntax, at: 5, "expected comparison options such as c, d or cd after '['"),
        Expectation(PredicateFormatCase("a ==[c 1"), .syntax, at: 7, "expected ']' after comparison options"),
        Expectation(PredicateFormatCase("a & b"), .syntax, at: 2, "unexpected character '&' (did you mean '&&'?)"),
        Expectation(PredicateFormatCase("a - 1 > 0"), .syntax, at: 2, "unexpected character '-' (arithmetic is not supported)"),
        Expectation(PredicateFormatCase("a == ;"), .syntax, at: 5, "unexpected character ';'"),
        Expectation(PredicateFormatCase("a == %q"), .syntax, at: 5,
                    "unknown format specifier '%q'; expected %@, %K, %d, %i, %ld, %f or %s"),
        Expectation(PredicateFormatCase("a.@foo > 1"), .syntax, at: 2,
                    "unknown collection operator '@foo'; expected @count, @sum, @avg, @min or @max"),
        Expectation(PredicateFormatCase("a.@count.b > 1"), .syntax, at: 8,
                    "expected an operator after 'a.@count'"),
        Expectation(PredicateFormatCase("a. == 1"), .syntax, at: 3, "expected a key after '.'"),
        Expectation(PredicateFormatCase("a BETWEEN 5"), .syntax, at: 10, "expected two bounds such as {1, 10} after BETWEEN"),
        Expectation(PredicateFormatCase("a BETWEEN {1, 2, 3}"), .syntax, at: 10, "expected two bounds such as {1, 10} after BETWEEN"),
        Expectation(PredicateFormatCase("AND == 1"), .syntax, at: 0,
                    "expected a predicate, found keyword 'AND' (write #AND for a key of that name)"),
        Expectation(PredicateFormatCase("ANY == 1"), .syntax, at: 4, "expected a key path after ANY"),
        Expectation(PredicateFormatCase("x == 99999999999999999999"), .syntax, at: 5,
                    "integer literal '99999999999999999999' does not fit in 64 bits"),
        Expectation(PredicateFormatCase("x == 0x"), .syntax, at: 7, "expected digits after '0x'"),
        Expectation(PredicateFormatCase("x == {1, 2"), .syntax, at: 10,
                    "expected ',' or '}' in the list that starts at offset 5"),
        Expectation(PredicateFormatCase("SUBQUERY(a, x, x == 1).@count > 0"), .syntax, at: 12,
                    "expected a variable such as $x as the second argument of SUBQUERY"),
        Expectation(PredicateFormatCase("SUBQUERY(a, $x, $x == 1 > 0"), .syntax, at: 24, "expected ')' to close SUBQUERY"),
        Expectation(PredicateFormatCase(#"x == CAST(1, "NSNumber")"#), .syntax, at: 13,
                    #"unsupported CAST type "NSNumber"; expected "NSDate", "NSUUID" or "NSData""#),
        Expectation(PredicateFormatCase(#"x == CAST("nope", "NSUUID")"#), .syntax, at: 10, "'nope' is not a UUID"),
        Expectation(PredicateFormatCase("x == $"), .syntax, at: 6, "expected a variable name after '$'"),
        Expectation(PredicateFormatCase("# == 1"), .syntax, at: 1, "expected a key after '#'"),
        // Offsets count characters: "é" written as e + U+0301 is one.
        Expectation(PredicateFormatCase("'e\u{301}' == x AND"), .syntax, at: 12, "expected a predicate"),
        Expectation(PredicateFormatCase("名前 == 1 名前"), .syntax, at: 8,
                    "expected AND, OR or the end of the predicate after '名前 == 1'"),
    ]

    static let argumentErrors: [Expectation] = [
        Expectation(PredicateFormatCase("a == %@"), .missingArgument, at: 5,
                    "missing argument for %@: the format needs at least 1 argument but 0 were given"),
        Expectation(PredicateFormatCase("a == %@ AND b == %@", 1), .missingArgument, at: 17,
                    "missing argument for %@: the format needs at least 2 arguments but 1 was given"),
        Expectation(PredicateFormatCase("a == 1", 1), .extraArguments, at: 6,
                    "the format uses 0 arguments but 1 was given"),
        Expectation(PredicateFormatCase("name == '%@'", "x"), .extraArguments, at: 12,
                    "the format uses 0 arguments but 1 was given"),
        Expectation(PredicateFormatCase("a == %@", 1, 2, 3), .extraArguments, at: 7,
                    "the format uses 1 argument but 3 were given"),
        Expectation(PredicateFormatCase("%K == 1", 5), .invalidArgument, at: 0,
                    "%K needs a key path, but argument 1 is an integer"),
        Expectation(PredicateFormatCase("%K == 1", "a..b"), .invalidArgument, at: 0,
                    "%K needs a key path without empty components, but argument 1 is a string"),
        Expectation(PredicateFormatCase("a == %d", "x"), .invalidArgument, at: 5,
                    "%d needs an integer, but argument 1 is a string"),
        Expectation(PredicateFormatCase("a == 1 AND b == %f", "x"), .invalidArgument, at: 16,
                    "%f needs a number, but argument 1 is a string"),
        Expectation(PredicateFormatCase("a == %s", 1), .invalidArgument, at: 5,
                    "%s needs a string, but argument 1 is an integer"),
        Expectation(PredicateFormatCase("a BETWEEN %@", 1), .syntax, at: 10,
                    "expected two bounds such as {1, 10} after BETWEEN"),
    ]

    @Test(arguments: syntaxErrors + argumentErrors)
    func error(_ expectation: Expectation) {
        guard let error = predicateParseError(expectation.input.format, arguments: expectation.input.arguments) else {
            Issue.record("parsed without an error")
            return
        }
        #expect(error.kind == expectation.kind)
        #expect(error.offset == expectation.offset)
        #expect(error.message == expectation.message)
        #expect(error.format == expectation.input.format)
    }

    @Test func descriptionShowsMessageOffsetAndCaret() {
        let error = predicateParseError("priority 1")
        #expect(error?.description == """
            expected an operator after key path 'priority' at offset 9
              priority 1
                       ^
            """)
    }

    @Test func snippetShowsTheLineOfTheErrorOnly() {
        let error = predicateParseError("a == 1 AND\n\tb ==")
        #expect(error?.offset == 16)
        #expect(error?.snippet == "   b ==\n       ^")
    }

    @Test func snippetCutsLongLinesAroundTheOffset() throws {
        let format = "name == 'x' AND " + String(repeating: "a == 1 AND ", count: 20) + "b ="
        let error = try #require(predicateParseError(format))
        #expect(error.offset == format.count)
        let lines = error.snippet.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 2)
        #expect(lines[0].hasPrefix("  …"))
        #expect(lines[0].count <= 80)
        #expect(lines[1].last == "^")
        #expect(lines[1].count == lines[0].count + 1)
    }

    @Test func nestingTooDeepIsAnErrorNotACrash() throws {
        let depth = PredicateParser.maximumDepth + 1
        let error = try #require(predicateParseError(String(repeating: "(", count: 10_000) + "a == 1"))
        #expect(error.kind == .nestingTooDeep)
        #expect(error.offset == depth - 1)
        let negations = try #require(predicateParseError(String(repeating: "!", count: 10_000) + "a == 1"))
        #expect(negations.kind == .nestingTooDeep)
        let lists = try #require(predicateParseError("a IN " + String(repeating: "{", count: 10_000)))
        #expect(lists.kind == .nestingTooDeep)
    }
}

/// The error a parse throws for an array of arguments, or nil.
private func predicateParseError(_ format: String, arguments: [PredicateArgument]) -> PredicateParseError? {
    do {
        _ = try FetchPredicate(format: format, arguments: arguments)
        return nil
    } catch {
        return error
    }
}
