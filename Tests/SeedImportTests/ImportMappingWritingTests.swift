import CSVStream
import Foundation
import ManagedStore
import PropertyBased
@testable import SeedImport
import Testing

/// Mappings written as JSON (`ImportMapping.jsonData`, `--save-mapping`) and read back.
@Suite("Import: mappings written")
struct ImportMappingWritingTests {
    /// What a mapping holds, in a form two mappings can be compared by: a written mapping read back must
    /// give the same.
    static func shape(_ mapping: ImportMapping) -> String {
        func resolved(_ path: String) -> String { URL(fileURLWithPath: mapping.resolve(path)).standardizedFileURL.path }
        var lines = ["model \(mapping.model.map(resolved) ?? "-")", "defaults \(mapping.defaults)"]
        for file in mapping.files {
            lines.append("file \(resolved(file.path)) \(file.options)")
            switch file.content {
            case .targets(let targets):
                for target in targets {
                    lines.append("  target \(target.entity) key \(target.key ?? "-") link \(String(describing: target.link))")
                    for (name, spec) in target.columns.sorted(by: { $0.key < $1.key }) { lines.append("    column \(name) \(spec)") }
                    for (name, spec) in target.relationships.sorted(by: { $0.key < $1.key }) { lines.append("    relationship \(name) \(spec)") }
                }
            case .join(let join):
                lines.append("  join \(join)")
            }
        }
        return lines.joined(separator: "\n")
    }

    static func readBack(_ mapping: ImportMapping) throws -> ImportMapping {
        try ImportMapping(json: mapping.jsonData(), baseDirectory: mapping.baseDirectory)
    }

    @Test("every generated mapping reads back the same, and writes the same text again", arguments: DataSetKind.allCases)
    func generated(_ kind: DataSetKind) throws {
        let scratch = ImportScratch()
        let data = try DataSetGenerator.generate(kind, rows: 20, into: scratch.url)
        let mapping = try ImportMapping(contentsOf: data.mappingFile.url.path)
        let again = try Self.readBack(mapping)
        #expect(Self.shape(again) == Self.shape(mapping))
        #expect(again.jsonData() == mapping.jsonData())
    }

    @Test("every committed fixture mapping reads back the same, its paths relative to its directory",
          arguments: ["fdic-2023", "federal-buildings", "northwind", "ok-injection-wells", "people-bad", "people"])
    func fixture(_ name: String) throws {
        let mapping = try ImportFixtures.mapping(name)
        let directory = try #require(mapping.source.map { URL(fileURLWithPath: $0).deletingLastPathComponent().path })
        let again = try ImportMapping(json: mapping.jsonData(relativeTo: directory), baseDirectory: directory)
        #expect(Self.shape(again) == Self.shape(mapping))
        #expect(again.model == mapping.model, "a relative path stays as written when written from its own directory")
    }

    // MARK: Any mapping

    static func pick<Value: Sendable>(_ values: [Value]) -> Generator<Value, Shrink.None<Value?>> {
        Gen<Value?>.element(of: values).map { $0! }
    }

    static let names = pick(["a", "Name", "closing date", "x\"y", "back\\slash", "é ü", "tab\there", "line\nbreak", "\u{1}", "2"] as [String])
    static let tokens = names.array(of: 0...3)
    static let optionalTokens = tokens.optional(valueRate: 0.5)
    // Delimiters and quotes from sets of their own, so the two never clash (the reader refuses that).
    static let delimiter = pick([UInt8(ascii: ","), UInt8(ascii: ";"), 0x09, 0x01, UInt8(ascii: "|")])
    static let quote = pick([UInt8(ascii: "'"), UInt8(ascii: "\""), 0x02])

    static let dialect = zip(Gen.bool.array(of: 6...6), delimiter, quote, pick([TextEncoding.utf8, .windows1252, .latin1]), tokens, Gen.int(in: 0...3))
        .map { drawn -> CSVOptions in
            let (flags, delimiter, quote, encoding, nulls, skip) = drawn
            var options = CSVOptions()
            if flags[0] { options.delimiter = delimiter }
            if flags[1] { options.quote = quote }
            options.encoding = encoding
            options.strict = flags[2]
            options.hasHeader = flags[3]
            if flags[4] { options.nullTokens = nulls }
            options.trim = flags[5]
            options.skipLines = skip
            options.decimalComma = skip == 2
            if skip == 3 { options.maximumRecordBytes = 64 << 20 }
            return options
        }

    static let column = zip(Gen.bool, names, pick([[], ["d-MMM-yy"], ["M/d/yyyy", "epoch"]] as [[String]]), Gen.bool, optionalTokens, optionalTokens)
        .map { drawn -> ColumnMapping in
            let (present, name, formats, pivot, nulls, words) = drawn
            var spec = ColumnMapping(present ? name : nil, formats: formats, pivotYear: pivot ? 1950 : nil, nullTokens: nulls)
            spec.trueValues = words
            spec.falseValues = words.map { $0.map { $0 + "!" } }
            return spec
        }

    static let target = zip(names, Gen.bool, zip(names, column).array(of: 0...4), zip(names, names, optionalTokens).array(of: 0...2), Gen.bool)
        .map { drawn -> TargetMapping in
            let (entity, keyed, columns, relationships, linked) = drawn
            return TargetMapping(entity: entity, key: keyed ? entity + "Key" : nil,
                          columns: Dictionary(columns, uniquingKeysWith: { first, _ in first }),
                          relationships: Dictionary(relationships.map { ($0.0, RelationshipMapping(column: $0.1, destinationKey: $0.0, nullTokens: $0.2)) } as [(String, RelationshipMapping)],
                                                    uniquingKeysWith: { first, _ in first }),
                          link: linked ? LinkMapping(relationship: "partner", target: entity) : nil)
        }

    static let file = zip(names, dialect, Gen.bool, target.array(of: 1...3), names).map { drawn -> FileMapping in
        let (path, options, joins, targets, name) = drawn
        return joins ? FileMapping(path: path + ".csv", options: options,
                            content: .join(JoinMapping(entity: name, relationship: "tags", sourceColumn: name, sourceKey: "id",
                                                       destinationColumn: path, destinationKey: "name")))
              : FileMapping(path: path + ".csv", options: options, content: .targets(targets))
    }

    static let mapping = zip(Gen.bool, names, dialect, file.array(of: 1...3)).map { drawn -> ImportMapping in
        let (named, model, defaults, files) = drawn
        return ImportMapping(model: named ? model + ".model.json" : nil, defaults: defaults, files: files, baseDirectory: "/tmp/mapping")
    }

    /// A file's dialect is written only where it differs from the defaults; read back, the defaults merge
    /// under it again. So the files of a mapping in code must start from its defaults, as read ones do.
    static func fromDefaults(_ mapping: ImportMapping) -> ImportMapping {
        var copy = mapping
        for f in copy.files.indices {
            let own = copy.files[f].options
            var options = copy.defaults
            if own.isDelimiterSet { options.delimiter = own.delimiter }
            options.quote = own.quote
            options.encoding = own.encoding
            options.strict = own.strict
            options.hasHeader = own.hasHeader
            options.nullTokens = own.nullTokens
            options.trim = own.trim
            options.skipLines = own.skipLines
            options.decimalComma = own.decimalComma
            options.maximumRecordBytes = own.maximumRecordBytes
            copy.files[f].options = options
        }
        return copy
    }

    /// Any mapping (names with quotes, backslashes, control characters and non-ASCII letters; every
    /// dialect key; columns, relationships, links and joins) reads back as it was.
    @Test func anyMappingReadsBackTheSame() async {
        await propertyCheck(input: Self.mapping) { generated in
            recordingErrors {
                let mapping = Self.fromDefaults(generated)
                let text = String(decoding: mapping.jsonData(), as: UTF8.self)
                let again = try ImportMapping(json: mapping.jsonData(), baseDirectory: mapping.baseDirectory)
                #expect(Self.shape(again) == Self.shape(mapping), "\(text)")
                // Strict JSON: no control character inside a string (the reader would take some), so every
                // line starts a member or a value, or closes one.
                #expect(text.unicodeScalars.allSatisfy { $0.value >= 0x20 || $0 == "\n" }, "\(text)")
                #expect(text.split(separator: "\n").allSatisfy { line in line.drop { $0 == " " }.first.map { "\"{}[]".contains($0) } == true }, "\(text)")
            }
        }
    }

    @Test("paths are written relative to the directory written to, unless they share only the root with it")
    func paths() throws {
        let mapping = ImportMapping(model: "models/w.model.json",
                                    files: [FileMapping(path: "data/wells.csv", content: .targets([TargetMapping(entity: "Well")])),
                                            FileMapping(path: "/elsewhere/ops.csv", content: .targets([TargetMapping(entity: "Operator")]))],
                                    baseDirectory: "/work/project")
        let text = String(decoding: mapping.jsonData(relativeTo: "/work/project/models"), as: UTF8.self)
        #expect(text.contains("\"model\": \"w.model.json\""), "\(text)")
        #expect(text.contains("\"path\": \"../data/wells.csv\""), "\(text)")
        #expect(text.contains("\"path\": \"/elsewhere/ops.csv\""), "\(text)")
        let read = try ImportMapping(json: Data(text.utf8), baseDirectory: "/work/project/models")
        #expect(read.modelPath == "/work/project/models/w.model.json")
        #expect(read.files.map { URL(fileURLWithPath: read.resolve($0.path)).standardizedFileURL.path } == ["/work/project/data/wells.csv", "/elsewhere/ops.csv"])
    }

    @Test("small containers print on one line, larger ones a member a line; strings are escaped; null is written")
    func layout() {
        let short: _OrderedJSON = ["column": .null, "format": "d-MMM-yy"]
        #expect(short.rendered() == "{\"column\": null, \"format\": \"d-MMM-yy\"}\n")
        let long = _OrderedJSON.array((1...30).map { _OrderedJSON.string("value \($0)") })
        let lines = long.rendered().split(separator: "\n")
        #expect(lines.count == 32)
        #expect(lines.dropFirst().dropLast().allSatisfy { $0.hasPrefix("  \"value ") })
        #expect(_OrderedJSON.quoted("a\"b\\c\nd\u{1}é") == #""a\"b\\c\nd\u0001é""#)
    }

    // MARK: Options written in

    @Test("the command line's options go into the mapping where the importer applies them")
    func applyingOptions() throws {
        let model = try ImportFixtures.model("import-basics")
        let mapping = try ImportMapping.inferred(sources: [("Person", ImportFixtures.path("csv/people.csv"))], model: model)
        var options = ImportOptions()
        options.delimiter = UInt8(ascii: ",")
        options.encoding = .windows1252
        options.nullTokens = ["", "-"]
        options.decimalComma = true
        options.dateFormats = ["d-MMM-yy"]
        options.pivotYear = 2000
        options.trueValues = ["ja"]
        options.falseValues = ["nein"]
        let applied = mapping.applying(options, model: model)
        for dialect in [applied.defaults] + applied.files.map(\.options) {
            #expect(dialect.encoding == .windows1252 && dialect.nullTokens == ["", "-"] && dialect.decimalComma && dialect.isDelimiterSet)
        }
        guard case .targets(let targets) = applied.files[0].content else { Issue.record("expected targets"); return }
        let person = try #require(model.entity(named: "Person"))
        for (name, spec) in targets[0].columns {
            let type = person.attribute(named: name)?.type
            #expect(spec.formats == (type == .date ? ["d-MMM-yy"] : []), "\(name)")
            #expect(spec.pivotYear == (type == .date ? 2000 : nil), "\(name)")
            #expect(spec.trueValues == (type == .boolean ? ["ja"] : nil), "\(name)")
            #expect(spec.falseValues == (type == .boolean ? ["nein"] : nil), "\(name)")
        }
        #expect(targets[0].columns.values.contains { !$0.formats.isEmpty }, "the fixture has a Date column")
        #expect(targets[0].columns.values.contains { $0.trueValues != nil }, "the fixture has a Boolean column")

        // A mapping file's attributes matched by name get a column, from the header, when such options apply to them.
        let scratch = ImportScratch()
        try scratch.write("p.csv", "Person ID,Name,Active,Joined\n1,Ada,ja,10-Dec-15\n")
        let byName = ImportMapping(files: [FileMapping(path: "p.csv", content: .targets([TargetMapping(entity: "Person")]))],
                                   baseDirectory: scratch.url.path).applying(options, model: model)
        guard case .targets(let named) = byName.files[0].content else { Issue.record("expected targets"); return }
        #expect(named[0].columns["joined"] == ColumnMapping("Joined", format: "d-MMM-yy", pivotYear: 2000))
        #expect(named[0].columns["active"]?.column == "Active" && named[0].columns["active"]?.trueValues == ["ja"])
        #expect(named[0].columns["name"] == nil, "a String attribute needs no entry: no option applies to it")
        #expect(ImportMapping(files: [FileMapping(path: "p.csv", content: .targets([TargetMapping(entity: "Person")]))],
                              baseDirectory: scratch.url.path).applying(ImportOptions(), model: model).files[0].content.targetColumns.isEmpty,
                "without such options nothing is added")

        // What the mapping says already stands.
        var own = TargetMapping(entity: "Person", columns: ["joined": ColumnMapping("Joined", format: "M/d/yyyy", pivotYear: 1900)])
        own.columns["active"] = { var spec = ColumnMapping("Active"); spec.trueValues = ["oui"]; return spec }()
        let given = ImportMapping(files: [FileMapping(path: "p.csv", content: .targets([own]))]).applying(options, model: model)
        guard case .targets(let kept) = given.files[0].content else { Issue.record("expected targets"); return }
        #expect(kept[0].columns["joined"] == ColumnMapping("Joined", format: "M/d/yyyy", pivotYear: 1900))
        #expect(kept[0].columns["active"]?.trueValues == ["oui"] && kept[0].columns["active"]?.falseValues == ["nein"])
    }
}

extension FileMapping.Content {
    /// The column entries of every target (empty for a join).
    var targetColumns: [String: ColumnMapping] {
        guard case .targets(let targets) = self else { return [:] }
        return targets.reduce(into: [:]) { all, target in all.merge(target.columns) { first, _ in first } }
    }
}
