import ManagedStore
/// Why an import stopped: a bad mapping, a bad row (in abort mode), unreadable input, or a store that
/// could not be written. It names the place (file, line, column), the entity and attribute, the value and
/// the reason, and its description says what to do next.
///
/// For example:
///
/// ```swift
/// do { _ = try SeedImporter(model: model, mapping: mapping).run(into: "Banks.sqlite") }
/// catch { print(error); exit(error.exitCode) }
/// // banklist.csv:5:5: FailedBankDetails.acquirer ("Acquiring Institution" = "First�Citizens Bank & Trust Company"):
/// //   byte 0x96 is not valid UTF-8 (byte offset 361)
/// // The file is probably Windows-1252 or Latin-1: re-run with --encoding windows1252 …
/// ```
public struct ImportError: Error, CustomStringConvertible, Sendable {
    /// What kind of failure it is; decides the exit code.
    public enum Kind: String, Sendable, Codable {
        /// The mapping or model does not fit the files (exit code 2): fix the mapping.
        case mapping
        /// A row cannot be imported and the policy is abort (exit code 1).
        case badRow
        /// A file cannot be read or parsed past this point (exit code 1).
        case input
        /// The store cannot be written (exit code 1).
        case store
        /// The task running the import was cancelled (exit code 1); nothing was written.
        case cancelled
    }

    /// What kind of failure it is.
    public var kind: Kind
    /// The CSV or mapping file concerned, as given.
    public var file: String?
    /// The 1-based line where the bad record starts.
    public var line: Int?
    /// The 1-based field index.
    public var column: Int?
    /// The offset from the start of the file of the byte concerned (a byte the encoding does not define, a
    /// misplaced quote), when one byte is to blame.
    public var byteOffset: Int64?
    /// The column's header name.
    public var columnName: String?
    /// The entity being filled.
    public var entity: String?
    /// The attribute or relationship being filled.
    public var attribute: String?
    /// The value as read (after trimming).
    public var value: String?
    /// What is wrong.
    public var reason: String
    /// What to do about it, when something specific helps.
    public var hint: String?
    /// Every problem, for mapping errors that found several.
    public var problems: [String]
    /// For a save that failed validation: the objects and properties at fault (skip mode removes them
    /// when removing rejected rows made them invalid).
    var validationFailures: [ValidationFailure] = []
    /// The finished store could not be renamed into place and was left at its temporary path.
    var keepsTemporaryStore = false

    /// Creates an error.
    public init(
        _ kind: Kind, reason: String, file: String? = nil, line: Int? = nil, column: Int? = nil,
        byteOffset: Int64? = nil, columnName: String? = nil, entity: String? = nil, attribute: String? = nil, value: String? = nil,
        hint: String? = nil, problems: [String] = []
    ) {
        self.kind = kind
        self.reason = reason
        self.file = file
        self.line = line
        self.column = column
        self.byteOffset = byteOffset
        self.columnName = columnName
        self.entity = entity
        self.attribute = attribute
        self.value = value
        self.hint = hint
        self.problems = problems
    }

    /// The process exit code for the failure: 2 for mapping errors, 1 for the rest.
    public var exitCode: Int32 { kind == .mapping ? 2 : 1 }

    /// `file:line:column`, leaving out what is unknown.
    public var location: String {
        guard let file else { return line.map { "line \($0)" } ?? "" }
        var text = file
        if let line {
            text += ":\(line)"
            if let column { text += ":\(column)" }
        }
        return text
    }

    /// The entity, attribute, column and value concerned, as one phrase.
    public var subject: String {
        var text = ""
        if let entity { text = entity + (attribute.map { ".\($0)" } ?? "") }
        // Invisible characters are written out: a NUL or an escape must not act on the terminal.
        var column = columnName.map { "\"\(VisibleText.escaped($0))\"" } ?? ""
        if let value { column += (column.isEmpty ? "value " : " = ") + "\"\(VisibleText.escaped(value))\"" }
        if !column.isEmpty { text += text.isEmpty ? column : " (\(column))" }
        return text
    }

    public var description: String {
        var text = location.isEmpty ? "" : location + ": "
        let subject = self.subject
        if !subject.isEmpty { text += subject + ": " }
        text += reason
        if let byteOffset { text += " (byte offset \(byteOffset))" }
        if !problems.isEmpty { text += "\n" + problems.map { "  - \($0)" }.joined(separator: "\n") }
        if let hint { text += "\n" + hint }
        return text
    }
}
