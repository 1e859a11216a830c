import PropertyBased
@testable import SeedImport
import Testing

/// Finding columns by name: the lookup (built once per header, so a 1,500-column file does not take
/// seconds to plan) answers as the rule says, which a pass over the header spells out.
@Suite("Import: finding columns by header name")
struct HeaderLookupTests {
    /// The documented rule, one pass at a time: exactly after trimming, first; then folded; first column wins.
    static func linear(_ name: String, in header: [String]) -> Int? {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        if let exact = header.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == trimmed }) { return exact }
        let folded = HeaderName.fold(name)
        guard !folded.isEmpty else { return nil }
        return header.firstIndex { HeaderName.fold($0) == folded }
    }

    @Test("property: the lookup finds the column the rule names, repeated and folded names included")
    func matchesRule() async {
        // Few distinct pieces, so names repeat, fold together ("A b", "a_B") or fold to nothing ("_ ").
        let pieces = ["a", "A", "b", "_", " ", "-", "1", "é", "\t"]
        let piece = Gen.int(in: 0...(pieces.count - 1)).map { pieces[$0] }
        let name = piece.array(of: 0...4).map { $0.joined() }
        await propertyCheck(input: zip(name.array(of: 0...12), name.array(of: 1...6))) { header, probes in
            let lookup = HeaderName.Lookup(header: header, columnCount: header.count)
            for probe in probes + header {
                #expect(lookup.index(of: probe) == Self.linear(probe, in: header), "\(probe.debugDescription) in \(header)")
                #expect(lookup.count(of: probe) == header.filter { $0.trimmingCharacters(in: .whitespaces) == probe.trimmingCharacters(in: .whitespaces) }.count)
            }
        }
    }

    @Test("without a header, names are 1-based positions")
    func positions() {
        let lookup = HeaderName.Lookup(header: nil, columnCount: 3)
        #expect(lookup.index(of: "1") == 0 && lookup.index(of: " 3 ") == 2)
        #expect(lookup.index(of: "0") == nil && lookup.index(of: "4") == nil && lookup.index(of: "a") == nil)
        #expect(HeaderName.index(of: "Well Name", in: ["uwi", "well_name"], columnCount: 2) == 1)
    }
}
