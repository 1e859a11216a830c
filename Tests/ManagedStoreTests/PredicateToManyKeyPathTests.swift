import Foundation
import Testing
@testable import ManagedStore

/// To-many key paths in predicates, on departments with employees (one to many, by the employee's
/// foreign key) who work on projects (many to many, through a join table); `now()` uses it too.
@Suite struct PredicateToManyKeyPathTests {
    static let model = try! ObjectModel([
        EntityDescription("Department", attributes: [Attribute("name", .string, optional: false)],
                          relationships: [Relationship("employees", to: "Employee", inverse: "department", toMany: true)]),
        EntityDescription("Employee", attributes: [Attribute("name", .string, optional: false), Attribute("salary", .double)],
                          relationships: [Relationship("department", to: "Department", inverse: "employees"),
                                          Relationship("projects", to: "Project", inverse: "members", toMany: true)]),
        EntityDescription("Project", attributes: [Attribute("name", .string, optional: false), Attribute("dueDate", .date)],
                          relationships: [Relationship("members", to: "Employee", inverse: "projects", toMany: true)]),
    ])

    let fixture: SQLTestStore

    /// Sales: Ann (5, on Apollo and Zeus), Bob (20, on Apollo). Labs: Cy (salary unknown, on
    /// Hermes). Empty: nobody. Projects: Apollo, Zeus, Hermes, and Idle with no members.
    init() throws {
        fixture = try SQLTestStore(model: Self.model)
        let context = fixture.context
        var departments: [String: ManagedObject] = [:]
        for name in ["Sales", "Labs", "Empty"] {
            departments[name] = try context.insert("Department")
            departments[name]!["name"] = .string(name)
        }
        var projects: [String: ManagedObject] = [:]
        for (name, due) in [("Apollo", -10.0), ("Zeus", 10), ("Hermes", 20), ("Idle", -20)] {
            projects[name] = try context.insert("Project")
            projects[name]!["name"] = .string(name)
            projects[name]!["dueDate"] = .date(Date().addingTimeInterval(due * 86_400))
        }
        for (name, salary, department, on) in [("Ann", 5.0 as Double?, "Sales", ["Apollo", "Zeus"]), ("Bob", 20, "Sales", ["Apollo"]),
                                               ("Cy", nil, "Labs", ["Hermes"])] {
            let employee = try context.insert("Employee")
            employee["name"] = .string(name)
            employee["salary"] = salary.map(Value.double) ?? .null
            try employee.setObject(departments[department]!, forKey: "department")
            for project in on { try employee.add(projects[project]!, toKey: "projects") }
        }
        try context.save()
    }

    /// The names of the objects of `entity` SQL finds, memory agreeing.
    func names(_ format: String, _ arguments: PredicateArgument..., in entity: String = "Department",
               sourceLocation: SourceLocation = #_sourceLocation) throws -> Set<String> {
        let predicate = try FetchPredicate(format: format, arguments: arguments)
        let keys = try fixture.expectAgreement(predicate, entity, sourceLocation: sourceLocation)
        let rows = try fixture.store.connection.rows("SELECT Z_PK, ZNAME FROM Z\(entity.uppercased())")
        return Set(rows.filter { keys.contains($0[0].int64!) }.map { $0[1].string! })
    }

    /// Core Data's SQLite store refuses a to-many key path compared without a modifier ("to-many key
    /// not allowed here"): so does SQL here, saying what to write; explicit ANY finds what was meant.
    @Test func aToManyKeyPathWithoutAModifierIsRefusedInSQL() throws {
        for format in ["employees.name == 'Bob'", "employees.projects.name BEGINSWITH 'A'", "employees.salary > 10"] {
            var builder = SQLQueryBuilder(model: fixture.model, entity: try fixture.entity("Department"))
            let error = try #require(throws: StoreError.self) { try builder.condition(FetchPredicate(format: format)) }
            #expect("\(error)".contains("to-many key not allowed here") && "\(error)".contains("ANY "), "\(format): \(error)")
        }
        #expect(try names("ANY employees.name == 'Bob'") == ["Sales"])
        #expect(try names("ANY employees.projects.name BEGINSWITH 'A'") == ["Sales"])
    }
}
