import Foundation
import SeedImport
import Testing

/// The failed bank list and the FDIC quirks it must reproduce.
@Suite("Generate: banks")
struct GenerateBanksTests {
    struct Fixture: Sendable {
        var bytes: [UInt8]
        var rows: [[String: String]]
        var tags: [[String]]
        var bankTags: [[String: String]]

        static let shared = Result { () throws -> Fixture in
            let scratch = try GenerateScratch()
            defer { scratch.remove() }
            _ = try DataSetGenerator.generate(.banks, seed: 42, into: scratch.url)
            return Fixture(
                bytes: try scratch.bytes("banklist.csv"), rows: try scratch.rows("banklist.csv"),
                tags: try scratch.records("tags.csv"), bankTags: try scratch.rows("bank_tags.csv"))
        }
    }

    let fixture: Fixture

    init() throws {
        fixture = try Fixture.shared.get()
    }

    @Test("the header is the FDIC one, trailing spaces included")
    func header() {
        let header = Array("Bank Name,City ,State ,Cert ,Acquiring Institution ,Closing Date ,Fund\r\n".utf8)
        #expect(Array(fixture.bytes.prefix(header.count)) == header)
    }

    @Test("CRLF line endings and no final line ending")
    func lineEndings() {
        let bytes = fixture.bytes
        var crlf = 0
        for index in bytes.indices where bytes[index] == 0x0A {
            #expect(index > 0 && bytes[index - 1] == 0x0D, "bare LF at \(index)")
            crlf += 1
        }
        #expect(
            !bytes.enumerated().contains {
                $0.element == 0x0D && ($0.offset + 1 == bytes.count || bytes[$0.offset + 1] != 0x0A)
            })
        #expect(crlf == 567)
        #expect(bytes.last != 0x0A && bytes.last != 0x0D)
        #expect(fixture.rows.count == 567)
    }

    @Test("exactly one Windows-1252 byte, so the file is not UTF-8")
    func windows1252() {
        let high = fixture.bytes.filter { $0 >= 0x80 }
        #expect(high == [0x96])
        #expect(String(validating: fixture.bytes, as: UTF8.self) == nil)
        #expect(fixture.rows.filter { $0["Acquiring Institution "]!.contains("\u{FFFD}") }.count == 1)
    }

    @Test("names repeat, and some are quoted or hold apostrophes and ampersands")
    func names() {
        let names = fixture.rows.map { $0["Bank Name"]! }
        let repeats = names.count - Set(names).count
        #expect(repeats >= 5 && repeats <= 40, "\(repeats) repeated names")
        #expect(names.contains { $0.contains(", ") })
        #expect(names.contains { $0.contains("'") })
        #expect(names.contains { $0.contains("&") })
        let text = String(decoding: fixture.bytes, as: UTF8.self)
        #expect(text.contains("\r\n\""))
        #expect(fixture.rows.contains { $0["Acquiring Institution "] == "No Acquirer" })
    }

    @Test("Cert is unique with 2 to 5 digits; Fund has 4 or 5 digits")
    func numbers() {
        let certs = fixture.rows.map { $0["Cert "]! }
        #expect(Set(certs).count == certs.count)
        #expect(
            certs.allSatisfy { (2...5).contains($0.count) && $0.allSatisfy(\.isNumber) && !$0.hasPrefix("0") }
        )
        #expect(certs.contains { $0.count == 2 })
        let funds = fixture.rows.map { $0["Fund"]! }
        #expect(funds.allSatisfy { (4...5).contains($0.count) && $0.allSatisfy(\.isNumber) })
        #expect(Set(funds.map(\.count)) == [4, 5])
    }

    @Test("closing dates are d-MMM-yy from 00 to 23, newest first")
    func closingDates() throws {
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let pattern = /([1-9]|[12][0-9]|3[01])-([A-Z][a-z]{2})-([0-9]{2})/
        var keys: [Int] = []
        for row in fixture.rows {
            let date = row["Closing Date "]!
            let match = try #require(date.wholeMatch(of: pattern), "\(date)")
            let month = try #require(months.firstIndex(of: String(match.2)))
            let year = Int(match.3)!
            #expect((0...23).contains(year))
            keys.append(year * 10_000 + month * 100 + Int(match.1)!)
        }
        #expect(keys == keys.sorted(by: >))
        #expect(keys.first! / 10_000 == 23 && keys.last! / 10_000 == 0)
    }

    @Test("tags and the join file agree with the list")
    func tags() {
        #expect(fixture.tags.first == ["name"])
        let tags = Set(fixture.tags.dropFirst().map { $0[0] })
        #expect(tags.isSuperset(of: ["2008 crisis", "No Acquirer", "Purchase & Assumption"]))
        let certs = Set(fixture.rows.map { $0["Cert "]! })
        #expect(fixture.bankTags.allSatisfy { certs.contains($0["cert"]!) && tags.contains($0["tag"]!) })
        let tagged = Dictionary(grouping: fixture.bankTags, by: { $0["cert"]! })
        #expect(Set(tagged.keys) == certs)
        for row in fixture.rows {
            let names = Set(tagged[row["Cert "]!]!.map { $0["tag"]! })
            let noAcquirer = row["Acquiring Institution "] == "No Acquirer"
            #expect(names.contains("No Acquirer") == noAcquirer)
            #expect(names.contains("Purchase & Assumption") == !noAcquirer)
        }
    }

    @Test("larger lists keep Cert unique")
    func largerList() throws {
        let scratch = try GenerateScratch()
        defer { scratch.remove() }
        _ = try DataSetGenerator.generate(.banks, rows: 6_000, seed: 3, into: scratch.url)
        let certs = try scratch.rows("banklist.csv").map { $0["Cert "]! }
        #expect(certs.count == 6_000)
        #expect(Set(certs).count == 6_000)
    }
}
