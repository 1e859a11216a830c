import CSVStream
import Foundation
import ManagedStore

extension ImportMapping {
    /// Reads a mapping file (format 1); paths in it are relative to the file.
    ///
    /// For example:
    ///
    /// ```swift
    /// let mapping = try ImportMapping(contentsOf: "fixtures/mappings/fdic-2023.mapping.json")
    /// ```
    ///
    /// - Throws: ``ImportError`` of kind ``ImportError/Kind/mapping`` listing every problem found.
    public init(contentsOf path: String) throws(ImportError) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ImportError(.mapping, reason: "cannot read the mapping file", file: path,
                              hint: "Check the path given to --mapping.")
        }
        // The directory the file was read from: after a link, `..` is the link's target's parent, as the
        // kernel read it (`sub/../m.json` with `sub` a link is not `./m.json`).
        let file = path.split(separator: "/").contains("..") ? OutputPath.canonical(path) : path
        try self.init(json: data, baseDirectory: URL(fileURLWithPath: file).deletingLastPathComponent().path, source: path)
    }

    /// Reads a mapping from JSON text.
    ///
    /// For example:
    ///
    /// ```swift
    /// let mapping = try ImportMapping(json: Data(#"{"format": 1, "files": [{"path": "tasks.csv", "targets": [{"entity": "Task"}]}]}"#.utf8),
    ///                                 baseDirectory: "/tmp/tasks")
    /// ```
    public init(json: Data, baseDirectory: String, source: String? = nil) throws(ImportError) {
        var reader = _MappingReader(source: source)
        let parsed = reader.read(json)
        if let syntax = reader.syntaxError {
            throw ImportError(.mapping, reason: "the mapping is not valid JSON: \(syntax.reason)", file: source, line: syntax.line, column: syntax.column,
                              hint: "In the mapping file, \(syntax.hint); see docs/mapping.md for the format.")
        }
        guard reader.problems.isEmpty, let parsed else {
            throw ImportError(.mapping, reason: "the mapping is not valid (\(reader.problems.count) problem\(reader.problems.count == 1 ? "" : "s"))",
                              file: source, hint: "See docs/mapping.md for the format.", problems: reader.problems)
        }
        self.init(model: parsed.model, defaults: parsed.defaults, files: parsed.files, baseDirectory: baseDirectory, source: source)
    }
}

/// Reads mapping JSON, collecting every problem with its place (`files[1].targets[0].columns.closeDate`).
struct _MappingReader {
    let source: String?
    var problems: [String] = []
    /// Why the text is not JSON at all, when it is not; nothing else is then read.
    var syntaxError: JSONSyntaxError?

    init(source: String?) { self.source = source }

    private mutating func problem(_ place: String, _ message: String) {
        problems.append(place.isEmpty ? message : "\(place): \(message)")
    }

    mutating func read(_ json: Data) -> (model: String?, defaults: CSVOptions, files: [FileMapping])? {
        let root: Any
        do { root = try JSONSyntaxError.parse(json) } catch {
            syntaxError = error
            return nil
        }
        guard let object = root as? [String: Any] else {
            problem("", "expected a JSON object with \"format\" and \"files\"")
            return nil
        }
        check(object, allowed: ["format", "model", "defaults", "files"], at: "")
        if let format = object["format"] {
            if (format as? Int) != ImportMapping.currentFormat {
                problem("format", "format \(format) is not supported; this version reads format \(ImportMapping.currentFormat)")
            }
        } else {
            problem("", "\"format\": 1 is missing")
        }
        let model = string(object["model"], at: "model")
        var defaults = CSVOptions()
        if let raw = object["defaults"] {
            if let block = raw as? [String: Any] {
                check(block, allowed: Self.dialectKeys, at: "defaults")
                defaults = options(block, base: defaults, at: "defaults")
            } else {
                problem("defaults", "expected an object")
            }
        }
        guard let files = object["files"] as? [Any] else {
            problem("files", "expected an array of files")
            return nil
        }
        var parsed: [FileMapping] = []
        for (i, raw) in files.enumerated() {
            let place = "files[\(i)]"
            guard let file = raw as? [String: Any] else { problem(place, "expected an object"); continue }
            check(file, allowed: ["path", "targets", "join"] + Self.dialectKeys, at: place)
            guard let path = file["path"] as? String, !path.isEmpty else { problem(place, "\"path\" is missing"); continue }
            let fileOptions = options(file, base: defaults, at: place)
            if let join = file["join"] {
                if file["targets"] != nil { problem(place, "a file has either \"targets\" or \"join\", not both") }
                guard let join = join as? [String: Any] else { problem("\(place).join", "expected an object"); continue }
                if let parsedJoin = self.join(join, at: "\(place).join") {
                    parsed.append(FileMapping(path: path, options: fileOptions, content: .join(parsedJoin)))
                }
                continue
            }
            guard let targets = file["targets"] as? [Any], !targets.isEmpty else {
                problem(place, "\"targets\" (an array of entities to fill) or \"join\" is missing")
                continue
            }
            var parsedTargets: [TargetMapping] = []
            for (j, raw) in targets.enumerated() {
                if let target = self.target(raw, at: "\(place).targets[\(j)]") { parsedTargets.append(target) }
            }
            parsed.append(FileMapping(path: path, options: fileOptions, content: .targets(parsedTargets)))
        }
        return (model, defaults, parsed)
    }

    private mutating func check(_ object: [String: Any], allowed: [String], at place: String) {
        for message in JSONKeys(allowed).problems(in: object) { problem(place, message) }
    }

    private mutating func string(_ raw: Any?, at place: String) -> String? {
        guard let raw, !(raw is NSNull) else { return nil }
        guard let text = raw as? String else { problem(place, "expected a string"); return nil }
        return text
    }

    private mutating func tokens(_ raw: Any?, at place: String) -> [String]? {
        guard let raw else { return nil }
        guard let list = raw as? [Any], list.allSatisfy({ $0 is String }) else {
            problem(place, "expected an array of strings")
            return nil
        }
        let tokens = list.map { $0 as! String }
        // Checked here, with the mapping's other problems, rather than only once the files are planned.
        if let message = _NullTokens.limitProblem(tokens) { problem(place, message) }
        return tokens
    }

    /// A JSON number as an integer; `nil` for anything else, `true` and `false` included, which
    /// `as? Int` reads as 1 and 0 (on Linux a JSON boolean is an NSNumber whose C type is "c").
    static func integer(_ value: Any?) -> Int? {
        guard let number = value as? NSNumber, String(cString: number.objCType) != "c" else { return nil }
        return value as? Int
    }

    /// The keys ``options(_:base:at:)`` reads, allowed in `defaults` and in each file.
    static let dialectKeys = ["encoding", "delimiter", "quote", "strict", "header", "nullTokens", "trim", "decimalComma", "skipLines",
                              "maxRecordSize", "timeZone", "escape", "lineEnd"]

    /// Why `text` cannot be a delimiter or quote, before the word: a line break ends records, anything
    /// else is not one ASCII byte.
    static func notOneByte(_ text: String) -> String {
        text == "\n" || text == "\r" || text == "\r\n" ? "is a line break, which ends records: it cannot be the" : "is not a one-byte"
    }

    /// The values `maxRecordSize` takes, in MiB (as `--max-record-size`).
    static let recordSizes = 1...4096

    /// Reads `delimiter`, `quote`, `strict`, `encoding`, `header`, `nullTokens`, `trim`, `decimalComma`,
    /// `skipLines` and `maxRecordSize` over `base`.
    mutating func options(_ object: [String: Any], base: CSVOptions, at place: String) -> CSVOptions {
        var options = base
        if let delimiter = string(object["delimiter"], at: "\(place).delimiter") {
            if let byte = CSVOptions.byte(delimiter) {
                options.delimiter = byte
            } else {
                problem("\(place).delimiter", "'\(VisibleText.escaped(delimiter))' \(Self.notOneByte(delimiter)) delimiter (use \",\", \";\", \"|\", \"\\t\" or \"\\\\x01\")")
            }
        }
        if let quote = string(object["quote"], at: "\(place).quote") {
            if let byte = CSVOptions.byteOrNone(quote) {
                options.quote = byte
            } else {
                problem("\(place).quote", "'\(VisibleText.escaped(quote))' \(Self.notOneByte(quote)) quote (use \"\\\"\" or \"'\", or \"none\")")
            }
        }
        if let escape = string(object["escape"], at: "\(place).escape") {
            if let byte = CSVOptions.byteOrNone(escape) {
                options.escape = byte == 0 ? nil : byte
            } else {
                problem("\(place).escape", "'\(VisibleText.escaped(escape))' \(Self.notOneByte(escape)) escape (use \"\\\\\" for MySQL's and PostgreSQL's backslash, or \"none\")")
            }
        }
        if let strict = object["strict"] {
            if let flag = strict as? Bool { options.strict = flag } else { problem("\(place).strict", "expected true or false") }
        }
        if let label = string(object["encoding"], at: "\(place).encoding") {
            if let encoding = TextEncoding(label: label) {
                options.encoding = encoding
            } else {
                problem("\(place).encoding", "unknown encoding '\(label)' (use utf-8, windows-1252 or latin1)")
            }
        }
        if let header = object["header"] {
            if let flag = header as? Bool { options.hasHeader = flag } else { problem("\(place).header", "expected true or false") }
        }
        if let trim = object["trim"] {
            if let flag = trim as? Bool { options.trim = flag } else { problem("\(place).trim", "expected true or false") }
        }
        if let zone = string(object["timeZone"], at: "\(place).timeZone") {
            if _LocalZone.named(zone) != nil { options.timeZone = zone } else { problem("\(place).timeZone", DateFormat.unknownZone(zone)) }
        }
        if let skipLines = object["skipLines"] {
            if let count = Self.integer(skipLines), count >= 0 {
                options.skipLines = count
            } else {
                problem("\(place).skipLines", "expected a number of lines, 0 or more")
            }
        }
        if let size = object["maxRecordSize"] {
            if let mebibytes = Self.integer(size), Self.recordSizes.contains(mebibytes) {
                options.maximumRecordBytes = mebibytes << 20
            } else {
                problem("\(place).maxRecordSize", "expected the longest record in MiB, from \(Self.recordSizes.lowerBound) to \(Self.recordSizes.upperBound)")
            }
        }
        if let decimalComma = object["decimalComma"] {
            if let flag = decimalComma as? Bool { options.decimalComma = flag } else { problem("\(place).decimalComma", "expected true or false") }
        }
        if let tokens = tokens(object["nullTokens"], at: "\(place).nullTokens") { options.nullTokens = tokens }
        if options.quote == options.delimiter {
            problem(place, "the quote and the delimiter are both '\(VisibleText.escaped(String(Character(Unicode.Scalar(options.quote)))))'; they must differ")
        }
        if let name = string(object["lineEnd"], at: "\(place).lineEnd") {
            if name.lowercased() == "auto" {
                options.escapedLineEnd = nil
            } else if let chosen = CSVDialect.EscapedLineEnd(rawValue: name.lowercased()) {
                options.escapedLineEnd = chosen
            } else {
                problem("\(place).lineEnd", "'\(VisibleText.escaped(name))' is not a line end: use \"crlf\", \"lf\" or \"auto\"")
            }
        }
        if options.escapedLineEnd != nil && options.escape == nil {
            problem(place, "\"lineEnd\" applies to files read with an escape (\"escape\"); CSV files take LF, CRLF and CR lines as they come")
        }
        if let escape = options.escape, escape == options.delimiter || escape == options.quote {
            problem(place, "the escape and the \(escape == options.delimiter ? "delimiter" : "quote") are both '\(VisibleText.escaped(String(Character(Unicode.Scalar(escape)))))'; they must differ")
        }
        return options
    }

    private mutating func target(_ raw: Any, at place: String) -> TargetMapping? {
        guard let object = raw as? [String: Any] else { problem(place, "expected an object"); return nil }
        check(object, allowed: ["entity", "key", "columns", "relationships", "link"], at: place)
        guard let entity = object["entity"] as? String, !entity.isEmpty else {
            problem(place, "\"entity\" is missing")
            return nil
        }
        // Keys of several attributes (an order line's order and product) are not supported: say so, with the way round it.
        if let parts = object["key"] as? [Any] {
            if parts.count == 1, let only = parts[0] as? String {
                problem("\(place).key", "a key is one attribute, named as a string: write \"key\": \"\(only)\"")
            } else if parts.count < 2 {
                problem("\(place).key", "a key is one attribute, named as a string (\"key\": \"code\"); leave \"key\" out for none")
            } else {
                problem("\(place).key", "a key is one attribute; keys of several (\(parts.map { "\($0)" }.joined(separator: " + "))) are not supported. "
                        + "Give the entity an attribute that joins them (\"10248-11\" for order 10248, product 11), fill it from a column "
                        + "made the same way, and name it as the key")
            }
        }
        var target = TargetMapping(entity: entity, key: object["key"] is [Any] ? nil : string(object["key"], at: "\(place).key"))
        if let columns = object["columns"] {
            if let columns = columns as? [String: Any] {
                for (attribute, spec) in columns {
                    if let column = column(spec, at: "\(place).columns.\(attribute)") { target.columns[attribute] = column }
                }
            } else {
                problem("\(place).columns", "expected an object of attribute: column")
            }
        }
        if let relationships = object["relationships"] {
            if let relationships = relationships as? [String: Any] {
                for (name, spec) in relationships {
                    let at = "\(place).relationships.\(name)"
                    guard let spec = spec as? [String: Any] else {
                        problem(at, "expected {\"column\": …, \"destinationKey\": …}")
                        continue
                    }
                    check(spec, allowed: ["column", "destinationKey", "nullTokens"], at: at)
                    let column = columnName(spec["column"], key: "column", at: at)
                    let key = requiredText(spec["destinationKey"], key: "destinationKey", at: at, example: "the destination's key attribute, such as \"operator_id\"")
                    guard let column, let key else { continue }
                    target.relationships[name] = RelationshipMapping(
                        column: column, destinationKey: key, nullTokens: tokens(spec["nullTokens"], at: "\(at).nullTokens"))
                }
            } else {
                problem("\(place).relationships", "expected an object of relationship: {column, destinationKey}")
            }
        }
        if let link = object["link"] {
            if let link = link as? [String: Any], let relationship = link["relationship"] as? String,
               let other = link["target"] as? String {
                check(link, allowed: ["relationship", "target"], at: "\(place).link")
                target.link = LinkMapping(relationship: relationship, target: other)
            } else {
                problem("\(place).link", "expected {\"relationship\": …, \"target\": …}")
            }
        }
        return target
    }

    private mutating func column(_ spec: Any, at place: String) -> ColumnMapping? {
        if spec is NSNull { return ColumnMapping(nil) }
        if let name = spec as? String { return ColumnMapping(name) }
        if let position = Self.integer(spec) { return ColumnMapping(String(position)) }
        guard let object = spec as? [String: Any] else {
            problem(place, "expected a column name, null, or {\"column\": …, \"format\": …}")
            return nil
        }
        check(object, allowed: ["column", "format", "pivotYear", "nullTokens", "trueValues", "falseValues", "timeZone"], at: place)
        var zone: String?
        if let name = string(object["timeZone"], at: "\(place).timeZone") {
            if _LocalZone.named(name) != nil { zone = name } else { problem("\(place).timeZone", DateFormat.unknownZone(name)) }
        }
        var column: String?
        if let name = object["column"] as? String {
            column = name
        } else if let position = Self.integer(object["column"]) {
            column = String(position)
        } else if object["column"] != nil, !(object["column"] is NSNull) {
            problem("\(place).column", "expected a column name")
        }
        var pivot: Int?
        if let raw = object["pivotYear"] {
            if let year = raw as? Int, DateFormat.pivotYears.contains(year) {
                pivot = year
            } else {
                problem("\(place).pivotYear", "expected a year from \(DateFormat.pivotYears.lowerBound) to \(DateFormat.pivotYears.upperBound), such as 2000 (two-digit years fall in the hundred years from it)")
            }
        }
        // One format, or a list tried in order.
        var formats: [String] = []
        if let list = object["format"] as? [Any] {
            if !list.isEmpty, list.allSatisfy({ $0 is String }) {
                formats = list.map { $0 as! String }
            } else {
                problem("\(place).format", "expected a format, or a non-empty array of formats tried in order (such as [\"d-MMM-yy\", \"d-MMM-yyyy\"])")
            }
        } else if let raw = object["format"], !(raw is NSNull), !(raw is String) {
            // A list is allowed too: "expected a string" alone sent a user looking for the one string to write.
            problem("\(place).format", "expected a string or a list of strings: one date format, or a non-empty list tried in order (such as [\"d-MMM-yy\", \"d-MMM-yyyy\"])")
        } else if let format = string(object["format"], at: "\(place).format") {
            formats = [format]
        }
        if !formats.isEmpty {
            // Read before the attribute's type is known: a number pattern ("0.00") is no date format either.
            do { _ = try DateFormat(anyOf: formats, pivotYear: pivot) } catch {
                problem("\(place).format", error.description + " (\"format\" applies to Date attributes only; numbers need none)")
            }
        }
        var mapping = ColumnMapping(column, formats: formats, pivotYear: pivot, nullTokens: tokens(object["nullTokens"], at: "\(place).nullTokens"))
        mapping.trueValues = tokens(object["trueValues"], at: "\(place).trueValues")
        mapping.timeZone = zone
        mapping.falseValues = tokens(object["falseValues"], at: "\(place).falseValues")
        return mapping
    }

    /// A column named by its header name or its 1-based position (`"operator_id"`, `"3"` or `3`), as in
    /// `columns`; a problem and nil when it is missing or something else.
    private mutating func columnName(_ value: Any?, key: String, at place: String) -> String? {
        if let position = Self.integer(value) { return String(position) }
        return requiredText(value, key: key, at: place, example: "a column's header name or 1-based position, such as \"operator_id\" or 3")
    }

    /// A non-empty string; a problem and nil when it is missing or something else.
    private mutating func requiredText(_ value: Any?, key: String, at place: String, example: String) -> String? {
        if let text = value as? String, !text.isEmpty { return text }
        problem(place, value == nil ? "\"\(key)\" is missing" : "\"\(key)\" must be \(example)")
        return nil
    }

    private mutating func join(_ object: [String: Any], at place: String) -> JoinMapping? {
        let keys = ["entity", "relationship", "sourceColumn", "sourceKey", "destinationColumn", "destinationKey"]
        check(object, allowed: keys, at: place)
        let values = keys.compactMap { key in
            key.hasSuffix("Column")
                ? columnName(object[key], key: key, at: place)
                : requiredText(object[key], key: key, at: place, example: key == "entity" ? "an entity's name" : key == "relationship" ? "a relationship's name" : "a key attribute's name")
        }
        guard values.count == keys.count else { return nil }
        return JoinMapping(entity: values[0], relationship: values[1], sourceColumn: values[2], sourceKey: values[3],
                           destinationColumn: values[4], destinationKey: values[5])
    }
}
