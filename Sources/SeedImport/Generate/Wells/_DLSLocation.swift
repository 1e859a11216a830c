/// A Dominion Land Survey location: legal subdivision (1–16), section
/// (1–36), township, range and meridian, as in `06-12-045-23W4`.
///
/// Townships are six miles square, counted north from 49°N; ranges are
/// counted west from each meridian. Sections run back and forth from the
/// south-east corner of a township, as legal subdivisions do within a
/// section. Coordinates come from that grid with spherical-earth
/// arithmetic: close to real for a plausible stand-in, not a survey.
struct _DLSLocation {
    var lsd: Int
    var section: Int
    var township: Int
    var range: Int
    var meridian: Int

    /// Longitudes of the DLS meridians, degrees west (1st to 6th).
    static let meridianLongitudes: [Double] = [97.457_833, 102, 106, 110, 114, 118]

    /// Locations per township and range: 16 LSDs x 36 sections.
    static let perTownshipAndRange = 576

    /// The location numbered `index` (from 0) within a block of townships
    /// and ranges.
    init(index: Int, meridian: Int, townships: ClosedRange<Int>, ranges: ClosedRange<Int>) {
        lsd = index % 16 + 1
        section = index / 16 % 36 + 1
        let rest = index / Self.perTownshipAndRange
        range = ranges.lowerBound + rest % ranges.count
        township = townships.lowerBound + rest / ranges.count
        self.meridian = meridian
    }

    /// The position of the LSD's centre moved by `north` and `west`
    /// fractions of an LSD (a quarter mile).
    func coordinates(north: Double, west: Double) -> (latitude: Double, longitudeWest: Double) {
        let sectionRow = (section - 1) / 6
        let sectionColumn = sectionRow % 2 == 0 ? (section - 1) % 6 : 5 - (section - 1) % 6
        let lsdRow = (lsd - 1) / 4
        let lsdColumn = lsdRow % 2 == 0 ? (lsd - 1) % 4 : 3 - (lsd - 1) % 4
        let northMiles = Double((township - 1) * 6 + sectionRow) + (Double(lsdRow) + 0.5 + north) * 0.25
        let westMiles = Double((range - 1) * 6 + sectionColumn) + (Double(lsdColumn) + 0.5 + west) * 0.25
        let latitude =
            49 + northMiles * _WellGeography.kilometresPerMile / _WellGeography.kilometresPerDegreeLatitude
        let longitudeWest =
            Self.meridianLongitudes[meridian - 1]
            + _WellGeography.degreesLongitude(
                kilometres: westMiles * _WellGeography.kilometresPerMile, at: latitude)
        return (latitude, longitudeWest)
    }
}

/// Small geodesy helpers, computed with IEEE-exact arithmetic only so that
/// coordinates are byte-identical on every platform's libm.
enum _WellGeography {
    static let kilometresPerDegreeLatitude = 111.2
    static let kilometresPerMile = 1.609_344

    /// Degrees of longitude spanning `kilometres` east–west at `latitude`.
    static func degreesLongitude(kilometres: Double, at latitude: Double) -> Double {
        kilometres / (111.32 * cosine(degrees: latitude))
    }

    /// cos(degrees) by its Taylor series, accurate to about 1e-12 up to 60°.
    static func cosine(degrees: Double) -> Double {
        let x = degrees * (Double.pi / 180)
        let x2 = x * x
        var term = 1.0
        var sum = 1.0
        var n = 0.0
        for _ in 0..<9 {
            n += 2
            term *= -x2 / ((n - 1) * n)
            sum += term
        }
        return sum
    }

    /// A plausible ground elevation in metres on the Canadian prairies and
    /// foothills: rising westward to the foothills, falling to the north.
    static func groundElevation(latitude: Double, longitudeWest: Double) -> Double {
        var elevation = 230 + 48 * (min(longitudeWest, 112) - 97)
        elevation += max(0, longitudeWest - 112.5) * 120 * max(0, 54 - latitude) / 5
        elevation -= min(max(0, latitude - 51), 3) * 90
        return elevation
    }
}
