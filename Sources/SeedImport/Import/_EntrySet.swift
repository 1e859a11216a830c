/// A set of key entry numbers (dense, from 0) as one bit each: a file's worth of entries in a few
/// hundred kilobytes, where a dictionary took about 40 bytes an entry.
struct _EntrySet {
    private var words: [UInt64] = []
    /// Whether any entry was ever inserted (removing entries does not clear it).
    private(set) var isEmpty = true

    func contains(_ entry: Int) -> Bool {
        let word = entry >> 6
        return entry >= 0 && word < words.count && words[word] & (1 << UInt64(entry & 63)) != 0
    }

    mutating func insert(_ entry: Int) {
        guard entry >= 0 else { return }
        let word = entry >> 6
        if words.count <= word { words.append(contentsOf: repeatElement(0, count: word + 1 - words.count)) }
        words[word] |= 1 << UInt64(entry & 63)
        isEmpty = false
    }

    /// Removes `entry`; returns whether it was in the set.
    @discardableResult
    mutating func remove(_ entry: Int) -> Bool {
        guard contains(entry) else { return false }
        words[entry >> 6] &= ~(1 << UInt64(entry & 63))
        return true
    }
}
