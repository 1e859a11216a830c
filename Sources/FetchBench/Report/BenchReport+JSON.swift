import Foundation
import ManagedStore

extension BenchReport {
    /// What strict JSON refuses in `data` that Foundation's parser takes, or nil.
    static func strictProblem(_ data: Data) -> String? {
        do { _ = try JSONSyntaxError.parse(data); return nil } catch { return error.description }
    }

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
        if data.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) {
            throw BenchError.invalidReport(source, "the file is empty; write a report with --json, or save a baseline with --save-baseline")
        }
        // Strict JSON first: Foundation's decoder takes a trailing comma and keeps the last of a repeated
        // key (`"schema_version": 2, "schema_version": 1`), which a hand-edited baseline may hold.
        if let syntax = (try? JSONSerialization.jsonObject(with: data)) != nil ? Self.strictProblem(data) : nil {
            throw BenchError.invalidReport(source, syntax)
        }
        let version: Int
        do {
            version = try JSONDecoder().decode(Version.self, from: data).schemaVersion
        } catch DecodingError.keyNotFound(let key, let context) where key.stringValue == "schema_version" && context.codingPath.isEmpty {
            throw BenchError.invalidReport(source, "no schema_version, so not a seedstore bench report")
        } catch {
            throw BenchError.invalidReport(source, describe(error, in: data, as: Version.self))
        }
        guard version <= currentSchemaVersion else { throw BenchError.unsupportedSchema(source, version) }
        let report: BenchReport
        do {
            report = try JSONDecoder().decode(BenchReport.self, from: data)
        } catch {
            throw BenchError.invalidReport(source, describe(error, in: data, as: BenchReport.self))
        }
        // Absent, the settings could not be checked against a run's: only a version 1 report may lack them.
        if version >= 2 && report.settings.scenarioConfig == nil {
            throw BenchError.invalidReport(source, "missing key 'scenario_config' in settings, which schema version \(version) requires")
        }
        if let problem = report.valueProblem() {
            throw BenchError.invalidReport(source, problem + ". A report seedstore wrote has no such value: write it again with --json, or save the baseline again")
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
    ///
    /// Foundation's decoder reports a number of the wrong kind for an integer key (`2.5`, `1e20`,
    /// `99999999999999999999`) as invalid JSON at the top level, with no key path; when `data` is valid JSON,
    /// the number at fault is found (``misfitNumber(in:as:)``) and named with its key path instead.
    static func describe<T: Decodable>(_ error: any Error, in data: Data, as type: T.Type) -> String {
        if case .dataCorrupted(let context)? = error as? DecodingError, context.codingPath.isEmpty,
           let (path, number) = misfitNumber(in: data, as: type) {
            return "expected an integer at \(path), found \(number)"
        }
        return describe(error)
    }

    /// A decoding error in a phrase: where in the document, and what was wrong.
    static func describe(_ error: any Error) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            guard !keys.isEmpty else { return "the top level" }
            let joined = keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return joined.hasPrefix(".") ? String(joined.dropFirst()) : joined
        }
        switch error as? DecodingError {
        case .keyNotFound(let key, let context)?: return "missing key '\(key.stringValue)' in \(path(context.codingPath))"
        case .typeMismatch(let type, let context)?: return "expected \(kind(type)) at \(path(context.codingPath))"
        case .valueNotFound(let type, let context)?: return "null where \(kind(type)) belongs at \(path(context.codingPath))"
        case .dataCorrupted(let context)?: return "invalid JSON at \(path(context.codingPath)): \(context.debugDescription)"
        default: return "\(error)"
        }
    }

    /// A decoded type as JSON says it: `a number` for `Double`, not the Swift name.
    static func kind(_ type: Any.Type) -> String {
        switch type {
        case is Double.Type, is Float.Type: "a number"
        case is Int.Type: "an integer"
        case is String.Type: "text"
        case is Bool.Type: "true or false"
        case is [Any].Type: "an array"
        case is [String: Any].Type: "an object"
        default: "\(type)".hasPrefix("Array") ? "an array" : "\(type)".hasPrefix("Dictionary") ? "an object" : "a value of type \(type)"
        }
    }

    /// The key path and text of the first number in `data` that decoding it as `T` fails on for not being an
    /// integer (a fraction, or beyond `Int`'s range), or nil when no number is at fault.
    ///
    /// Every number that is not a plain integer is a suspect; one is at fault when, with every other suspect
    /// made 0, decoding still fails the same way. Only a failed read pays for this.
    static func misfitNumber<T: Decodable>(in data: Data, as _: T.Type) -> (path: String, number: String)? {
        guard let root = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else { return nil }
        // Suspects in document order (object keys sorted), each as the path of keys and indexes to it.
        var suspects: [(path: [Any], text: String)] = []
        func walk(_ value: Any, _ path: [Any]) {
            switch value {
            case let object as [String: Any]: for key in object.keys.sorted() { walk(object[key]!, path + [key]) }
            case let array as [Any]: for (index, item) in array.enumerated() { walk(item, path + [index]) }
            case let number as NSNumber where !(value is Bool) && Int("\(number)") == nil: suspects.append((path, "\(number)"))
            default: break
            }
        }
        walk(root, [])
        func replacing(_ value: Any, at path: ArraySlice<Any>) -> Any {
            guard let step = path.first else { return 0 }
            if var object = value as? [String: Any], let key = step as? String, let inner = object[key] {
                object[key] = replacing(inner, at: path.dropFirst())
                return object
            }
            if var array = value as? [Any], let index = step as? Int {
                array[index] = replacing(array[index], at: path.dropFirst())
                return array
            }
            return value
        }
        func failsAtTheTop(_ document: Any) -> Bool {
            guard let data = try? JSONSerialization.data(withJSONObject: document, options: [.fragmentsAllowed]) else { return false }
            do { _ = try JSONDecoder().decode(T.self, from: data) } catch DecodingError.dataCorrupted(let context) {
                return context.codingPath.isEmpty
            } catch { return false }
            return false
        }
        for (index, suspect) in suspects.enumerated() {
            var others = root
            for (other, rest) in suspects.enumerated() where other != index { others = replacing(others, at: rest.path[...]) }
            if failsAtTheTop(others) {
                let path = suspect.path.map { step in (step as? Int).map { "[\($0)]" } ?? ".\(step)" }.joined()
                return (path.hasPrefix(".") ? String(path.dropFirst()) : path, suspect.text)
            }
        }
        return nil
    }
}
