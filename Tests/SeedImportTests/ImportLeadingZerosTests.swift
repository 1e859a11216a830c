import Foundation
import ManagedStore
import SeedImport
import Testing

/// A trial (helper-68): ZIP codes in an Integer column became 501 without a word.
@Suite("Import: leading zeros an Integer attribute drops are named")
struct ImportLeadingZerosTests {
    static let model = """
        {"entities": [{"name": "R", "attributes": [
          {"name": "code", "type": "String"}, {"name": "zip", "type": "Integer 32", "optional": true},
          {"name": "kept", "type": "String", "optional": true}]}]}
        """

    @Test("a warning per attribute counts them with the first; a lone 0, a String column and other numbers say nothing")
    func leadingZeros() throws {
        let scratch = ImportScratch()
        let csv = "code,zip,kept\nA,00501,00501\nB,0,007\nC,10,\nD,0042,\nE,-007,\nF,+0501,\nG,-0,\n"
        let summary = try ImportEncodingErrorTests.run(Array(csv.utf8), name: "z.csv", in: scratch, model: Self.model)
        let warnings = summary.warnings.filter { $0.contains("leading zeros") }
        #expect(warnings == ["z.csv → R.zip: 4 values written with leading zeros lost them as whole numbers (the first \"00501\" → 501, line 2, column zip); "
            + "if they are codes (a ZIP code, an ID), make the attribute a String, which keeps them"], "\(summary.warnings)")
        let clean = try ImportEncodingErrorTests.run(Array("code,zip,kept\nA,501,00501\nB,0,\n".utf8), name: "y.csv", in: scratch, model: Self.model)
        #expect(!clean.warnings.contains { $0.contains("leading zeros") }, "\(clean.warnings)")
    }
}
