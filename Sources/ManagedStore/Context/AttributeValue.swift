import Foundation

/// A Swift type an attribute's value can be read as and written from.
///
/// For example:
///
/// ```swift
/// let completed: Bool? = task.get("completed")
/// task.set("copyright", Date())
/// ```
public protocol AttributeValue {
    /// Reads the value, or `nil` when it is null or of another kind.
    init?(attributeValue: Value)
    /// The value to store.
    var attributeValue: Value { get }
}

extension Int: AttributeValue {
    /// Reads an integer, a whole `double` or a Boolean (1 or 0); `nil` for anything else.
    public init?(attributeValue: Value) {
        switch attributeValue {
        case .integer(let v): self.init(v)
        case .double(let v): self.init(exactly: v)
        case .bool(let v): self = v ? 1 : 0
        default: return nil
        }
    }
    /// The value as an `integer`.
    public var attributeValue: Value { .integer(Int64(self)) }
}

extension Int16: AttributeValue {
    /// Reads what `Int(attributeValue:)` reads when it fits in 16 bits; `nil` for anything else
    /// (70000 is `nil`, not a truncated 4464).
    public init?(attributeValue: Value) { guard let v = Int(attributeValue: attributeValue) else { return nil }; self.init(exactly: v) }
    /// The value as an `integer`.
    public var attributeValue: Value { .integer(Int64(self)) }
}

extension Int32: AttributeValue {
    /// Reads what `Int(attributeValue:)` reads when it fits in 32 bits; `nil` for anything else.
    public init?(attributeValue: Value) { guard let v = Int(attributeValue: attributeValue) else { return nil }; self.init(exactly: v) }
    /// The value as an `integer`.
    public var attributeValue: Value { .integer(Int64(self)) }
}

extension Int64: AttributeValue {
    /// Reads what `Int(attributeValue:)` reads: an integer, a whole `double` or a Boolean.
    public init?(attributeValue: Value) { guard let v = Int(attributeValue: attributeValue) else { return nil }; self.init(v) }
    /// The value as an `integer`.
    public var attributeValue: Value { .integer(self) }
}

extension Double: AttributeValue {
    /// Reads a `double`, an integer or a decimal (converted); `nil` for anything else.
    public init?(attributeValue: Value) {
        switch attributeValue {
        case .double(let v): self = v
        case .integer(let v): self.init(v)
        case .decimal(let v): self = NSDecimalNumber(decimal: v).doubleValue
        default: return nil
        }
    }
    /// The value as a `double`.
    public var attributeValue: Value { .double(self) }
}

extension Float: AttributeValue {
    /// Reads what `Double(attributeValue:)` reads, rounded to `Float`; `nil` for anything else.
    public init?(attributeValue: Value) { guard let v = Double(attributeValue: attributeValue) else { return nil }; self.init(v) }
    /// The value as a `double`.
    public var attributeValue: Value { .double(Double(self)) }
}

extension Decimal: AttributeValue {
    /// Reads a decimal, an integer or a `double` (converted); `nil` for anything else.
    public init?(attributeValue: Value) {
        switch attributeValue {
        case .decimal(let v): self = v
        case .integer(let v): self.init(v)
        case .double(let v): self.init(v)
        default: return nil
        }
    }
    /// The value as a `decimal`.
    public var attributeValue: Value { .decimal(self) }
}

extension Bool: AttributeValue {
    /// Reads a Boolean, or an integer (true when it is not 0); `nil` for anything else.
    public init?(attributeValue: Value) {
        switch attributeValue {
        case .bool(let v): self = v
        case .integer(let v): self = v != 0
        default: return nil
        }
    }
    /// The value as a `bool`.
    public var attributeValue: Value { .bool(self) }
}

extension String: AttributeValue {
    /// Reads a `string`; `nil` for anything else.
    public init?(attributeValue: Value) { guard case .string(let v) = attributeValue else { return nil }; self = v }
    /// The value as a `string`.
    public var attributeValue: Value { .string(self) }
}

extension Date: AttributeValue {
    /// Reads a `date`; `nil` for anything else.
    public init?(attributeValue: Value) { guard case .date(let v) = attributeValue else { return nil }; self = v }
    /// The value as a `date`.
    public var attributeValue: Value { .date(self) }
}

extension Data: AttributeValue {
    /// Reads binary `data`; `nil` for anything else.
    public init?(attributeValue: Value) { guard case .data(let v) = attributeValue else { return nil }; self = v }
    /// The value as binary `data`.
    public var attributeValue: Value { .data(self) }
}

extension UUID: AttributeValue {
    /// Reads a `uuid`; `nil` for anything else.
    public init?(attributeValue: Value) { guard case .uuid(let v) = attributeValue else { return nil }; self = v }
    /// The value as a `uuid`.
    public var attributeValue: Value { .uuid(self) }
}

extension URL: AttributeValue {
    /// Reads a `uri`; `nil` for anything else.
    public init?(attributeValue: Value) { guard case .uri(let v) = attributeValue else { return nil }; self = v }
    /// The value as a `uri`.
    public var attributeValue: Value { .uri(self) }
}

extension ManagedObject {
    /// The value of `key` as a Swift type; `nil` when it is null or not of that type.
    ///
    /// For example:
    ///
    /// ```swift
    /// let title: String? = book.get("title")
    /// ```
    ///
    /// - Precondition: `key` is an attribute or to-one relationship of the entity, and the object is in a
    ///   context or holds its row. A key it lacks (a typo), a to-many key, or a fault whose context is gone
    ///   is a programming error: it stops the program with the error ``value(forKey:as:)`` throws, which
    ///   names the closest keys or why the object is in no context. For keys that come from input, or
    ///   wherever a typo must not stop the process, use ``value(forKey:as:)``.
    public func get<T: AttributeValue>(_ key: String, as type: T.Type = T.self) -> T? {
        do { return try value(forKey: key, as: type) } catch { fatalError(trapMessage(error, "get(_:as:)", throwing: "value(forKey:as:)")) }
    }

    /// Sets `key` from a Swift value; `nil` stores null.
    ///
    /// For example:
    ///
    /// ```swift
    /// book.set("title", "Psmith in the City")
    /// ```
    ///
    /// - Precondition: `key` is an attribute or to-one relationship of the entity, and the object is in a
    ///   context. A key it lacks (a typo), a to-many key, or an object whose context is gone (the change
    ///   could never be saved) is a programming error: it stops the program with the error
    ///   ``setValue(_:forKey:)`` (the generic one) throws, which names the closest keys or why the object
    ///   is in no context; call that one to get the error thrown instead.
    public func set<T: AttributeValue>(_ key: String, _ value: T?) {
        do { try setValue(value, forKey: key) } catch { fatalError(trapMessage(error, "set(_:_:)", throwing: "setValue(_:forKey:)")) }
    }

    /// The value of `key` as a Swift type, or an error for a key the entity lacks: ``get(_:as:)`` that
    /// throws rather than stopping the program.
    ///
    /// For example:
    ///
    /// ```swift
    /// let title = try book.value(forKey: "title", as: String.self)   // nil when null or not a string
    /// _ = try book.value(forKey: "titel", as: String.self)           // throws: … did you mean 'title'?
    /// ```
    ///
    /// - Returns: the value, or `nil` when it is null or not of that type.
    /// - Throws: ``StoreError/unknownKey(entity:key:suggestions:)`` naming the closest keys for a key
    ///   the entity lacks; ``StoreError/invalidProperty(entity:property:reason:)`` for a to-many key.
    public func value<T: AttributeValue>(forKey key: String, as type: T.Type) throws(StoreError) -> T? {
        T(attributeValue: try value(forKey: key))
    }

    /// Sets `key` from a Swift value (`nil` stores null), or throws for a key the entity lacks:
    /// ``set(_:_:)`` that throws rather than stopping the program.
    ///
    /// For example:
    ///
    /// ```swift
    /// try book.setValue("Emma", forKey: "title")
    /// try book.setValue(nil as Date?, forKey: "published")
    /// ```
    ///
    /// - Throws: ``StoreError/unknownKey(entity:key:suggestions:)`` naming the closest keys for a key
    ///   the entity lacks; ``StoreError/invalidProperty(entity:property:reason:)`` for a to-many key.
    public func setValue<T: AttributeValue>(_ value: T?, forKey key: String) throws(StoreError) {
        try setValue(value?.attributeValue ?? .null, forKey: key)
    }

    /// A transformable attribute's value, turned back by its registered ``ValueTransformer``.
    ///
    /// For example:
    ///
    /// ```swift
    /// let tags = try note.transformedValue(forKey: "tags") as? [String]
    /// ```
    ///
    /// - Throws: what ``value(forKey:)`` throws, and the transformer's errors.
    public func transformedValue(forKey key: String) throws -> Any? {
        guard let attribute = entity.attribute(named: key) else { throw unknownKey(key) }
        guard case .data(let data) = try value(forKey: key) else { return nil }
        return try ValueTransformers.transformer(for: attribute).reverseTransformedValue(data)
    }

    /// Sets a transformable attribute: its registered ``ValueTransformer`` turns the value into data.
    ///
    /// For example:
    ///
    /// ```swift
    /// try note.setTransformedValue(["a", "b"], forKey: "tags")
    /// ```
    ///
    /// - Throws: what ``setValue(_:forKey:)`` throws, and the transformer's errors.
    public func setTransformedValue(_ value: Any?, forKey key: String) throws {
        guard let attribute = entity.attribute(named: key) else { throw unknownKey(key) }
        guard let value else { return try setValue(Value.null, forKey: key) }
        try setValue(Value.data(try ValueTransformers.transformer(for: attribute).transformedValue(value)), forKey: key)
    }
}

/// A typed view of a managed object, as an app declares one per entity.
///
/// For example:
///
/// ```swift
/// struct TaskItem: ManagedObjectType {
///     static let entityName = "Task"
///     let object: ManagedObject
///     init(object: ManagedObject) { self.object = object }
///     var priority: Int32 {
///         get { object.get("priority") ?? 5 }
///         nonmutating set { object.set("priority", newValue) }
///     }
/// }
/// let task = try context.insert(TaskItem.self)
/// task.priority = 1
/// ```
public protocol ManagedObjectType {
    /// The entity the type stands for.
    static var entityName: String { get }
    /// The object.
    var object: ManagedObject { get }
    init(object: ManagedObject)
}
