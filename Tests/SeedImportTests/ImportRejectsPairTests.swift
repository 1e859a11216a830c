import Foundation
import ManagedStore
@testable import SeedImport
import Testing

/// From the import trial (helper-68): `kill -9` between the store's rename and the rejects file's left the
/// new store next to the previous import's rejects file (2 of 9 random kill timings), since the folder was
/// synced between the two. Now the earlier file is set aside just before the store's rename and the new
/// one follows it at once.
@Suite("Import: the store and its rejects file change places together")
struct ImportRejectsPairTests {
    /// A finished temporary store for `target`, as an import leaves it before the rename.
    func finishedStore(for file: _StoreFile) throws {
        let connection = try Connection(path: file.temporary.path)
        try connection.execute("CREATE TABLE t (x)")
        withExtendedLifetime(connection) {}
    }

    func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    @Test("at the moment between the renames there is no rejects file, never the earlier one; after, this run's")
    func noMomentShowsTheEarlierRejects() throws {
        let scratch = ImportScratch()
        let store = scratch.path("W.sqlite"), rejectsPath = scratch.path("W.rejects.csv")
        try Data().write(to: URL(fileURLWithPath: store))
        try "earlier run's rows\n".write(toFile: rejectsPath, atomically: true, encoding: .utf8)
        let rejects = _RejectsWriter(path: rejectsPath)
        rejects.write(file: "w.csv", line: 3, column: 2, entity: "W", attribute: "lat", value: "x", reason: "lat: not a number", raw: Array("a,x".utf8))
        #expect(rejects.prepare() == nil)
        let file = _StoreFile(target: store)
        try finishedStore(for: file)
        var before: Bool?, between: Bool?
        try file.commit(beforeRename: {
            rejects.setAsideEarlier()
            before = exists(rejectsPath)
        }, afterRename: {
            // A kill here leaves the new store: no rejects file must pass for its own.
            between = exists(rejectsPath)
            #expect(rejects.commit() == nil)
        })
        #expect(before == false && between == false)
        let written = try String(contentsOfFile: rejectsPath, encoding: .utf8)
        #expect(written.contains("w.csv,3,2,W,lat,x") && !written.contains("earlier run's rows"), "\(written)")
        #expect(!scratch.files.contains { $0.contains(".importing-") }, "\(scratch.files)")
    }

    @Test("a store that is not replaced gets its earlier rejects file back")
    func failedRenameRestores() throws {
        let scratch = ImportScratch()
        let rejectsPath = scratch.path("W.rejects.csv")
        try "earlier run's rows\n".write(toFile: rejectsPath, atomically: true, encoding: .utf8)
        let rejects = _RejectsWriter(path: rejectsPath)
        rejects.write(file: "w.csv", line: 3, column: 2, entity: "W", attribute: "lat", value: "x", reason: "lat: not a number", raw: Array("a,x".utf8))
        #expect(rejects.prepare() == nil)
        rejects.setAsideEarlier()
        #expect(!exists(rejectsPath))
        rejects.discard()
        #expect(try String(contentsOfFile: rejectsPath, encoding: .utf8) == "earlier run's rows\n")
        #expect(!scratch.files.contains { $0.contains(".importing-") }, "\(scratch.files)")
    }

    /// A later trial (helper-70): a kill at either rename left one of the two files aside, and the next
    /// import's sweep deleted it for good.
    /// What an import killed between the two renames leaves: the store, the earlier rejects set aside, this
    /// run's finished rejects, and, when the store was not replaced yet, its temporary store.
    func killedState(storeReplaced: Bool) throws -> (scratch: ImportScratch, store: URL, place: String) {
        let scratch = ImportScratch()
        let store = URL(fileURLWithPath: scratch.path("W.sqlite")), place = scratch.path("W.rejects.csv")
        try Data().write(to: store)
        let dead: Int32 = 99_999_999
        if !storeReplaced { try Data().write(to: _StoreFile.temporaryURL(for: store, pid: dead)) }
        try "earlier\n".write(toFile: scratch.path(".W.rejects.csv.importing-\(dead).replaced"), atomically: true, encoding: .utf8)
        try "this run's\n".write(toFile: scratch.path(".W.rejects.csv.importing-\(dead)"), atomically: true, encoding: .utf8)
        return (scratch, store, place)
    }

    @Test("killed before the store's rename: the next import puts the earlier rejects file back")
    func killedBeforeStoreRename() throws {
        // The scratch folder lasts as long as its value.
        let (scratch, store, place) = try killedState(storeReplaced: false)
        let said = _RejectsWriter.recoverInterrupted(place: place, store: store)
        #expect(said == ["put back \(place), which an import killed just before it replaced the store had set aside"])
        #expect(try String(contentsOfFile: place, encoding: .utf8) == "earlier\n")
        withExtendedLifetime(scratch) {}
    }

    @Test("killed after the store's rename: the next import moves that import's rejects into place")
    func killedAfterStoreRename() throws {
        let (scratch, store, place) = try killedState(storeReplaced: true)
        let dead: Int32 = 99_999_999
        let said = _RejectsWriter.recoverInterrupted(place: place, store: store)
        #expect(said == ["moved the rejected rows of an import killed just after it replaced the store into \(place)"])
        #expect(try String(contentsOfFile: place, encoding: .utf8) == "this run's\n")
        #expect(!scratch.files.contains { $0.contains(".replaced") }, "\(scratch.files)")
        // With no rows of its own, the replaced store has no rejects file, and the earlier one goes.
        try "earlier\n".write(toFile: scratch.path(".W.rejects.csv.importing-\(dead).replaced"), atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(atPath: place)
        #expect(_RejectsWriter.recoverInterrupted(place: place, store: store).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: place) && !scratch.files.contains { $0.contains(".replaced") }, "\(scratch.files)")
    }

    @Test("an earlier rejects file a killed import set aside is removed by the next import into the folder")
    func asideFileIsSwept() throws {
        let scratch = ImportScratch()
        // A pid no process has: beyond the kernel's limit.
        let aside = scratch.path(".W.rejects.csv.importing-99999999.replaced")
        try "earlier run's rows\n".write(toFile: aside, atomically: true, encoding: .utf8)
        #expect(_StoreFile.removeStale(in: scratch.url) == [".W.rejects.csv.importing-99999999.replaced"])
        #expect(!exists(aside))
    }
}
