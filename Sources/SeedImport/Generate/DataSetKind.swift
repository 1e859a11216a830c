/// The data sets `seedstore generate` can write.
///
/// Each is a deterministic stand-in for data the seed documents talk about:
/// the same seed always gives byte-identical files.
public enum DataSetKind: String, CaseIterable, Sendable {
    /// Oil and gas wells (`wells.csv`) and their operators (`operators.csv`),
    /// modelled both as one monolithic `Well` and as a `WellSummary` plus
    /// `WellDetail` pair joined one-to-one.
    case wells
    /// An FDIC-style failed bank list (`banklist.csv`) with the real file's
    /// quirks, plus tags (`tags.csv`) and a join file (`bank_tags.csv`).
    case banks
    /// Books in sections by author (`books.csv`), as in CoreDataBooks.
    case books
    /// A to-do list (`tasks.csv`) with priorities and completion flags.
    case tasks

    /// Rows generated when no count is given: the size of the data the seed
    /// documents describe.
    ///
    /// - wells: 244,292 (the table in the documents; operators scale with it)
    /// - banks: 567 (the FDIC list through July 2023)
    /// - books: 12 (the CoreDataBooks sample store)
    /// - tasks: 1,000
    public var defaultRows: Int {
        switch self {
        case .wells: 244_292
        case .banks: 567
        case .books: 12
        case .tasks: 1_000
        }
    }

    /// The largest row count accepted. Banks are limited by the unique
    /// five-digit Cert numbers; the others by reasonable file sizes.
    public var maximumRows: Int {
        switch self {
        case .wells: 10_000_000
        case .banks: 50_000
        case .books: 1_000_000
        case .tasks: 10_000_000
        }
    }

    /// The CSV file whose data rows the row count counts.
    public var primaryFileName: String {
        switch self {
        case .wells: "wells.csv"
        case .banks: "banklist.csv"
        case .books: "books.csv"
        case .tasks: "tasks.csv"
        }
    }
}
