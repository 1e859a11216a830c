import Foundation
import ManagedStore
import Testing
@testable import FetchBench

/// Scenario settings on a store that is not the wells store: each scenario needs only its own names,
/// a missing one names the setting, and a scenario file refuses keys it does not know.
@Suite struct ScenarioConfigTests {
    /// A books store: Book(title, author, copyright), no wells names at all.
    func booksStore(in directory: URL) throws -> PersistentStore {
        let model = try ObjectModel([EntityDescription("Book", attributes: [
            Attribute("title", .string), Attribute("author", .string), Attribute("copyright", .integer32),
        ])])
        let store = try PersistentStore(path: directory.appendingPathComponent("books.sqlite").path, model: model)
        let context = ManagedObjectContext(store: store)
        for i in 0..<5 {
            let book = try context.insert("Book")
            try book.setValue(.string("Title \(i)"), forKey: "title")
            try book.setValue(.string("Author \(i)"), forKey: "author")
        }
        try context.save()
        return store
    }

    func books() -> ScenarioConfig {
        var config = ScenarioConfig()
        config.entity = "Book"
        config.sortKey = "title"
        config.mapProperties = ["title", "author"]
        return config
    }

    @Test("the fault attribute defaults to the sort key, so a books store runs every scenario")
    func faultAttributeDefaultsToTheSortKey() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try booksStore(in: directory)
        #expect(ScenarioConfig().faultAttribute == nil)
        let scenarios = try ScenarioCatalog.make(for: store, config: books())
        #expect(scenarios.map(\.name) == ["batch-size", "faulting", "dictionary"], "no summary entity: no decomposition")
    }

    @Test("only the chosen scenarios' names must exist; a missing one names the scenario, the setting and what the entity has")
    func onlyTheChosenScenariosNamesMustExist() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try booksStore(in: directory)
        var config = books()
        config.faultAttribute = "well_name"
        #expect(try ScenarioCatalog.make(for: store, config: config, only: ["batch-size"]).count == 1)
        do {
            _ = try ScenarioCatalog.make(for: store, config: config, only: ["faulting"])
            Issue.record("a fault attribute the entity lacks was accepted")
        } catch BenchError.storeLacks(let missing) {
            #expect(missing == .init(scenario: "faulting", entity: "Book", name: "well_name", key: "fault_attribute",
                                     available: ["title", "author", "copyright"]))
            #expect(missing.description == "Book has no property 'well_name' (fault_attribute), which the faulting scenario reads; Book has title, author, copyright")
        }
        config.entity = "Well"
        #expect(throws: BenchError.self) { try ScenarioCatalog.make(for: store, config: config, only: ["batch-size"]) }
    }

    @Test("a scenario file sets the documented keys and refuses any other, naming it and the known ones")
    func scenarioFileKeys() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let good = directory.appendingPathComponent("books.json")
        try Data(#"{"entity": "Book", "sort_key": "title", "map_properties": ["title"], "fault_attribute": "author"}"#.utf8).write(to: good)
        let config = try ScenarioConfig.load(good.path)
        #expect(config.entity == "Book" && config.sortKey == "title" && config.faultAttribute == "author" && config.mapProperties == ["title"])

        let typo = directory.appendingPathComponent("typo.json")
        try Data(#"{"entity": "Book", "fault_atribute": "author"}"#.utf8).write(to: typo)
        do {
            _ = try ScenarioConfig.load(typo.path)
            Issue.record("an unknown key was ignored")
        } catch {
            #expect(error.description.contains("unknown key 'fault_atribute'"), "\(error)")
            #expect(error.description.contains(ScenarioConfig.keys.joined(separator: ", ")), "\(error)")
        }
    }

    @Test("the documented keys are the keys the file is read with, and docs/bench-schema.md lists each")
    func keysAreTheCodingKeysAndDocumented() throws {
        #expect(Set(ScenarioConfig.keys) == Set(ScenarioConfig.CodingKeys.allCases.map(\.rawValue)))
        let docs = try String(contentsOf: repositoryRoot.appendingPathComponent("docs/bench-schema.md"), encoding: .utf8)
        for key in ScenarioConfig.keys { #expect(docs.contains("| `\(key)` |"), "\(key) is not in the Scenario files table") }
    }
}
