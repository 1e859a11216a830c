import Foundation
@testable import ManagedStore

// Shorthands shared by the predicate tests.

/// A format and its arguments, printed as the format in test names.
struct PredicateFormatCase: Sendable, CustomStringConvertible {
    var format: String
    var arguments: [PredicateArgument]

    init(_ format: String, _ arguments: PredicateArgument...) {
        self.format = format
        self.arguments = arguments
    }

    var description: String {
        arguments.isEmpty ? format : "\(format) \(arguments)"
    }

    func parse() throws(PredicateParseError) -> FetchPredicate {
        try FetchPredicate(format: format, arguments: arguments)
    }
}

/// The error a parse throws, or nil.
func predicateParseError(_ format: String, _ arguments: PredicateArgument...) -> PredicateParseError? {
    do {
        _ = try FetchPredicate(format: format, arguments: arguments)
        return nil
    } catch {
        return error
    }
}
