import Foundation
import ManagedStore
import Testing

/// `seedstore query` with --properties, --group-by, --having, --distinct and --count, and the
/// numeric options, end to end on a small failed-banks store made here.
@Suite(.enabled(if: CLI.hasBinary, CLI.noBinary))
final class QueryDictionaryCLITests {
    let directory = CLI.temporaryDirectory()
    let store: String

    deinit { try? FileManager.default.removeItem(at: directory) }

    init() throws {
        store = directory.appendingPathComponent("Banks.sqlite").path
        let context = try CLI.store(at: store, model: "failedbank")
        for (name, city, state) in [("Signature Bank", "New York", "NY"), ("First Republic", "San Francisco", "CA"),
                                    ("Silicon Valley Bank", "Santa Clara", "CA"), ("Heartland Tri-State", "Elkhart", "KS")] {
            let info = try context.insert("FailedBankInfo")
            info["name"] = .string(name)
            info["city"] = .string(city)
            info["state"] = .string(state)
        }
        try context.save()
    }

    func query(_ arguments: [String]) throws -> CLI.Result {
        try CLI.run(["query", store, "--entity", "FailedBankInfo"] + arguments)
    }

    @Test func propertiesUnderOneNameAreRefusedInEveryFormat() throws {
        let cases = [(["--properties", "name,name"], "FailedBankInfo.name: fetched twice", "leave out the repeat"),
                     (["--properties", "count(*) as n, max(name) as n"], "FailedBankInfo.n: fetched twice", "max(name) as max_name"),
                     (["--properties", "state,count(state) as state", "--group-by", "state"], "FailedBankInfo.state: fetched twice",
                      "count(state) as count_state"),
                     // A user trial: the advice named the colliding name itself.
                     (["--properties", "max(name),max(name)"], "FailedBankInfo.max_name: fetched twice", "max(name) as max_name_2")]
        for (arguments, head, advice) in cases {
            for format in ["json", "csv", "table"] {
                let result = try query(arguments + ["--format", format])
                #expect(result.status == 64, "\(arguments) \(format): \(result.stderr)")
                #expect(!result.stderr.contains("Fatal error"))
                #expect(result.stderr.contains(head) && result.stderr.contains(advice), "\(arguments) \(format): \(result.stderr)")
            }
            let count = try query(arguments + ["--count"])
            #expect(count.status == 64 && count.stderr.contains(head), "\(arguments) --count: \(count.stderr)")
        }
    }

    @Test func countCountsTheRowsTheRequestReturns() throws {
        let grouped = try query(["--properties", "state,count(*) as n", "--group-by", "state", "--having", "n > 1", "--count"])
        #expect(grouped.stdout == "1\n", "one state with more than one bank: \(grouped.stderr)")
        let groups = try query(["--properties", "state,count(*) as n", "--group-by", "state", "--count"])
        #expect(groups.stdout == "3\n")
        let distinct = try query(["--properties", "state", "--distinct", "--count"])
        #expect(distinct.stdout == "3\n")
        let plain = try query(["--count", "--stats"])
        #expect(plain.stdout == "4\n")
        #expect(plain.stderr.contains("stats: 1 statement(s)"))
    }

    @Test func groupedFetchesHaveAndSortOnlyByGroupKeysAndAggregateNames() throws {
        let grouped = ["--properties", "state,count(name) as n", "--group-by", "state"]
        let city = try query(grouped + ["--having", "city BEGINSWITH 'S'"])
        #expect(city.status == 64 && city.stdout.isEmpty)
        #expect(city.stderr.contains("FailedBankInfo.city: named in the having predicate") && city.stderr.contains("--where"), "\(city.stderr)")
        let any = try query(grouped + ["--having", "ANY details.tags.name == 'vip'"])
        #expect(any.status == 64 && any.stderr.contains("ANY, ALL or NONE"), "\(any.stderr)")
        let sort = try query(grouped + ["--sort", "city"])
        #expect(sort.status == 64 && sort.stderr.contains("FailedBankInfo.city: sorts a fetch grouped by [state]"), "\(sort.stderr)")

        let byCount = try query(grouped + ["--sort", "-n,state", "--format", "csv"])
        #expect(byCount.stdout == "state,n\r\nCA,2\r\nKS,1\r\nNY,1\r\n", "\(byCount.stderr)")
        let having = try query(grouped + ["--having", "n > 1 OR state == 'KS'", "--sort", "state", "--format", "csv"])
        #expect(having.stdout == "state,n\r\nCA,2\r\nKS,1\r\n", "\(having.stderr)")
    }

    /// An iOS engineer's check: `sum(x)` over no rows printed null while `@sum` of an empty set is 0.
    @Test func sumOfNoValuesIsZeroAndAverageNull() throws {
        // No bank here has details: every zip is null.
        let all = try query(["--properties", "sum(details.zip) as total,avg(details.zip) as mean", "--format", "csv"])
        #expect(all.status == 0 && all.stdout == "total,mean\r\n0,\r\n", "\(all.stdout) \(all.stderr)")
        let none = try query(["--properties", "sum(details.zip) as total", "--where", "name == 'no such bank'", "--format", "json"])
        #expect(none.status == 0 && none.stdout.contains("\"total\" : 0"), "\(none.stdout) \(none.stderr)")
        let grouped = try query(["--properties", "state,sum(details.zip) as total", "--group-by", "state", "--sort", "state", "--format", "csv"])
        #expect(grouped.stdout == "state,total\r\nCA,0\r\nKS,0\r\nNY,0\r\n", "\(grouped.stdout) \(grouped.stderr)")
    }

    @Test func keysMixedWithAggregatesNeedGroupBy() throws {
        for format in ["table", "json", "csv"] {
            let result = try query(["--properties", "name,count(*) as n", "--format", format])
            #expect(result.status == 64 && result.stdout.isEmpty, "\(format): an arbitrary name was printed: \(result.stdout)")
            #expect(result.stderr.contains("FailedBankInfo.name: fetched with the aggregate 'count(*) as n' but without propertiesToGroupBy"),
                    "\(format): \(result.stderr)")
            #expect(result.stderr.contains("--group-by name"), "\(format): \(result.stderr)")
        }
        let count = try query(["--properties", "name,count(*) as n", "--count"])
        #expect(count.status == 64 && count.stderr.contains("FailedBankInfo.name: fetched with the aggregate"), "\(count.stderr)")
        let grouped = try query(["--properties", "state,count(*) as n", "--group-by", "state", "--sort", "state", "--format", "csv"])
        #expect(grouped.stdout == "state,n\r\nCA,2\r\nKS,1\r\nNY,1\r\n", "\(grouped.stderr)")
    }

    @Test func havingWithAnAggregateCallSaysToFetchItUnderAName() throws {
        let result = try query(["--properties", "state,count(city) as c", "--group-by", "state", "--having", "count(name) > 1"])
        #expect(result.status == 64, "a usage error: \(result.stderr)")
        #expect(result.stderr.contains("fetch count(name) with a name (--properties ...,\"count(name) as count_name\")"), "\(result.stderr)")
        #expect(result.stderr.contains("--having \"count_name > 1\""), "\(result.stderr)")
        // Fetched already under a name: that name is the one to write.
        let fetched = try query(["--properties", "state,count(name) as n", "--group-by", "state", "--having", "count(name) > 1"])
        #expect(fetched.status == 64)
        #expect(fetched.stderr.contains("you fetch count(name) as n, so write --having \"n > 1\""), "\(fetched.stderr)")
        let help = try CLI.run(["query", "--help"])
        #expect(help.stdout.contains("naming") && help.stdout.contains("--having \"n > 2\""), "\(help.stdout)")
    }

    @Test func negativeNumbersAreRefusedAsValues() throws {
        for (option, zero) in [("--limit", "no limit"), ("--offset", "skip none"), ("--batch-size", "load all at once")] {
            for arguments in [[option, "-1"], ["\(option)=-1"]] {
                let result = try query(arguments)
                #expect(result.status == 64, "\(arguments): \(result.stderr)")
                #expect(result.stderr.contains("\(option) -1 is negative: give a number of 0 or more (0: \(zero))"), "\(arguments): \(result.stderr)")
                #expect(!result.stderr.contains("Missing value"))
            }
        }
        let limited = try query(["--limit", "2", "--offset", "1", "--properties", "name", "--sort", "name", "--format", "csv"])
        #expect(limited.stdout == "name\r\nHeartland Tri-State\r\nSignature Bank\r\n", "\(limited.stderr)")
    }
}
