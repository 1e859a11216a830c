import Foundation
import Testing
@testable import ManagedStore

/// Compiled predicates keep SQLite's indexes usable: checked with EXPLAIN QUERY PLAN.
@Suite struct PredicateSQLPlanTests {
    let fixture: SQLTestStore

    init() throws {
        let model = try ObjectModel([
            EntityDescription("Well", attributes: [
                Attribute("uwi", .string, indexed: true),
                Attribute("well_name", .string),
                Attribute("depth", .double, indexed: true),
                Attribute("spudded", .date, indexed: true),
            ], relationships: [Relationship("operator", to: "Operator", inverse: "wells")]),
            EntityDescription("Operator", attributes: [Attribute("name", .string)],
                              relationships: [Relationship("wells", to: "Well", inverse: "operator", toMany: true)]),
        ])
        fixture = try SQLTestStore(model: model)
        try fixture.store.createIndexes()
    }

    /// SQLite's plan for the fetch of `format` over Well.
    func plan(_ format: String, _ arguments: PredicateArgument...) throws -> String {
        let (sql, bindings) = try fixture.compile(FetchPredicate(format: format, arguments: arguments), "Well")
        return try fixture.store.connection.rows("EXPLAIN QUERY PLAN " + sql, bindings).map { $0[3].string ?? "" }.joined(separator: "\n")
    }

    /// Whether a plan searches `index` (plain or covering) with `constraint`, such as `ZUWI=?`.
    func searches(_ plan: String, _ index: String, _ constraint: String) -> Bool {
        plan.contains("SEARCH t0 USING INDEX \(index) (\(constraint))") || plan.contains("SEARCH t0 USING COVERING INDEX \(index) (\(constraint))")
    }

    @Test func equalityUsesTheIndex() throws {
        let text = try plan("uwi == %@", "100/01-02-003-04W5/00")
        #expect(searches(text, "ZWELL_ZUWI_INDEX", "ZUWI=?"), "\(text)")
        #expect(searches(try plan("%@ == uwi", "x"), "ZWELL_ZUWI_INDEX", "ZUWI=?"))
        #expect(searches(try plan("uwi IN %@", ["a", "b"]), "ZWELL_ZUWI_INDEX", "ZUWI=?"))
        #expect(searches(try plan("uwi == nil"), "ZWELL_ZUWI_INDEX", "ZUWI=?"))
    }

    @Test func rangesUseTheIndex() throws {
        #expect(searches(try plan("depth > 1000"), "ZWELL_ZDEPTH_INDEX", "ZDEPTH>?"))
        #expect(searches(try plan("depth BETWEEN {1000, 2000}"), "ZWELL_ZDEPTH_INDEX", "ZDEPTH>? AND ZDEPTH<?"))
        #expect(searches(try plan("spudded < %@", .date(Date())), "ZWELL_ZSPUDDED_INDEX", "ZSPUDDED<?"))
        #expect(searches(try plan("1000 < depth"), "ZWELL_ZDEPTH_INDEX", "ZDEPTH>?"))
    }

    @Test func foreignKeysUseTheirIndex() throws {
        #expect(searches(try plan("operator == 3"), "ZWELL_ZOPERATOR_INDEX", "ZOPERATOR=?"))
        let text = try plan("operator.name == 'Acme' AND uwi == 'x'")
        #expect(text.contains("USING INDEX ZWELL_ZUWI_INDEX"), "\(text)")
        #expect(text.contains("USING INTEGER PRIMARY KEY (rowid=?)"), "\(text)")
    }

    @Test func nullSafeEqualityCanUseTheIndexToo() throws {
        // `x IS ?` can use an index since SQLite 3.8.11; the compiler still writes `=` for a
        // non-null constant and keeps IS for `!=` (no index either way) and column pairs.
        let rows = try fixture.store.connection.rows("EXPLAIN QUERY PLAN SELECT t0.Z_PK FROM ZWELL t0 WHERE t0.ZUWI IS ?1", [.text("x")])
        #expect(searches(rows.map { $0[3].string ?? "" }.joined(), "ZWELL_ZUWI_INDEX", "ZUWI=?"))
    }

    @Test func functionsScan() throws {
        // Case-insensitive and pattern comparisons run SEEDSTORE_COMPARE on each row.
        #expect(try plan("uwi ==[c] 'x'").contains("SCAN t0"))
        #expect(try plan("uwi BEGINSWITH '100'").contains("SCAN t0"))
    }
}
