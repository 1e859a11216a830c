import Foundation
import Testing
@testable import ManagedStore

/// A user trial (an iOS developer): a Binary attribute with Xcode's "Allows External Storage" was read
/// without its flag and filled with bare bytes, where Core Data writes a marker byte first (and a file
/// beside the store for large values). SeedStore does not write that format: it keeps the flag, leaves
/// such columns NULL, and refuses a save that gives one a value.
@Suite struct ExternalStorageAttributeTests {
    static let xml = #"""
        <model><entity name="Item">
        <attribute name="name" optional="YES" attributeType="String"/>
        <attribute name="photo" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/>
        <attribute name="thumbnail" optional="YES" attributeType="Binary"/>
        </entity></model>
        """#

    @Test("Xcode's allowsExternalBinaryDataStorage is kept on the attribute and round-trips through the JSON model")
    func flagIsReadAndRoundTrips() throws {
        let model = try ObjectModel(xcdatamodelXML: Data(Self.xml.utf8))
        let item = try #require(model.entity(named: "Item"))
        #expect(item.attribute(named: "photo")?.allowsExternalBinaryDataStorage == true)
        #expect(item.attribute(named: "thumbnail")?.allowsExternalBinaryDataStorage == false)
        let json = String(decoding: model.jsonData(), as: UTF8.self)
        #expect(json.contains(#""allowsExternalStorage" : true"#), "\(json)")
        let again = try ObjectModel(json: model.jsonData())
        #expect(again.entity(named: "Item")?.attribute(named: "photo")?.allowsExternalBinaryDataStorage == true)
        #expect(again.entity(named: "Item")?.attribute(named: "thumbnail")?.allowsExternalBinaryDataStorage == false)
        // A store keeps its model as JSON: the flag is there when it opens without a model file.
        let directory = TemporaryDirectory()
        _ = try PersistentStore(path: directory.path("I.sqlite"), model: model)
        let reopened = try PersistentStore(path: directory.path("I.sqlite"), options: .init(readOnly: true, create: false))
        #expect(reopened.model.entity(named: "Item")?.attribute(named: "photo")?.allowsExternalBinaryDataStorage == true)
    }

    @Test("only a Binary attribute may allow external storage")
    func onlyBinary() {
        #expect {
            try ObjectModel(json: Data(#"{"entities":[{"name":"E","attributes":[{"name":"s","type":"String","allowsExternalStorage":true}]}]}"#.utf8))
        } throws: { error in
            "\(error)".contains("entities[0] (E).attributes[0] (s): only Binary attributes allow external storage, not String")
        }
    }

    @Test("a save that gives such an attribute a value is a validation error saying why; nil saves")
    func saveRefusesAValue() throws {
        let harness = try StoreHarness(model: try ObjectModel(xcdatamodelXML: Data(Self.xml.utf8)))
        let item = try harness.context.insert("Item")
        item["name"] = .string("a")
        item["thumbnail"] = .data(Data([1, 2]))
        try harness.context.save()
        item["photo"] = .data(Data("hello".utf8))
        do {
            try harness.context.save()
            Issue.record("the save must fail")
        } catch {
            guard case .validation(let failures) = error else { Issue.record("\(error)"); return }
            #expect(failures.count == 1)
            #expect(failures.first?.key == "photo" && failures.first?.code == .invalidValue)
            #expect("\(error)".contains("'photo' allows external storage and must stay nil: Core Data keeps the values of an attribute that allows external storage in its own external-storage format"),
                    "\(error)")
            #expect("\(error)".contains("which SeedStore does not write; leave it nil and let the app set it"))
        }
        #expect(try harness.store.connection.scalar("SELECT ZPHOTO FROM ZITEM") == SQLValue.null)
        item["photo"] = .null
        try harness.context.save()
    }
}
