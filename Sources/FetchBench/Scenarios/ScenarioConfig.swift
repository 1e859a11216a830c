import Foundation

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
    /// Objects one screen shows.
    public var screen = 20
    /// Batch sizes to compare (0 means none).
    public var batchSizes = [0, 20, 100, 1000]
    /// At most this many objects in the N+1 variants, which cost one statement per object.
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

    /// Reads the keys of a scenario file; a key it does not know throws, so a typo is not silently ignored.
    public init(from decoder: any Decoder) throws {
        for key in try decoder.container(keyedBy: AnyKey.self).allKeys where CodingKeys(rawValue: key.stringValue) == nil {
            throw UnknownKey(key: key.stringValue)
        }
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let d = ScenarioConfig()
        entity = try c.decodeIfPresent(String.self, forKey: .entity) ?? d.entity
        sortKey = try c.decodeIfPresent(String.self, forKey: .sortKey) ?? d.sortKey
        mapProperties = try c.decodeIfPresent([String].self, forKey: .mapProperties) ?? d.mapProperties
        faultAttribute = try c.decodeIfPresent(String.self, forKey: .faultAttribute)
        relationship = try c.decodeIfPresent(String.self, forKey: .relationship) ?? d.relationship
        relatedAttribute = try c.decodeIfPresent(String.self, forKey: .relatedAttribute) ?? d.relatedAttribute
        summaryEntity = try c.decodeIfPresent(String.self, forKey: .summaryEntity) ?? d.summaryEntity
        detailsRelationship = try c.decodeIfPresent(String.self, forKey: .detailsRelationship) ?? d.detailsRelationship
        lookupKey = try c.decodeIfPresent(String.self, forKey: .lookupKey) ?? d.lookupKey
        screen = try c.decodeIfPresent(Int.self, forKey: .screen) ?? d.screen
        batchSizes = try c.decodeIfPresent([Int].self, forKey: .batchSizes) ?? d.batchSizes
        faultLimit = try c.decodeIfPresent(Int.self, forKey: .faultLimit) ?? d.faultLimit
    }

    /// Reads a scenario file: a JSON object of some of ``keys``; the others keep their defaults.
    ///
    /// Throws ``BenchError/invalidScenarioFile(_:_:)`` for a file that cannot be read, is not such an
    /// object, or holds a key not in ``keys``.
    ///
    /// For example:
    ///
    /// ```swift
    /// // books.json: {"entity": "Book", "sort_key": "title", "map_properties": ["title", "author"]}
    /// let config = try ScenarioConfig.load("books.json")
    /// ```
    public static func load(_ path: String) throws(BenchError) -> ScenarioConfig {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw BenchError.invalidScenarioFile(path, "cannot read it (\(error.localizedDescription))")
        }
        do {
            return try JSONDecoder().decode(ScenarioConfig.self, from: data)
        } catch let unknown as UnknownKey {
            throw BenchError.invalidScenarioFile(path, "unknown key '\(unknown.key)'; the keys are \(keys.joined(separator: ", "))")
        } catch DecodingError.typeMismatch(_, let context) where context.codingPath.isEmpty {
            throw BenchError.invalidScenarioFile(path, "it must be one JSON object of settings, such as {\"entity\": \"Book\"}")
        } catch {
            throw BenchError.invalidScenarioFile(path, BenchReport.describe(error))
        }
    }
}
