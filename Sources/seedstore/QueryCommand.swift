import ArgumentParser

import Foundation
import ManagedStore
import Measure

/// Output formats of `query`.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case table, json, csv
}

struct QueryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "query",
        abstract: "List the objects of an entity.",
        discussion: """
            Example: seedstore query Books.sqlite --entity Book --format json

            JSON output is an array of objects keyed by property name; dates are ISO 8601 in UTC and a
            to-one relationship is the destination's primary key.
            """
    )

    @OptionGroup var options: StoreOptions

    @Option(help: "The entity to list.")
    var entity: String

    @Option(help: "table, json or csv.")
    var format: OutputFormat = .table

    func run() throws {
        let store = try options.open()
        let context = ManagedObjectContext(store: store)
        let objects = try context.fetchAll(entity)
        let entity = try store.entity(named: self.entity)
        let keys = entity.columns.map(\.name)
        let rows = objects.map { object in keys.indices.map { object.value(at: $0) } }
        print(try Self.render(rows, keys: keys, primaryKeys: objects.map(\.objectID.primaryKey), format: format), terminator: "")
    }

    /// Renders rows of values as a table, JSON or CSV.
    static func render(_ rows: [[Value]], keys: [String], primaryKeys: [Int64]?, format: OutputFormat) throws -> String {
        switch format {
        case .json:
            let objects: [[String: Any]] = rows.map { row in
                Dictionary(uniqueKeysWithValues: zip(keys, row.map(\.jsonObject)))
            }
            let data = try JSONSerialization.data(withJSONObject: objects, options: [.prettyPrinted, .sortedKeys])
            return String(decoding: data, as: UTF8.self) + "\n"
        case .csv:
            func quote(_ text: String) -> String {
                text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" })
                    ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
            }
            var lines = [keys.map(quote).joined(separator: ",")]
            lines += rows.map { $0.map { quote($0.cellText) }.joined(separator: ",") }
            return lines.joined(separator: "\r\n") + "\r\n"
        case .table:
            let withKeys = primaryKeys != nil
            var table = TextTable((withKeys ? ["Z_PK"] : []) + keys, maxCellWidth: 40)
            for (i, row) in rows.enumerated() {
                table.append((withKeys ? [String(primaryKeys![i])] : []) + row.map(\.cellText))
            }
            return table.render() + "\n(\(rows.count) row\(rows.count == 1 ? "" : "s"))\n"
        }
    }
}
