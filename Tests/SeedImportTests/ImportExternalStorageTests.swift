import Foundation
import ManagedStore
import SeedImport
import Testing

/// A user trial (an iOS developer): a Binary attribute that allows external storage was filled with bare
/// bytes, which Core Data would misread (it keeps such values in its own format, with a marker byte). A
/// mapping that fills one is now a mapping error saying why; left out, its column stays NULL.
@Suite("Import: attributes that allow external storage")
struct ImportExternalStorageTests {
    static func model(photoOptional: Bool = true) throws -> ObjectModel {
        try ObjectModel(json: Data("""
            {"entities": [{"name": "Item", "attributes": [
              {"name": "name", "type": "String", "optional": false},
              {"name": "photo", "type": "Binary", "optional": \(photoOptional), "allowsExternalStorage": true}
            ]}]}
            """.utf8))
    }

    static func run(_ target: String, csv: String, model: ObjectModel, in scratch: ImportScratch) throws -> ImportSummary {
        try scratch.write("items.csv", csv)
        let mapping = try ImportMapping(json: Data("""
            {"format": 1, "files": [{"path": "items.csv", "targets": [\(target)]}]}
            """.utf8), baseDirectory: scratch.url.path)
        return try SeedImporter(model: model, mapping: mapping, options: ImportOptions()).run(into: scratch.path("Items.sqlite"))
    }

    static let csv = "name,photo,picture\nhello,aGVsbG8=,aGVsbG8=\n"

    @Test("filling it, by its name or through a named column, is a mapping error naming it and saying why", arguments: [
        (#"{"entity": "Item"}"#, "photo"),
        (#"{"entity": "Item", "columns": {"photo": "picture"}}"#, "picture"),
    ])
    func fillingIsRefused(target: String, column: String) throws {
        let scratch = ImportScratch()
        do {
            _ = try Self.run(target, csv: Self.csv, model: try Self.model(), in: scratch)
            Issue.record("the import must be refused")
        } catch let error as ImportError {
            #expect(error.kind == .mapping)
            #expect(error.problems == ["items.csv → Item: Item.photo allows external storage, so the import cannot fill it from the column \"\(column)\": Core Data keeps the values of an attribute that allows external storage in its own external-storage format (a marker byte, then the bytes or a file beside the store), which SeedStore does not write. Leave it out of the mapping (\"photo\": null in \"columns\") and let the app set it; the column stays NULL"],
                    "\(error)")
        } catch {
            Issue.record("\(error)")
        }
        #expect(!FileManager.default.fileExists(atPath: scratch.path("Items.sqlite")))
    }

    @Test("left out of the mapping, or with no column of its name, it is imported as NULL")
    func leftOutIsNull() throws {
        for (target, csv) in [(#"{"entity": "Item", "columns": {"photo": null}}"#, Self.csv), (#"{"entity": "Item"}"#, "name\nhello\n")] {
            let scratch = ImportScratch()
            let summary = try Self.run(target, csv: csv, model: try Self.model(), in: scratch)
            #expect(summary.rejects == 0)
            #expect(try StoreReader.scalar(scratch.path("Items.sqlite"), "SELECT count(*) FROM ZITEM WHERE ZPHOTO IS NULL")?.int64 == 1)
        }
    }

    @Test("a required one can never be filled, and the message says so")
    func requiredIsRefused() throws {
        let scratch = ImportScratch()
        #expect {
            try Self.run(#"{"entity": "Item", "columns": {"photo": null}}"#, csv: Self.csv, model: try Self.model(photoOptional: false), in: scratch)
        } throws: { error in
            "\(error)".contains("Item.photo is required but allows external storage, so no import can fill it")
        }
    }
}
