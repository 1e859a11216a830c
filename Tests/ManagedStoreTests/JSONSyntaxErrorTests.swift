import Foundation
import Testing
@testable import ManagedStore

/// JSON syntax errors name the line and column, however Foundation words the place.
@Suite struct JSONSyntaxErrorTests {
    func error(_ text: String) -> JSONSyntaxError? {
        do { _ = try JSONSyntaxError.parse(Data(text.utf8)); return nil } catch { return error }
    }

    @Test("a byte offset becomes a line and column, counting characters, not bytes")
    func offsetBecomesLineAndColumn() throws {
        // The second comma on line 3 is the bad value; "é" is two bytes but one column.
        let found = try #require(error("{\"é\": [1,\n  2,\n\t\"ü\",,\n]}"))
        #expect(found.line == 3)
        #expect(found.column == 6)
        #expect(found.description == "not valid JSON at line 3, column 6: invalid value")
    }

    /// A user trial: Foundation's parser took `[{…},]`, which the README says is reported.
    @Test("a comma before a closing bracket is refused at its place; one inside a string is text")
    func trailingComma() throws {
        let found = try #require(error("{\"a\": [1,\n  2 ,\n],\n \"b\": 1}"))
        #expect(found.description == "not valid JSON at line 2, column 5: a comma before a closing bracket, which JSON does not allow")
        #expect(error("{\"a\": {\"x\": 1,}}")?.column == 14)
        #expect(error(#"{"a": ",]", "b\",}": [1, 2]}"#) == nil)
        #expect(error("[]") == nil && error("{}") == nil)
    }

    @Test("Darwin's \"around line L, column C\" is read as it is")
    func lineAndColumnWording() {
        let darwin = NSError(domain: NSCocoaErrorDomain, code: 3840,
                             userInfo: [NSDebugDescriptionErrorKey: "Unexpected character 'x' around line 4, column 12."])
        let found = JSONSyntaxError(darwin, in: Data())
        #expect(found.reason == "unexpected character 'x'" && found.line == 4 && found.column == 12)
    }

    @Test("text that ends early is placed at its end, with a hint to close what is open")
    func endOfFile() throws {
        let found = try #require(error("{\"a\": [1,\n 2"))
        #expect(found.line == 2)
        #expect(found.column == 3)
        #expect(found.hint.contains("close every open object"))
    }

    @Test("an error without a place keeps Foundation's reason and says no line")
    func noPlace() {
        let found = JSONSyntaxError(NSError(domain: NSCocoaErrorDomain, code: 3840, userInfo: [NSDebugDescriptionErrorKey: "Garbage."]), in: Data())
        #expect(found.line == nil && found.column == nil)
        #expect(found.description == "not valid JSON: garbage")
    }
}
