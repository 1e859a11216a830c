/// One generated well, drawn but not yet formatted.
struct _WellRecord {
    enum Identifier {
        /// `1EE/LL-SS-TTT-RRWM/0V`: the location exception code `EE` is
        /// `00`, `02`… in the first pass over a region's locations; a
        /// second pass (`block` 1 or more) uses `A0`, `A1`…, which the first
        /// pass never does, so identifiers stay unique past a region's
        /// capacity.
        case dls(_DLSLocation, block: Int, exception: Int, event: Int)
        /// API-14, `SS-CCC-NNNNN-TT-00`, with the sidetrack `TT` set to the
        /// pass over the region.
        case api(state: Int, county: Int, number: Int, sidetrack: Int)
    }

    enum Status: Int {
        case producing, suspended, abandoned, shutIn, drilling, licensed
    }

    enum WellType: Int {
        case oil, gas, injection, disposal, observation
    }

    var identifier: Identifier
    var regionIndex: Int
    var fieldIndex: Int
    var operatorID: Int
    var status: Status
    var wellType: WellType
    var formationIndex: Int
    var isHorizontal: Bool
    var isDirectional: Bool
    /// "ET AL" in the well name (Canadian wells).
    var hasPartners: Bool
    /// Lease index and well numbers in a US well name.
    var lease: (index: Int, first: Int, second: Int)
    var surfaceLatitude: Double
    var surfaceLongitude: Double
    var bottomLatitude: Double
    var bottomLongitude: Double
    var groundElevation: Double
    var kellyBushing: Double
    var totalDepth: Double
    var spudDay: Int?
    var completionDay: Int?
    var licence: Int
    /// nil for an empty comment.
    var comment: String?
}

/// Draws wells one after another from a seeded stream.
///
/// Regions are picked by weight; each keeps an ordinal that a keyed
/// permutation turns into a location, so no two wells share a `uwi`.
/// Operators are picked with a skew toward a few large ones, from the
/// American operators for US wells and the Canadian ones otherwise.
struct _WellSampler {
    /// The day the data set is "current through": no date falls after it.
    static let asOfDay = _CivilCalendar.days(year: 2023, month: 12, day: 31)

    let regions = _WellRegion.all
    private var rng: _Xoshiro256StarStar
    private let regionTable: _GeneratorWeights
    private let locationPermutations: [_FeistelPermutation]
    private let fieldTables: [[Int]]
    private var ordinals: [Int]
    private let canadianOperators: [Int]
    private let americanOperators: [Int]
    private let canadianShuffle: _FeistelPermutation
    private let americanShuffle: _FeistelPermutation
    private let operatorShortNames: [String]
    private let multiLineRow: Int

    init(seed: UInt64, rows: Int, operators: [_WellsDataSet.Operator]) {
        rng = _Xoshiro256StarStar(seed: seed, stream: "wells")
        let regions = _WellRegion.all
        regionTable = _GeneratorWeights(regions.map(\.weight))
        locationPermutations = regions.indices.map { index in
            _FeistelPermutation(
                domain: UInt64(regions[index].capacity),
                key: seed &+ UInt64(index) &* 0x9e37_79b9_7f4a_7c15)
        }
        fieldTables = regions.map { $0.fieldTable() }
        ordinals = [Int](repeating: 0, count: regions.count)
        canadianOperators = operators.filter { !$0.isAmerican }.map(\.id)
        americanOperators = operators.filter(\.isAmerican).map(\.id)
        canadianShuffle = _FeistelPermutation(domain: UInt64(canadianOperators.count), key: seed ^ 0x6361)
        americanShuffle = _FeistelPermutation(domain: UInt64(americanOperators.count), key: seed ^ 0x7573)
        operatorShortNames = operators.map(\.shortName)
        multiLineRow = rows / 2
    }

    // MARK: Tables

    /// Spud years 1950–2023 weighted by drilling activity: the early-1980s
    /// and 2000s booms, the 2009 and 2015 busts.
    private static let spudYears: (years: [Int], table: _GeneratorWeights) = {
        let years = Array(1950...2023)
        let weights = years.map { year -> Int in
            switch year {
            case ..<1960: 4
            case ..<1970: 6
            case ..<1978: 7
            case ..<1986: 14
            case ..<1993: 9
            case ..<1998: 14
            case ..<2000: 10
            case ..<2009: 18
            case 2009: 9
            case ..<2015: 14
            case ..<2017: 6
            case ..<2020: 8
            case 2020: 4
            default: 6
            }
        }
        return (years, _GeneratorWeights(weights))
    }()

    /// Status weights (producing, suspended, abandoned, shut-in) by age.
    private static let oldStatus = _GeneratorWeights([20, 18, 55, 7])
    private static let middleStatus = _GeneratorWeights([37, 25, 30, 8])
    private static let youngStatus = _GeneratorWeights([70, 15, 8, 7])
    private static let exceptionCodes = (values: [0, 2, 3, 4], table: _GeneratorWeights([85, 10, 4, 1]))
    private static let eventCodes = (values: [0, 2, 3], table: _GeneratorWeights([93, 6, 1]))

    /// Licence numbers issued by each milestone year (an Alberta-like
    /// sequence); a well's licence is interpolated from its spud date.
    private static let licenceMilestones: [(year: Int, number: Double)] = [
        (1950, 100), (1960, 18_000), (1970, 35_000), (1980, 80_000), (1990, 140_000),
        (2000, 235_000), (2010, 420_000), (2015, 475_000), (2024, 512_000),
    ]

    static func licenceNumber(year: Int, fraction: Double) -> Int {
        let position = Double(year) + fraction
        var index = 0
        while index + 2 < licenceMilestones.count, Double(licenceMilestones[index + 1].year) <= position {
            index += 1
        }
        let (y0, n0) = licenceMilestones[index]
        let (y1, n1) = licenceMilestones[index + 1]
        return Int(n0 + (n1 - n0) * (position - Double(y0)) / Double(y1 - y0))
    }

    // MARK: Drawing

    /// The well of data row `row`.
    mutating func next(row: Int) -> _WellRecord {
        let regionIndex = rng.weightedIndex(regionTable)
        let region = regions[regionIndex]
        let ordinal = ordinals[regionIndex]
        ordinals[regionIndex] += 1
        let block = ordinal / region.capacity
        let location = locationPermutations[regionIndex](ordinal % region.capacity)

        // Status and dates.
        let status: _WellRecord.Status
        let year: Int
        var spudDay: Int?
        let statusDraw = rng.below(1_000)
        if statusDraw < 30 {
            status = .licensed
            year = 2023
        } else if statusDraw < 50 {
            status = .drilling
            year = 2023
            spudDay = Self.asOfDay - rng.below(45)
        } else {
            year = Self.spudYears.years[rng.weightedIndex(Self.spudYears.table)]
            let age = 2023 - year
            let table = age > 40 ? Self.oldStatus : age >= 15 ? Self.middleStatus : Self.youngStatus
            status = _WellRecord.Status(rawValue: rng.weightedIndex(table))!
            let firstDay = _CivilCalendar.days(year: year, month: 1, day: 1)
            spudDay = min(Self.asOfDay, firstDay + rng.below(_CivilCalendar.length(ofYear: year)))
        }

        // Type, formation, trajectory: horizontals take over after 2005.
        var wellType: _WellRecord.WellType
        switch rng.below(100) {
        case ..<7: wellType = .injection
        case ..<11: wellType = .disposal
        case ..<14: wellType = .observation
        default: wellType = rng.chance(region.gasShare) ? .gas : .oil
        }
        if status == .licensed || status == .drilling, wellType.rawValue > 1 { wellType = .oil }
        let formationIndex = rng.below(region.formations.count)
        let horizontalShare = year < 1990 ? 0.02 : year < 2005 ? 0.1 : year < 2010 ? 0.35 : 0.75
        let trajectoryDraw = rng.unit()
        let isHorizontal = trajectoryDraw < horizontalShare
        let isSlant = !isHorizontal && trajectoryDraw < horizontalShare + 0.04
        let lateralKilometres = isHorizontal ? rng.double(1.0, 3.2) : isSlant ? rng.double(0.1, 0.6) : 0

        // Bottom-hole location, the one the identifier names.
        let identifier: _WellRecord.Identifier
        var bottomLatitude: Double
        var bottomLongitude: Double
        var ground: Double
        let fieldIndex: Int
        switch region.survey {
        case .dls(let meridian, let townships, let ranges):
            let dls = _DLSLocation(index: location, meridian: meridian, townships: townships, ranges: ranges)
            let (latitude, longitudeWest) = dls.coordinates(
                north: rng.double(-0.3, 0.3), west: rng.double(-0.3, 0.3))
            bottomLatitude = latitude
            bottomLongitude = -longitudeWest
            ground = _WellGeography.groundElevation(latitude: latitude, longitudeWest: longitudeWest)
            fieldIndex =
                fieldTables[regionIndex][
                    (dls.township - townships.lowerBound) * ranges.count + dls.range - ranges.lowerBound]
            let exception =
                block == 0 ? Self.exceptionCodes.values[rng.weightedIndex(Self.exceptionCodes.table)] : 0
            let event = Self.eventCodes.values[rng.weightedIndex(Self.eventCodes.table)]
            identifier = .dls(dls, block: block, exception: exception, event: event)
        case .api(let state, let counties):
            let county = counties[location / 99_999]
            bottomLatitude = county.latitude + rng.double(-0.15, 0.15)
            bottomLongitude = county.longitude + rng.double(-0.25, 0.25)
            ground = county.elevation
            fieldIndex = (location / 99_999 * 3 + location % 99_999 / 20_000) % region.fields.count
            identifier = .api(
                state: state, county: county.code, number: location % 99_999 + 1, sidetrack: block)
        }
        ground = ((ground + rng.double(-40, 40)) * 10).rounded() / 10
        let isCanadian = region.isCanadian

        // Surface location: the same for vertical wells, back along the
        // lateral for deviated ones.
        var surfaceLatitude = bottomLatitude
        var surfaceLongitude = bottomLongitude
        if lateralKilometres > 0 {
            let alongMeridian = rng.chance(0.7)
            let sign: Double = rng.chance(0.5) ? 1 : -1
            let skew = rng.double(-0.15, 0.15)
            var north = lateralKilometres * sign * (alongMeridian ? 1 : skew)
            let east = lateralKilometres * sign * (alongMeridian ? skew : 1)
            if isCanadian, bottomLatitude - north / _WellGeography.kilometresPerDegreeLatitude < 49.0005 {
                // Township 1 wells are drilled from the Canadian side.
                north = -north
            }
            surfaceLatitude -= north / _WellGeography.kilometresPerDegreeLatitude
            surfaceLongitude -= _WellGeography.degreesLongitude(kilometres: east, at: bottomLatitude)
        }
        let kellyBushing = ground + Double(rng.int(in: 30...80)) / 10
        let verticalDepth = region.formations[formationIndex].depth * rng.double(0.9, 1.1)
        let totalDepth =
            isHorizontal
            ? verticalDepth + rng.double(150, 400) + lateralKilometres * 1_000
            : isSlant ? verticalDepth * rng.double(1.03, 1.12) : verticalDepth

        var completionDay: Int?
        if let spudDay, status != .drilling {
            let days = isHorizontal ? rng.int(in: 20...150) : rng.int(in: 6...90)
            completionDay = min(Self.asOfDay, spudDay + days)
        }

        let operatorID =
            isCanadian
            ? canadianOperators[canadianShuffle(rng.skewedRank(canadianOperators.count))]
            : americanOperators[americanShuffle(rng.skewedRank(americanOperators.count))]
        let hasPartners = isCanadian && rng.chance(0.1)
        let lease =
            isCanadian
            ? (0, 0, 0)
            : (rng.below(_WellsVocabulary.leases.count), rng.int(in: 1...44), rng.int(in: 1...36))

        // Licence: seven digits in Canada, a five-digit permit in the US.
        let licenceFraction =
            spudDay.map { Double($0 - _CivilCalendar.days(year: year, month: 1, day: 1)) / 366 }
            ?? rng.unit()
        let licence =
            isCanadian
            ? Self.licenceNumber(year: year, fraction: licenceFraction) + rng.below(40)
            : (year - 1950) * 450 + Int(licenceFraction * 440) + 100

        // Comments: mostly empty; some with commas or inch marks; about one
        // in 5,000 (and always the middle row) spans two lines.
        let comment: String?
        let commentDraw = rng.below(10_000)
        if commentDraw < 2 || row == multiLineRow {
            let top = Int(verticalDepth) - rng.int(in: 2...30)
            comment = "Perforated \(top)-\(top + rng.int(in: 2...8)) m\nFractured \(min(2023, year + 1))"
        } else if commentDraw < 8_800 {
            comment = nil
        } else {
            comment = remark(year: year, depth: Int(verticalDepth), region: region)
        }

        return _WellRecord(
            identifier: identifier, regionIndex: regionIndex, fieldIndex: fieldIndex, operatorID: operatorID,
            status: status, wellType: wellType, formationIndex: formationIndex, isHorizontal: isHorizontal,
            isDirectional: lateralKilometres > 0, hasPartners: hasPartners, lease: lease,
            surfaceLatitude: surfaceLatitude, surfaceLongitude: surfaceLongitude,
            bottomLatitude: bottomLatitude, bottomLongitude: bottomLongitude, groundElevation: ground,
            kellyBushing: kellyBushing, totalDepth: totalDepth, spudDay: spudDay,
            completionDay: completionDay,
            licence: licence, comment: comment)
    }

    /// A one-line remark; several hold commas or inch marks (`7" casing`).
    private mutating func remark(year: Int, depth: Int, region: _WellRegion) -> String {
        let formation = region.formationNames[rng.below(region.formations.count)]
        let size = rng.pick(_WellsVocabulary.pipeSizes)
        switch rng.below(10) {
        case 0: return "Re-entered \(min(2023, year + rng.int(in: 3...30))), deepened to \(formation)"
        case 1: return "Set \(size)\" casing at \(depth - rng.int(in: 0...40)) m"
        case 2: return "Ran \(size)\" liner; top at \(depth - rng.int(in: 100...400)) m"
        case 3: return "Licence transferred from \(rng.pick(operatorShortNames))"
        case 4: return "Cased and suspended; awaiting tie-in"
        case 5: return "Junked and abandoned, fish left in hole at \(depth - rng.int(in: 50...600)) m"
        case 6: return "Water source well"
        case 7: return "Multi-stage frac, \(rng.int(in: 8...60)) stages"
        case 8: return "Surface casing vent flow repaired \(min(2023, year + rng.int(in: 5...40)))"
        default: return "Whipstocked at \(depth - rng.int(in: 200...500)) m, sidetracked to \(formation)"
        }
    }
}
