/// One area wells are drawn in: a province's slice of the Dominion Land
/// Survey, or a US state's producing counties.
///
/// A region knows how many distinct locations it holds (its capacity), so a
/// keyed permutation of a per-region ordinal picks a location no other well
/// in the region has. That is what keeps every `uwi` unique.
struct _WellRegion {
    struct County {
        var code: Int
        var latitude: Double
        var longitude: Double
        var elevation: Double
    }

    enum Survey {
        /// Dominion Land Survey: `meridian` 1–6 west, townships counted north
        /// from 49°N, ranges counted west from the meridian.
        case dls(meridian: Int, townships: ClosedRange<Int>, ranges: ClosedRange<Int>)
        /// US API well numbers: a state code and its counties.
        case api(stateCode: Int, counties: [County])
    }

    struct Formation {
        var name: [UInt8]
        /// Typical true vertical depth in metres.
        var depth: Double
    }

    var province: [UInt8]
    var survey: Survey
    /// Share of the wells, in thousandths.
    var weight: Int
    /// Field names as written in `field_name`.
    var fields: [[UInt8]]
    /// Where each field lies (township, range) in a DLS region; a location
    /// belongs to the nearest field. Empty for API regions.
    var anchors: [(township: Int, range: Int)]
    /// The same names upper-cased, as they appear inside well names.
    var fieldsUppercased: [[UInt8]]
    var formations: [Formation]
    var formationNames: [String]
    /// Share of oil-or-gas wells that are gas.
    var gasShare: Double

    init(
        _ province: String, _ survey: Survey, weight: Int, gasShare: Double,
        fields: [String], formations: [(String, Double)]
    ) {
        self.province = Array(province.utf8)
        self.survey = survey
        self.weight = weight
        self.gasShare = gasShare
        self.fields = fields.map { Array($0.utf8) }
        self.fieldsUppercased = fields.map { Array($0.uppercased().utf8) }
        self.formations = formations.map { Formation(name: Array($0.0.utf8), depth: $0.1) }
        self.formationNames = formations.map(\.0)
        self.anchors = []
    }

    init(
        _ province: String, _ survey: Survey, weight: Int, gasShare: Double,
        anchoredFields: [(String, Int, Int)], formations: [(String, Double)]
    ) {
        self.init(
            province, survey, weight: weight, gasShare: gasShare, fields: anchoredFields.map(\.0),
            formations: formations)
        self.anchors = anchoredFields.map { (township: $0.1, range: $0.2) }
    }

    /// The field of every township and range of a DLS region, indexed by
    /// `(township - first) * ranges + (range - first)`: the nearest anchor,
    /// ties going to the earlier one. Empty for API regions.
    func fieldTable() -> [Int] {
        guard case .dls(_, let townships, let ranges) = survey else { return [] }
        var table: [Int] = []
        table.reserveCapacity(townships.count * ranges.count)
        for township in townships {
            for range in ranges {
                var best = 0
                var bestDistance = Int.max
                for (index, anchor) in anchors.enumerated() {
                    let north = township - anchor.township
                    let west = range - anchor.range
                    let distance = north * north + west * west
                    if distance < bestDistance {
                        best = index
                        bestDistance = distance
                    }
                }
                table.append(best)
            }
        }
        return table
    }

    /// True for the Dominion Land Survey regions.
    var isCanadian: Bool {
        if case .dls = survey { return true }
        return false
    }

    /// Distinct locations: 16 legal subdivisions x 36 sections per
    /// township and range, or 99,999 well numbers per county.
    var capacity: Int {
        switch survey {
        case .dls(_, let townships, let ranges):
            _DLSLocation.perTownshipAndRange * townships.count * ranges.count
        case .api(_, let counties):
            counties.count * 99_999
        }
    }

    /// All regions, weights summing to 1,000: Alberta 66%, Saskatchewan 19%,
    /// British Columbia's Peace River Block 7%, Manitoba 2.5%, and the
    /// Williston and Powder River basins across the border 5.5%.
    static let all: [_WellRegion] = [
        _WellRegion(
            "AB", .dls(meridian: 4, townships: 1...90, ranges: 1...30), weight: 300, gasShare: 0.45,
            anchoredFields: [
                ("Medicine Hat", 12, 5), ("Suffield", 15, 10), ("Brooks", 19, 14), ("Provost", 37, 2),
                ("Viking-Kinsella", 49, 12), ("Wainwright", 45, 6), ("Redwater", 57, 22),
                ("Leduc-Woodbend", 50, 26), ("Bashaw", 42, 22), ("Drumheller", 29, 20),
                ("Countess", 20, 17), ("Taber", 9, 16), ("Bow Island", 10, 11), ("Chauvin", 42, 2),
                ("Lloydminster", 50, 1), ("Cold Lake", 64, 3), ("Hays", 12, 13),
                ("Pelican Lake", 81, 22), ("Twining", 31, 24), ("Joffre", 39, 26),
                ("Hangingstone", 84, 11),
            ],
            formations: [
                ("Viking", 700), ("Mannville", 950), ("Glauconitic", 1350), ("Belly River", 800),
                ("Milk River", 400), ("Medicine Hat", 450), ("Nisku", 1650), ("Leduc", 1900),
                ("Sparky", 750), ("Lloydminster", 600), ("Banff", 1250), ("Ellerslie", 1400),
            ]),
        _WellRegion(
            "AB", .dls(meridian: 5, townships: 1...90, ranges: 1...26), weight: 280, gasShare: 0.5,
            anchoredFields: [
                ("Pembina", 48, 8), ("Swan Hills", 66, 10), ("Judy Creek", 63, 11),
                ("Kaybob South", 60, 20), ("Crossfield", 28, 1), ("Harmattan", 31, 4),
                ("Turner Valley", 19, 2), ("Caroline", 35, 5), ("Sundre", 33, 6),
                ("Willesden Green", 42, 7), ("Ferrier", 40, 8), ("Edson", 53, 17),
                ("Carrot Creek", 52, 12), ("Red Earth", 87, 8), ("Virginia Hills", 64, 13),
                ("Westerose", 46, 2), ("Strachan", 38, 9), ("Garrington", 34, 3), ("Lochend", 26, 3),
                ("Gilby", 41, 3), ("Utikuma", 79, 8), ("Jumping Pound", 25, 5),
                ("Savanna Creek", 14, 4), ("Moose Mountain", 23, 6), ("Highwood", 17, 7),
                ("Burnt Timber", 29, 8), ("Ricinus", 34, 9), ("Wildcat Hills", 27, 5),
            ],
            formations: [
                ("Cardium", 1650), ("Rock Creek", 2300), ("Duvernay", 3300), ("Swan Hills", 2650),
                ("Beaverhill Lake", 2800), ("Elkton", 2400), ("Glauconitic", 2200), ("Ellerslie", 2500),
                ("Wabamun", 2900), ("Notikewin", 1900), ("Belly River", 1200), ("Viking", 1800),
            ]),
        _WellRegion(
            "AB", .dls(meridian: 6, townships: 50...126, ranges: 1...11), weight: 80, gasShare: 0.7,
            anchoredFields: [
                ("Wapiti", 69, 9), ("Elmworth", 69, 11), ("Grande Prairie", 71, 6),
                ("Valhalla", 74, 9), ("Sinclair", 72, 11), ("Pouce Coupe", 79, 13),
                ("Rainbow", 108, 7), ("Zama", 117, 5), ("Chinchaga", 95, 5), ("Kakwa", 63, 6),
                ("Karr", 64, 3), ("Gold Creek", 69, 5), ("Sturgeon Lake", 70, 1), ("Knopcik", 73, 8),
                ("Cranberry", 90, 10), ("Hamburg", 99, 9), ("Shekilie", 114, 12), ("Fox Creek", 62, 2),
                ("Sousa", 124, 8),
            ],
            formations: [
                ("Montney", 2700), ("Doig", 2500), ("Halfway", 2300), ("Cadomin", 2900),
                ("Falher", 2100), ("Charlie Lake", 1900), ("Keg River", 1800), ("Slave Point", 1700),
                ("Dunvegan", 1200),
            ]),
        _WellRegion(
            "BC", .dls(meridian: 6, townships: 75...88, ranges: 14...26), weight: 70, gasShare: 0.8,
            anchoredFields: [
                ("Buick Creek", 87, 19), ("Septimus", 79, 19), ("Groundbirch", 79, 22),
                ("Sunrise", 80, 17), ("Swan Lake", 80, 15), ("Parkland", 82, 16),
                ("Dawson Creek", 78, 15), ("Blueberry", 88, 25), ("Altares", 85, 24),
                ("Farrell Creek", 84, 25), ("Kobes", 86, 23), ("Town", 82, 22), ("Attachie", 84, 21),
                ("Tupper", 77, 14),
            ],
            formations: [
                ("Montney", 2300), ("Doig", 2200), ("Halfway", 1900), ("Baldonnel", 1600),
                ("Charlie Lake", 1500), ("Belloy", 2100), ("Debolt", 2000), ("Cadomin", 2400),
            ]),
        _WellRegion(
            "SK", .dls(meridian: 3, townships: 1...55, ranges: 1...27), weight: 90, gasShare: 0.25,
            anchoredFields: [
                ("Kindersley", 29, 23), ("Dodsland", 33, 21), ("Shaunavon", 7, 19),
                ("Swift Current", 15, 14), ("Coleville", 33, 24), ("Luseland", 36, 22),
                ("Eatonia", 27, 26), ("Battrum", 16, 20), ("Fosterton", 18, 22), ("Lashburn", 47, 23),
                ("Maidstone", 48, 21), ("Plato", 27, 15), ("Hoosier", 30, 27), ("Cantuar", 17, 17),
                ("Leader", 22, 26), ("Eastend", 6, 23), ("Rosetown", 31, 12), ("Turtleford", 50, 19),
            ],
            formations: [
                ("Viking", 700), ("Shaunavon", 1350), ("Mannville", 750), ("Success", 900),
                ("Roseray", 950), ("Bakken", 1000), ("Birdbear", 1600), ("Cantuar", 1050),
            ]),
        _WellRegion(
            "SK", .dls(meridian: 2, townships: 1...30, ranges: 1...30), weight: 100, gasShare: 0.1,
            anchoredFields: [
                ("Weyburn", 6, 14), ("Midale", 5, 11), ("Estevan", 2, 8), ("Viewfield", 8, 8),
                ("Steelman", 4, 5), ("Kisbey", 8, 6), ("Alameda", 3, 4), ("Carlyle", 8, 3),
                ("Ratcliffe", 1, 17), ("Hummingbird", 3, 19), ("Bienfait", 1, 6), ("Lampman", 5, 8),
                ("Oungre", 1, 14), ("Queensdale", 6, 2),
            ],
            formations: [
                ("Bakken", 1650), ("Midale", 1400), ("Frobisher", 1300), ("Tilston", 1150),
                ("Ratcliffe", 1450), ("Alida", 1250), ("Souris Valley", 1200), ("Torquay", 1700),
            ]),
        _WellRegion(
            "MB", .dls(meridian: 1, townships: 1...14, ranges: 19...29), weight: 25, gasShare: 0.02,
            anchoredFields: [
                ("Waskada", 1, 26), ("Virden", 10, 26), ("Daly Sinclair", 9, 28), ("Pierson", 2, 28),
                ("Tilston", 5, 29), ("Kirkella", 12, 29), ("Lulu Lake", 4, 24), ("Manson", 14, 28),
                ("Souris Hartney", 5, 22),
            ],
            formations: [
                ("Lower Amaranth", 900), ("Bakken", 1000), ("Mission Canyon", 850), ("Lodgepole", 950),
                ("Three Forks", 1050),
            ]),
        _WellRegion(
            "ND",
            .api(
                stateCode: 33,
                counties: [
                    County(code: 53, latitude: 47.74, longitude: -103.40, elevation: 720),
                    County(code: 105, latitude: 48.34, longitude: -103.48, elevation: 650),
                    County(code: 61, latitude: 48.20, longitude: -102.36, elevation: 690),
                    County(code: 25, latitude: 47.36, longitude: -102.62, elevation: 740),
                    County(code: 23, latitude: 48.82, longitude: -103.49, elevation: 640),
                    County(code: 9, latitude: 48.79, longitude: -100.83, elevation: 500),
                    County(code: 13, latitude: 48.79, longitude: -102.52, elevation: 610),
                    County(code: 7, latitude: 47.02, longitude: -103.38, elevation: 800),
                    County(code: 89, latitude: 46.81, longitude: -102.66, elevation: 760),
                ]),
            weight: 35, gasShare: 0.05,
            fields: [
                "Parshall", "Sanish", "Antelope", "Blue Buttes", "Alger", "Banks", "Siverston",
                "Charlson", "Keene", "Sandrocks", "Beaver Lodge", "Tioga",
            ],
            formations: [("Bakken", 3200), ("Three Forks", 3300), ("Madison", 2700), ("Red River", 3900)]),
        _WellRegion(
            "MT",
            .api(
                stateCode: 25,
                counties: [
                    County(code: 83, latitude: 47.79, longitude: -104.56, elevation: 700),
                    County(code: 85, latitude: 48.29, longitude: -105.01, elevation: 660),
                    County(code: 101, latitude: 48.65, longitude: -111.70, elevation: 1050),
                    County(code: 35, latitude: 48.70, longitude: -112.99, elevation: 1200),
                    County(code: 25, latitude: 46.33, longitude: -104.42, elevation: 900),
                    County(code: 73, latitude: 48.23, longitude: -112.23, elevation: 1150),
                ]),
            weight: 12, gasShare: 0.2,
            fields: [
                "Elm Coulee", "Cut Bank", "Kevin-Sunburst", "Cedar Creek", "Pine", "Bainville North",
                "Pondera", "Lookout Butte",
            ],
            formations: [("Bakken", 3000), ("Madison", 2500), ("Sunburst", 900), ("Red River", 3500)]),
        _WellRegion(
            "WY",
            .api(
                stateCode: 49,
                counties: [
                    County(code: 5, latitude: 44.25, longitude: -105.55, elevation: 1400),
                    County(code: 9, latitude: 42.97, longitude: -105.51, elevation: 1550),
                    County(code: 35, latitude: 42.77, longitude: -109.92, elevation: 2200),
                    County(code: 37, latitude: 41.66, longitude: -108.88, elevation: 2050),
                    County(code: 19, latitude: 44.04, longitude: -106.59, elevation: 1500),
                ]),
            weight: 8, gasShare: 0.55,
            fields: ["Pinedale", "Jonah", "Hilight", "Hartzog Draw", "Powder River", "Sussex", "Bear Creek"],
            formations: [
                ("Frontier", 3100), ("Lance", 3300), ("Niobrara", 2900), ("Parkman", 2400),
                ("Turner", 3000), ("Minnelusa", 2700),
            ]),
    ]
}
