import Foundation

extension ScenarioConfig {
    /// The settings as they take effect: ``faultAttribute`` resolved to ``sortKey`` when nil.
    ///
    /// What a report records (`settings.scenario_config`); written out, it is a scenario file that reruns
    /// the same settings. Two configs that measure the same have equal `effective` values.
    ///
    /// For example:
    ///
    /// ```swift
    /// var config = ScenarioConfig()
    /// config.sortKey = "uwi"
    /// config.effective.faultAttribute   // "uwi"
    /// ```
    public var effective: ScenarioConfig {
        var config = self
        config.faultAttribute = faultAttribute ?? sortKey
        return config
    }

    /// The scenario families whose variants a key changes *without changing their names*, so a baseline
    /// made with another value would be matched, variant by variant, with something else.
    ///
    /// `batch_sizes`, `relationship` and `related_attribute` change nothing here: the names of the variants
    /// they shape carry their values (`batch 20, first screen`, `well.operator.name with prefetching`), so
    /// another value makes new and missing variants, never a false match.
    static let scenariosChanged: [String: [String]] = [
        "entity": ScenarioCatalog.names,
        "sort_key": ["batch-size"],
        "screen": ["batch-size"],
        "fault_attribute": ["faulting"],
        "fault_limit": ["faulting", "dictionary"],
        "map_properties": ["dictionary", "decomposition"],
        "summary_entity": ["decomposition"],
        "details_relationship": ["decomposition"],
        "lookup_key": ["decomposition"],
    ]

    /// The value of the scenario-file key `key` as a message shows it: `title`, `[uwi, well_name]`, `20`,
    /// or `none` for a relationship left unnamed.
    ///
    /// For example:
    ///
    /// ```swift
    /// ScenarioConfig().text(of: "batch_sizes")   // "[0, 20, 100, 1000]"
    /// ```
    func text(of key: String) -> String {
        func list<T>(_ values: [T]) -> String { "[\(values.map { "\($0)" }.joined(separator: ", "))]" }
        switch CodingKeys(rawValue: key) {
        case .entity: return entity
        case .sortKey: return sortKey
        case .mapProperties: return list(mapProperties)
        case .faultAttribute: return faultAttribute ?? sortKey
        case .relationship: return relationship ?? "none"
        case .relatedAttribute: return relatedAttribute ?? "none"
        case .summaryEntity: return summaryEntity ?? "none"
        case .detailsRelationship: return detailsRelationship ?? "none"
        case .lookupKey: return lookupKey ?? "none"
        case .screen: return "\(screen)"
        case .batchSizes: return list(batchSizes)
        case .faultLimit: return "\(faultLimit)"
        case nil: return "?"
        }
    }

    /// A scenario file of just `keys`, with this config's values as they take effect, keys in the order
    /// given: what to pass with `--scenario-file` to run with these values.
    ///
    /// For example:
    ///
    /// ```swift
    /// ScenarioConfig().scenarioFile(keys: ["screen", "lookup_key"])   // {"screen": 20, "lookup_key": "uwi"}
    /// ```
    public func scenarioFile(keys: [String]) -> String {
        let object = (try? JSONEncoder().encode(effective)).flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] } ?? [:]
        /// One JSON value on one line, lists spaced as the docs write them.
        func json(_ value: Any) -> String {
            if let list = value as? [Any] { return "[" + list.map(json).joined(separator: ", ") + "]" }
            let text = try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed, .withoutEscapingSlashes])
            return text.map { String(decoding: $0, as: UTF8.self) } ?? "null"
        }
        return "{" + keys.compactMap { key in object[key].map { "\(json(key)): \(json($0))" } }.joined(separator: ", ") + "}"
    }

    /// The settings as a report records them (`settings.scenario_config`), read back.
    ///
    /// Unlike a scenario file, where an absent key keeps its default, a report records every setting: an
    /// absent relationship key means none was named, and a missing required key makes the report
    /// unreadable. Keys it does not know are ignored, as everywhere in a report.
    struct Recorded: Codable {
        var config: ScenarioConfig

        init(config: ScenarioConfig) {
            self.config = config
        }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            var config = ScenarioConfig()
            config.entity = try c.decode(String.self, forKey: .entity)
            config.sortKey = try c.decode(String.self, forKey: .sortKey)
            config.mapProperties = try c.decode([String].self, forKey: .mapProperties)
            config.faultAttribute = try c.decode(String.self, forKey: .faultAttribute)
            config.relationship = try c.decodeIfPresent(String.self, forKey: .relationship)
            config.relatedAttribute = try c.decodeIfPresent(String.self, forKey: .relatedAttribute)
            config.summaryEntity = try c.decodeIfPresent(String.self, forKey: .summaryEntity)
            config.detailsRelationship = try c.decodeIfPresent(String.self, forKey: .detailsRelationship)
            config.lookupKey = try c.decodeIfPresent(String.self, forKey: .lookupKey)
            config.screen = try c.decode(Int.self, forKey: .screen)
            config.batchSizes = try c.decode([Int].self, forKey: .batchSizes)
            config.faultLimit = try c.decode(Int.self, forKey: .faultLimit)
            self.config = config
        }

        func encode(to encoder: any Encoder) throws {
            try config.effective.encode(to: encoder)
        }
    }
}
