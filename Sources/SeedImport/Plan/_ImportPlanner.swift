import CSVStream
import Foundation
import ManagedStore

/// Everything decided before the first row: files in dependency order, their headers resolved into
/// field indices and converters, and the key indexes with the file after which each can go.
struct _ImportPlan {
    var files: [_FilePlan]
    var indexes: [_IndexKey: _KeyIndex]
    var totalBytes: Int64
    /// Things found while planning that do not stop the import (a UTF-8 byte-order mark in a file read
    /// as another encoding), for ``ImportSummary/warnings``.
    var warnings: [String] = []
}

/// Turns a mapping, a model and the files' headers into an ``_ImportPlan``, collecting every problem.
struct _ImportPlanner {
    let model: ObjectModel
    let mapping: ImportMapping
    let options: ImportOptions
    private var problems: [String] = []
    /// What the plan's ``_ImportPlan/warnings`` will hold.
    private var warnings: [String] = []
    /// Run positions of the files that fill each entity.
    private var fillPositions: [String: [Int]] = [:]
    /// The files' paths as the mapping writes them, in run order.
    private var runOrderPaths: [String] = []
    /// How many targets, relationships and join sides of the mapping use each index.
    private var indexUses: [_IndexKey: Int] = [:]
    /// Header names used by the mapping that the header holds more than once (reported once each).
    private var ambiguousColumns = Set<String>()
    /// Null-token lists found unusable, reported once each however many columns use them.
    private var badNullTokens = Set<[String]>()
    /// Problems whose value came from an option rather than the mapping (`--null`), by option, so the
    /// hint sends the user to the option.
    private var optionProblems: [String: Int] = [:]
    /// Problems with an input file itself (cannot be opened, empty, a blank header), which no mapping fixes.
    private var fileProblems = 0
    /// Options that clash with the mapping in a problem (`--delimiter` equal to the mapping's quote).
    private var clashingOptions = Set<String>()
    /// How copies of inputs that are not regular files show themselves (``_InputSpool/Reporting``).
    var copying: _InputSpool.Reporting?

    init(model: ObjectModel, mapping: ImportMapping, options: ImportOptions) {
        self.model = model
        self.mapping = mapping
        self.options = options
    }

    static func plan(model: ObjectModel, mapping: ImportMapping, options: ImportOptions,
                     copying: _InputSpool.Reporting? = nil) throws(ImportError) -> _ImportPlan {
        var planner = _ImportPlanner(model: model, mapping: mapping, options: options)
        planner.copying = copying
        let plan = planner.make()
        guard planner.problems.isEmpty, let plan else {
            let count = planner.problems.count
            let what = planner.fileProblems == count ? (count == 1 ? "an input file cannot be imported" : "input files cannot be imported")
                : planner.optionProblems.values.reduce(0, +) == count ? "the options do not fit the files"
                : mapping.isMadeFromHeaders ? "the files do not fit the model" : "the mapping does not fit the model or the files"
            throw ImportError(.mapping, reason: "\(what) (\(count) problem\(count == 1 ? "" : "s"))",
                              file: mapping.source, hint: planner.hint(problemCount: count), problems: planner.problems)
        }
        return plan
    }

    private mutating func problem(_ file: String?, _ message: String) {
        problems.append(file.map { "\($0): \(message)" } ?? message)
    }

    /// What to fix: the mapping, or the options the faulty values came from (`--null`), or both.
    private func hint(problemCount: Int) -> String {
        let options = Set(optionProblems.keys).union(clashingOptions).sorted()
        let fromOptions = optionProblems.values.reduce(0, +)
        let values = options.joined(separator: " and ") + " value" + (options.count == 1 && fromOptions <= 1 ? "" : "s")
        // Made from the headers, there is no mapping file to fix but the files and the options; a saved
        // one (--save-mapping) can say what they cannot.
        let mapping = self.mapping.isMadeFromHeaders
            ? "the files, or save the mapping made from their headers with --save-mapping FILE, edit it (see docs/mapping.md) and import with --mapping FILE"
            : "the mapping (see docs/mapping.md)"
        if fileProblems == problemCount {
            let one = problemCount == 1
            return "Fix the file\(one ? "" : "s") named above, or \(self.mapping.isMadeFromHeaders ? "the path\(one ? "" : "s") given" : "the mapping's path\(one ? " to it" : "s to them")"); nothing was written."
        }
        if options.isEmpty { return "Fix \(mapping); nothing was written." }
        if fromOptions == problemCount { return "Fix the \(values) (see seedstore import --help); nothing was written." }
        return "Fix \(mapping), or the \(values) named above; nothing was written."
    }

    /// Where a list of null tokens came from, for messages: the options' (the CLI's `--null`), or the
    /// mapping's `nullTokens`.
    private func nullTokensSource(_ tokens: [String]) -> String {
        tokens == options.nullTokens ? "--null" : "nullTokens"
    }

    /// A problem with a list of null tokens, counted against `--null` when the list came from it.
    private mutating func nullTokensProblem(_ tokens: [String], place: String, _ message: String) {
        let source = nullTokensSource(tokens)
        if source == "--null" { optionProblems[source, default: 0] += 1 }
        problem(place, "\(source): " + message)
    }

    /// Whether a problem names `place` already (a follow-on one would add nothing).
    private func hasProblems(_ place: String) -> Bool { problems.contains { $0.hasPrefix(place + ":") } }

    private func entity(_ name: String) -> Entity? { model.entity(named: name) }

    private func suggestion(_ name: String, in names: [String]) -> String { _NameSuggestion.text(for: name, in: names) }

    // MARK: Order

    /// Files in dependency order: a file runs after the files that fill the entities its relationships and
    /// join point at; otherwise in mapping order.
    ///
    /// Files that fill the same entity keep the mapping's order, since a later file's rows update what an
    /// earlier one made: a file listed last to correct names must run last. A file that fills an entity
    /// its own relationships point at (an Emp's manager) needs only the earlier-listed files filling it;
    /// its rows may name keys further down itself. Should that order be impossible (a later file of the
    /// same entity also fills another entity this file needs), the dependencies alone decide, as before.
    ///
    /// When files refer to each other in a cycle (a Dept's head is an Emp, an Emp's dept a Dept), no order
    /// puts every file after all the files it needs. The mapping's own order then stands if each file comes
    /// after at least one file that fills every entity it names (its own entity aside): a key finds the
    /// objects made so far, as always. That is how a cycle is broken, by importing a file twice: first
    /// without the relationship column, then again, by its key, for that column alone.
    private mutating func order() -> [Int]? {
        let files = mapping.files
        var fills: [String: Set<Int>] = [:]
        for (i, file) in files.enumerated() {
            for name in file.entities { fills[name, default: []].insert(i) }
        }
        var dependencies = [Set<Int>](repeating: [], count: files.count)
        var inMappingOrder = [Set<Int>](repeating: [], count: files.count)
        var neededByFile = [[String]](repeating: [], count: files.count)
        for (i, file) in files.enumerated() {
            var needed: [String] = []
            switch file.content {
            case .targets(let targets):
                for target in targets {
                    guard let entity = entity(target.entity) else { continue }
                    for name in target.relationships.keys {
                        // A to-many named as a column is reported where it is planned; it orders nothing.
                        if let relationship = entity.relationship(named: name), !relationship.isToMany { needed.append(relationship.destination) }
                    }
                }
            case .join(let join):
                needed.append(join.entity)
                if let relationship = entity(join.entity)?.relationship(named: join.relationship) {
                    needed.append(relationship.destination)
                }
            }
            for name in needed {
                dependencies[i].formUnion(fills[name, default: []].subtracting([i]))
                let fillsItself = file.entities.contains(name)
                inMappingOrder[i].formUnion(fills[name, default: []].filter { $0 < i || ($0 > i && !fillsItself) })
            }
            for name in file.entities { inMappingOrder[i].formUnion(fills[name, default: []].filter { $0 < i }) }
            neededByFile[i] = needed
        }
        if case let (order, []) = Self.topological(inMappingOrder) { return order }
        let (order, stuck) = Self.topological(dependencies)
        guard !stuck.isEmpty else { return order }
        var filled = Set<String>()
        let mappingOrderWorks = files.indices.allSatisfy { i in
            defer { filled.formUnion(files[i].entities) }
            return neededByFile[i].allSatisfy { filled.contains($0) || files[i].entities.contains($0) }
        }
        if mappingOrderWorks { return Array(files.indices) }
        problem(mapping.source, "the files \(stuck.map { files[$0].path }.joined(separator: ", ")) refer to each other's entities in a cycle, and in the mapping's order some file names an entity no earlier file fills. Break the cycle by importing one file twice: first without its relationship column, then again, by its key, with that column alone (docs/mapping.md, \"Files that refer to each other\")"
                + (mapping.isMadeFromHeaders ? "; that takes a mapping file: save the one made from the headers with --save-mapping FILE, list the file there a second time, and import with --mapping FILE" : ""))
        return nil
    }

    /// The files in an order that puts each after its `dependencies`, the lowest ready index first (so in
    /// mapping order wherever they allow it); on a cycle, the files placed and the `stuck` rest.
    private static func topological(_ dependencies: [Set<Int>]) -> (order: [Int], stuck: [Int]) {
        var done = Set<Int>()
        var order: [Int] = []
        while order.count < dependencies.count {
            guard let next = dependencies.indices.first(where: { !done.contains($0) && dependencies[$0].isSubset(of: done) }) else {
                return (order, dependencies.indices.filter { !done.contains($0) })
            }
            done.insert(next)
            order.append(next)
        }
        return (order, [])
    }

    // MARK: Plan

    private mutating func make() -> _ImportPlan? {
        if mapping.files.isEmpty { problem(mapping.source, "the mapping names no files") }
        // Unknown entities are reported, and their targets left out of the rest, which is still checked:
        // every problem the files have comes out at once.
        for file in mapping.files {
            let names: [String]
            switch file.content {
            case .targets(let targets): names = targets.map(\.entity)
            case .join(let join): names = [join.entity]
            }
            for name in names where entity(name) == nil {
                problem(file.path, "the model has no entity '\(name)'" + suggestion(name, in: model.entities.map(\.name)))
            }
        }
        // A cycle is reported, and the rest is still checked in the mapping's order.
        let order = order() ?? Array(mapping.files.indices)
        runOrderPaths = order.map { mapping.files[$0].path }
        for (position, fileIndex) in order.enumerated() {
            for name in mapping.files[fileIndex].entities { fillPositions[name, default: []].append(position) }
        }

        // Which index each file needs, to know how long to keep it.
        var lastUse: [_IndexKey: Int] = [:]
        for (position, fileIndex) in order.enumerated() {
            func use(_ key: _IndexKey) {
                lastUse[key] = position
                indexUses[key, default: 0] += 1
            }
            switch mapping.files[fileIndex].content {
            case .targets(let targets):
                for target in targets {
                    if let key = target.key { use(_IndexKey(entity: target.entity, attribute: key)) }
                    guard let entity = entity(target.entity) else { continue }
                    for (name, spec) in target.relationships {
                        if let destination = entity.relationship(named: name)?.destination {
                            use(_IndexKey(entity: destination, attribute: spec.destinationKey))
                        }
                    }
                }
            case .join(let join):
                use(_IndexKey(entity: join.entity, attribute: join.sourceKey))
                if let destination = entity(join.entity)?.relationship(named: join.relationship)?.destination {
                    use(_IndexKey(entity: destination, attribute: join.destinationKey))
                }
            }
        }
        var indexes: [_IndexKey: _KeyIndex] = [:]
        for key in lastUse.keys {
            guard let entity = entity(key.entity) else { continue }
            guard let attribute = entity.attribute(named: key.attribute) else { continue }  // reported where used
            if attribute.type == .transformable || attribute.type == .binary { continue }
            indexes[key] = _KeyIndex(entity: entity, attribute: key.attribute)
        }

        var files: [_FilePlan] = []
        var total: Int64 = 0
        for (position, fileIndex) in order.enumerated() {
            let mapping = self.mapping.files[fileIndex]
            var fileOptions = mapping.options.overridden(by: options).forFile(mapping.path)
            // The mapping chose a zone for this file's times; the command line's replaces it, hours apart.
            if let zone = options.timeZone, let own = mapping.options.timeZone,
               _LocalZone.named(own)?.name != _LocalZone.named(zone)?.name,
               mapping.entities.contains(where: { model.entity(named: $0)?.attributes.contains { $0.type == .date } ?? false }),
               !warnings.contains(where: { $0.hasPrefix("\(mapping.path): --time-zone") }) {
                warnings.append("\(mapping.path): --time-zone \(zone) replaces the mapping's \"timeZone\": \"\(own)\" for this file's dates and times; "
                    + "to keep each file's own, leave out --time-zone and set \"timeZone\" in \"defaults\" for the files that have none")
            }
            // A pipe or device gives its bytes once; the importer reads a file more than once.
            let readable: String
            do {
                readable = try _InputSpool.readablePath(self.mapping.resolve(mapping.path), reporting: copying)
            } catch {
                problem(mapping.path, error.description)
                continue
            }
            // Excel's `sep=;` line names the delimiter and is skipped.
            fileOptions = fileOptions.withSeparatorLine(of: readable)
            let file = _FilePlan(mapping: mapping, path: readable, displayPath: mapping.path,
                                 position: position, options: fileOptions)
            guard readHeader(file) else { continue }
            total += file.size
            switch mapping.content {
            case .targets(let targets):
                planTargets(targets, file: file, indexes: indexes, lastUse: lastUse)
            case .join(let join):
                planJoin(join, file: file, indexes: indexes)
            }
            file.releases = lastUse.filter { $0.value == position }.map(\.key).sorted()
            files.append(file)
        }
        warnings += Self.repeatedListings(files)
        return _ImportPlan(files: files, indexes: indexes, totalBytes: total, warnings: warnings)
    }

    /// Warnings for a file listed more than once to fill an entity where rows would be added twice: a
    /// listing without a key adds every row, so after any earlier listing of the same file for that entity
    /// it makes the objects again (a user trial's `R=ok.csv R=ok.csv` doubled them without a word, and so
    /// did a keyed listing followed by one without a key). A listing with a key finds the objects earlier
    /// listings made and updates them, which is how a file is listed again on purpose; when the first
    /// listing has no key and later ones do, the warning says that the later ones update the first's objects.
    static func repeatedListings(_ files: [_FilePlan]) -> [String] {
        var warnings: [String] = []
        var seen: [(path: String, entity: String)] = []
        for file in files {
            for target in file.targets {
                let name = target.entity.name
                guard !seen.contains(where: { $0.entity == name && _StoreFile.samePath($0.path, file.path) }) else { continue }
                seen.append((file.path, name))
                // Each listing of this file for the entity, in run order: how it finds existing objects, or nil.
                let keys: [String?] = files.filter { _StoreFile.samePath($0.path, file.path) }.flatMap { other in
                    other.targets.filter { $0.entity.name == name }.map { listing in
                        listing.keyAttribute.map { "the key '\($0)'" }
                            ?? listing.keyThrough.map { t in "the key of its \(other.targets.first { $0.index == t }?.entity.name ?? "linked object")" }
                    }
                }
                guard keys.count > 1 else { continue }
                let listed = "\(file.displayPath) fills \(name) \(keys.count) times"
                if keys.allSatisfy({ $0 == nil }) {
                    warnings.append("\(listed), and \(name) has no key: each listing adds every row again; "
                        + "list the file once, or give \(name) a key (\"key\" in a mapping) so a later listing updates the same objects")
                } else if let key = keys.first(where: { $0 != nil }) ?? nil, keys.dropFirst().contains(where: { $0 == nil }) {
                    warnings.append("\(listed), and a listing without a key comes after one by \(key): it adds every row again, so \(name) objects are made twice; "
                        + "list the file once, or give every listing the same \"key\" so a later listing updates the same objects")
                } else if keys[0] == nil, let key = keys[1] {
                    warnings.append("\(listed): first without a key, which adds every row, then by \(key), "
                        + "which finds the objects the first listing made and updates them rather than adding them again")
                }
            }
        }
        return warnings
    }

    /// Opens the file for its header and size.
    private mutating func readHeader(_ file: _FilePlan) -> Bool {
        do {
            let reader = try CSVReader(path: file.path, dialect: file.options.dialect)
            file.size = reader.fileSize ?? 0
            file.fingerprint = _Fingerprint(path: file.path)
            if let warning = Self.byteOrderMarkWarning(reader, file: file.displayPath, encodingOption: options.encoding != nil) {
                warnings.append(warning)
            }
            if file.options.hasHeader {
                if let problem = _HeaderCheck.problem(reader.header) {
                    fileProblems += 1
                    self.problem(file.displayPath, problem)
                    return false
                }
                guard let header = reader.header else { return false }
                file.header = header
                file.columnCount = header.count
            } else {
                // Without a header, the first record tells how many columns there are.
                file.columnCount = (try? reader.next())?.count ?? 0
            }
            return true
        } catch {
            if error.kind == .io {
                // "cannot open the file: No such file or directory", once, after the path as the mapping names it.
                fileProblems += 1
                problem(file.displayPath, error.message + _NameSuggestion.file(for: file.path, shown: file.displayPath))
            } else if error.kind == .invalidDialect {
                // CSVStream's hint names its own settings (a comment prefix); the user sets these two.
                let delimiter = options.delimiter != nil ? "--delimiter" : "the mapping's \"delimiter\""
                let quote = options.quote != nil ? "--quote" : "the mapping's \"quote\""
                for option in [delimiter, quote] where option.hasPrefix("--") { clashingOptions.insert(option) }
                problem(nil, error.dialectProblem(file: file.displayPath, delimiter: delimiter, quote: quote))
            } else {
                problem(nil, error.headerProblem(file: file.displayPath, withHint: true))
            }
            return false
        }
    }

    /// What to do about a date that is not ISO 8601 in a column without a `format`: the fix is a mapping
    /// with one, which an import without a mapping file (`Entity=file.csv`) has to be given first.
    private func dateFormatHint(attribute: String, column: String) -> String {
        let example = "\"\(attribute)\": {\"column\": \"\(column)\", \"format\": \"dd/MM/yyyy\"}"
        if mapping.source == nil {
            return "Without a mapping file, dates are read as ISO 8601 (2020-01-13) unless --date-format gives how they are written (--date-format dd/MM/yyyy; repeat it for several, tried in order; --pivot-year for two-digit years), or a mapping file gives the column a \"format\" (\(example); see docs/mapping.md)."
        }
        return "Dates are read as ISO 8601 (2020-01-13) unless the column has a \"format\"; if its dates are written another way, give it one in the mapping (\(example); see docs/mapping.md)."
    }

    /// A warning when `reader`'s file starts with a UTF-8 byte-order mark but is read as another encoding:
    /// the mark says the file is UTF-8, so its accented letters would come out garbled.
    static func byteOrderMarkWarning(_ reader: CSVReader, file: String, encodingOption: Bool) -> String? {
        let encoding = reader.dialect.encoding
        guard reader.skippedByteOrderMark, encoding != .utf8 else { return nil }
        let setting = encodingOption ? "--encoding" : "the mapping's \"encoding\""
        return "\(file) starts with a UTF-8 byte-order mark but is read as \(encoding.displayName) (\(setting)): the mark says the file is UTF-8, so letters beyond ASCII would come out garbled (é as Ã©); if it is UTF-8, read it as utf-8"
    }

    /// Packed null tokens; when they do not fit, a problem (once per list of tokens) and the empty token
    /// alone, so that planning goes on without problems that follow from this one.
    private mutating func nullTokens(_ tokens: [String], place: String, options: CSVOptions) -> _NullTokens {
        let tokens = options.nullTokens(reading: tokens)
        // Null tokens match unquoted fields after trimming: one holding the delimiter or a line break,
        // starting with the quote, or (trimming) starting or ending with a space or tab, could never match.
        let delimiter = Character(Unicode.Scalar(options.delimiter)), quote = Character(Unicode.Scalar(options.quote))
        let unmatchable = tokens.filter { token in
            token.contains(delimiter) || token.first == quote || token.contains(where: \.isNewline)
                || (options.trim && (token.first.map { $0 == " " || $0 == "\t" } ?? false || token.last.map { $0 == " " || $0 == "\t" } ?? false))
        }
        if !unmatchable.isEmpty, badNullTokens.insert(tokens + ["\(options.delimiter)/\(options.quote)/\(options.trim)"]).inserted {
            let shown = unmatchable.map { "\"\($0.replacingOccurrences(of: "\n", with: "\\n").replacingOccurrences(of: "\r", with: "\\r").replacingOccurrences(of: "\t", with: "\\t"))\"" }
            nullTokensProblem(tokens, place: place, "\(shown.joined(separator: ", ")) can never match: null tokens are compared with unquoted values\(options.trim ? " after trimming spaces and tabs" : ""), which hold no delimiter or line break and do not start with a quote; drop \(unmatchable.count == 1 ? "it" : "them")\(options.trim ? " or trim the token" : "")")
        }
        guard let packed = _NullTokens(tokens, escape: options.escape) else {
            let fallback = _NullTokens([""], escape: options.escape)!
            if badNullTokens.insert(tokens).inserted, let message = _NullTokens.limitProblem(tokens) {
                nullTokensProblem(tokens, place: place, message)
            }
            return fallback
        }
        return packed
    }

    /// The field a column name means; a name the header holds more than once, or that several columns
    /// match once case, spaces and `_` are set aside, is a problem (which one would be meant is a guess).
    /// `relationship`: the column holds the key of that to-one of the target at `place`, which the problem
    /// names, with how to name the column exactly under `"relationships"`.
    private mutating func field(_ column: String, in file: _FilePlan,
                                relationship: (name: String, destinationKey: String, place: String)? = nil) -> Int? {
        guard let index = file.columns.index(of: column) else { return nil }
        if let header = file.header, let same = file.columns.ambiguity(of: column) {
            let name = header[index].trimmingCharacters(in: .whitespaces)
            if ambiguousColumns.insert("\(file.position)/\(name)").inserted {
                if file.columns.count(of: column) > 1 {
                    problem(file.displayPath, "the header names \"\(name)\" \(same.count) times (columns \(same.map { String($0 + 1) }.joined(separator: ", "))), so which one to read is unclear; give the columns distinct names")
                } else {
                    problem(relationship.map { "\($0.place).\($0.name)" } ?? file.displayPath,
                            HeaderName.ambiguityProblem(column, header: header, columns: same, inMapping: true,
                                                        relationship: relationship.map { ($0.name, $0.destinationKey) }))
                }
            }
        }
        return index
    }

    /// `; did you mean "spud_date"?` when the header has a column close to `column`; else empty, as when
    /// the header reads as one column holding another delimiter (that is the cause to name).
    private func headerSuggestion(_ column: String, _ file: _FilePlan) -> String {
        guard delimiterHint(file).isEmpty else { return "" }
        let names = (file.header ?? []).map { $0.trimmingCharacters(in: .whitespaces) }
        return _NameSuggestion.closest(to: column, in: names).map { "; did you mean \"\($0)\"?" } ?? ""
    }

    private func headerList(_ file: _FilePlan) -> String {
        guard let header = file.header else { return "no header; name columns 1...\(file.columnCount)" }
        return "the header has: " + header.map { "\"\($0)\"" }.joined(separator: ", ")
    }

    /// `; it reads as one column holding ';': …` when the header read as one column names another likely
    /// delimiter, for the end of a message about the file's columns; else empty.
    private func delimiterHint(_ file: _FilePlan) -> String {
        _DelimiterGuess.suggestion(header: file.header, delimiter: file.options.delimiter).map { "; " + $0 } ?? ""
    }

    /// Where the header more likely is, for the end of a message about a header that names nothing of
    /// `entity`, when the delimiter is not the likelier cause; else empty.
    private func headerLineHint(_ file: _FilePlan, _ entity: Entity) -> String {
        let names = entity.attributes.map(\.name) + entity.relationships.map(\.name)
        // Only for a header that names nothing of the entity: a header with a few names is the header.
        let folded = Set(names.map(HeaderName.fold))
        guard delimiterHint(file).isEmpty, file.options.hasHeader,
              !(file.header ?? []).contains(where: { folded.contains(HeaderName.fold($0)) }) else { return "" }
        return _HeaderLineGuess.suggestion(path: file.path, options: file.options, names: names).map { "; " + $0 } ?? ""
    }

    /// Refuses a mapping that fills an attribute allowing external storage, which stays NULL: by name, or
    /// through a column the mapping gives it. Left out (`"photo": null`, or no column of its name), it is fine.
    private mutating func externalStorage(_ attribute: Attribute, of entity: Entity, spec: ColumnMapping?, in file: _FilePlan, place: String) {
        let leftOut = spec.map { $0.column == nil } ?? (file.columns.index(of: attribute.name) == nil)
        let name = "\(entity.name).\(attribute.name)"
        if !attribute.isOptional {
            problem(place, "\(name) is required but allows external storage, so no import can fill it: \(Attribute.externalStorageReason). "
                    + "Make it optional (in the app's model too: optionality is part of Core Data's version hash) and let the app set it")
        } else if !leftOut {
            let column = spec?.column ?? attribute.name
            problem(place, "\(name) allows external storage, so the import cannot fill it from the column \"\(column)\": \(Attribute.externalStorageReason). "
                    + "Leave it out of the mapping (\"\(attribute.name)\": null in \"columns\") and let the app set it; the column stays NULL")
        }
    }

    private mutating func planTargets(_ targets: [TargetMapping], file: _FilePlan, indexes: [_IndexKey: _KeyIndex],
                                      lastUse: [_IndexKey: Int]) {
        for (t, target) in targets.enumerated() {
            guard let entity = entity(target.entity) else { continue }
            let place = "\(file.displayPath) → \(entity.name)"
            let plan = _TargetPlan(entity: entity, index: t)
            var mapped = Set<String>()

            // Attributes: explicit columns, then by name.
            for (name, spec) in target.columns where entity.attribute(named: name) == nil {
                if entity.relationship(named: name) != nil {
                    problem(place, "'\(name)' is a relationship: map it under \"relationships\" with a column and a destinationKey, or as the \"link\"")
                } else {
                    problem(place, "the entity has no attribute '\(name)'" + suggestion(name, in: entity.attributes.map(\.name)))
                }
                _ = spec
            }
            for attribute in entity.attributes {
                let spec = target.columns[attribute.name]
                if attribute.allowsExternalBinaryDataStorage {
                    externalStorage(attribute, of: entity, spec: spec, in: file, place: place)
                    continue
                }
                let column: String
                if let spec {
                    guard let named = spec.column else {
                        if !attribute.isOptional && attribute.defaultValue == nil {
                            problem(place, "\(attribute.name) is required and has no default, so it cannot be left out (\"\(attribute.name)\": null); map it to a column")
                        }
                        continue   // left out on purpose
                    }
                    column = named
                } else {
                    column = attribute.name
                }
                guard let index = field(column, in: file) else {
                    if spec != nil {
                        problem(place, "the column \"\(column)\" named for \(attribute.name) is not in the file\(headerSuggestion(column, file)) (\(headerList(file)))\(delimiterHint(file))")
                    } else if !attribute.isOptional && attribute.defaultValue == nil {
                        // A correction file (key and changed columns) of an entity an earlier file fills: its
                        // rows may update objects, and one that would make a new object is a reject.
                        if target.key != nil, (fillPositions[entity.name] ?? []).contains(where: { $0 < file.position }) {
                            plan.unmappedRequired.append(attribute.name)
                        } else {
                            // A keyed file may leave it out once an earlier file makes the objects (not the key itself).
                            let updateNote = target.key != nil && target.key != attribute.name
                                ? "; a file that only updates objects an earlier file made may leave it out" : ""
                            problem(place, "\(attribute.name) is required, has no default and no column matches its name; map it in \"columns\" (\(headerList(file)))\(updateNote)\(delimiterHint(file))\(headerLineHint(file, entity))")
                        }
                    }
                    continue
                }
                var format: DateFormat?
                // The mapping's formats, else the options' (--date-format) for a Date column.
                let formats = spec?.formats.isEmpty == false ? spec?.formats : attribute.type == .date ? options.dateFormats : nil
                let pivotYear = spec?.pivotYear ?? (attribute.type == .date ? options.pivotYear : nil)
                // The zone for values written without one: the column's own, else the file's (--time-zone,
                // "timeZone"). Date columns only.
                if spec?.timeZone != nil && attribute.type != .date {
                    problem(place, "\(attribute.name): \"timeZone\" applies to Date attributes only, and \(attribute.name) is \(attribute.type.rawValue)")
                }
                let zone = attribute.type == .date ? spec?.timeZone ?? file.options.timeZone : nil
                if let formats, !formats.isEmpty {
                    do { format = try DateFormat(anyOf: formats, pivotYear: pivotYear, timeZone: zone) } catch {
                        problem(place, "\(attribute.name): \(error)")
                        continue
                    }
                } else if attribute.type == .date, pivotYear != nil || zone != nil {
                    do { format = try DateFormat("iso8601", pivotYear: pivotYear, timeZone: zone) } catch {
                        problem(place, "\(attribute.name): \(error)")
                        continue
                    }
                }
                let nulls = nullTokens(spec?.nullTokens ?? file.options.nullTokens, place: place, options: file.options)
                // The mapping's words for a Boolean column, else the options' (--true-value) for any Boolean column.
                let trueValues = spec?.trueValues ?? (attribute.type == .boolean ? options.trueValues : nil)
                let falseValues = spec?.falseValues ?? (attribute.type == .boolean ? options.falseValues : nil)
                switch _FieldConverter.make(for: attribute, format: format, encoding: file.options.encoding, decimalComma: file.options.decimalComma,
                                            trueValues: trueValues, falseValues: falseValues, keepAlive: &plan.keepAlive) {
                case .failure(let failure):
                    problem(place, failure.message)
                case .success(let converter):
                    var nullValue = -1
                    if let value = attribute.defaultValue ?? (attribute.isOptional ? Value.null : nil) {
                        nullValue = plan.nullValues.count
                        plan.nullValues.append(value)
                    }
                    var fieldPlan = _FieldPlan(field: index, ordinal: entity.columnIndex(of: attribute.name)!, converter: converter,
                                               nulls: nulls, nullValue: nullValue)
                    // Tokens the user chose (the column's, --null, the file's or the defaults') are meant:
                    // only the built-in ones' text made null is worth a warning.
                    if case .string = converter, spec?.nullTokens == nil, !file.options.isNullTokensSet, file.options.escape == nil {
                        fieldPlan.countsTextNulls = true
                    }
                    if case .string = converter, !file.options.trim { fieldPlan.countsPadding = true }
                    if case .string = converter, file.options.escape == nil { fieldPlan.countsEscapes = true }
                    if case .integer = converter { fieldPlan.countsLeadingZeros = true }
                    if pivotYear == nil, format?.readsTwoDigitYears == true { fieldPlan.checksFutureYears = true }
                    plan.fields.append(fieldPlan)
                    plan.attributeNames.append(attribute.name)
                    plan.columnNullTokens.append(spec?.nullTokens)
                    plan.conversionHints.append(attribute.type == .date && formats?.isEmpty != false
                        ? dateFormatHint(attribute: attribute.name, column: file.columnName(index)) : nil)
                    mapped.insert(attribute.name)
                }
            }

            // Key.
            if let key = target.key {
                if entity.attribute(named: key) == nil {
                    problem(place, "the key '\(key)' is not an attribute of \(entity.name)" + suggestion(key, in: entity.attributes.map(\.name)))
                } else if !mapped.contains(key) {
                    problem(place, "the key '\(key)' has no column in the file, so every row would have the same key")
                } else if let index = indexes[_IndexKey(entity: entity.name, attribute: key)] {
                    plan.key = index
                    plan.keyAttribute = key
                } else {
                    problem(place, "the key '\(key)' is Binary or Transformable; choose an attribute that can be compared")
                }
            }
            // Other indexes this entity's objects must be findable by, later in this file or in later files.
            // The key's own index, when the key was refused above, is not reported again as another's.
            for (indexKey, index) in indexes where indexKey.entity == entity.name && index !== plan.key && indexKey.attribute != target.key
                && (lastUse[indexKey] ?? -1) >= file.position {
                if mapped.contains(indexKey.attribute) {
                    plan.populates.append(index)
                    index.isPopulated = true
                } else {
                    problem(place, "relationships elsewhere find \(entity.name) objects by \(indexKey.attribute), which this file does not fill")
                }
            }

            // Relationships from key columns.
            for (name, spec) in target.relationships.sorted(by: { $0.key < $1.key }) {
                guard let relationship = entity.relationship(named: name) else {
                    problem(place, "the entity has no relationship '\(name)'" + suggestion(name, in: entity.relationships.map(\.name)))
                    continue
                }
                guard !relationship.isToMany, let ordinal = entity.columnIndex(of: name) else {
                    problem(place, "\(name) is to-many: fill it from the other side (map the inverse to-one '\(relationship.inverse ?? "?")' on the \(relationship.destination) file), or with a \"join\" file for many-to-many")
                    continue
                }
                guard let destination = self.entity(relationship.destination),
                      let keyAttribute = destination.attribute(named: spec.destinationKey) else {
                    problem(place, "\(name): \(relationship.destination) has no attribute '\(spec.destinationKey)'"
                        + suggestion(spec.destinationKey, in: self.entity(relationship.destination)?.attributes.map(\.name) ?? []))
                    continue
                }
                guard let index = field(spec.column, in: file, relationship: (name, spec.destinationKey, place)) else {
                    problem(place, "the column \"\(spec.column)\" named for \(name) is not in the file\(headerSuggestion(spec.column, file)) (\(headerList(file)))\(delimiterHint(file))")
                    continue
                }
                guard let keyIndex = indexes[_IndexKey(entity: destination.name, attribute: spec.destinationKey)],
                      case .success(let converter) = _FieldConverter.make(for: keyAttribute, format: nil, encoding: file.options.encoding, decimalComma: file.options.decimalComma,
                                                                          keepAlive: &plan.keepAlive) else {
                    problem(place, "\(name): \(destination.name).\(spec.destinationKey) is Binary or Transformable and cannot be a key")
                    continue
                }
                if !(fillPositions[destination.name] ?? []).contains(where: { $0 <= file.position }) {
                    problem(place, "\(name) finds \(destination.name) objects by \(spec.destinationKey), but no file of the mapping fills \(destination.name) before this one")
                    continue
                }
                // An earlier target of this row that makes the destination under this key.
                let sameRow = targets[..<t].indices.first { other in
                    targets[other].entity == destination.name && targets[other].key == spec.destinationKey
                }
                let nulls = nullTokens(spec.nullTokens ?? file.options.nullTokens, place: place, options: file.options)
                var relationshipPlan = _RelationshipPlan(
                    field: index, ordinal: ordinal, converter: converter, nulls: nulls, index: keyIndex,
                    isOptional: relationship.isOptional, sameRowTarget: sameRow ?? -1,
                    destinationInFile: (fillPositions[destination.name] ?? []).contains(file.position))
                if let inverse = relationship.inverse.flatMap({ destination.relationship(named: $0) }), !inverse.isToMany,
                   let inverseOrdinal = destination.columnIndex(of: inverse.name) {
                    relationshipPlan.isOneToOne = true
                    relationshipPlan.inverseOrdinal = inverseOrdinal
                }
                if relationshipPlan.isOneToOne { plan.oneToOne.append(plan.relationships.count) }
                plan.relationships.append(relationshipPlan)
                plan.relationshipNames.append(name)
                plan.relationshipLaterFillers.append((fillPositions[destination.name] ?? []).first { $0 > file.position }.map { runOrderPaths[$0] })
            }

            // Link to another target of the same row.
            if let link = target.link {
                plan.link = planLink(link, entity: entity, targets: targets, self: t, place: place)
                keyThroughLink(plan, target, targets: targets, file: file)
            }
            // Required to-ones nothing fills.
            for relationship in entity.relationships where !relationship.isToMany && !relationship.isOptional {
                let filled = target.relationships[relationship.name] != nil || target.link?.relationship == relationship.name
                    || targets.contains { other in
                        other.link?.target == entity.name && other.entity == relationship.destination
                            && self.entity(other.entity)?.relationship(named: other.link!.relationship)?.inverse == relationship.name
                    }
                if !filled {
                    problem(place, "the to-one \(relationship.name) is required and nothing fills it; map it under \"relationships\" or as a \"link\"")
                }
            }
            // A target that takes nothing from the row would make an empty object per row: a header that
            // does not match (a wrong file, delimiter or entity) rather than what anyone wants.
            let linked = target.link != nil || targets.contains { $0.link?.target == entity.name }
            if plan.fields.isEmpty && plan.relationships.isEmpty && !linked && !hasProblems(place) {
                problem(place, "no column of the file fills an attribute or relationship of \(entity.name), so every row would make an empty object (\(headerList(file)); \(entity.name) has: \(entity.attributes.map(\.name).joined(separator: ", "))); map them under \"columns\", or check the delimiter and the entity\(delimiterHint(file))\(headerLineHint(file, entity))")
            }
            plan.mappedOrdinals = plan.fields.map(\.ordinal) + plan.relationships.filter { !$0.isOneToOne }.map(\.ordinal)
            file.targets.append(plan)
        }
    }

    /// A target keyed by the same column as the earlier target it links to one-to-one (a well row into
    /// `WellSummary` + `WellDetail`, both by `uwi`) finds its object through the link instead of an index
    /// of its own: the same keys would be held twice. Only when nothing else uses that index.
    private func keyThroughLink(_ plan: _TargetPlan, _ target: TargetMapping, targets: [TargetMapping], file: _FilePlan) {
        // A target without a key linked one-to-one to an earlier keyed one (a CrateInfo with its Crate): a
        // row that updates the Crate updates its CrateInfo too, rather than making a second one that takes
        // the Crate from the first.
        if target.key == nil, let link = plan.link, link.ordinal != nil, link.inverseOrdinal != nil, link.other < plan.index,
           targets.filter({ $0.entity == target.entity }).count == 1,
           let other = file.targets.first(where: { $0.index == link.other }), other.key != nil {
            plan.keyThrough = link.other
            plan.reportsDuplicates = false
            return
        }
        guard let keyName = target.key, let key = plan.key, let link = plan.link, link.ordinal != nil,
              link.inverseOrdinal != nil, link.other < plan.index,
              indexUses[_IndexKey(entity: plan.entity.name, attribute: keyName)] == 1,
              fillPositions[plan.entity.name] == [file.position], targets.filter({ $0.entity == target.entity }).count == 1,
              let other = file.targets.first(where: { $0.index == link.other }), let otherKey = other.key,
              let otherName = targets[link.other].key,
              let mine = plan.fields.first(where: { $0.ordinal == key.ordinal }),
              let theirs = other.fields.first(where: { $0.ordinal == otherKey.ordinal }), mine.field == theirs.field,
              target.columns[keyName] == targets[link.other].columns[otherName],
              let attribute = plan.entity.attribute(named: keyName), let otherAttribute = other.entity.attribute(named: otherName),
              attribute.type == otherAttribute.type, attribute.isOptional == otherAttribute.isOptional,
              attribute.defaultValue == otherAttribute.defaultValue else { return }
        plan.keyThrough = link.other
        plan.key = nil
    }

    private mutating func planLink(_ link: LinkMapping, entity: Entity, targets: [TargetMapping], self index: Int,
                                   place: String) -> _LinkPlan? {
        guard let relationship = entity.relationship(named: link.relationship) else {
            problem(place, "link: the entity has no relationship '\(link.relationship)'" + suggestion(link.relationship, in: entity.relationships.map(\.name)))
            return nil
        }
        guard let other = targets.indices.first(where: { $0 != index && targets[$0].entity == link.target }) else {
            problem(place, "link: no other target of this file fills \(link.target) (targets: \(targets.map(\.entity).joined(separator: ", ")))")
            return nil
        }
        guard relationship.destination == link.target, let destination = self.entity(link.target) else {
            problem(place, "link: \(link.relationship) goes to \(relationship.destination), not \(link.target)")
            return nil
        }
        let inverse = relationship.inverse.flatMap { destination.relationship(named: $0) }
        if !relationship.isToMany {
            let inverseOrdinal = inverse.flatMap { $0.isToMany ? nil : destination.columnIndex(of: $0.name) }
            return _LinkPlan(other: other, ordinal: entity.columnIndex(of: relationship.name), inverseOrdinal: inverseOrdinal, toManyName: nil)
        }
        if let inverse, !inverse.isToMany {
            // One-to-many from this side: the other object's to-one holds the key.
            return _LinkPlan(other: other, ordinal: nil, inverseOrdinal: destination.columnIndex(of: inverse.name), toManyName: nil)
        }
        return _LinkPlan(other: other, ordinal: nil, inverseOrdinal: nil, toManyName: relationship.name)
    }

    private mutating func planJoin(_ join: JoinMapping, file: _FilePlan, indexes: [_IndexKey: _KeyIndex]) {
        let place = "\(file.displayPath) → \(join.entity).\(join.relationship)"
        guard let entity = entity(join.entity) else { return }
        guard let relationship = entity.relationship(named: join.relationship) else {
            problem(place, "\(join.entity) has no relationship '\(join.relationship)'" + suggestion(join.relationship, in: entity.relationships.map(\.name)))
            return
        }
        guard relationship.isToMany, let destination = self.entity(relationship.destination) else {
            problem(place, "\(join.relationship) is to-one; a join file fills to-many relationships (map a to-one under \"relationships\")")
            return
        }
        guard let sourceAttribute = entity.attribute(named: join.sourceKey) else {
            problem(place, "sourceKey: \(entity.name) has no attribute '\(join.sourceKey)'" + suggestion(join.sourceKey, in: entity.attributes.map(\.name)))
            return
        }
        guard let destinationAttribute = destination.attribute(named: join.destinationKey) else {
            problem(place, "destinationKey: \(destination.name) has no attribute '\(join.destinationKey)'" + suggestion(join.destinationKey, in: destination.attributes.map(\.name)))
            return
        }
        guard let sourceField = field(join.sourceColumn, in: file) else {
            problem(place, "the sourceColumn \"\(join.sourceColumn)\" is not in the file (\(headerList(file)))\(delimiterHint(file))")
            return
        }
        guard let destinationField = field(join.destinationColumn, in: file) else {
            problem(place, "the destinationColumn \"\(join.destinationColumn)\" is not in the file (\(headerList(file)))\(delimiterHint(file))")
            return
        }
        guard let sourceIndex = indexes[_IndexKey(entity: entity.name, attribute: join.sourceKey)],
              let destinationIndex = indexes[_IndexKey(entity: destination.name, attribute: join.destinationKey)],
              case .success(let sourceConverter) = _FieldConverter.make(for: sourceAttribute, format: nil, encoding: file.options.encoding, decimalComma: file.options.decimalComma,
                                                                        keepAlive: &file.keepAlive),
              case .success(let destinationConverter) = _FieldConverter.make(for: destinationAttribute, format: nil, encoding: file.options.encoding, decimalComma: file.options.decimalComma,
                                                                             keepAlive: &file.keepAlive) else {
            problem(place, "the join keys must be attributes that can be compared (not Binary or Transformable)")
            return
        }
        let nulls = nullTokens(file.options.nullTokens, place: place, options: file.options)
        for needed in [entity.name, destination.name] where !(fillPositions[needed] ?? []).contains(where: { $0 < file.position }) {
            problem(place, "no file of the mapping fills \(needed) before this join file")
            return
        }
        file.join = _JoinPlan(
            sourceField: sourceField, destinationField: destinationField, sourceConverter: sourceConverter,
            destinationConverter: destinationConverter, sourceIndex: sourceIndex, destinationIndex: destinationIndex,
            relationship: relationship.name, entity: entity, destination: destination,
            nulls: nulls)
    }
}
