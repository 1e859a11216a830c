/// A format string that is not a valid predicate, or whose arguments do not
/// fit its format specifiers.
///
/// It tells what was expected, where (``offset`` counts characters from the
/// start of the format, from 0), and shows the place with a caret.
///
/// For example:
///
/// ```swift
/// do {
///     _ = try FetchPredicate(format: "priority 1")
/// } catch {
///     print(error)
///     // expected an operator after key path 'priority' at offset 9
///     //   priority 1
///     //            ^
/// }
/// ```
public struct PredicateParseError: Error, Sendable, Hashable {
    /// The kinds of problem.
    public enum Kind: Sendable, Hashable {
        /// The text is not in the grammar.
        case syntax
        /// A format specifier has no argument left.
        case missingArgument
        /// More arguments were given than the format has specifiers.
        case extraArguments
        /// An argument does not fit its specifier (`%K` needs a key path,
        /// `%d` an integer, …).
        case invalidArgument
        /// Parentheses, lists, `NOT`s or subqueries nest too deeply.
        case nestingTooDeep
    }

    /// What kind of problem it is.
    public var kind: Kind
    /// What was expected or found, without the position.
    public var message: String
    /// The offset of the problem, in characters from the start of ``format``.
    public var offset: Int
    /// The format string that failed.
    public var format: String

    /// Creates an error.
    public init(_ kind: Kind, _ message: String, offset: Int, format: String) {
        self.kind = kind
        self.message = message
        self.offset = offset
        self.format = format
    }

    /// The line of the format with the problem, and a caret under it.
    ///
    /// Long lines are cut around the offset; control characters show as
    /// spaces so the caret lines up.
    public var snippet: String {
        let characters = Array(format)
        let offset = Swift.min(Swift.max(self.offset, 0), characters.count)
        var lineStart = offset
        while lineStart > 0, !characters[lineStart - 1].isNewline { lineStart -= 1 }
        var lineEnd = offset
        while lineEnd < characters.count, !characters[lineEnd].isNewline { lineEnd += 1 }
        let column = offset - lineStart
        let window = 72
        var start = lineStart
        var end = lineEnd
        var prefix = ""
        var suffix = ""
        if column > window / 2, lineEnd - lineStart > window {
            start = offset - window / 2
            prefix = "…"
        }
        if end - start > window {
            end = start + window
            suffix = "…"
        }
        let line = characters[start..<end].map { character -> String in
            character.unicodeScalars.allSatisfy({ $0.properties.generalCategory == .control })
                ? " " : String(character)
        }.joined()
        let caretColumn = offset - start + prefix.count
        return "  " + prefix + line + suffix + "\n  " + String(repeating: " ", count: caretColumn) + "^"
    }
}

extension PredicateParseError: CustomStringConvertible {
    /// The message, the offset and the ``snippet``.
    public var description: String {
        "\(message) at offset \(offset)\n\(snippet)"
    }
}
