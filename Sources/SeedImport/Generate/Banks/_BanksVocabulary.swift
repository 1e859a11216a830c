/// Places and invented words the failed bank list is built from.
enum _BanksVocabulary {
    /// Towns with their state, weighted toward the states where most banks
    /// failed (Georgia, Florida, Illinois, California). 44 states appear.
    static let places: [(city: String, state: String, weight: Int)] = [
        ("Alpharetta", "GA", 6), ("Atlanta", "GA", 8), ("Lawrenceville", "GA", 4), ("Duluth", "GA", 3),
        ("Marietta", "GA", 4), ("Woodstock", "GA", 3), ("Canton", "GA", 2), ("Macon", "GA", 2),
        ("Savannah", "GA", 2), ("Gainesville", "GA", 2), ("Loganville", "GA", 2), ("Cumming", "GA", 2),
        ("Naples", "FL", 4), ("Tampa", "FL", 4), ("Orlando", "FL", 3), ("Sarasota", "FL", 3),
        ("Bradenton", "FL", 3), ("Fort Myers", "FL", 3), ("Miami", "FL", 3), ("Jacksonville", "FL", 2),
        ("Palm Beach Gardens", "FL", 2), ("Port St. Lucie", "FL", 2), ("Chicago", "IL", 8),
        ("Oak Brook", "IL", 3), ("Naperville", "IL", 2), ("Schaumburg", "IL", 2), ("Rockford", "IL", 2),
        ("Joliet", "IL", 2), ("Peoria", "IL", 2), ("Los Angeles", "CA", 4), ("San Diego", "CA", 3),
        ("Fresno", "CA", 2), ("Irvine", "CA", 2), ("Santa Rosa", "CA", 2), ("Bakersfield", "CA", 2),
        ("Minneapolis", "MN", 3), ("St. Cloud", "MN", 2), ("Duluth", "MN", 1), ("Seattle", "WA", 3),
        ("Tacoma", "WA", 2), ("Spokane", "WA", 1), ("Kansas City", "MO", 3), ("St. Louis", "MO", 2),
        ("Springfield", "MO", 1), ("Detroit", "MI", 2), ("Grand Rapids", "MI", 2), ("Lansing", "MI", 1),
        ("Houston", "TX", 2), ("Dallas", "TX", 2), ("Austin", "TX", 1), ("Overland Park", "KS", 2),
        ("Wichita", "KS", 1), ("Las Vegas", "NV", 2), ("Reno", "NV", 1), ("Phoenix", "AZ", 2),
        ("Scottsdale", "AZ", 1), ("Denver", "CO", 2), ("Colorado Springs", "CO", 1), ("Charlotte", "NC", 2),
        ("Asheville", "NC", 1), ("Charleston", "SC", 1), ("Greenville", "SC", 1), ("Milwaukee", "WI", 2),
        ("Madison", "WI", 1), ("Portland", "OR", 1), ("Bend", "OR", 1), ("Salt Lake City", "UT", 1),
        ("Coeur d'Alene", "ID", 1), ("Boise", "ID", 1), ("Omaha", "NE", 1), ("Tulsa", "OK", 1),
        ("Little Rock", "AR", 1), ("Nashville", "TN", 1), ("Memphis", "TN", 1), ("Birmingham", "AL", 1),
        ("Mobile", "AL", 1), ("Jackson", "MS", 1), ("New Orleans", "LA", 1), ("Louisville", "KY", 1),
        ("Columbus", "OH", 1), ("Cleveland", "OH", 1), ("Indianapolis", "IN", 1), ("Pittsburgh", "PA", 1),
        ("Philadelphia", "PA", 1), ("Newark", "NJ", 1), ("New York", "NY", 1), ("Baltimore", "MD", 1),
        ("Richmond", "VA", 1), ("Charleston", "WV", 1), ("Boston", "MA", 1), ("Hartford", "CT", 1),
        ("Manchester", "NH", 1), ("Burlington", "VT", 1), ("Des Moines", "IA", 1), ("Sioux Falls", "SD", 1),
        ("Fargo", "ND", 1), ("Albuquerque", "NM", 1), ("Billings", "MT", 1), ("Cheyenne", "WY", 1),
        ("San Juan", "PR", 1),
    ]

    static let descriptors = [
        "Heritage", "Pinnacle", "Summit", "Frontier", "Horizon", "Liberty", "Cornerstone", "Keystone",
        "Landmark", "Legacy", "Meridian", "Patriot", "Pioneer", "Sentinel", "Sterling", "Unity",
        "Vantage", "Beacon", "Harbor", "Crossroads", "Gateway", "Prairie", "Valley", "Lakeside",
        "Riverside", "Mountain", "Coastal", "Bayside", "Parkway", "Northstar", "Southgate", "Eastside",
        "Westside", "Capitol", "Enterprise", "Premier", "Integrity", "Covenant", "Evergreen",
        "Silverton", "Redstone", "Blue Ridge", "Ironwood", "Oakwood", "Cedar Creek", "Mill Creek",
        "Old Harbor", "New Frontier", "Hometown", "Community", "Citizens", "Peoples", "Security",
        "Guaranty", "Fidelity", "Metro", "Town Center", "Golden Gate", "Sunrise", "Tri-County",
    ]

    static let kinds: [(String, Int)] = [
        ("Bank", 30), ("State Bank", 14), ("National Bank", 12), ("Community Bank", 10),
        ("Savings Bank", 6), ("Bank & Trust", 6), ("Trust Company", 3), ("Federal Savings Bank", 5),
        ("Bank of Commerce", 4), ("Savings and Loan", 3), ("Bank and Trust Company", 5), ("Business Bank", 3),
    ]

    static let groups = [
        "Farmers", "Merchants", "Mechanics", "Planters", "Ranchers", "Citizens", "Drovers", "Traders",
        "Miners",
    ]

    static let surnames = [
        "Hollis", "Whitaker", "Bramble", "Castellan", "Dunmore", "Everly", "Garland", "Hartwell",
        "Kingsley", "Lockwood", "Merriweather", "Northcott", "Pembroke", "Quimby", "Radcliffe",
        "Stanfield", "Thornbury", "Underhill", "Wexford",
    ]

    static let possessives = ["Tomorrow's", "Founder's", "Harvester's", "Prospector's", "Neighbor's"]

    /// Legal suffixes written after a comma, which makes the name a quoted
    /// field.
    static let commaSuffixes = [", N.A.", ", FSB", ", National Association", ", Inc.", ", SSB", ", s.b."]

    static let acquirerRegions = ["Prairies", "Lakes", "Piedmont", "Bluegrass", "Ozark Hills", "Tidewater"]
}
