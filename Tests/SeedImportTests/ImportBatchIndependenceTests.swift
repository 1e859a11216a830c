import Foundation
import ManagedStore
@testable import SeedImport
import Testing

/// The batch size is a memory setting: the store an import writes must not depend on it, down to each
/// row's `Z_OPT` (a user trial found 2 for objects made in one batch and updated in the next, 1 when both
/// fell in one batch).
@Suite("Import: the same store whatever the batch size")
struct ImportBatchIndependenceTests {
    static let model = """
        {"entities":[{"name":"Emp","attributes":[{"name":"code","type":"String","optional":false},{"name":"name","type":"String"}],
         "relationships":[{"name":"manager","destination":"Emp","inverse":"reports","toMany":false,"deleteRule":"Nullify"},
          {"name":"reports","destination":"Emp","inverse":"manager","toMany":true,"deleteRule":"Nullify"}]}]}
        """
    static let mapping = """
        {"format":1,"files":[{"path":"e.csv","targets":[{"entity":"Emp","key":"code","relationships":{"manager":{"column":"manager","destinationKey":"code"}}}]}]}
        """

    @Test("upserts and keys further down the file: every table the same at batch sizes 1, 2, 3 and 10,000, every row at version 1",
          arguments: [ErrorPolicy.abort, .skip])
    func sameStore(onError: ErrorPolicy) throws {
        // E3 names E5 further down; E4 names E3; E2 is upserted at the end with another manager. In skip
        // mode E6 (naming a key that never comes) is set aside.
        var rows = "code,name,manager\nE1,a,\nE2,b,E1\nE3,c,E5\nE4,d,E3\nE5,e,E1\nE2,b2,E5\n"
        if onError == .skip { rows += "E6,f,NOPE\nE3,c2,E5\n" }
        var dumps: [Int: [String: [String]]] = [:]
        for batchSize in [1, 2, 3, 10_000] {
            let scratch = ImportScratch()
            try scratch.write("e.csv", rows)
            var options = ImportOptions(batchSize: batchSize, onError: onError)
            if onError == .skip { options.rejectsPath = scratch.path("rejects.csv") }
            let mapping = try ImportMapping(json: Data(Self.mapping.utf8), baseDirectory: scratch.url.path)
            _ = try SeedImporter(model: try ObjectModel(json: Data(Self.model.utf8)), mapping: mapping, options: options)
                .run(into: scratch.path("e.sqlite"))
            dumps[batchSize] = try StoreReader.tables(scratch.path("e.sqlite"))
            #expect(try StoreReader.scalar(scratch.path("e.sqlite"), "SELECT count(*) FROM ZEMP WHERE Z_OPT <> 1")?.int64 == 0, "batch size \(batchSize)")
        }
        for batchSize in [1, 2, 3] {
            #expect(dumps[batchSize] == dumps[10_000], "batch size \(batchSize) against 10,000:\n\(dumps[batchSize] ?? [:])\n\(dumps[10_000] ?? [:])")
        }
    }
}
