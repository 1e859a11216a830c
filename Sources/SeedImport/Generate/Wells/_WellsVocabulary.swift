/// Invented words the wells data set builds operator names, leases and
/// comments from.
enum _WellsVocabulary {
    /// First halves of operator names; with `nameEndings` they make 2,240
    /// distinct short names (`PRAIRIEHAWK`).
    static let nameStarts = [
        "Amber", "Antler", "Aspen", "Badger", "Bison", "Boreal", "Cedar", "Chinook", "Cinder",
        "Cobalt", "Copper", "Coulee", "Crane", "Crocus", "Delta", "Dune", "Elk", "Ember",
        "Falcon", "Fescue", "Flint", "Foothill", "Frost", "Granite", "Harvest", "Heron", "Iron",
        "Juniper", "Kestrel", "Larch", "Lynx", "Magpie", "Maple", "Marten", "Meadow", "North",
        "Obsidian", "Osprey", "Pine", "Prairie", "Quarry", "Raven", "Sage", "Shale", "Silver",
        "Spruce", "Summit", "Tamarack", "Thunder", "Timber", "Upland", "Vantage", "Whitetail",
        "Willow", "Wolf", "Zenith",
    ]

    static let nameEndings = [
        "hawk", "crest", "point", "field", "stone", "water", "creek", "rock", "line", "gate",
        "wood", "land", "star", "peak", "bay", "ridge", "run", "ford", "brook", "horn", "view",
        "wind", "light", "spring", "vale", "bend", "cliff", "mark", "shore", "haven", "lake",
        "hill", "moor", "well", "dale", "mont", "burn", "glen", "side", "way",
    ]

    /// What the company does, with weights; two carry an ampersand.
    static let businesses: [(String, Int)] = [
        ("Energy", 30), ("Resources", 22), ("Petroleum", 12), ("Oil & Gas", 12), ("Exploration", 8),
        ("Exploration & Production", 4), ("Oil", 4), ("Natural Gas", 3), ("Energy Partners", 3),
        ("Hydrocarbons", 2),
    ]

    /// Legal forms by country, with weights; the comma forms make the name a
    /// quoted CSV field.
    static let canadianForms: [(String, Int)] = [
        (" Ltd.", 35), (" Inc.", 20), (" Corp.", 15), (" ULC", 6), (", Ltd.", 10), (", Inc.", 8),
        (" Partnership", 3), (" Limited", 3),
    ]
    static let americanForms: [(String, Int)] = [
        (" LLC", 35), (", LLC", 15), (" Inc.", 15), (", Inc.", 10), (" LP", 10), (" Company", 10),
        (", L.P.", 5),
    ]

    static let canadianAreaCodes: [(String, Int)] = [
        ("403", 55), ("587", 15), ("780", 15), ("306", 10), ("204", 5),
    ]
    static let americanAreaCodes: [(String, Int)] = [
        ("701", 35), ("406", 20), ("307", 15), ("713", 20), ("303", 10),
    ]

    /// Lease names in US well names (`NORTHCREST HANSON 24-13H`).
    static let leases = [
        "STATE", "FEDERAL", "HANSON", "OLSEN", "LINDGREN", "BERG", "KRUEGER", "MOEN", "SKAAR",
        "HALVORSON", "NELSON TRUST", "BAKKE", "STROM", "VOLD", "RUSTAD", "SOLBERG",
    ]

    /// Casing and liner sizes for comments with inch marks.
    static let pipeSizes = ["4.5", "5.5", "7", "8-5/8", "9-5/8", "13-3/8", "2-7/8"]
}
