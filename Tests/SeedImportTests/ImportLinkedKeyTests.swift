import Foundation
import ManagedStore
@testable import SeedImport
import Testing

/// One row into two entities joined one-to-one and keyed by the same column (a well row into
/// `WellSummary` + `WellDetail` by `uwi`): the second finds its object through the link, not an index of
/// its own, and behaves exactly as if it had one.
@Suite("Import: a target keyed through its one-to-one link")
struct ImportLinkedKeyTests {
    static let model = try! ObjectModel(json: Data("""
        {"entities": [
          {"name": "Summary",
           "attributes": [{"name": "code", "type": "String", "optional": false}, {"name": "name", "type": "String"}],
           "relationships": [
             {"name": "detail", "destination": "Detail", "inverse": "summary", "deleteRule": "Cascade"},
             {"name": "next", "destination": "Summary", "inverse": "previous", "deleteRule": "Nullify"},
             {"name": "previous", "destination": "Summary", "inverse": "next", "toMany": true, "deleteRule": "Nullify"}
           ]},
          {"name": "Detail",
           "attributes": [{"name": "code", "type": "String", "optional": false}, {"name": "depth", "type": "Integer 64"}],
           "relationships": [{"name": "summary", "destination": "Summary", "inverse": "detail", "deleteRule": "Nullify"}]}
        ]}
        """.utf8))

    /// Summary + Detail from rows.csv; with `detailsFile`, details.csv fills Detail by code first.
    static func mapping(detailsFile: Bool) -> String {
        let details = #"{"path": "details.csv", "targets": [{"entity": "Detail", "key": "code"}]},"#
        return """
            {"format": 1, "files": [\(detailsFile ? details : "")
              {"path": "rows.csv", "targets": [
                {"entity": "Summary", "key": "code", "relationships": {"next": {"column": "next", "destinationKey": "code"}}},
                {"entity": "Detail", "key": "code", "link": {"relationship": "summary", "target": "Summary"}}
              ]}]}
            """
    }

    /// Per code: [summary name, detail depth, the detail's summary code, next code], read back from the store.
    static func contents(_ path: String) throws -> [String: [String]] {
        let (context, summaries) = try StoreReader.objects(path, "Summary")
        defer { withExtendedLifetime(context) {} }
        var result: [String: [String]] = [:]
        for summary in summaries {
            guard case .string(let code) = summary["code"] else { continue }
            let detail = try summary.object(forKey: "detail")
            let back = try detail?.object(forKey: "summary")?["code"]
            let next = try summary.object(forKey: "next")?["code"]
            result[code] = ["\(summary["name"])", "\(detail?["depth"] ?? .null)", "\(back ?? .null)", "\(next ?? .null)"]
        }
        let details = try context.fetchAll("Detail")
        #expect(details.count == summaries.count, "one detail per summary")
        return result
    }

    static func run(_ csv: String, details: String? = nil, options: ImportOptions) throws -> (ImportSummary, [String: [String]], String) {
        let scratch = ImportScratch()
        try scratch.write("rows.csv", csv)
        if let details { try scratch.write("details.csv", details) }
        var options = options
        options.rejectsPath = scratch.path("rejects.csv")
        let mapping = try ImportMapping(json: Data(mapping(detailsFile: details != nil).utf8), baseDirectory: scratch.url.path)
        let summary = try SeedImporter(model: model, mapping: mapping, options: options).run(into: scratch.path("S.sqlite"))
        let rejects = (try? String(contentsOfFile: scratch.path("rejects.csv"), encoding: .utf8)) ?? ""
        return (summary, try contents(scratch.path("S.sqlite")), rejects)
    }

    @Test("the plan keys Detail through the link only when nothing else fills or finds Detail by code")
    func planned() throws {
        let scratch = ImportScratch()
        try scratch.write("rows.csv", "code,name,depth,next\n")
        try scratch.write("details.csv", "code,depth\n")
        for detailsFile in [false, true] {
            let mapping = try ImportMapping(json: Data(Self.mapping(detailsFile: detailsFile).utf8), baseDirectory: scratch.url.path)
            let plan = try _ImportPlanner.plan(model: Self.model, mapping: mapping, options: ImportOptions())
            let detail = try #require(plan.files.last?.targets.last)
            #expect((detail.keyThrough != nil) == !detailsFile)
            #expect((detail.key == nil) == !detailsFile)
        }
    }

    @Test("upserts, duplicates and forward references as with an index of its own, across batches")
    func upserts() throws {
        let csv = """
            code,name,depth,next
            A,Alpha,10,C
            B,Beta,20,A
            C,Gamma,30,
            A,Alpha 2,11,B
            B,Beta 2,,C
            A,Alpha 3,12,

            """
        for batchSize in [1, 2, 10_000] {
            let (summary, stored, _) = try Self.run(csv, options: ImportOptions(batchSize: batchSize))
            func row(_ name: String, _ depth: Int64?, _ code: String, _ next: String?) -> [String] {
                ["\(Value.string(name))", "\(depth.map(Value.integer) ?? .null)", "\(Value.string(code))", "\(next.map(Value.string) ?? .null)"]
            }
            #expect(stored == ["A": row("Alpha 3", 12, "A", nil), "B": row("Beta 2", nil, "B", "C"), "C": row("Gamma", 30, "C", nil)],
                    "batch size \(batchSize)")
            for entity in ["Summary", "Detail"] {
                #expect(summary.objects[entity]?.inserted == 3 && summary.objects[entity]?.updated == 3, "\(entity), batch size \(batchSize)")
            }
            #expect(summary.duplicates.map(\.lines) == [[5, 6, 7], [5, 6, 7]], "both targets report the repeated keys")
            #expect(summary.duplicates.map { "\($0.entity).\($0.key)" }.sorted() == ["Detail.code", "Summary.code"])
        }
    }

    @Test("a rejected row's Summary and Detail both go; the others keep their pairs", arguments: [1, 2, 10_000])
    func rejected(batchSize: Int) throws {
        // Line 3's next names no summary: rejected once the file has been read, its two objects removed.
        let csv = """
            code,name,depth,next
            B,Beta,20,
            A,Alpha,10,Z
            C,Gamma,30,B
            C,Gamma 2,31,

            """
        var options = ImportOptions(batchSize: batchSize)
        options.onError = .skip
        let (summary, stored, rejects) = try Self.run(csv, options: options)
        #expect(summary.rejects == 1)
        #expect(rejects.contains("no Summary has code"))
        #expect(stored.keys.sorted() == ["B", "C"], "and one detail each (checked as the store is read)")
        #expect(stored["C"]?[1] == "\(Value.integer(31))")
        #expect(summary.objects["Detail"]?.stored == 2)
    }

    @Test("a detail made by an earlier file stays its own object (no link-keyed plan then)")
    func detailsFirst() throws {
        let (summary, stored, _) = try Self.run("code,name,depth,next\nA,Alpha,10,\n", details: "code,depth\nA,5\n",
                                                options: ImportOptions())
        #expect(summary.objects["Detail"]?.updated == 1, "the row updated the detail details.csv made")
        #expect(stored["A"]?[1] == "\(Value.integer(10))")
    }
}
