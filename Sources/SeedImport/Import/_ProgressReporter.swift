import Foundation
import Measure

/// Progress on standard error: a bar redrawn in place on a terminal (at most ten times a second), or a
/// plain line every few seconds for logs. Percent and ETA count bytes over all files of the import; the
/// rows next to the file's name are that file's, and once earlier files were read, the rows of all files
/// follow, labelled (`wells.csv 12,345 rows (256,637 in all)`): a file mapped twice counts once per pass.
///
/// A bar longer than the terminal is wide would wrap, and `\r` would then redraw only its last row: the
/// bar is fitted to the width of the terminal on standard error (read at each redraw, so a resized window
/// is followed), shortening the file's name from the left, then leaving out the rows of all files and
/// the rate. A bar written to a pipe or a file has no width to fit (unless `COLUMNS` gives one): it names
/// the file as the user gave it, as the summary does.
final class _ProgressReporter {
    enum Style { case bar, plain, none }

    let style: Style
    private let totalBytes: Int64
    private let output: @Sendable (String) -> Void
    /// The bar's width limit in columns (`nil`: the terminal's, ``terminalColumns()``, if any).
    private let columns: Int?
    private let start = Clock.now()
    /// The first line comes one interval after the start, not at 0%.
    private lazy var lastDraw = start
    private var bytesBefore: Int64 = 0
    private var rowsBefore = 0
    private var file = ""
    private var drewBar = false
    /// When the finish (indexes, statistics) began, for its ETA.
    private var finishStart: Double?

    /// The indexes the store gets after the load, weighed by the input they follow: the sum over files of
    /// a file's bytes times the indexes on the tables its rows fill, over all bytes (``expectFinish(indexesPerByte:)``).
    private(set) var finishWeight = 0.0
    /// Seconds of finish per second of load and index on a table the load filled: measured on the wells
    /// (the demo's mapping and Well alone, one thread and reading ahead, 244,292 and 977,168 rows) at 0.06–0.15.
    static let finishPerIndex = 0.1
    /// ANALYZE's time against the index builds before it (the wells: 0.08 s after 0.42 s).
    static let analyzeShare = 0.2

    /// Seconds between plain lines.
    static let plainInterval = 3.0
    /// Seconds between bar redraws.
    static let barInterval = 0.1

    init(mode: ProgressMode, totalBytes: Int64, output: (@Sendable (String) -> Void)?, columns: Int? = nil) {
        self.columns = columns
        switch mode {
        case .none: style = .none
        case .bar: style = .bar
        case .plain: style = .plain
        case .auto: style = isatty(2) == 1 ? .bar : .plain
        }
        self.totalBytes = max(1, totalBytes)
        self.output = output ?? { FileHandle.standardError.write(Data($0.utf8)) }
    }

    /// Says what comes after the load: `indexesPerByte` is the sum over files of a file's bytes times the
    /// indexes on the tables its rows fill, over all bytes. The ETA then covers the index build too, as
    /// ``finishPerIndex`` of the load's time per such index (an estimate: a file whose rows only update
    /// counts as if it added them).
    func expectFinish(indexesPerByte: Double) {
        finishWeight = max(0, indexesPerByte)
    }

    /// The estimated seconds of the finish after a load of `loadSeconds`.
    func finishEstimate(loadSeconds: Double) -> Double {
        Self.finishPerIndex * loadSeconds * finishWeight
    }

    /// A file starts; `bytesBefore` and `rowsBefore` are what earlier files of the import covered.
    func begin(file: String, bytesBefore: Int64, rowsBefore: Int) {
        // A run again (skip mode) has a finish of its own.
        finishStart = nil
        self.file = file
        self.bytesBefore = bytesBefore
        self.rowsBefore = rowsBefore
    }

    /// Called every few hundred rows; draws when the interval has passed.
    @inline(__always)
    func update(bytes: Int64, rows: Int) {
        guard style != .none else { return }
        let now = Clock.now()
        let interval = style == .bar ? Self.barInterval : Self.plainInterval
        guard now - lastDraw >= interval else { return }
        lastDraw = now
        draw(bytes: bytesBefore + bytes, fileRows: rows, now: now)
    }

    /// The current file's rows, then the rows of all files so far when earlier files had some.
    func rowsText(fileRows: Int) -> String {
        rowsText(label: file, fileRows: fileRows, inAll: true)
    }

    private func rowsText(label: String, fileRows: Int, inAll: Bool) -> String {
        let text = "\(label) \(Self.grouped(fileRows)) rows"
        return inAll && rowsBefore > 0 ? text + " (\(Self.grouped(rowsBefore + fileRows)) in all)" : text
    }

    /// The bar line for `fraction` done, fitted into `columns` (one is kept free: a line that fills the
    /// last column makes some terminals wrap). What gives way, in order: the bar's width, the rows of all
    /// files, the rate; at each step the file's name is tried whole, then without its folders. Past that,
    /// the name is cut from the left (its end says most), down to 12 characters. The percent, the file's
    /// rows and the ETA stay.
    func barLine(fraction: Double, fileRows: Int, rate: Double, eta: String, columns: Int) -> String {
        let limit = max(10, columns - 1)
        let percent = String(format: "%3.0f%%", fraction * 100)
        func line(_ label: String, bar width: Int, inAll: Bool, showsRate: Bool) -> String {
            let filled = Int(fraction * Double(width))
            let bar = String(repeating: "=", count: filled) + String(repeating: " ", count: width - filled)
            return "[\(bar)] \(percent)  \(rowsText(label: label, fileRows: fileRows, inAll: inAll))"
                + (showsRate ? "  \(Self.grouped(Int(rate))) rows/s" : "") + "  ETA \(eta)"
        }
        // "data/2026/wells.csv → Well" without its folders: "wells.csv → Well".
        let arrow = file.range(of: " → ")?.lowerBound ?? file.endIndex
        let folders = file[..<arrow].lastIndex(of: "/").map { file.index(after: $0) } ?? file.startIndex
        let labels = folders == file.startIndex ? [file] : [file, String(file[folders...])]
        let steps = [(24, true, true), (12, true, true), (12, false, true), (12, false, false)]
        for (width, inAll, showsRate) in steps {
            for label in labels {
                let full = line(label, bar: width, inAll: inAll, showsRate: showsRate)
                if full.count <= limit { return full }
            }
        }
        let short = labels[labels.count - 1]
        let excess = line(short, bar: 12, inAll: false, showsRate: false).count - limit
        let keep = short.count - excess - 1
        if keep >= 12 { return line("…" + short.suffix(keep), bar: 12, inAll: false, showsRate: false) }
        // A very narrow terminal: cut at the limit.
        return String(line(short.count > 12 ? "…" + short.suffix(12) : short, bar: 12, inAll: false, showsRate: false).prefix(limit))
    }

    /// The columns of the terminal on standard error; `COLUMNS` when that cannot be read; `nil` when
    /// neither says (standard error is a pipe or a file: nothing wraps there, so nothing is cut).
    static func terminalColumns() -> Int? {
        var size = winsize()
        if ioctl(2, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        if let text = ProcessInfo.processInfo.environment["COLUMNS"], let value = Int(text), value > 0 { return value }
        return nil
    }

    private func draw(bytes: Int64, fileRows: Int, now: Double) {
        let elapsed = now - start
        let fraction = min(1, Double(bytes) / Double(totalBytes))
        let rate = elapsed > 0 ? Double(rowsBefore + fileRows) / elapsed : 0
        // The load's time to come, then the finish's: an estimate from the load's projected time.
        let eta = fraction > 0.001 ? elapsed * (1 - fraction) / fraction + finishEstimate(loadSeconds: elapsed / fraction) : nil
        let percent = String(format: "%3.0f%%", fraction * 100)
        let etaText = eta.map(Self.duration) ?? "?"
        switch style {
        case .bar:
            let line = barLine(fraction: fraction, fileRows: fileRows, rate: rate, eta: etaText, columns: columns ?? Self.terminalColumns() ?? .max)
            output("\r\(line)\u{1B}[K")
            drewBar = true
        case .plain:
            output("import: \(percent.trimmingCharacters(in: .whitespaces)) \(rowsText(fileRows: fileRows)), \(Self.grouped(Int(rate))) rows/s, ETA \(etaText)\n")
        case .none:
            break
        }
    }

    /// A message between progress lines (a finishing step).
    func note(_ text: String) {
        switch style {
        case .none: return
        case .bar:
            // Fitted like the bar: a wrapped line would not be cleared by the next redraw.
            let limit = max(10, (columns ?? Self.terminalColumns() ?? .max) - 1)
            output("\r\(text.count > limit ? text.prefix(limit - 1) + "…" : Substring(text))\u{1B}[K")
            drewBar = true
        case .plain: output("import: \(text)\n")
        }
    }

    /// A step of the finish: `text` says which (`building index 2 of 9 (Well.well_name)`), `done` how
    /// much of the finish's work is behind (by the rows of the tables indexed). The ETA comes from the
    /// finish's pace once a part is done, before that from the load's time; plain lines follow the plain
    /// interval, but for the first step.
    func finishStep(_ text: String, done: Double) {
        guard style != .none else { return }
        let now = Clock.now()
        let first = finishStart == nil
        let started = finishStart ?? now
        finishStart = started
        let done = min(1, max(0, done))
        let seconds = done >= 0.01 ? (now - started) * (1 - done) / done
            : finishEstimate(loadSeconds: started - start) - (now - started)
        let eta = Self.duration(max(0, seconds))
        switch style {
        case .none:
            return
        case .bar:
            output("\r\(finishLine(text, done: done, eta: eta, columns: columns ?? Self.terminalColumns() ?? .max))\u{1B}[K")
            drewBar = true
        case .plain:
            guard first || now - lastDraw >= Self.plainInterval else { return }
            lastDraw = now
            output("import: \(text), \(Int(done * 100))% of the finish, ETA \(eta)\n")
        }
    }

    /// The bar line of a finish step, fitted into `columns` as ``barLine(fraction:fileRows:rate:eta:columns:)``
    /// is: the step's text is cut at its end.
    func finishLine(_ text: String, done: Double, eta: String, columns: Int) -> String {
        let limit = max(10, columns - 1)
        let filled = Int(done * 12)
        let head = "[" + String(repeating: "=", count: filled) + String(repeating: " ", count: 12 - filled) + "] "
            + String(format: "%3.0f%%", done * 100) + "  "
        let tail = "  ETA \(eta)"
        let room = limit - head.count - tail.count
        if text.count <= room { return head + text + tail }
        if room >= 12 { return head + text.prefix(room - 1) + "…" + tail }
        return String((head + text).prefix(limit))
    }

    /// Ends the bar's line.
    func finish() {
        if style == .bar && drewBar { output("\r\u{1B}[K") }
        drewBar = false
    }

    static func duration(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded())
        return whole >= 3600 ? String(format: "%d:%02d:%02d", whole / 3600, whole / 60 % 60, whole % 60)
            : String(format: "%d:%02d", whole / 60, whole % 60)
    }

    /// `1234567` as `1,234,567`, whatever the locale (``TextTable/grouped(_:)``).
    static func grouped(_ value: Int) -> String { TextTable.grouped(value) }
}
