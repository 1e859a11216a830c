import Foundation

/// One comparison, ready to apply to left-hand values: the right side is
/// evaluated once, its string folded, its LIKE pattern or regular
/// expression compiled.
///
/// Without `[c]` or `[d]`, strings compare by UTF-8 bytes (``PredicateBytes``), as SQLite's
/// `BINARY` does; with them, the folded strings compare as characters.
///
/// For example:
///
/// ```swift
/// let test = try PredicateComparisonTest(.contains, [.caseInsensitive, .diacriticInsensitive], "zoe")
/// test.matches("Zoë")   // true
/// ```
struct PredicateComparisonTest {
    private let op: ComparisonOperator
    private let options: ComparisonOptions
    private let right: PredicateConstant
    private let foldedRight: String?
    private let likePattern: PredicateLikePattern?
    private let regularExpression: NSRegularExpression?
    private let bounds: (lower: PredicateConstant, upper: PredicateConstant)?

    init(_ op: ComparisonOperator, _ options: ComparisonOptions, _ right: PredicateConstant) throws {
        // `[n]` changes nothing: `==[n]` compares bytes, as `==` does.
        let options = options.stringOptions
        self.op = op
        self.options = options
        self.right = right
        var foldedRight: String?
        var likePattern: PredicateLikePattern?
        var regularExpression: NSRegularExpression?
        var bounds: (PredicateConstant, PredicateConstant)?
        switch (op, right) {
        case (.like, .string(let pattern)):
            likePattern = PredicateLikePattern(pattern, options: options)
        case (.matches, .string(let pattern)):
            regularExpression = try Self.regularExpression(pattern, options: options)
        case (.between, .array(let elements)) where elements.count == 2:
            bounds = (elements[0], elements[1])
        case (.between, _):
            throw PredicateEvaluationError.invalidOperand("BETWEEN needs two bounds such as {1, 10}, but got \(right)")
        case (.in, .array), (.in, .null):
            break
        case (.in, .string):
            throw PredicateEvaluationError.invalidOperand("""
                IN needs a collection on the right: a list such as {1, 2}, an array argument (IN %@) or a \
                to-many key path, but got the single value \(right); use == to compare with one value, or, \
                when the left side is text, CONTAINS with the text on its left (\(right) CONTAINS …) to test \
                for a part of it (CONTAINS needs text on both sides; for numbers, list them: IN {1, 2})
                """)
        case (.in, _):
            throw PredicateEvaluationError.invalidOperand("""
                IN needs a collection on the right: a list such as {1, 2}, an array argument (IN %@) or a \
                to-many key path, but got the single value \(right); use == to compare with one value
                """)
        case (_, .string(let string)):
            foldedRight = PredicateConstant.fold(string, options)
        default:
            break
        }
        self.foldedRight = foldedRight
        self.likePattern = likePattern
        self.regularExpression = regularExpression
        self.bounds = bounds
    }

    /// Compiles a MATCHES pattern to match whole strings.
    private static func regularExpression(_ pattern: String, options: ComparisonOptions) throws -> NSRegularExpression {
        var regexOptions: NSRegularExpression.Options = []
        if options.contains(.caseInsensitive) { regexOptions.insert(.caseInsensitive) }
        let folded = PredicateConstant.fold(pattern, options.intersection(.diacriticInsensitive))
        do {
            return try NSRegularExpression(pattern: "^(?:" + folded + ")\\z", options: regexOptions)
        } catch {
            throw PredicateEvaluationError.invalidRegularExpression(pattern)
        }
    }

    /// Whether a left-hand value satisfies the comparison.
    func matches(_ left: PredicateConstant) -> Bool {
        switch op {
        case .equalTo:
            return PredicateConstant.equal(left, right, options: options)
        case .notEqualTo:
            return !PredicateConstant.equal(left, right, options: options)
        case .lessThan:
            return PredicateConstant.order(left, right, options: options) == .orderedAscending
        case .lessThanOrEqualTo:
            let order = PredicateConstant.order(left, right, options: options)
            return order == .orderedAscending || order == .orderedSame
        case .greaterThan:
            return PredicateConstant.order(left, right, options: options) == .orderedDescending
        case .greaterThanOrEqualTo:
            let order = PredicateConstant.order(left, right, options: options)
            return order == .orderedDescending || order == .orderedSame
        case .between:
            guard let bounds else { return false }
            let lower = PredicateConstant.order(left, bounds.lower, options: options)
            let upper = PredicateConstant.order(left, bounds.upper, options: options)
            return (lower == .orderedDescending || lower == .orderedSame)
                && (upper == .orderedAscending || upper == .orderedSame)
        case .like:
            guard case .string(let string) = left, let likePattern else { return false }
            return likePattern.matches(string)
        case .matches:
            guard case .string(let string) = left, let regularExpression else { return false }
            let subject = PredicateConstant.fold(string, options.intersection(.diacriticInsensitive))
            let range = NSRange(location: 0, length: subject.utf16.count)
            return regularExpression.firstMatch(in: subject, options: [], range: range) != nil
        case .beginsWith, .endsWith:
            // Empty text begins and ends nothing, as `hasPrefix("")` in Foundation.
            guard case .string(let string) = left, let foldedRight, !foldedRight.isEmpty else { return false }
            if options.isEmpty { return PredicateBytes.test(op, string, foldedRight) ?? false }
            let subject = PredicateConstant.fold(string, options)
            return op == .beginsWith ? subject.hasPrefix(foldedRight) : subject.hasSuffix(foldedRight)
        case .contains:
            if case .array(let elements) = left {
                return elements.contains { PredicateConstant.equal($0, right, options: options) }
            }
            // Empty text is part of nothing, as `range(of: "")` finds nothing in Foundation.
            guard case .string(let string) = left, let foldedRight, !foldedRight.isEmpty else { return false }
            if options.isEmpty { return PredicateBytes.test(op, string, foldedRight) ?? false }
            return Self.string(PredicateConstant.fold(string, options), contains: foldedRight)
        case .in:
            guard case .array(let elements) = right else { return false }
            return elements.contains { PredicateConstant.equal(left, $0, options: options) }
        }
    }

    /// Whether `haystack` holds `needle` as a run of whole characters (for
    /// folded strings); an empty needle is never found.
    private static func string(_ haystack: String, contains needle: String) -> Bool {
        !needle.isEmpty && haystack.firstRange(of: needle) != nil
    }
}
