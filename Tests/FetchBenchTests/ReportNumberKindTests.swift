import Foundation
import Testing
@testable import FetchBench

/// A user trial gave the reader valid JSON with a number of the wrong kind (`"statements": 2.5`,
/// `"size_bytes": 1e20`, `"schema_version": 99999999999999999999`) and was told "invalid JSON at the top
/// level", with no key path: Foundation's decoder reports such numbers as corrupt data at the top. The docs
/// promise `PATH is not a readable bench report: REASON`, naming the key path at fault.
@Suite("Reading a report: a number of the wrong kind is named by its key path")
struct ReportNumberKindTests {
    /// The sample report's JSON with the first `"key" : VALUE` replaced by `"key" : number`.
    static func report(setting key: String, to number: String) throws -> Data {
        let text = String(decoding: try sampleReport().jsonData(), as: UTF8.self)
        let range = try #require(text.range(of: #""\#(key)" : [^,\n}]+"#, options: .regularExpression), "\(key) is in the sample")
        return Data(text.replacingCharacters(in: range, with: "\"\(key)\" : \(number)").utf8)
    }

    static func reason(_ data: Data) -> String {
        do {
            _ = try BenchReport.decode(data, source: "r.json")
            return "read without an error"
        } catch {
            return "\(error)"
        }
    }

    @Test("a fraction or a number beyond Int where an integer belongs names its key path and value", arguments: [
        ("statements", "2.5", "results[0].statements", "2.5"),
        ("cores", "2.5", "machine.cores", "2.5"),
        ("size_bytes", "1e20", "store.size_bytes", "1e+20"),
        ("schema_version", "1.5", "schema_version", "1.5"),
        ("schema_version", "99999999999999999999", "schema_version", "99999999999999999999"),
    ])
    func wrongNumberKind(key: String, number: String, path: String, shown: String) throws {
        let reason = Self.reason(try Self.report(setting: key, to: number))
        #expect(reason == "r.json is not a readable bench report: expected an integer at \(path), found \(shown)")
    }

    /// A user trial: `"schema_version" : 2, "schema_version" : 1` compared as version 1, and a trailing
    /// comma was taken, as Foundation's decoder takes them.
    @Test("a repeated key or a trailing comma makes a report unreadable, with its line and column")
    func strictJSON() throws {
        let text = String(decoding: try sampleReport().jsonData(), as: UTF8.self)
        let repeated = text.replacingOccurrences(of: "\"schema_version\" : 2", with: "\"schema_version\" : 2, \"schema_version\" : 1")
        #expect(Self.reason(Data(repeated.utf8)).hasPrefix("r.json is not a readable bench report: not valid JSON at line"), "\(Self.reason(Data(repeated.utf8)))")
        #expect(Self.reason(Data(repeated.utf8)).contains("the key \"schema_version\" appears twice in one object"))
        let trailing = try #require(text.range(of: "]", options: .backwards)).lowerBound
        var comma = text
        comma.insert(",", at: trailing)
        #expect(Self.reason(Data(comma.utf8)).contains("a comma before a closing bracket"), "\(Self.reason(Data(comma.utf8)))")
    }

    @Test("two numbers at fault: the first the decoder meets is named; a fraction where a number belongs reads")
    func severalAndLegitimateFractions() throws {
        var text = String(decoding: try Self.report(setting: "cores", to: "2.5"), as: UTF8.self)
        text = text.replacingOccurrences(of: "\"runs\" : 5", with: "\"runs\" : 5.5")
        #expect(Self.reason(Data(text.utf8)).contains("expected an integer at "), "\(Self.reason(Data(text.utf8)))")
        #expect(Self.reason(try Self.report(setting: "noise", to: "0.25")) == "read without an error")
    }

    @Test("JSON that does not parse, and a missing schema_version, still say so")
    func otherFailuresKeepTheirReasons() {
        #expect(Self.reason(Data("{\"schema_version\": 2,".utf8)).hasPrefix("r.json is not a readable bench report: invalid JSON at the top level"))
        #expect(Self.reason(Data("{}".utf8)) == "r.json is not a readable bench report: no schema_version, so not a seedstore bench report")
    }
}
