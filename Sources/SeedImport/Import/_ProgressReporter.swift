import Foundation
import Measure

/// Progress on standard error: a bar redrawn in place on a terminal (at most ten times a second), or a
/// plain line every few seconds for logs. Percent and ETA count bytes over all files of the import; the
/// rows next to the file's name are that file's, and once earlier files were read, the rows of all files
/// follow, labelled (`wells.csv 12,345 rows (256,637 in all)`): a file mapped twice counts once per pass.
final class _ProgressReporter {
    enum Style { case bar, plain, none }

    let style: Style
    private let totalBytes: Int64
    private let output: @Sendable (String) -> Void
    private let start = Clock.now()
    /// The first line comes one interval after the start, not at 0%.
    private lazy var lastDraw = start
    private var bytesBefore: Int64 = 0
    private var rowsBefore = 0
    private var file = ""
    private var drewBar = false

    /// Seconds between plain lines.
    static let plainInterval = 3.0
    /// Seconds between bar redraws.
    static let barInterval = 0.1

    init(mode: ProgressMode, totalBytes: Int64, output: (@Sendable (String) -> Void)?) {
        switch mode {
        case .none: style = .none
        case .bar: style = .bar
        case .plain: style = .plain
        case .auto: style = isatty(2) == 1 ? .bar : .plain
        }
        self.totalBytes = max(1, totalBytes)
        self.output = output ?? { FileHandle.standardError.write(Data($0.utf8)) }
    }

    /// A file starts; `bytesBefore` and `rowsBefore` are what earlier files of the import covered.
    func begin(file: String, bytesBefore: Int64, rowsBefore: Int) {
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
        let text = "\(file) \(Self.grouped(fileRows)) rows"
        return rowsBefore > 0 ? text + " (\(Self.grouped(rowsBefore + fileRows)) in all)" : text
    }

    private func draw(bytes: Int64, fileRows: Int, now: Double) {
        let elapsed = now - start
        let fraction = min(1, Double(bytes) / Double(totalBytes))
        let rate = elapsed > 0 ? Double(rowsBefore + fileRows) / elapsed : 0
        let eta = fraction > 0.001 ? elapsed * (1 - fraction) / fraction : nil
        let percent = String(format: "%3.0f%%", fraction * 100)
        let etaText = eta.map(Self.duration) ?? "?"
        switch style {
        case .bar:
            let width = 24
            let filled = Int(fraction * Double(width))
            let bar = String(repeating: "=", count: filled) + String(repeating: " ", count: width - filled)
            output("\r[\(bar)] \(percent)  \(rowsText(fileRows: fileRows))  \(Self.grouped(Int(rate))) rows/s  ETA \(etaText)\u{1B}[K")
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
            output("\r\(text)\u{1B}[K")
            drewBar = true
        case .plain: output("import: \(text)\n")
        }
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

    /// `1234567` as `1,234,567`, whatever the locale.
    static func grouped(_ value: Int) -> String {
        let digits = String(value)
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0, digit != "-" { result.append(",") }
            result.append(digit)
        }
        return result
    }
}
