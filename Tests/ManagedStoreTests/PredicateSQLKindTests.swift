import Foundation
import Testing
@testable import ManagedStore

/// An attribute compared with a constant of a kind it never compares with (`cert == '15741'` on an
/// Integer 32): refused when the predicate is compiled, naming the entity, the attribute and its
/// type, the value and its kind, and how to write it; comparisons of kinds that do compare still run.
@Suite struct PredicateSQLKindTests {
    let tasks: SQLTestStore
    let banks: SQLTestStore

    init() throws {
        tasks = try SQLTestStore.tasks()
        banks = try SQLTestStore.banks()
    }

    /// The refusal compiling `format` on `entity` throws: its entity, property and reason.
    func refusal(_ fixture: SQLTestStore, _ entity: String, _ format: String, _ arguments: PredicateArgument...,
                 sourceLocation: SourceLocation = #_sourceLocation) throws -> (entity: String, property: String, reason: String)? {
        let predicate = try FetchPredicate(format: format, arguments: arguments)
        do {
            _ = try fixture.compile(predicate, entity)
            Issue.record("\(entity) where \(format) compiled", sourceLocation: sourceLocation)
        } catch let error as StoreError {
            guard case .invalidProperty(let entity, let property, let reason) = error else {
                Issue.record("\(entity) where \(format): \(error)", sourceLocation: sourceLocation)
                return nil
            }
            return (entity, property, reason)
        }
        return nil
    }

    // MARK: The reported cases

    @Test func aQuotedNumberForAnIntegerSaysToDropTheQuotes() throws {
        let refused = try refusal(banks, "FailedBankDetails", "zip == '10022'")
        #expect(refused?.entity == "FailedBankDetails" && refused?.property == "zip")
        let reason = refused?.reason ?? ""
        #expect(reason.contains("an Integer 32 attribute") && reason.contains("\"10022\", a string"), "names the types: \(reason)")
        #expect(reason.hasSuffix("write the number without quotes: zip == 10022"), "says how: \(reason)")
        // The fetch refuses it too, rather than finding nothing.
        var request = FetchRequest(entityName: "FailedBankDetails")
        request.predicate = try FetchPredicate(format: "zip == '10022'")
        #expect(throws: StoreError.self) { try banks.context.fetch(request) }
        #expect(throws: StoreError.self) { try banks.context.count(for: request) }
        #expect(throws: StoreError.self) { try banks.context.explain(request) }
        request.predicate = try FetchPredicate(format: "zip == 10022")
        #expect(try banks.context.count(for: request) == 1)
    }

    /// A library trial found `dept == %@` with a department's name finding nothing without a word: a
    /// to-one relationship holds the destination's key, never text.
    @Test func aToOneComparedWithTextOrAnotherKindSaysToCompareAnAttributeOfIt() throws {
        for format in ["details == 'Signature'", "'Signature' == details", "details != 'x'", "details IN {'a', 'b'}",
                       "details == 2.5", "details == YES", "info.details == 'x'"] {
            let entity = format.hasPrefix("info.") ? "FailedBankDetails" : "FailedBankInfo"
            let refused = try refusal(banks, entity, format)
            #expect(refused?.entity == entity, "\(format)")
            #expect(refused?.property == (format.hasPrefix("info.") ? "info.details" : "details"), "\(format)")
            let reason = refused?.reason ?? ""
            #expect(reason.contains("the to-one relationship") && reason.contains("FailedBankDetails"), "\(format): \(reason)")
            #expect(reason.contains("details.zip =="), "says how: \(reason)")
        }
        var request = FetchRequest(entityName: "FailedBankInfo")
        request.predicate = try FetchPredicate(format: "details == %@", "Signature Bank")
        #expect(throws: StoreError.self) { try banks.context.fetch(request) }
        // nil and a primary key still compare.
        request.predicate = try FetchPredicate(format: "details == nil")
        #expect(try banks.context.count(for: request) == 1)
        request.predicate = try FetchPredicate(format: "details == 1 OR details IN {2, 3}")
        #expect(try banks.context.count(for: request) == 3)
    }

    @Test func aDateWrittenAsTextSaysHowToWriteADate() throws {
        let refused = try refusal(banks, "FailedBankDetails", "closeDate > '2010-01-01'")
        #expect(refused?.property == "closeDate")
        let reason = refused?.reason ?? ""
        #expect(reason.contains("a Date attribute") && reason.contains("\"2010-01-01\", a string"), "\(reason)")
        #expect(reason.contains("closeDate > CAST(283996800, \"NSDate\") (2010-01-01T00:00:00Z)"), "the date as the parser reads one: \(reason)")
        // The predicate form leads; the form for predicates made in code follows, briefly.
        #expect(reason.hasSuffix("(2010-01-01T00:00:00Z); in code, a Date argument for %@ also works"), "\(reason)")
        #expect(!reason.contains("from Swift"), "\(reason)")
        // The suggestion is a predicate that runs, and means the date asked for.
        let suggested = try FetchPredicate(format: "closeDate > CAST(283996800, \"NSDate\")")
        #expect(suggested == (try FetchPredicate(format: "closeDate > %@", .date(ISO8601DateFormatter().date(from: "2010-01-01T00:00:00Z")!))))
        _ = try banks.expectAgreement(suggested, "FailedBankDetails")

        // Through a relationship, with a time; and a text that is no date gets the general form.
        let deep = try refusal(banks, "FailedBankInfo", "details.closeDate >= '2010-01-01T12:30:00Z'")
        #expect(deep?.entity == "FailedBankInfo" && deep?.property == "details.closeDate")
        #expect(deep?.reason.contains("a Date attribute of FailedBankDetails") == true, "\(deep?.reason ?? "")")
        #expect(deep?.reason.contains("details.closeDate >= CAST(284041800, \"NSDate\")") == true, "\(deep?.reason ?? "")")
        for text in ["yesterday", "2010-02-30"] {
            let vague = try refusal(banks, "FailedBankDetails", "closeDate < '\(text)'")
            #expect(vague?.reason.contains("write a date as CAST(<seconds since 2001-01-01 00:00:00 UTC>, \"NSDate\"), such as") == true,
                    "\(vague?.reason ?? "")")
            #expect(vague?.reason.hasSuffix("or now() for the current date; in code, a Date argument for %@ also works") == true,
                    "\(vague?.reason ?? "")")
        }
    }

    @Test func aNumberForAStringSaysToQuoteIt() throws {
        let refused = try refusal(banks, "FailedBankInfo", "name == 5")
        #expect(refused?.entity == "FailedBankInfo" && refused?.property == "name")
        let reason = refused?.reason ?? ""
        #expect(reason.contains("a String attribute") && reason.contains("5, an integer"), "\(reason)")
        #expect(reason.hasSuffix("write the text in quotes: name == '5'"), "\(reason)")
    }

    // MARK: Every place a constant meets an attribute

    @Test func everyOperatorAndPlaceIsChecked() throws {
        let cases: [(SQLTestStore, String, String, property: String, advice: String)] = [
            (tasks, "Task", "priority != '1'", "priority", "priority != 1"),
            (tasks, "Task", "'1' < priority", "priority", "1 < priority"),
            (tasks, "Task", "priority BETWEEN {1, '4'}", "priority", "priority BETWEEN {1, 4}"),
            // Every bound that converts, not only the first refused (a user trial's second bound stayed text).
            (tasks, "Task", "priority BETWEEN {'1', '4'}", "priority", "priority BETWEEN {1, 4}"),
            (banks, "FailedBankDetails", "closeDate BETWEEN {'2010-01-01', '2011-01-01'}", "closeDate",
             "closeDate BETWEEN {CAST(283996800, \"NSDate\"), CAST(315532800, \"NSDate\")}"),
            // Thousands grouped with commas: the number, not its first group.
            (tasks, "Task", "priority == '1,000'", "priority", "priority == 1000"),
            (tasks, "Task", "priority IN {1, 'one', nil}", "priority", "compare it with a number"),
            (tasks, "Task", "{1, '2'} CONTAINS priority", "priority", "{1, 2} CONTAINS priority"),
            (tasks, "Task", "ANY {1, '2'} == priority", "priority", "ANY {1, 2} == priority"),
            (tasks, "Task", "priority == {1, 2}", "priority", "priority IN {1, 2}"),
            (tasks, "Task", "completed == 'YES'", "completed", "write YES or NO without quotes: completed == YES"),
            (tasks, "Task", "task_description == 2.5", "task_description", "task_description == '2.5'"),
            (tasks, "Task", "task_description == YES", "task_description", "task_description == 'YES'"),
            (banks, "FailedBankDetails", "closeDate == YES", "closeDate", "CAST(<seconds since 2001-01-01"),
            (banks, "FailedBankDetails", "ANY tags.name == 2008", "tags.name", "ANY tags.name == '2008'"),
            (banks, "FailedBankDetails", "tags.name CONTAINS 2008", "tags.name", "tags.name CONTAINS '2008'"),
            (banks, "FailedBankDetails", "2008 IN tags.name", "tags.name", "'2008' IN tags.name"),
            (banks, "Tag", "ALL bankdetails.zip > '5'", "bankdetails.zip", "ALL bankdetails.zip > 5"),
            (banks, "FailedBankDetails", "SUBQUERY(tags, $t, $t.name == 1).@count > 0", "name", "$t.name == '1'"),
        ]
        for (fixture, entity, format, property, advice) in cases {
            let refused = try refusal(fixture, entity, format)
            #expect(refused?.property == property, "\(format): \(String(describing: refused))")
            #expect(refused?.reason.contains(advice) == true, "\(format): \(refused?.reason ?? "")")
        }
    }

    @Test func textOperatorsNeedTextOnBothSides() throws {
        let zip = try refusal(banks, "FailedBankDetails", "zip BEGINSWITH '9'")
        #expect(zip?.reason.contains("applies BEGINSWITH, which tests text, to an Integer 32 attribute") == true, "\(zip?.reason ?? "")")
        #expect(zip?.reason.hasSuffix("compare Integer 32 values with ==, !=, <, <=, >, >=, BETWEEN or IN") == true, "\(zip?.reason ?? "")")
        for format in ["priority CONTAINS '1'", "priority LIKE '1*'", "completed MATCHES 'Y.*'"] {
            let refused = try refusal(tasks, "Task", format)
            #expect(refused?.reason.contains("which tests text") == true, "\(format): \(refused?.reason ?? "")")
        }
        let number = try refusal(tasks, "Task", "task_description ENDSWITH 5")
        #expect(number?.reason.contains("5, an integer, which is not text") == true, "\(number?.reason ?? "")")
        #expect(number?.reason.hasSuffix("write the text in quotes: task_description ENDSWITH '5'") == true, "\(number?.reason ?? "")")
        let left = try refusal(tasks, "Task", "5 CONTAINS task_description")
        #expect(left?.reason.hasSuffix("write the text in quotes: '5' CONTAINS task_description") == true, "\(left?.reason ?? "")")
        let any = try refusal(banks, "FailedBankDetails", "ANY tags.name BEGINSWITH 2")
        #expect(any?.property == "tags.name", "\(String(describing: any))")
    }

    @Test func uuidAndBinaryAttributesNameTheirCast() throws {
        let model = try ObjectModel([EntityDescription("Item", attributes: [
            Attribute("id", .uuid), Attribute("blob", .binary), Attribute("link", .uri),
        ])])
        let fixture = try SQLTestStore(model: model)
        let uuid = "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"
        let id = try refusal(fixture, "Item", "id == '\(uuid)'")
        #expect(id?.reason.contains("a UUID attribute") == true && id?.reason.hasSuffix("id == CAST('\(uuid)', \"NSUUID\")") == true,
                "\(id?.reason ?? "")")
        let blob = try refusal(fixture, "Item", "blob == 'AQID'")
        #expect(blob?.reason.hasSuffix("CAST('<base64>', \"NSData\"); in code, a Data argument for %@ also works") == true,
                "\(blob?.reason ?? "")")
        let notUUID = try refusal(fixture, "Item", "id == 'x'")
        #expect(notUUID?.reason.hasSuffix("CAST('<uuid>', \"NSUUID\"); in code, a UUID argument for %@ also works") == true,
                "\(notUUID?.reason ?? "")")
        // Written the way the message says, they compile; a URI compares as text.
        _ = try fixture.compile(FetchPredicate(format: "id == CAST('\(uuid)', \"NSUUID\") AND blob == CAST('AQID', \"NSData\")"), "Item")
        _ = try fixture.compile(FetchPredicate(format: "link BEGINSWITH 'https:'"), "Item")
    }

    // MARK: What still runs

    @Test func kindsThatCompareStillRun() throws {
        let valid: [(SQLTestStore, String, String)] = [
            (tasks, "Task", "priority == 1.0"), (tasks, "Task", "priority < 2.5"), (tasks, "Task", "completed == 1"),
            (tasks, "Task", "completed == 2"), (tasks, "Task", "priority == nil"), (tasks, "Task", "priority < nil"),
            (tasks, "Task", "priority IN {1, 3.0, nil}"), (tasks, "Task", "priority IN {}"), (tasks, "Task", "priority BETWEEN {1, nil}"),
            (tasks, "Task", "'the bank' CONTAINS task_description"), (tasks, "Task", "task_description CONTAINS nil"),
            (tasks, "Task", "priority == %@"), (tasks, "Task", "SELF == 3"), (tasks, "Task", "priority == 1e999"),
            (banks, "FailedBankDetails", "zip == YES"), (banks, "FailedBankDetails", "closeDate > 300000000"),
            (banks, "FailedBankDetails", "closeDate > CAST(300000000, 'NSDate')"), (banks, "FailedBankDetails", "zip == closeDate"),
            (banks, "FailedBankDetails", "info.name == zip"), (banks, "FailedBankDetails", "ANY tags.name IN {'big', 'Zoë'}"),
            (banks, "FailedBankDetails", "tags CONTAINS 1"), (banks, "FailedBankDetails", "tags.@count > 1"),
            (banks, "FailedBankInfo", "details.zip < 50000"), (banks, "FailedBankInfo", "details == nil"),
        ]
        for (fixture, entity, format) in valid {
            let predicate = format.contains("%@") ? try FetchPredicate(format: format, arguments: [.double(.nan)])
                : try FetchPredicate(format: format)
            try fixture.expectAgreement(predicate, entity)
        }
        // Columns of kinds that never compare are still settled in SQL, as memory settles them.
        #expect(try tasks.condition("task_description == priority", in: "Task") == "(t0.ZTASK_DESCRIPTION IS NULL AND t0.ZPRIORITY IS NULL)")
        // A HAVING predicate's aggregate names have no attribute type to check.
        var builder = SQLQueryBuilder(model: banks.model, entity: try banks.entity("FailedBankInfo"))
        #expect(try builder.condition(FetchPredicate(format: "n > '1'"), resultColumns: ["n": "count(*)"]) == "count(*) > ?1")
    }

    @Test func inMemoryEvaluationKeepsNSPredicatesAnswer() throws {
        // Only compiling for a fetch refuses: evaluating values in memory still says false (true for !=).
        let task: [String: PredicateValue] = ["priority": .scalar(.int(1))]
        #expect(try FetchPredicate(format: "priority == '1'").evaluate(with: task) == false)
        #expect(try FetchPredicate(format: "priority != '1'").evaluate(with: task) == true)
        #expect(try tasks.memoryKeys(FetchPredicate(format: "priority == '1'"), "Task").isEmpty)
    }
}
