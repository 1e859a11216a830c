import CSVStream
import Testing

@Suite("Errors")
struct CSVErrorTests {
    @Test func missingFile() throws {
        let error = try #require(throws: CSVError.self) { try CSVReader(path: "/nonexistent/dir/data.csv") }
        #expect(error.kind == .io)
        #expect(error.path == "/nonexistent/dir/data.csv")
        #expect(error.message.contains("No such file or directory"))
        #expect(error.description.hasPrefix("/nonexistent/dir/data.csv: cannot open the file"))
    }

    @Test func directory() throws {
        let error = try #require(throws: CSVError.self) { try CSVReader(path: "/tmp") }
        #expect(error.kind == .io)
    }

    @Test func descriptionSaysWhereWhatAndWhatToDo() {
        let error = CSVError(
            kind: .invalidEncoding, message: "byte 0x96 is not valid UTF-8", path: "banklist.csv", line: 5, column: 5,
            byteOffset: 361, recordLine: 5, encoding: .utf8, isRecoverable: true)
        #expect(
            error.description
                == "banklist.csv:5:5: byte 0x96 is not valid UTF-8 (byte offset 361, field 5). The file is probably Windows-1252 or Latin-1: re-run with --encoding windows1252 (or latin1; CSVDialect.encoding from Swift), or re-save it as UTF-8."
        )
        #expect(error.location == CSVLocation(path: "banklist.csv", line: 5, column: 5))
        #expect(CSVLocation(line: 3).description == "line 3")
        #expect(
            CSVError(kind: .io, message: "x").description == "x. Check that the path exists and is a readable file.")
    }

    @Test func everyKindHasAHint() {
        let kinds: [CSVError.Kind] = [
            .invalidEncoding, .malformedQuote, .unterminatedQuote, .textAfterClosingQuote, .io, .fieldTooLarge,
            .recordTooLarge, .invalidDialect, .unsupportedEncoding,
        ]
        for kind in kinds {
            #expect(!CSVError(kind: kind, message: "m").hint.isEmpty)
        }
    }
}
