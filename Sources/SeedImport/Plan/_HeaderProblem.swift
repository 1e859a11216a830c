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

    /// The problem for a delimiter and a quote that clash (``CSVError/Kind/invalidDialect``), naming the
    /// two settings as the user gave them rather than CSVStream's own (its hint names a comment prefix,
    /// which no option sets).
    ///
    /// ```swift
    /// error.dialectProblem(file: "e.csv", delimiter: "--delimiter", quote: "the mapping's \"quote\"")
    /// ```
    func dialectProblem(file: String, delimiter: String, quote: String) -> String {
        headerProblem(file: file, withHint: false) + ". Choose a delimiter (\(delimiter)) and a quote (\(quote)) that differ from each other and from a line break"
    }
}
