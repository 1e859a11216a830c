@testable import SeedImport
import Testing

@Suite("Name suggestions")
struct NameSuggestionTests {
    @Test("a name close to nothing lists the names there are; one differing only in case or separators is named alone")
    func kinds() {
        #expect(_NameSuggestion.text(for: "Zebra", in: ["Person", "Team"]) == " (it has: Person, Team)")
        #expect(_NameSuggestion.text(for: "team", in: ["Person", "Team"]) == "; did you mean 'Team'?")
        #expect(_NameSuggestion.text(for: "spud date", in: ["uwi", "spud_date"]) == "; did you mean 'spud_date'?")
        #expect(_NameSuggestion.text(for: "spudDate", in: ["uwi", "spud_date"]) == "; did you mean 'spud_date'?")
        #expect(_NameSuggestion.text(for: "spud_dat", in: ["uwi", "spud_date"]) == "; did you mean 'spud_date'? (it has: uwi, spud_date)")
        #expect(_NameSuggestion.text(for: "x", in: []) == "")
    }

    @Test("the closest name wins over a farther one, and a short name is not stretched to a long one")
    func closest() {
        #expect(_NameSuggestion.closest(to: "operater", in: ["operator", "operators_list"]) == "operator")
        #expect(_NameSuggestion.closest(to: "id", in: ["name", "uwi"]) == nil)
    }
}
