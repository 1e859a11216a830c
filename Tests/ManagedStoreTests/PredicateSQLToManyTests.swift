import Foundation
import Testing
@testable import ManagedStore

/// To-many key paths: ANY/ALL/NONE, membership, collection operators and SUBQUERY, as correlated
/// subqueries, on the failed banks store (one-to-many through a join table both ways, and through
/// a to-one first).
@Suite struct PredicateSQLToManyTests {
    let fixture: SQLTestStore

    init() throws {
        fixture = try SQLTestStore.banks()
    }

    func keys(_ entity: String, _ nameColumn: String) throws -> [Int64: String] {
        let rows = try fixture.store.connection.rows("SELECT Z_PK, \(nameColumn) FROM Z\(entity.uppercased())")
        return Dictionary(uniqueKeysWithValues: rows.map { ($0[0].int64!, $0[1].string ?? $0[1].int64.map(String.init) ?? "nil") })
    }

    /// Zips (as text, "nil" for none) of the details SQL finds, memory agreeing unless `memory` is false.
    func details(_ format: String, _ arguments: PredicateArgument..., memory: Bool = true,
                 sourceLocation: SourceLocation = #_sourceLocation) throws -> Set<String> {
        let predicate = try FetchPredicate(format: format, arguments: arguments)
        let found = memory ? try fixture.expectAgreement(predicate, "FailedBankDetails", sourceLocation: sourceLocation)
            : try fixture.sqlKeys(predicate, "FailedBankDetails")
        let zips = try keys("FailedBankDetails", "ZZIP")
        return Set(found.map { zips[$0]! })
    }

    /// Names of the tags SQL finds.
    func tags(_ format: String, _ arguments: PredicateArgument..., memory: Bool = true,
              sourceLocation: SourceLocation = #_sourceLocation) throws -> Set<String> {
        let predicate = try FetchPredicate(format: format, arguments: arguments)
        let found = memory ? try fixture.expectAgreement(predicate, "Tag", sourceLocation: sourceLocation)
            : try fixture.sqlKeys(predicate, "Tag")
        let names = try keys("Tag", "ZNAME")
        return Set(found.map { names[$0]! })
    }

    func banks(_ format: String, _ arguments: PredicateArgument..., memory: Bool = true,
               sourceLocation: SourceLocation = #_sourceLocation) throws -> Set<String> {
        let predicate = try FetchPredicate(format: format, arguments: arguments)
        let found = memory ? try fixture.expectAgreement(predicate, "FailedBankInfo", sourceLocation: sourceLocation)
            : try fixture.sqlKeys(predicate, "FailedBankInfo")
        let names = try keys("FailedBankInfo", "ZNAME")
        return Set(found.map { names[$0]! })
    }

    func sql(_ format: String, _ arguments: PredicateArgument..., in entity: String) throws -> (condition: String, from: String) {
        var builder = SQLQueryBuilder(model: fixture.model, entity: try fixture.entity(entity))
        let condition = try builder.condition(FetchPredicate(format: format, arguments: arguments))
        return (condition, builder.fromClause)
    }

    // MARK: ANY, ALL, NONE

    @Test func anyAllNone() throws {
        #expect(try sql("ANY tags.name == 'crisis'", in: "FailedBankDetails").condition
                == "EXISTS (SELECT 1 FROM Z_1TAGS t1 JOIN ZTAG t2 ON t2.Z_PK = t1.Z_3TAGS WHERE t1.Z_1BANKDETAILS = t0.Z_PK AND t2.ZNAME = ?1)")
        #expect(try details("ANY tags.name == 'crisis'") == ["10022", "95054", "78516", "50583"])
        #expect(try details("ANY tags.name ==[c] 'crisis'") == ["10022", "95054", "78516", "50583", "12345"])
        #expect(try details("SOME tags.name BEGINSWITH '2'") == ["94111", "67622", "12345"])

        #expect(try sql("ALL tags.name BEGINSWITH[c] 'c'", in: "FailedBankDetails").condition
                == "NOT (EXISTS (SELECT 1 FROM Z_1TAGS t1 JOIN ZTAG t2 ON t2.Z_PK = t1.Z_3TAGS WHERE t1.Z_1BANKDETAILS = t0.Z_PK"
                + " AND NOT (SEEDSTORE_COMPARE(t2.ZNAME, 'BEGINSWITH[c]', ?1))))")
        // ALL holds for details without tags, as in memory.
        #expect(try details("ALL tags.name BEGINSWITH[c] 'c'") == ["50583", "0", "nil", "8001"])
        #expect(try details("ALL tags.name != 'crisis'") == ["94111", "67622", "12345", "0", "nil", "8001"])
        #expect(try details("NONE tags.name == 'big'") == ["94111", "78516", "50583", "12345", "0", "nil", "8001"])
        #expect(try details("NOT ANY tags.name == 'big'") == (try details("NONE tags.name == 'big'")))
    }

    @Test func allCountsNullAsFalse() throws {
        // A NULL comparison inside ALL must count as false, not vanish: every tag has a name, so
        // compare something that can be NULL through the other side.
        #expect(try tags("ALL bankdetails.closeDate > %@", .date(SQLTestStore.day(5))) == ["crisis", "Crisis", "Zoë", "unused"])
        #expect(try tags("ALL bankdetails.updateDate > %@", .date(SQLTestStore.day(5))) == ["unused"],
                "a nil updateDate is not after anything")
        #expect(try tags("ANY bankdetails.updateDate == nil") == ["crisis", "Crisis", "big", "2008", "Zoë"])
    }

    @Test func throughToOneThenToMany() throws {
        let (condition, from) = try sql("ANY details.tags.name == 'Zoë'", in: "FailedBankInfo")
        #expect(condition == "EXISTS (SELECT 1 FROM Z_1TAGS t1 JOIN ZTAG t2 ON t2.Z_PK = t1.Z_3TAGS WHERE t1.Z_1BANKDETAILS = t0.ZDETAILS AND t2.ZNAME = ?1)")
        #expect(from == "ZFAILEDBANKINFO t0", "the to-one's foreign key links the subquery: no join")
        #expect(try banks("ANY details.tags.name == 'Zoë'") == ["Banco Zoë"])
        #expect(try banks("details.tags.@count == 0") == ["heartland bank", "Washington Mutual", "no details", "Ünïcode Bank"])
        #expect(try banks("ALL details.tags.name == 'crisis'") == ["Citizens Bank", "heartland bank", "Washington Mutual", "no details", "Ünïcode Bank"])
    }

    @Test func toManyThenToOne() throws {
        #expect(try tags("ANY bankdetails.info.state == 'CA'") == ["crisis", "Crisis", "big", "2008"])
        #expect(try tags("ANY bankdetails.info == nil") == ["Crisis", "2008", "Zoë"])
        #expect(try tags("ALL bankdetails.info.city != nil") == ["crisis", "big", "unused"])
    }

    @Test func toManyChains() throws {
        // Details sharing a tag with the details at zip 12345.
        let (condition, _) = try sql("ANY tags.bankdetails.zip == 12345", in: "FailedBankDetails")
        #expect(condition == "EXISTS (SELECT 1 FROM Z_1TAGS t1 JOIN Z_1TAGS t2 ON t2.Z_3TAGS = t1.Z_3TAGS JOIN ZFAILEDBANKDETAILS t3"
                + " ON t3.Z_PK = t2.Z_1BANKDETAILS WHERE t1.Z_1BANKDETAILS = t0.Z_PK AND t3.ZZIP = ?1)")
        #expect(try details("ANY tags.bankdetails.zip == 12345") == ["95054", "94111", "78516", "67622", "12345"])
        #expect(try details("tags.bankdetails.@count > 5") == ["10022", "95054", "78516", "67622", "12345"])
    }

    // MARK: Membership

    @Test func membership() throws {
        let big = try fixture.store.connection.scalar("SELECT Z_PK FROM ZTAG WHERE ZNAME = 'big'")!.int64!
        #expect(try sql("tags CONTAINS %@", .int(big), in: "FailedBankDetails").condition
                == "EXISTS (SELECT 1 FROM Z_1TAGS t1 WHERE t1.Z_1BANKDETAILS = t0.Z_PK AND t1.Z_3TAGS = ?1)")
        #expect(try details("tags CONTAINS %@", .int(big)) == ["10022", "95054", "67622"])
        #expect(try details("%@ IN tags", .int(big)) == ["10022", "95054", "67622"])
        #expect(try details("'big' IN tags.name") == ["10022", "95054", "67622"])
        #expect(try details("tags.name CONTAINS[c] 'CRISIS'") == ["10022", "95054", "78516", "50583", "12345"])
        #expect(try details("NOT ('big' IN tags.name)").count == 7)
    }

    // MARK: Collection operators

    @Test func count() throws {
        #expect(try sql("tags.@count > 2", in: "FailedBankDetails").condition
                == "(SELECT count(*) FROM Z_1TAGS t1 WHERE t1.Z_1BANKDETAILS = t0.Z_PK) > ?1")
        #expect(try details("tags.@count > 2") == ["95054", "12345"])
        #expect(try details("tags.@count == 0") == ["0", "nil", "8001"])
        #expect(try tags("bankdetails.@count >= 3") == ["crisis", "big", "2008"])
        #expect(try tags("2 < bankdetails.@count") == ["crisis", "big", "2008"])
        #expect(try tags("bankdetails.@count == 0") == ["unused"])
    }

    /// An iOS engineer's check: `tags[size]` failed where Apple's `array[SIZE]`, a keyword in any
    /// case, is the number of elements.
    @Test func sizeIndexCountsAsAtCountDoes() throws {
        for spelling in ["SIZE", "size", "Size"] {
            #expect(try sql("tags[\(spelling)] > 2", in: "FailedBankDetails").condition
                    == "(SELECT count(*) FROM Z_1TAGS t1 WHERE t1.Z_1BANKDETAILS = t0.Z_PK) > ?1")
            #expect(try details("tags[\(spelling)] > 2") == ["95054", "12345"])
            #expect(try banks("details.tags[\(spelling)] == 0") == ["heartland bank", "Washington Mutual", "no details", "Ünïcode Bank"])
        }
    }

    @Test func sumAverageMinimumMaximum() throws {
        #expect(try sql("bankdetails.@sum.zip > 100000", in: "Tag").condition
                == "(SELECT coalesce(sum(t2.ZZIP), 0) FROM Z_1TAGS t1 JOIN ZFAILEDBANKDETAILS t2 ON t2.Z_PK = t1.Z_1BANKDETAILS"
                + " WHERE t1.Z_3TAGS = t0.Z_PK) > ?1")
        #expect(try tags("bankdetails.@sum.zip > 100000") == ["crisis", "Crisis", "2008", "big"])
        #expect(try tags("bankdetails.@sum.zip == 0") == ["unused"])
        #expect(try tags("bankdetails.@avg.zip > 55000") == ["crisis", "2008", "big"])
        #expect(try tags("bankdetails.@avg.zip == nil") == ["unused"])
        #expect(try tags("bankdetails.@min.closeDate < %@", .date(SQLTestStore.day(0))) == ["2008", "big"])
        #expect(try tags("bankdetails.@max.zip >= 95054") == ["crisis", "Crisis", "big"])
        #expect(try details("tags.@max.name == 'big'") == ["67622"])
        #expect(try details("tags.@min.name ==[c] 'CRISIS'") == ["95054", "50583"])
        #expect(try banks("details.tags.@count > 1 AND details.zip > 50000") == ["Silicon Valley Bank", "Banco Zoë", "Almena State Bank"])
    }

    // MARK: SUBQUERY

    /// Tags and the zips of their details, for hand-made expectations.
    func tagDetails() throws -> [(tag: String, zips: [Int64?], states: [String?], tagsOfDetails: [[String]])] {
        let reader = ManagedObjectContext(store: fixture.store)
        return try reader.fetchAll("Tag").map { tag in
            let details = try tag.objects(forKey: "bankdetails")
            return (tag["name"].description, details.map { $0.get("zip") }, try details.map { try $0.object(forKey: "info")?.get("state") },
                    try details.map { try $0.objects(forKey: "tags").map { $0["name"].description } })
        }
    }

    @Test func subquery() throws {
        let (condition, _) = try sql("SUBQUERY(tags, $t, $t.name BEGINSWITH[c] 'c' AND $t.name != 'crisis').@count > 0", in: "FailedBankDetails")
        #expect(condition == "(SELECT count(*) FROM Z_1TAGS t1 JOIN ZTAG t2 ON t2.Z_PK = t1.Z_3TAGS WHERE t1.Z_1BANKDETAILS = t0.Z_PK"
                + " AND SEEDSTORE_COMPARE(t2.ZNAME, 'BEGINSWITH[c]', ?1) AND t2.ZNAME IS NOT ?2) > ?3")
        #expect(try details("SUBQUERY(tags, $t, $t.name BEGINSWITH[c] 'c' AND $t.name != 'crisis').@count > 0", memory: false)
                == ["95054", "12345"])

        let all = try tagDetails()
        func expected(_ keep: ((tag: String, zips: [Int64?], states: [String?], tagsOfDetails: [[String]])) -> Bool) -> Set<String> {
            Set(all.filter(keep).map(\.tag))
        }
        // Through a to-one of the destination.
        #expect(try tags("SUBQUERY(bankdetails, $d, $d.zip > 50000 AND $d.info.state == 'CA').@count >= 1", memory: false)
                == expected { t in zip(t.zips, t.states).contains { ($0.0 ?? 0) > 50000 && $0.1 == "CA" } })
        #expect(try tags("SUBQUERY(bankdetails, $d, $d.zip > 50000).@count == 2", memory: false)
                == expected { t in t.zips.filter { ($0 ?? 0) > 50000 }.count == 2 })
        // Nested.
        #expect(try tags("SUBQUERY(bankdetails, $d, SUBQUERY($d.tags, $t, $t.name == 'big').@count > 0).@count > 0", memory: false)
                == expected { t in t.tagsOfDetails.contains { $0.contains("big") } })
        // ANY on the variable's own to-many.
        #expect(try tags("SUBQUERY(bankdetails, $d, ANY $d.tags.name == 'Zoë').@count > 0", memory: false)
                == expected { t in t.tagsOfDetails.contains { $0.contains("Zoë") } })
        // A bare key path inside the SUBQUERY is still the evaluated object's.
        #expect(try details("SUBQUERY(tags, $t, $t.name == 'crisis' AND zip > 60000).@count > 0", memory: false) == ["95054", "78516"])
        // A collection operator after the SUBQUERY applies to its elements.
        #expect(try tags("SUBQUERY(bankdetails, $d, $d.info != nil).@max.zip > 90000", memory: false) == ["crisis", "Crisis", "big", "2008"])
        // SUBQUERY over values.
        #expect(try details("SUBQUERY(tags.name, $n, $n BEGINSWITH 'Z').@count == 1", memory: false) == ["78516", "12345"])
    }

    @Test func aliasesNeverCollide() throws {
        let (condition, from) = try sql("""
            info.state == 'CA' AND SUBQUERY(tags, $t, $t.name == 'x' AND ANY $t.bankdetails.info.city == 'y').@count > 0 \
            AND ANY tags.bankdetails.info.name == info.name AND info.city != nil
            """, in: "FailedBankDetails")
        let text = from + " WHERE " + condition
        let declared = text.matches(of: /\bZ[A-Z0-9_]+ (t\d+)\b/).map { String($0.output.1) }
        #expect(declared.count == Set(declared).count, "\(text)")
        #expect(declared.first == "t0")
        #expect(from == "ZFAILEDBANKDETAILS t0 LEFT OUTER JOIN ZFAILEDBANKINFO t1 ON t1.Z_PK = t0.ZINFO")
        _ = try details("info.state == 'CA' AND ANY tags.bankdetails.info.name == info.name AND info.city != nil")
    }
}
