import ManagedStore

/// Proleptic Gregorian calendar arithmetic on day numbers (days since
/// 1970-01-01), with no time zone, locale or clock involved.
///
/// Both date parsing (``DateFormat``) and the generators use it: parsed dates become seconds without
/// Foundation's calendars, and generated dates are day numbers from the first draw to the formatted
/// bytes, so neither depends on the machine's calendar settings. The conversions are Howard Hinnant's
/// `days_from_civil` and `civil_from_days` (<https://howardhinnant.github.io/date_algorithms.html>).
enum _CivilCalendar {
    /// The day number of a civil date (the engine's).
    @inline(__always)
    static func days(year: Int, month: Int, day: Int) -> Int { ISO8601.days(year: year, month: month, day: day) }

    /// The civil date of a day number (the engine's, which prints dates with it).
    static func civil(_ days: Int) -> (year: Int, month: Int, day: Int) { ISO8601.civil(days) }

    /// 0 for Sunday through 6 for Saturday.
    static func weekday(_ days: Int) -> Int {
        let shifted = (days + 4) % 7
        return shifted >= 0 ? shifted : shifted + 7
    }

    /// The number of days in `month` (1–12) of `year`.
    @inline(__always)
    static func daysInMonth(_ month: Int, year: Int) -> Int { ISO8601.daysIn(month, year: year) }

    /// The number of days in `year`.
    static func length(ofYear year: Int) -> Int {
        days(year: year + 1, month: 1, day: 1) - days(year: year, month: 1, day: 1)
    }

    /// English three-letter month names, as the FDIC list writes them.
    static let monthAbbreviations: [[UInt8]] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun",
        "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ].map { Array($0.utf8) }
}
