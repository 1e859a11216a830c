/// The keys a hand-written JSON object (in a model or mapping file) may have, and what to say
/// about the others: a misspelt key would otherwise be ignored, leaving a setting silently unset.
///
/// For example:
///
/// ```swift
/// JSONKeys(["name", "type", "optional"]).problems(in: ["name": "uwi", "optinal": false])
/// // ["unknown key \"optinal\"; did you mean \"optional\"? (expected one of name, optional, type)"]
/// ```
package struct JSONKeys: Sendable {
    /// The keys allowed, as given.
    package let allowed: [String]

    /// The keys `allowed` in an object.
    package init(_ allowed: [String]) { self.allowed = allowed }

    /// One message per key of `object` that is not allowed, in key order, each naming the closest
    /// allowed key when one is close and then all of them.
    package func problems(in object: [String: Any]) -> [String] {
        let expected = allowed.sorted().joined(separator: ", ")
        return object.keys.sorted().filter { !allowed.contains($0) }.map { key in
            let hint = closestNames(to: key, in: allowed, limit: 1).first.map { "; did you mean \"\($0)\"?" } ?? ""
            return "unknown key \"\(key)\"\(hint) (expected one of \(expected))"
        }
    }
}
