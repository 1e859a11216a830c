/// A place in a CSV file, printed the way compilers print it: `path:line:column`.
///
/// `column` is the 1-based field index, so `banklist.csv:5:5` is the fifth field of the record on line 5.
///
/// For example:
///
/// ```swift
/// let location = record.location(ofField: 4, path: "banklist.csv")
/// print("\(location): not a date")  // banklist.csv:5:5: not a date
/// ```
public struct CSVLocation: Sendable, Hashable, CustomStringConvertible {
    /// The file, when known.
    public var path: String?
    /// The 1-based line.
    public var line: Int?
    /// The 1-based field index.
    public var column: Int?

    /// Creates a location.
    public init(path: String? = nil, line: Int? = nil, column: Int? = nil) {
        self.path = path
        self.line = line
        self.column = column
    }

    /// `path:line:column`, leaving out what is unknown (`line 5, field 2` without a path).
    public var description: String {
        guard let path else {
            switch (line, column) {
            case (let line?, let column?): return "line \(line), field \(column)"
            case (let line?, nil): return "line \(line)"
            case (nil, let column?): return "field \(column)"
            case (nil, nil): return ""
            }
        }
        var text = path
        if let line {
            text += ":\(line)"
            if let column { text += ":\(column)" }
        }
        return text
    }
}
