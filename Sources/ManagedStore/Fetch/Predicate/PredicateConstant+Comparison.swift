import Foundation

// Equality and ordering of constants for in-memory evaluation; see
// `FetchPredicate+Evaluation.swift` for the rules.

extension PredicateConstant {
    /// A number, for comparisons across integers, doubles, Booleans and dates.
    private enum Number {
        case integer(Int64)
        case double(Double)
    }

    private var number: Number? {
        switch self {
        case .int(let value): return .integer(value)
        case .bool(let flag): return .integer(flag ? 1 : 0)
        case .double(let value): return .double(value)
        case .date(let date): return .double(date.timeIntervalSinceReferenceDate)
        default: return nil
        }
    }

    private var isDate: Bool {
        if case .date = self { return true }
        return false
    }

    private var isBool: Bool {
        if case .bool = self { return true }
        return false
    }

    /// Whether two constants are equal under `options`.
    static func equal(_ lhs: PredicateConstant, _ rhs: PredicateConstant, options: ComparisonOptions) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null):
            return true
        case (.null, _), (_, .null):
            return false
        case (.string(let left), .string(let right)):
            // Without modifiers, bytes, as SQLite's BINARY `=` compares (Swift's `==` would also match
            // canonically equivalent spellings, which SQL does not).
            if options.stringOptions.isEmpty { return left.utf8.elementsEqual(right.utf8) }
            return fold(left, options) == fold(right, options)
        case (.data(let left), .data(let right)):
            return left == right
        case (.uuid(let left), .uuid(let right)):
            return left == right
        case (.array(let left), .array(let right)):
            return left.count == right.count
                && zip(left, right).allSatisfy { equal($0, $1, options: options) }
        default:
            return order(lhs, rhs, options: options) == .orderedSame
        }
    }

    /// How two constants order under `options`, or nil when they do not.
    static func order(_ lhs: PredicateConstant, _ rhs: PredicateConstant, options: ComparisonOptions) -> ComparisonResult? {
        if case .string(let left) = lhs, case .string(let right) = rhs {
            if options.stringOptions.isEmpty {
                // UTF-8 byte order is code-point order: SQLite's BINARY collation.
                if left.utf8.elementsEqual(right.utf8) { return .orderedSame }
                return left.utf8.lexicographicallyPrecedes(right.utf8) ? .orderedAscending : .orderedDescending
            }
            // Folded, canonically decomposed scalars: the order of the sort collations (`[c]` sorts
            // as `<[c]` compares), equal exactly when the folded strings are (canonical equivalence).
            let (left, right) = (collationKey(left, options), collationKey(right, options))
            if left == right { return .orderedSame }
            return left.lexicographicallyPrecedes(right) ? .orderedAscending : .orderedDescending
        }
        // A date against a Boolean means nothing.
        if (lhs.isDate && rhs.isBool) || (lhs.isBool && rhs.isDate) { return nil }
        guard let left = lhs.number, let right = rhs.number else { return nil }
        switch (left, right) {
        case (.integer(let a), .integer(let b)):
            return a < b ? .orderedAscending : a > b ? .orderedDescending : .orderedSame
        case (.double(let a), .double(let b)):
            if a.isNaN || b.isNaN { return nil }
            return a < b ? .orderedAscending : a > b ? .orderedDescending : .orderedSame
        case (.integer(let a), .double(let b)):
            return compare(a, b)
        case (.double(let a), .integer(let b)):
            return compare(b, a).map(\.reversed)
        }
    }

    /// Compares an integer with a double exactly, without rounding the integer.
    private static func compare(_ integer: Int64, _ double: Double) -> ComparisonResult? {
        if double.isNaN { return nil }
        if double >= 9_223_372_036_854_775_808.0 { return .orderedAscending }
        if double < -9_223_372_036_854_775_808.0 { return .orderedDescending }
        let floor = double.rounded(.down)
        let whole = Int64(floor)
        if integer < whole { return .orderedAscending }
        if integer > whole { return .orderedDescending }
        return double > floor ? .orderedAscending : .orderedSame
    }

    /// What `<`, `>`… with `[c]`/`[d]` and the matching sort collations compare: the string
    /// folded, in canonical decomposition (NFD), as scalar values. Canonically equivalent
    /// spellings have the same key; keys order as Foundation's non-literal comparison does.
    ///
    /// For example, `collationKey("ZOË", .caseInsensitive)` is the scalars of `"zoe\u{308}"`.
    static func collationKey(_ string: String, _ options: ComparisonOptions) -> [UInt32] {
        fold(string, options).decomposedStringWithCanonicalMapping.unicodeScalars.map(\.value)
    }

    /// A string folded for `[c]` and `[d]`; unchanged without them.
    static func fold(_ string: String, _ options: ComparisonOptions) -> String {
        var foldings: String.CompareOptions = []
        if options.contains(.caseInsensitive) { foldings.insert(.caseInsensitive) }
        if options.contains(.diacriticInsensitive) { foldings.insert(.diacriticInsensitive) }
        return foldings.isEmpty ? string : string.folding(options: foldings, locale: nil)
    }
}

extension ComparisonResult {
    fileprivate var reversed: ComparisonResult {
        switch self {
        case .orderedAscending: return .orderedDescending
        case .orderedDescending: return .orderedAscending
        case .orderedSame: return .orderedSame
        }
    }
}
