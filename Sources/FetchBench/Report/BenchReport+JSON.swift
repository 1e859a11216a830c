import Foundation

extension BenchReport {
    /// Decodes a report's JSON; `source` names it in errors (a path, or `stdin`).
    ///
    /// The schema version is read before anything else, so a report from a newer seedstore fails with
    /// ``BenchError/unsupportedSchema(_:_:)`` whatever else changed in its shape.
    ///
    /// For example:
    ///
    /// ```swift
    /// let copy = try BenchReport.decode(try report.jsonData(), source: "memory")
    /// ```
    public static func decode(_ data: Data, source: String) throws -> BenchReport {
        struct Version: Decodable {
            var schemaVersion: Int
            enum CodingKeys: String, CodingKey { case schemaVersion = "schema_version" }
        }
        let version: Int
        do {
            version = try JSONDecoder().decode(Version.self, from: data).schemaVersion
        } catch {
            throw BenchError.invalidReport(source, "no schema_version, so not a seedstore bench report (\(describe(error)))")
        }
        guard version <= currentSchemaVersion else { throw BenchError.unsupportedSchema(source, version) }
        let report: BenchReport
        do {
            report = try JSONDecoder().decode(BenchReport.self, from: data)
        } catch {
            throw BenchError.invalidReport(source, describe(error))
        }
        // Absent, the settings could not be checked against a run's: only a version 1 report may lack them.
        if version >= 2 && report.settings.scenarioConfig == nil {
            throw BenchError.invalidReport(source, "missing key 'scenario_config' in settings, which schema version \(version) requires")
        }
        return report
    }

    /// The report as pretty, key-sorted JSON: what ``write(to:)`` writes.
    ///
    /// For example:
    ///
    /// ```swift
    /// FileHandle.standardOutput.write(try report.jsonData())
    /// ```
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    /// A decoding error in a phrase: where in the document, and what was wrong.
    static func describe(_ error: any Error) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            keys.isEmpty ? "the top level" : keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        switch error as? DecodingError {
        case .keyNotFound(let key, let context)?: return "missing key '\(key.stringValue)' in \(path(context.codingPath))"
        case .typeMismatch(let type, let context)?: return "expected \(type) at \(path(context.codingPath))"
        case .valueNotFound(let type, let context)?: return "null where \(type) belongs at \(path(context.codingPath))"
        case .dataCorrupted(let context)?: return "invalid JSON at \(path(context.codingPath)): \(context.debugDescription)"
        default: return "\(error)"
        }
    }
}
