/// How a CSV column writes its dates: a named format or a pattern, read straight from bytes.
///
/// Named formats:
/// - `iso8601`: `2020-08-17`, `2020-08-17T10:30:00Z`, `2020-08-17 10:30:00.250+02:00` (no zone means UTC);
///   also the default for Date attributes without a format.
/// - `epoch` (`epochSeconds`, `unix`): seconds since 1970-01-01 UTC, fractions and signs allowed.
/// - `epochMilliseconds`: milliseconds since 1970-01-01 UTC.
///
/// Epoch numbers name dates of years 0001 to 9999 only (so milliseconds read as seconds are refused, not
/// stored as year 55840), and convert from their exact digits (see ``_EpochSeconds``).
///
/// Patterns use the Unicode (`DateFormatter`) letters: `yyyy` four-digit year; `yy` two-digit year (read
/// with ``pivotYear``); `M`/`MM` month number; `MMM` English month abbreviation (`Oct`, any case);
/// `MMMM` English month name; `d`/`dd` day; `H`/`HH` hour 0–23; `h`/`hh` hour 1–12 with `a` (AM/PM);
/// `m`/`mm` minute; `s`/`ss` second; `S…` fraction of a second; `X`, `XX`, `XXX`, `Z` a zone offset
/// (`Z`, `+02`, `+0200`, `+02:00`); `'T'` quoted literal text; any other non-letter is literal. A one- or
/// two-letter number takes one or two digits unless another number is right beside it (`yyyyMMdd`,
/// `HHmm`): then it takes exactly two, as `2023123` could be 2023-12-03 or 2023-01-23. So `d-MMM-yy` reads `13-Oct-00` and `3-Mar-23`, and `M/d/yyyy` reads `9/6/1977`
/// and `11/27/2002`. Dates without a zone are UTC. Day and month are checked (`30-Feb-23` is refused).
///
/// For example:
///
/// ```swift
/// let closing = try DateFormat("d-MMM-yy", pivotYear: 2000)
/// closing.seconds(from: "13-Oct-00")   // 2000-10-13 as seconds since 2001-01-01 (-6998400)
/// ```
///
/// Parsing never goes through `DateFormatter`: it is slow and its results depend on the locale.
public struct DateFormat: Sendable, Hashable, CustomStringConvertible {
    /// The format as written in the mapping (`d-MMM-yy`, `iso8601`).
    public let text: String
    /// Two-digit years `yy` fall in the hundred years starting here: with 2000, `00`–`99` are 2000–2099;
    /// with 1950, `50` is 1950 and `49` is 2049. Defaults to 1969 (POSIX `strptime`'s `%y`).
    public let pivotYear: Int
    let kind: Kind
    /// Formats tried in order, the first that reads a value winning (``init(anyOf:pivotYear:)``); empty
    /// for one format.
    let alternatives: [DateFormat]
    /// The zone of values written without one (`nil`: UTC); epoch numbers are instants and ignore it.
    let zone: _LocalZone?

    /// The name of the zone values without one are read in (``init(_:pivotYear:timeZone:)``), or `nil`
    /// for UTC.
    public var timeZone: String? { zone?.name }

    enum Kind: Sendable, Hashable {
        case iso8601
        case epochSeconds
        case epochMilliseconds
        case pattern([_DateToken])
    }

    /// The pivot years a format accepts: four-digit years, so a two-digit year always lands on one.
    public static let pivotYears = 1000...9899

    /// The two-digit-year window used when a format gives none: 1969–2068, as POSIX `strptime`'s `%y`.
    public static let defaultPivotYear = 1969

    /// The named formats, for messages.
    public static let namedFormats = ["iso8601", "epoch", "epochMilliseconds"]

    /// ISO 8601 dates and date-times: the default of Date attributes.
    public static let iso8601 = try! DateFormat("iso8601")

    /// Reads a format; throws a message naming the formats that exist when it is not one.
    ///
    /// `timeZone` is the zone of values written without one (`2023-01-05 14:03`, as MySQL's `DATETIME`
    /// and Excel write local times): an IANA name (`Europe/Berlin`) or a fixed offset (`+05:30`);
    /// `nil` reads them as UTC. A value that names its zone (`Z`, `+02:00`) keeps it.
    ///
    /// ```swift
    /// let local = try DateFormat("yyyy-MM-dd HH:mm", timeZone: "Europe/Berlin")
    /// local.seconds(from: "2023-07-01 12:00") == DateFormat.iso8601.seconds(from: "2023-07-01T10:00:00Z")   // true
    /// ```
    ///
    /// - Throws: ``DateFormatError`` with what is wrong.
    public init(_ text: String, pivotYear: Int? = nil, timeZone: String? = nil) throws(DateFormatError) {
        self.text = text
        alternatives = []
        if let timeZone {
            guard let zone = _LocalZone.named(timeZone) else { throw DateFormatError(format: text, reason: Self.unknownZone(timeZone), formatIsKnown: true) }
            self.zone = zone
        } else {
            zone = nil
        }
        if let pivotYear, !Self.pivotYears.contains(pivotYear) {
            throw DateFormatError(format: text, reason: "pivotYear \(pivotYear) is not a year from \(Self.pivotYears.lowerBound) to \(Self.pivotYears.upperBound) (two-digit years fall in the hundred years from it, such as 2000)",
                                  formatIsKnown: true)
        }
        self.pivotYear = pivotYear ?? Self.defaultPivotYear
        let folded = String(text.lowercased().filter { $0.isLetter || $0.isNumber })
        switch folded {
        case "iso8601", "iso", "isodate", "isodatetime": kind = .iso8601
        case "epoch", "epochseconds", "unix", "unixtime", "seconds": kind = .epochSeconds
        case "epochmilliseconds", "epochms", "milliseconds": kind = .epochMilliseconds
        default: kind = .pattern(try _DateToken.compile(text))
        }
        if case .pattern(let tokens) = kind {
            let has: (_DateToken.Field) -> Bool = { field in tokens.contains { $0.field == field } }
            guard has(.year) || has(.twoDigitYear) else {
                throw DateFormatError(format: text, reason: "it has no year (yyyy or yy)")
            }
            guard has(.month) || has(.monthName) else {
                throw DateFormatError(format: text, reason: "it has no month (M, MM, MMM or MMMM)")
            }
            guard has(.day) else { throw DateFormatError(format: text, reason: "it has no day (d or dd)") }
            if has(.hour12) != has(.amPM) {
                throw DateFormatError(format: text, reason: "h/hh (1–12) needs a (AM/PM), and a needs h/hh; use HH for 0–23")
            }
        }
    }

    /// Several formats, tried in order for each value: the first that reads it wins. For columns that
    /// mix them, as exports merged from several sources do (`1-Jan-33` and `12-Jan-1933`).
    ///
    /// ```swift
    /// let built = try DateFormat(anyOf: ["d-MMM-yy", "d-MMM-yyyy"], pivotYear: 1900)
    /// built.seconds(from: "12-Jan-1933") == built.seconds(from: "12-Jan-33")   // true
    /// ```
    ///
    /// - Throws: ``DateFormatError`` for the first format that cannot be used, or when `texts` is empty.
    public init(anyOf texts: [String], pivotYear: Int? = nil, timeZone: String? = nil) throws(DateFormatError) {
        guard !texts.isEmpty else {
            throw DateFormatError(format: "", reason: "the list of formats is empty; give at least one, such as \"iso8601\"")
        }
        var formats: [DateFormat] = []
        for text in texts { formats.append(try DateFormat(text, pivotYear: pivotYear, timeZone: timeZone)) }
        guard formats.count > 1 else {
            self = formats[0]
            return
        }
        self = DateFormat(text: texts.joined(separator: " or "), pivotYear: formats[0].pivotYear, kind: formats[0].kind,
                          alternatives: formats, zone: formats[0].zone)
    }

    private init(text: String, pivotYear: Int, kind: Kind, alternatives: [DateFormat], zone: _LocalZone?) {
        self.text = text
        self.pivotYear = pivotYear
        self.kind = kind
        self.alternatives = alternatives
        self.zone = zone
    }

    /// Why `name` is not a time zone, for a message.
    ///
    /// ```swift
    /// DateFormat.unknownZone("Mars/Base")   // "unknown time zone 'Mars/Base': give a region's name such as …"
    /// ```
    public static func unknownZone(_ name: String) -> String {
        let meant = _LocalZone.suggestions(for: name)
        return "unknown time zone '\(name)'" + (meant.isEmpty ? "" : " (did you mean \(meant.prefix(3).joined(separator: " or "))?)")
            + ": give a region's name such as Europe/Berlin or America/New_York, UTC, or a fixed offset such as +05:30 or UTC-08"
    }

    public var description: String { text }

    /// Whether the format, or one of those tried in order, reads two-digit years (`yy`).
    var readsTwoDigitYears: Bool {
        if case .pattern(let tokens) = kind, tokens.contains(where: { $0.field == .twoDigitYear }) { return true }
        return alternatives.contains { $0.readsTwoDigitYears }
    }

    /// Seconds since 2001-01-01 00:00:00 UTC (Core Data's reference date), or `nil` when `text` does not match.
    ///
    /// For example:
    ///
    /// ```swift
    /// try DateFormat("M/d/yyyy").seconds(from: "9/6/1977")   // -738892800
    /// ```
    public func seconds(from text: String) -> Double? {
        var text = text
        return text.withUTF8 { bytes in
            var failure: _DateFailure?
            return parse(bytes, failure: &failure)
        }
    }

    /// Why `text` does not match, or `nil` when it does.
    public func failureReason(for text: String) -> String? {
        var text = text
        return text.withUTF8 { bytes in explain(bytes) }
    }

    /// Parses a field's bytes; on failure sets `failure` (no allocation either way).
    @inline(__always)
    func parse(_ bytes: UnsafeBufferPointer<UInt8>, failure: inout _DateFailure?) -> Double? {
        if !alternatives.isEmpty {
            for format in alternatives {
                var missed: _DateFailure?
                if let seconds = format.parse(bytes, failure: &missed) { return seconds }
                if failure == nil { failure = missed }
            }
            return nil
        }
        switch kind {
        case .pattern(let tokens): return _DateParser.pattern(tokens, bytes, pivotYear: pivotYear, zone: zone, failure: &failure)
        case .iso8601: return _DateParser.iso8601(bytes, zone: zone, failure: &failure)
        case .epochSeconds: return _EpochSeconds.value(bytes, milliseconds: false, failure: &failure)
        case .epochMilliseconds: return _EpochSeconds.value(bytes, milliseconds: true, failure: &failure)
        }
    }

    /// A sentence saying why `bytes` is not a date in this format.
    func explain(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        if !alternatives.isEmpty {
            var reasons: [String] = []
            for format in alternatives {
                var failure: _DateFailure?
                guard format.parse(bytes, failure: &failure) == nil else { return nil }
                reasons.append("\(format.text): " + (failure.map(format.describe) ?? "no match"))
            }
            return "not a date in any of its formats (" + reasons.joined(separator: "; ") + ")"
        }
        var failure: _DateFailure?
        guard parse(bytes, failure: &failure) == nil else { return nil }
        let what = switch kind {
        case .iso8601: "an ISO 8601 date (yyyy-MM-dd or yyyy-MM-ddTHH:mm:ssZ)"
        case .epochSeconds: "a number of seconds since 1970"
        case .epochMilliseconds: "a number of milliseconds since 1970"
        case .pattern: "a date in the format \(text)"
        }
        return "not \(what)" + (failure.map { ": " + describe($0) } ?? "")
    }

    /// `failure`'s sentence, naming the letters of a run of numbers written together (`yyyyMMdd`) that
    /// the value gives too many or too few digits.
    func describe(_ failure: _DateFailure) -> String {
        guard case .runWidth(let digits, let width, let first, let last) = failure, case .pattern(let tokens) = kind,
              last < tokens.count else { return failure.description }
        let letters = tokens[first...last].map(\.letters).joined()
        let difference = abs(digits - width)
        return "the value has \(digits) digits in a row where \(letters) takes exactly \(width) (\(tokens[first...last].map(\.letters).joined(separator: " ")), "
            + "zero-padded, with no separator): \(difference) too \(digits > width ? "many" : "few")"
    }
}

/// A date format that cannot be used, and why.
///
/// For example:
///
/// ```swift
/// do { _ = try DateFormat("dd.QQ.yyyy") } catch { print(error) }
/// // unknown date format 'dd.QQ.yyyy': the pattern letter 'Q' is not supported …
/// ```
public struct DateFormatError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The format as written.
    public let format: String
    /// What is wrong with it.
    public let reason: String
    /// Whether the format itself is fine and a setting that goes with it is not (the pivot year).
    public var formatIsKnown = false

    /// An error about `format`, saying why in `reason`.
    ///
    /// ```swift
    /// throw DateFormatError(format: "d-MMM-yy", reason: "a two-digit year needs a pivot year", formatIsKnown: true)
    /// ```
    public init(format: String, reason: String, formatIsKnown: Bool = false) {
        self.format = format
        self.reason = reason
        self.formatIsKnown = formatIsKnown
    }

    public var description: String {
        if formatIsKnown { return "date format '\(format)': \(reason)" }
        return "unknown date format '\(format)': \(reason). Use iso8601, epoch, epochMilliseconds, or a pattern such as "
            + "yyyy-MM-dd, M/d/yyyy, d-MMM-yy (with \"pivotYear\") or yyyy-MM-dd'T'HH:mm:ssXXX"
    }
}

/// Why a field is not a date: small, so the hot path allocates nothing.
enum _DateFailure: Sendable, Hashable, CustomStringConvertible {
    case expectedDigits(field: _DateToken.Field)
    /// A number of fixed width (`yyyy`, or one with no separator beside it, as in `yyyyMMdd`) written shorter or longer.
    case expectedWidth(field: _DateToken.Field, digits: Int)
    /// Numbers written together (`yyyyMMdd`, tokens `first...last`) that the value gives another count of
    /// `digits` than their `width`: which one is off cannot be told, so the run is named
    /// (``DateFormat/describe(_:)``).
    case runWidth(digits: Int, width: Int, first: Int, last: Int)
    case expectedLiteral(UInt8)
    case unknownMonthName
    case expectedAMPM
    case monthOutOfRange(Int)
    case dayOutOfRange(day: Int, month: Int, year: Int)
    case timeOutOfRange
    case badZone
    case trailingText
    /// A year of five digits or more without the sign ISO 8601 puts before it.
    case unsignedLongYear
    /// An expanded year beyond ``_DateParser/expandedYearLimit``.
    case yearOutOfRange
    case notANumber
    /// An epoch number (in seconds or milliseconds, as read) beyond years 0001 to 9999, and for seconds
    /// the seconds since 2001 it names as milliseconds, when that is a date of those years.
    case epochOutOfRange(sinceEpoch: Double, milliseconds: Bool, asMilliseconds: Double?)
    case empty

    var description: String {
        switch self {
        case .expectedDigits(let field): "expected the \(field.name) as digits"
        case .expectedWidth(let field, let digits):
            "expected the \(field.name) as exactly \(digits) digits" + (field == .year || field == .twoDigitYear ? "" : ", zero-padded (03, not 3)")
        case .runWidth(let digits, let width, _, _): "the value has \(digits) digits in a row where the pattern takes exactly \(width)"
        case .expectedLiteral(let byte): "expected '\(Character(Unicode.Scalar(byte)))'"
        case .unknownMonthName: "unknown month name (expected Jan, Feb, … or January, …)"
        case .expectedAMPM: "expected AM or PM"
        case .monthOutOfRange(let month): "there is no month \(month)"
        case .dayOutOfRange(let day, let month, let year): "\(_DateParser.monthNames[max(0, min(11, month - 1))]) \(year) has no day \(day)"
        case .timeOutOfRange: "the time of day is out of range"
        case .badZone: "expected a zone offset (Z, +02, +0200 or +02:00)"
        case .trailingText: "unexpected text after the date"
        case .unsignedLongYear: "a year of more than four digits takes a sign, as ISO 8601 writes it (+10000-01-01)"
        case .yearOutOfRange: "the year is beyond ±\(_DateParser.expandedYearLimit)"
        case .notANumber: "not a number"
        case .epochOutOfRange(let sinceEpoch, let milliseconds, let asMilliseconds):
            _EpochSeconds.outOfRangeReason(sinceEpoch: sinceEpoch, milliseconds: milliseconds, asMilliseconds: asMilliseconds)
        case .empty: "the value is empty"
        }
    }
}

/// One element of a compiled date pattern.
struct _DateToken: Sendable, Hashable {
    enum Field: Sendable, Hashable {
        case year, twoDigitYear, month, monthName, day, hour, hour12, minute, second, fraction, zone, amPM, literal

        var name: String {
            switch self {
            case .year: "year"
            case .twoDigitYear: "two-digit year"
            case .month: "month"
            case .monthName: "month name"
            case .day: "day"
            case .hour, .hour12: "hour"
            case .minute: "minute"
            case .second: "second"
            case .fraction: "fraction of a second"
            case .zone: "zone"
            case .amPM: "AM/PM marker"
            case .literal: "text"
            }
        }
    }

    var field: Field
    /// Whether this is a number that takes one width only: `yyyy`, `yy`, or one beside another (`yyyyMMdd`).
    var isFixedWidthNumber: Bool { minWidth == maxWidth && field != .monthName && field != .literal && minWidth > 0 }
    /// Digits: the fewest and most a number takes.
    var minWidth = 0
    var maxWidth = 0
    /// The byte of a literal.
    var byte: UInt8 = 0

    /// The pattern letters of a number as it reads (`yyyy`, `MM`), for messages.
    var letters: String {
        let letter = switch field {
        case .year, .twoDigitYear: "y"
        case .month: "M"
        case .day: "d"
        case .hour: "H"
        case .hour12: "h"
        case .minute: "m"
        case .second: "s"
        default: "?"
        }
        return String(repeating: letter, count: max(1, maxWidth))
    }

    /// Turns a pattern into tokens, or explains what is wrong with it.
    static func compile(_ pattern: String) throws(DateFormatError) -> [_DateToken] {
        let bytes = Array(pattern.utf8)
        guard !bytes.isEmpty else { throw DateFormatError(format: pattern, reason: "it is empty") }
        var tokens: [_DateToken] = []
        var i = 0
        while i < bytes.count {
            let byte = bytes[i]
            if byte == UInt8(ascii: "'") {
                // Quoted literal; '' is a quote.
                var j = i + 1
                if j < bytes.count && bytes[j] == UInt8(ascii: "'") {
                    tokens.append(_DateToken(field: .literal, byte: byte))
                    i = j + 1
                    continue
                }
                while j < bytes.count && bytes[j] != UInt8(ascii: "'") {
                    tokens.append(_DateToken(field: .literal, byte: bytes[j]))
                    j += 1
                }
                guard j < bytes.count else { throw DateFormatError(format: pattern, reason: "a quote ' is not closed") }
                i = j + 1
                continue
            }
            let isLetter = (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
            guard isLetter else {
                tokens.append(_DateToken(field: .literal, byte: byte))
                i += 1
                continue
            }
            var run = 1
            while i + run < bytes.count && bytes[i + run] == byte { run += 1 }
            let letter = Character(Unicode.Scalar(byte))
            let token: _DateToken
            switch (letter, run) {
            case ("y", 2): token = _DateToken(field: .twoDigitYear, minWidth: 2, maxWidth: 2)
            case ("y", 4), ("y", 1), ("u", 4), ("u", 1): token = _DateToken(field: .year, minWidth: 4, maxWidth: 4)
            case ("M", 1), ("M", 2), ("L", 1), ("L", 2): token = _DateToken(field: .month, minWidth: 1, maxWidth: 2)
            case ("M", 3), ("M", 4), ("L", 3), ("L", 4): token = _DateToken(field: .monthName, minWidth: run, maxWidth: run)
            case ("d", 1), ("d", 2): token = _DateToken(field: .day, minWidth: 1, maxWidth: 2)
            case ("H", 1), ("H", 2): token = _DateToken(field: .hour, minWidth: 1, maxWidth: 2)
            case ("h", 1), ("h", 2): token = _DateToken(field: .hour12, minWidth: 1, maxWidth: 2)
            case ("m", 1), ("m", 2): token = _DateToken(field: .minute, minWidth: 1, maxWidth: 2)
            case ("s", 1), ("s", 2): token = _DateToken(field: .second, minWidth: 1, maxWidth: 2)
            case ("S", _): token = _DateToken(field: .fraction, minWidth: 1, maxWidth: 9)
            case ("a", 1): token = _DateToken(field: .amPM)
            case ("X", 1...3), ("x", 1...3), ("Z", 1...3), ("Z", 5): token = _DateToken(field: .zone)
            default:
                throw DateFormatError(
                    format: pattern,
                    reason: "the pattern letter '\(letter)' \(run > 1 ? "repeated \(run) times " : "")is not supported; quote literal text like 'T'")
            }
            tokens.append(token)
            i += run
        }
        // Numbers with no separator on one side or the other take their exact width (yyyyMMdd): where
        // digits run on, a short field would shift the next (`2023123` could be 2023-12-03 or
        // 2023-01-23), and a short last field would take the end of the one before.
        let numeric: Set<Field> = [.year, .twoDigitYear, .month, .day, .hour, .hour12, .minute, .second]
        for index in tokens.indices where numeric.contains(tokens[index].field) {
            let next = index + 1 < tokens.count ? tokens[index + 1].field : nil
            let previous = index > 0 ? tokens[index - 1].field : nil
            if next.map({ numeric.contains($0) || $0 == .fraction }) ?? false || previous.map(numeric.contains) ?? false {
                let width = tokens[index].field == .year ? 4 : 2
                tokens[index].minWidth = width
                tokens[index].maxWidth = width
            }
        }
        return tokens
    }
}

/// The date parsers: civil dates to seconds since 2001 without Foundation's calendars.
enum _DateParser {
    /// Seconds between 1970-01-01 and 2001-01-01 UTC.
    static let referenceDateOffset: Double = 978_307_200

    static let monthNames = [
        "January", "February", "March", "April", "May", "June",
        "July", "August", "September", "October", "November", "December",
    ]

    /// Lower-cased month names as bytes, for matching.
    private static let lowerMonthNames: [[UInt8]] = monthNames.map { Array($0.lowercased().utf8) }

    /// Seconds since 2001 of a checked civil date and time, the fraction's digits in `base`: the
    /// Double nearest the decimal number they make, rounded once (see ``_DecimalSeconds``).
    @inline(__always)
    static func seconds(
        year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, fraction: _SecondFraction, zoneOffset: Int?,
        local: _LocalZone? = nil, in base: UnsafePointer<UInt8>, failure: inout _DateFailure?
    ) -> Double? {
        guard month >= 1 && month <= 12 else { failure = .monthOutOfRange(month); return nil }
        guard day >= 1 && day <= _CivilCalendar.daysInMonth(month, year: year) else {
            failure = .dayOutOfRange(day: day, month: month, year: year)
            return nil
        }
        guard hour < 24 && minute < 60 && second < 60 else { failure = .timeOutOfRange; return nil }
        let wall = _CivilCalendar.days(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second
        // A value's own zone wins; without one, the format's (UTC when it has none).
        let whole = wall - (zoneOffset ?? local?.offset(forWall: wall) ?? 0)
        return _DecimalSeconds.value(whole: whole - Int(referenceDateOffset), fraction: fraction, in: base)
    }

    /// Reads up to `maxWidth` digits (at least `minWidth`) at `i`.
    @inline(__always)
    private static func digits(
        _ base: UnsafePointer<UInt8>, _ count: Int, _ i: inout Int, min minWidth: Int, max maxWidth: Int
    ) -> Int? {
        var value = 0
        var read = 0
        while read < maxWidth && i < count {
            let digit = base[i] &- UInt8(ascii: "0")
            guard digit < 10 else { break }
            value = value * 10 + Int(digit)
            read += 1
            i += 1
        }
        return read >= minWidth ? value : nil
    }

    /// A fraction of a second, after the separator: `.250` is 250 over 10³.
    @inline(__always)
    private static func fraction(_ base: UnsafePointer<UInt8>, _ count: Int, _ i: inout Int) -> _SecondFraction? {
        var fraction = _SecondFraction()
        fraction.start = i
        while i < count {
            let digit = base[i] &- UInt8(ascii: "0")
            guard digit < 10 else { break }
            fraction.append(digit)
            i += 1
        }
        fraction.end = i
        return i > fraction.start ? fraction : nil
    }

    /// A zone: `Z`, `+hh`, `+hhmm` or `+hh:mm` (and `-`); seconds east of UTC.
    @inline(__always)
    private static func zone(_ base: UnsafePointer<UInt8>, _ count: Int, _ i: inout Int) -> Int? {
        guard i < count else { return nil }
        if base[i] == UInt8(ascii: "Z") || base[i] == UInt8(ascii: "z") { i += 1; return 0 }
        guard base[i] == UInt8(ascii: "+") || base[i] == UInt8(ascii: "-") else { return nil }
        let sign = base[i] == UInt8(ascii: "-") ? -1 : 1
        i += 1
        guard let hours = digits(base, count, &i, min: 2, max: 2), hours <= 18 else { return nil }
        var minutes = 0
        if i < count && base[i] == UInt8(ascii: ":") {
            i += 1
            guard let m = digits(base, count, &i, min: 2, max: 2) else { return nil }
            minutes = m
        } else if i < count, (base[i] &- UInt8(ascii: "0")) < 10 {
            guard let m = digits(base, count, &i, min: 2, max: 2) else { return nil }
            minutes = m
        }
        guard minutes < 60 else { return nil }
        return sign * (hours * 3600 + minutes * 60)
    }

    /// The largest year an ISO 8601 date may give with a sign (`+146000000000-01-01`): beyond every date
    /// ``ISO8601/string(from:)`` writes (±2⁶² seconds, about 146 billion years), and small enough that
    /// its seconds fit an `Int`.
    static let expandedYearLimit = 200_000_000_000

    /// ISO 8601: `yyyy-MM-dd`, optionally `T` or a space and `HH:mm[:ss[.SSS]]`, optionally a zone.
    ///
    /// The year is four digits, or ISO 8601's expanded form: a sign and four digits or more (`+10000`,
    /// `-0001`, the year before 0001 being `0000`). `seedstore query` writes years past 9999 and before
    /// 0000 so, and what it writes must read back as the Double it came from.
    @inline(__always)
    static func iso8601(_ bytes: UnsafeBufferPointer<UInt8>, zone local: _LocalZone? = nil, failure: inout _DateFailure?) -> Double? {
        let count = bytes.count
        guard count > 0, let base = bytes.baseAddress else { failure = .empty; return nil }
        var i = 0
        let year: Int
        if base[0] == UInt8(ascii: "+") || base[0] == UInt8(ascii: "-") {
            i = 1
            guard let magnitude = digits(base, count, &i, min: 4, max: 12) else { failure = .expectedDigits(field: .year); return nil }
            guard magnitude <= expandedYearLimit else { failure = .yearOutOfRange; return nil }
            year = base[0] == UInt8(ascii: "-") ? -magnitude : magnitude
        } else {
            guard let digits = digits(base, count, &i, min: 4, max: 4) else { failure = .expectedDigits(field: .year); return nil }
            guard i == count || (base[i] &- UInt8(ascii: "0")) >= 10 else { failure = .unsignedLongYear; return nil }
            year = digits
        }
        guard i < count, base[i] == UInt8(ascii: "-") else { failure = .expectedLiteral(UInt8(ascii: "-")); return nil }
        i += 1
        guard let month = digits(base, count, &i, min: 2, max: 2) else { failure = .expectedDigits(field: .month); return nil }
        guard i < count, base[i] == UInt8(ascii: "-") else { failure = .expectedLiteral(UInt8(ascii: "-")); return nil }
        i += 1
        guard let day = digits(base, count, &i, min: 2, max: 2) else { failure = .expectedDigits(field: .day); return nil }
        var hour = 0, minute = 0, second = 0, fractionValue = _SecondFraction(), zoneOffset: Int?
        if i < count && (base[i] == UInt8(ascii: "T") || base[i] == UInt8(ascii: "t") || base[i] == UInt8(ascii: " ")) {
            i += 1
            guard let h = digits(base, count, &i, min: 2, max: 2) else { failure = .expectedDigits(field: .hour); return nil }
            guard i < count, base[i] == UInt8(ascii: ":") else { failure = .expectedLiteral(UInt8(ascii: ":")); return nil }
            i += 1
            guard let m = digits(base, count, &i, min: 2, max: 2) else { failure = .expectedDigits(field: .minute); return nil }
            hour = h
            minute = m
            if i < count && base[i] == UInt8(ascii: ":") {
                i += 1
                guard let s = digits(base, count, &i, min: 2, max: 2) else { failure = .expectedDigits(field: .second); return nil }
                second = s
                if i < count && (base[i] == UInt8(ascii: ".") || base[i] == UInt8(ascii: ",")) {
                    i += 1
                    guard let f = fraction(base, count, &i) else { failure = .expectedDigits(field: .fraction); return nil }
                    fractionValue = f
                }
            }
            if i < count {
                guard let z = zone(base, count, &i) else { failure = .badZone; return nil }
                zoneOffset = z
            }
        }
        guard i == count else { failure = .trailingText; return nil }
        return seconds(year: year, month: month, day: day, hour: hour, minute: minute, second: second,
                       fraction: fractionValue, zoneOffset: zoneOffset, local: local, in: base, failure: &failure)
    }

    /// A compiled pattern.
    @inline(__always)
    static func pattern(
        _ tokens: [_DateToken], _ bytes: UnsafeBufferPointer<UInt8>, pivotYear: Int, zone local: _LocalZone? = nil, failure: inout _DateFailure?
    ) -> Double? {
        let count = bytes.count
        guard count > 0, let base = bytes.baseAddress else { failure = .empty; return nil }
        var i = 0
        var year = 1970, month = 1, day = 1, hour = 0, minute = 0, second = 0, fractionValue = _SecondFraction(), zoneOffset: Int?
        var pm: Bool?
        for (index, token) in tokens.enumerated() {
            switch token.field {
            case .literal:
                guard i < count, base[i] == token.byte else {
                    // A digit where a literal follows numbers written together: the run is too long.
                    failure = index > 0 ? runWidth(tokens, index - 1, read: true, at: i, base, count) : nil
                    if failure == nil { failure = .expectedLiteral(token.byte) }
                    return nil
                }
                i += 1
            case .monthName:
                guard let m = monthName(base, count, &i) else { failure = .unknownMonthName; return nil }
                month = m
            case .fraction:
                guard let f = fraction(base, count, &i) else { failure = .expectedDigits(field: .fraction); return nil }
                fractionValue = f
            case .zone:
                guard let z = zone(base, count, &i) else { failure = .badZone; return nil }
                zoneOffset = z
            case .amPM:
                guard i + 1 < count, base[i + 1] | 0x20 == UInt8(ascii: "m") else { failure = .expectedAMPM; return nil }
                switch base[i] | 0x20 {
                case UInt8(ascii: "a"): pm = false
                case UInt8(ascii: "p"): pm = true
                default: failure = .expectedAMPM; return nil
                }
                i += 2
            case .year, .twoDigitYear, .month, .day, .hour, .hour12, .minute, .second:
                let start = i
                guard let value = digits(base, count, &i, min: token.minWidth, max: token.maxWidth) else {
                    failure = token.isFixedWidthNumber
                        ? runWidth(tokens, index, read: false, at: start, base, count) ?? .expectedWidth(field: token.field, digits: token.maxWidth)
                        : .expectedDigits(field: token.field)
                    return nil
                }
                switch token.field {
                case .year: year = value
                case .twoDigitYear:
                    let offset = ((value - pivotYear % 100) % 100 + 100) % 100
                    year = pivotYear + offset
                case .month: month = value
                case .day: day = value
                case .hour, .hour12: hour = value
                case .minute: minute = value
                default: second = value
                }
            }
        }
        guard i == count else {
            // A digit right after a number of fixed width is that number written too long (`202312031`).
            if let last = tokens.last, last.isFixedWidthNumber, (base[i] &- UInt8(ascii: "0")) < 10 {
                failure = runWidth(tokens, tokens.count - 1, read: true, at: i, base, count) ?? .expectedWidth(field: last.field, digits: last.maxWidth)
            } else {
                failure = .trailingText
            }
            return nil
        }
        if let pm {
            guard hour >= 1 && hour <= 12 else { failure = .timeOutOfRange; return nil }
            hour = hour % 12 + (pm ? 12 : 0)
        }
        return seconds(year: year, month: month, day: day, hour: hour, minute: minute, second: second,
                       fraction: fractionValue, zoneOffset: zoneOffset, local: local, in: base, failure: &failure)
    }

    /// When token `t` is one of two or more fixed-width numbers written together (`yyyyMMdd`) and the
    /// value's digits there are more or fewer than they take: ``_DateFailure/runWidth(digits:width:first:last:)``.
    /// The tokens of the run before `t` were read at their exact widths, and `t` too when `read`: they
    /// end at `at`. Only on a failure.
    private static func runWidth(
        _ tokens: [_DateToken], _ t: Int, read: Bool, at end: Int, _ base: UnsafePointer<UInt8>, _ count: Int
    ) -> _DateFailure? {
        guard tokens[t].isFixedWidthNumber else { return nil }
        var first = t, last = t
        while first > 0 && tokens[first - 1].isFixedWidthNumber { first -= 1 }
        while last + 1 < tokens.count && tokens[last + 1].isFixedWidthNumber { last += 1 }
        guard last > first else { return nil }
        var start = end
        for token in tokens[first..<(read ? t + 1 : t)] { start -= token.maxWidth }
        guard start >= 0 else { return nil }
        var digits = 0
        while start + digits < count && (base[start + digits] &- UInt8(ascii: "0")) < 10 { digits += 1 }
        let width = tokens[first...last].reduce(0) { $0 + $1.maxWidth }
        return digits == width ? nil : .runWidth(digits: digits, width: width, first: first, last: last)
    }

    /// An English month name or its first three letters, any case.
    @inline(__always)
    private static func monthName(_ base: UnsafePointer<UInt8>, _ count: Int, _ i: inout Int) -> Int? {
        guard i + 3 <= count else { return nil }
        let a = base[i] | 0x20, b = base[i + 1] | 0x20, c = base[i + 2] | 0x20
        for (index, name) in lowerMonthNames.enumerated() where name[0] == a && name[1] == b && name[2] == c {
            // Take the full name when it follows.
            var j = 3
            while j < name.count && i + j < count && base[i + j] | 0x20 == name[j] { j += 1 }
            i += (j == name.count) ? j : 3
            return index + 1
        }
        return nil
    }
}
