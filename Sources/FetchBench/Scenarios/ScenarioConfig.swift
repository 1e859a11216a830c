import Foundation
import ManagedStore

/// The entity and property names the scenarios run on, so they run on a user's own model and store.
///
/// The defaults fit the generated wells store. Read one from a JSON scenario file (its keys are
/// ``keys``, documented in `docs/bench-schema.md`, Scenario files; ``load(_:)`` refuses any other key)
/// or set fields from command-line flags.
///
/// For example:
///
/// ```swift
/// var config = ScenarioConfig()
/// config.entity = "Book"; config.sortKey = "title"; config.mapProperties = ["title", "author"]
/// ```
public struct ScenarioConfig: Codable, Sendable, Equatable {
    /// The monolithic entity whose objects the scenarios fetch.
    public var entity = "Well"
    /// The attribute every list sorts by.
    public var sortKey = "well_name"
    /// The few properties a map or list needs (dictionary results, decomposition).
    public var mapProperties = ["uwi", "well_name", "surface_latitude", "surface_longitude"]
    /// The attribute the faulting scenario reads from each object; `nil` reads ``sortKey``.
    public var faultAttribute: String?
    /// A to-one relationship of `entity` and an attribute of its destination (`well.operator.name`).
    public var relationship: String? = "operator"
    /// The attribute read from the destination of ``relationship`` (`name` of `operator`).
    public var relatedAttribute: String? = "name"
    /// The small entity of a one-to-one decomposition, its to-one to the details entity, and its key.
    public var summaryEntity: String? = "WellSummary"
    /// The to-one relationship from ``summaryEntity`` to the details entity.
    public var detailsRelationship: String? = "details"
    /// The key used to open one object's details.
    public var lookupKey: String? = "uwi"
    /// Objects one screen shows: 1 or more.
    public var screen = 20
    /// Batch sizes to compare (0 means none); each 0 or more, at least one.
    public var batchSizes = [0, 20, 100, 1000]
    /// At most this many objects in the variants that fetch with a limit: 1 or more. The N+1 variants cost one
    /// statement per object; the faulting family's `returnsObjectsAsFaults false` and `object IDs only`
    /// stop at the same limit so they compare like with like; the to-one prefetching variants and the
    /// other dictionary variants read every row.
    public var faultLimit = 20_000

    /// The defaults, which fit the generated wells store.
    ///
    /// For example:
    ///
    /// ```swift
    /// let scenarios = try ScenarioCatalog.make(for: store, config: ScenarioConfig())
    /// ```
    public init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case entity, sortKey = "sort_key", mapProperties = "map_properties", faultAttribute = "fault_attribute",
             relationship, relatedAttribute = "related_attribute", summaryEntity = "summary_entity",
             detailsRelationship = "details_relationship", lookupKey = "lookup_key", screen, batchSizes = "batch_sizes",
             faultLimit = "fault_limit"
    }

    /// Every key a scenario file may hold, in the order they are documented.
    public static let keys = ["entity", "sort_key", "map_properties", "fault_attribute", "relationship", "related_attribute",
                              "summary_entity", "details_relationship", "lookup_key", "screen", "batch_sizes", "fault_limit"]

    /// A key that names nothing: `fault_atribute` must not be ignored and leave the default in force.
    struct UnknownKey: Error {
        let key: String
    }

    /// Any key, to list the ones a file holds.
    struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// A value of the wrong type or `null`: the key and what it takes.
    struct WrongType: Error {
        let key: String
        let expected: String
        let isNull: Bool
    }

    /// Reads the keys of a scenario file; a key it does not know throws, so a typo is not silently ignored.
    ///
    /// A value of the wrong type, or `null`, throws naming the key: `null` never stands for the default.
    public init(from decoder: any Decoder) throws {
        for key in try decoder.container(keyedBy: AnyKey.self).allKeys where CodingKeys(rawValue: key.stringValue) == nil {
            throw UnknownKey(key: key.stringValue)
        }
        let c = try decoder.container(keyedBy: CodingKeys.self)
        /// The value of `key` when present; `null` or another type than `T` throws ``WrongType``.
        func value<T: Decodable>(_ key: CodingKeys, _ expected: String, as _: T.Type = T.self) throws -> T? {
            guard c.contains(key) else { return nil }
            if (try? c.decodeNil(forKey: key)) == true { throw WrongType(key: key.rawValue, expected: expected, isNull: true) }
            do { return try c.decode(T.self, forKey: key) } catch {
                throw WrongType(key: key.rawValue, expected: expected, isNull: false)
            }
        }
        let text = "a string", texts = "a list of strings", integer = "an integer"
        let d = ScenarioConfig()
        entity = try value(.entity, text) ?? d.entity
        sortKey = try value(.sortKey, text) ?? d.sortKey
        mapProperties = try value(.mapProperties, texts) ?? d.mapProperties
        faultAttribute = try value(.faultAttribute, text)
        relationship = try value(.relationship, text) ?? d.relationship
        relatedAttribute = try value(.relatedAttribute, text) ?? d.relatedAttribute
        summaryEntity = try value(.summaryEntity, text) ?? d.summaryEntity
        detailsRelationship = try value(.detailsRelationship, text) ?? d.detailsRelationship
        lookupKey = try value(.lookupKey, text) ?? d.lookupKey
        screen = try value(.screen, integer) ?? d.screen
        batchSizes = try value(.batchSizes, "a list of integers, such as [0, 20, 100]") ?? d.batchSizes
        faultLimit = try value(.faultLimit, integer) ?? d.faultLimit
    }

    /// Refuses a setting no scenario can run with: the first one out of range, naming its key, its value
    /// and what it takes.
    ///
    /// `screen` and `fault_limit` take 1 or more; `batch_sizes` a non-empty list of distinct sizes, each
    /// 0 (no batching) or more; `map_properties` at least one name, each once. ``load(_:)`` and
    /// ``ScenarioCatalog/make(for:config:only:)`` check it, so no value reaches the scenarios out of range.
    ///
    /// For example:
    ///
    /// ```swift
    /// var config = ScenarioConfig()
    /// config.screen = -1
    /// try config.validate()   // throws .invalidSetting: screen is -1; it takes 1 or more (the objects one screen shows)
    /// ```
    public func validate() throws(BenchError) {
        func refuse(_ key: String, _ value: String, _ allowed: String) -> BenchError {
            .invalidSetting(.init(key: key, value: value, allowed: allowed))
        }
        if let problem = Self.sortKeyProblem(sortKey) { throw refuse("sort_key", "\"\(sortKey)\"", problem) }
        if screen < 1 { throw refuse("screen", "\(screen)", "1 or more (the objects one screen shows)") }
        if faultLimit < 1 { throw refuse("fault_limit", "\(faultLimit)", "1 or more (at most this many objects in the faulting variants and dictionary's N+1)") }
        if batchSizes.isEmpty { throw refuse("batch_sizes", "[]", "a list of at least one batch size, such as [0, 20, 100]") }
        let sizes = "[\(batchSizes.map(String.init).joined(separator: ", "))]"
        if let bad = batchSizes.first(where: { $0 < 0 }) {
            throw refuse("batch_sizes", sizes, "batch sizes of 0 (no batching) or more, not \(bad), such as [0, 20, 100]")
        }
        if Set(batchSizes).count != batchSizes.count {
            throw refuse("batch_sizes", sizes, "each batch size once: a size given twice would measure the same variant twice")
        }
        if mapProperties.isEmpty { throw refuse("map_properties", "[]", "at least one property name, such as [\"title\"]") }
        if let twice = mapProperties.first(where: { name in mapProperties.filter { $0 == name }.count > 1 }) {
            let names = "[\(mapProperties.map { "\"\($0)\"" }.joined(separator: ", "))]"
            throw refuse("map_properties", names, "each property once, not \"\(twice)\" twice (a map fetches each column once)")
        }
    }

    /// What is wrong with `sortKey` as the bench's sort key when it is a sort spec rather than one name
    /// (`orderDate:desc`, `customerID,orderDate`), as a phrase of what the setting takes; nil otherwise.
    ///
    /// The bench's lists sort by one attribute, ascending: a name with `:` or `,` would otherwise be refused
    /// as a property the entity lacks.
    ///
    /// For example:
    ///
    /// ```swift
    /// ScenarioConfig.sortKeyProblem("orderDate:desc")   // "one attribute, sorted ascending: the bench takes no :desc …"
    /// ScenarioConfig.sortKeyProblem("orderDate")        // nil
    /// ```
    public static func sortKeyProblem(_ sortKey: String) -> String? {
        guard sortKey.contains(":") || sortKey.contains(",") else { return nil }
        let first = sortKey.split(whereSeparator: { $0 == ":" || $0 == "," }).first.map { String($0).trimmingCharacters(in: .whitespaces) } ?? ""
        return "one attribute, sorted ascending: the bench takes no :desc and no list of keys (seedstore query --sort does), "
            + "so name one attribute, such as \(first.isEmpty ? "title" : first)"
    }

    /// Reads a scenario file: a JSON object of some of ``keys``; the others keep their defaults.
    ///
    /// Throws ``BenchError/invalidScenarioFile(_:_:)`` for a file that cannot be read, is not such an
    /// object, holds a key not in ``keys``, a value of the wrong type or `null`, or a value out of range
    /// (``validate()``), naming the key.
    ///
    /// For example:
    ///
    /// ```swift
    /// // books.json: {"entity": "Book", "sort_key": "title", "map_properties": ["title", "author"]}
    /// let config = try ScenarioConfig.load("books.json")
    /// ```
    public static func load(_ path: String) throws(BenchError) -> ScenarioConfig {
        let data: Data
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw BenchError.invalidScenarioFile(path, "it is a directory; name a JSON file of settings")
        }
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw BenchError.invalidScenarioFile(path, "cannot read it (\(error.localizedDescription))")
        }
        // Foundation's decoder takes a comma before a closing bracket and keeps the last of a repeated
        // key without a word: a file that says `"sort_key"` twice must not run with one of them silently.
        do { _ = try JSONSyntaxError.parse(data, fragmentsAllowed: true) } catch {
            // A trailing comma or a repeated key says what to fix; other syntax errors get the general hint.
            let plain = error.reason.hasPrefix("a comma before") || error.reason.hasPrefix("the key ")
            throw BenchError.invalidScenarioFile(path, plain ? "\(error)" : "\(error); \(error.hint)")
        }
        do {
            let config = try JSONDecoder().decode(ScenarioConfig.self, from: data)
            try config.validate()
            return config
        } catch BenchError.invalidSetting(let setting) {
            throw BenchError.invalidScenarioFile(path, setting.description)
        } catch let wrong as WrongType {
            let found = wrong.isNull ? "null" : rawValue(of: wrong.key, in: data).map { "\($0)" } ?? "another type"
            throw BenchError.invalidScenarioFile(path, "\(wrong.key) is \(found); it takes \(wrong.expected)"
                + (wrong.isNull ? " (leave the key out to keep the default)" : ""))
        } catch let unknown as UnknownKey {
            // A bench report holds a scenario file (settings.scenario_config) but is not one.
            if let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any], object["schema_version"] != nil,
               object["settings"] != nil {
                throw BenchError.invalidScenarioFile(path, "it is a bench report, not a scenario file; its settings.scenario_config is one: "
                    + "save that object in a file of its own (jq .settings.scenario_config \(path) > scenario.json) and pass that")
            }
            throw BenchError.invalidScenarioFile(path, "unknown key '\(unknown.key)'; the keys are \(keys.joined(separator: ", "))")
        } catch DecodingError.typeMismatch(_, let context) where context.codingPath.isEmpty {
            throw BenchError.invalidScenarioFile(path, "it must be one JSON object of settings, such as {\"entity\": \"Book\"}")
        } catch {
            throw BenchError.invalidScenarioFile(path, BenchReport.describe(error))
        }
    }

    /// The JSON text of `key`'s value in the scenario file `data`, to quote in an error.
    static func rawValue(of key: String, in data: Data) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any], let value = object[key],
              let text = try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed]) else { return nil }
        return String(decoding: text, as: UTF8.self)
    }
}
