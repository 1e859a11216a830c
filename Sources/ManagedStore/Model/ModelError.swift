/// What is wrong with a model: every problem found, each naming the entity and property.
///
/// For example:
///
/// ```swift
/// do { _ = try ObjectModel([EntityDescription("Task", attributes: [Attribute("description", .string)])]) }
/// catch { print(error) }
/// // Task.description: 'description' is reserved (it clashes with a managed object's own member); rename it, e.g. 'taskDescription'
/// ```
public struct ModelError: Error, CustomStringConvertible, Sendable, Equatable {
    /// One problem in a model.
    public struct Problem: Sendable, Equatable, CustomStringConvertible {
        /// The entity at fault.
        public let entity: String
        /// The property at fault, if one is.
        public let property: String?
        /// What is wrong and what to do.
        public let message: String
        /// Where the problem is in the JSON file the model came from (`entities[0] (Well).attributes[3] (uwi)`),
        /// when it came from one; the description then starts with it instead of `entity.property`.
        public let place: String?

        init(entity: String, property: String?, message: String, place: String? = nil) {
            self.entity = entity
            self.property = property
            self.message = message
            self.place = place
        }

        public var description: String {
            (place ?? property.map { "\(entity).\($0)" } ?? entity) + ": " + message
        }
    }

    /// The problems, in model order.
    public let problems: [Problem]
    /// The file the model came from, when there was one.
    public var file: String?

    /// An error reporting `problems`, found in the model file at `file` (`nil` for a model not read from a file).
    ///
    /// For example:
    ///
    /// ```swift
    /// do { model = try ObjectModel(descriptions) }
    /// catch { throw ModelError(problems: error.problems, file: "Tasks.json") }
    /// ```
    public init(problems: [Problem], file: String? = nil) {
        self.problems = problems
        self.file = file
    }

    /// A single problem that concerns a whole model file (unreadable, malformed).
    public static func file(_ path: String, _ message: String) -> ModelError {
        ModelError(problems: [Problem(entity: "(model)", property: nil, message: message)], file: path)
    }

    public var description: String {
        let head = "invalid model" + (file.map { " \($0)" } ?? "") + " (\(problems.count) problem\(problems.count == 1 ? "" : "s"))"
        return ([head] + problems.map { "  - \($0)" }).joined(separator: "\n")
    }
}
