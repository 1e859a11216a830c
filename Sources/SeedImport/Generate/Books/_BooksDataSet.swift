import Foundation

/// The books data set: `books.csv` (`title,author,copyright`) in the spirit
/// of Apple's CoreDataBooks sample, with a `Book` model listed in sections
/// by author.
///
/// The default twelve books are a fixed, invented list by seven authors,
/// shuffled by the seed, with copyright years fixed and days drawn; one is
/// from 1910, before the 2001 reference date, so negative timestamps get
/// exercised. Beyond twelve, more books come from invented authors, about
/// four books each, a few without a copyright date.
struct _BooksDataSet {
    let rows: Int
    let seed: UInt64
    let directory: URL

    static let columns = ["title", "author", "copyright"]

    static let curated: [(title: String, author: String, year: Int)] = [
        ("The Lantern Keeper", "Harriet Ashdown", 1987),
        ("Salt and Cinders", "Harriet Ashdown", 1992),
        ("A Map of Quiet Rivers", "Marcus Fenwick", 2004),
        ("The Cartographer's Daughter", "Marcus Fenwick", 2008),
        ("Letters from the Orchard", "Eleanor Quill", 1910),
        ("The Glass Conservatory", "Eleanor Quill", 1923),
        ("Midnight at the \"Grand\" Observatory", "Tobias Wren", 2015),
        ("Under a Copper Sky", "Clara Montague", 1999),
        ("Weathervane", "Clara Montague", 2001),
        ("Mr. Pemberton's Umbrella", "Percival Hobbs", 1926),
        ("North of Everything", "Ada Lindqvist", 2011),
        ("The Winter Ledger, Volume One", "Ada Lindqvist", 2019),
    ]

    private static let firstNames = [
        "Agnes", "Basil", "Cordelia", "Desmond", "Edith", "Felix", "Greta", "Horace", "Imogen",
        "Jasper", "Katya", "Lionel", "Mabel", "Nico", "Ottilie", "Piers", "Rosalind", "Silas",
        "Thea", "Ulric", "Vera", "Wilfred", "Yara", "Zeno",
    ]
    private static let lastNames = [
        "Abernathy", "Blackwood", "Crowhurst", "Delacroix", "Ellingham", "Fairweather", "Grimsby",
        "Hawthorne", "Ivanova", "Jessop", "Kettleby", "Larkspur", "Marlowe", "Nightingale",
        "Oakenshaw", "Penhaligon", "Quennell", "Rookwood", "Sallow", "Tennant", "Umberley", "Vantongeren",
        "Whitlock", "Yardley",
    ]
    private static let adjectives = [
        "Silent", "Crimson", "Forgotten", "Golden", "Hollow", "Last", "Midnight", "Paper", "Restless",
        "Secret", "Shattered", "Wandering", "Winter", "Distant", "Burning", "Lonely",
    ]
    private static let nouns = [
        "Garden", "Harbor", "Lighthouse", "Orchard", "Compass", "Almanac", "Meridian", "Letters",
        "Tide", "Cathedral", "Archive", "Clockmaker", "Ferryman", "Menagerie", "Atlas", "Sparrow",
    ]
    private static let places = [
        "Ashford", "the North", "Lisbon", "the Marsh", "Kilmory", "the Valley", "Samarkand",
        "the Old Quarter", "Port Avalon", "the Steppe",
    ]

    func write() throws -> [GeneratedFile] {
        var rng = _Xoshiro256StarStar(seed: seed, stream: "books")
        var writer = try _GeneratedCSVWriter(
            url: directory.appendingPathComponent("books.csv"), columns: Self.columns)
        let order = _FeistelPermutation(domain: UInt64(Self.curated.count), key: seed ^ 0x626f_6f6b)
        for index in 0..<min(rows, Self.curated.count) {
            let book = Self.curated[order(index)]
            writer.text(book.title)
            writer.text(book.author)
            writer.isoDate(Self.day(in: book.year, &rng))
            try writer.endRecord()
        }
        if rows > Self.curated.count {
            let extra = rows - Self.curated.count
            let authorCount = max(1, (extra + 3) / 4)
            let authors = (0..<authorCount).map { index in
                let first = Self.firstNames[index % Self.firstNames.count]
                let last = Self.lastNames[(index / Self.firstNames.count + index * 7) % Self.lastNames.count]
                let generation = index / (Self.firstNames.count * Self.lastNames.count)
                return generation == 0 ? "\(first) \(last)" : "\(first) \(last) \(generation + 1)"
            }
            for _ in 0..<extra {
                writer.text(title(&rng))
                writer.text(authors[rng.below(authorCount)])
                if rng.chance(0.05) {
                    writer.empty()
                } else {
                    writer.isoDate(Self.day(in: rng.int(in: 1850...2023), &rng))
                }
                try writer.endRecord()
            }
        }
        return [
            try writer.finish(),
            try DataSetGenerator.writeJSON(
                Self.model.json, role: .model, named: "books.model.json", in: directory),
            try DataSetGenerator.writeJSON(
                Self.mapping, role: .mapping, named: "books.mapping.json", in: directory),
        ]
    }

    private static func day(in year: Int, _ rng: inout _Xoshiro256StarStar) -> Int {
        _CivilCalendar.days(year: year, month: 1, day: 1)
            + rng.below(_CivilCalendar.length(ofYear: year))
    }

    private func title(_ rng: inout _Xoshiro256StarStar) -> String {
        let adjective = rng.pick(Self.adjectives)
        let noun = rng.pick(Self.nouns)
        switch rng.below(6) {
        case 0: return "The \(adjective) \(noun)"
        case 1: return "\(noun) of \(rng.pick(Self.places))"
        case 2: return "A \(noun) for \(rng.pick(Self.firstNames))"
        case 3: return "The \(noun), the \(rng.pick(Self.nouns)), and \(rng.pick(Self.places))"
        case 4: return "\(adjective) \(noun)s"
        default: return "The \"\(adjective)\" \(noun)"
        }
    }

    static let model: _GeneratedModel = {
        let model = _GeneratedModel(entities: [
            .init(
                name: "Book",
                attributes: [
                    .init(name: "title", type: "String", optional: false),
                    .init(name: "author", type: "String", optional: false, indexed: true),
                    .init(name: "copyright", type: "Date"),
                ])
        ])
        model.validate()
        return model
    }()

    /// Books have no unique attribute, so the target has no key: every row
    /// inserts a book.
    static let mapping: _OrderedJSON = [
        "format": 1,
        "model": "books.model.json",
        "defaults": DataSetGenerator.mappingDefaults,
        "files": [
            [
                "path": "books.csv",
                "targets": [
                    [
                        "entity": "Book",
                        "columns": ["copyright": ["column": "copyright", "format": "yyyy-MM-dd"]],
                    ]
                ],
            ]
        ],
    ]
}
