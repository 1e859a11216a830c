import PropertyBased
@testable import SeedImport
import Testing

/// The skip-mode passes look up the forward references they brought back from disk by key hash; the runs
/// that hold them must answer as the plain list would, in the order brought back.
@Suite("Import: forward references brought back from disk, by key hash")
struct DiskForwardTests {
    @Test("property: a lookup gives the indexes with that hash, in the order brought back")
    func matchesList() async {
        // Few hashes, so most have several references; steps between indexes, as rows bring back several.
        let step = zip(Gen.int(in: 0...7), Gen.int(in: 1...3))
        await propertyCheck(input: step.array(of: 0...300)) { steps in
            recordingErrors {
                let disk = _DiskForward(spilled: try _SpilledForward(targetCount: 1))
                var list: [(hash: UInt64, index: Int)] = []
                var index = 0
                for (i, (hash, gap)) in steps.enumerated() {
                    index += gap
                    disk.noteLoaded(hash: UInt64(hash) &* 0x9E37_79B9_7F4A_7C15, index: index)
                    list.append((UInt64(hash) &* 0x9E37_79B9_7F4A_7C15, index))
                    // Lookups between additions too: the passes interleave them.
                    if i % 17 == 0 {
                        let probe = UInt64(hash) &* 0x9E37_79B9_7F4A_7C15
                        #expect(disk.loaded(withHash: probe) == list.filter { $0.hash == probe }.map(\.index))
                    }
                }
                for hash in 0...8 {
                    let probe = UInt64(hash) &* 0x9E37_79B9_7F4A_7C15
                    #expect(disk.loaded(withHash: probe) == list.filter { $0.hash == probe }.map(\.index), "hash \(hash)")
                }
            }
        }
    }
}
