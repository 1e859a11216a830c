import ArgumentParser
import Foundation
import ManagedStore
import Measure
import SeedImport

/// Output formats of `query`.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case table, json, csv
}

struct QueryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "query",
        abstract: "Fetch objects of an entity: filter, sort, page, batch, fault, prefetch, or select properties.",
        discussion: """
            Examples:
              seedstore query Tasks.sqlite --entity Task --where "task_description CONTAINS[cd] 'bank'" --sort completed,priority
              seedstore query Wells.sqlite --entity Well --sort well_name --batch-size 20 --limit 20 --stats
              seedstore query Banks.sqlite --entity FailedBankInfo --properties name,details.closeDate --format json
              seedstore query Books.sqlite --entity Book --properties author,"count(title) as books" --group-by author

            JSON output is an array of objects keyed by property name, with Z_PK for whole objects; dates \
            are ISO 8601 in UTC and a to-one relationship is the destination's primary key. Dates carry the fewest fraction digits \
            that read back as the stored seconds (none when whole), and decimals print as stored. In a \
            table, null is NULL and text that could pass for it, for nothing or for other text is in double quotes ("", \
            "NULL", "live " with its space). CSV writes null as an empty field and quotes empty text, the texts NULL and NA, text \
            with spaces or tabs around it, \\N and text ending in a backslash, so seedstore import reads it \
            back the same, without warnings (for an import with other null tokens, give them with --null). --stats prints statements run, rows stepped and \
            faults fired on stderr.

            --to-many adds each to-many relationship as the primary keys of its destinations, in the \
            relationship's order when it is ordered and by primary key otherwise: a JSON array, or in a \
            table the count and the keys that fit. They are prefetched (one statement per relationship) \
            unless --faults asks for each object's own.
            """
    )

    @OptionGroup var options: StoreOptions

    @Option(help: "The entity to fetch.")
    var entity: String

    @Option(name: .customLong("where"), help: "A predicate in Core Data's format syntax, e.g. \"priority == 1 AND completed == NO\".")
    var predicate: String?

    // Unconditional: a value that starts with '-' (--sort -title) is a sort key, not an option.
    @Option(parsing: .unconditional,
            help: "Sort keys separated by commas: -title or title:desc for descending (--sort -title,author), suffix [c] case-insensitive, [l] localized.")
    var sort: String?

    // Unconditional, like --sort: --limit -1 is a value validate() refuses, not a missing one.
    @Option(parsing: .unconditional, help: "Return at most N objects (0: no limit).")
    var limit: Int?

    @Option(parsing: .unconditional, help: "Skip the first N objects.")
    var offset: Int?

    @Option(name: .customLong("batch-size"), parsing: .unconditional, help: "Load objects N at a time (fetchBatchSize).")
    var batchSize: Int?

    @Flag(help: "Fetch objects as faults without their values: each fires one SELECT when read (the N+1 pattern).")
    var faults = false

    @Option(help: "Relationship key paths to prefetch, separated by commas.")
    var prefetch: String?

    @Option(help: "Dictionary results: key paths and aggregates (count(x), sum(x), min(x), max(x), avg(x) [as name]), separated by commas.")
    var properties: String?

    @Flag(help: "Dictionary results: drop duplicate rows.")
    var distinct = false

    @Option(name: .customLong("group-by"), help: "Dictionary results: key paths to group by, separated by commas.")
    var groupBy: String?

    @Option(help: "Dictionary results: a predicate on the groups, naming group-by keys and the names of fetched aggregates (--properties \"state,count(*) as n\" --having \"n > 2\").")
    var having: String?

    @Flag(name: .customLong("to-many"), help: "Also print to-many relationships: their destinations' primary keys (table and json).")
    var toMany = false

    @Flag(help: "Print the number of matches only.")
    var count = false

    @Option(help: "table, json or csv.")
    var format: OutputFormat = .table

    @Option(name: .customLong("null"), parsing: .unconditionalSingleValue,
            help: "CSV: the null tokens the import that reads it back uses (repeat for several, as import's --null): null is written as the first, and text equal to any of them is quoted. Default: \"\", NULL and NA.")
    var nullTokens: [String] = []

    @Flag(help: "Print the SQL, its bound values and SQLite's query plan instead of results.")
    var explain = false

    @Flag(help: "Print statements run, rows stepped and faults fired on stderr.")
    var stats = false

    func validate() throws {
        if !nullTokens.isEmpty && format != .csv {
            throw ValidationError("--null goes with --format csv: only CSV is read back by an import with null tokens")
        }
        for token in nullTokens where token.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) || token.hasPrefix(" ") || token.hasSuffix(" ") {
            throw ValidationError("--null '\(token)' could never be read as null in every column: an import compares its null tokens with unquoted values, which hold no comma, quote or line break, and drops the spaces around a number or date (and around text with --trim) before it does")
        }
        for (name, value, zero) in [("--limit", limit, "no limit"), ("--offset", offset, "skip none"), ("--batch-size", batchSize, "load all at once")]
        where (value ?? 0) < 0 {
            throw ValidationError("\(name) \(value!) is negative: give a number of 0 or more (0: \(zero))")
        }
        let lists = [("--properties", properties, "a key path or aggregate, such as --properties name,count(*); leave it out to fetch whole objects"),
                     ("--group-by", groupBy, "a key path, such as --group-by state"),
                     ("--prefetch", prefetch, "a relationship key path, such as --prefetch details.tags"),
                     ("--sort", sort, "a sort key, such as --sort -title")]
        for (name, value, example) in lists where value != nil && Self.list(value).allSatisfy(\.isEmpty) {
            throw ValidationError("\(name) is empty: give \(example)")
        }
        // A stray comma (--sort ",title") left an empty key that was silently dropped.
        for (name, value, _) in lists {
            guard let value, case let items = value.split(separator: ",", omittingEmptySubsequences: false),
                  items.count > 1, items.contains(where: { $0.trimmingCharacters(in: .whitespaces).isEmpty }),
                  !value.contains("(") else { continue }
            throw ValidationError("\(name) '\(value)' has an empty item between commas: remove the extra comma")
        }
        if (groupBy != nil || having != nil || distinct) && properties == nil {
            throw ValidationError("--group-by, --having and --distinct go with --properties")
        }
        if having != nil && groupBy == nil { throw ValidationError("--having goes with --group-by") }
        // Batches load their objects' values as they are read, so none would be a fault (a user trial saw 0 faults).
        if faults, let batchSize, batchSize > 0 {
            throw ValidationError("--faults and --batch-size \(batchSize): each batch loads its objects' values, so none is a fault; leave one of them out")
        }
        if (faults || prefetch != nil) && (properties != nil || count) {
            throw ValidationError("\(faults ? "--faults" : "--prefetch") goes with whole objects; \(count ? "--count" : "--properties") fetches none, so leave one of them out")
        }
        if toMany && (properties != nil || count) {
            throw ValidationError("--to-many prints whole objects' relationships: leave out \(count ? "--count" : "--properties") to use it")
        }
        if toMany && format == .csv {
            throw ValidationError("--to-many goes with --format table or json: CSV holds what imports back (attributes, and to-one keys as NAME.Z_PK columns); a join CSV fills a to-many")
        }
        // A malformed sort key, property or predicate is a usage error like the others (exit 64), not a failed
        // fetch; here rather than when the request is made, so the usage line printed is this command's.
        if let sort {
            do { _ = try FetchSort.parseList(sort) } catch { throw ValidationError("--sort: \(error)") }
        }
        let fetched = try Self.list(properties).map { item in
            do { return try FetchProperty.parse(item) } catch { throw ValidationError("--properties: \(error)") }
        }
        if let having { _ = try Self.havingPredicate(having, fetched: fetched) }
        if let predicate, let name = try Self.commandLinePredicate(predicate, option: "--where").variableNames.sorted().first {
            throw ValidationError(Self.variableMessage(name))
        }
    }

    /// Parses a predicate given on the command line (`option`: `--where`, `--having`). One that does not
    /// parse is a usage error, `--where: ` before the parser's message; a format specifier (`%@`, `%K`,
    /// `%d`) too, saying to write the value in: in code it takes an argument, and the command line has none to give.
    static func commandLinePredicate(_ text: String, option: String) throws(ValidationError) -> FetchPredicate {
        do {
            return try FetchPredicate(format: text)
        } catch where error.kind == .missingArgument {
            // The specifier as written (`%@`, `%K`, `%1$@`), where the parser stopped.
            let characters = Array(text)
            let start = min(max(error.offset, 0), characters.count)
            var end = start + 1
            while end < characters.count, characters[end].isLetter || characters[end].isNumber || characters[end] == "@" || characters[end] == "$" {
                end += 1
            }
            let specifier = start < characters.count && characters[start] == "%" ? " " + String(characters[start..<end]) : ""
            throw ValidationError("""
                \(option) "\(text)" has the format specifier\(specifier), which takes an argument in code; a command line \
                has no format arguments: write the value into the predicate in its place, as in rid == 5, \
                name == 'Strata' or completed == YES (for %K, the key path itself)
                """)
        } catch {
            throw ValidationError("\(option): \(error)")
        }
    }

    func makeRequest(model: ObjectModel? = nil) throws -> FetchRequest {
        var request = FetchRequest(entityName: entity)
        if let predicate {
            let parsed = try FetchPredicate(format: predicate)
            // The library's advice (substitute it in code) has no place on a command line.
            if let name = parsed.variableNames.sorted().first { throw ValidationError(Self.variableMessage(name)) }
            request.predicate = parsed
        }
        if let sort { request.sortDescriptors = try FetchSort.parseList(sort) }
        request.fetchLimit = limit ?? 0
        request.fetchOffset = offset ?? 0
        request.fetchBatchSize = batchSize ?? 0
        if faults { request.includesPropertyValues = false }
        request.relationshipKeyPathsForPrefetching = Self.list(prefetch)
        if toMany && !faults, let entity = model?.entity(named: entity) {
            // Every to-many read below, loaded in one statement per relationship rather than one per object.
            let missing = entity.toManyRelationships.map(\.name).filter { !request.relationshipKeyPathsForPrefetching.contains($0) }
            request.relationshipKeyPathsForPrefetching += missing
        }
        if let properties {
            request.resultType = .dictionary
            request.propertiesToFetch = try Self.list(properties).map { try FetchProperty.parse($0) }
            request.propertiesToGroupBy = Self.list(groupBy)
            request.returnsDistinctResults = distinct
            if let having { request.havingPredicate = try Self.havingPredicate(having, fetched: request.propertiesToFetch) }
        }
        if count { request.resultType = .count }
        return request
    }

    /// Parses `--having`; a predicate that calls an aggregate (`count(name) > 20`) is refused with
    /// the way to write it: name the aggregate by the name it is fetched under (among `fetched`), or fetch
    /// it with one.
    static func havingPredicate(_ text: String, fetched: [FetchProperty] = []) throws(ValidationError) -> FetchPredicate {
        let call = /(?i)\b(count|sum|min|max|avg)\s*\(([^)]*)\)/
        do {
            return try FetchPredicate(format: text)
        } catch where error.kind != .missingArgument && text.firstMatch(of: call) != nil {
            // Not a predicate: an aggregate called by name, most likely.
            let match = text.firstMatch(of: call)!
            let function = match.1.lowercased(), argument = match.2.trimmingCharacters(in: .whitespaces)
            let name = function == "count" && argument == "*" ? "n" : "\(function)_\(argument.replacingOccurrences(of: ".", with: "_"))"
            let wanted = function == "avg" ? "average" : function
            let already = fetched.first { property in
                guard case .expression(_, let fetchedFunction, let keyPath) = property else { return false }
                return fetchedFunction.rawValue == wanted && (keyPath == argument || (argument == "*" && (keyPath.isEmpty || keyPath == "*")))
            }
            if let already {
                throw ValidationError("""
                    --having names aggregates by the name they are fetched under, not by calling them: you fetch \
                    \(function)(\(argument)) as \(already.name), so write --having "\(text.replacingOccurrences(of: String(match.0), with: already.name))"
                    """)
            }
            throw ValidationError("""
                --having names aggregates by the name they are fetched under, not by calling them: fetch \
                \(function)(\(argument)) with a name (--properties ...,"\(function)(\(argument)) as \(name)") and write \
                --having "\(text.replacingOccurrences(of: String(match.0), with: name))"
                """)
        } catch {
            // A format specifier, or another mistake: refused as in --where.
            return try commandLinePredicate(text, option: "--having")
        }
    }

    /// Why `--where` with `$name` cannot run: the library's advice (substitute it in code) has no place here.
    static func variableMessage(_ name: String) -> String {
        "--where uses $\(name), a variable the query command has no value for: write the value itself in its place, as in title == 'Strata', priority > 2 or completed == YES"
    }

    /// Why a sort key's string comparison cannot apply, or nil: `[c]`, `[d]`, `[cd]` and `[l]` are
    /// `caseInsensitiveCompare:`, diacritic-insensitive and `localizedStandardCompare:` comparisons, which
    /// Foundation has for strings only (a sort descriptor with one on a number raises). The engine would
    /// ignore it and sort as plain `--sort price` does, so the flag the user asked for would silently do nothing.
    static func sortComparisonProblem(_ sorts: [FetchSort], from entity: Entity, in model: ObjectModel) -> String? {
        for sort in sorts where sort.comparison != .binary {
            guard let (owner, name) = lastStep(of: sort.keyPath, from: entity, in: model) else { continue }
            let kind: String
            if let attribute = owner.attribute(named: name) {
                guard attribute.type != .string else { continue }
                kind = "\(article(attribute.type.rawValue)) \(attribute.type.rawValue) attribute"
            } else if let relationship = owner.relationship(named: name) {
                kind = "a \(relationship.isToMany ? "to-many" : "to-one") relationship"
            } else {
                continue
            }
            let (flag, method) = switch sort.comparison {
            case .localized: ("l", "localizedStandardCompare:")
            case .caseInsensitive: ("c", "caseInsensitiveCompare:")
            case .diacriticInsensitive: ("d", "a diacritic-insensitive comparison")
            case .caseDiacriticInsensitive, .binary: ("cd", "a case- and diacritic-insensitive comparison")
            }
            let plain = (sort.ascending ? "" : "-") + sort.keyPath
            return "--sort \(sort): \(owner.name).\(name) is \(kind), and [\(flag)] (\(method)) compares strings only; "
                + "sort it without [\(flag)] (--sort \(plain)), or put [\(flag)] on a String attribute"
        }
        return nil
    }

    /// "a" or "an" before an attribute type's name: `an Integer 32`, `a Decimal`.
    static func article(_ word: String) -> String {
        word.first.map { "AEIOU".contains($0) } == true ? "an" : "a"
    }

    /// Why a predicate compares a relationship with a number or text written into it, or nil.
    ///
    /// `operator == 102` compares the destination's `Z_PK`, the store's own row key, which the user
    /// rarely means and the store may number differently after the next import: it is refused with the
    /// destination's key to compare instead (`operator.operator_id == 102`, see ``likelyKey(of:)``), or
    /// its attributes when none looks like a key. A to-many relationship likewise (`ANY wells == 5`,
    /// `wells CONTAINS 5`, `5 IN wells`, `NONE wells == 5`): `ANY wells.uwi == '5'`. In code a `%@`
    /// argument that stands for an object (its primary key) still compares, as Core Data compares an
    /// object or its ID; a command line has no such arguments. `== nil` tests whether there is a
    /// destination, and `wells.@count` counts them: both stay.
    ///
    /// For example, on a wells store:
    ///
    /// ```swift
    /// let problem = QueryCommand.relationshipLiteralProblem(try FetchPredicate(format: "5 IN wells"), from: operatorEntity, in: model)
    /// // "Operator.wells is a to-many relationship to Well: … compare the destinations' key: ANY wells.uwi == '5' …"
    /// ```
    static func relationshipLiteralProblem(_ predicate: FetchPredicate, from entity: Entity, in model: ObjectModel,
                                           negated: Bool = false) -> String? {
        switch predicate {
        case .truePredicate, .falsePredicate:
            return nil
        case .and(let operands), .or(let operands):
            return operands.lazy.compactMap { relationshipLiteralProblem($0, from: entity, in: model) }.first
        case .not(let operand):
            // NONE wells == 5 is parsed as NOT (ANY wells == 5): the advice keeps the NONE.
            return relationshipLiteralProblem(operand, from: entity, in: model, negated: true)
        case .comparison(let comparison):
            return relationshipLiteralProblem(comparison, none: negated && comparison.modifier == .any, from: entity, in: model)
        }
    }

    /// ``relationshipLiteralProblem(_:from:in:negated:)`` for one comparison; `none`: it is the inside of `NONE`.
    static func relationshipLiteralProblem(_ comparison: PredicateComparison, none: Bool, from entity: Entity, in model: ObjectModel) -> String? {
        for (side, other, onLeft) in [(comparison.left, comparison.right, true), (comparison.right, comparison.left, false)] {
            guard case .keyPath(let path) = side, case .constant(let constant) = other, isLiteralKey(constant),
                  let (owner, relationship, throughToMany) = relationshipStep(path, from: entity, in: model),
                  let destination = model.entity(named: relationship.destination) else { continue }
            let keyPath = path.joined(separator: ".")
            let value = constant.description
            let kind = relationship.isToMany ? "to-many" : "to-one"
            /// What to compare instead: the destination's key when one stands out, else one of its attributes.
            func instead(_ whose: String, _ quantifier: String, _ op: String) -> String {
                if let key = likelyKey(of: destination) {
                    return "compare the \(whose) key: \(quantifier)\(keyPath).\(key.name) \(op) \(literal(constant, for: key))"
                }
                return "compare one of \(attributeList(of: destination)): \(quantifier)\(keyPath).NAME \(op) \(value)"
            }
            guard relationship.isToMany || throughToMany else {
                let instead = instead("destination's", "", comparison.op.rawValue)
                return "\(owner.name).\(relationship.name) is a \(kind) relationship to \(destination.name): compared with \(value), it would match "
                    + "the \(destination.name) whose Z_PK (the store's own row number) is \(value), which a new import may number "
                    + "differently; \(instead) (\(keyPath) == nil tests for no \(destination.name))"
            }
            // Many destinations: the comparison goes on each one's key, quantified as written (ANY when it was not).
            let quantifier = none ? "NONE " : comparison.modifier == .all ? "ALL " : "ANY "
            let op: String = switch (comparison.op, onLeft) {
            case (.contains, true), (.in, false): isArray(constant) ? "IN" : "=="
            case (.lessThan, false): ">"
            case (.lessThanOrEqualTo, false): ">="
            case (.greaterThan, false): "<"
            case (.greaterThanOrEqualTo, false): "<="
            default: comparison.op.rawValue
            }
            let instead = instead("destinations'", quantifier, op)
            return "\(owner.name).\(relationship.name) is a \(kind) relationship to \(destination.name)"
                + (relationship.isToMany ? "" : ", reached through a to-many")
                + ": compared with \(value), it would compare the Z_PK (the store's own row number) of each \(destination.name), "
                + "which a new import may number differently; \(instead)"
                + (relationship.isToMany ? " (\(keyPath).@count == 0 tests for no \(destination.name))" : "")
        }
        return nil
    }

    /// The relationship a key path ends at, through to-one and to-many relationships (`wells.operator`),
    /// and whether a step before it is a to-many; nil when it ends elsewhere.
    static func relationshipStep(_ path: [String], from entity: Entity, in model: ObjectModel)
        -> (owner: Entity, relationship: Relationship, throughToMany: Bool)? {
        var current = entity, throughToMany = false
        for part in path.dropLast() {
            guard let relationship = current.relationship(named: part), let next = model.entity(named: relationship.destination) else { return nil }
            throughToMany = throughToMany || relationship.isToMany
            current = next
        }
        guard let last = path.last, let relationship = current.relationship(named: last) else { return nil }
        return (current, relationship, throughToMany)
    }

    /// "Note's attributes (text, written)", the first six, for a suggestion when no key stands out.
    static func attributeList(of entity: Entity) -> String {
        let names = entity.attributes.map(\.name)
        return "\(entity.name)'s attributes (" + names.prefix(6).joined(separator: ", ") + (names.count > 6 ? ", …" : "") + ")"
    }

    /// Whether `constant` is a list (`{1, 2}`).
    static func isArray(_ constant: PredicateConstant) -> Bool {
        if case .array = constant { true } else { false }
    }

    /// Whether `constant` is a number or text (or a list of them) written where an object belongs.
    static func isLiteralKey(_ constant: PredicateConstant) -> Bool {
        switch constant {
        case .int, .double, .string: true
        case .array(let items): !items.isEmpty && items.allSatisfy(isLiteralKey)
        default: false
        }
    }

    /// `constant` written as `attribute` compares it: a number in quotes for a String key (`'102'`).
    static func literal(_ constant: PredicateConstant, for attribute: Attribute) -> String {
        switch constant {
        case .int where attribute.type == .string, .double where attribute.type == .string: "'\(constant)'"
        case .array(let items): "{" + items.map { literal($0, for: attribute) }.joined(separator: ", ") + "}"
        default: constant.description
        }
    }

    /// The attribute of `entity` most likely its key, for a suggestion, or nil when none stands out.
    ///
    /// A store keeps no record of the key an import matched rows on, and a SeedStore model has no
    /// uniqueness constraints, so: an attribute named as the entity's own ID (`id`, or for `WellDetail`
    /// `well_detail_id`, `wellDetailID`), else the first required indexed attribute (what an import's
    /// key usually is, and what a mapping made from headers takes as the key). An attribute named for
    /// another entity's ID (`operator_id` in `WellDetail`) names that entity's key, not this one's.
    static func likelyKey(of entity: Entity) -> Attribute? {
        func folded(_ name: String) -> String { name.lowercased().filter { $0 != "_" && $0 != "-" } }
        let own = folded(entity.name)
        return entity.attributes.first { ["id", own + "id"].contains(folded($0.name)) }
            ?? entity.attributes.first { $0.isIndexed && !$0.isOptional }
    }

    /// Splits a comma-separated list, keeping commas inside parentheses.
    static func list(_ text: String?) -> [String] {
        guard let text else { return [] }
        var items: [String] = [], current = "", depth = 0
        for character in text {
            if character == "(" { depth += 1 } else if character == ")" { depth -= 1 }
            if character == ",", depth == 0 {
                items.append(current.trimmingCharacters(in: .whitespaces))
                current = ""
            } else {
                current.append(character)
            }
        }
        if !current.trimmingCharacters(in: .whitespaces).isEmpty { items.append(current.trimmingCharacters(in: .whitespaces)) }
        return items
    }

    /// The error of a request its arguments made wrong (a property the entity lacks or cannot use so, a
    /// request that cannot run), found by compiling it; `nil` when it compiles (any other failure, such as
    /// the store's, is left to the fetch itself).
    static func requestError(_ context: ManagedObjectContext, _ request: FetchRequest) -> StoreError? {
        do {
            _ = try context.explain(request)
            return nil
        } catch {
            switch error {
            case .unknownKey, .invalidProperty, .invalidRequest, .unknownEntity: return error
            default: return nil
            }
        }
    }

    /// The error naming a `--prefetch` key path step that is no relationship (an unknown name, or an
    /// attribute), as the fetch would throw it; `nil` when every step is one.
    static func prefetchError(_ context: ManagedObjectContext, _ request: FetchRequest, from root: Entity) -> StoreError? {
        do {
            try context.checkPrefetchKeyPaths(request.relationshipKeyPathsForPrefetching, from: root)
            return nil
        } catch {
            return error
        }
    }

    func run() throws {
        let store = try options.open()
        // Named here with the model's entities, as import names them: a name far from all of them gets no "did you mean".
        guard store.model.entity(named: entity) != nil else {
            let names = store.model.entities.map(\.name)
            let close = closestNames(to: entity, in: names, limit: 1).first.map { "; did you mean '\($0)'?" } ?? ""
            printError("error: the model has no entity '\(entity)'\(close) (it has: \(names.joined(separator: ", ")))")
            throw ExitCode.validationFailure
        }
        let context = ManagedObjectContext(store: store)
        // The request is made from the arguments alone: what it refuses is a usage error.
        let request: FetchRequest
        do { request = try makeRequest(model: store.model) } catch {
            printError("error: \(error)")
            throw ExitCode.validationFailure
        }
        let root = try store.entity(named: entity)
        // A usage error (exit 64) found only with the model: a ValidationError thrown here would print the
        // root command's usage line, not this one's.
        if let problem = Self.sortComparisonProblem(request.sortDescriptors, from: root, in: store.model) {
            printError("error: " + problem)
            throw ExitCode.validationFailure
        }
        if let predicate = request.predicate, let problem = Self.relationshipLiteralProblem(predicate, from: root, in: store.model) {
            printError("error: --where: " + problem)
            throw ExitCode.validationFailure
        }
        // A property the entity lacks or cannot use so (in --where, --sort, --properties, --prefetch…), or a
        // request that cannot run, is a usage error too: compiling the request names it before anything runs.
        if let unknown = Self.requestError(context, request) ?? Self.prefetchError(context, request, from: root) {
            printError("error: \(unknown)")
            throw ExitCode.validationFailure
        }
        let before = store.connection.stats
        let started = Clock.now()
        defer {
            if stats {
                // After the results, in order, when both streams go to one place.
                fflush(nil)
                let used = store.connection.stats - before
                printError(String(format: "stats: %d statement(s), %d row(s) stepped, %d fault(s) fired (%d from the store), %.3f s",
                                  used.statements, used.rows, context.faultsFired, context.faultsFiredFromStore, Clock.now() - started))
            }
        }
        if explain {
            print(try context.explain(request))
            // Prefetching runs after the fetch, on the keys it returns: its statements cannot be shown before.
            if !request.relationshipKeyPathsForPrefetching.isEmpty && request.resultType == .managedObject {
                print("then, for the objects fetched, one more statement per relationship prefetched"
                      + (request.fetchBatchSize > 0 ? " and batch" : "") + ": "
                      + request.relationshipKeyPathsForPrefetching.joined(separator: ", ") + " (run with --stats or --sql-debug 1 to see them)")
            }
            return
        }
        switch request.resultType {
        case .count:
            print(try context.count(for: request))
        case .dictionary:
            let rows = try context.fetchRows(request)
            let keys = request.propertiesToFetch.map(\.name)
            let root = try store.entity(named: self.entity)
            let jsonValued = Set(request.propertiesToFetch.indices.filter { i in
                guard case .key(let keyPath) = request.propertiesToFetch[i] else { return false }
                return Self.attribute(at: keyPath, from: root, in: store.model).map(Self.holdsJSON) ?? false
            })
            // A to-one named as a property is its destination's Z_PK: CSV heads it so an import does not read it as a key.
            let headers = format != .csv ? keys : request.propertiesToFetch.map { property in
                if case .key(let keyPath) = property, Self.toOne(at: keyPath, from: root, in: store.model) { return property.name + ".Z_PK" }
                return property.name
            }
            print(try Self.render(rows.map { Array($0.values) }, keys: headers, primaryKeys: nil, jsonValued: jsonValued, format: format,
                                  nullTokens: nullTokens),
                  terminator: "")
        case .managedObject, .managedObjectID:
            let objects = try context.fetch(request)
            let entity = try store.entity(named: self.entity)
            // CSV holds what imports back: an attribute that allows external storage is always empty, and
            // an import refuses to fill one, so it is left out (a user trial's export would not import).
            let shown = entity.columns.indices.filter { index in
                format != .csv || entity.columns[index].attribute?.allowsExternalBinaryDataStorage != true
            }
            let keys = shown.map { entity.columns[$0].name }
            let toManyNames = toMany ? entity.toManyRelationships.map(\.name) : []
            var rows: [[Value]] = []
            var primaryKeys: [Int64] = []
            var destinations: [[[Int64]]] = []
            for object in objects {
                rows.append(shown.map { object.value(at: $0) })
                primaryKeys.append(object.objectID.primaryKey)
                destinations.append(try toManyNames.map { name in try Self.destinationKeys(of: object, name, in: entity) })
            }
            let jsonValued = Set(keys.indices.filter { entity.attribute(named: keys[$0]).map(Self.holdsJSON) ?? false })
            // A to-one holds the destination's Z_PK, which an import cannot set: headed `boss` it would be
            // read back as the destination's key attribute and link the wrong objects (a user trial).
            let headers = format == .csv ? shown.map { entity.columns[$0].name + (entity.columns[$0].relationship == nil ? "" : ".Z_PK") } : keys
            print(try Self.render(rows, keys: headers, primaryKeys: primaryKeys, toMany: (toManyNames, destinations), jsonValued: jsonValued,
                                  format: format, nullTokens: nullTokens),
                  terminator: "")
        }
    }

    /// The primary keys of `object`'s destinations through the to-many relationship `name`: in the
    /// relationship's order when it is ordered, by primary key otherwise.
    static func destinationKeys(of object: ManagedObject, _ name: String, in entity: Entity) throws -> [Int64] {
        let keys = try object.objects(forKey: name).map(\.objectID.primaryKey)
        return entity.relationship(named: name)?.isOrdered == true ? keys : keys.sorted()
    }

    /// Whether `attribute` holds JSON text (a Transformable through ``JSONValueTransformer``), which
    /// output shows as the JSON value rather than as bytes, and CSV writes as the text the importer reads.
    static func holdsJSON(_ attribute: Attribute) -> Bool {
        attribute.type == .transformable && attribute.valueTransformerName == JSONValueTransformer.name
    }

    /// The entity a key path's last name belongs to, walking its to-one relationships (`details.closeDate`
    /// → FailedBankDetails, `closeDate`); nil when a step is not a to-one.
    static func lastStep(of keyPath: String, from entity: Entity, in model: ObjectModel) -> (entity: Entity, name: String)? {
        var current = entity
        let parts = keyPath.split(separator: ".").map(String.init)
        guard let last = parts.last else { return nil }
        for part in parts.dropLast() {
            guard let relationship = current.relationship(named: part), !relationship.isToMany,
                  let next = model.entity(named: relationship.destination) else { return nil }
            current = next
        }
        return (current, last)
    }

    /// Whether a key path through to-one relationships ends at a to-one relationship (`reportsTo`, `details.info`).
    static func toOne(at keyPath: String, from entity: Entity, in model: ObjectModel) -> Bool {
        guard let (owner, name) = lastStep(of: keyPath, from: entity, in: model) else { return false }
        return owner.relationship(named: name).map { !$0.isToMany } ?? false
    }

    /// The attribute a key path through to-one relationships ends at (`details.closeDate`), if any.
    static func attribute(at keyPath: String, from entity: Entity, in model: ObjectModel) -> Attribute? {
        lastStep(of: keyPath, from: entity, in: model).flatMap { $0.entity.attribute(named: $0.name) }
    }

    /// Renders rows of values as a table, JSON or CSV; `toMany` adds, per row, the destination keys of
    /// each named to-many relationship (table and JSON). Columns in `jsonValued` hold JSON text as data
    /// (``holdsJSON(_:)``): JSON output embeds the value, a table and CSV show the text.
    static func render(_ rows: [[Value]], keys: [String], primaryKeys: [Int64]?,
                       toMany: (names: [String], keys: [[[Int64]]]) = ([], []), jsonValued: Set<Int> = [],
                       format: OutputFormat, nullTokens: [String] = []) throws -> String {
        // JSON text stored as data, as text; anything that is not (a value a transformer in code wrote) stays data.
        let rows = jsonValued.isEmpty ? rows : rows.map { row in
            row.enumerated().map { i, value in
                guard jsonValued.contains(i), case .data(let data) = value, let text = String(bytes: data, encoding: .utf8),
                      (try? JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)) != nil else { return value }
                return .string(text)
            }
        }
        switch format {
        case .json:
            // The library refuses two properties with one name; should a repeat get here anyway, the
            // first value wins rather than the process trapping.
            let objects: [[String: Any]] = rows.enumerated().map { i, row in
                let values = row.enumerated().map { column, value -> Any in
                    guard jsonValued.contains(column), case .string(let text) = value,
                          let parsed = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed) else {
                        return value.jsonObject
                    }
                    return parsed
                }
                var object = Dictionary(zip(keys, values), uniquingKeysWith: { first, _ in first })
                for (name, destinations) in zip(toMany.names, toMany.keys.isEmpty ? [] : toMany.keys[i]) { object[name] = destinations }
                // The object's own key, which the to-one keys of others name (no property may be called Z_PK).
                if let primaryKeys { object["Z_PK"] = primaryKeys[i] }
                return object
            }
            let data = try JSONSerialization.data(withJSONObject: objects, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
            return String(decoding: data, as: UTF8.self) + "\n"
        case .csv:
            var lines = [keys.map { csvField(.string($0), nullTokens: nullTokens) }.joined(separator: ",")]
            lines += rows.map { $0.map { csvField($0, nullTokens: nullTokens) }.joined(separator: ",") }
            return lines.joined(separator: "\r\n") + "\r\n"
        case .table:
            let withKeys = primaryKeys != nil
            var table = TextTable((withKeys ? ["Z_PK"] : []) + keys + toMany.names, maxCellWidth: 40)
            for (i, row) in rows.enumerated() {
                let destinations = toMany.keys.isEmpty ? [] : toMany.keys[i].map(Self.toManyCell)
                table.append((withKeys ? [String(primaryKeys![i])] : []) + row.map(tableCell) + destinations)
            }
            return table.render() + "\n(\(rows.count) row\(rows.count == 1 ? "" : "s"))\n"
        }
    }

    /// A value as a CSV field that `seedstore import` reads back as the same value, without a warning:
    /// null as an empty unquoted field (or, given `nullTokens`, the first of them), and text quoted when it is
    /// empty or equal to a null token (`""`, `"NULL"`, `"NA"` and any of `nullTokens`: the importer's
    /// null tokens apply to unquoted fields only), when it starts or ends with a space or tab, is `\N` or
    /// ends with a backslash (the importer keeps quoted text exactly, and warns of these unquoted), as
    /// well as when it holds a comma, a quote or a line break. Binary data is hexadecimal after `0x`
    /// (`0x` alone when empty).
    ///
    /// For example:
    ///
    /// ```swift
    /// [Value.null, .string(""), .string("NULL"), .string("a,b")].map { QueryCommand.csvField($0) }   // ["", "\"\"", "\"NULL\"", "\"a,b\""]
    /// [Value.string(" lead"), .string("\\N"), .string("C:\\")].map { QueryCommand.csvField($0) }  // ["\" lead\"", "\"\\N\"", "\"C:\\\""]
    /// QueryCommand.csvField(.string("-"), nullTokens: ["-"])   // "\"-\""
    /// ```
    static func csvField(_ value: Value, nullTokens: [String] = []) -> String {
        let text = value.cellText
        switch value {
        case .null:
            return nullTokens.first ?? ""
        case .data(let data):
            // Hexadecimal after 0x, which the importer reads first: Base64 such as "0x12" (the bytes D3 1D 76)
            // would read back as hex, and empty data, written as nothing, as null.
            return hex(data)
        case .string(let string):
            // Null tokens apply to unquoted fields only. Spaces or tabs around unquoted text are dropped by an
            // import with --trim, and `\N` or a trailing backslash looks like a MySQL or PostgreSQL escape:
            // the importer warns of both, with advice that would change the value; quoted text it keeps as written.
            if let first = string.utf8.first, let last = string.utf8.last,
               first == 0x20 || first == 0x09 || last == 0x20 || last == 0x09 || last == 0x5C || string == "\\N" {
                return quoted(string)
            }
            if CSVOptions.defaultNullTokens.contains(string) || nullTokens.contains(string) { return quoted(string) }
        default:
            break
        }
        // By bytes: "\r\n", or a comma followed by a combining mark, is one Character, equal to none of these.
        return text.utf8.contains(where: { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }) ? quoted(text) : text
    }

    /// A value as a table cell: null as `NULL`, binary data in hexadecimal after `0x` (as CSV
    /// writes it), and text that could be taken for null or for nothing or for other text (empty or
    /// blank text, the text `NULL`, text with spaces or line breaks around it, text starting with a
    /// quote) in double quotes, quotes inside doubled (`""`, `"NULL"`, `"live "`).
    ///
    /// For example:
    ///
    /// ```swift
    /// [Value.null, .string(""), .string("NULL"), .string("Davolio")].map(QueryCommand.tableCell)   // ["NULL", "\"\"", "\"NULL\"", "Davolio"]
    /// ```
    static func tableCell(_ value: Value) -> String {
        switch value {
        case .null:
            return "NULL"
        case .data(let data):
            return hex(data)
        case .string(let string):
            let trimmed = string.trimmingCharacters(in: .whitespacesAndNewlines)
            // Spaces around text are invisible in a column: quoted, `"live "` shows why `name == 'live'` finds nothing.
            return trimmed.isEmpty || trimmed == "NULL" || string.utf8.first == 0x22 || trimmed.utf8.count != string.utf8.count
                ? quoted(string) : string
        default:
            return value.cellText
        }
    }

    /// A to-many relationship as a table cell: the count, then the keys that fit in 40 characters.
    ///
    /// For example:
    ///
    /// ```swift
    /// QueryCommand.toManyCell([3, 7, 12])   // "3: 3, 7, 12"
    /// QueryCommand.toManyCell([])           // "0"
    /// ```
    static func toManyCell(_ keys: [Int64]) -> String {
        guard !keys.isEmpty else { return "0" }
        var cell = "\(keys.count): "
        for (i, key) in keys.enumerated() {
            let item = (i == 0 ? "" : ", ") + String(key)
            if cell.count + item.count > (i == keys.count - 1 ? 40 : 39) { return cell + "…" }
            cell += item
        }
        return cell
    }

    /// Binary data as hexadecimal after `0x` (`0x` alone when empty), as the importer reads it.
    static func hex(_ data: Data) -> String {
        "0x" + data.map { String(format: "%02X", $0) }.joined()
    }

    /// `text` in double quotes, quotes inside doubled.
    private static func quoted(_ text: String) -> String {
        // By bytes: a quote followed by a combining mark is one Character, which a search for `"` would pass.
        var bytes: [UInt8] = [0x22]
        for byte in text.utf8 {
            bytes.append(byte)
            if byte == 0x22 { bytes.append(0x22) }
        }
        bytes.append(0x22)
        return String(decoding: bytes, as: UTF8.self)
    }
}
