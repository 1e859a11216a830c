import Foundation

/// A time zone for dates written without one (`2023-01-05 14:03:22` from MySQL's `DATETIME`, Excel, R):
/// its offsets from UTC and the instants they change, read once from Foundation's `TimeZone`, so a
/// value's offset is a binary search, with no allocation and no shared state.
///
/// ```swift
/// let berlin = try _LocalZone.named("Europe/Berlin")
/// berlin.offset(forWall: 1_688_220_000)   // 7200: summer time
/// ```
final class _LocalZone: Sendable, Hashable, CustomStringConvertible {
    /// How the zone was named (`Europe/Berlin`, `+05:30`).
    let name: String
    /// Instants (seconds since 1970, UTC) at which the offset changes, ascending.
    private let transitions: [Int]
    /// `offsets[k]` holds from `transitions[k - 1]` to `transitions[k]`: one more than the transitions.
    private let offsets: [Int]

    /// The span whose transitions are read: 1800 to 2200 (a few hundred at most for a zone with summer time).
    private static let span = (start: -5_364_662_400, end: 7_258_118_400)

    init(name: String, zone: TimeZone) {
        self.name = name
        var transitions: [Int] = []
        var offsets = [zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(Self.span.start)))]
        var instant = Date(timeIntervalSince1970: Double(Self.span.start))
        while let next = zone.nextDaylightSavingTimeTransition(after: instant), next.timeIntervalSince1970 < Double(Self.span.end) {
            transitions.append(Int(next.timeIntervalSince1970))
            offsets.append(zone.secondsFromGMT(for: next))
            instant = next
        }
        self.transitions = transitions
        self.offsets = offsets
    }

    /// The zone `text` names: an IANA name in any case (`Europe/Berlin`, `america/new_york`), `UTC`, or
    /// a fixed offset (`+05:30`, `-0800`, `+02`, also after `UTC` or `GMT`: `UTC-08`, which a command
    /// line cannot mistake for an option); `nil` for anything else.
    static func named(_ text: String) -> _LocalZone? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        var offsetText = trimmed
        if ["utc+", "utc-", "gmt+", "gmt-"].contains(where: { trimmed.lowercased().hasPrefix($0) }) { offsetText = String(trimmed.dropFirst(3)) }
        if let offset = fixedOffset(offsetText), let zone = TimeZone(secondsFromGMT: offset) {
            return _LocalZone(name: trimmed, zone: zone)
        }
        if ["utc", "gmt", "z"].contains(trimmed.lowercased()), let zone = TimeZone(secondsFromGMT: 0) {
            return _LocalZone(name: "UTC", zone: zone)
        }
        // Only region names: an abbreviation (`CET`, `EST`) may mean several zones.
        guard trimmed.contains("/") else { return nil }
        let identifier = TimeZone.knownTimeZoneIdentifiers.first { $0.lowercased() == trimmed.lowercased() } ?? trimmed
        guard let zone = TimeZone(identifier: identifier) else { return nil }
        return _LocalZone(name: identifier, zone: zone)
    }

    /// Region names that `text` may have meant: those whose city is `text` (`Berlin`: `Europe/Berlin`).
    static func suggestions(for text: String) -> [String] {
        let city = text.trimmingCharacters(in: .whitespaces).lowercased().replacingOccurrences(of: " ", with: "_")
        guard !city.isEmpty else { return [] }
        return TimeZone.knownTimeZoneIdentifiers.filter { $0.lowercased().split(separator: "/").last.map(String.init) == city }
    }

    /// Seconds east of UTC of `+hh`, `+hhmm` or `+hh:mm` (or `-`), up to 18 hours; `nil` otherwise.
    private static func fixedOffset(_ text: String) -> Int? {
        let bytes = Array(text.utf8)
        guard let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else { return nil }
        let digits = bytes.dropFirst().filter { $0 != UInt8(ascii: ":") }
        // `+5`, `+05`, `+0530`, `+05:30`.
        guard (1...2).contains(digits.count) || digits.count == 4, digits.allSatisfy({ ($0 &- UInt8(ascii: "0")) < 10 }),
              bytes.dropFirst().filter({ $0 == UInt8(ascii: ":") }).count <= (digits.count == 4 ? 1 : 0) else { return nil }
        let value = digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        let hours = digits.count <= 2 ? value : value / 100, minutes = digits.count <= 2 ? 0 : value % 100
        guard hours <= 14, minutes < 60 else { return nil }   // the widest offsets in use: -12 to +14
        return (sign == UInt8(ascii: "-") ? -1 : 1) * (hours * 3600 + minutes * 60)
    }

    /// The offset at instant `utc` (seconds since 1970).
    @inline(__always)
    func offset(atUTC utc: Int) -> Int {
        var low = 0, high = transitions.count
        while low < high {
            let middle = (low + high) / 2
            if transitions[middle] <= utc { low = middle + 1 } else { high = middle }
        }
        return offsets[low]
    }

    /// The offset of a wall-clock time (seconds since 1970 as if it were UTC). A time that summer time
    /// skips (02:30 on the night clocks go forward) reads with the offset before the change, so it lands
    /// an hour later (03:30); one that happens twice (the night they go back) reads as the first.
    @inline(__always)
    func offset(forWall wall: Int) -> Int {
        if transitions.isEmpty { return offsets[0] }
        // The offsets a day either side: zones change theirs months apart, so these are the two in play.
        let earlier = offset(atUTC: wall - 86_400), later = offset(atUTC: wall + 86_400)
        if earlier == later { return earlier }
        let earlierFits = offset(atUTC: wall - earlier) == earlier, laterFits = offset(atUTC: wall - later) == later
        switch (earlierFits, laterFits) {
        case (true, true): return max(earlier, later)   // twice: the first instant is the one with the larger offset
        case (true, false): return earlier
        case (false, true): return later
        case (false, false): return earlier             // skipped: the offset before the change
        }
    }

    var description: String { name }

    static func == (a: _LocalZone, b: _LocalZone) -> Bool { a.name == b.name }
    func hash(into hasher: inout Hasher) { hasher.combine(name) }
}
