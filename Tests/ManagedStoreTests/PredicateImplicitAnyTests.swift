import Foundation
import Testing
@testable import ManagedStore

/// A comparison through a to-many relationship without ANY, ALL or NONE is read as ANY, as Core
/// Data's SQLite store reads it, in SQL and in memory alike; on departments with employees (one to
/// many, by the employee's foreign key) who work on projects (many to many, through a join table).
@Suite struct PredicateImplicitAnyTests {
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

    @Test func aToManyKeyPathWithoutAModifierIsAny() throws {
        let cases: [(String, Set<String>)] = [
            ("employees.name == 'Bob'", ["Sales"]),
            ("employees.name BEGINSWITH[c] 'c'", ["Labs"]),
            ("employees.salary > 10", ["Sales"]),
            ("employees.salary == nil", ["Labs"]),
            ("employees.name IN {'Cy', 'Dee'}", ["Labs"]),
            ("employees.salary BETWEEN {1, 6}", ["Sales"]),
            // Some employee is named otherwise: not the same as NOT employees.name == 'Bob'.
            ("employees.name != 'Bob'", ["Sales", "Labs"]),
            ("NOT employees.name == 'Bob'", ["Labs", "Empty"]),
            ("NOT (employees.salary > 10 OR employees.name == 'Cy')", ["Empty"]),
            // Many to many, and two to-many steps.
            ("projects.name == 'Zeus'", ["Ann"]),
            ("members.salary < 10", ["Apollo", "Zeus"]),
            ("employees.projects.name == 'Hermes'", ["Labs"]),
            ("employees.projects.name LIKE '*s'", ["Sales", "Labs"]),
            // Through the to-many, then a to-one.
            ("members.department.name == 'Sales'", ["Apollo", "Zeus"]),
        ]
        for (format, expected) in cases {
            let entity = format.hasPrefix("members") ? "Project" : format.hasPrefix("projects") ? "Employee" : "Department"
            let found = try names(format, in: entity)
            #expect(found == expected, "\(format)")
            // Explicit ANY gives the same objects.
            let explicit = format.hasPrefix("NOT") ? format.replacingOccurrences(of: "employees.", with: "ANY employees.")
                : "ANY " + format
            if !format.contains(" OR ") {
                #expect(try names(explicit, in: entity) == found, "\(explicit)")
            }
        }
    }

    @Test func theSQLIsTheSameAsForAny() throws {
        for (implicit, entity) in [("employees.salary > 10", "Department"), ("projects.name IN {'Zeus'}", "Employee"),
                                   ("NOT employees.projects.name == 'x'", "Department")] {
            let explicit = implicit.replacingOccurrences(of: "employees.", with: "ANY employees.")
                .replacingOccurrences(of: "projects.name IN", with: "ANY projects.name IN")
            let a = try fixture.compile(FetchPredicate(format: implicit), entity)
            let b = try fixture.compile(FetchPredicate(format: explicit), entity)
            #expect(a.sql == b.sql && a.bindings == b.bindings, "\(implicit): \(a.sql) vs \(b.sql)")
            #expect(a.sql.contains("EXISTS (SELECT 1 FROM "), "\(a.sql)")
        }
    }

    @Test func containsStaysMembership() throws {
        // `employees.name CONTAINS 'o'` asks whether 'o' is one of the names, as NSPredicate does in memory.
        #expect(try names("employees.name CONTAINS 'Bob'") == ["Sales"])
        #expect(try names("employees.name CONTAINS 'o'").isEmpty)
        #expect(try names("ANY employees.name CONTAINS 'o'") == ["Sales"])
    }

    @Test func whatCoreDataRefusesStaysRefused() throws {
        var builder = SQLQueryBuilder(model: fixture.model, entity: try fixture.entity("Department"))
        // A key path that ends at the relationship is a collection: count it or test membership.
        for format in ["employees == nil", "employees.projects != nil"] {
            #expect(throws: StoreError.self, "\(format)") { try builder.condition(FetchPredicate(format: format)) }
        }
        // A to-many key path on the right side names no element to compare.
        #expect(throws: StoreError.self) { try builder.condition(FetchPredicate(format: "'Bob' == employees.name")) }
        do { _ = try builder.orderBy([FetchSort("employees.name")]); Issue.record("sorting by a to-many key path") } catch {
            #expect(error.description.contains("cannot sort by 'employees.name'"))
        }
        #expect(throws: StoreError.self) { try builder.column(forKeyPath: "employees.name") }
    }

    @Test func unsavedObjectsAgreeWithTheStore() throws {
        // A new department with a new employee, unsaved: the fetch tests it in memory, with the same ANY.
        let context = fixture.context
        let new = try context.insert("Department")
        new["name"] = .string("New")
        let dee = try context.insert("Employee")
        dee["name"] = .string("Dee")
        dee["salary"] = .double(50)
        try dee.setObject(new, forKey: "department")
        var request = FetchRequest(entityName: "Department")
        request.predicate = try FetchPredicate(format: "employees.salary > 10")
        #expect(Set(try context.fetch(request).map { $0["name"] }) == [.string("Sales"), .string("New")])
        #expect(try context.count(for: request) == 2)
        request.predicate = try FetchPredicate(format: "NOT employees.salary > 10")
        #expect(Set(try context.fetch(request).map { $0["name"] }) == [.string("Labs"), .string("Empty")])
    }
}
