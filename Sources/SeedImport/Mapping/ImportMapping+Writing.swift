import CSVStream
import Foundation
import ManagedStore

extension ImportMapping {
    /// The mapping as a format-1 JSON document that ``init(contentsOf:)`` reads back to the same mapping:
    /// keys in the order docs/mapping.md gives them, each file's dialect only where it differs from the
    /// defaults, a column that needs nothing but its name as that name.
    ///
    /// Paths are written relative to `directory` (`../models/wells.model.json`) unless they share only
    /// the root with it, then absolute; with `directory` `nil`, as they are held. Columns and relationships come in the order `model` declares them, or
    /// alphabetically without one. `seedstore import --save-mapping` writes a mapping made from headers so,
    /// to be edited and given back with `--mapping`.
    ///
    /// For example:
    ///
    /// ```swift
    /// let mapping = try ImportMapping.inferred(sources: [("Operator", "operators.csv"), ("Well", "wells.csv")], model: model)
    /// try mapping.jsonData(relativeTo: "/tmp/wells", model: model).write(to: URL(fileURLWithPath: "/tmp/wells/wells.mapping.json"))
    /// ```
    public func jsonData(relativeTo directory: String? = nil, model objectModel: ObjectModel? = nil) -> Data {
        func path(_ written: String) -> String {
            guard let directory else { return written }
            return Self.path(resolve(written), relativeTo: directory)
        }
        var root: [(key: String, value: _OrderedJSON)] = [("format", .int(ImportMapping.currentFormat))]
        if let model { root.append(("model", .string(path(model)))) }
        let defaultKeys = Self.dialect(defaults, over: CSVOptions(), delimiterSet: false)
        if !defaultKeys.isEmpty { root.append(("defaults", .object(defaultKeys))) }
        root.append(("files", .array(files.map { file in
            var entry: [(key: String, value: _OrderedJSON)] = [("path", .string(path(file.path)))]
            entry += Self.dialect(file.options, over: defaults, delimiterSet: defaults.isDelimiterSet)
            switch file.content {
            case .targets(let targets):
                entry.append(("targets", .array(targets.map { Self.target($0, entity: objectModel?.entity(named: $0.entity)) })))
            case .join(let join):
                entry.append(("join", .object([
                    ("entity", .string(join.entity)), ("relationship", .string(join.relationship)),
                    ("sourceColumn", .string(join.sourceColumn)), ("sourceKey", .string(join.sourceKey)),
                    ("destinationColumn", .string(join.destinationColumn)), ("destinationKey", .string(join.destinationKey)),
                ])))
            }
            return .object(entry)
        })))
        return Data((_OrderedJSON.object(root).rendered()).utf8)
    }

    /// `path` as seen from `directory`: relative (`../csv/people.csv`), or absolute when the two share
    /// only the root, as the path then has nothing to do with the directory.
    static func path(_ path: String, relativeTo directory: String) -> String {
        let target = URL(fileURLWithPath: path).standardizedFileURL.pathComponents
        let base = URL(fileURLWithPath: directory).standardizedFileURL.pathComponents
        let shared = zip(target, base).prefix { $0 == $1 }.count
        guard shared > 1 else { return "/" + target.dropFirst().joined(separator: "/") }
        let relative = (Array(repeating: "..", count: base.count - shared) + target.dropFirst(shared)).joined(separator: "/")
        return relative.isEmpty ? "." : relative
    }

    /// The same mapping with its relative paths (files, model) rewritten for `directory`, which becomes
    /// its ``baseDirectory``: messages, the rejects file and the summary name inputs as written in the
    /// mapping, so the CLI rebases a mapping from elsewhere onto the current directory, where a path it
    /// prints can be opened (a mapping in `fx/` listing `../csv/people.csv` gives `csv/people.csv`).
    ///
    /// ```swift
    /// let mapping = try ImportMapping(contentsOf: "fx/people.mapping.json")   // lists ../csv/people.csv
    /// mapping.rebased(to: FileManager.default.currentDirectoryPath).files[0].path   // "csv/people.csv"
    /// ```
    public func rebased(to directory: String) -> ImportMapping {
        let from = URL(fileURLWithPath: baseDirectory).standardizedFileURL.path
        let to = URL(fileURLWithPath: directory).standardizedFileURL.path
        guard from != to else { return self }
        var copy = self
        func rebase(_ path: String) -> String { path.hasPrefix("/") ? path : Self.path(resolve(path), relativeTo: to) }
        copy.model = model.map(rebase)
        for f in copy.files.indices { copy.files[f].path = rebase(files[f].path) }
        copy.baseDirectory = to
        return copy
    }

    /// The mapping with the command line's overrides written into it, as the importer applies them: the
    /// dialect options to the defaults and to every file; date formats and the pivot year to the Date
    /// columns, and Boolean words to the Boolean columns, that name none.
    ///
    /// A Date or Boolean attribute matched by name, without an entry in ``TargetMapping/columns``, gets
    /// one naming the column its file's header has for it, when such options are given (a pipe's header
    /// is read from the copy the import reads it from, made here when it is not yet).
    ///
    /// ```swift
    /// var options = ImportOptions()
    /// options.dateFormats = ["d-MMM-yy"]
    /// let saved = mapping.applying(options, model: model)   // every Date column reads d-MMM-yy
    /// ```
    public func applying(_ options: ImportOptions, model: ObjectModel) -> ImportMapping {
        var copy = self
        copy.defaults = defaults.overridden(by: options)
        for f in copy.files.indices {
            copy.files[f].options = files[f].options.overridden(by: options)
            guard case .targets(var targets) = copy.files[f].content else { continue }
            let typed = options.dateFormats != nil || options.pivotYear != nil || options.trueValues != nil || options.falseValues != nil
            lazy var header = typed ? Self.header(of: resolve(files[f].path), options: copy.files[f].options) : nil
            lazy var columns = header.map { HeaderName.Lookup(header: $0, columnCount: $0.count) }
            for t in targets.indices {
                guard let entity = model.entity(named: targets[t].entity) else { continue }
                // Attributes the options apply to that the planner finds by name: named here, so they keep them.
                for attribute in entity.attributes where typed && targets[t].columns[attribute.name] == nil
                    && (attribute.type == .date || attribute.type == .boolean) {
                    guard let header, let index = columns?.index(of: attribute.name) else { continue }
                    targets[t].columns[attribute.name] = ColumnMapping(header[index].trimmingCharacters(in: .whitespaces))
                }
                for (name, var spec) in targets[t].columns where spec.column != nil {
                    switch entity.attribute(named: name)?.type {
                    case .date?:
                        if spec.formats.isEmpty, let formats = options.dateFormats { spec.formats = formats }
                        spec.pivotYear = spec.pivotYear ?? options.pivotYear
                    case .boolean?:
                        spec.trueValues = spec.trueValues ?? options.trueValues
                        spec.falseValues = spec.falseValues ?? options.falseValues
                    default:
                        continue
                    }
                    targets[t].columns[name] = spec
                }
            }
            copy.files[f].content = .targets(targets)
        }
        return copy
    }

    /// The header of the file at `path` as the importer reads it, or `nil` (no header, unreadable). A
    /// pipe or device is read through its copy (``_InputSpool``), the one the import then reads its rows
    /// from: reading the pipe itself would consume it.
    private static func header(of path: String, options: CSVOptions) -> [String]? {
        guard options.hasHeader, let readable = try? _InputSpool.readablePath(path) else { return nil }
        let dialect = options.forFile(path).withSeparatorLine(of: readable).dialect
        return try? CSVReader(path: readable, dialect: dialect).header
    }

    /// The dialect keys where `options` differ from `base` (the delimiter also when set over a `base`
    /// whose delimiter was not: a set one overrides a `.tsv` name and a `sep=` line).
    private static func dialect(_ options: CSVOptions, over base: CSVOptions, delimiterSet: Bool) -> [(key: String, value: _OrderedJSON)] {
        var keys: [(key: String, value: _OrderedJSON)] = []
        if options.encoding != base.encoding { keys.append(("encoding", .string(label(options.encoding)))) }
        if options.isDelimiterSet && (!delimiterSet || options.delimiter != base.delimiter) {
            keys.append(("delimiter", .string(character(options.delimiter))))
        }
        // A quote chosen, even the default, is written: with an escape byte it is not warned about (CSVOptions.isQuoteSet).
        if options.quote != base.quote || (options.isQuoteSet && !base.isQuoteSet) {
            keys.append(("quote", .string(options.quote == CSVDialect.noQuote ? "none" : character(options.quote))))
        }
        if options.escape != base.escape { keys.append(("escape", .string(options.escape.map(character) ?? "none"))) }
        if options.escapedLineEnd != base.escapedLineEnd { keys.append(("lineEnd", .string(options.escapedLineEnd?.rawValue ?? "auto"))) }
        if options.strict != base.strict { keys.append(("strict", .bool(options.strict))) }
        if options.hasHeader != base.hasHeader { keys.append(("header", .bool(options.hasHeader))) }
        // Tokens chosen, even the defaults' list, are written: chosen tokens are not warned about (CSVOptions.isNullTokensSet).
        if options.nullTokens != base.nullTokens || (options.isNullTokensSet && !base.isNullTokensSet) {
            keys.append(("nullTokens", .array(options.nullTokens.map(_OrderedJSON.string))))
        }
        // A choice to keep spaces is written too: such text is not warned about (CSVOptions.isTrimSet).
        if options.trim != base.trim || (options.isTrimSet && !base.isTrimSet) { keys.append(("trim", .bool(options.trim))) }
        if options.decimalComma != base.decimalComma { keys.append(("decimalComma", .bool(options.decimalComma))) }
        if options.timeZone != base.timeZone, let zone = options.timeZone { keys.append(("timeZone", .string(zone))) }
        if options.skipLines != base.skipLines { keys.append(("skipLines", .int(options.skipLines))) }
        if options.maximumRecordBytes != base.maximumRecordBytes {
            // In MiB, rounded up: a limit a little higher reads every record the given one did.
            keys.append(("maxRecordSize", .int((options.maximumRecordBytes + (1 << 20) - 1) >> 20)))
        }
        return keys
    }

    private static func label(_ encoding: TextEncoding) -> String {
        switch encoding {
        case .utf8: "utf-8"
        case .windows1252: "windows-1252"
        case .latin1: "latin1"
        }
    }

    /// A delimiter or quote as ``CSVOptions/byte(_:)`` reads it: the character, or `\xHH` for a control byte.
    private static func character(_ byte: UInt8) -> String {
        if byte == 0x09 { return "\t" }
        if byte < 0x20 || byte == 0x7F { return String(format: "\\x%02X", byte) }
        return String(Character(Unicode.Scalar(byte)))
    }

    private static func target(_ target: TargetMapping, entity: Entity?) -> _OrderedJSON {
        // The entity's order (attributes, then relationships), else alphabetical.
        let position = Dictionary(zip((entity?.attributes.map(\.name) ?? []) + (entity?.relationships.map(\.name) ?? []), 0...),
                                  uniquingKeysWith: { first, _ in first })
        func before(_ a: String, _ b: String) -> Bool {
            (position[a] ?? .max, a) < (position[b] ?? .max, b)
        }
        var entry: [(key: String, value: _OrderedJSON)] = [("entity", .string(target.entity))]
        if let key = target.key { entry.append(("key", .string(key))) }
        if let link = target.link {
            entry.append(("link", .object([("relationship", .string(link.relationship)), ("target", .string(link.target))])))
        }
        if !target.columns.isEmpty {
            entry.append(("columns", .object(target.columns.sorted { before($0.key, $1.key) }.map { ($0.key, column($0.value)) })))
        }
        if !target.relationships.isEmpty {
            entry.append(("relationships", .object(target.relationships.sorted { before($0.key, $1.key) }.map { name, spec in
                var fields: [(key: String, value: _OrderedJSON)] = [("column", .string(spec.column)), ("destinationKey", .string(spec.destinationKey))]
                if let tokens = spec.nullTokens { fields.append(("nullTokens", .array(tokens.map(_OrderedJSON.string)))) }
                return (name, .object(fields))
            })))
        }
        return .object(entry)
    }

    private static func column(_ spec: ColumnMapping) -> _OrderedJSON {
        let name: _OrderedJSON = spec.column.map(_OrderedJSON.string) ?? .null
        var fields: [(key: String, value: _OrderedJSON)] = []
        if spec.formats.count == 1 { fields.append(("format", .string(spec.formats[0]))) }
        if spec.formats.count > 1 { fields.append(("format", .array(spec.formats.map(_OrderedJSON.string)))) }
        if let year = spec.pivotYear { fields.append(("pivotYear", .int(year))) }
        if let zone = spec.timeZone { fields.append(("timeZone", .string(zone))) }
        if let tokens = spec.nullTokens { fields.append(("nullTokens", .array(tokens.map(_OrderedJSON.string)))) }
        if let words = spec.trueValues { fields.append(("trueValues", .array(words.map(_OrderedJSON.string)))) }
        if let words = spec.falseValues { fields.append(("falseValues", .array(words.map(_OrderedJSON.string)))) }
        return fields.isEmpty ? name : .object([("column", name)] + fields)
    }
}

extension CSVOptions {
    /// These options with the command line's dialect overrides (`--encoding`, `--delimiter`, `--quote`,
    /// `--decimal-comma`, `--trim`, `--skip-lines`, `--max-record-size`, `--null`), as the importer reads every file.
    ///
    /// ```swift
    /// var options = ImportOptions()
    /// options.delimiter = UInt8(ascii: ";")
    /// CSVOptions().overridden(by: options).delimiter   // 0x3B
    /// ```
    func overridden(by options: ImportOptions) -> CSVOptions {
        var dialect = self
        if let encoding = options.encoding { dialect.encoding = encoding }
        if let delimiter = options.delimiter { dialect.delimiter = delimiter }
        if let quote = options.quote { dialect.quote = quote }
        if let escape = options.escape { dialect.escape = escape == 0 ? nil : escape }
        if let lineEnd = options.escapedLineEnd { dialect.escapedLineEnd = lineEnd }
        if options.decimalComma { dialect.decimalComma = true }
        if let trim = options.trim { dialect.trim = trim }
        if let zone = options.timeZone { dialect.timeZone = zone }
        if let lines = options.skipLines { dialect.skipLines = lines }
        if let bytes = options.maximumRecordBytes { dialect.maximumRecordBytes = bytes }
        if let tokens = options.nullTokens { dialect.nullTokens = tokens }
        return dialect
    }
}
