import Foundation

/// Writes one CSV file through a byte buffer that is flushed to disk about
/// every mebibyte, so memory stays flat however many rows are generated.
///
/// Fields are appended one at a time; the writer places delimiters and line
/// endings. A line ending is written when the *next* record starts, which is
/// how a file can end without one (`finalLineEnding: false`, as the FDIC list
/// does). Text fields are quoted as RFC 4180 asks: only when they hold the
/// delimiter, a quote, CR or LF, with inner quotes doubled.
///
/// It is a struct so appends are checked for exclusive access at compile
/// time rather than per call; it is never copied. If generation stops
/// early, the file handle closes when it is released.
///
/// For example:
///
///     var writer = try _GeneratedCSVWriter(url: url, columns: ["title", "author"])
///     writer.text("Salt, and Cinders")   // written as "Salt, and Cinders"
///     writer.text("Harriet Ashdown")
///     try writer.endRecord()
///     let summary = try writer.finish()
struct _GeneratedCSVWriter {
    enum LineEnding {
        case lf
        case crlf
    }

    let url: URL
    let columns: [String]
    private let handle: FileHandle
    private let lineEnding: LineEnding
    private let finalLineEnding: Bool
    private var buffer: [UInt8] = []
    private var fieldsInRecord = 0
    private var recordsStarted = 0
    private var bytesFlushed = 0
    private var finished = false

    private static let flushThreshold = 1 << 20
    private static let comma: UInt8 = 0x2C
    private static let quote: UInt8 = 0x22
    private static let cr: UInt8 = 0x0D
    private static let lf: UInt8 = 0x0A
    private static let zero: UInt8 = 0x30
    private static let powersOfTen: [Int] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000]

    /// Creates (or truncates) the file and writes the header record.
    init(
        url: URL, columns: [String], lineEnding: LineEnding = .lf, finalLineEnding: Bool = true
    ) throws {
        self.url = url
        self.columns = columns
        self.lineEnding = lineEnding
        self.finalLineEnding = finalLineEnding
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw DataSetGeneratorError.cannotWrite(url, reason: "the file could not be created")
        }
        do {
            handle = try FileHandle(forWritingTo: url)
        } catch {
            throw DataSetGeneratorError.cannotWrite(url, reason: error.localizedDescription)
        }
        buffer.reserveCapacity(Self.flushThreshold + 64 * 1024)
        for name in columns { text(name) }
        try endRecord()
    }

    /// Data records written so far (the header is not counted).
    var dataRows: Int { max(0, recordsStarted - 1) }

    // MARK: Fields

    /// Starts a field whose bytes the caller appends with the `append`
    /// methods; the caller guarantees they need no quoting.
    mutating func beginField() {
        if fieldsInRecord > 0 {
            buffer.append(Self.comma)
        } else {
            if recordsStarted > 0 { appendLineEnding() }
            recordsStarted += 1
        }
        fieldsInRecord += 1
    }

    /// An empty field.
    mutating func empty() {
        beginField()
    }

    /// A text field, quoted only when it must be.
    mutating func text(_ value: String) {
        beginField()
        appendQuotingIfNeeded(value.utf8)
    }

    /// A text field given as bytes (which need not be UTF-8), quoted only
    /// when it must be.
    mutating func text(bytes: [UInt8]) {
        beginField()
        appendQuotingIfNeeded(bytes)
    }

    /// A field of bytes the caller knows need no quoting.
    mutating func plain(_ bytes: [UInt8]) {
        beginField()
        buffer.append(contentsOf: bytes)
    }

    /// A decimal integer, left-padded with zeros to `width` digits.
    mutating func integer(_ value: Int, width: Int = 0) {
        beginField()
        append(value, width: width)
    }

    /// A fixed-point decimal with exactly `places` digits after the point,
    /// rounded half away from zero.
    mutating func decimal(_ value: Double, places: Int) {
        beginField()
        append(value, places: places)
    }

    /// A `yyyy-MM-dd` date.
    mutating func isoDate(_ day: Int) {
        beginField()
        let (year, month, dayOfMonth) = _CivilCalendar.civil(day)
        append(year, width: 4)
        buffer.append(0x2D)
        append(month, width: 2)
        buffer.append(0x2D)
        append(dayOfMonth, width: 2)
    }

    /// A `d-MMM-yy` date (`13-Oct-00`), as in the FDIC failed bank list.
    mutating func dayMonthYearDate(_ day: Int) {
        beginField()
        let (year, month, dayOfMonth) = _CivilCalendar.civil(day)
        append(dayOfMonth, width: 0)
        buffer.append(0x2D)
        buffer.append(contentsOf: _CivilCalendar.monthAbbreviations[month - 1])
        buffer.append(0x2D)
        append(year % 100, width: 2)
    }

    // MARK: Pieces of a field begun with beginField()

    mutating func append(_ bytes: [UInt8]) {
        buffer.append(contentsOf: bytes)
    }

    mutating func append(byte: UInt8) {
        buffer.append(byte)
    }

    /// Appends a decimal integer, left-padded with zeros to `width` digits
    /// (at most 20), in one append call: the digits are formatted in a
    /// stack buffer first.
    mutating func append(_ value: Int, width: Int) {
        let negative = value < 0
        var remaining = value.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { digits in
            var start = 24
            repeat {
                start -= 1
                digits[start] = Self.zero + UInt8(remaining % 10)
                remaining /= 10
            } while remaining > 0
            let padded = max(0, 24 - min(width, 20))
            while start > padded {
                start -= 1
                digits[start] = Self.zero
            }
            if negative {
                start -= 1
                digits[start] = 0x2D
            }
            buffer.append(contentsOf: UnsafeMutableBufferPointer(rebasing: digits[start...]))
        }
    }

    mutating func append(_ value: Double, places: Int) {
        let scale = Self.powersOfTen[places]
        var scaled = Int((value * Double(scale)).rounded())
        if scaled < 0 {
            buffer.append(0x2D)
            scaled = -scaled
        }
        append(scaled / scale, width: 0)
        if places > 0 {
            buffer.append(0x2E)
            append(scaled % scale, width: places)
        }
    }

    // MARK: Records

    /// Ends the current record, flushing the buffer when it is full.
    mutating func endRecord() throws {
        precondition(fieldsInRecord > 0, "a record needs at least one field")
        fieldsInRecord = 0
        if buffer.count >= Self.flushThreshold { try flush() }
    }

    /// Writes what is left and closes the file.
    mutating func finish() throws -> GeneratedFile {
        precondition(!finished, "finish() called twice")
        precondition(fieldsInRecord == 0, "finish() called inside a record")
        finished = true
        if finalLineEnding, recordsStarted > 0 { appendLineEnding() }
        try flush()
        do {
            try handle.close()
        } catch {
            throw DataSetGeneratorError.cannotWrite(url, reason: error.localizedDescription)
        }
        return GeneratedFile(role: .csv, url: url, rows: dataRows, columns: columns, bytes: bytesFlushed)
    }

    // MARK: Private

    private mutating func appendLineEnding() {
        switch lineEnding {
        case .lf:
            buffer.append(Self.lf)
        case .crlf:
            buffer.append(Self.cr)
            buffer.append(Self.lf)
        }
    }

    private mutating func appendQuotingIfNeeded<Bytes: Collection<UInt8>>(_ bytes: Bytes) {
        let needsQuotes = bytes.contains { byte in
            byte == Self.comma || byte == Self.quote || byte == Self.cr || byte == Self.lf
        }
        guard needsQuotes else {
            buffer.append(contentsOf: bytes)
            return
        }
        buffer.append(Self.quote)
        for byte in bytes {
            if byte == Self.quote { buffer.append(Self.quote) }
            buffer.append(byte)
        }
        buffer.append(Self.quote)
    }

    private mutating func flush() throws {
        guard !buffer.isEmpty else { return }
        do {
            try handle.write(contentsOf: buffer)
        } catch {
            throw DataSetGeneratorError.cannotWrite(url, reason: error.localizedDescription)
        }
        bytesFlushed += buffer.count
        buffer.removeAll(keepingCapacity: true)
    }
}
