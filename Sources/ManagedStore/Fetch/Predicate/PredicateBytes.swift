/// String operators on UTF-8 bytes: how comparisons without `[c]` or `[d]` decide, in memory and
/// in `SEEDSTORE_COMPARE` alike, and what the SQL function's ASCII fast path for `[c]` and `[d]`
/// runs on folded bytes.
///
/// On valid UTF-8, bytes are Unicode scalars: byte order is scalar order (SQLite's `BINARY`), and
/// a run of bytes found in a string starts and ends on scalar boundaries. So `'Zoe\u{308}'`
/// begins with `'Zoe'` and contains `'e'`, and is not `'Zoë'` (U+00EB), as SQLite's `=`,
/// `instr` and `GLOB` see them; Swift's `String` operators would treat canonically equivalent
/// spellings as equal and match whole characters only.
///
/// For example:
///
/// ```swift
/// PredicateBytes.test(.beginsWith, "Zoe\u{308}", "Zoe")   // true
/// PredicateBytes.test(.equalTo, "Zoe\u{308}", "Zoë")      // false
/// ```
enum PredicateBytes {
    /// Whether `left op right` holds on the strings' UTF-8 bytes, or nil for an operator that
    /// is not a byte test (`LIKE`, `MATCHES`, `IN`, `BETWEEN`).
    static func test(_ op: ComparisonOperator, _ left: String, _ right: String) -> Bool? {
        var (left, right) = (left, right)
        return left.withUTF8 { left in right.withUTF8 { right in test(op, left, right) } }
    }

    /// Whether `left op right` holds on UTF-8 bytes, `left` lower-cased in ASCII first when
    /// `foldingASCIICase` (for a right side already folded so); nil for an operator that is not
    /// a byte test.
    static func test(
        _ op: ComparisonOperator, _ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>,
        foldingASCIICase fold: Bool = false
    ) -> Bool? {
        @inline(__always) func byte(_ i: Int) -> UInt8 { fold ? asciiLower(left[i]) : left[i] }
        let n = left.count, m = right.count
        switch op {
        case .equalTo, .notEqualTo, .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo:
            var order = n == m ? 0 : (n < m ? -1 : 1)
            for i in 0..<min(n, m) where byte(i) != right[i] {
                order = byte(i) < right[i] ? -1 : 1
                break
            }
            switch op {
            case .equalTo: return order == 0
            case .notEqualTo: return order != 0
            case .lessThan: return order < 0
            case .lessThanOrEqualTo: return order <= 0
            case .greaterThan: return order > 0
            default: return order >= 0
            }
        case .beginsWith:
            // Empty text is no prefix, suffix or part of anything, as in Foundation
            // (`hasPrefix("")` is false, `range(of: "")` finds nothing).
            guard m > 0, m <= n else { return false }
            for j in 0..<m where byte(j) != right[j] { return false }
            return true
        case .endsWith:
            guard m > 0, m <= n else { return false }
            for j in 0..<m where byte(n - m + j) != right[j] { return false }
            return true
        case .contains:
            guard m > 0, m <= n else { return false }
            let first = right[0]
            var start = 0
            outer: while start <= n - m {
                if byte(start) != first { start += 1; continue }
                for j in 1..<m where byte(start + j) != right[j] { start += 1; continue outer }
                return true
            }
            return false
        case .like, .matches, .in, .between:
            return nil
        }
    }

    /// An ASCII upper-case letter lower-cased; any other byte as it is.
    @inline(__always)
    static func asciiLower(_ byte: UInt8) -> UInt8 {
        byte &- 0x41 < 26 ? byte | 0x20 : byte
    }

    /// How many bytes the scalar whose UTF-8 starts with `lead` takes (1 for a stray
    /// continuation byte, which valid text never starts a scalar with).
    @inline(__always)
    static func scalarWidth(_ lead: UInt8) -> Int {
        lead < 0xC0 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
    }
}
