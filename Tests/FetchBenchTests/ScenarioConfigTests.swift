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

    @Test("the fault attribute defaults to the sort key, so a books store runs every scenario")
    func faultAttributeDefaultsToTheSortKey() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try booksStore(in: directory)
        #expect(ScenarioConfig().faultAttribute == nil)
        let scenarios = try ScenarioCatalog.make(for: store, config: ScenarioConfig.books)
        #expect(scenarios.map(\.name) == ["batch-size", "faulting", "dictionary"], "no summary entity: no decomposition")
    }

    @Test("only the chosen scenarios' names must exist; a missing one names the scenario, the setting and what the entity has")
    func onlyTheChosenScenariosNamesMustExist() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try booksStore(in: directory)
        var config = ScenarioConfig.books
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

    /// The message `ScenarioConfig.load` refuses `json` with, or nil when it reads it.
    func refusal(_ json: String) throws -> String? {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("t.json")
        try Data(json.utf8).write(to: file)
        do {
            _ = try ScenarioConfig.load(file.path)
            return nil
        } catch {
            return error.description
        }
    }

    /// From a user trial: `"batch_sizes": [-5]` trapped in `prefix`, `"screen": -1` in a range, both
    /// only once measuring began.
    @Test("a number out of range is refused when the file is read, naming the key, the value and what it takes")
    func numbersOutOfRangeAreRefusedWhenRead() throws {
        let base = #""entity": "Book", "sort_key": "title", "map_properties": ["title", "author"]"#
        let cases: [(String, [String])] = [
            (#""batch_sizes": [-5]"#, ["batch_sizes is [-5]", "0 (no batching) or more, not -5"]),
            (#""batch_sizes": [0, -5]"#, ["batch_sizes is [0, -5]", "not -5"]),
            (#""batch_sizes": []"#, ["batch_sizes is []", "at least one batch size"]),
            (#""batch_sizes": [20, 20]"#, ["batch_sizes is [20, 20]", "each batch size once"]),
            (#""screen": -1"#, ["screen is -1", "1 or more"]),
            (#""screen": 0"#, ["screen is 0", "1 or more"]),
            (#""fault_limit": 0"#, ["fault_limit is 0", "1 or more"]),
            (#""fault_limit": -3"#, ["fault_limit is -3", "1 or more"]),
        ]
        for (setting, expected) in cases {
            let message = try refusal("{\(base), \(setting)}")
            #expect(message != nil, "\(setting) was accepted")
            for part in expected { #expect(message?.contains(part) == true, "\(setting): \(message ?? "")") }
            #expect(message?.contains("not a usable scenario file") == true, "\(message ?? "")")
        }
        var map = ScenarioConfig()
        map.mapProperties = []
        #expect(throws: BenchError.self) { try map.validate() }
        #expect(try refusal("{\(base), \"batch_sizes\": [0, 1, 5000], \"screen\": 1, \"fault_limit\": 1}") == nil)
    }

    @Test("a value of another type names the key and the type it takes; null is refused, not read as the default")
    func wrongTypesAndNullNameTheKey() throws {
        let fraction = try refusal(#"{"entity": "Book", "batch_sizes": [1.5]}"#)
        #expect(fraction?.contains("batch_sizes is [1.5]; it takes a list of integers") == true, "\(fraction ?? "accepted")")
        #expect(fraction?.contains("top level") == false)
        let screen = try refusal(#"{"screen": "20"}"#)
        #expect(screen?.contains(#"screen is "20"; it takes an integer"#) == true, "\(screen ?? "accepted")")
        let null = try refusal(#"{"entity": "Book", "sort_key": null}"#)
        #expect(null?.contains("sort_key is null; it takes a string (leave the key out to keep the default)") == true, "\(null ?? "accepted")")
        for key in ["entity", "map_properties", "fault_attribute", "relationship", "screen", "batch_sizes", "fault_limit"] {
            #expect(try refusal("{\"\(key)\": null}")?.contains("\(key) is null") == true, "\(key): null was accepted")
        }
    }

    @Test("a config set in code is checked before scenarios are built, so no value can trap while measuring")
    func catalogRefusesASettingOutOfRange() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try booksStore(in: directory)
        for change in [{ (c: inout ScenarioConfig) in c.batchSizes = [-5] }, { $0.screen = -1 }, { $0.faultLimit = 0 }] {
            var config = ScenarioConfig.books
            change(&config)
            do {
                _ = try ScenarioCatalog.make(for: store, config: config)
                Issue.record("\(config) was accepted")
            } catch BenchError.invalidSetting(let setting) {
                #expect(["batch_sizes", "screen", "fault_limit"].contains(setting.key))
            }
        }
    }
}
