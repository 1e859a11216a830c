import Foundation
import ManagedStore
@testable import SeedImport
import Testing

/// Two keys whose 32-bit hashes are equal stay two objects: an index that keeps key bytes compares them,
/// and one that dropped them (past its threshold) reads the object's key back to confirm.
@Suite("Import: keys with the same hash")
struct ImportKeyCollisionTests {
    /// "E5673" and "E18181" share a 32-bit hash (found by search over "E0", "E1", …).
    static let first = "E5673", second = "E18181"

    @Test("the two keys collide: the test below exercises the confirmation")
    func collide() {
        let hashes = [Self.first, Self.second].map { key in
            var key = key
            return key.withUTF8 { _KeyIndex.hash(UnsafeRawBufferPointer($0)) }
        }
        #expect(hashes[0] == hashes[1])
    }

    @Test("colliding keys: distinct objects, the upsert updates the right one, links find the right one",
          arguments: [1, 32_768])
    func distinct(threshold: Int) throws {
        let scratch = ImportScratch()
        var options = ImportOptions(batchSize: 2)
        options.keyBytesThreshold = threshold
        let csv = """
            code,name,manager
            \(Self.first),Ann,
            \(Self.second),Bob,\(Self.first)
            \(Self.first),Ann Updated,\(Self.second)
            E1,Cid,\(Self.second)

            """
        let summary = try ImportForwardReferenceTests.run(csv, options: options, in: scratch)
        #expect(summary.objects["Employee"]?.inserted == 3)
        #expect(summary.objects["Employee"]?.updated == 1)
        #expect(try ImportForwardReferenceTests.managers(scratch) == [Self.first: Self.second, Self.second: Self.first, "E1": Self.second])
        let staff = try ImportKeyMemoryTests.staff(scratch)
        #expect(staff[Self.first]?.first == "Ann Updated")
        #expect(staff[Self.second]?.first == "Bob")
    }
}
