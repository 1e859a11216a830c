import Foundation

/// The process's resident memory, read from `/proc/self/status` (Linux).
///
/// For example:
///
/// ```swift
/// ProcessMemory.resetPeak()
/// try importer.run()
/// print(ProcessMemory.peakResidentBytes ?? 0)
/// ```
public enum ProcessMemory {
    /// Resident memory now (`VmRSS`), in bytes.
    public static var residentBytes: Int? { field("VmRSS:") }

    /// The highest resident memory since start or the last ``resetPeak()`` (`VmHWM`), in bytes.
    public static var peakResidentBytes: Int? { field("VmHWM:") }

    /// Resets the peak to the current resident memory (writes 5 to `/proc/self/clear_refs`).
    /// Returns false where the kernel does not allow it; the peak then counts from process start.
    @discardableResult
    public static func resetPeak() -> Bool {
        guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
        defer { try? handle.close() }
        do { try handle.write(contentsOf: Data("5".utf8)) } catch { return false }
        return true
    }

    /// Hands memory the allocator holds free back to the system (glibc's `malloc_trim`), so that
    /// resident growth afterwards shows new allocations. Does nothing where it is unavailable.
    public static func releaseFreedMemory() {
        #if os(Linux)
        typealias Trim = @convention(c) (Int) -> Int32
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") {
            _ = unsafeBitCast(symbol, to: Trim.self)(0)
        }
        #endif
    }

    /// Makes the C allocator give freed memory back to the system as it goes, for a process whose
    /// resident memory should follow what it holds (a streaming import).
    ///
    /// glibc raises its mmap and trim thresholds as large blocks are freed, up to 32 MiB and 64 MiB, so
    /// that a tool which keeps allocating and freeing row buffers and growing tables keeps megabytes it
    /// no longer uses. Fixing both at 128 KiB (glibc's starting values) ends that: blocks past 128 KiB
    /// are mapped and unmapped, and a free top of the heap past 128 KiB is returned. On `seedstore
    /// import` of the 244,292 wells this took the peak from 62.5–66 MB to 61–64 MB at the same speed.
    /// Code that allocates large arrays afresh again and again pays for it (fetching 100,000 objects took
    /// 5–8% longer), and it is a process-wide choice: `seedstore import` makes it; a library leaves it to
    /// its app.
    /// Returns false where it is unavailable (not glibc).
    ///
    /// ```swift
    /// ProcessMemory.returnFreedMemoryPromptly()   // first thing in a streaming command
    /// ```
    @discardableResult
    public static func returnFreedMemoryPromptly() -> Bool {
        setAllocatorThresholds(trim: 128 << 10, mmap: 128 << 10)
    }

    /// Keeps the C allocator steady for a process that times repeated work (a benchmark): blocks up to
    /// 32 MiB (glibc's cap) come from the heap, and up to 1 GiB of free heap top is kept rather than
    /// handed back after each run.
    ///
    /// glibc starts both thresholds at 128 KiB and raises them as large blocks are freed, and it hands a
    /// free heap top past the trim threshold back: a run that then allocates as much again faults its pages
    /// in afresh. In `speed fetch`, one dictionary fetch in seven took 100 ms against 75 ms; a 64 MiB trim
    /// threshold still left it, 1 GiB ends it. Freed memory still goes back on ``releaseFreedMemory()``.
    /// Returns false where it is unavailable (not glibc).
    ///
    /// ```swift
    /// ProcessMemory.settleAllocator()   // first thing in a command that measures
    /// ```
    @discardableResult
    public static func settleAllocator() -> Bool {
        // 32 MiB is glibc's cap for the mmap threshold on 64-bit systems.
        setAllocatorThresholds(trim: 1 << 30, mmap: 32 << 20)
    }

    /// Fixes glibc's trim and mmap thresholds (which also stops their adjustment); false where `mallopt`
    /// is unavailable or refuses a value.
    private static func setAllocatorThresholds(trim: Int32, mmap: Int32) -> Bool {
        #if os(Linux)
        typealias Option = @convention(c) (Int32, Int32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return false }
        let mallopt = unsafeBitCast(symbol, to: Option.self)
        // M_TRIM_THRESHOLD is -1 and M_MMAP_THRESHOLD -3 in <malloc.h>; mallopt returns 1 on success.
        return mallopt(-1, trim) == 1 && mallopt(-3, mmap) == 1
        #else
        return false
        #endif
    }

    private static func field(_ name: String) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(name) {
            let digits = line.dropFirst(name.count).filter(\.isNumber)
            return Int(digits).map { $0 * 1024 }
        }
        return nil
    }

    /// A byte count as text (`12.3 MB`).
    public static func format(_ bytes: Int) -> String {
        let units = ["B", "KB", "MB", "GB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1000 && unit < units.count - 1 { value /= 1000; unit += 1 }
        return unit == 0 ? "\(bytes) B" : String(format: "%.1f %@", value, units[unit])
    }
}
