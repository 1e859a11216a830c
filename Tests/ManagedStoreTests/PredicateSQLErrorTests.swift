import Foundation
import Testing
@testable import ManagedStore

/// What the SQL compiler refuses, and what it says: unknown keys with suggestions, to-many key
/// paths without a quantifier, unsubstituted variables, bad operands; and injection attempts.
@Suite struct PredicateSQLErrorTests {
    let tasks: SQLTestStore
    let banks: SQLTestStore

    init() throws {
        tasks = try SQLTestStore.tasks()
        banks = try SQLTestStore(model: "failedbank")
    }

    func error(_ fixture: SQLTestStore, _ entity: String, _ format: String, _ arguments: PredicateArgument...) throws -> StoreError? {
        var builder = SQLQueryBuilder(model: fixture.model, entity: try fixture.entity(entity))
        let predicate = try FetchPredicate(format: format, arguments: arguments)
        do {
            _ = try builder.condition(predicate)
            return nil
        } catch {
            return error
        }
    }

    func message(_ fixture: SQLTestStore, _ entity: String, _ format: String, _ arguments: PredicateArgument...) throws -> String {
        var builder = SQLQueryBuilder(model: fixture.model, entity: try fixture.entity(entity))
        let predicate = try FetchPredicate(format: format, arguments: arguments)
        do {
            _ = try builder.condition(predicate)
            return "no error"
        } catch {
            return error.description
        }
    }

    func message(_ fixture: SQLTestStore, _ entity: String, _ predicate: FetchPredicate) throws -> String {
        var builder = SQLQueryBuilder(model: fixture.model, entity: try fixture.entity(entity))
        do {
            _ = try builder.condition(predicate)
            return "no error"
        } catch {
            return error.description
        }
    }

    @Test func unknownKeySuggestsTheClosest() throws {
        guard case .unknownKey(let entity, let key, let suggestions)? = try error(tasks, "Task", "prority == 1") else {
            Issue.record("expected unknownKey")
            return
        }
        #expect(entity == "Task")
        #expect(key == "prority")
        #expect(suggestions == ["priority"])
        #expect(try message(tasks, "Task", "prority == 1") == "entity Task has no property 'prority'; did you mean 'priority'?")
        // Deeper in a path, the entity is the one the path reached.
        #expect(try message(banks, "FailedBankInfo", "details.zipp > 1") == "entity FailedBankDetails has no property 'zipp'; did you mean 'zip'?")
        #expect(try message(banks, "FailedBankDetails", "ANY tags.nam == 'x'") == "entity Tag has no property 'nam'; did you mean 'name'?")
        #expect(try message(banks, "FailedBankDetails", "SUBQUERY(tags, $t, $t.nme == 'x').@count > 0").contains("did you mean 'name'?"))
        #expect(try message(tasks, "Task", "priority.value == 1").contains("'priority' is an attribute of Task, so no key can follow it"))
    }

    @Test func unknownSortKeysAndColumns() throws {
        var builder = SQLQueryBuilder(model: tasks.model, entity: try tasks.entity("Task"))
        #expect(throws: StoreError.self) { try builder.orderBy([FetchSort("prority")]) }
        do { _ = try builder.orderBy([FetchSort("prority")]) } catch {
            #expect(error.description == "entity Task has no property 'prority'; did you mean 'priority'?")
        }
        #expect(throws: StoreError.self) { try builder.column(forKeyPath: "descripton") }
    }

    @Test func toManyNeedsAQuantifier() throws {
        let text = try message(banks, "FailedBankDetails", "tags.name == 'crisis'")
        #expect(text.contains("'tags.name' goes through the to-many relationship 'tags' of FailedBankDetails"))
        #expect(text.contains("ANY tags.name == …"))
        #expect(text.contains("tags.@count"))
        #expect(text.contains("Core Data's SQLite store refuses it too (\"to-many key not allowed here\")"))
        guard case .invalidRequest? = try error(banks, "FailedBankDetails", "tags.name == 'crisis'") else {
            Issue.record("expected invalidRequest")
            return
        }
        #expect(try message(banks, "FailedBankInfo", "details.tags.name BEGINSWITH 'c'").contains("ANY details.tags.name == …"))
        #expect(try message(banks, "FailedBankDetails", "tags == nil").contains("to-many"))
        #expect(try message(banks, "FailedBankDetails", "name.@count > 1").contains("entity FailedBankDetails has no property 'name'"))
        #expect(try message(banks, "FailedBankDetails", "zip.@count > 1").contains("@count needs a to-many key path"))
        var builder = SQLQueryBuilder(model: banks.model, entity: try banks.entity("FailedBankDetails"))
        do { _ = try builder.orderBy([FetchSort("tags.name")]) ; Issue.record("sorting by a to-many key path") } catch {
            #expect(error.description.contains("cannot sort by 'tags.name'"))
        }
    }

    @Test func unsubstitutedVariablesAreNamed() throws {
        #expect(try message(tasks, "Task", "priority == $LEVEL")
                == "the predicate uses $LEVEL but it has no value: substitute with predicate.substituting([\"LEVEL\": …]) before fetching")
        #expect(try message(tasks, "Task", "priority == $A OR task_description == $B").contains("$A, $B"))
        let substituted = try FetchPredicate(format: "priority == $LEVEL").substituting(["LEVEL": 1])
        var builder = SQLQueryBuilder(model: tasks.model, entity: try tasks.entity("Task"))
        #expect(try builder.condition(substituted) == "t0.ZPRIORITY = ?1")
    }

    @Test func badOperands() throws {
        #expect(try message(tasks, "Task", "task_description MATCHES '('").contains("invalid regular expression"))
        // The parser refuses these; a predicate built in code can still hold them.
        #expect(try message(tasks, "Task", .compare(.key("priority"), .between, .constant([1]))).contains("BETWEEN needs two bounds"))
        #expect(try message(tasks, "Task", .compare(.key("priority"), .between, .constant(3))).contains("BETWEEN needs two bounds"))
        #expect(try message(banks, "Tag", "bankdetails.@sum.closeDate > 0").contains("@sum adds numbers"))
        #expect(try message(banks, "FailedBankDetails", "tags.@avg.name > 0").contains("@avg adds numbers"))
        #expect(try message(banks, "FailedBankDetails", "SUBQUERY(tags, $t, $t.name == 'x') == nil").contains("compare its count"))
        #expect(try message(banks, "FailedBankDetails", "SUBQUERY(info, $i, $i.name == 'x').@count > 0").contains("SUBQUERY needs a to-many key path"))
    }

    @Test func modifiersNeedAToManyKeyPath() throws {
        guard case .invalidProperty(let entity, let property, let reason)? = try error(tasks, "Task", "ANY priority == 3") else {
            Issue.record("ANY over an attribute compiled")
            return
        }
        #expect(entity == "Task")
        #expect(property == "priority")
        #expect(reason.contains("ANY, ALL and NONE need a collection on the left"))
        #expect(reason.contains("compare it without the modifier"))
        for format in ["ALL priority > 0", "NONE priority > 0", "ANY task_description == 'bank'"] {
            #expect(try message(tasks, "Task", format).contains("has one value per Task"), "\(format)")
        }
        // Through to-one relationships there is still one value; the message lists the to-many relationships.
        let toOne = try message(banks, "FailedBankInfo", "ANY details.zip == 10022")
        #expect(toOne.contains("FailedBankInfo.details.zip:") && toOne.contains("one value per FailedBankInfo"), "\(toOne)")
        #expect(try message(banks, "FailedBankDetails", "ANY zip == 1").contains("to-many relationship of FailedBankDetails: tags"))
        #expect(try message(tasks, "Task", "ANY SELF == 3").contains("'SELF' is a single value"))
        #expect(try message(tasks, "Task", "ANY 3 == priority").contains("ANY, ALL and NONE need a collection"))
        // Over a to-many key path, a variable of a SUBQUERY, or a list, they compile.
        #expect(try message(banks, "FailedBankInfo", "ANY details.tags.name == 'x'") == "no error")
        #expect(try message(banks, "FailedBankDetails", "SUBQUERY(tags, $t, ANY $t.bankdetails.zip > 1).@count > 0") == "no error")
        #expect(try message(tasks, "Task", "ANY {1, 2} == priority") == "no error")
    }

    @Test func inNeedsACollection() throws {
        guard case .invalidRequest(let text)? = try error(tasks, "Task", "priority IN 3") else {
            Issue.record("IN a number compiled")
            return
        }
        #expect(text.contains("IN needs a collection on the right: a list such as {1, 2}, an array argument (IN %@) or a to-many key path"))
        #expect(text.contains("use == to compare with one value"))
        #expect(try message(tasks, "Task", "priority IN %@", 3).contains("IN needs a collection"))
        #expect(try message(tasks, "Task", "priority IN YES").contains("IN needs a collection"))
        guard case .invalidProperty(let entity, let property, _)? = try error(banks, "FailedBankInfo", "name IN details.zip") else {
            Issue.record("IN a single-valued key path compiled")
            return
        }
        #expect(entity == "FailedBankInfo" && property == "details.zip")
        // A string is one value too, as the README says: CONTAINS tests for a part of it.
        for format in ["task_description IN 'the bank'", "'bank' IN task_description"] {
            let text = try message(tasks, "Task", format)
            #expect(text.contains("IN needs a collection on the right") && text.contains("CONTAINS"), "\(format): \(text)")
        }
        // CONTAINS needs text on both sides: for a number or a Boolean the advice is a list.
        for (format, list) in [("priority IN 'x1y'", "priority IN {1, 2}"), ("completed IN 'yes'", "completed IN {YES, NO}")] {
            let text = try message(tasks, "Task", format)
            #expect(text.contains("IN needs a collection on the right") && !text.contains("CONTAINS") && text.contains(list), "\(format): \(text)")
        }
        let zip = try message(banks, "FailedBankInfo", "details.zip IN city")
        #expect(zip.contains("IN needs a collection") && !zip.contains("CONTAINS"), "\(zip)")
        let city = try message(banks, "FailedBankInfo", "name IN city")
        #expect(city.contains("IN needs a collection") && city.contains("city CONTAINS name"), "\(city)")
        #expect(try message(tasks, "Task", "ANY {'a', 'b'} IN 'abc'").contains("IN needs a collection"))
        // Lists, arrays, to-many key paths and nil stay valid.
        for format in ["priority IN {3}", "priority IN {}", "priority IN nil", "task_description IN {'the bank'}"] {
            #expect(try message(tasks, "Task", format) == "no error", "\(format)")
        }
        #expect(try message(tasks, "Task", "priority IN %@", [3]) == "no error")
        #expect(try message(banks, "FailedBankDetails", "'big' IN tags.name") == "no error")
    }

    // MARK: Injection

    @Test func valuesAreBoundNotPasted() throws {
        let hostile = "x'); DROP TABLE ZTASK; --"
        var builder = SQLQueryBuilder(model: tasks.model, entity: try tasks.entity("Task"))
        let condition = try builder.condition(FetchPredicate(format: "task_description == %@ OR task_description CONTAINS[c] %@",
                                                             .string(hostile + "!"), .string("'; DELETE FROM ZTASK; --")))
        #expect(!condition.contains("DROP") && !condition.contains("DELETE"))
        #expect(builder.bindings == [.text(hostile + "!"), .text("'; DELETE FROM ZTASK; --")])
        #expect(try tasks.sqlKeys("task_description == %@", .string(hostile + "!"), in: "Task").isEmpty)
        // The value matches itself, as data.
        #expect(try tasks.sqlKeys("task_description == %@", .string(hostile), in: "Task").count == 1)
        #expect(try tasks.store.connection.scalar("SELECT count(*) FROM ZTASK") == .integer(Int64(SQLTestStore.taskDescriptions.count)))
    }

    @Test func keysFromArgumentsMustBeKeys() throws {
        guard case .unknownKey(_, let key, _)? = try error(tasks, "Task", "%K == 1", .keyPath("name; DROP TABLE x")) else {
            Issue.record("expected unknownKey")
            return
        }
        #expect(key == "name; DROP TABLE x")
        #expect(try error(tasks, "Task", "%K == 1", "priority) OR 1=1 --") != nil)
        #expect(try error(tasks, "Task", "%K == 1", "t0.ZPRIORITY") != nil, "a column name is not a key")
        var builder = SQLQueryBuilder(model: tasks.model, entity: try tasks.entity("Task"))
        #expect(throws: StoreError.self) { try builder.orderBy([FetchSort("priority DESC; DROP TABLE ZTASK")]) }
        #expect(throws: StoreError.self) { try builder.column(forKeyPath: "priority FROM ZTASK --") }
        #expect(try tasks.store.connection.scalar("SELECT count(*) FROM ZTASK") == .integer(Int64(SQLTestStore.taskDescriptions.count)))
    }
}
