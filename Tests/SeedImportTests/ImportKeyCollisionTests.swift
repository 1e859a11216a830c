import Foundation
import ManagedStore
import PropertyBased
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

/// The Bloom filter in front of keys moved to disk: never a false "no", rarely a false "maybe".
@Suite("Import: the Bloom filter of keys on disk")
struct BloomFilterTests {
    @Test("every inserted hash is found; absent ones mostly are not, at capacity")
    func falsePositives() {
        var random = Xoshiro(seed: (0x9E37_79B9_7F4A_7C15, 0xD1B5_4A32_D192_ED03, 0xABCD_EF01_2345_6789, 0x0123_4567_89AB_CDEF))
        var filter = _BloomFilter(capacity: 50_000)
        let inserted = (0..<50_000).map { _ in UInt64.random(in: .min ... .max, using: &random) }
        for hash in inserted { filter.insert(hash) }
        #expect(inserted.allSatisfy(filter.mayContain))
        let absent = (0..<50_000).filter { _ in filter.mayContain(UInt64.random(in: .min ... .max, using: &random)) }.count
        #expect(absent < 50_000 / 50, "\(absent) false maybes in 50,000 at capacity (about 1 in 200 expected)")
        #expect(!_BloomFilter(capacity: 0).mayContain(inserted[0]), "an empty filter holds nothing")
    }
}
