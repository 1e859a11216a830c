import Foundation

/// The failed banks data set: `banklist.csv` in the current FDIC format with
/// its quirks, `tags.csv`, and `bank_tags.csv` joining banks to tags.
///
/// The quirks imitated from the real list: header names with trailing spaces
/// (`City ,State ,Cert ,Acquiring Institution ,Closing Date `), CRLF line
/// endings and no final line ending, `d-MMM-yy` dates from 2000 to 2023
/// (newest first), quoted names with commas, apostrophes and ampersands,
/// names that repeat, `No Acquirer`, and one Windows-1252 en dash (0x96),
/// which makes the file invalid as UTF-8.
struct _BanksDataSet {
    let rows: Int
    let seed: UInt64
    let directory: URL

    static let header = [
        "Bank Name", "City ", "State ", "Cert ", "Acquiring Institution ", "Closing Date ", "Fund",
    ]

    /// Tags, in `tags.csv` order.
    static let tags = [
        "2008 crisis", "Early 2000s", "Post-crisis", "No Acquirer", "Purchase & Assumption",
        "Savings institution", "National bank", "Repeated name",
    ]

    static let noAcquirer = "No Acquirer"

    /// The output row whose acquirer holds the Windows-1252 en dash.
    var windows1252Row: Int { min(4, rows - 1) }

    struct Bank {
        var name: String
        var city: String
        var state: String
        var cert: Int
        var acquirer: [UInt8]
        var closingDay: Int
        var fund = 0
    }

    func write() throws -> [GeneratedFile] {
        let banks = makeBanks()
        let banklist = try writeBanklist(banks)
        let tagsFile = try writeTags()
        let joins = try writeBankTags(banks)
        let model = try DataSetGenerator.writeJSON(
            Self.model.json, role: .model, named: "banks.model.json", in: directory)
        let mapping = try DataSetGenerator.writeJSON(
            Self.mapping, role: .mapping, named: "banks.mapping.json", in: directory)
        return [banklist, tagsFile, joins, model, mapping]
    }

    /// Closures per year, 2000–2023, following the real list's shape.
    private static let closuresByYear: [(year: Int, weight: Int)] = [
        (2000, 2), (2001, 4), (2002, 11), (2003, 3), (2004, 4), (2007, 3), (2008, 25), (2009, 140),
        (2010, 157), (2011, 92), (2012, 51), (2013, 24), (2014, 18), (2015, 8), (2016, 5), (2017, 8),
        (2019, 4), (2020, 4), (2023, 5),
    ]

    /// The list's window: the oldest and newest possible closing days.
    private static let firstDay = _CivilCalendar.days(year: 2000, month: 10, day: 13)
    private static let lastDay = _CivilCalendar.days(year: 2023, month: 7, day: 28)

    /// Banks in output order: newest closing first.
    func makeBanks() -> [Bank] {
        typealias Words = _BanksVocabulary
        var rng = _Xoshiro256StarStar(seed: seed, stream: "banks")
        let yearTable = _GeneratorWeights(Self.closuresByYear.map(\.weight))
        let placeTable = _GeneratorWeights(Words.places.map(\.weight))
        let acquirers = makeAcquirers(&rng)

        var banks: [Bank] = []
        banks.reserveCapacity(rows)
        var certs: Set<Int> = []
        var names: Set<String> = []
        let largestCert = rows > 5_000 ? 99_999 : 59_999
        for index in 0..<rows {
            // Closing day: the first two banks pin the years 2000 and 2023
            // so the two-digit years always span 00 to 23.
            let year =
                index == 0 ? 2000 : index == 1 ? 2023 : Self.closuresByYear[rng.weightedIndex(yearTable)].year
            let start = max(Self.firstDay, _CivilCalendar.days(year: year, month: 1, day: 1))
            let end = min(Self.lastDay, _CivilCalendar.days(year: year, month: 12, day: 31))
            var day = start + rng.below(end - start + 1)
            if rng.chance(0.9) {
                // Most closings happen on a Friday.
                let back = (_CivilCalendar.weekday(day) + 7 - 5) % 7
                day = day - back >= start ? day - back : day + (7 - back) % 7
                if day > end { day -= 7 }
            }

            let place = Words.places[rng.weightedIndex(placeTable)]
            // Draw again while the name is taken (a few times, so very
            // large lists still finish); repeats are added on purpose below.
            var name = bankName(index: index, place: place, &rng)
            var attempts = 1
            while names.contains(name), attempts < 8 {
                name = bankName(index: index, place: place, &rng)
                attempts += 1
            }
            if index >= 10, rng.chance(0.03) {
                // Bank names are not unique: reuse an earlier one.
                name = banks[rng.below(index)].name
            }
            names.insert(name)

            // Cert: mostly five digits, some four, a few two or three (rows 5
            // and 6 always), never repeated.
            var cert: Int
            repeat {
                let digits = index == 5 ? 0 : index == 6 ? 1 : rng.below(1_000)
                switch digits {
                case 0: cert = rng.int(in: 10...99)
                case ..<15: cert = rng.int(in: 100...999)
                case ..<115: cert = rng.int(in: 1_000...9_999)
                default: cert = rng.int(in: 10_000...largestCert)
                }
            } while !certs.insert(cert).inserted

            let acquirer =
                rng.chance(0.06) ? Self.noAcquirer : acquirers[rng.skewedRank(acquirers.count)]
            banks.append(
                Bank(
                    name: name, city: place.city, state: place.state, cert: cert,
                    acquirer: Array(acquirer.utf8), closingDay: day))
        }

        // Oldest first to number the funds, which grow over time and are
        // unique: 4 digits early on, 5 digits later.
        banks.sort { ($0.closingDay, $1.cert) < ($1.closingDay, $0.cert) }
        let step = max(1, min(12, 90_000 / rows))
        for index in banks.indices {
            banks[index].fund = 4_600 + index * step + rng.below(step)
        }
        banks.reverse()

        // One acquirer spelled with a Windows-1252 en dash (0x96).
        let first = Array(rng.pick(Words.descriptors).utf8)
        let second = Array("\(rng.pick(Words.descriptors)) Bank & Trust".utf8)
        banks[windows1252Row].acquirer = first + [0x96] + second
        return banks
    }

    private static let kindTable = _GeneratorWeights(_BanksVocabulary.kinds.map(\.1))
    private static let patternTable = _GeneratorWeights([14, 16, 14, 5, 4, 4, 6, 3, 5, 2, 2, 1, 3, 2])

    /// One invented bank name. Rows 2, 3 and 4 always get a comma, an
    /// apostrophe and an ampersand, so even short lists have each quirk.
    private func bankName(
        index: Int, place: (city: String, state: String, weight: Int), _ rng: inout _Xoshiro256StarStar
    ) -> String {
        typealias Words = _BanksVocabulary
        let kind = Words.kinds[rng.weightedIndex(Self.kindTable)].0
        let descriptor = rng.pick(Words.descriptors)
        var name: String
        switch index == 3 ? 7 : index == 4 ? 10 : rng.weightedIndex(Self.patternTable) {
        case 0: name = "\(descriptor) Bank"
        case 1: name = "\(descriptor) \(kind)"
        case 2: name = "\(place.city) \(kind)"
        case 3: name = "First \(kind)"
        case 4: name = "First \(place.city) Bank"
        case 5: name = "First \(descriptor) Bank"
        case 6: name = "Bank of \(place.city)"
        case 7:
            let first = rng.pick(Words.groups)
            var second = rng.pick(Words.groups)
            if second == first { second = first == "Traders" ? "Planters" : "Traders" }
            name = rng.chance(0.5) ? "\(first)' and \(second)' \(kind)" : "\(first)' \(kind)"
        case 8: name = "\(rng.pick(Words.surnames)) \(kind)"
        case 9:
            let first = rng.pick(Words.groups)
            name = "\(first) & \(first == "Merchants" ? "Drovers" : "Merchants") Bank"
        case 10:
            let letters = Array("ABCDEFGHJKLMNPRSTW")
            name = "\(rng.pick(letters))&\(rng.pick(letters)) Bank"
        case 11: name = "\(rng.pick(Words.possessives)) \(kind)"
        case 12: name = "The \(place.city) Bank"
        default: name = "\(descriptor) \(place.city) \(kind)"
        }
        if index == 2 || index == 4 || rng.chance(0.05) {
            name += index == 4 ? ", Inc." : rng.pick(Words.commaSuffixes)
        } else if rng.chance(0.004) {
            let other = rng.pick(Words.places).state
            name += ", (d/b/a \(rng.pick(Words.descriptors)) Bank in \(place.state) & \(other))"
        }
        return name
    }

    private func makeAcquirers(_ rng: inout _Xoshiro256StarStar) -> [String] {
        typealias Words = _BanksVocabulary
        var acquirers: [String] = []
        let count = max(24, rows / 5)
        acquirers.reserveCapacity(count)
        for _ in 0..<count {
            let descriptor = rng.pick(Words.descriptors)
            switch rng.below(8) {
            case 0: acquirers.append("\(descriptor) Bank")
            case 1: acquirers.append("\(descriptor) Bank & Trust Company")
            case 2: acquirers.append("\(rng.pick(Words.places).city) National Bank")
            case 3: acquirers.append("\(descriptor) Bank, N.A.")
            case 4: acquirers.append("\(rng.pick(Words.surnames)) Federal Savings Bank")
            case 5: acquirers.append("\(descriptor) Community Bank")
            case 6: acquirers.append("Bank of the \(rng.pick(Words.acquirerRegions))")
            default: acquirers.append("\(rng.pick(Words.surnames)) Bank and Trust Company")
            }
        }
        return acquirers
    }

    private func writeBanklist(_ banks: [Bank]) throws -> GeneratedFile {
        var writer = try _GeneratedCSVWriter(
            url: directory.appendingPathComponent("banklist.csv"), columns: Self.header,
            lineEnding: .crlf, finalLineEnding: false)
        for bank in banks {
            writer.text(bank.name)
            writer.text(bank.city)
            writer.text(bank.state)
            writer.integer(bank.cert)
            writer.text(bytes: bank.acquirer)
            writer.dayMonthYearDate(bank.closingDay)
            writer.integer(bank.fund)
            try writer.endRecord()
        }
        return try writer.finish()
    }

    private func writeTags() throws -> GeneratedFile {
        var writer = try _GeneratedCSVWriter(
            url: directory.appendingPathComponent("tags.csv"), columns: ["name"])
        for tag in Self.tags {
            writer.text(tag)
            try writer.endRecord()
        }
        return try writer.finish()
    }

    /// The tags of one bank, in `tags` order.
    static func tags(of bank: Bank, nameCount: Int) -> [String] {
        var result: [String] = []
        let year = _CivilCalendar.civil(bank.closingDay).year
        if (2008...2012).contains(year) { result.append(tags[0]) }
        if year <= 2004 { result.append(tags[1]) }
        if year >= 2013 { result.append(tags[2]) }
        result.append(bank.acquirer == Array(noAcquirer.utf8) ? tags[3] : tags[4])
        if bank.name.contains("Savings") || bank.name.contains("FSB") || bank.name.contains(", s.b.")
            || bank.name.contains(", SSB")
        {
            result.append(tags[5])
        }
        if bank.name.contains("National") || bank.name.contains(", N.A.") { result.append(tags[6]) }
        if nameCount > 1 { result.append(tags[7]) }
        return result
    }

    private func writeBankTags(_ banks: [Bank]) throws -> GeneratedFile {
        var nameCounts: [String: Int] = [:]
        for bank in banks { nameCounts[bank.name, default: 0] += 1 }
        var writer = try _GeneratedCSVWriter(
            url: directory.appendingPathComponent("bank_tags.csv"), columns: ["cert", "tag"])
        for bank in banks {
            for tag in Self.tags(of: bank, nameCount: nameCounts[bank.name] ?? 0) {
                writer.integer(bank.cert)
                writer.text(tag)
                try writer.endRecord()
            }
        }
        return try writer.finish()
    }
}
