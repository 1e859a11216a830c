import CSVStream

extension CSVError {
    /// A mapping problem for a header row that cannot be read, naming the file as given, the line, the
    /// field and the byte offset: `banks.csv:1:3: the header cannot be read: byte 0xE9 is not valid UTF-8
    /// (byte offset 12)`, followed by the hint when `withHint` is set.
    ///
    /// For example:
    ///
    /// ```swift
    /// problems.append(error.headerProblem(file: "banks.csv", withHint: true))
    /// ```
    func headerProblem(file: String, withHint: Bool) -> String {
        if kind == .io { return "\(file): \(message)" }   // "cannot open the file: No such file or directory"
        var text = file
        if let line {
            text += ":\(line)"
            if let column { text += ":\(column)" }
        }
        text += ": the header cannot be read: " + message
        if let byteOffset { text += " (byte offset \(byteOffset))" }
        if withHint { text += ". " + hint }
        return text
    }
}
