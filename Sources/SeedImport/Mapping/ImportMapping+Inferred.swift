import CSVStream
import Foundation
import ManagedStore

extension ImportMapping {
    /// A mapping made from the files' headers alone, for `seedstore import Entity=file.csv …`.
    ///
    /// Each file fills its entity; attributes take the column whose folded name matches theirs
    /// (``HeaderName/fold(_:)``). A to-one relationship is filled when a column names the destination's
    /// attribute — `operator_id` for `operator` → `Operator.operator_id`, or the relationship's name followed
    /// by an attribute of the destination (`operator_name` → `Operator.name`) — and the destination is one of
    /// the files. For a relationship to the entity itself (an employee's `manager`), only a column named
    /// like the relationship (`manager`, `manager_empID`) fills it: a column named like the key is the
    /// row's own. The attribute relationships look a destination up by becomes its key, so repeated keys
    /// update rather than duplicate.
    ///
    /// For example:
    ///
    /// ```swift
    /// let mapping = try ImportMapping.inferred(
    ///     sources: [("Operator", "operators.csv"), ("Well", "wells.csv")], model: model)
    /// ```
    ///
    /// A header none of whose columns matches an attribute (or fills a relationship) of its entity is a
    /// problem too, since every row would make an empty object; columns of a matching header that nothing
    /// takes are listed in ``warnings``, which the import summary repeats.
    ///
    /// A pipe or device (`Well=/dev/stdin`) is copied to `TMPDIR` here, before the import runs: call
    /// ``SeedImporter/prepare(into:options:)`` first for that copy to show progress and name itself in the
    /// line a signal writes.
    ///
    /// - Throws: ``ImportError`` of kind ``ImportError/Kind/mapping`` for unknown entities, unreadable files
    ///   and headers that match nothing. Nothing is written.
    public static func inferred(
        sources: [(entity: String, path: String)], model: ObjectModel, defaults: CSVOptions = CSVOptions(),
        baseDirectory: String = FileManager.default.currentDirectoryPath
    ) throws(ImportError) -> ImportMapping {
        var problems: [String] = []
        var hints: [String] = []
        var headers: [[String]] = []
        /// Per source, the path its bytes are read from (a pipe's copy), for the header-line guess.
        var readablePaths: [String] = []
        let entityNames = Set(sources.map(\.entity))
        for source in sources {
            if model.entity(named: source.entity) == nil {
                problems.append("\(source.entity)=\(source.path): the model has no entity '\(source.entity)'" + _NameSuggestion.text(for: source.entity, in: model.entities.map(\.name)))
                let hint = "Name each file as Entity=path.csv, with an entity of the model."
                if !hints.contains(hint) { hints.append(hint) }
            }
            let path = source.path.hasPrefix("/") ? source.path : URL(fileURLWithPath: baseDirectory).appendingPathComponent(source.path).path
            // A pipe or device gives its bytes once; the importer reads a file more than once.
            let readable: String
            do {
                readable = try _InputSpool.readablePath(path)
            } catch {
                problems.append("\(source.path): \(error.description)")
                headers.append([])
                readablePaths.append(path)
                continue
            }
            readablePaths.append(readable)
            do {
                let reader = try CSVReader(path: readable, dialect: defaults.forFile(source.path).withSeparatorLine(of: readable).dialect)
                if let problem = _HeaderCheck.problem(reader.header) {
                    problems.append("\(source.path): \(problem)")
                    headers.append([])
                } else {
                    headers.append(reader.header ?? [])
                }
            } catch where error.kind == .invalidDialect {
                // The two settings as the command line gives them (CSVStream's hint names a comment prefix).
                let options = defaults.forFile(source.path)
                let delimiter = options.isDelimiterSet ? "--delimiter" : "the default for \(URL(fileURLWithPath: source.path).pathExtension == "tsv" ? "a .tsv file, a tab" : "a .csv file, ','"): set --delimiter"
                problems.append(error.dialectProblem(file: source.path, delimiter: delimiter, quote: options.quote == UInt8(ascii: "\"") ? "'\"'" : "--quote"))
                headers.append([])
            } catch {
                problems.append(error.headerProblem(file: source.path, withHint: false) + (error.kind == .io ? _NameSuggestion.file(for: path, shown: source.path) : ""))
                if !hints.contains(error.hint) { hints.append(error.hint) }
                headers.append([])
            }
        }
        guard problems.isEmpty else {
            throw ImportError(.mapping, reason: "the files cannot be imported as given",
                              hint: (hints + ["Nothing was written."]).joined(separator: " "), problems: problems)
        }
        var targets: [TargetMapping] = []
        var warnings: [String] = []
        var referencedKeys: [String: Set<String>] = [:]
        for ((source, header), readable) in zip(zip(sources, headers), readablePaths) {
            let entity = model.entity(named: source.entity)!
            var target = TargetMapping(entity: entity.name)
            let folded = header.map(HeaderName.fold)
            let lookup = HeaderName.Lookup(header: header, columnCount: header.count)
            // Columns the planner will read (relationship key columns, attributes matched by name, its rule),
            // and those a problem already names.
            var used = Set<Int>()
            /// Whether several columns fold to `name`, none named exactly like it (Menge_, MENGE), which is a
            /// problem: reading the first would drop the others. One rule for attributes and relationships.
            func foldsOnly(_ name: String, filling property: String, relationship: (name: String, destinationKey: String)? = nil) -> Bool {
                guard let same = lookup.ambiguity(of: name), lookup.count(of: name) == 0 else { return false }
                problems.append("\(source.path) → \(entity.name).\(property): "
                    + HeaderName.ambiguityProblem(name, header: header, columns: same, inMapping: false, relationship: relationship))
                used.formUnion(same)
                return true
            }
            for relationship in entity.relationships where !relationship.isToMany && entityNames.contains(relationship.destination) {
                guard let destination = model.entity(named: relationship.destination) else { continue }
                let name = HeaderName.fold(relationship.name)
                // A relationship to the row's own entity (an employee's manager): a column named like one of
                // its attributes holds the row's own value, never the key of another row.
                let toOwnEntity = destination.name == entity.name
                // The column, the destination's key attribute, and the name the column is matched by.
                var found: (column: String, key: String, name: String)?
                // The relationship's name then the key (manager_empID) first, wherever the column stands;
                // then, to another entity, the key alone when it starts like the relationship or the
                // destination (operator_id for operator → Operator.operator_id).
                for prefixOnly in [false, true] where found == nil && !(prefixOnly && toOwnEntity) {
                    for (column, fold) in zip(header, folded) where found == nil {
                        for attribute in destination.attributes {
                            let key = HeaderName.fold(attribute.name)
                            if prefixOnly
                                ? fold == key && (key.hasPrefix(name) || key.hasPrefix(HeaderName.fold(destination.name))) && key != name
                                : fold == name + key {
                                found = (column, attribute.name, prefixOnly ? attribute.name : relationship.name + "_" + attribute.name)
                                break
                            }
                        }
                    }
                }
                if found == nil, let column = zip(header, folded).first(where: { $0.1 == name })?.0,
                   let key = Self.likelyKey(of: destination) {
                    // A column named like the relationship holds the destination's key attribute.
                    found = (column, key, relationship.name)
                }
                if let found {
                    // As for attributes: a column named exactly wins (operator_id beside OperatorId); several
                    // that only fold to the name (Operator_ID, operatorID) stop the import.
                    if foldsOnly(found.name, filling: relationship.name, relationship: (relationship.name, found.key)) { continue }
                    let column = lookup.index(of: found.name).map { header[$0] } ?? found.column
                    target.relationships[relationship.name] = RelationshipMapping(column: column, destinationKey: found.key)
                    referencedKeys[destination.name, default: []].insert(found.key)
                }
            }
            for attribute in entity.attributes {
                guard let index = lookup.index(of: attribute.name) else { continue }
                if foldsOnly(attribute.name, filling: attribute.name) { continue }
                used.insert(index)
                // Named, so a saved mapping (--save-mapping) shows where each attribute comes from.
                target.columns[attribute.name] = ColumnMapping(header[index].trimmingCharacters(in: .whitespaces))
            }
            for mapping in target.relationships.values {
                if let index = header.firstIndex(of: mapping.column) { used.insert(index) }
            }
            let named = header.indices.filter { !header[$0].trimmingCharacters(in: .whitespaces).isEmpty }
            let columns = named.map { "\"\(header[$0])\"" }.joined(separator: ", ")
            let fileOptions = defaults.forFile(source.path).withSeparatorLine(of: readable)
            let delimiter = _DelimiterGuess.suggestion(header: header, delimiter: fileOptions.delimiter).map { "; " + $0 } ?? ""
            if used.isEmpty {
                let names = entity.attributes.map(\.name) + entity.relationships.map(\.name)
                let headerLine = delimiter.isEmpty
                    ? _HeaderLineGuess.suggestion(path: readable, options: fileOptions, names: names).map { "; " + $0 } ?? ""
                    : ""
                problems.append("\(source.path): no column of its header matches an attribute of \(entity.name), so every row would make an empty object (the header has: \(columns.isEmpty ? "no named columns" : columns); \(entity.name) has: \(entity.attributes.map(\.name).joined(separator: ", ")))\(delimiter)\(headerLine)")
            } else if case let unused = named.filter({ !used.contains($0) }), !unused.isEmpty {
                // An attribute no column took, close to a column nothing took: likely the one meant.
                let untaken = entity.attributes.map(\.name).filter { target.columns[$0] == nil }
                let columns = unused.map { index in
                    // Two columns folding to one attribute's name (Price, PRICE): the first was taken; say which.
                    if let taken = entity.attributes.first(where: { HeaderName.fold($0.name) == HeaderName.fold(header[index]) }),
                       let column = target.columns[taken.name]?.column {
                        return "\"\(header[index])\" (\(taken.name) reads \"\(column)\", which matches it too)"
                    }
                    if let (name, taken) = target.relationships.first(where: { HeaderName.fold($0.value.column) == HeaderName.fold(header[index]) }) {
                        return "\"\(header[index])\" (\(name) reads \"\(taken.column)\", which matches it too)"
                    }
                    // seedstore query's CSV heads a to-one NAME.Z_PK: row numbers of this store, which no import can set.
                    if header[index].hasSuffix(".Z_PK") {
                        return "\"\(header[index])\" (the store's own row numbers, which an import cannot set: export the destination's key instead, "
                            + "--properties ...,\(header[index].dropLast(5)).KEY)"
                    }
                    return "\"\(header[index])\"" + (_NameSuggestion.closest(to: header[index], in: untaken).map { " (\($0)?)" } ?? "")
                }
                // A column may hold a related object's key under a name no rule links (reportsTo for manager).
                let unlinked = entity.relationships.filter { !$0.isToMany && target.relationships[$0.name] == nil }
                let relationships = unlinked.isEmpty ? "" : " (an attribute) or under \"relationships\" (a key of a related object: \(entity.name)'s \(unlinked.map { "\($0.name) → \($0.destination)" }.joined(separator: ", ")) \(unlinked.count == 1 ? "takes" : "take") no column)"
                let remedy = delimiter.isEmpty ? "; to read \(unused.count == 1 ? "it" : "them"), save the mapping with --save-mapping FILE, map \(unused.count == 1 ? "it" : "them") under \"columns\"\(relationships) and import with --mapping FILE" : ""
                warnings.append("\(source.path) → \(entity.name): no attribute takes the column\(unused.count == 1 ? "" : "s") \(columns.joined(separator: ", ")) (\(entity.name) has: \(entity.attributes.map(\.name).joined(separator: ", ")))\(delimiter)\(remedy)")
            }
            targets.append(target)
        }
        guard problems.isEmpty else {
            throw ImportError(.mapping, reason: "the headers do not fit the model",
                              hint: "Name the columns like the attributes (case, spaces and '_' do not matter), or write a mapping file (docs/mapping.md). Nothing was written.",
                              problems: problems)
        }
        for i in targets.indices {
            if let keys = referencedKeys[targets[i].entity], keys.count == 1 { targets[i].key = keys.first }
        }
        let files = zip(sources, targets).map { source, target in
            FileMapping(path: source.path, options: defaults.forFile(source.path), content: .targets([target]))
        }
        var mapping = ImportMapping(model: nil, defaults: defaults, files: files, baseDirectory: baseDirectory)
        mapping.warnings = warnings
        mapping.isMadeFromHeaders = true
        return mapping
    }

    /// The attribute that most likely identifies objects of `entity`: required and indexed, else one whose
    /// name ends in `id`, `code` or `key`.
    static func likelyKey(of entity: Entity) -> String? {
        if let attribute = entity.attributes.first(where: { $0.isIndexed && !$0.isOptional }) { return attribute.name }
        return entity.attributes.first { attribute in
            let folded = HeaderName.fold(attribute.name)
            return folded.hasSuffix("id") || folded.hasSuffix("code") || folded.hasSuffix("key")
        }?.name
    }
}
