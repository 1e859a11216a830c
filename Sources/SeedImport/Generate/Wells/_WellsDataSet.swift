import Foundation

/// The wells data set: `operators.csv`, `wells.csv` (20 columns, one row per
/// well), and a model holding both the monolithic `Well` and the
/// `WellSummary` + `WellDetail` decomposition the seed documents recommend.
///
/// Wells sit on plausible Dominion Land Survey locations in Alberta,
/// Saskatchewan, Manitoba and British Columbia's Peace River Block, plus a
/// few API-numbered wells in North Dakota, Montana and Wyoming. Each `uwi`
/// comes from a keyed permutation of a per-region ordinal, so uniqueness is
/// guaranteed rather than likely.
struct _WellsDataSet {
    let rows: Int
    let seed: UInt64
    let directory: URL

    static let wellColumns = [
        "uwi", "well_name", "operator_id", "field_name", "province_state", "status", "well_type",
        "formation", "surface_latitude", "surface_longitude", "bottom_latitude", "bottom_longitude",
        "ground_elevation", "kb_elevation", "total_depth", "spud_date", "completion_date",
        "licence_number", "directional_flag", "comments",
    ]
    static let operatorColumns = ["operator_id", "name", "short_name", "country", "phone"]

    /// The columns a map needs, which go to `WellSummary`.
    static let summaryColumns: Set<String> = ["uwi", "well_name", "surface_latitude", "surface_longitude"]

    /// About one operator per 122 wells (2,002 at the default size), at
    /// least 10.
    var operatorCount: Int { max(10, Int((Double(rows) / 122).rounded())) }

    func write() throws -> [GeneratedFile] {
        let operators = makeOperators()
        let operatorsFile = try writeOperators(operators)
        let wellsFile = try writeWells(operators)
        let model = try DataSetGenerator.writeJSON(
            Self.model.json, role: .model, named: "wells.model.json", in: directory)
        let mapping = try DataSetGenerator.writeJSON(
            Self.mapping, role: .mapping, named: "wells.mapping.json", in: directory)
        return [operatorsFile, wellsFile, model, mapping]
    }

    // MARK: Operators

    struct Operator {
        var id: Int
        var name: String
        var shortName: String
        var isAmerican: Bool
        var phone: String
    }

    func makeOperators() -> [Operator] {
        typealias Words = _WellsVocabulary
        var rng = _Xoshiro256StarStar(seed: seed, stream: "wells.operators")
        let combinations = Words.nameStarts.count * Words.nameEndings.count
        let shuffle = _FeistelPermutation(domain: UInt64(combinations), key: seed ^ 0x6f70_6572)
        let businesses = _GeneratorWeights(Words.businesses.map(\.1))
        let canadianForms = _GeneratorWeights(Words.canadianForms.map(\.1))
        let americanForms = _GeneratorWeights(Words.americanForms.map(\.1))
        let canadianAreas = _GeneratorWeights(Words.canadianAreaCodes.map(\.1))
        let americanAreas = _GeneratorWeights(Words.americanAreaCodes.map(\.1))

        var operators: [Operator] = []
        operators.reserveCapacity(operatorCount)
        for index in 0..<operatorCount {
            let id = index + 1
            let isAmerican = id % 10 == 0
            let combination = shuffle(index % combinations)
            let repeatNumber = index / combinations
            let start = Words.nameStarts[combination / Words.nameEndings.count]
            let ending = Words.nameEndings[combination % Words.nameEndings.count]
            var base = start + ending
            if repeatNumber > 0 { base += " \(repeatNumber + 1)" }

            var business = Words.businesses[rng.weightedIndex(businesses)].0
            var form =
                isAmerican
                ? Words.americanForms[rng.weightedIndex(americanForms)].0
                : Words.canadianForms[rng.weightedIndex(canadianForms)].0
            if index == 0 {
                // Always one name with both an ampersand and a comma.
                business = "Oil & Gas"
                form = ", Ltd."
            }
            let area =
                isAmerican
                ? Words.americanAreaCodes[rng.weightedIndex(americanAreas)].0
                : Words.canadianAreaCodes[rng.weightedIndex(canadianAreas)].0
            let line = rng.below(100)
            let phone = rng.chance(0.05) ? "" : "\(area)-555-01\(line < 10 ? "0" : "")\(line)"
            operators.append(
                Operator(
                    id: id, name: base + " " + business + form,
                    shortName: base.uppercased().replacingOccurrences(of: " ", with: ""),
                    isAmerican: isAmerican, phone: phone))
        }
        return operators
    }

    private func writeOperators(_ operators: [Operator]) throws -> GeneratedFile {
        var writer = try _GeneratedCSVWriter(
            url: directory.appendingPathComponent("operators.csv"), columns: Self.operatorColumns)
        for item in operators {
            writer.integer(item.id)
            writer.text(item.name)
            writer.text(item.shortName)
            writer.text(item.isAmerican ? "United States" : "Canada")
            writer.text(item.phone)
            try writer.endRecord()
        }
        return try writer.finish()
    }

    // MARK: Wells

    private static let statusNames: [[UInt8]] = [
        "Producing", "Suspended", "Abandoned", "Shut-in", "Drilling", "Licensed",
    ].map { Array($0.utf8) }
    private static let wellTypeNames: [[UInt8]] = ["Oil", "Gas", "Injection", "Disposal", "Observation"]
        .map { Array($0.utf8) }
    private static let leaseNames = _WellsVocabulary.leases.map { Array($0.utf8) }
    private static let yes = Array("Y".utf8)
    private static let no = Array("N".utf8)
    private static let partners = Array(" ET AL".utf8)
    private static let horizontal = Array(" HZ".utf8)

    private func writeWells(_ operators: [Operator]) throws -> GeneratedFile {
        var writer = try _GeneratedCSVWriter(
            url: directory.appendingPathComponent("wells.csv"), columns: Self.wellColumns)
        var sampler = _WellSampler(seed: seed, rows: rows, operators: operators)
        let shortNames = operators.map { Array($0.shortName.utf8) }
        for row in 0..<rows {
            let well = sampler.next(row: row)
            let region = sampler.regions[well.regionIndex]
            writeIdentifier(well.identifier, to: &writer)
            writeName(of: well, region: region, shortName: shortNames[well.operatorID - 1], to: &writer)
            writer.integer(well.operatorID)
            writer.plain(region.fields[well.fieldIndex])
            writer.plain(region.province)
            writer.plain(Self.statusNames[well.status.rawValue])
            writer.plain(Self.wellTypeNames[well.wellType.rawValue])
            writer.plain(region.formations[well.formationIndex].name)
            writer.decimal(well.surfaceLatitude, places: 6)
            writer.decimal(well.surfaceLongitude, places: 6)
            writer.decimal(well.bottomLatitude, places: 6)
            writer.decimal(well.bottomLongitude, places: 6)
            writer.decimal(well.groundElevation, places: 1)
            writer.decimal(well.kellyBushing, places: 1)
            writer.decimal(well.totalDepth, places: 1)
            if let day = well.spudDay { writer.isoDate(day) } else { writer.empty() }
            if let day = well.completionDay { writer.isoDate(day) } else { writer.empty() }
            // Leading zeros are part of the licence number.
            writer.integer(well.licence, width: region.isCanadian ? 7 : 5)
            writer.plain(well.isDirectional ? Self.yes : Self.no)
            if let comment = well.comment { writer.text(comment) } else { writer.empty() }
            try writer.endRecord()
        }
        return try writer.finish()
    }

    /// `100/06-12-045-23W4/00`, or `33-053-05924-00-00` in the US.
    private func writeIdentifier(_ identifier: _WellRecord.Identifier, to writer: inout _GeneratedCSVWriter) {
        writer.beginField()
        switch identifier {
        case .dls(let location, let block, let exception, let event):
            writer.append(byte: 0x31)
            if block == 0 {
                writer.append(exception, width: 2)
            } else {
                writer.append(byte: 0x41 + UInt8((block - 1) / 10))
                writer.append((block - 1) % 10, width: 1)
            }
            writer.append(byte: 0x2f)
            writer.append(location.lsd, width: 2)
            writer.append(byte: 0x2d)
            writer.append(location.section, width: 2)
            writer.append(byte: 0x2d)
            writer.append(location.township, width: 3)
            writer.append(byte: 0x2d)
            writer.append(location.range, width: 2)
            writer.append(byte: 0x57)
            writer.append(location.meridian, width: 1)
            writer.append(byte: 0x2f)
            writer.append(event, width: 2)
        case .api(let state, let county, let number, let sidetrack):
            writer.append(state, width: 2)
            writer.append(byte: 0x2d)
            writer.append(county, width: 3)
            writer.append(byte: 0x2d)
            writer.append(number, width: 5)
            writer.append(byte: 0x2d)
            writer.append(sidetrack, width: 2)
            writer.append(byte: 0x2d)
            writer.append(0, width: 2)
        }
    }

    /// `PRAIRIEHAWK ET AL 102 HZ LEDUC 6-12-45-23`, or
    /// `NORTHCREST HANSON 24-13H` in the US. No part holds a comma or quote.
    private func writeName(
        of well: _WellRecord, region: _WellRegion, shortName: [UInt8], to writer: inout _GeneratedCSVWriter
    ) {
        writer.beginField()
        writer.append(shortName)
        switch well.identifier {
        case .dls(let location, _, let exception, _):
            if well.hasPartners { writer.append(Self.partners) }
            if exception > 0 {
                writer.append(byte: 0x20)
                writer.append(100 + exception, width: 3)
            }
            if well.isHorizontal { writer.append(Self.horizontal) }
            writer.append(byte: 0x20)
            writer.append(region.fieldsUppercased[well.fieldIndex])
            writer.append(byte: 0x20)
            writer.append(location.lsd, width: 0)
            writer.append(byte: 0x2d)
            writer.append(location.section, width: 0)
            writer.append(byte: 0x2d)
            writer.append(location.township, width: 0)
            writer.append(byte: 0x2d)
            writer.append(location.range, width: 0)
        case .api:
            writer.append(byte: 0x20)
            writer.append(Self.leaseNames[well.lease.index])
            writer.append(byte: 0x20)
            writer.append(well.lease.first, width: 0)
            writer.append(byte: 0x2d)
            writer.append(well.lease.second, width: 0)
            if well.isHorizontal { writer.append(byte: 0x48) }
        }
    }
}
