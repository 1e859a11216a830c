import Foundation
import Testing
@testable import ManagedStore

/// Key paths through to-one relationships, to-one relationships themselves and SELF, on the failed
/// banks store: the joins written, and the objects found.
@Suite struct PredicateSQLKeyPathTests {
    let fixture: SQLTestStore

    init() throws {
        fixture = try SQLTestStore.banks()
    }

    /// Names of the FailedBankInfo objects SQL finds (memory agreeing).
    func banks(_ format: String, _ arguments: PredicateArgument..., sourceLocation: SourceLocation = #_sourceLocation) throws -> Set<String> {
        let keys = try fixture.expectAgreement(FetchPredicate(format: format, arguments: arguments), "FailedBankInfo", sourceLocation: sourceLocation)
        let rows = try fixture.store.connection.rows("SELECT Z_PK, ZNAME FROM ZFAILEDBANKINFO")
        let names = Dictionary(uniqueKeysWithValues: rows.map { ($0[0].int64!, $0[1].string!) })
        return Set(keys.map { names[$0]! })
    }

    /// Zips of the FailedBankDetails objects SQL finds (nil as -1).
    func details(_ format: String, _ arguments: PredicateArgument..., sourceLocation: SourceLocation = #_sourceLocation) throws -> Set<Int64> {
        let keys = try fixture.expectAgreement(FetchPredicate(format: format, arguments: arguments), "FailedBankDetails", sourceLocation: sourceLocation)
        let rows = try fixture.store.connection.rows("SELECT Z_PK, ZZIP FROM ZFAILEDBANKDETAILS")
        let zips = Dictionary(uniqueKeysWithValues: rows.map { ($0[0].int64!, $0[1].int64 ?? -1) })
        return Set(keys.map { zips[$0]! })
    }

    func builder(_ entity: String) throws -> SQLQueryBuilder {
        SQLQueryBuilder(model: fixture.model, entity: try fixture.entity(entity))
    }

    func primaryKey(ofBank name: String) throws -> Int64 {
        try fixture.store.connection.scalar("SELECT Z_PK FROM ZFAILEDBANKINFO WHERE ZNAME = ?", [.text(name)])!.int64!
    }

    @Test func joinThroughToOne() throws {
        var builder = try builder("FailedBankInfo")
        let cutoff = SQLTestStore.day(9)
        let condition = try builder.condition(FetchPredicate(format: "details.closeDate > %@", .date(cutoff)))
        #expect(condition == "t1.ZCLOSEDATE > ?1")
        #expect(builder.fromClause == "ZFAILEDBANKINFO t0 LEFT OUTER JOIN ZFAILEDBANKDETAILS t1 ON t1.Z_PK = t0.ZDETAILS")
        #expect(builder.bindings == [.real(cutoff.timeIntervalSinceReferenceDate)])
        #expect(try banks("details.closeDate > %@", .date(cutoff)) == ["Signature Bank", "First Republic", "Citizens Bank", "Ünïcode Bank"])
        #expect(try banks("details.closeDate <= %@", .date(SQLTestStore.day(0))) == ["Almena State Bank", "Washington Mutual"])
    }

    @Test func joinFromTheOtherSide() throws {
        #expect(try details("info.name BEGINSWITH 'A'") == [67622])
        #expect(try details("info.name BEGINSWITH[c] 'b'") == [78516])
        #expect(try details("info.city ==[cd] 'alamo'") == [78516])
        #expect(try details("info.state == nil") == [67622, 12345], "no state, or no info at all")
    }

    @Test func joinsAreSharedByPrefix() throws {
        var builder = try builder("FailedBankInfo")
        let condition = try builder.condition(FetchPredicate(format: "details.zip > 0 AND details.closeDate != nil OR details.info.city == 'Almena'"))
        #expect(condition == "(t1.ZZIP > ?1 AND t1.ZCLOSEDATE IS NOT NULL) OR t2.ZCITY = ?2")
        #expect(builder.fromClause == "ZFAILEDBANKINFO t0 LEFT OUTER JOIN ZFAILEDBANKDETAILS t1 ON t1.Z_PK = t0.ZDETAILS"
                + " LEFT OUTER JOIN ZFAILEDBANKINFO t2 ON t2.Z_PK = t1.ZINFO")
        _ = try banks("details.zip > 0 AND details.closeDate != nil OR details.info.city == 'Almena'")
    }

    @Test func twoLevels() throws {
        var builder = try builder("FailedBankDetails")
        #expect(try builder.condition(FetchPredicate(format: "info.details.zip == 10022")) == "t2.ZZIP = ?1")
        #expect(builder.fromClause == "ZFAILEDBANKDETAILS t0 LEFT OUTER JOIN ZFAILEDBANKINFO t1 ON t1.Z_PK = t0.ZINFO"
                + " LEFT OUTER JOIN ZFAILEDBANKDETAILS t2 ON t2.Z_PK = t1.ZDETAILS")
        #expect(try details("info.details.zip == 10022") == [10022])
    }

    @Test func nilThroughToOne() throws {
        #expect(try banks("details.zip == nil") == ["Washington Mutual", "no details"])
        #expect(try banks("NOT details.zip == 10022").count == 9)
        #expect(try banks("details.updateDate == nil") == ["Silicon Valley Bank", "heartland bank", "no details"])
    }

    @Test func toOneRelationshipItself() throws {
        var builder = try builder("FailedBankInfo")
        #expect(try builder.condition(FetchPredicate(format: "details == nil")) == "t0.ZDETAILS IS NULL")
        #expect(builder.fromClause == "ZFAILEDBANKINFO t0", "the foreign key needs no join")
        #expect(try banks("details == nil") == ["no details"])
        #expect(try details("info == nil") == [12345])
        #expect(try details("info != nil").count == 9)
        let signatureDetails = try fixture.store.connection.scalar("SELECT ZDETAILS FROM ZFAILEDBANKINFO WHERE ZNAME = 'Signature Bank'")!.int64!
        #expect(try banks("details == %@", .int(signatureDetails)) == ["Signature Bank"])
        #expect(try banks("details IN %@", .array([.int(signatureDetails), 999])) == ["Signature Bank"])
    }

    @Test func evaluatedObject() throws {
        let key = try primaryKey(ofBank: "First Republic")
        var builder = try builder("FailedBankInfo")
        #expect(try builder.condition(FetchPredicate(format: "SELF == %@", .int(key))) == "t0.Z_PK = ?1")
        #expect(try banks("SELF == %@", .int(key)) == ["First Republic"])
        #expect(try banks("SELF IN %@", .array([.int(key), .int(try primaryKey(ofBank: "Citizens Bank"))])) == ["First Republic", "Citizens Bank"])
        #expect(try banks("SELF != %@ AND state == 'CA'", .int(key)) == ["Silicon Valley Bank"])
        #expect(try details("info.details == SELF").count == 9, "each details with an info is its info's details")
    }

    @Test func columnAgainstColumn() throws {
        #expect(try banks("city == state").isEmpty)
        #expect(try banks("city ==[c] name").isEmpty)
        #expect(try banks("name BEGINSWITH city") == ["Almena State Bank"])
        #expect(try details("closeDate < updateDate") == [10022, 94111, 78516, 67622, -1, 8001])
        #expect(try details("closeDate == updateDate") == [50583, 0], "two nils are equal, as in memory")
        #expect(try details("zip == closeDate").isEmpty)
        // Kinds that never compare: only two nils are equal.
        var builder = try builder("FailedBankDetails")
        #expect(try builder.condition(FetchPredicate(format: "info.name == zip")) == "(t1.ZNAME IS NULL AND t0.ZZIP IS NULL)")
        _ = try details("info.name == zip")
        _ = try details("info.name != zip")
    }

    @Test func columnForKeyPath() throws {
        var builder = try builder("FailedBankInfo")
        let zip = try builder.column(forKeyPath: "details.zip")
        #expect(zip.sql == "t1.ZZIP")
        #expect(zip.column.name == "zip")
        #expect(zip.entity.name == "FailedBankDetails")
        let details = try builder.column(forKeyPath: "details")
        #expect(details.sql == "t0.ZDETAILS")
        #expect(details.column.relationship?.name == "details")
        #expect(try builder.column(forKeyPath: "details.closeDate").sql == "t1.ZCLOSEDATE", "the join is reused")
        #expect(builder.fromClause == "ZFAILEDBANKINFO t0 LEFT OUTER JOIN ZFAILEDBANKDETAILS t1 ON t1.Z_PK = t0.ZDETAILS")
        #expect(throws: StoreError.self) { try builder.column(forKeyPath: "details.tags") }
    }

    @Test func wholeSelect() throws {
        var builder = try builder("FailedBankInfo")
        let zip = try builder.column(forKeyPath: "details.zip")
        let query = try builder.select(["t0.Z_PK", zip.sql], where: FetchPredicate(format: "state == %@", "CA"),
                                       orderBy: [FetchSort("details.closeDate", ascending: false)], limit: 1, offset: 1)
        #expect(query.sql == "SELECT t0.Z_PK, t1.ZZIP FROM ZFAILEDBANKINFO t0 LEFT OUTER JOIN ZFAILEDBANKDETAILS t1 ON t1.Z_PK = t0.ZDETAILS"
                + " WHERE t0.ZSTATE = ?1 ORDER BY t1.ZCLOSEDATE DESC, t0.Z_PK LIMIT ?2 OFFSET ?3")
        #expect(query.bindings == [.text("CA"), .integer(1), .integer(1)])
        let rows = try fixture.store.connection.rows(query.sql, query.bindings)
        #expect(rows.map { $0[1] } == [.integer(95054)], "First Republic closed later, so it is skipped")

        let distinct = try SQLQueryBuilder.select(["t0.ZSTATE"], from: try fixture.entity("FailedBankInfo"), in: fixture.model,
                                                  where: FetchPredicate(format: "state != nil"), distinct: true)
        #expect(distinct.sql == "SELECT DISTINCT t0.ZSTATE FROM ZFAILEDBANKINFO t0 WHERE t0.ZSTATE IS NOT NULL ORDER BY t0.ZSTATE")
        #expect(try fixture.store.connection.rows(distinct.sql, distinct.bindings).count == 8)

        let all = try SQLQueryBuilder.select(["count(*)"], from: try fixture.entity("Tag"), in: fixture.model, offset: 2)
        #expect(all.sql == "SELECT count(*) FROM ZTAG t0 ORDER BY t0.Z_PK LIMIT ?1 OFFSET ?2")
        #expect(all.bindings == [.integer(-1), .integer(2)])
    }

    @Test func havingNamesResultColumns() throws {
        var builder = try builder("FailedBankDetails")
        let state = try builder.column(forKeyPath: "info.state")
        let having = try builder.condition(FetchPredicate(format: "count > 1 AND state !=[c] 'ny'"),
                                           resultColumns: ["count": "count(t0.Z_PK)", "state": state.sql])
        #expect(having == "count(t0.Z_PK) > ?1 AND SEEDSTORE_COMPARE(t1.ZSTATE, '!=[c]', ?2)")
        let sql = "SELECT \(state.sql), count(t0.Z_PK) FROM \(builder.fromClause) GROUP BY \(state.sql) HAVING \(having)"
        let rows = try fixture.store.connection.rows(sql, builder.bindings)
        #expect(rows.map { $0[0] } == [.null, .text("CA")], "two details without a state (one without an info), two in CA")
        // Outside HAVING the names are keys again.
        #expect(throws: StoreError.self) { try builder.condition(FetchPredicate(format: "count > 1")) }
    }
}
