/// A JSON value whose objects keep their keys in the order written, printed
/// the same way every time: two-space indents, and small containers of
/// scalars on one line.
///
/// The generated model and mapping files are built from these, so they come out
/// byte-identical run after run and read like hand-written files; so is a
/// mapping ``ImportMapping/jsonData(relativeTo:model:)`` writes.
///
/// ```swift
/// let json: _OrderedJSON = ["format": 1, "files": [["path": "a.csv", "model": .null]]]
/// json.rendered()   // "{\"format\": 1, \"files\": [{\"path\": \"a.csv\", \"model\": null}]}\n"
/// ```
indirect enum _OrderedJSON {
    case object([(key: String, value: _OrderedJSON)])
    case array([_OrderedJSON])
    case string(String)
    case int(Int)
    case bool(Bool)
    case null

    /// The document's text, ending with a newline.
    func rendered() -> String {
        var output = ""
        render(into: &output, indent: 0)
        output.append("\n")
        return output
    }

    private static let inlineLimit = 120

    private func render(into output: inout String, indent: Int) {
        if let inline = inlineText(), inline.count + indent <= Self.inlineLimit {
            output.append(inline)
            return
        }
        let pad = String(repeating: " ", count: indent + 2)
        switch self {
        case .object(let members):
            output.append("{\n")
            for (index, member) in members.enumerated() {
                output.append(pad)
                output.append(Self.quoted(member.key))
                output.append(": ")
                member.value.render(into: &output, indent: indent + 2)
                output.append(index + 1 < members.count ? ",\n" : "\n")
            }
            output.append(String(repeating: " ", count: indent))
            output.append("}")
        case .array(let elements):
            output.append("[\n")
            for (index, element) in elements.enumerated() {
                output.append(pad)
                element.render(into: &output, indent: indent + 2)
                output.append(index + 1 < elements.count ? ",\n" : "\n")
            }
            output.append(String(repeating: " ", count: indent))
            output.append("]")
        case .string, .int, .bool, .null:
            output.append(inlineText() ?? "")
        }
    }

    /// The one-line form, for scalars and for containers nested at most
    /// one level (an attribute, a column override); nil otherwise.
    private func inlineText(depth: Int = 0) -> String? {
        switch self {
        case .string(let value):
            return Self.quoted(value)
        case .int(let value):
            return String(value)
        case .bool(let value):
            return value ? "true" : "false"
        case .null:
            return "null"
        case .object(let members):
            guard depth < 2 else { return nil }
            var parts: [String] = []
            for member in members {
                guard let value = member.value.inlineText(depth: depth + 1) else { return nil }
                parts.append(Self.quoted(member.key) + ": " + value)
            }
            return "{" + parts.joined(separator: ", ") + "}"
        case .array(let elements):
            guard depth < 2 else { return nil }
            var parts: [String] = []
            for element in elements {
                guard let value = element.inlineText(depth: depth + 1) else { return nil }
                parts.append(value)
            }
            return "[" + parts.joined(separator: ", ") + "]"
        }
    }

    /// A JSON string literal: quotes, backslashes and control characters escaped, the rest as it is.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result.append("\\\"")
            case "\\": result.append("\\\\")
            case "\n": result.append("\\n")
            case "\r": result.append("\\r")
            case "\t": result.append("\\t")
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16, uppercase: false)
                result.append("\\u" + String(repeating: "0", count: 4 - hex.count) + hex)
            default:
                result.unicodeScalars.append(scalar)
            }
        }
        result.append("\"")
        return result
    }
}

extension _OrderedJSON: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    init(stringLiteral value: String) { self = .string(value) }
    init(integerLiteral value: Int) { self = .int(value) }
    init(booleanLiteral value: Bool) { self = .bool(value) }
    init(arrayLiteral elements: _OrderedJSON...) { self = .array(elements) }
    init(dictionaryLiteral elements: (String, _OrderedJSON)...) {
        self = .object(elements.map { (key: $0.0, value: $0.1) })
    }
}
