import Foundation

// Comparisons of an attribute with a constant of a kind it never compares with, refused when a
// predicate is compiled: `cert == '15741'` on an Integer 32, `closeDate > '2010-01-01'` on a
// Date, `acquirer == 5` on a String, `zip BEGINSWITH '9'` on an Integer 32.
//
// Such a comparison gives the same answer whatever the attribute holds: values are never converted
// from one kind to another (SQLite's affinities would turn '15741' into 15741; in-memory
// evaluation, like NSPredicate's, would not, and the SQL agrees with memory). A fetch that finds
// nothing because of how a value was written is a mistake, so the fetch fails instead, naming the
// entity, the attribute and its type, the value and its kind, and how to write it. In-memory
// evaluation (``FetchPredicate/evaluate(with:)``) keeps NSPredicate's answer: false (true for `!=`).
//
// What is checked: a key path (or a SUBQUERY variable's key path) that ends at an attribute,
// through to-one and to-many relationships, against a constant on the other side: with `==`,
// `!=`, `<`, `<=`, `>`, `>=` its kind; with `BETWEEN` its bounds; with `IN` a list's elements;
// with `CONTAINS`, `BEGINSWITH`, `ENDSWITH`, `LIKE`, `MATCHES` and `IN` a string, that both are
// text. Numbers, Booleans and dates compare with one another (`completed == 1`, `zip == YES`,
// `closeDate > 700000000`), except a date with a Boolean; nil compares with everything. Key paths
// compared with key paths, `SELF`, collection operators (`tags.@count`) and HAVING names of
// aggregates are not checked. A to-one relationship (`details == …`) compares only with nil and
// integers (the destination's `Z_PK`): text, a fraction, a Boolean or a date is refused.

extension SQLQueryBuilder {
    /// An attribute a comparison names, and where its key path starts.
    struct ComparedAttribute {
        /// The entity the key path starts from (the fetched entity, or a SUBQUERY variable's).
        let start: Entity
        /// The key path as written from `start` (`details.closeDate`).
        let keyPath: String
        /// The entity that has the attribute.
        let owner: Entity
        let attribute: Attribute
        /// Whether the key path crosses a to-many relationship (so it stands for many values).
        let isToMany: Bool

        var kind: SQLKind { SQLKind(attribute.type) }

        /// "an Integer 32 attribute", "a Date attribute of FailedBankDetails".
        var description: String {
            let type = attribute.type.rawValue
            let article = attribute.type.isInteger ? "an" : "a"  // "a UUID", "a URI"
            return "\(article) \(type) attribute" + (keyPath.contains(".") ? " of \(owner.name)" : "")
        }
    }

    /// Refuses a comparison of an attribute with a constant of a kind it never compares with.
    func checkKinds(_ comparison: PredicateComparison, in context: SQLContext) throws(StoreError) {
        // A list quantified on the left (`ANY {1, 2} == priority`): each element against the right side.
        if comparison.modifier != .direct, case .constant(.array(let elements)) = comparison.left {
            for element in elements {
                try checkKinds(PredicateComparison(.constant(element), comparison.op, comparison.right, options: comparison.options),
                               in: context, as: comparison)
            }
            return
        }
        try checkKinds(comparison, in: context, as: comparison)
    }

    /// ``checkKinds(_:in:)`` for `comparison`, with `written` as the comparison the user wrote.
    private func checkKinds(_ comparison: PredicateComparison, in context: SQLContext, as written: PredicateComparison) throws(StoreError) {
        let op = comparison.op
        if let toOne = comparedToOne(comparison.left, in: context), case .constant(let value) = comparison.right {
            return try checkKey(toOne, value, in: written)
        }
        if let toOne = comparedToOne(comparison.right, in: context), case .constant(let value) = comparison.left {
            return try checkKey(toOne, value, in: written)
        }
        if let key = comparedAttribute(comparison.left, in: context), case .constant(let value) = comparison.right {
            switch op {
            case .equalTo, .notEqualTo, .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo:
                try check(key, value, ordered: op != .equalTo && op != .notEqualTo, in: written)
            case .between:
                if case .array(let bounds) = value {
                    for bound in bounds { try check(key, bound, ordered: true, in: written) }
                }
            case .in:
                switch value {
                case .array(let elements):
                    for element in elements { try check(key, element, ordered: false, element: true, in: written) }
                default:
                    return  // one value that is no collection: refused as such when compiled
                }
            case .contains where key.isToMany && comparison.modifier == .direct:
                // `tags.name CONTAINS 'x'`: membership, some element equals the value.
                try check(key, value, ordered: false, in: written)
            case .contains, .beginsWith, .endsWith, .like, .matches:
                try checkText(key, value, in: written)
            }
        } else if let key = comparedAttribute(comparison.right, in: context), case .constant(let value) = comparison.left {
            switch op {
            case .equalTo, .notEqualTo, .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo:
                try check(key, value, ordered: op != .equalTo && op != .notEqualTo, in: written)
            case .in where key.isToMany:
                // `'x' IN tags.name`: membership.
                try check(key, value, ordered: false, in: written)
            case .in:
                // `'x' IN name`: one value, refused when compiled (IN needs a collection).
                return
            case .contains:
                if case .array(let elements) = value {
                    // `{1, 2} CONTAINS priority`: the attribute is one of the elements.
                    for element in elements { try check(key, element, ordered: false, element: true, in: written) }
                } else {
                    try checkText(key, value, in: written)
                }
            case .beginsWith, .endsWith, .like, .matches:
                try checkText(key, value, in: written)
            case .between:
                return
            }
        }
    }

    /// The attribute a key path or variable path ends at, or nil for anything else (constants,
    /// objects, to-one relationships, collection operators, the names of a HAVING predicate's
    /// aggregates, and unknown keys, which compiling reports).
    private func comparedAttribute(_ expression: FetchExpression, in context: SQLContext) -> ComparedAttribute? {
        guard let end = comparedColumn(expression, in: context), let attribute = end.column.attribute else { return nil }
        return ComparedAttribute(start: end.start, keyPath: end.keyPath, owner: end.owner, attribute: attribute, isToMany: end.isToMany)
    }

    /// The to-one relationship a key path or variable path ends at (`details`, `info.details`), with
    /// the entity the path starts from and the path as written; nil for anything else.
    private func comparedToOne(_ expression: FetchExpression, in context: SQLContext) -> (start: Entity, keyPath: String, relationship: Relationship)? {
        guard let end = comparedColumn(expression, in: context), !end.isToMany, let relationship = end.column.relationship else { return nil }
        return (end.start, end.keyPath, relationship)
    }

    /// The column (attribute or to-one relationship) a key path or variable path ends at: where the
    /// path starts, the path as written, the entity that has the column, and whether the path crosses
    /// a to-many relationship.
    private func comparedColumn(
        _ expression: FetchExpression, in context: SQLContext
    ) -> (start: Entity, keyPath: String, owner: Entity, column: Column, isToMany: Bool)? {
        let start: Entity, path: [String]
        switch expression {
        case .keyPath(let components):
            if context.place == Self.root && resultColumns[components.joined(separator: ".")] != nil { return nil }
            (start, path) = (node(context.place).entity, components)
        case .variable(let name, let components):
            guard let variable = context.variables[name] else { return nil }
            switch variable.end {
            case .object(_, let entity):
                (start, path) = (entity, components)
            case .column(_, let column, let owner):
                guard components.isEmpty else { return nil }
                return (owner, column.name, owner, column, false)
            }
        default:
            return nil
        }
        var entity = start
        var isToMany = false
        for (i, name) in path.enumerated() {
            let isLast = i == path.count - 1
            switch entity.slot(of: name) {
            case .column(let index)?:
                let column = entity.columns[index]
                if isLast { return (start, path.joined(separator: "."), entity, column, isToMany) }
                guard let relationship = column.relationship, let destination = model.entity(named: relationship.destination) else { return nil }
                entity = destination
            case .toMany(let index)?:
                guard !isLast, let destination = model.entity(named: entity.toManyRelationships[index].destination) else { return nil }
                isToMany = true
                entity = destination
            case nil:
                return nil
            }
        }
        return nil
    }

    // MARK: Refusals

    /// Refuses `value` compared with `key` by `==`, `!=` or (when `ordered`) `<`, `<=`, `>`, `>=`;
    /// with `element`, `value` is one element of a list the attribute's value is looked for in.
    private func check(
        _ key: ComparedAttribute, _ value: PredicateConstant, ordered: Bool, element: Bool = false, in comparison: PredicateComparison
    ) throws(StoreError) {
        if case .array = value {
            throw .invalidProperty(entity: key.start.name, property: key.keyPath, reason: """
                '\(comparison)' compares \(key.description) with \(value), an array, which is never one value, so it \
                would give the same answer whatever \(key.keyPath) holds; to test whether it is one of several values, \
                write \(key.keyPath) IN \(value)
                """)
        }
        // NaN is a number, though one that equals nothing.
        let valueKind: SQLKind? = if case .double = value { .number } else { value.sqlKind }
        guard let valueKind, !key.kind.canEqual(valueKind) else { return }
        let relation = ordered ? "is never equal to or ordered with" : "is never equal to"
        let outcome = element ? "so that element would never match, whatever \(key.keyPath) holds"
            : "so it would give the same answer whatever \(key.keyPath) holds"
        throw .invalidProperty(entity: key.start.name, property: key.keyPath, reason: """
            '\(comparison)' compares \(key.description) with \(value), \(value.kindName), and \(value.kindName) \
            \(relation) \(key.kind.noun) (values are not converted), \(outcome); \(advice(for: key, value, in: comparison))
            """)
    }

    /// Refuses a to-one relationship compared with a constant that is no destination key: it holds the
    /// destination's `Z_PK` (or nil), so text, a fraction, a Boolean or a date would match nothing.
    private func checkKey(
        _ toOne: (start: Entity, keyPath: String, relationship: Relationship), _ value: PredicateConstant, in comparison: PredicateComparison
    ) throws(StoreError) {
        let elements: [PredicateConstant] = if case .array(let elements) = value { elements } else { [value] }
        guard let wrong = elements.first(where: { element in
            switch element {
            case .null, .int: false
            default: true
            }
        }) else { return }
        let destination = toOne.relationship.destination
        let attributes = model.entity(named: destination)?.attributes ?? []
        let example = (attributes.first { $0.type == .string } ?? attributes.first).map { "\(toOne.keyPath).\($0.name) == …" }
        throw .invalidProperty(entity: toOne.start.name, property: toOne.keyPath, reason: """
            '\(comparison)' compares the to-one relationship \(toOne.keyPath), which holds a \(destination) object, with \(wrong), \
            \(wrong.kindName), which no object equals, so it would give the same answer whatever \(toOne.keyPath) holds; \
            \(example.map { "compare an attribute of the \(destination) (\($0)), or " } ?? "compare ")nil, or the \(destination)'s \
            primary key as an integer (\(toOne.keyPath) == 3)
            """)
    }

    /// Refuses a string operator unless both the attribute and the value are text.
    private func checkText(_ key: ComparedAttribute, _ value: PredicateConstant, in comparison: PredicateComparison) throws(StoreError) {
        let name = comparison.op.rawValue
        guard key.kind == .string else {
            let operators = key.kind.canOrder(key.kind) ? "==, !=, <, <=, >, >=, BETWEEN or IN" : "==, != or IN"
            throw .invalidProperty(entity: key.start.name, property: key.keyPath, reason: """
                '\(comparison)' applies \(name), which tests text, to \(key.description), so it would give the \
                same answer whatever \(key.keyPath) holds; compare \(key.attribute.type.rawValue) values with \(operators)
                """)
        }
        switch value {
        case .null, .string:
            return
        default:
            throw .invalidProperty(entity: key.start.name, property: key.keyPath, reason: """
                '\(comparison)' applies \(name), which tests text, to \(key.description) and \(value), \(value.kindName), \
                which is not text, so it would give the same answer whatever \(key.keyPath) holds; \(advice(for: key, value, in: comparison))
                """)
        }
    }

    // MARK: Advice

    /// How to write `value` so that it compares with `key`: the comparison rewritten where it can be,
    /// every constant of it that converts (both bounds of a BETWEEN, each element of a list).
    private func advice(for key: ComparedAttribute, _ value: PredicateConstant, in comparison: PredicateComparison) -> String {
        func text(_ constant: PredicateConstant) -> String? {
            if case .string(let string) = constant { string.trimmingCharacters(in: .whitespaces) } else { nil }
        }
        let given = text(value)
        switch key.kind {
        case .number:
            if let given, Self.number(given) != nil {
                return "write the number without quotes: " + Self.rewrite(comparison) { text($0).flatMap(Self.number) }
            }
            return "compare it with a number, written without quotes (such as \(key.keyPath) == 42)"
        case .boolean:
            if let given, Self.boolean(given) != nil {
                return "write YES or NO without quotes: " + Self.rewrite(comparison) { text($0).flatMap(Self.boolean).map { $0 ? "YES" : "NO" } }
            }
            return "compare it with YES or NO, written without quotes"
        case .date:
            let cast = "CAST(<seconds since 2001-01-01 00:00:00 UTC>, \"NSDate\")"
            func literal(_ date: Date) -> String {
                let seconds = date.timeIntervalSinceReferenceDate
                return "CAST(\(seconds == seconds.rounded() ? String(Int64(seconds)) : String(seconds)), \"NSDate\")"
            }
            if let given, let date = Self.date(given) {
                return "write a date as \(cast): " + Self.rewrite(comparison) { text($0).flatMap(Self.date).map(literal) }
                    + " (\(ISO8601.string(from: date)))" + Self.inCode("a Date")
            }
            return "write a date as \(cast), such as CAST(283996800, \"NSDate\") for 2010-01-01 00:00:00 UTC, "
                + "or now() for the current date" + Self.inCode("a Date")
        case .string:
            switch value {
            case .int, .double, .bool:
                return "write the text in quotes: " + Self.rewrite(comparison) { constant in
                    switch constant {
                    case .int, .double, .bool: Self.quoted(constant.description)
                    default: nil
                    }
                }
            default:
                return "compare it with text in quotes"
            }
        case .uuid:
            if let given, UUID(uuidString: given) != nil {
                return "write the UUID with CAST: " + Self.rewrite(comparison) { constant in
                    text(constant).flatMap { UUID(uuidString: $0) != nil ? "CAST(\(Self.quoted($0)), \"NSUUID\")" : nil }
                }
            }
            return "compare it with a UUID, written CAST('<uuid>', \"NSUUID\")" + Self.inCode("a UUID")
        case .data:
            return "compare it with data, written CAST('<base64>', \"NSData\")" + Self.inCode("a Data")
        case .any:
            return "compare it with a value of its kind"
        }
    }

    /// The advice's last, brief part, for predicates made in code rather than typed as text (the
    /// `query --where` user writes the CAST form that comes first): `"; in code, a Date argument for %@ also works"`.
    static func inCode(_ value: String) -> String {
        "; in code, \(value) argument for %@ also works"
    }

    /// The comparison as written, each constant (alone or in a list) that `convert` gives a literal for
    /// written as that literal.
    static func rewrite(_ comparison: PredicateComparison, _ convert: (PredicateConstant) -> String?) -> String {
        func text(_ expression: FetchExpression) -> String {
            switch expression {
            case .constant(.array(let elements)):
                return "{" + elements.map { convert($0) ?? $0.description }.joined(separator: ", ") + "}"
            case .constant(let constant):
                return convert(constant) ?? expression.description
            default:
                return expression.description
            }
        }
        let modifier = comparison.modifier == .direct ? "" : comparison.modifier.rawValue + " "
        return "\(modifier)\(text(comparison.left)) \(comparison.op)\(comparison.options.formatSuffix) \(text(comparison.right))"
    }

    /// `'text'`, or the canonical double-quoted literal when the text holds a quote or a backslash.
    private static func quoted(_ text: String) -> String {
        text.contains(where: { $0 == "'" || $0 == "\\" || $0.isNewline }) ? PredicateConstant.quote(text) : "'\(text)'"
    }

    /// A numeric literal for `text` (`15741`, `2.5`, `1,000` with its thousands grouped), or nil when it
    /// is no number.
    private static func number(_ text: String) -> String? {
        if text.wholeMatch(of: /[+-]?\d{1,3}(,\d{3})+(\.\d+)?/) != nil { return number(text.replacingOccurrences(of: ",", with: "")) }
        if let integer = Int64(text) { return String(integer) }
        if let double = Double(text), double.isFinite, text.contains(where: \.isNumber) { return PredicateConstant.formatNumber(double) }
        return nil
    }

    /// The truth value a quoted Boolean stands for (`'YES'`, `'false'`, `'1'`), or nil.
    private static func boolean(_ text: String) -> Bool? {
        switch text.uppercased() {
        case "YES", "TRUE", "1": true
        case "NO", "FALSE", "0": false
        default: nil
        }
    }

    /// The UTC date of `yyyy-MM-dd`, `yyyy-MM-dd HH:mm[:ss]` or `yyyy-MM-ddTHH:mm[:ss][Z]`, or nil.
    private static func date(_ text: String) -> Date? {
        let pattern = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?Z?)?$/
        guard let match = text.wholeMatch(of: pattern) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = DateComponents(year: Int(match.1), month: Int(match.2), day: Int(match.3),
                                   hour: match.4.flatMap { Int($0) } ?? 0, minute: match.5.flatMap { Int($0) } ?? 0,
                                   second: match.6.flatMap { Int($0) } ?? 0)
        guard let date = calendar.date(from: parts) else { return nil }
        // Out-of-range fields (2010-02-30) roll over: refuse them rather than suggest another day.
        let back = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        guard back.year == parts.year, back.month == parts.month, back.day == parts.day,
              back.hour == parts.hour, back.minute == parts.minute, back.second == parts.second else { return nil }
        return date
    }
}

extension SQLKind {
    /// What values of the kind are, for messages: "a number", "a date".
    fileprivate var noun: String {
        switch self {
        case .number: "a number"
        case .boolean: "a Boolean"
        case .date: "a date"
        case .string: "a string"
        case .data: "data"
        case .uuid: "a UUID"
        case .any: "a value"
        }
    }
}
