import Foundation
import SeedImport
import Testing

/// The two small data sets of the seed documents.
@Suite("Generate: books and tasks")
struct GenerateBooksAndTasksTests {
    @Test("twelve books by seven authors, one before 2001")
    func defaultBooks() throws {
        let scratch = try GenerateScratch()
        defer { scratch.remove() }
        _ = try DataSetGenerator.generate(.books, into: scratch.url)
        #expect(try scratch.records("books.csv").first == ["title", "author", "copyright"])
        let books = try scratch.rows("books.csv")
        #expect(books.count == 12)
        #expect(Set(books.map { $0["author"]! }).count == 7)
        #expect(books.contains { $0["copyright"]!.hasPrefix("1910-") })
        #expect(books.allSatisfy { $0["copyright"]!.wholeMatch(of: /[0-9]{4}-[0-9]{2}-[0-9]{2}/) != nil })
        #expect(books.contains { $0["title"]!.contains(",") })
    }

    @Test("more books come several to an author")
    func moreBooks() throws {
        let scratch = try GenerateScratch()
        defer { scratch.remove() }
        _ = try DataSetGenerator.generate(.books, rows: 400, into: scratch.url)
        let books = try scratch.rows("books.csv")
        #expect(books.count == 400)
        let authors = Set(books.map { $0["author"]! }).count
        #expect(authors > 20 && authors < 150)
        #expect(books.contains { $0["copyright"]!.isEmpty })
    }

    @Test("fewer books are a prefix of the shuffled twelve")
    func fewerBooks() throws {
        let scratch = try GenerateScratch()
        defer { scratch.remove() }
        let dataSet = try DataSetGenerator.generate(.books, rows: 3, into: scratch.url)
        #expect(dataSet.csvFiles.first?.rows == 3)
        #expect(try scratch.rows("books.csv").count == 3)
    }

    @Test("tasks start with going to the bank; priorities 1 to 5; completed true or false")
    func tasks() throws {
        let scratch = try GenerateScratch()
        defer { scratch.remove() }
        _ = try DataSetGenerator.generate(.tasks, into: scratch.url)
        #expect(try scratch.records("tasks.csv").first == ["task_description", "priority", "completed"])
        let tasks = try scratch.rows("tasks.csv")
        #expect(tasks.count == 1_000)
        #expect(tasks.first == ["task_description": "Go to the bank", "priority": "5", "completed": "false"])
        #expect(Set(tasks.map { $0["priority"]! }) == ["1", "2", "3", "4", "5"])
        #expect(Set(tasks.map { $0["completed"]! }) == ["true", "false"])
        #expect(tasks.contains { $0["task_description"]!.contains(",") })
        #expect(tasks.contains { $0["task_description"]!.contains("\"") })
    }
}
