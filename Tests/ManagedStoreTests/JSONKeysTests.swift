import Testing
@testable import ManagedStore

/// Unknown keys in hand-written JSON objects: named, with the nearest allowed key and the list.
@Suite struct JSONKeysTests {
    let keys = JSONKeys(["name", "type", "optional", "indexed", "default", "transformer"])

    @Test("a misspelt key is named with the allowed key it is closest to")
    func suggestsTheNearest() {
        #expect(keys.problems(in: ["name": "x", "optinal": false, "indexd": true]) == [
            "unknown key \"indexd\"; did you mean \"indexed\"? (expected one of default, indexed, name, optional, transformer, type)",
            "unknown key \"optinal\"; did you mean \"optional\"? (expected one of default, indexed, name, optional, transformer, type)",
        ])
    }

    @Test("a key close to none is named with the allowed keys only")
    func noSuggestionWhenNothingIsClose() {
        #expect(keys.problems(in: ["precision": 3]) == [
            "unknown key \"precision\" (expected one of default, indexed, name, optional, transformer, type)",
        ])
    }

    @Test("an object of allowed keys has no problems")
    func allowedKeysPass() {
        #expect(keys.problems(in: ["name": "x", "type": "String", "default": "a"]).isEmpty)
    }
}
