import ArgumentParser

import Foundation
import ManagedStore
import Measure

struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Print a store's entities, their properties, row counts and indexes.",
        discussion: """
            Also what a seed store's finish leaves: the journal mode, whether ANALYZE's statistics are there, \
            and each table's indexes with their columns.

            Example: seedstore inspect Wells.sqlite
            """
    )

    @OptionGroup var options: StoreOptions

    func run() throws {
        let store = try options.open()
        let size = (try? FileManager.default.attributesOfItem(atPath: store.path)[.size] as? Int) ?? 0
        print("Store: \(store.path) (\(ProcessMemory.format(size)), \(Self.counted(size, "byte")))")
        let source: String = switch store.modelSource {
        case .stored: "stored in the store"
        case .given: "given (\(options.model ?? ""))"
        case .inferred: "read off the tables (no model stored: a store Core Data wrote)"
        case .created: "created"
        }
        print("Model: \(source)")
        let connection = store.connection
        // Core Data keeps the UUID in Z_METADATA's Z_UUID column too (its own stores may leave it out of the plist).
        let uuid = store.metadata["NSStoreUUID"] as? String
            ?? (try? connection.scalar("SELECT Z_UUID FROM Z_METADATA ORDER BY Z_VERSION LIMIT 1"))??.string ?? "?"
        print("Type: \(store.metadata["NSStoreType"] as? String ?? "?"), UUID: \(uuid)")
        // The one thing that decides whether an app's Core Data opens the file.
        if let hashes = store.coreDataVersionHashes {
            let count = hashes.entities.count
            print("Core Data version hashes: for \(count.formatted()) \(count == 1 ? "entity" : "entities")"
                  + (hashes.versionName.map { ", model version \($0)" } ?? "") + " (Core Data opens the store with the model they came from)")
        } else {
            print("Core Data version hashes: none (NSStoreModelVersionHashes), so Core Data will not open the store;"
                  + " import with --core-data-hashes App.momd to add the app's")
        }
        let journal = (try? connection.scalar("PRAGMA journal_mode"))??.string ?? "?"
        let analyzed = ((try? connection.scalar("SELECT count(*) FROM sqlite_master WHERE name = 'sqlite_stat1'"))??.int64 ?? 0) > 0
            && ((try? connection.scalar("SELECT count(*) FROM sqlite_stat1"))??.int64 ?? 0) > 0
        print("Journal: \(journal)\(journal == "wal" ? " (the -wal file holds changes not yet checkpointed)" : "");"
              + " statistics: \(analyzed ? "present (ANALYZE ran)" : "none (the query planner guesses; run ANALYZE)")")
        for entity in store.model.entities {
            print("")
            print("\(entity.name) — table \(entity.tableName), Z_ENT \(entity.id), \(Self.counted(try store.count(of: entity), "row"))")
            var table = TextTable(["property", "kind", "type", "flags"])
            for attribute in entity.attributes {
                var flags: [String] = [attribute.isOptional ? "optional" : "required"]
                if attribute.isIndexed { flags.append("indexed") }
                if let value = attribute.defaultValue { flags.append("default \(value)") }
                if let name = attribute.valueTransformerName { flags.append("transformer \(name)") }
                if attribute.allowsExternalBinaryDataStorage { flags.append("allows external storage (left NULL)") }
                table.append([attribute.name, "attribute", attribute.type.rawValue, flags.joined(separator: ", ")])
            }
            for relationship in entity.relationships {
                // Optionality counts in the model check (134100), as in Core Data's version hashes: shown as for attributes.
                var flags = [relationship.isOptional ? "optional" : "required", "inverse \(relationship.inverse ?? "-")",
                             "delete \(relationship.deleteRule.rawValue)"]
                if relationship.isOrdered { flags.append("ordered") }
                if relationship.minCount > 0 || relationship.maxCount > 0 { flags.append("count \(relationship.minCount)...\(relationship.maxCount)") }
                table.append([relationship.name, relationship.isToMany ? "to-many" : "to-one", relationship.destination, flags.joined(separator: ", ")])
            }
            print(table.render())
            print("indexes: " + Self.indexes(of: entity.tableName, in: connection))
            let missing = Self.unindexed(entity, in: connection)
            if !missing.isEmpty {
                print("note: no index leads with \(missing.map { "\($0.columnName) (\(entity.name).\($0.name)\($0.relationship != nil ? ", a to-one" : ", marked indexed"))" }.joined(separator: ", ")), "
                      + "which the model asks for: fetches that filter, sort or join on \(missing.count == 1 ? "it" : "them") scan the table. "
                      + "seedstore import builds \(missing.count == 1 ? "it" : "them") after the load; for this store, "
                      + missing.map { "CREATE INDEX \(entity.tableName)_\($0.columnName)_INDEX ON \(entity.tableName) (\($0.columnName))" }.joined(separator: "; "))
            }
        }
        // Many-to-many relationships live in join tables of their own (Z_1TAGS), one per pair.
        var listed = Set<String>()
        for entity in store.model.entities {
            for relationship in entity.toManyRelationships {
                guard case .joinTable(let join)? = entity.storage(of: relationship.name), listed.insert(join.name).inserted else { continue }
                let quoted = "\"" + join.name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
                let rows = (try? connection.scalar("SELECT count(*) FROM \(quoted)"))??.int64 ?? 0
                let inverse = relationship.inverse.map { " and \(relationship.destination).\($0)" } ?? ""
                print("")
                print("\(join.name) — join table of \(entity.name).\(relationship.name)\(inverse), \(Self.counted(rows, "row"))"
                      + " (columns \(join.sourceColumn), \(join.destinationColumn))")
                print("indexes: " + Self.indexes(of: join.name, in: connection))
            }
        }
    }

    /// `count` with `noun` in the singular for one, else the plural: `1 row`, `12,345 rows`.
    static func counted(_ count: some BinaryInteger, _ noun: String) -> String {
        "\(count.formatted()) \(noun)\(count == 1 ? "" : "s")"
    }

    /// The columns of `entity` the model wants indexed (attributes marked indexed, to-one foreign keys) that
    /// no index of its table serves: one whose first key column it is, over every row (not partial), in
    /// SQLite's own collation (an index `COLLATE NOCASE` serves no `=` on the column as the engine writes it).
    static func unindexed(_ entity: Entity, in connection: Connection) -> [Column] {
        let list = (try? connection.rows("SELECT name, partial FROM pragma_index_list(?)", [.text(entity.tableName)])) ?? []
        let names = list.filter { $0[1].int64 == 0 }.compactMap { $0[0].string }
        let leading = Set(names.compactMap { name -> String? in
            guard let first = (try? connection.rows("SELECT name, coll FROM pragma_index_xinfo(?) WHERE key = 1 AND seqno = 0", [.text(name)]))?.first,
                  first[1].string?.uppercased() == "BINARY" else { return nil }
            return first[0].string
        })
        return entity.columns.filter { ($0.relationship != nil || $0.attribute?.isIndexed == true) && !leading.contains($0.columnName) }
    }

    /// A table's indexes as `NAME (COLUMN, …)`, unique ones marked; `none` without any. The names come
    /// from SQLite's own catalog, so they are quoted, never user text pasted in.
    static func indexes(of table: String, in connection: Connection) -> String {
        let rows = (try? connection.rows("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? ORDER BY name",
                                         [.text(table)])) ?? []
        let list = (try? connection.rows("SELECT name, \"unique\", partial FROM pragma_index_list(?)", [.text(table)])) ?? []
        let described = rows.compactMap { $0.first?.string }.map { name -> String in
            // Key columns only (index_xinfo also lists the row's key); an expression has no column name.
            let columns = ((try? connection.rows("SELECT name, \"desc\", coll FROM pragma_index_xinfo(?) WHERE key = 1 ORDER BY seqno",
                                                [.text(name)])) ?? []).map { column in
                let collation = column[2].string.map { $0.uppercased() == "BINARY" ? "" : " COLLATE \($0)" } ?? ""
                return (column[0].string ?? "<expression>") + collation + (column[1].int64 == 1 ? " DESC" : "")
            }
            let flags = list.first { $0[0].string == name }
            let unique = flags?[1].int64 == 1, partial = flags?[2].int64 == 1
            return "\(name) (\(columns.joined(separator: ", ")))\(unique ? " unique" : "")\(partial ? " partial (WHERE …)" : "")"
        }
        return described.isEmpty ? "none" : described.joined(separator: ", ")
    }
}
