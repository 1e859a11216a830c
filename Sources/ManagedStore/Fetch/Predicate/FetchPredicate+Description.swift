import Foundation

// Canonical format strings.
//
// `description` writes a predicate back in the format syntax, in one
// canonical spelling: keywords upper-case, `==`/`!=`/`<=`/`>=`, strings in
// double quotes, `YES`/`NO`, `nil`, `NOT ANY` for `NONE`, parentheses only
// around an `AND`/`OR` nested in another one or under `NOT`. Every tree the
// parser produces re-parses from its description to an equal tree.
//
// A few trees built in code have no spelling of their own and print as the
// nearest format: an empty `AND` as `TRUEPREDICATE`, an empty `OR` as
// `FALSEPREDICATE`, a one-element compound as its element, a key component
// that is not an identifier (possible through `%K`) verbatim, a NaN as
// `nan`; those do not round-trip.

extension FetchPredicate: CustomStringConvertible {
    /// The predicate as a canonical format string.
    ///
    /// For example:
    ///
    /// ```swift
    /// let p = try FetchPredicate(format: "name like[cd] 'ring*' && !(age < 18 or age > 65)")
    /// print(p)   // name LIKE[cd] "ring*" AND NOT (age < 18 OR age > 65)
    /// ```
    public var description: String {
        switch self {
        case .truePredicate:
            return "TRUEPREDICATE"
        case .falsePredicate:
            return "FALSEPREDICATE"
        case .comparison(let comparison):
            return comparison.description
        case .and(let operands):
            return Self.describe(operands, joinedBy: "AND", ifEmpty: "TRUEPREDICATE")
        case .or(let operands):
            return Self.describe(operands, joinedBy: "OR", ifEmpty: "FALSEPREDICATE")
        case .not(let operand):
            return "NOT " + operand.parenthesizedIfCompound
        }
    }

    private static func describe(_ operands: [FetchPredicate], joinedBy word: String, ifEmpty: String) -> String {
        switch operands.count {
        case 0: return ifEmpty
        case 1: return operands[0].description
        default: return operands.map(\.parenthesizedIfCompound).joined(separator: " \(word) ")
        }
    }

    private var parenthesizedIfCompound: String {
        switch self {
        case .and(let operands) where operands.count > 1, .or(let operands) where operands.count > 1:
            return "(\(description))"
        default:
            return description
        }
    }
}

extension PredicateComparison: CustomStringConvertible {
    /// The comparison as a format string: `ANY tags.name ==[c] "x"`.
    public var description: String {
        let modifier = self.modifier == .direct ? "" : self.modifier.rawValue + " "
        return "\(modifier)\(left) \(op)\(options.formatSuffix) \(right)"
    }
}

extension ComparisonOptions {
    /// `[c]`, `[cd]`, …, or nothing.
    var formatSuffix: String {
        var flags = ""
        if contains(.caseInsensitive) { flags += "c" }
        if contains(.diacriticInsensitive) { flags += "d" }
        if contains(.normalized) { flags += "n" }
        return flags.isEmpty ? "" : "[\(flags)]"
    }
}

extension FetchExpression: CustomStringConvertible {
    /// The expression as a format string: `employees.@sum.salary`, `{1, $x}`.
    public var description: String {
        switch self {
        case .constant(let constant):
            return constant.description
        case .evaluatedObject:
            return "SELF"
        case .keyPath(let components):
            return components.isEmpty ? "SELF" : components.map(Self.formatKey).joined(separator: ".")
        case .variable(let name, let keyPath):
            return (["$" + name] + keyPath.map(Self.formatKey)).joined(separator: ".")
        case .aggregate(let elements):
            return "{" + elements.map(\.description).joined(separator: ", ") + "}"
        case .collectionOperator(let op, let base, let keyPath):
            return ([base.description, "@" + op.rawValue] + keyPath.map(Self.formatKey)).joined(separator: ".")
        case .subquery(let collection, let variable, let predicate):
            return "SUBQUERY(\(collection), $\(variable), \(predicate))"
        case .now:
            return "now()"
        }
    }

    /// A key as written: `#` before a reserved word, verbatim otherwise.
    static func formatKey(_ key: String) -> String {
        PredicateLexer.isReserved(key) ? "#" + key : key
    }
}

extension PredicateConstant: CustomStringConvertible {
    /// The constant as a literal: `nil`, `YES`, `42`, `2.5`, `"text"`,
    /// `{1, 2}`, `CAST(725846400.0, "NSDate")`, `CAST("…", "NSUUID")`,
    /// `CAST("<base64>", "NSData")`.
    public var description: String {
        switch self {
        case .null:
            return "nil"
        case .bool(let flag):
            return flag ? "YES" : "NO"
        case .int(let integer):
            return String(integer)
        case .double(let number):
            return Self.formatNumber(number)
        case .string(let string):
            return Self.quote(string)
        case .date(let date):
            return "CAST(\(Self.formatNumber(date.timeIntervalSinceReferenceDate)), \"NSDate\")"
        case .data(let data):
            return "CAST(\(Self.quote(data.base64EncodedString())), \"NSData\")"
        case .uuid(let uuid):
            return "CAST(\(Self.quote(uuid.uuidString)), \"NSUUID\")"
        case .array(let elements):
            return "{" + elements.map(\.description).joined(separator: ", ") + "}"
        }
    }

    /// A double that lexes back to itself; infinities overflow on purpose.
    static func formatNumber(_ number: Double) -> String {
        if number.isNaN { return "nan" }
        if number.isInfinite { return number < 0 ? "-1e999" : "1e999" }
        return "\(number)"
    }

    /// A double-quoted string literal with `\\`, `\"`, `\n`, `\r`, `\t` and
    /// `\uXXXX` escapes for the other control characters.
    static func quote(_ string: String) -> String {
        var quoted = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\\": quoted += "\\\\"
            case "\"": quoted += "\\\""
            case "\n": quoted += "\\n"
            case "\r": quoted += "\\r"
            case "\t": quoted += "\\t"
            default:
                if scalar.properties.generalCategory == .control {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    quoted += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
                } else {
                    quoted.unicodeScalars.append(scalar)
                }
            }
        }
        return quoted + "\""
    }
}
