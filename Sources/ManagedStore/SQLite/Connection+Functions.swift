import CSQLite
import Foundation

// SQL functions and collations that let fetches run predicates and sorts in SQLite with the
// predicate layer's own semantics.
//
// `SEEDSTORE_COMPARE(left, 'OP[flags]', right)` applies one comparison operator, written as the
// format syntax writes it (`'CONTAINS[cd]'`, `'LIKE'`, `'<[c]'`), through the same code in-memory
// evaluation uses (`PredicateComparisonTest`, behind `ComparisonOperator.evaluate(_:_:options:)`),
// so SQL and memory agree by construction. It returns 1 or 0, never NULL. The operator and the
// right side are compiled once per call site and statement run (SQLite's auxiliary data), so a
// LIKE pattern or a regular expression is not rebuilt per row; and when both strings are ASCII,
// `CONTAINS`, `BEGINSWITH`, `ENDSWITH`, `==` and `!=` work on the bytes without making Swift
// strings (ASCII folds to lower case under `[c]` and is unchanged by `[d]`; a test checks that).
//
// `SEEDSTORE_NOCASE` orders strings by their `[cd]` folding (Unicode case and diacritics), ties
// broken by the bytes; `SEEDSTORE_LOCALIZED` orders them as people expect in lists:
// case-insensitive with runs of digits compared by value (`file2` before `file10`), ties broken
// by the bytes.
//
// This file is the one place the SQLite layer reaches up into the predicate layer: SQLite calls
// C functions, so the semantics must be registered where the handle is.

extension Connection {
    /// The names of the SQL functions and collations ``registerSeedStoreFunctions()`` adds.
    public enum SeedStoreSQL {
        /// `SEEDSTORE_COMPARE(left, 'CONTAINS[cd]', right)`: 1 when the comparison holds, else 0.
        public static let compare = "SEEDSTORE_COMPARE"
        /// Unicode case- and diacritic-insensitive order (`FetchSort.Comparison.caseInsensitive`).
        public static let caseInsensitive = "SEEDSTORE_NOCASE"
        /// Case-insensitive order with numbers compared by value (`FetchSort.Comparison.localized`).
        public static let localized = "SEEDSTORE_LOCALIZED"
    }

    /// Adds SeedStore's SQL function and collations to this connection, once.
    ///
    /// SQL that ``SQLQueryBuilder`` writes needs them; a store calls this when it opens. Calling
    /// it again does nothing (it does not re-register, which would expire every cached statement).
    /// Registering fails only when SQLite is out of memory; SQL that needs the function then fails
    /// with "no such function: SEEDSTORE_COMPARE".
    ///
    /// For example:
    ///
    /// ```swift
    /// connection.registerSeedStoreFunctions()
    /// try connection.rows("SELECT ZNAME FROM ZTAG ORDER BY ZNAME COLLATE SEEDSTORE_NOCASE")
    /// ```
    ///
    /// See <https://www.sqlite.org/c3ref/create_function.html> and
    /// <https://www.sqlite.org/c3ref/create_collation.html>.
    public func registerSeedStoreFunctions() {
        if hasSeedStoreFunctions { return }
        // Collations first: the function is what `hasSeedStoreFunctions` looks for.
        guard sqlite3_create_collation_v2(handle, SeedStoreSQL.caseInsensitive, SQLITE_UTF8, nil,
                                          _seedStoreCaseInsensitiveCollation, nil) == SQLITE_OK,
              sqlite3_create_collation_v2(handle, SeedStoreSQL.localized, SQLITE_UTF8, nil,
                                          _seedStoreLocalizedCollation, nil) == SQLITE_OK else { return }
        sqlite3_create_function_v2(handle, SeedStoreSQL.compare, 3, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil,
                                   _seedStoreCompareFunction, nil, nil, nil)
    }

    /// Whether ``registerSeedStoreFunctions()`` already ran on this connection: compiles (and
    /// throws away) a statement that calls the function.
    var hasSeedStoreFunctions: Bool {
        var statement: OpaquePointer?
        let rc = sqlite3_prepare_v2(handle, "SELECT \(SeedStoreSQL.compare)(NULL, '==', NULL)", -1, &statement, nil)
        sqlite3_finalize(statement)
        return rc == SQLITE_OK
    }
}

// MARK: - SEEDSTORE_COMPARE

/// The operator of one call site, parsed from its text (`'CONTAINS[cd]'`) once per statement run.
private final class _CompareOperator {
    let op: ComparisonOperator
    let options: ComparisonOptions

    init?(_ text: String) {
        let parts = text.split(separator: "[", maxSplits: 1)
        guard let first = parts.first, let op = ComparisonOperator(rawValue: String(first)) else { return nil }
        var options: ComparisonOptions = []
        if parts.count == 2 {
            for flag in parts[1] {
                switch flag {
                case "c": options.insert(.caseInsensitive)
                case "d": options.insert(.diacriticInsensitive)
                case "n": options.insert(.normalized)
                case "]": break
                default: return nil
                }
            }
        }
        self.op = op
        self.options = options
    }
}

/// One comparison with its right side compiled, cached on the right argument.
private final class _CompareTest {
    let test: PredicateComparisonTest
    let op: ComparisonOperator
    /// The right string's bytes, lower-cased under `[c]`, when the byte fast path is exact for it:
    /// it is ASCII and, for the substring operators, holds no CR or LF (which could split the one
    /// character `\r\n` of the left string).
    let asciiRight: [UInt8]?
    let foldsCase: Bool

    init(op: ComparisonOperator, options: ComparisonOptions, right: PredicateConstant) throws {
        self.test = try PredicateComparisonTest(op, options, right)
        self.op = op
        self.foldsCase = options.contains(.caseInsensitive)
        var asciiRight: [UInt8]?
        if case .string(let string) = right {
            switch op {
            case .contains, .beginsWith, .endsWith, .equalTo, .notEqualTo:
                let bytes = Array(string.utf8)
                let substring = op != .equalTo && op != .notEqualTo
                if bytes.allSatisfy({ $0 < 0x80 && !(substring && ($0 == 0x0A || $0 == 0x0D)) }) {
                    asciiRight = foldsCase ? bytes.map(_asciiLower) : bytes
                }
            default:
                break
            }
        }
        self.asciiRight = asciiRight
    }

    /// The answer for a left string of ASCII bytes, or nil when the fast path does not apply.
    @inline(__always)
    func asciiMatch(_ left: UnsafeBufferPointer<UInt8>) -> Bool? {
        guard let right = asciiRight else { return nil }
        for byte in left where byte >= 0x80 { return nil }
        let fold = foldsCase
        @inline(__always) func same(_ i: Int, _ j: Int) -> Bool {
            fold ? _asciiLower(left[i]) == right[j] : left[i] == right[j]
        }
        let n = left.count, m = right.count
        switch op {
        case .equalTo, .notEqualTo:
            var equal = n == m
            if equal { for i in 0..<n where !same(i, i) { equal = false; break } }
            return op == .equalTo ? equal : !equal
        case .beginsWith:
            guard m <= n else { return false }
            for j in 0..<m where !same(j, j) { return false }
            return true
        case .endsWith:
            guard m <= n else { return false }
            for j in 0..<m where !same(n - m + j, j) { return false }
            return true
        case .contains:
            guard m > 0 else { return true }
            guard m <= n else { return false }
            outer: for start in 0...(n - m) {
                for j in 0..<m where !same(start + j, j) { continue outer }
                return true
            }
            return false
        default:
            return nil
        }
    }
}

@inline(__always)
private func _asciiLower(_ byte: UInt8) -> UInt8 {
    byte &- 0x41 < 26 ? byte | 0x20 : byte
}

/// Releases an object passed to SQLite with `Unmanaged.passRetained`.
private let _releaseBox: @convention(c) (UnsafeMutableRawPointer?) -> Void = { pointer in
    guard let pointer else { return }
    Unmanaged<AnyObject>.fromOpaque(pointer).release()
}

/// A function argument as a predicate constant, by its storage class.
private func _constant(_ value: OpaquePointer?) -> PredicateConstant {
    switch sqlite3_value_type(value) {
    case SQLITE_INTEGER:
        return .int(sqlite3_value_int64(value))
    case SQLITE_FLOAT:
        return .double(sqlite3_value_double(value))
    case SQLITE_TEXT:
        let bytes = sqlite3_value_text(value)
        let count = Int(sqlite3_value_bytes(value))
        return .string(String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self))
    case SQLITE_BLOB:
        let count = Int(sqlite3_value_bytes(value))
        guard count > 0, let bytes = sqlite3_value_blob(value) else { return .data(Data()) }
        return .data(Data(bytes: bytes, count: count))
    default:
        return .null
    }
}

private func _fail(_ context: OpaquePointer?, _ message: String) {
    sqlite3_result_error(context, message, -1)
}

private let _seedStoreCompareFunction: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = {
    context, count, arguments in
    guard let arguments, count == 3 else { return _fail(context, "\(Connection.SeedStoreSQL.compare) takes 3 arguments") }
    // The operator, parsed once per call site.
    let compareOperator: _CompareOperator
    if let cached = sqlite3_get_auxdata(context, 1) {
        compareOperator = Unmanaged<_CompareOperator>.fromOpaque(cached).takeUnretainedValue()
    } else {
        guard sqlite3_value_type(arguments[1]) == SQLITE_TEXT,
              let parsed = _CompareOperator(String(cString: sqlite3_value_text(arguments[1]))) else {
            return _fail(context, "\(Connection.SeedStoreSQL.compare): the second argument must name an operator, such as 'CONTAINS[cd]'")
        }
        compareOperator = parsed
        sqlite3_set_auxdata(context, 1, Unmanaged.passRetained(parsed).toOpaque(), _releaseBox)
    }
    // The right side, compiled once while it stays the same value (a bound parameter does).
    let test: _CompareTest
    if let cached = sqlite3_get_auxdata(context, 2) {
        test = Unmanaged<_CompareTest>.fromOpaque(cached).takeUnretainedValue()
    } else {
        do {
            test = try _CompareTest(op: compareOperator.op, options: compareOperator.options, right: _constant(arguments[2]))
        } catch {
            return _fail(context, "\(error)")
        }
        sqlite3_set_auxdata(context, 2, Unmanaged.passRetained(test).toOpaque(), _releaseBox)
    }
    let left = arguments[0]
    if test.asciiRight != nil, sqlite3_value_type(left) == SQLITE_TEXT {
        let bytes = sqlite3_value_text(left)
        let buffer = UnsafeBufferPointer(start: bytes, count: Int(sqlite3_value_bytes(left)))
        if let answer = test.asciiMatch(buffer) {
            return sqlite3_result_int(context, answer ? 1 : 0)
        }
    }
    sqlite3_result_int(context, test.test.matches(_constant(left)) ? 1 : 0)
}

// MARK: - Collations

private func _buffer(_ pointer: UnsafeRawPointer?, _ count: Int32) -> UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(start: pointer?.assumingMemoryBound(to: UInt8.self), count: Int(count))
}

/// Byte order (SQLite's BINARY): the tie-breaker of both collations.
private func _binaryOrder(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int32 {
    let common = min(a.count, b.count)
    if common > 0, let pa = a.baseAddress, let pb = b.baseAddress {
        let order = memcmp(pa, pb, common)
        if order != 0 { return order < 0 ? -1 : 1 }
    }
    return a.count == b.count ? 0 : (a.count < b.count ? -1 : 1)
}

private let _seedStoreCaseInsensitiveCollation: @convention(c) (UnsafeMutableRawPointer?, Int32, UnsafeRawPointer?, Int32, UnsafeRawPointer?) -> Int32 = {
    _, count1, pointer1, count2, pointer2 in
    let a = _buffer(pointer1, count1), b = _buffer(pointer2, count2)
    if a.allSatisfy({ $0 < 0x80 }) && b.allSatisfy({ $0 < 0x80 }) {
        // ASCII folds to lower case: compare the folded bytes (what the general path computes).
        for (x, y) in zip(a, b) {
            let (fx, fy) = (_asciiLower(x), _asciiLower(y))
            if fx != fy { return fx < fy ? -1 : 1 }
        }
        if a.count != b.count { return a.count < b.count ? -1 : 1 }
        return _binaryOrder(a, b)
    }
    let fold = ComparisonOptions([.caseInsensitive, .diacriticInsensitive])
    let fa = fold.fold(String(decoding: a, as: UTF8.self)).unicodeScalars
    let fb = fold.fold(String(decoding: b, as: UTF8.self)).unicodeScalars
    if fa.elementsEqual(fb) { return _binaryOrder(a, b) }
    return fa.lexicographicallyPrecedes(fb) ? -1 : 1
}

private let _seedStoreLocalizedCollation: @convention(c) (UnsafeMutableRawPointer?, Int32, UnsafeRawPointer?, Int32, UnsafeRawPointer?) -> Int32 = {
    _, count1, pointer1, count2, pointer2 in
    let a = _buffer(pointer1, count1), b = _buffer(pointer2, count2)
    let sa = String(decoding: a, as: UTF8.self), sb = String(decoding: b, as: UTF8.self)
    switch sa.compare(sb, options: [.caseInsensitive, .numeric]) {
    case .orderedAscending: return -1
    case .orderedDescending: return 1
    case .orderedSame: return _binaryOrder(a, b)
    }
}
