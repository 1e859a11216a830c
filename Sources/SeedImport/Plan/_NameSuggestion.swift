import Foundation
import ManagedStore

/// "Did you mean" for a name of the model or of a header that a mapping or the command line gets wrong.
///
/// The name that folds to the same one (case, spaces, `_` and camelCase, as headers match) comes first,
/// then the closest by edit distance (``closestNames(to:in:limit:)``, the one the engine's own errors use).
///
/// ```swift
/// _NameSuggestion.text(for: "Persn", in: ["Person", "Team"])   // "; did you mean 'Person'? (it has: Person, Team)"
/// _NameSuggestion.text(for: "person", in: ["Person", "Team"])  // "; did you mean 'Person'?"
/// _NameSuggestion.text(for: "Zzz", in: ["Person", "Team"])     // " (it has: Person, Team)"
/// ```
enum _NameSuggestion {
    /// The name of `names` that `name` most likely means, or `nil`.
    static func closest(to name: String, in names: [String]) -> String? {
        let folded = HeaderName.fold(name)
        return names.first { HeaderName.fold($0) == folded } ?? closestNames(to: name, in: names, limit: 1).first
    }

    /// For the end of a message about `name`: what it likely means and, unless only case or separators
    /// differ, every name there is; empty when `names` is.
    static func text(for name: String, in names: [String]) -> String {
        guard !names.isEmpty else { return "" }
        let list = " (it has: \(names.joined(separator: ", ")))"
        guard let close = closest(to: name, in: names) else { return list }
        return "; did you mean '\(close)'?" + (HeaderName.fold(close) == HeaderName.fold(name) ? "" : list)
    }

    /// For the end of a message about a file `path` that does not exist: a file of the same folder whose
    /// name is close (`players.csv` for `player.csv`), spelled as `shown` (by default `path`) spells its
    /// folder, among the names `fits` takes (a model's, say); empty when there is none, or when `path` exists.
    ///
    /// ```swift
    /// _NameSuggestion.file(for: "/work/data/player.csv", shown: "data/player.csv")   // "; did you mean data/players.csv?"
    /// ```
    static func file(for path: String, shown: String? = nil, where fits: (String) -> Bool = { _ in true }) -> String {
        guard !FileManager.default.fileExists(atPath: path) else { return "" }
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { name in
            var isDirectory: ObjCBool = false
            return !name.hasPrefix(".") && fits(name) && FileManager.default.fileExists(atPath: folder + "/" + name, isDirectory: &isDirectory)
                && (!isDirectory.boolValue || name.hasSuffix(".xcdatamodeld") || name.hasSuffix(".xcdatamodel"))
        }
        guard let close = closest(to: url.lastPathComponent, in: names) else { return "" }
        let display = shown ?? path
        let prefix = display.contains("/") ? String(display[...display.lastIndex(of: "/")!]) : ""
        return "; did you mean \(prefix)\(close)?"
    }

    /// Whether `name` can be a model file: a JSON model (not a mapping) or Xcode's model.
    static func isModelName(_ name: String) -> Bool {
        (name.hasSuffix(".json") && !name.hasSuffix(".mapping.json")) || name.hasSuffix(".xcdatamodeld") || name.hasSuffix(".xcdatamodel")
    }
}
