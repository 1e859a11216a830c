import Foundation

/// Turns the value of a transformable attribute into data and back.
///
/// For example:
///
/// ```swift
/// struct JSONArrayTransformer: ValueTransformer {
///     func transformedValue(_ value: Any) throws -> Data { try JSONSerialization.data(withJSONObject: value) }
///     func reverseTransformedValue(_ data: Data) throws -> Any { try JSONSerialization.jsonObject(with: data) }
/// }
/// ValueTransformers.register(JSONArrayTransformer(), name: "JSONArrayTransformer")
/// ```
public protocol ValueTransformer: Sendable {
    /// The data to store for `value`.
    func transformedValue(_ value: Any) throws -> Data
    /// The value stored data stands for.
    func reverseTransformedValue(_ data: Data) throws -> Any
}

/// The registry of named value transformers, as `NSValueTransformer`'s names are in Core Data.
///
/// An attribute without a transformer name stores and returns `Data` unchanged.
public enum ValueTransformers {
    private final class Registry: @unchecked Sendable {
        let lock = NSLock()
        var transformers: [String: any ValueTransformer] = [:]
    }
    private static let registry = Registry()

    /// Registers `transformer` under `name`.
    public static func register(_ transformer: any ValueTransformer, name: String) {
        registry.lock.lock()
        registry.transformers[name] = transformer
        registry.lock.unlock()
    }

    /// The transformer called `name`, if one is registered (``JSONValueTransformer`` always is).
    public static func transformer(named name: String) -> (any ValueTransformer)? {
        registry.lock.lock()
        defer { registry.lock.unlock() }
        if let transformer = registry.transformers[name] { return transformer }
        return name == JSONValueTransformer.name ? JSONValueTransformer() : nil
    }

    static func transformer(for attribute: Attribute) throws -> any ValueTransformer {
        guard let name = attribute.valueTransformerName else { return DataPassthrough() }
        guard let transformer = transformer(named: name) else {
            throw StoreError.invalidRequest("no value transformer is registered as '\(name)' (for attribute '\(attribute.name)'); call ValueTransformers.register(_:name:) first")
        }
        return transformer
    }

    private struct DataPassthrough: ValueTransformer {
        func transformedValue(_ value: Any) throws -> Data {
            guard let data = value as? Data else {
                throw StoreError.invalidRequest("a transformable attribute without a transformer takes Data, not \(type(of: value))")
            }
            return data
        }
        func reverseTransformedValue(_ data: Data) throws -> Any { data }
    }
}

/// A built-in transformer storing any JSON-compatible value (arrays, dictionaries, strings, numbers,
/// booleans, `NSNull`) as UTF-8 JSON text; always available as ``name``, so models can name it and the
/// `seedstore` command can import such attributes from a JSON cell.
///
/// For example, with `"transformer": "JSONValueTransformer"` on a `tags` attribute:
///
/// ```swift
/// try book.setTransformedValue(["classic", "fiction"], forKey: "tags")
/// let tags = try book.transformedValue(forKey: "tags") as? [String]
/// ```
public struct JSONValueTransformer: ValueTransformer {
    /// The name it goes by in a model: `JSONValueTransformer`.
    public static let name = "JSONValueTransformer"

    /// A JSON transformer; it has no settings.
    ///
    /// For example:
    ///
    /// ```swift
    /// let transformer = JSONValueTransformer()
    /// let data = try transformer.transformedValue(["a": 1])   // {"a":1}
    /// ```
    public init() {}

    /// The value as UTF-8 JSON text, keys sorted; throws when it is not JSON-compatible.
    ///
    /// For example:
    ///
    /// ```swift
    /// let data = try JSONValueTransformer().transformedValue(["classic", "fiction"])   // ["classic","fiction"]
    /// ```
    public func transformedValue(_ value: Any) throws -> Data {
        try JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed, .sortedKeys, .withoutEscapingSlashes])
    }

    /// The value that JSON text stands for (an array, dictionary, string, number or `NSNull`);
    /// throws when `data` is not valid JSON.
    ///
    /// For example:
    ///
    /// ```swift
    /// let tags = try JSONValueTransformer().reverseTransformedValue(Data(#"["classic"]"#.utf8)) as? [String]
    /// ```
    public func reverseTransformedValue(_ data: Data) throws -> Any {
        try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
    }
}
