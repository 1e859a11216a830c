import Foundation

/// A plain-text table with aligned columns, for terminals and logs.
///
/// For example:
///
/// ```swift
/// var table = TextTable(["scenario", "median"], alignments: [.left, .right])
/// table.append(["batch-20", "1.2 ms"])
/// print(table.render())
/// ```
public struct TextTable: Sendable {
    /// How a column's cells line up.
    public enum Alignment: Sendable { case left, right }

    /// The column headers; there are as many columns as headers.
    public var headers: [String]
    /// Each column's alignment, one per header.
    public var alignments: [Alignment]
    public private(set) var rows: [[String]] = []
    /// Cells longer than this are cut with an ellipsis (0: never).
    public var maxCellWidth: Int

    /// `1234567` as `1,234,567`, whatever the locale: counts in tables, summaries and progress lines.
    ///
    /// For example:
    ///
    /// ```swift
    /// TextTable.grouped(244_292)   // "244,292"
    /// ```
    public static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var result = value < 0 ? "-" : ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return result
    }

    /// An empty table with `headers`, left-aligned unless `alignments` says otherwise, and cells cut at
    /// `maxCellWidth` characters (0, the default, never cuts).
    ///
    /// For example:
    ///
    /// ```swift
    /// var table = TextTable(["verdict", "scenario / variant", "reasons"], maxCellWidth: 72)
    /// table.append(["REGRESSION", "faulting / N+1", "statements 201 → 402"])
    /// ```
    public init(_ headers: [String], alignments: [Alignment]? = nil, maxCellWidth: Int = 0) {
        self.headers = headers
        self.alignments = alignments ?? headers.map { _ in .left }
        self.maxCellWidth = maxCellWidth
    }

    /// Adds a row (missing cells are blank).
    public mutating func append(_ row: [String]) {
        rows.append(row)
    }

    /// The table as text: a header, a rule, then the rows.
    public func render() -> String {
        func clip(_ text: String) -> String {
            var flat = text.replacingOccurrences(of: "\r\n", with: "⏎").replacingOccurrences(of: "\n", with: "⏎")
            // Other control characters as their pictures (a tab ␉, a lone CR ␍): raw, a CR sends the
            // terminal back to the line's start and a tab breaks the columns.
            // Unicode's other line breaks (NEL, LINE and PARAGRAPH SEPARATOR) break a terminal's line too.
            if flat.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F || $0.value == 0x85 || $0.value == 0x2028 || $0.value == 0x2029 }) {
                flat = String(String.UnicodeScalarView(flat.unicodeScalars.map { scalar in
                    switch scalar.value {
                    case ..<0x20: Unicode.Scalar(0x2400 + scalar.value)!
                    case 0x7F: "\u{2421}"
                    case 0x85, 0x2028, 0x2029: "⏎"
                    default: scalar
                    }
                }))
            }
            guard maxCellWidth > 0, flat.count > maxCellWidth else { return flat }
            return String(flat.prefix(maxCellWidth - 1)) + "…"
        }
        let cells = ([headers] + rows).map { row in headers.indices.map { clip($0 < row.count ? row[$0] : "") } }
        let widths = headers.indices.map { column in cells.map { $0[column].count }.max() ?? 0 }
        func line(_ row: [String]) -> String {
            row.indices.map { i in
                let padding = String(repeating: " ", count: widths[i] - row[i].count)
                return alignments[i] == .right ? padding + row[i] : row[i] + padding
            }.joined(separator: "  ").replacing(/\s+$/, with: "")
        }
        var out = [line(cells[0]), widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")]
        out += cells.dropFirst().map(line)
        return out.joined(separator: "\n")
    }
}
