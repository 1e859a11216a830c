import Foundation
import Testing
@testable import ManagedStore

/// Core Data opens a store only when its metadata's NSStoreModelVersionHashes equal the model's; a user
/// trial (an iOS developer) found seed stores carried SeedStore's own hashes alone. The hashes come from
/// the app's compiled model, since Core Data's algorithm is not public.
@Suite struct CoreDataVersionHashesTests {
    static let model = try! ObjectModel([EntityDescription("Book", attributes: [Attribute("title", .string)]),
                                         EntityDescription("Author", attributes: [Attribute("name", .string)])])

    func scratch() -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("hashes-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    func write(_ plist: Any, to url: URL) throws {
        try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0).write(to: url)
    }

    @Test("a .momd's VersionInfo.plist gives the current version's hashes; a plain plist gives its own")
    func readsBothForms() throws {
        let directory = scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let momd = directory.appendingPathComponent("Books.momd")
        try FileManager.default.createDirectory(at: momd, withIntermediateDirectories: true)
        let v1 = ["Book": Data(repeating: 1, count: 32)], v2 = ["Book": Data(repeating: 2, count: 32), "Author": Data(repeating: 3, count: 32)]
        try write(["NSManagedObjectModel_CurrentVersionName": "Books 2", "NSManagedObjectModel_VersionHashes": ["Books": v1, "Books 2": v2]],
                  to: momd.appendingPathComponent("VersionInfo.plist"))
        let fromMomd = try CoreDataVersionHashes(contentsOf: momd.path)
        #expect(fromMomd.hashes == v2 && fromMomd.versionName == "Books 2")
        #expect(try CoreDataVersionHashes(contentsOf: momd.appendingPathComponent("VersionInfo.plist").path) == fromMomd)

        let plain = directory.appendingPathComponent("hashes.plist")
        try write(v1, to: plain)
        #expect(try CoreDataVersionHashes(contentsOf: plain.path).hashes == v1)

        let notHashes = directory.appendingPathComponent("bad.plist")
        try write(["Book": "not data"], to: notHashes)
        #expect(throws: StoreError.self) { try CoreDataVersionHashes(contentsOf: notHashes.path) }
        let short = directory.appendingPathComponent("short.plist")
        try write(["Book": Data(repeating: 1, count: 5)], to: short)
        #expect {
            try CoreDataVersionHashes(contentsOf: short.path)
        } throws: { error in "\(error)".contains("the hash of 'Book' is 5 bytes, not the 32 of Core Data's entity version hashes") }
        try write(["Book": Data()], to: short)
        #expect {
            try CoreDataVersionHashes(contentsOf: short.path)
        } throws: { error in "\(error)".contains("the hash of 'Book' is 0 bytes, not the 32") }
        let source = directory.appendingPathComponent("Books.xcdatamodeld")
        try FileManager.default.createDirectory(at: source, withIntermediateDirectories: true)
        #expect {
            try CoreDataVersionHashes(contentsOf: source.path)
        } throws: { error in "\(error)".contains("the model's source in Xcode holds no version hashes; give the compiled model the app ships") }
        let missingVersion = directory.appendingPathComponent("missing.plist")
        try write(["NSManagedObjectModel_CurrentVersionName": "Books 3", "NSManagedObjectModel_VersionHashes": ["Books": v1, "Books 2": v2]],
                  to: missingVersion)
        #expect {
            try CoreDataVersionHashes(contentsOf: missingVersion.path)
        } throws: { error in "\(error)".contains("the hashes of the current version (Books 3) are not there; the versions it holds: Books, Books 2") }
    }

    @Test("the hashes go into the metadata with Core Data's keys, stay when the store opens again, and must fit the model")
    func writtenIntoTheMetadata() throws {
        let directory = scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("Books.sqlite").path
        let store = try PersistentStore(path: path, model: Self.model)
        #expect {
            try store.writeCoreDataVersionHashes(CoreDataVersionHashes(hashes: ["Book": Data(repeating: 1, count: 32), "Shelf": Data(repeating: 1, count: 32)]))
        } throws: { error in "\(error)".contains("no hash for Author; hashes for entities the model lacks: Shelf") }
        let hashes = ["Book": Data(repeating: 4, count: 32), "Author": Data(repeating: 5, count: 32)]
        try store.writeCoreDataVersionHashes(CoreDataVersionHashes(hashes: hashes))
        let reopened = try PersistentStore(path: path, options: .init(readOnly: true))
        #expect(reopened.metadata["NSStoreModelVersionHashes"] as? [String: Data] == hashes)
        #expect(reopened.metadata["NSStoreModelVersionHashesVersion"] as? Int == 3)
        #expect(reopened.metadata["NSStoreType"] as? String == "SQLite")
        #expect(reopened.modelSource == .stored, "SeedStore's own keys stay")
    }
}

/// A user trial: a compiled `.mom` was read as a plist of hashes ("'$objects' is not an entity's hash"),
/// and a `.momd` without VersionInfo.plist was "not a property list" though there was no such file.
@Suite struct CoreDataVersionHashesFileKindTests {
    @Test("a compiled .mom is named as such, with what to give instead")
    func compiledMom() throws {
        let directory = TemporaryDirectory()
        let mom = directory.path("Books.mom")
        let archive: [String: Any] = ["$archiver": "NSKeyedArchiver", "$version": 100000, "$top": ["root": 1],
                                      "$objects": ["$null", ["x": 1]]]
        try PropertyListSerialization.data(fromPropertyList: archive, format: .binary, options: 0).write(to: URL(fileURLWithPath: mom))
        #expect {
            try CoreDataVersionHashes(contentsOf: mom)
        } throws: { error in
            let text = "\(error)"
            return text.hasPrefix("\(mom): a compiled model (.mom, an NSKeyedArchiver archive), whose version hashes SeedStore cannot read; give the VersionInfo.plist of a versioned model's .momd")
                && text.contains("NSManagedObjectModel(contentsOf: momURL)!.entityVersionHashesByName") && !text.contains("$objects")
        }
    }

    @Test("a .momd without VersionInfo.plist is said to lack it, with what to give instead")
    func momdWithoutVersionInfo() throws {
        let directory = TemporaryDirectory()
        let momd = directory.path("Books.momd")
        try FileManager.default.createDirectory(atPath: momd, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: URL(fileURLWithPath: directory.path("Books.momd/Books.mom")))
        #expect {
            try CoreDataVersionHashes(contentsOf: momd)
        } throws: { error in
            let text = "\(error)"
            return text.hasPrefix("\(momd): there is no VersionInfo.plist in it (a model that is not versioned compiles to a .mom without one); give the VersionInfo.plist of a versioned model's .momd")
                && !text.contains("not a property list")
        }
    }

    @Test("a store records the model version its hashes came from, and tells whether it carries any")
    func storeTellsItsHashes() throws {
        let directory = TemporaryDirectory()
        let store = try PersistentStore(path: directory.path("B.sqlite"), model: CoreDataVersionHashesTests.model)
        #expect(store.coreDataVersionHashes == nil)
        try store.writeCoreDataVersionHashes(CoreDataVersionHashes(hashes: ["Book": Data(repeating: 1, count: 32), "Author": Data(repeating: 2, count: 32)],
                                                                   versionName: "Books 2"))
        let reopened = try PersistentStore(path: directory.path("B.sqlite"), options: .init(readOnly: true))
        #expect(reopened.coreDataVersionHashes?.entities == ["Author", "Book"])
        #expect(reopened.coreDataVersionHashes?.versionName == "Books 2")
    }
}
