import Foundation

/// The tasks data set: `tasks.csv` (`task_description,priority,completed`)
/// for the to-do list of the seed documents, starting with "Go to the bank".
///
/// Priority runs from 1 (highest) to 4, and 5 means none (the most common);
/// `completed` is `true` or `false`. A few descriptions hold commas or
/// quotes.
struct _TasksDataSet {
    let rows: Int
    let seed: UInt64
    let directory: URL

    static let columns = ["task_description", "priority", "completed"]
    static let firstTask = "Go to the bank"

    private static let errands: [String] = [
        "Call the plumber", "Renew passport", "Book dentist appointment", "Water the plants",
        "Pay the electricity bill", "Return library books", "Take the car for an oil change",
        "Email the landlord", "Back up the laptop", "Clean the gutters", "Buy a birthday card",
        "Cancel the gym membership", "Schedule a haircut", "Defrost the freezer", "Pick up dry cleaning",
        "Replace smoke alarm batteries", "File expense report", "Walk the dog", "Mow the lawn",
        "Fix the squeaky door", "Order printer ink", "Update resume", "Recycle old batteries",
    ]
    private static let shopping = [
        "milk", "eggs", "bread", "coffee", "apples", "rice", "soap", "batteries", "tea",
    ]
    private static let people = ["Mum", "Dad", "Priya", "Tom", "Aunt Jo", "the accountant", "Sam", "Grandpa"]
    private static let books = ["Dune", "Middlemarch", "The Hobbit", "Emma", "Kindred", "Beloved"]

    func write() throws -> [GeneratedFile] {
        var rng = _Xoshiro256StarStar(seed: seed, stream: "tasks")
        var writer = try _GeneratedCSVWriter(
            url: directory.appendingPathComponent("tasks.csv"), columns: Self.columns)
        let priorities = _GeneratorWeights([12, 14, 14, 15, 45])
        let yes = Array("true".utf8)
        let no = Array("false".utf8)
        for row in 0..<rows {
            if row == 0 {
                writer.text(Self.firstTask)
                writer.integer(5)
                writer.plain(no)
            } else {
                writer.text(description(&rng))
                writer.integer(rng.weightedIndex(priorities) + 1)
                writer.plain(rng.chance(0.3) ? yes : no)
            }
            try writer.endRecord()
        }
        return [
            try writer.finish(),
            try DataSetGenerator.writeJSON(
                Self.model.json, role: .model, named: "tasks.model.json", in: directory),
            try DataSetGenerator.writeJSON(
                Self.mapping, role: .mapping, named: "tasks.mapping.json", in: directory),
        ]
    }

    private func description(_ rng: inout _Xoshiro256StarStar) -> String {
        switch rng.below(10) {
        case 0, 1:
            // Three different items: step through the list by a stride
            // that never lands on the same one twice.
            let count = Self.shopping.count
            let first = rng.below(count)
            let stride = rng.int(in: 1...(count - 1) / 2)
            let items = (0..<3).map { Self.shopping[(first + $0 * stride) % count] }
            return "Buy \(items[0]), \(items[1]) and \(items[2])"
        case 2:
            return "Call \(rng.pick(Self.people))"
        case 3:
            return "Pick up \"\(rng.pick(Self.books))\" from the library"
        case 4:
            return "Send \(rng.pick(Self.people)) the photos"
        default:
            return rng.pick(Self.errands)
        }
    }

    static let model: _GeneratedModel = {
        let model = _GeneratedModel(entities: [
            .init(
                name: "Task",
                attributes: [
                    .init(name: "task_description", type: "String", optional: false),
                    .init(name: "priority", type: "Integer 32", optional: false, defaultValue: 5),
                    .init(name: "completed", type: "Boolean", optional: false, defaultValue: false),
                ])
        ])
        model.validate()
        return model
    }()

    /// Tasks have no unique attribute, so the target has no key.
    static let mapping: _OrderedJSON = [
        "format": 1,
        "model": "tasks.model.json",
        "defaults": DataSetGenerator.mappingDefaults,
        "files": [
            [
                "path": "tasks.csv",
                "targets": [["entity": "Task"]],
            ]
        ],
    ]
}
