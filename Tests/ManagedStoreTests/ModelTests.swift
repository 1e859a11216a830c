import Foundation
import Testing
@testable import ManagedStore

/// Model validation, the JSON format and Xcode's model files.
@Suite struct ModelTests {
    func problems(_ entities: [EntityDescription]) -> [String] {
        do { _ = try ObjectModel(entities); return [] } catch { return error.problems.map(\.description) }
    }

    @Test func unknownDestination() {
        #expect(problems([EntityDescription("A", relationships: [Relationship("b", to: "B", inverse: "a")])])
                == ["A.b: the destination entity 'B' does not exist in the model"])
    }

    @Test func missingAndMismatchedInverses() {
        let found = problems([
            EntityDescription("A", relationships: [Relationship("b", to: "B", inverse: nil), Relationship("c", to: "B", inverse: "x")]),
            EntityDescription("B", relationships: [Relationship("x", to: "A", inverse: "b"), Relationship("y", to: "A", inverse: "nope")]),
        ])
        #expect(found.contains { $0.hasPrefix("A.b: the relationship has no inverse") })
        #expect(found.contains { $0.hasPrefix("B.x: the inverse A.b does not point back") })
        #expect(found.contains { $0 == "B.y: the inverse 'nope' is not a relationship of A" })
    }

    @Test func duplicateAndReservedNames() {
        let found = problems([
            EntityDescription("Task", attributes: [Attribute("description", .string), Attribute("title", .string), Attribute("title", .string)]),
            EntityDescription("Task"),
            EntityDescription("Bad Name"),
        ])
        #expect(found.contains { $0.hasPrefix("Task.description: 'description' is reserved") && $0.contains("taskDescription") })
        #expect(found.contains { $0.hasPrefix("Task.title: a second property has this name") })
        #expect(found.contains { $0.hasPrefix("Task: a second entity has this name") })
        #expect(found.contains { $0.hasPrefix("Bad Name: the entity name is not a valid identifier") })
    }

    /// A user trial: 3,000 attributes passed the check, and the import died 28 s in with SQLite's
    /// "too many columns" and the whole CREATE TABLE in the message.
    @Test("an entity whose table would pass SQLite's 2,000 columns is refused up front, and one at the limit is not")
    func tooManyColumns() throws {
        let wide = EntityDescription("Wide", attributes: (0..<2_000).map { Attribute("a\($0)", .string) })
        let found = problems([wide])
        #expect(found.count == 1 && found[0].hasPrefix("Wide: its table would have 2003 columns (2000 attributes, 0 to-one relationships and Core Data's 3), more than the 2000 SQLite allows"),
                "\(found)")
        #expect(found.first?.hasSuffix("which one CSV row can fill together") == true)
        let atLimit = EntityDescription("Wide", attributes: (0..<1_997).map { Attribute("a\($0)", .string) })
        let model = try ObjectModel([atLimit])
        let store = try PersistentStore.inMemory(model: model)
        #expect(try store.count(of: model.entity(named: "Wide")!) == 0, "a table at the limit is made")
    }

    @Test func everyProblemIsReportedAtOnce() {
        #expect(problems([EntityDescription("A", attributes: [Attribute("self", .string), Attribute("n", .integer16, defaultValue: .string("x"))],
                                            relationships: [Relationship("r", to: "Nope", inverse: "q")])]).count == 3)
    }

    @Test func jsonModelRoundTrips() throws {
        let model = try Fixtures.model("failedbank")
        let again = try ObjectModel(json: model.jsonData())
        #expect(again.entityDescriptions == model.entityDescriptions)
        #expect(again.versionHashes == model.versionHashes)
        let details = try #require(model.entity(named: "FailedBankDetails"))
        #expect(details.attribute(named: "zip")?.defaultValue == .integer(0))
        #expect(details.relationship(named: "tags")?.isToMany == true)
    }

    @Test func jsonErrorsNameTheFile() {
        #expect {
            _ = try ObjectModel(json: Data(#"{"entities": [{"name": "A", "attributes": [{"name": "x", "type": "Integer 99"}]}]}"#.utf8), file: "m.json")
        } throws: { "\($0)".contains("m.json") && "\($0)".contains("unknown \"type\" \"Integer 99\"") }
        #expect { _ = try ObjectModel(json: Data("{".utf8), file: "m.json") } throws: { "\($0)".contains("not valid JSON") }
    }

    @Test func jsonSyntaxErrorsNameTheFileLineAndColumn() throws {
        let directory = TemporaryDirectory()
        let path = directory.path("broken.model.json")
        try Data("""
            {"entities": [
              {"name": "Task",
               "attributes": [{"name": "title" "type": "String"}]}
            ]}
            """.utf8).write(to: URL(fileURLWithPath: path))
        #expect {
            _ = try ObjectModel(contentsOf: path)
        } throws: { error in
            let text = "\(error)"
            return text.hasPrefix("invalid model \(path) (1 problem)") && text.contains("not valid JSON at line 3, column 36")
                && text.contains("missing or extra comma")
        }
    }

    /// A user trial (an iOS developer): these were all read silently, so a transient attribute got a
    /// column, a derived one stored the CSV's value, and constraints and validation rules never applied.
    @Test func xcodeFeaturesCoreDataEnforcesAreRefusedOrFollowed() throws {
        let xml = #"""
            <model type="com.apple.IDECoreDataModeler.DataModel">
              <entity name="Item" representedClassName="Item">
                <attribute name="uid" optional="YES" attributeType="String"/>
                <attribute name="scratch" optional="YES" transient="YES" attributeType="String"/>
                <attribute name="nameLength" optional="YES" attributeType="Integer 64" derived="YES" derivationExpression="name.length"/>
                <attribute name="priority" optional="YES" attributeType="Integer 16" minValueString="1" maxValueString="5"/>
                <uniquenessConstraints><uniquenessConstraint><constraint value="uid"/></uniquenessConstraint></uniquenessConstraints>
                <fetchIndex name="byUid"><fetchIndexElement property="uid" type="Binary" order="ascending"/></fetchIndex>
              </entity>
              <entity name="Base" isAbstract="YES"><attribute name="x" optional="YES" attributeType="String"/></entity>
            </model>
            """#
        do {
            _ = try ObjectModel(xcdatamodelXML: Data(xml.utf8))
            Issue.record("the model loaded")
        } catch {
            let messages = error.problems.map(\.description)
            #expect(messages.contains { $0.contains("nameLength") && $0.contains("derived attributes are not supported") }, "\(messages)")
            #expect(messages.contains { $0.contains("priority") && $0.contains("validation rules (minValueString, maxValueString) are not checked here") })
            #expect(messages.contains { $0.contains("uniqueness constraints are not enforced here") })
            #expect(messages.contains { $0.contains("fetch indexes (byUid) are not built here") })
            #expect(messages.contains { $0.contains("Base") && $0.contains("abstract entities are not supported") })
            #expect(!messages.contains { $0.contains("scratch") }, "a transient attribute is simply not stored")
        }
        let transient = try ObjectModel(xcdatamodelXML: Data(#"""
            <model><entity name="Item"><attribute name="uid" optional="YES" attributeType="String"/>
            <attribute name="scratch" optional="YES" transient="YES" attributeType="String"/></entity></model>
            """#.utf8))
        #expect(transient.entity(named: "Item")?.attributes.map(\.name) == ["uid"], "no column for what Core Data never stores")
    }

    /// A user trial: Xcode writes a Date default as `defaultDateTimeInterval`, which was dropped without
    /// a word (an optional date stored NULL; a required one rejected every row with an empty cell).
    @Test("an Xcode Date default (defaultDateTimeInterval) is read; a bad one is a model error")
    func xcodeDateDefault() throws {
        let model = try ObjectModel(xcdatamodelXML: Data(#"""
            <model><entity name="E"><attribute name="made" attributeType="Date" defaultDateTimeInterval="599529600" usesScalarValueType="NO"/>
            <attribute name="k" optional="YES" attributeType="String"/></entity></model>
            """#.utf8))
        #expect(model.entity(named: "E")?.attributes.first?.defaultValue == .date(Date(timeIntervalSinceReferenceDate: 599_529_600)))
        for bad in ["soon", "nan", "1e400", "1e300"] {
            #expect(throws: ModelError.self, "\(bad)") {
                try ObjectModel(xcdatamodelXML: Data(#"<model><entity name="E"><attribute name="made" attributeType="Date" defaultDateTimeInterval="\#(bad)"/></entity></model>"#.utf8))
            }
        }
    }

    @Test func versionedModelBundlePicksTheCurrentVersion() throws {
        let model = try ObjectModel(contentsOf: Fixtures.local.appendingPathComponent("models/Versioned.xcdatamodeld").path)
        let note = try #require(model.entity(named: "Note"))
        #expect(note.attributes.map(\.name) == ["text", "pinned", "identifier"])
        #expect(note.attribute(named: "pinned")?.isOptional == false)
        #expect(note.attribute(named: "pinned")?.defaultValue == .bool(false))
        #expect(note.attribute(named: "identifier")?.type == .uuid)
    }

    @Test(.enabled(if: Fixtures.hasReal, Fixtures.skipReason))
    func realFailedBankModelLoads() throws {
        let path = Fixtures.real.appendingPathComponent("failedbank-model/FailedBankCD.xcdatamodeld").path
        let model = try ObjectModel(contentsOf: path)
        #expect(model.entities.map(\.name) == ["FailedBankDetails", "FailedBankInfo", "Tag"])
        let details = try #require(model.entity(named: "FailedBankDetails"))
        #expect(details.attributes.map(\.name) == ["city", "closeDate", "name", "state", "updateDate", "zip"])
        #expect(details.attribute(named: "zip")?.type == .integer32)
        #expect(details.attribute(named: "zip")?.defaultValue == .integer(0))
        #expect(details.relationship(named: "info")?.deleteRule == .cascade)
        #expect(details.relationship(named: "tags")?.isToMany == true)
        #expect(model.entity(named: "Tag")?.relationship(named: "bankdetails")?.inverse == "tags")
        // A store made with it works end to end, cascade included.
        let context = ManagedObjectContext(store: try PersistentStore.inMemory(model: model))
        let info = try context.insert("FailedBankInfo")
        let d = try context.insert("FailedBankDetails")
        try info.setObject(d, forKey: "details")
        try context.save()
        context.delete(d)
        try context.save()
        #expect(try context.fetchAll("FailedBankInfo").isEmpty, "details.info cascades")
    }

    @Test func mismatchedModelIsRefusedAndNothingIsWritten() throws {
        let harness = try StoreHarness(model: try Fixtures.model("tasks"))
        try harness.context.insert("Task")["task_description"] = .string("x")
        try harness.context.save()
        let before = try Data(contentsOf: URL(fileURLWithPath: harness.path))
        let changed = try ObjectModel([
            EntityDescription("Task", attributes: [
                Attribute("task_description", .string, optional: false),
                Attribute("priority", .integer64),
                Attribute("due", .date),
            ]),
            EntityDescription("Project"),
        ])
        #expect {
            _ = try harness.reopen(model: changed)
        } throws: { error in
            guard case .modelMismatch(_, let differences) = error as? StoreError else { return false }
            return differences == [
                "entity Project: in the model, not in the store",
                "Task.completed: attribute in the store, not in the model",
                "Task.due: attribute in the model, not in the store",
                "Task.priority: type Integer 32 in the store, Integer 64 in the model",
            ] && (error as! StoreError).code == 134100
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: harness.path)) == before)
        #expect(try harness.reopen(model: try Fixtures.model("tasks")).modelSource == .given)
    }

    /// A user trial: optionality, an inverse or counts changed in the model opened a store made with the
    /// other; Core Data's version hashes cover them, so it refuses such a store (134100).
    @Test("optionality, ordering and counts are part of the model check; defaults, indexes and delete rules are not")
    func modelCheckCoversWhatCoreDataHashes() throws {
        func model(name: Attribute = Attribute("name", .string), items: Relationship = Relationship("items", to: "Item", inverse: "owner", toMany: true),
                   owner: Relationship = Relationship("owner", to: "Owner", inverse: "items")) throws -> ObjectModel {
            try ObjectModel([EntityDescription("Owner", attributes: [name], relationships: [items]),
                             EntityDescription("Item", attributes: [Attribute("code", .string)], relationships: [owner])])
        }
        let harness = try StoreHarness(model: try model())
        let changes: [(ObjectModel, String)] = [
            (try model(name: Attribute("name", .string, optional: false)), "Owner.name: optional in the store, required in the model"),
            (try model(items: Relationship("items", to: "Item", inverse: "owner", toMany: true, ordered: true)),
             "Owner.items: to-many Item in the store, ordered to-many Item in the model"),
            (try model(owner: Relationship("owner", to: "Owner", inverse: "items", optional: false)),
             "Item.owner: optional in the store, required in the model"),
            (try model(items: Relationship("items", to: "Item", inverse: "owner", toMany: true, maxCount: 5)),
             "Owner.items: count 0...unbounded in the store, 0...5 in the model"),
        ]
        for (changed, difference) in changes {
            #expect {
                _ = try harness.reopen(model: changed)
            } throws: { error in
                guard case .modelMismatch(_, let differences) = error as? StoreError else { return false }
                return differences == [difference]
            }
        }
        // Not in Core Data's hashes either: a default, an index, a delete rule.
        let same = try model(name: Attribute("name", .string, defaultValue: .string("x"), indexed: true),
                             items: Relationship("items", to: "Item", inverse: "owner", toMany: true, deleteRule: .cascade))
        #expect(try harness.reopen(model: same).modelSource == .given)
    }
}
