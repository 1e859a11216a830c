import Foundation
import ManagedStore
import SeedImport
import Testing

/// In a file of LF (or CRLF) lines, a CR alone in an unquoted field is not a line end: its row is a bad row
/// named at the CR, whose raw text keeps the part after it, and the rows after it keep their lines. Files
/// of bare-CR lines import as before.
@Suite("Import: a lone carriage return")
struct ImportLoneCarriageReturnTests {
    static let model = """
        {"entities": [{"name": "R", "attributes": [
          {"name": "a", "type": "String", "optional": true}, {"name": "b", "type": "String", "optional": true}]}]}
        """

    /// a → b, read back from the store.
    static func values(_ scratch: ImportScratch) throws -> [String: String] {
        let (context, objects) = try StoreReader.objects(scratch.path("x.sqlite"), "R")
        defer { withExtendedLifetime(context) {} }
        var values: [String: String] = [:]
        for object in objects {
            guard case .string(let a) = object["a"], case .string(let b) = object["b"] else { continue }
            values[a] = b
        }
        return values
    }

    /// The user trial: x1 was stored with b = "Muster" and `str. 5` rejected as a row of its own on line 3;
    /// with `x9,str. 5` after the CR, a row x9 that never existed was imported.
    @Test("skip mode sets the row aside whole, named at its CR, and the next row keeps its line",
          arguments: [("a,b\nx1,Muster\rstr. 5\nx2,ok\nx3,\"\"bad\n", "x1,Muster\rstr. 5"),
                      ("a,b\r\nx1,Muster\rx9,str. 5\r\nx2,ok\r\nx3,\"\"bad\r\n", "x1,Muster\rx9,str. 5")])
    func skip(csv: String, raw: String) throws {
        for readsAhead in [true, false] {
            let scratch = ImportScratch()
            var options = ImportOptions()
            options.onError = .skip
            options.readsAhead = readsAhead
            options.rejectsPath = scratch.path("rejects.csv")
            let summary = try ImportEncodingErrorTests.run(Array(csv.utf8), name: "cr.csv", in: scratch, options: options,
                                                           model: Self.model)
            #expect(summary.rejects == 2 && summary.rowsRead == 3, "\(summary)")
            #expect(try Self.values(scratch) == ["x2": "ok"])
            let rejects = try String(contentsOfFile: scratch.path("rejects.csv"), encoding: .utf8)
            let ending = csv.contains("\r\n") ? "CRLF" : "LF"
            #expect(rejects.contains("cr.csv,2,2,R,b,Muster,\"b: field 2 on line 2 holds a lone carriage return (CR, byte 0x0D, not followed by a line feed) outside quotes, in a file whose lines end with \(ending)"), "\(rejects)")
            #expect(rejects.contains("Quote the field to keep the carriage return as data, or remove the CR"), "\(rejects)")
            #expect(rejects.contains(",\"\(raw)\"\n"), "the raw text keeps the part after the CR: \(rejects)")
            // x3 is on line 4 (the CR is no line), as an editor shows it.
            #expect(rejects.contains("\ncr.csv,4,"), "\(rejects)")
        }
    }

    @Test("abort names file:line:column and the CR's byte offset")
    func abort() throws {
        let error = try #require(throws: ImportError.self) {
            try ImportEncodingErrorTests.run(Array("a,b\nx1,ok\nx2,Muster\rstr. 5\n".utf8), name: "cr.csv", in: ImportScratch(),
                                             model: Self.model)
        }
        #expect(error.kind == .badRow)
        #expect(error.file == "cr.csv" && error.line == 3 && error.column == 2 && error.byteOffset == 19, "\(error)")
        #expect(error.description.contains("lone carriage return"), "\(error)")
    }

    @Test("bare-CR lines, and a CR inside quotes in a file of LF lines, import as before")
    func bareCRFilesAndQuotedCRs() throws {
        let scratch = ImportScratch()
        _ = try ImportEncodingErrorTests.run(Array("a,b\rx1,y\rx2,z\r".utf8), name: "cr.csv", in: scratch, model: Self.model)
        #expect(try Self.values(scratch) == ["x1": "y", "x2": "z"])
        let quoted = ImportScratch()
        _ = try ImportEncodingErrorTests.run(Array("a,b\nx1,\"Muster\rstr. 5\"\nx2,ok\n".utf8), name: "cr.csv", in: quoted,
                                             model: Self.model)
        #expect(try Self.values(quoted) == ["x1": "Muster\rstr. 5", "x2": "ok"])
    }
}
