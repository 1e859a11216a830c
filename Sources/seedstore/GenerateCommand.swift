import ArgumentParser
import Foundation
import Measure
import SeedImport

/// `seedstore generate`: writes a deterministic stand-in data set with its
/// model and mapping files.
struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write a realistic, deterministic CSV data set with its model and mapping files.",
        discussion: """
            Writes the CSV files of one data set, the model that describes it
            (<kind>.model.json) and the mapping that imports it
            (<kind>.mapping.json). The same kind, row count and seed always give
            byte-identical files.

            Data sets (default rows):
              wells  wells.csv (20 columns) and operators.csv, one operator per
                     122 wells (244,292)
              banks  banklist.csv with the FDIC list's quirks: trailing spaces in
                     the header, CRLF, no final line ending, d-MMM-yy dates, one
                     Windows-1252 byte; plus tags.csv and bank_tags.csv
                     (567; at most 50,000)
              books  books.csv: title, author, copyright (12)
              tasks  tasks.csv: task_description, priority, completed (1,000)

            Examples:
              seedstore generate wells --out /tmp/wells
              seedstore generate banks --rows 2000 --seed 7 --out /tmp/banks
            """)

    @Argument(help: "The data set to write.")
    var kind: DataSetKind

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Rows of the main CSV file (default: 244292 wells, 567 banks, 12 books, 1000 tasks).",
            valueName: "n"))
    var rows: Int?

    @Option(parsing: .unconditional, help: "The generator's seed; the same seed gives byte-identical files.")
    var seed: UInt64 = 42

    @Option(
        help: ArgumentHelp(
            "The directory to write into; created if missing, same-named files replaced.",
            valueName: "directory"),
        completion: .directory)
    var out: String

    func validate() throws {
        if let rows, !(1...kind.maximumRows).contains(rows) {
            throw ValidationError("--rows must be between 1 and \(kind.maximumRows) for \(kind.rawValue).")
        }
    }

    func run() throws {
        let dataSet = try DataSetGenerator.generate(
            kind, rows: rows, seed: seed, into: URL(fileURLWithPath: out, isDirectory: true))
        print(Self.report(for: dataSet), terminator: "")
    }

    /// What `run()` prints: one line per file with its rows and bytes.
    ///
    /// For example:
    ///
    ///     Wrote books (12 rows, seed 42) to /tmp/books
    ///       books.csv           12 rows    612 bytes
    ///       books.model.json               325 bytes
    ///       books.mapping.json             370 bytes
    ///       total                        1,307 bytes
    static func report(for dataSet: GeneratedDataSet) -> String {
        let nameWidth = max(5, dataSet.files.map(\.name.count).max() ?? 0)
        let rowsWidth = max(1, dataSet.files.compactMap(\.rows).map { TextTable.grouped($0).count }.max() ?? 0)
        let bytesWidth = TextTable.grouped(dataSet.totalBytes).count
        func line(_ name: String, rows: Int?, bytes: Int) -> String {
            let rowsText =
                rows.map { padded(TextTable.grouped($0), to: rowsWidth) + " rows" }
                ?? String(repeating: " ", count: rowsWidth + 5)
            return "  " + name.padding(toLength: nameWidth, withPad: " ", startingAt: 0) + "  "
                + rowsText + "  " + padded(TextTable.grouped(bytes), to: bytesWidth) + " bytes\n"
        }
        var text =
            "Wrote \(dataSet.kind.rawValue) (\(TextTable.grouped(dataSet.rows)) rows, seed \(dataSet.seed))"
            + " to \(dataSet.directory.path)\n"
        for file in dataSet.files {
            text += line(file.name, rows: file.rows, bytes: file.bytes)
        }
        text += line("total", rows: nil, bytes: dataSet.totalBytes)
        return text
    }

    private static func padded(_ text: String, to width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }
}

extension DataSetKind: ExpressibleByArgument {}
