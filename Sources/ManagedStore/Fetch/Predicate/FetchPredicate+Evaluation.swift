// In-memory evaluation, for objects that are not in the store yet.
//
// Semantics, chosen to agree with what the SQL compiler should generate:
// - `nil == nil` is true; `nil != 5` is true (compile `!=` as SQLite's
//   null-safe `IS NOT`); an ordering or string operator with nil is false.
// - Integers, doubles and Booleans (as 0 and 1) compare numerically across
//   kinds; a date compares by time, and with a number as seconds since
//   2001-01-01 (Core Data's storage); values of other different kinds are
//   unequal and unordered.
// - Strings without `[c]` or `[d]` compare by UTF-8 bytes, as SQLite's
//   `BINARY` does (`PredicateBytes`): they order by Unicode scalar value,
//   `'Zoe\u{308}' == 'Zoë'` is false, and `CONTAINS`, `BEGINSWITH` and
//   `ENDSWITH` find runs of bytes, so `'Zoe\u{308}' BEGINSWITH 'Zoe'` is true
//   (SQLite's `instr` finds them too); an empty needle is always found.
//   `[n]` changes nothing.
// - `[c]` folds case and `[d]` diacritics with Foundation's
//   `folding(options:locale:)`, locale-free, on both sides, and the folded
//   strings compare as characters (canonically equivalent spellings are
//   equal): `'Zoë' CONTAINS 'zoe'` is false, `'Zoë' CONTAINS[cd] 'zoe'` true.
// - `LIKE`: `*` any run, `?` one unit, `\` escapes; `%` and `_` are
//   ordinary. The whole string must match. Without options the units are
//   scalars (`'Zoe\u{308}' LIKE 'Zoe?'`), with them folded characters.
// - `MATCHES`: an ICU regular expression (NSRegularExpression) that must
//   match the whole string; `.` is one scalar, literals match scalars.
// - `IN`: membership in the right collection; nil on the right is false;
//   a single value on the right throws, a string too (`IN 3` is a mistake
//   for `== 3`; `'text' CONTAINS x` tests for a part of a text).
//   `CONTAINS` with a left collection is membership of the right value.
// - `BETWEEN {lo, hi}` is inclusive at both ends.
// - `ANY`/`ALL` range over the left value's elements (a null left value has
//   none: `ANY` is false, `ALL` true); a single non-nil value on the left
//   throws, as NSPredicate's "must be either an NSArray or NSSet"; without a
//   modifier a to-many value is compared as one array (in SQL it is refused,
//   as Core Data's SQLite store refuses it: "to-many key not allowed here").
// - `now()` is the current date, one instant per evaluation (a fetch fixes
//   it once for its SQL and its unsaved objects).
// - `@count` counts elements; `@sum` adds non-null numbers (0 when empty);
//   `@avg`, `@min`, `@max` skip nulls and give nil when nothing is left.
// - `SUBQUERY` needs the objects behind the key paths: a context's fetch
//   evaluates it over its objects (the variable bound to each element, bare
//   key paths still starting at the evaluated object, as in SQL); through
//   the public resolver of key paths alone it throws
//   `PredicateEvaluationError.unsupported`. An unbound `$VARIABLE` throws
//   `.unboundVariable`.

extension FetchPredicate {
    /// Evaluates the predicate in memory, asking `resolve` for the value of
    /// each key path it meets.
    ///
    /// `resolve` receives key path components from the evaluated object
    /// (`[]` for `SELF`) and returns one value, or a collection for a
    /// to-many path (one value per related object along the path). For
    /// `employees.@sum.salary` it is asked for `["employees", "salary"]`,
    /// for `employees.@count` for `["employees"]`.
    ///
    /// For example:
    ///
    /// ```swift
    /// let p = try FetchPredicate(format: "ANY employees.firstName LIKE 'Matt*' AND budget > 1000")
    /// let matches = try p.evaluate { keyPath in
    ///     switch keyPath {
    ///     case ["employees", "firstName"]: return ["Ben", "Matthew"]
    ///     case ["budget"]: return 5000
    ///     default: return nil
    ///     }
    /// }
    /// // matches == true
    /// ```
    ///
    /// - Throws: ``PredicateEvaluationError`` for what cannot be evaluated in
    ///   memory from key paths alone (`SUBQUERY`, which needs the objects a
    ///   context's fetch evaluates it over; an unbound variable; an invalid
    ///   regular expression; `BETWEEN` without two bounds), and whatever
    ///   `resolve` throws.
    public func evaluate(_ resolve: (_ keyPath: [String]) throws -> PredicateValue) throws -> Bool {
        try withoutActuallyEscaping(resolve) { resolve in
            try PredicateEvaluator(resolve: resolve).evaluate(self)
        }
    }

    /// Evaluates the predicate against values keyed by dotted key path
    /// (`"employees.firstName"`; `"SELF"` for the object itself). A missing
    /// key is nil.
    ///
    /// For example:
    ///
    /// ```swift
    /// let task: [String: PredicateValue] = ["priority": 1, "completed": false]
    /// try FetchPredicate(format: "priority == 1 AND completed == NO").evaluate(with: task)   // true
    /// ```
    ///
    /// - Throws: ``PredicateEvaluationError``.
    public func evaluate(with values: [String: PredicateValue]) throws -> Bool {
        try evaluate { keyPath in
            values[keyPath.isEmpty ? "SELF" : keyPath.joined(separator: ".")] ?? .scalar(.null)
        }
    }

    /// Evaluates the predicate over objects: key paths from the evaluated object through `resolve`,
    /// and `SUBQUERY` over the objects `graph` gives.
    func evaluate(_ resolve: (_ keyPath: [String]) throws -> PredicateValue, graph: PredicateObjectGraph) throws -> Bool {
        try withoutActuallyEscaping(resolve) { resolve in
            try PredicateEvaluator(resolve: resolve, graph: graph).evaluate(self)
        }
    }
}
