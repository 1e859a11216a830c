import Foundation
import Testing
@testable import ManagedStore

/// Every comparison operator and modifier compiled to SQL, on the Tasks store: the SQL text, and
/// the objects found, checked by hand and against in-memory evaluation.
@Suite struct PredicateSQLOperatorTests {
    let fixture: SQLTestStore

    init() throws {
        fixture = try SQLTestStore.tasks()
    }

    /// The descriptions of the tasks SQL finds (and memory agrees on).
    func found(_ format: String, _ arguments: PredicateArgument..., sourceLocation: SourceLocation = #_sourceLocation) throws -> Set<String> {
        let predicate = try FetchPredicate(format: format, arguments: arguments)
        let keys = try fixture.expectAgreement(predicate, "Task", sourceLocation: sourceLocation)
        let rows = try fixture.store.connection.rows("SELECT Z_PK, ZTASK_DESCRIPTION FROM ZTASK")
        let byKey = Dictionary(uniqueKeysWithValues: rows.map { ($0[0].int64!, $0[1].string!) })
        return Set(keys.map { byKey[$0]! })
    }

    func sql(_ format: String, _ arguments: PredicateArgument...) throws -> String {
        var builder = SQLQueryBuilder(model: fixture.model, entity: try fixture.entity("Task"))
        return try builder.condition(FetchPredicate(format: format, arguments: arguments))
    }

    // MARK: The seed document's filters

    @Test func seedFilters() throws {
        #expect(try sql("priority == %@", 1) == "t0.ZPRIORITY = ?1")
        #expect(try sql("completed == %@", false) == "t0.ZCOMPLETED = ?1")
        #expect(try sql("task_description CONTAINS[cd] %@", "bank") == "SEEDSTORE_COMPARE(t0.ZTASK_DESCRIPTION, 'CONTAINS[cd]', ?1)")
        #expect(try sql("completed == %@ AND priority == %@ AND task_description CONTAINS[cd] %@", false, 1, "bank")
                == "t0.ZCOMPLETED = ?1 AND t0.ZPRIORITY = ?2 AND SEEDSTORE_COMPARE(t0.ZTASK_DESCRIPTION, 'CONTAINS[cd]', ?3)")

        let priorityOne = try found("priority == %@", 1)
        let expected = Set(SQLTestStore.taskDescriptions.enumerated().filter { $0.offset % 8 == 0 }.map(\.element))
        #expect(priorityOne == expected)
        let open = try found("completed == NO")
        #expect(open == Set(SQLTestStore.taskDescriptions.enumerated().filter { $0.offset % 3 != 0 }.map(\.element)))
        #expect(try found("task_description CONTAINS[cd] %@", "bank")
                == ["Go to the bank", "BANK statement", "Bänk holiday", "emoji 🏦 bank", "bank"])
    }

    // MARK: Equality and order

    @Test func equalityAndOrderOfNumbers() throws {
        #expect(try found("priority == 2").count == 4)
        #expect(try found("priority != 2").count == SQLTestStore.taskDescriptions.count - 4)
        #expect(try sql("priority != 2") == "t0.ZPRIORITY IS NOT ?1")
        #expect(try found("priority < 2") == (try found("priority <= 1")))
        #expect(try found("priority > 5") == (try found("priority == 2147483647")))
        #expect(try found("priority >= 2147483647.5").isEmpty)
        #expect(try found("priority == 1.0") == (try found("priority == 1")))
        #expect(try found("priority == 1.5").isEmpty)
        #expect(try sql("priority < 2.5") == "t0.ZPRIORITY < ?1")
    }

    @Test func constantOnTheLeft() throws {
        #expect(try sql("3 > priority") == "t0.ZPRIORITY < ?1")
        #expect(try found("3 > priority") == (try found("priority < 3")))
        #expect(try found("'bank' == task_description") == ["bank"])
        #expect(try found("'Go to the bank' CONTAINS task_description") == ["Go to the bank", "bank"], "empty text is part of nothing")
    }

    @Test func equalityOfStrings() throws {
        #expect(try found("task_description == 'bank'") == ["bank"])
        #expect(try found("task_description ==[c] 'BANK'") == ["bank"])
        #expect(try found("task_description ==[c] 'zoë'") == ["Zoë", "ZOË"])
        #expect(try found("task_description ==[cd] 'zoe'") == ["Zoë", "ZOË"])
        #expect(try found("task_description ==[d] 'Zoe'") == ["Zoë"])
        #expect(try found("task_description ==[c] 'strasse'") == ["straße", "STRASSE"])
        #expect(try found("task_description !=[c] 'bank'").count == SQLTestStore.taskDescriptions.count - 1)
        #expect(try found("task_description < 'C'").contains("BANK statement"))
        #expect(try found("task_description <[c] 'C'").contains("a*b?c"))
        #expect(!(try found("task_description < 'C'")).contains("a*b?c"))
    }

    @Test func booleans() throws {
        #expect(try found("completed == YES") == (try found("completed == 1")))
        #expect(try found("completed == YES") == (try found("NOT completed == NO")))
        #expect(try found("completed == 2").isEmpty)
        #expect(try found("completed < 2").count == SQLTestStore.taskDescriptions.count)
    }

    @Test func kindsThatNeverCompare() throws {
        // SQLite would turn '1' into 1 next to an integer column; in memory they differ. Against a
        // constant, the compiler refuses them (PredicateSQLKindTests); between two columns it
        // settles them as memory does, never leaving them to SQLite's affinities.
        for format in ["priority == '1'", "priority != '1'", "task_description == 5", "priority < 'x'",
                       "task_description CONTAINS 5", "priority CONTAINS '1'"] {
            #expect(throws: StoreError.self, "\(format)") { try sql(format) }
        }
        #expect(try sql("task_description == priority") == "(t0.ZTASK_DESCRIPTION IS NULL AND t0.ZPRIORITY IS NULL)")
        #expect(try sql("task_description != priority") == "(t0.ZTASK_DESCRIPTION IS NOT NULL OR t0.ZPRIORITY IS NOT NULL)")
        #expect(try sql("task_description < priority") == "0")
        #expect(try sql("task_description CONTAINS priority") == "0")
        #expect(try found("task_description == priority").isEmpty)
    }

    @Test func nilComparisons() throws {
        #expect(try sql("task_description == nil") == "t0.ZTASK_DESCRIPTION IS NULL")
        #expect(try sql("task_description != nil") == "t0.ZTASK_DESCRIPTION IS NOT NULL")
        #expect(try sql("nil == priority") == "t0.ZPRIORITY IS NULL")
        #expect(try sql("priority < nil") == "0")
        #expect(try found("task_description != nil").count == SQLTestStore.taskDescriptions.count)
    }

    @Test func trueAndFalsePredicates() throws {
        #expect(try sql("TRUEPREDICATE") == "1")
        #expect(try sql("FALSEPREDICATE") == "0")
        #expect(try sql("NOT FALSEPREDICATE") == "1")
        #expect(try sql("TRUEPREDICATE AND priority == 1") == "t0.ZPRIORITY = ?1")
        #expect(try sql("FALSEPREDICATE OR priority == 1") == "t0.ZPRIORITY = ?1")
        #expect(try found("FALSEPREDICATE").isEmpty)
        #expect(try found("TRUEPREDICATE").count == SQLTestStore.taskDescriptions.count)
        // Comparisons of constants are settled at compile time, with memory's answers.
        #expect(try sql("'Zoë' CONTAINS[cd] 'zoe'") == "1")
        #expect(try sql("'Zoë' CONTAINS 'zoe'") == "0")
        #expect(try sql("2 IN {1, 2}") == "1")
    }

    @Test func compoundPredicatesNest() throws {
        #expect(try sql("priority == 1 OR (priority == 2 AND completed == YES)")
                == "t0.ZPRIORITY = ?1 OR (t0.ZPRIORITY = ?2 AND t0.ZCOMPLETED = ?3)")
        #expect(try sql("NOT (priority == 1 OR priority == 2)") == "NOT coalesce(t0.ZPRIORITY = ?1 OR t0.ZPRIORITY = ?2, 0)")
        _ = try found("(priority == 1 OR priority == 2) AND NOT (completed == YES OR task_description BEGINSWITH 'b')")
    }

    // MARK: IN and BETWEEN

    @Test func inLists() throws {
        #expect(try sql("priority IN %@", [1, 2, 3]) == "t0.ZPRIORITY IN (?1, ?2, ?3)")
        #expect(try found("priority IN {1, 2}") == (try found("priority == 1 OR priority == 2")))
        #expect(try sql("priority IN {}") == "0")
        #expect(try sql("NOT priority IN {}") == "1")
        #expect(try found("priority IN {}").isEmpty)
        #expect(try sql("priority IN {1, nil}") == "t0.ZPRIORITY = ?1 OR t0.ZPRIORITY IS NULL")
        #expect(try found("task_description IN[c] {'BANK', 'zoë'}") == ["bank", "Zoë", "ZOË"])
        // A string is one value, not a collection: CONTAINS tests for a part of it.
        let inText = try FetchPredicate(format: "task_description IN 'Please go to the bank now'")
        #expect(throws: StoreError.self) { try fixture.sqlKeys(inText, "Task") }
        #expect(throws: PredicateEvaluationError.self) { try fixture.memoryKeys(inText, "Task") }
        #expect(try found("'Please go to the bank now' CONTAINS task_description") == ["bank"])
    }

    @Test func between() throws {
        #expect(try sql("priority BETWEEN {2, 4}") == "t0.ZPRIORITY BETWEEN ?1 AND ?2")
        #expect(try found("priority BETWEEN {2, 4}") == (try found("priority >= 2 AND priority <= 4")))
        #expect(try found("priority BETWEEN {4, 2}").isEmpty)
        #expect(try found("task_description BETWEEN[c] {'a', 'c'}").contains("BANK statement"))
        #expect(try sql("priority BETWEEN {1, nil}") == "0")
    }

    // MARK: Strings

    @Test func contains() throws {
        #expect(try found("task_description CONTAINS 'bank'") == ["Go to the bank", "emoji 🏦 bank", "bank"])
        #expect(try found("task_description CONTAINS[c] 'BANK'") == ["Go to the bank", "BANK statement", "emoji 🏦 bank", "bank"])
        #expect(try found("task_description CONTAINS[d] 'Bank'") == ["Bänk holiday"])
        #expect(try found("task_description CONTAINS[cd] 'zoe'") == ["Call Zoë", "zoe's party", "Zoë", "ZOË"])
        #expect(try found("task_description CONTAINS 'Zoe'").isEmpty)
        #expect(try found("task_description CONTAINS[cd] 'ZOË'") == ["Call Zoë", "zoe's party", "Zoë", "ZOË"])
        // Bytes, as SQLite's instr() finds them: the q with a combining accent holds a q, and \r\n a \n.
        #expect(try found("task_description CONTAINS 'q'") == ["q\u{301}uick"])
        #expect(try found("task_description CONTAINS 'q\u{301}'") == ["q\u{301}uick"])
        #expect(try found("task_description CONTAINS '\n'") == ["line\r\nbreak"], "\\r\\n is two scalars")
        #expect(try found("task_description CONTAINS[c] '\n'").isEmpty, "folded, \\r\\n is one character")
        #expect(try found("task_description CONTAINS '🏦'") == ["emoji 🏦 bank"])
    }

    @Test func emptySearchTextFindsNothing() throws {
        // Foundation: "abc" CONTAINS "" is false (range(of: "") is not found), hasPrefix("") and
        // hasSuffix("") are false; so every row's answer is no, even the empty description's.
        for op in ["CONTAINS", "BEGINSWITH", "ENDSWITH"] {
            for modifier in ["", "[c]", "[d]", "[cd]", "[n]"] {
                #expect(try found("task_description \(op)\(modifier) ''").isEmpty, "\(op)\(modifier)")
                #expect(try found("task_description \(op)\(modifier) %@", "").isEmpty, "\(op)\(modifier) %@")
                #expect(try FetchPredicate(format: "'abc' \(op)\(modifier) ''").evaluate(with: [:]) == false)
            }
        }
        // LIKE '' still matches the empty string only.
        #expect(try found("task_description LIKE ''") == [""])
        #expect(try found("task_description LIKE[cd] ''") == [""])
    }

    @Test func beginsAndEndsWith() throws {
        #expect(try found("task_description BEGINSWITH 'file'") == ["file10", "file2"])
        #expect(try found("task_description BEGINSWITH[c] 'file'") == ["file10", "file2", "File1"])
        #expect(try found("task_description BEGINSWITH[c] 'ǆ'") == ["Ǆemal"])
        #expect(try found("task_description BEGINSWITH[cd] 'istanbul'") == ["İstanbul", "istanbul"])
        #expect(try found("task_description ENDSWITH 'bank'") == ["Go to the bank", "emoji 🏦 bank", "bank"])
        #expect(try found("task_description ENDSWITH[cd] 'ZOE'") == ["Call Zoë", "Zoë", "ZOË"])
        #expect(try found("task_description ENDSWITH 'e\u{301}'").isEmpty)
        #expect(try found("task_description ENDSWITH[c] 'é'").isEmpty)
        #expect(try found("task_description ENDSWITH 'lait'") == ["Café au lait"])
    }

    @Test func like() throws {
        // `*` and `?` are the wildcards; `%` and `_` are plain characters.
        #expect(try found("task_description LIKE '100% done'") == ["100% done"])
        #expect(try found("task_description LIKE '100%'").isEmpty)
        #expect(try found("task_description LIKE '100*'") == ["100% done"])
        #expect(try found("task_description LIKE 'under_score'") == ["under_score"])
        #expect(try found("task_description LIKE '*_*'") == ["under_score"])
        #expect(try found("task_description LIKE '?ank'") == ["bank"])
        #expect(try found("task_description LIKE[c] 'b*'") == ["BANK statement", "Bänk holiday", "back\\slash", "bank"])
        #expect(try found("task_description LIKE[cd] 'b?nk*'") == ["BANK statement", "Bänk holiday", "bank"])
        #expect(try found("task_description LIKE 'a\\\\*b\\\\?c'") == ["a*b?c"])
        #expect(try found("task_description LIKE 'a*c'") == ["a*b?c"])
        #expect(try found("task_description LIKE '*'").count == SQLTestStore.taskDescriptions.count)
        #expect(try found("task_description LIKE '?'").isEmpty)
        #expect(try found("task_description LIKE '??'").isEmpty)
        #expect(try found("task_description LIKE '???'") == ["日本語", "Zoë", "ZOË"])
    }

    @Test func matches() throws {
        #expect(try found("task_description MATCHES 'file[0-9]+'") == ["file10", "file2"])
        #expect(try found("task_description MATCHES[c] 'FILE[0-9]+'") == ["file10", "file2", "File1"])
        #expect(try found("task_description MATCHES 'bank'") == ["bank"], "the whole string must match")
        #expect(try found("task_description MATCHES[cd] 'zoe'") == ["Zoë", "ZOË"])
        #expect(try found("task_description MATCHES '.*\\\\d{3}.*'") == ["100% done"])
    }

    // MARK: Modifiers on lists

    @Test func modifiersOnALiteralList() throws {
        // A list is a collection: ANY {a, b} == key is key IN {a, b}. (Over one value, the
        // modifiers throw: see PredicateSQLErrorTests.)
        #expect(try found("ANY {'bank', 'x'} == task_description") == ["bank"])
        #expect(try found("ALL {1, 2} <= priority") == (try found("priority >= 2")))
    }
}
