extension RandomAccessCollection {
    /// The first index whose element satisfies `belongs` (`endIndex` if none), in a collection where
    /// every element that does comes after every one that does not: a binary search.
    ///
    /// ```swift
    /// [1, 3, 3, 7]._partitionPoint { $0 >= 3 }   // 1
    /// ```
    @inline(__always)
    func _partitionPoint(where belongs: (Element) throws -> Bool) rethrows -> Index {
        var low = startIndex
        var count = self.count
        while count > 0 {
            let half = count / 2
            let middle = index(low, offsetBy: half)
            if try belongs(self[middle]) {
                count = half
            } else {
                low = index(after: middle)
                count -= half + 1
            }
        }
        return low
    }
}
