import Foundation

/// Why a hand-written JSON file (a model, a mapping) does not parse, and where: the line and column
/// Foundation's parser stopped at, when it says.
///
/// Foundation puts the place in the error's debug description only, as "around line 3, column 7"
/// (Darwin) or "around character 18" (a byte offset, Linux); an offset is turned into a line and
/// column here, so both read the same.
///
/// For example:
///
/// ```swift
/// do { _ = try JSONSyntaxError.parse(Data("{\"a\": [1,,2]}".utf8)) }
/// catch { print("\(error); \(error.hint)") }
/// // not valid JSON at line 1, column 10: invalid value; fix the text there (often a missing or extra comma, …)
/// ```
package struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What the parser found, without the place ("invalid value").
    package let reason: String
    /// The line the parser stopped at, from 1, when known.
    package let line: Int?
    /// The column the parser stopped at, in characters from 1, when known.
    package let column: Int?

    /// Parses `data` with `JSONSerialization`, turning its error into one with a line and column.
    /// `fragmentsAllowed`: the text may be a string, number or literal rather than an array or object.
    package static func parse(_ data: Data, fragmentsAllowed: Bool = false) throws(JSONSyntaxError) -> Any {
        let root: Any
        do { root = try JSONSerialization.jsonObject(with: data, options: fragmentsAllowed ? [.fragmentsAllowed] : []) } catch {
            throw JSONSyntaxError(error, in: data)
        }
        // Foundation's parser takes a comma before a closing bracket, which JSON (and every other reader
        // of the file) refuses, and keeps the last of an object's repeated keys without a word.
        if let comma = trailingComma(in: data) {
            let (line, column) = place(ofByte: comma, in: data)
            throw JSONSyntaxError(reason: "a comma before a closing bracket, which JSON does not allow", line: line, column: column)
        }
        if let (key, offset) = repeatedKey(in: data) {
            let (line, column) = place(ofByte: offset, in: data)
            throw JSONSyntaxError(reason: "the key \(key) appears twice in one object, and only one value could be kept", line: line, column: column)
        }
        return root
    }

    /// The first key that an object of `data` (already parsed) has twice, as written, with its second
    /// place. Keys compare as the strings they stand for (`"a"` and `"\u0061"` are one key).
    static func repeatedKey(in data: Data) -> (key: String, offset: Int)? {
        let bytes = [UInt8](data)
        // Per open bracket: the keys of an object so far, or nil for an array.
        var open: [Set<String>?] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "{"): open.append([])
            case UInt8(ascii: "["): open.append(nil)
            case UInt8(ascii: "}"), UInt8(ascii: "]"): _ = open.popLast()
            case UInt8(ascii: "\""):
                let start = index
                var escaped = false
                index += 1
                while index < bytes.count, escaped || bytes[index] != UInt8(ascii: "\"") {
                    escaped = !escaped && bytes[index] == UInt8(ascii: "\\")
                    index += 1
                }
                let literal = Data(bytes[start...min(index, bytes.count - 1)])
                // A string is a key when a colon follows it.
                var next = index + 1
                while next < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[next]) { next += 1 }
                if next < bytes.count, bytes[next] == UInt8(ascii: ":"), let keys = open.last, var names = keys {
                    let name = literal.contains(UInt8(ascii: "\\"))
                        ? (try? JSONSerialization.jsonObject(with: literal, options: [.fragmentsAllowed])) as? String ?? ""
                        : String(decoding: literal.dropFirst().dropLast(), as: UTF8.self)
                    if names.contains(name) { return (String(decoding: literal, as: UTF8.self), start) }
                    names.insert(name)
                    open[open.count - 1] = names
                }
            default: break
            }
            index += 1
        }
        return nil
    }

    private init(reason: String, line: Int?, column: Int?) {
        self.reason = reason
        self.line = line
        self.column = column
    }

    /// The byte offset of the first comma that only white space separates from a `}` or `]`, outside strings.
    static func trailingComma(in data: Data) -> Int? {
        var inString = false, escaped = false, comma: Int?
        for (offset, byte) in data.enumerated() {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true; comma = nil
            case UInt8(ascii: ","): comma = offset
            case UInt8(ascii: "}"), UInt8(ascii: "]"): if let comma { return comma }
            case 0x20, 0x09, 0x0A, 0x0D: break
            default: comma = nil
            }
        }
        return nil
    }

    /// Reads the reason and place out of a Foundation JSON parse error about `data`.
    package init(_ error: any Error, in data: Data) {
        let debug = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? error.localizedDescription
        var reason = debug.trimmingCharacters(in: .whitespaces)
        if reason.hasSuffix(".") { reason.removeLast() }
        var line: Int?
        var column: Int?
        if let range = reason.range(of: #" around line (\d+), column (\d+)$"#, options: .regularExpression) {
            let numbers = reason[range].split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
            line = numbers.first
            column = numbers.last
            reason.removeSubrange(range)
        } else if let range = reason.range(of: #" around character (\d+)$"#, options: .regularExpression) {
            let offset = Int(reason[range].filter(\.isNumber)) ?? 0
            (line, column) = Self.place(ofByte: offset, in: data)
            reason.removeSubrange(range)
        } else if reason.localizedCaseInsensitiveContains("end of file") {
            (line, column) = Self.place(ofByte: data.count, in: data)
        }
        self.reason = reason.prefix(1).lowercased() + reason.dropFirst()
        self.line = line
        self.column = column
    }

    /// The line and column (both from 1, the column in characters) of the byte at `offset` in `data`.
    static func place(ofByte offset: Int, in data: Data) -> (line: Int, column: Int) {
        let bytes = data.prefix(max(0, offset))
        let line = 1 + bytes.reduce(0) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
        let lineStart = bytes.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? bytes.startIndex
        return (line, 1 + String(decoding: bytes[lineStart...], as: UTF8.self).count)
    }

    /// What to do about it, in a phrase that follows the description after a semicolon.
    package var hint: String {
        if reason.localizedCaseInsensitiveContains("end of file") {
            return "the text ends early: close every open object, array and string"
        }
        return line == nil ? "check the file is JSON" : "fix the text there (often a missing or extra comma, quote or bracket just before it)"
    }

    /// The reason and place in one line: "not valid JSON at line 3, column 6: invalid value".
    package var description: String {
        "not valid JSON" + (line.map { line in " at line \(line)" + (column.map { ", column \($0)" } ?? "") } ?? "") + ": " + reason
    }
}
