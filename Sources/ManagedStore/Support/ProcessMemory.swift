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
