import Foundation
import Testing
@testable import ManagedStore

/// Resident-memory readings, and the allocator policy the `seedstore` command sets.
@Suite struct ProcessMemoryTests {
    @Test func readsResidentAndPeakMemory() throws {
        #if os(Linux)
        let resident = try #require(ProcessMemory.residentBytes)
        let peak = try #require(ProcessMemory.peakResidentBytes)
        #expect(resident > 1 << 20)
        #expect(peak >= resident / 2)   // other tests may free memory between the two readings
        #endif
    }

    @Test(arguments: [(999, "999 B"), (1_000, "1.0 KB"), (65_536_000, "65.5 MB"), (3_200_000_000, "3.2 GB")])
    func formatsByteCounts(bytes: Int, text: String) {
        #expect(ProcessMemory.format(bytes) == text)
    }

    /// With the policy set, freed blocks past 128 KiB go back to the system even when blocks around them
    /// stay: half of 160 MiB freed shows in resident memory. glibc's default keeps them (after one 1 MiB
    /// block was freed it serves 1 MiB blocks from the heap, and holes in the heap stay resident), so
    /// this fails without the policy.
    @Test func freedBlocksGoBackToTheSystemWithThePolicy() throws {
        #if os(Linux)
        #expect(ProcessMemory.returnFreedMemoryPromptly())
        let size = 1 << 20
        let warm = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        memset(warm, 1, size)
        warm.deallocate()
        let blocks = (0..<160).map { _ in
            let block = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
            memset(block, 1, size)
            return block
        }
        defer { for block in blocks.enumerated() where block.offset % 2 == 1 { block.element.deallocate() } }
        let full = try #require(ProcessMemory.residentBytes)
        for block in blocks.enumerated() where block.offset % 2 == 0 { block.element.deallocate() }
        let after = try #require(ProcessMemory.residentBytes)
        // 80 MiB freed; other tests running alongside may allocate some meanwhile.
        #expect(full - after > 50 << 20, "resident \(full >> 20) MiB before freeing half, \(after >> 20) MiB after")
        #endif
    }
}
