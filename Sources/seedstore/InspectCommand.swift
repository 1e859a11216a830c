import ArgumentParser

import Foundation
import ManagedStore
import Measure

struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Print a store's entities, their properties and row counts.",
        discussion: "Example: seedstore inspect Wells.sqlite"
    )

    @OptionGroup var options: StoreOptions

    func run() throws {
        let store = try options.open()
        let size = (try? FileManager.default.attributesOfItem(atPath: store.path)[.size] as? Int) ?? 0
        print("Store: \(store.path) (\(size) bytes)")
        let source: String = switch store.modelSource {
        case .stored: "stored in the store"
        case .given: "given (\(options.model ?? ""))"
        case .inferred: "read off the tables (no model stored: a store Core Data wrote)"
        case .created: "created"
        }
        print("Model: \(source)")
        print("Type: \(store.metadata["NSStoreType"] as? String ?? "?"), UUID: \(store.metadata["NSStoreUUID"] as? String ?? "?")")
        for entity in store.model.entities {
            print("")
            print("\(entity.name) — table \(entity.tableName), Z_ENT \(entity.id), \(try store.count(of: entity)) rows")
            var table = TextTable(["property", "kind", "type", "flags"])
            for attribute in entity.attributes {
                var flags: [String] = [attribute.isOptional ? "optional" : "required"]
                if attribute.isIndexed { flags.append("indexed") }
                if let value = attribute.defaultValue { flags.append("default \(value)") }
                if let name = attribute.valueTransformerName { flags.append("transformer \(name)") }
                table.append([attribute.name, "attribute", attribute.type.rawValue, flags.joined(separator: ", ")])
            }
            for relationship in entity.relationships {
                var flags = ["inverse \(relationship.inverse ?? "-")", "delete \(relationship.deleteRule.rawValue)"]
                if relationship.isOrdered { flags.append("ordered") }
                if relationship.minCount > 0 || relationship.maxCount > 0 { flags.append("count \(relationship.minCount)...\(relationship.maxCount)") }
                table.append([relationship.name, relationship.isToMany ? "to-many" : "to-one", relationship.destination, flags.joined(separator: ", ")])
            }
            print(table.render())
        }
    }
}
