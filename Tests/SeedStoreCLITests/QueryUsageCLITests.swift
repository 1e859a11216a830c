import Foundation
import ManagedStore
import Testing

/// `seedstore query` arguments a user trial found answered wrongly: sort keys that exit 1 where other
/// usage errors exit 64, a string comparison on a number silently ignored, a `%@` with no way to give
/// its argument, a relationship compared with its destinations' row numbers, and parse errors that exit 1.
@Suite(.enabled(if: CLI.hasBinary, CLI.noBinary))
final class QueryUsageCLITests {
    let directory = CLI.temporaryDirectory()
    let store: String

    deinit { try? FileManager.default.removeItem(at: directory) }

    init() throws {
        store = directory.appendingPathComponent("FDIC.sqlite").path
        let context = try CLI.store(at: store, model: "fdic")
        for (cert, name) in [(15741, "First Bank"), (57053, "State Bank")] {
            let details = try context.insert("FailedBankDetails")
            details["cert"] = .integer(Int64(cert))
            let info = try context.insert("FailedBankInfo")
            info["name"] = .string(name)
            try info.setObject(details, forKey: "details")
        }
        try context.save()
    }

    func query(_ entity: String, _ arguments: [String]) throws -> CLI.Result {
        try CLI.run(["query", store, "--entity", entity, "--format", "csv"] + arguments)
    }

    @Test("a sort key that does not parse is a usage error: exit 64, as --limit -1 is")
    func malformedSortKeysExit64() throws {
        for sort in ["cert:up", "-cert:asc", "cert[x]", "ce rt"] {
            let result = try query("FailedBankDetails", ["--sort", sort, "--properties", "cert"])
            #expect(result.status == 64 && result.stdout.isEmpty, "--sort \(sort): exit \(result.status) \(result.stderr)")
            #expect(result.stderr.hasPrefix("error: --sort: '"), "--sort \(sort): \(result.stderr)")
        }
        #expect(try query("FailedBankDetails", ["--limit", "-1"]).status == 64)
    }

    @Test("a property the entity lacks, in --where, --sort, --properties or --prefetch, is a usage error: exit 64, naming it")
    func unknownPropertiesExit64() throws {
        for arguments in [["--where", "bogus == 1"], ["--sort", "bogus"], ["--properties", "bogus"], ["--prefetch", "detials"]] {
            let result = try query("FailedBankInfo", arguments)
            #expect(result.status == 64 && result.stdout.isEmpty, "\(arguments): exit \(result.status) \(result.stderr)")
            #expect(result.stderr.hasPrefix("error: entity FailedBankInfo has no property '"), "\(arguments): \(result.stderr)")
        }
        #expect(try query("FailedBankInfo", ["--prefetch", "detials"]).stderr.contains("did you mean 'details'?"))
        // An entity the model lacks is one too (trial X).
        let entity = try query("Nope", [])
        #expect(entity.status == 64 && entity.stderr.hasPrefix("error: the model has no entity 'Nope'"), "\(entity.stderr)")
        // A property used in a way it cannot be: an attribute to prefetch, a key after an attribute (trial W).
        for arguments in [["--prefetch", "name"], ["--properties", "name.x"]] {
            let result = try query("FailedBankInfo", arguments)
            #expect(result.status == 64 && result.stdout.isEmpty, "\(arguments): exit \(result.status) \(result.stderr)")
            #expect(result.stderr.contains("'name' is an attribute of FailedBankInfo"), "\(arguments): \(result.stderr)")
        }
    }

    @Test("[c], [d], [cd] and [l] on an attribute that is no String are refused, naming its type, as Foundation has them for strings only")
    func stringComparisonsOnOtherTypesAreRefused() throws {
        for (sort, flag, type) in [("cert[c]", "[c]", "an Integer 32 attribute"), ("-closeDate[l]", "[l]", "a Date attribute"),
                                   ("fund[cd]", "[cd]", "an Integer 32 attribute")] {
            let result = try query("FailedBankDetails", ["--sort", sort, "--properties", "cert"])
            #expect(result.status == 64 && result.stdout.isEmpty, "--sort \(sort): exit \(result.status)")
            #expect(result.stderr.contains("is \(type), and \(flag)") && result.stderr.contains("compares strings only"), "\(result.stderr)")
        }
        let through = try query("FailedBankInfo", ["--sort", "details.cert[l]"])
        #expect(through.status == 64 && through.stderr.contains("FailedBankDetails.cert is an Integer 32 attribute"), "\(through.stderr)")
        // On a String it still sorts.
        let text = try query("FailedBankInfo", ["--sort", "name[c]", "--properties", "name"])
        #expect(text.status == 0 && text.stdout == "name\r\nFirst Bank\r\nState Bank\r\n", "\(text.stderr)")
    }

    @Test("a format specifier in --where or --having says the command line has no arguments: write the value in, exit 64 like $variable")
    func formatSpecifiersSayToWriteTheValue() throws {
        let specifier = try query("FailedBankDetails", ["--where", "cert == %@", "--properties", "cert"])
        #expect(specifier.status == 64 && specifier.stdout.isEmpty, "exit \(specifier.status)")
        #expect(specifier.stderr.contains("format specifier %@") && specifier.stderr.contains("write the value into the predicate"),
                "\(specifier.stderr)")
        #expect(!specifier.stderr.contains("0 were given"), "\(specifier.stderr)")
        let key = try query("FailedBankDetails", ["--where", "%K == 5", "--properties", "cert"])
        #expect(key.status == 64 && key.stderr.contains("format specifier %K"), "\(key.stderr)")
        let having = try query("FailedBankDetails", ["--properties", "fund,count(cert) as n", "--group-by", "fund", "--having", "n > %d"])
        #expect(having.status == 64 && having.stderr.contains("--having \"n > %d\" has the format specifier %d"), "\(having.stderr)")
        #expect(try query("FailedBankDetails", ["--where", "cert == $CERT"]).status == 64, "the $variable refusal it matches")
    }

    @Test("a to-one relationship compared with a number or text is a usage error (exit 64), suggesting the destination's key; == nil still tests for none")
    func toOneComparedWithALiteralIsRefused() throws {
        for predicate in ["details == 1", "details != 'x'", "details IN {1, 2}", "NOT (2 == details)"] {
            let result = try query("FailedBankInfo", ["--where", predicate, "--properties", "name"])
            #expect(result.status == 64 && result.stdout.isEmpty, "\(predicate): exit \(result.status) \(result.stdout)")
            #expect(result.stderr.hasPrefix("error: --where: "), "\(result.stderr)")
            #expect(result.stderr.contains("FailedBankInfo.details is a to-one relationship to FailedBankDetails"), "\(result.stderr)")
            // cert is the indexed attribute: the likely key.
            #expect(result.stderr.contains("details.cert "), "\(predicate): \(result.stderr)")
        }
        let none = try query("FailedBankInfo", ["--where", "details == nil", "--properties", "name"])
        #expect(none.status == 0 && none.stdout == "name\r\n", "\(none.stderr)")
        let byKey = try query("FailedBankInfo", ["--where", "details.cert == 57053", "--properties", "name"])
        #expect(byKey.status == 0 && byKey.stdout == "name\r\nState Bank\r\n", "\(byKey.stderr)")
    }

    /// An iOS engineer's check on a wells store: `details == 5` suggested `details.operator_id`, the
    /// destination's reference to an Operator, when WellDetail's key is `uwi`.
    @Test("the key suggested for a to-one compared with a literal is the destination's own: its ID by name, else its required indexed attribute, else its attributes listed")
    func toOneSuggestionNamesTheDestinationsOwnKey() throws {
        let model = try ObjectModel(json: Data("""
            {"entities": [
              {"name": "Operator", "attributes": [{"name": "name", "type": "String", "optional": false, "indexed": true},
                                                  {"name": "operator_id", "type": "Integer 32", "optional": false}],
               "relationships": [{"name": "details", "destination": "WellDetail", "inverse": "operator", "toMany": true}]},
              {"name": "WellDetail", "attributes": [{"name": "operator_id", "type": "Integer 32", "optional": false},
                                                    {"name": "uwi", "type": "String", "optional": false, "indexed": true}],
               "relationships": [{"name": "operator", "destination": "Operator", "inverse": "details", "toMany": false},
                                 {"name": "note", "destination": "Note", "inverse": "detail", "toMany": false},
                                 {"name": "summary", "destination": "WellSummary", "inverse": "details", "toMany": false}]},
              {"name": "WellSummary", "attributes": [{"name": "uwi", "type": "String", "optional": false, "indexed": true}],
               "relationships": [{"name": "details", "destination": "WellDetail", "inverse": "summary", "toMany": false}]},
              {"name": "Note", "attributes": [{"name": "text", "type": "String"}, {"name": "written", "type": "Date"}],
               "relationships": [{"name": "detail", "destination": "WellDetail", "inverse": "note", "toMany": false}]}
            ]}
            """.utf8))
        let path = directory.appendingPathComponent("Wells.sqlite").path
        let context = ManagedObjectContext(store: try PersistentStore(path: path, model: model))
        let summary = try context.insert("WellSummary")
        summary["uwi"] = .string("100/01-01-001-01W1/0")
        try context.save()
        let cases = [("WellSummary", "details == 5", "details.uwi == '5'"),
                     ("WellSummary", "details IN {1, 2}", "details.uwi IN {'1', '2'}"),
                     ("WellSummary", "details.operator == 102", "details.operator.operator_id == 102"),
                     ("WellDetail", "note == 'x'", "compare one of Note's attributes (text, written): note.NAME == \"x\"")]
        for (entity, predicate, suggestion) in cases {
            let result = try CLI.run(["query", path, "--entity", entity, "--where", predicate])
            #expect(result.status == 64 && result.stdout.isEmpty, "\(predicate): exit \(result.status)")
            #expect(result.stderr.contains(suggestion), "\(predicate): \(result.stderr)")
            #expect(!result.stderr.contains("details.operator_id"), "\(predicate): \(result.stderr)")
        }
    }

    /// A user trial: `ANY wells == 5`, `wells CONTAINS 5` and `5 IN wells` silently compared the wells'
    /// Z_PK, where `details == 5` on a to-one was refused.
    @Test("a to-many relationship compared with a number or text is a usage error (exit 64) suggesting ANY/ALL/NONE on the destination's key; @count and key paths still run")
    func toManyComparedWithALiteralIsRefused() throws {
        let model = try ObjectModel(json: Data("""
            {"entities": [
              {"name": "Operator", "attributes": [{"name": "operator_id", "type": "Integer 32", "optional": false, "indexed": true}],
               "relationships": [{"name": "wells", "destination": "Well", "inverse": "operator", "toMany": true}]},
              {"name": "Well", "attributes": [{"name": "uwi", "type": "String", "optional": false, "indexed": true}],
               "relationships": [{"name": "operator", "destination": "Operator", "inverse": "wells", "toMany": false}]}
            ]}
            """.utf8))
        let path = directory.appendingPathComponent("Operators.sqlite").path
        let context = ManagedObjectContext(store: try PersistentStore(path: path, model: model))
        let company = try context.insert("Operator")
        company["operator_id"] = .integer(102)
        for uwi in ["A-1", "A-2"] {
            let well = try context.insert("Well")
            well["uwi"] = .string(uwi)
            try well.setObject(company, forKey: "operator")
        }
        try context.save()
        let cases = [("ANY wells == 1", "ANY wells.uwi == '1'"), ("SOME wells != 1", "ANY wells.uwi != '1'"),
                     ("ALL wells < 2", "ALL wells.uwi < '2'"), ("NONE wells > 2", "NONE wells.uwi > '2'"),
                     ("ANY wells IN {1, 2}", "ANY wells.uwi IN {'1', '2'}"), ("ANY wells BETWEEN {1, 2}", "ANY wells.uwi BETWEEN {'1', '2'}"),
                     ("wells CONTAINS 1", "ANY wells.uwi == '1'"), ("1 IN wells", "ANY wells.uwi == '1'"),
                     ("wells == 1", "ANY wells.uwi == '1'"), ("ANY wells == 'A-1'", "ANY wells.uwi == \"A-1\""),
                     ("operator_id == 102 AND NOT (1 IN wells)", "ANY wells.uwi == '1'")]
        for (predicate, suggestion) in cases {
            let result = try CLI.run(["query", path, "--entity", "Operator", "--where", predicate, "--count"])
            #expect(result.status == 64 && result.stdout.isEmpty, "\(predicate): exit \(result.status) \(result.stdout)")
            #expect(result.stderr.hasPrefix("error: --where: Operator.wells is a to-many relationship to Well"), "\(predicate): \(result.stderr)")
            #expect(result.stderr.contains("compare the destinations' key: \(suggestion) (wells.@count == 0 tests for no Well)"),
                    "\(predicate): \(result.stderr)")
        }
        // A to-one reached through a to-many compares row numbers too.
        let through = try CLI.run(["query", path, "--entity", "Operator", "--where", "ANY wells.operator == 1", "--count"])
        #expect(through.status == 64 && through.stderr.contains("Well.operator is a to-one relationship to Operator, reached through a to-many"),
                "\(through.stderr)")
        #expect(through.stderr.contains("ANY wells.operator.operator_id == 1"), "\(through.stderr)")
        // Counts, the destinations' attributes and a test for none are no row numbers: they run, or fail for their own reason.
        for (predicate, count) in [("wells.@count == 2", "1"), ("ANY wells.uwi == 'A-2'", "1"), ("wells.@count == 0", "0"),
                                   ("SUBQUERY(wells, $w, $w.uwi BEGINSWITH 'A').@count == 2", "1")] {
            let result = try CLI.run(["query", path, "--entity", "Operator", "--where", predicate, "--count"])
            #expect(result.status == 0 && result.stdout == count + "\n", "\(predicate): \(result.stdout) \(result.stderr)")
        }
        let none = try CLI.run(["query", path, "--entity", "Operator", "--where", "wells == nil", "--count"])
        #expect(!none.stderr.contains("Z_PK"), "\(none.stderr)")
        let toOne = try CLI.run(["query", path, "--entity", "Well", "--where", "operator == nil", "--count"])
        #expect(toOne.status == 0 && toOne.stdout == "0\n", "\(toOne.stderr)")
    }

    /// A user trial: `[FIRST]` refusals and other predicates that do not parse exited 1, where usage errors exit 64.
    @Test("a --where, --having or --properties that does not parse is a usage error: exit 64, the option named first")
    func parseErrorsExit64() throws {
        let cases = [(["--where", "details[FIRST].cert == 1"], "error: --where: details[FIRST] picks an element by position"),
                     (["--where", "details[LAST].cert == 1"], "error: --where: details[LAST] picks an element by position"),
                     (["--where", "name =="], "error: --where: expected a value after =="),
                     (["--where", "name == 'x' AND"], "error: --where: "),
                     (["--properties", "count("], "error: --properties: 'count(' is not a property"),
                     (["--properties", "name,first name"], "error: --properties: 'first name' is not a property"),
                     (["--properties", "name,count(*) as n", "--group-by", "name", "--having", "n >"], "error: --having: expected a value after >")]
        for (arguments, head) in cases {
            let result = try query("FailedBankInfo", arguments)
            #expect(result.status == 64 && result.stdout.isEmpty, "\(arguments): exit \(result.status) \(result.stderr)")
            #expect(result.stderr.hasPrefix(head), "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("Usage: seedstore query"), "this command's usage line: \(result.stderr)")
        }
        // Refused before the store is opened, as other usage errors are.
        let unopened = try CLI.run(["query", directory.appendingPathComponent("none.sqlite").path, "--entity", "X", "--where", "a =="])
        #expect(unopened.status == 64 && unopened.stderr.hasPrefix("error: --where: "), "\(unopened.stderr)")
    }

    @Test("--limit help says 0 means no limit, as the error for -1 does")
    func limitHelpSaysZeroIsNoLimit() throws {
        let help = try CLI.run(["query", "--help"])
        #expect(help.stdout.contains("(0: no limit)"), "\(help.stdout)")
    }
}
