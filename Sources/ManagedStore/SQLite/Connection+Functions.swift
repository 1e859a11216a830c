import CSQLite
import Foundation

// SQL functions and collations that let fetches run predicates and sorts in SQLite with the
// predicate layer's own semantics.
//
// `SEEDSTORE_COMPARE(left, 'OP[flags]', right)` applies one comparison operator, written as the
// format syntax writes it (`'CONTAINS[cd]'`, `'LIKE'`, `'<[c]'`), through the code in-memory
// evaluation uses (`PredicateComparisonTest`, behind `ComparisonOperator.evaluate(_:_:options:)`),
// so SQL and memory agree by construction. It returns 1 or 0, never NULL. The operator and the
// right side are compiled once per call site and statement run (SQLite's auxiliary data), so a
// LIKE pattern or a regular expression is not rebuilt per row.
//
// Byte paths, exact by construction: without `[c]` or `[d]` the operators compare UTF-8 bytes
// (``PredicateBytes``, `LIKE` by scalars), so `==`, `!=`, `<`…, `CONTAINS`, `BEGINSWITH`, `ENDSWITH`
// and `LIKE` answer on SQLite's bytes for any text, without making Swift strings. With `[c]` or
// `[d]` they do so when the left string is ASCII (and holds no `\r\n`, which is one character) and
// the right side folds to ASCII. That rests on ASCII folding to lower case under `[c]` and staying
// as it is under `[d]` (a test checks every ASCII character), on ASCII characters being single
// bytes, and on ASCII strings having no other canonically equivalent spelling.
//
// `SEEDSTORE_NOCASE` orders strings as Foundation's `caseInsensitiveCompare(_:)` (Core Data's
// case-insensitive sort) does: by their `[c]` folding (Unicode case only, diacritics kept), in
// canonical decomposition, and strings that fold alike are equal (so a later sort key decides).
// `SEEDSTORE_NODIACRITIC` does the same with the `[d]` folding and `SEEDSTORE_NOCASE_NODIACRITIC`
// with `[cd]`. They order as `<[c]`, `<[d]` and `<[cd]` compare (``PredicateConstant/collationKey(_:_:)``).
// `SEEDSTORE_LOCALIZED` orders them as people expect in lists (`localizedStandardCompare(_:)`,
// which forces an order on strings that differ): by their `[cd]` folding with runs of digits
// compared by value (`file2` before `file10`), ties broken by the `[c]` folding (diacritics), then by
// the bytes. ``SeedStoreCollation`` gives the same orders in Swift, for sorting in memory.
//
// This file is the one place the SQLite layer reaches up into the predicate layer: SQLite calls
// C functions, so the semantics must be registered where the handle is.

extension Connection {
    /// The names of the SQL functions and collations ``registerSeedStoreFunctions()`` adds.
    public enum SeedStoreSQL {
        /// `SEEDSTORE_COMPARE(left, 'CONTAINS[cd]', right)`: 1 when the comparison holds, else 0.
        public static let compare = "SEEDSTORE_COMPARE"
        /// Unicode case-insensitive order, diacritics kept (`FetchSort.Comparison.caseInsensitive`).
        public static let caseInsensitive = "SEEDSTORE_NOCASE"
        /// Diacritic-insensitive order, case kept (`FetchSort.Comparison.diacriticInsensitive`).
        public static let diacriticInsensitive = "SEEDSTORE_NODIACRITIC"
        /// Case- and diacritic-insensitive order (`FetchSort.Comparison.caseDiacriticInsensitive`).
        public static let caseDiacriticInsensitive = "SEEDSTORE_NOCASE_NODIACRITIC"
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
        // Collations first: the function is what `hasSeedStoreFunctions` looks for. Each collation
        // owns a cache of folded strings (a sort compares each string many times).
        for (name, collation, foldings) in [
            (SeedStoreSQL.caseInsensitive, _foldedCollation, [ComparisonOptions.caseInsensitive]),
            (SeedStoreSQL.diacriticInsensitive, _foldedCollation, [.diacriticInsensitive]),
            (SeedStoreSQL.caseDiacriticInsensitive, _foldedCollation, [[.caseInsensitive, .diacriticInsensitive]]),
            (SeedStoreSQL.localized, _localizedCollation, [[.caseInsensitive, .diacriticInsensitive], .caseInsensitive]),
        ] {
            let keys = Unmanaged.passRetained(_CollationKeys(foldings)).toOpaque()
            guard sqlite3_create_collation_v2(handle, name, SQLITE_UTF8, keys, collation, _releaseBox) == SQLITE_OK else {
                Unmanaged<_CollationKeys>.fromOpaque(keys).release()
                return
            }
        }
        sqlite3_create_function_v2(handle, SeedStoreSQL.compare, 3, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil,
                                   _compareFunction, nil, nil, nil)
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

/// The orders of SeedStore's collations, in Swift: sorting in memory (unsaved objects, say)
/// agrees with `ORDER BY … COLLATE SEEDSTORE_NOCASE` and `SEEDSTORE_LOCALIZED`.
///
/// For example:
///
/// ```swift
/// SeedStoreCollation.order("file2", "file10", .localized)   // -1
/// ```
enum SeedStoreCollation {
    /// -1, 0 or 1, as SQLite orders the two strings under the collation for `comparison`.
    static func order(_ a: String, _ b: String, _ comparison: FetchSort.Comparison) -> Int {
        var a = a, b = b
        return a.withUTF8 { x in
            b.withUTF8 { y in
                switch comparison {
                case .binary: Int(_binaryOrder(x, y))
                case .caseInsensitive: Int(_foldedOrder(x, y, _CollationKeys.uncached([.caseInsensitive])))
                case .diacriticInsensitive: Int(_foldedOrder(x, y, _CollationKeys.uncached([.diacriticInsensitive])))
                case .caseDiacriticInsensitive: Int(_foldedOrder(x, y, _CollationKeys.uncached([[.caseInsensitive, .diacriticInsensitive]])))
                case .localized: Int(_localizedOrder(x, y, _CollationKeys.uncached([[.caseInsensitive, .diacriticInsensitive], .caseInsensitive])))
                }
            }
        }
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
    /// Without `[c]` or `[d]`: the byte paths answer for any text.
    let comparesBytes: Bool
    let foldsCase: Bool
    /// The right string's bytes for `==`, `<`…, `CONTAINS`, `BEGINSWITH`, `ENDSWITH`: as written
    /// without options; with them, folded as the operator folds it when that is ASCII (and, for
    /// the substring operators, holds no CR or LF, which could split the one character `\r\n`).
    let rightBytes: [UInt8]?
    /// A LIKE pattern on bytes: any pattern without options, one whose literals fold to single
    /// ASCII characters with them.
    let bytePattern: PredicateLikePattern?

    init(op: ComparisonOperator, options: ComparisonOptions, right: PredicateConstant) throws {
        self.test = try PredicateComparisonTest(op, options, right)
        self.op = op
        let options = options.stringOptions
        self.comparesBytes = options.isEmpty
        self.foldsCase = options.contains(.caseInsensitive)
        var rightBytes: [UInt8]?
        var bytePattern: PredicateLikePattern?
        if case .string(let string) = right {
            switch op {
            case .equalTo, .notEqualTo, .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo,
                 .contains, .beginsWith, .endsWith:
                let substring = op == .contains || op == .beginsWith || op == .endsWith
                let folded = Array(options.fold(string).utf8)
                if options.isEmpty || folded.allSatisfy({ $0 < 0x80 && !(substring && ($0 == 0x0A || $0 == 0x0D)) }) {
                    rightBytes = folded
                }
            case .like:
                bytePattern = PredicateLikePattern(asciiFolding: string, options: options)
            default:
                break
            }
        }
        self.rightBytes = rightBytes
        self.bytePattern = bytePattern
    }

    /// Whether a byte path may answer.
    var hasBytePath: Bool { rightBytes != nil || bytePattern != nil }

    /// The answer for a left string, or nil when no byte path applies.
    @inline(__always)
    func byteMatch(_ left: UnsafeBufferPointer<UInt8>) -> Bool? {
        if !comparesBytes {
            // Folded: exact on bytes for ASCII text without `\r\n`.
            var previous: UInt8 = 0
            for byte in left {
                if byte >= 0x80 || (byte == 0x0A && previous == 0x0D) { return nil }
                previous = byte
            }
        }
        if let pattern = bytePattern { return pattern.matches(utf8: left) }
        guard let right = rightBytes else { return nil }
        return right.withUnsafeBufferPointer { right in PredicateBytes.test(op, left, right, foldingASCIICase: foldsCase) }
    }
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

private let _compareFunction: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = {
    context, count, arguments in
    guard let arguments, count == 3 else { return _fail(context, "\(Connection.SeedStoreSQL.compare) takes 3 arguments") }
    // The operator, parsed once per call site.
    let compareOperator: _CompareOperator
    if let cached = sqlite3_get_auxdata(context, 1) {
        compareOperator = Unmanaged<_CompareOperator>.fromOpaque(cached).takeUnretainedValue()
    } else {
        guard sqlite3_value_type(arguments[1]) == SQLITE_TEXT, let text = sqlite3_value_text(arguments[1]),
              let parsed = _CompareOperator(String(cString: text)) else {
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
    if test.hasBytePath, sqlite3_value_type(left) == SQLITE_TEXT {
        let bytes = sqlite3_value_text(left)
        if let answer = test.byteMatch(UnsafeBufferPointer(start: bytes, count: Int(sqlite3_value_bytes(left)))) {
            return sqlite3_result_int(context, answer ? 1 : 0)
        }
    }
    sqlite3_result_int(context, test.test.matches(_constant(left)) ? 1 : 0)
}

// MARK: - Collations

/// Folded forms of strings (``PredicateConstant/collationKey(_:_:)``), one per folding: cached, since a
/// sort compares each string about log₂(n) times and folding is the expensive part.
final class _CollationKeys: @unchecked Sendable {
    private let foldings: [ComparisonOptions]
    /// Whether the first folding folds case: ASCII then compares lower-cased, else as it is.
    let foldsCase: Bool
    private let caches: Bool
    private var cache: [[UInt8]: [[UInt32]]] = [:]
    private let lock = NSLock()

    init(_ foldings: [ComparisonOptions], caches: Bool = true) {
        self.foldings = foldings
        self.foldsCase = foldings.first?.contains(.caseInsensitive) ?? false
        self.caches = caches
    }

    static func uncached(_ foldings: [ComparisonOptions]) -> _CollationKeys { _CollationKeys(foldings, caches: false) }

    func keys(_ bytes: UnsafeBufferPointer<UInt8>) -> [[UInt32]] {
        if _isASCII(bytes) {
            // ASCII folds to lower case under `[c]` and stays as it is under `[d]`: no need for
            // Foundation, or the cache.
            let lowered = bytes.map { UInt32(PredicateBytes.asciiLower($0)) }
            return foldings.map { $0.contains(.caseInsensitive) ? lowered : bytes.map { UInt32($0) } }
        }
        let fold = { (string: String) in self.foldings.map { PredicateConstant.collationKey(string, $0) } }
        guard caches else { return fold(String(decoding: bytes, as: UTF8.self)) }
        let key = Array(bytes)
        lock.lock()
        defer { lock.unlock() }
        if let keys = cache[key] { return keys }
        let keys = fold(String(decoding: bytes, as: UTF8.self))
        if cache.count >= 20_000 { cache.removeAll(keepingCapacity: true) }
        cache[key] = keys
        return keys
    }
}

private func _buffer(_ pointer: UnsafeRawPointer?, _ count: Int32) -> UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(start: pointer?.assumingMemoryBound(to: UInt8.self), count: Int(count))
}

@inline(__always)
private func _isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    for byte in bytes where byte >= 0x80 { return false }
    return true
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

/// The order of `[c]`, `[d]` or `[cd]` (the keys' one folding): folded keys compared by scalars,
/// equal keys equal, as `<[c]` and Foundation's `caseInsensitiveCompare(_:)` have it.
private func _foldedOrder(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>, _ keys: _CollationKeys) -> Int32 {
    if _isASCII(a) && _isASCII(b) {
        // ASCII folds to lower case under `[c]`, to itself under `[d]`: compare the folded bytes.
        guard keys.foldsCase else { return _binaryOrder(a, b) }
        for (x, y) in zip(a, b) {
            let (fx, fy) = (PredicateBytes.asciiLower(x), PredicateBytes.asciiLower(y))
            if fx != fy { return fx < fy ? -1 : 1 }
        }
        return a.count == b.count ? 0 : (a.count < b.count ? -1 : 1)
    }
    let (fa, fb) = (keys.keys(a)[0], keys.keys(b)[0])
    if fa == fb { return 0 }
    return fa.lexicographicallyPrecedes(fb) ? -1 : 1
}

private func _localizedOrder(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>, _ keys: _CollationKeys) -> Int32 {
    if _isASCII(a) && _isASCII(b) {
        // ASCII folds to lower case under [c] and [cd] alike: one natural comparison settles both.
        let order = _naturalOrder(a.lazy.map { UInt32(PredicateBytes.asciiLower($0)) }, b.lazy.map { UInt32(PredicateBytes.asciiLower($0)) })
        return order != 0 ? order : _binaryOrder(a, b)
    }
    let (ka, kb) = (keys.keys(a), keys.keys(b))
    for (x, y) in zip(ka, kb) {
        let order = _naturalOrder(x, y)
        if order != 0 { return order }
    }
    return _binaryOrder(a, b)
}

private let _foldedCollation: @convention(c) (UnsafeMutableRawPointer?, Int32, UnsafeRawPointer?, Int32, UnsafeRawPointer?) -> Int32 = {
    keys, count1, pointer1, count2, pointer2 in
    _foldedOrder(_buffer(pointer1, count1), _buffer(pointer2, count2),
                          Unmanaged<_CollationKeys>.fromOpaque(keys!).takeUnretainedValue())
}

private let _localizedCollation: @convention(c) (UnsafeMutableRawPointer?, Int32, UnsafeRawPointer?, Int32, UnsafeRawPointer?) -> Int32 = {
    keys, count1, pointer1, count2, pointer2 in
    _localizedOrder(_buffer(pointer1, count1), _buffer(pointer2, count2),
                    Unmanaged<_CollationKeys>.fromOpaque(keys!).takeUnretainedValue())
}

/// Compares two sequences of scalars with runs of ASCII digits compared by their value
/// (`2 < 10`, `02 == 2`); anything else compares by scalar value, a run of digits as `0` would.
///
/// It is a lexicographic order on the runs, so a total order: SQLite's sorter and indexes need
/// one. (Foundation's `compare(_:options: [.caseInsensitive, .numeric])`, which it agrees with on
/// ASCII text, is not one on Linux: with `ﬁ` or `İ` it can say both `a < b` and `b < a`.)
private func _naturalOrder<A: RandomAccessCollection, B: RandomAccessCollection>(_ a: A, _ b: B) -> Int32
    where A.Element == UInt32, B.Element == UInt32, A.Index == Int, B.Index == Int {
    @inline(__always) func isDigit(_ scalar: UInt32) -> Bool { scalar &- 0x30 < 10 }
    var i = a.startIndex, j = b.startIndex
    while i < a.endIndex && j < b.endIndex {
        let x = a[i], y = b[j]
        if isDigit(x) && isDigit(y) {
            var i0 = i, j0 = j
            while i0 < a.endIndex && a[i0] == 0x30 { i0 += 1 }
            while j0 < b.endIndex && b[j0] == 0x30 { j0 += 1 }
            var i1 = i0, j1 = j0
            while i1 < a.endIndex && isDigit(a[i1]) { i1 += 1 }
            while j1 < b.endIndex && isDigit(b[j1]) { j1 += 1 }
            if i1 - i0 != j1 - j0 { return i1 - i0 < j1 - j0 ? -1 : 1 }
            for k in 0..<(i1 - i0) where a[i0 + k] != b[j0 + k] { return a[i0 + k] < b[j0 + k] ? -1 : 1 }
            (i, j) = (i1, j1)
        } else {
            let kx = isDigit(x) ? 0x30 : x, ky = isDigit(y) ? 0x30 : y
            if kx != ky { return kx < ky ? -1 : 1 }
            (i, j) = (i + 1, j + 1)
        }
    }
    if i < a.endIndex { return 1 }
    if j < b.endIndex { return -1 }
    return 0
}
