import Foundation

/// What can go wrong in the bench harness; each description says what to do next.
///
/// For example:
///
/// ```swift
/// do { _ = try BaselineStore(directory: BaselineStore.defaultDirectory).load("main") }
/// catch let error as BenchError { print("error: \(error)") }   // no baseline named 'main' at …
/// ```
public enum BenchError: Error, CustomStringConvertible, Sendable {
    /// A report from a newer seedstore: its path and schema version.
    case unsupportedSchema(String, Int)
    /// No baseline under that name or at that path.
    case missingBaseline(name: String, path: String)
    /// A scenario family that does not exist, and the ones that do.
    case unknownScenario(String, known: [String])
    /// The store's model lacks an entity or property a chosen scenario needs.
    case storeLacks(MissingName)
    /// A report or baseline file that is not a bench report: its path and what is wrong.
    case invalidReport(String, String)
    /// A baseline name that cannot be a file name (``BaselineStore/problem(withName:)`` says why).
    case invalidBaselineName(String)
    /// A scenario file that cannot be used: its path and what is wrong (an unknown key, invalid JSON).
    case invalidScenarioFile(String, String)
    /// A scenario setting out of range (``ScenarioConfig/validate()``): its key, value and what it takes.
    case invalidSetting(InvalidSetting)
    /// A result to measure again whose variant the scenarios given do not have: its `scenario / variant`.
    case notMeasured(key: String)

    /// A ``ScenarioConfig`` setting no scenario can run with, such as a negative batch size.
    ///
    /// For example:
    ///
    /// ```swift
    /// let bad = BenchError.InvalidSetting(key: "screen", value: "-1", allowed: "1 or more")
    /// print(bad)   // screen is -1; it takes 1 or more
    /// ```
    public struct InvalidSetting: Sendable, Equatable, CustomStringConvertible {
        /// The scenario-file key (``ScenarioConfig/keys``): `batch_sizes`.
        public var key: String
        /// The value given, as written in JSON: `-5`, `[0, -5]`.
        public var value: String
        /// What the key takes: `1 or more`.
        public var allowed: String

        /// The setting `key` given `value`, which takes `allowed`.
        public init(key: String, value: String, allowed: String) {
            self.key = key
            self.value = value
            self.allowed = allowed
        }

        public var description: String { "\(key) is \(value); it takes \(allowed)" }
    }

    /// An entity or property a scenario needs that the store's model lacks, and the
    /// ``ScenarioConfig`` setting that named it.
    ///
    /// For example:
    ///
    /// ```swift
    /// let missing = BenchError.MissingName(scenario: "faulting", entity: "Book", name: "well_name",
    ///                                      key: "fault_attribute", available: ["title", "author"])
    /// print(missing)   // Book has no property 'well_name' (fault_attribute), which the faulting scenario reads; …
    /// ```
    public struct MissingName: Sendable, Equatable, CustomStringConvertible {
        /// The scenario family that needs it (`faulting`).
        public var scenario: String
        /// The entity that lacks the property, or `nil` when the entity itself is missing.
        public var entity: String?
        /// The missing entity's or property's name.
        public var name: String
        /// The scenario-file key (``ScenarioConfig/keys``) whose value named it: `fault_attribute`.
        public var key: String
        /// What the store has instead: its entities' names, or the names of the entity's properties that
        /// the setting can use (attributes and to-one relationships, which have a column).
        public var available: [String]
        /// Whether the entity has `name`, but as a to-many relationship, which has no column to sort by,
        /// read or map.
        public var isToMany: Bool

        /// A missing `name` the setting `key` gave, which `scenario` needs; `isToMany` when the entity has
        /// it as a to-many relationship, which the setting cannot use.
        public init(scenario: String, entity: String?, name: String, key: String, available: [String], isToMany: Bool = false) {
            self.scenario = scenario
            self.entity = entity
            self.name = name
            self.key = key
            self.available = available
            self.isToMany = isToMany
        }

        public var description: String {
            let have = available.isEmpty ? "none" : available.joined(separator: ", ")
            if let entity, isToMany {
                return "\(entity).\(name) (\(key)) is a to-many relationship, which the \(scenario) scenario cannot use as one value; \(entity) has \(have)"
            }
            if let entity {
                return "\(entity) has no property '\(name)' (\(key)), which the \(scenario) scenario reads; \(entity) has \(have)"
            }
            return "the store has no entity '\(name)' (\(key)), which the \(scenario) scenario fetches; its entities are \(have)"
        }
    }

    public var description: String {
        switch self {
        case .unsupportedSchema(let path, let version):
            "\(path) has report schema version \(version); this seedstore reads up to \(BenchReport.currentSchemaVersion). Update seedstore or re-run the baseline."
        case .missingBaseline(let name, let path):
            BaselineStore.isPath(name)
                ? "no baseline report at \(path); write one with --json \(name), or pass a saved baseline's name"
                : FileManager.default.fileExists(atPath: name)
                ? "no baseline named '\(name)' at \(path). There is a file \(name) here, but a baseline is a name, or a path that "
                    + "contains '/' or ends in .json: to compare with a report JSON file, pass ./\(name) (a report written with --json; "
                    + "a Markdown or HTML report cannot be compared)"
                : "no baseline named '\(name)' at \(path); save one first with --save-baseline \(name)"
        case .unknownScenario(let name, let known):
            "unknown scenario '\(name)'; choose from \(known.joined(separator: ", "))"
        case .storeLacks(let missing):
            "the store cannot run this scenario: \(missing). Name another in a scenario file (docs/bench-schema.md, Scenario files)."
        case .invalidReport(let path, let reason):
            "\(path) is not a readable bench report: \(reason)"
        case .invalidBaselineName(let name):
            "'\(name)' cannot name a baseline: \(BaselineStore.problem(withName: name) ?? "it is not a valid name")"
        case .invalidScenarioFile(let path, let reason):
            "\(path) is not a usable scenario file: \(reason) (see docs/bench-schema.md, Scenario files)"
        case .invalidSetting(let setting):
            "the scenario settings cannot run: \(setting). Change \(setting.key) in the scenario file (docs/bench-schema.md, Scenario files)."
        case .notMeasured(let key):
            "no variant '\(key)' among the scenarios given, so it cannot be measured again; pass the scenarios the report was measured with"
        }
    }
}
