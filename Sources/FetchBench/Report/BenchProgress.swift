import Foundation
import Measure

/// What a bench run shows while it works: on a terminal one line on stderr that updates in place
/// (`scenario 3/12: faulting / N+1 (run 4/10)`), plain lines when stderr is a file or a CI log, nothing
/// when quiet.
///
/// For example:
///
/// ```swift
/// let progress = BenchProgress(quiet: options.quiet, total: 12)
/// progress.update(index: 3, name: "faulting / N+1", run: 4, runs: 10)
/// progress.finish()
/// ```
public final class BenchProgress {
    /// How progress is shown.
    public enum Style: Sendable {
        /// One line rewritten in place (a terminal).
        case live
        /// One line per variant, nothing rewritten (logs).
        case lines
        /// Nothing.
        case quiet
    }

    /// How this progress is shown: live, lines or quiet.
    public let style: Style
    /// Variants in the run: what ``update(index:of:name:run:runs:)`` counts to when not told.
    public var total: Int
    private let write: (String) -> Void
    /// Live updates closer together than this are skipped, so fast runs do not flood the terminal.
    private let interval: Double
    private var lastName: String?
    private var lastWrite = -Double.infinity
    private var lineWidth = 0

    /// Progress written through `write` (the text carries its own `\r` and newlines).
    ///
    /// For example:
    ///
    /// ```swift
    /// var lines: [String] = []
    /// let progress = BenchProgress(style: .lines) { lines.append($0) }
    /// ```
    public init(style: Style, total: Int = 0, minimumInterval: Double = 0.05, write: @escaping (String) -> Void) {
        self.style = style
        self.total = total
        self.interval = minimumInterval
        self.write = write
    }

    /// Progress on stderr for `total` variants: live on a terminal, lines otherwise, nothing when `quiet`.
    ///
    /// For example:
    ///
    /// ```swift
    /// let progress = BenchProgress(quiet: false, total: 12)
    /// ```
    public convenience init(quiet: Bool, total: Int = 0) {
        let style: Style = quiet ? .quiet : isatty(STDERR_FILENO) != 0 ? .live : .lines
        self.init(style: style, total: total) { text in FileHandle.standardError.write(Data(text.utf8)) }
    }

    /// The text for one step: `scenario 3/12: faulting / N+1 (run 4/10)`.
    ///
    /// For example:
    ///
    /// ```swift
    /// BenchProgress.text(index: 3, of: 12, name: "faulting / N+1", run: 4, runs: 10)
    /// ```
    public static func text(index: Int, of total: Int, name: String, run: Int? = nil, runs: Int? = nil) -> String {
        var text = "scenario \(index)/\(total): \(name)"
        if let run { text += runs.map { " (run \(run)/\($0))" } ?? " (run \(run))" }
        return text
    }

    /// Reports that variant `index` of `total` (`name`, as `scenario / variant`) is on `run` of `runs`.
    ///
    /// Live style rewrites the line (at most every 50 ms unless the variant changed); lines style writes
    /// once per variant, when it starts.
    ///
    /// For example:
    ///
    /// ```swift
    /// progress.update(index: 1, of: 12, name: "batch-size / batch 20, first screen", run: 1, runs: 10)
    /// ```
    public func update(index: Int, of total: Int? = nil, name: String, run: Int? = nil, runs: Int? = nil) {
        let total = total ?? self.total
        let text = Self.text(index: index, of: total, name: name, run: run, runs: runs)
        switch style {
        case .quiet:
            return
        case .lines:
            guard name != lastName else { return }
            lastName = name
            write(Self.text(index: index, of: total, name: name) + "\n")
        case .live:
            show(text, key: name)
        }
    }

    /// Rewrites the live line, unless the last rewrite for the same `key` was under ``interval`` ago.
    private func show(_ text: String, key: String) {
        let now = Clock.now()
        guard key != lastName || now - lastWrite >= interval else { return }
        lastName = key
        lastWrite = now
        let line = Self.fit(text, width: Self.terminalWidth)
        let padding = String(repeating: " ", count: max(0, lineWidth - line.count))
        write("\r" + line + padding)
        lineWidth = line.count
    }

    /// Shows `text` as it is: rewritten in place on a terminal (at most every 50 ms unless it names a new
    /// variant), a line per call otherwise.
    ///
    /// For callers that phrase progress themselves; ``update(index:of:name:run:runs:)`` phrases it for you.
    ///
    /// For example:
    ///
    /// ```swift
    /// progress.update("scenario 3/12: faulting / N+1 (run 4/10)")
    /// ```
    public func update(_ text: String) {
        switch style {
        case .quiet:
            return
        case .lines:
            write(text + "\n")
        case .live:
            show(text, key: text)
        }
    }

    /// Writes a message on its own line, above the live line if there is one.
    ///
    /// For example:
    ///
    /// ```swift
    /// progress.message("warning: the store has no raw reference for dictionary results")
    /// ```
    public func message(_ text: String) {
        guard style != .quiet else { return }
        clearLine()
        write(text + "\n")
    }

    /// Clears the live line when the run ends (nothing to do for the other styles).
    public func finish() {
        clearLine()
        lastName = nil
    }

    private func clearLine() {
        guard style == .live, lineWidth > 0 else { return }
        write("\r" + String(repeating: " ", count: lineWidth) + "\r")
        lineWidth = 0
    }

    /// Text cut to fit a terminal line, so a rewrite never wraps.
    static func fit(_ text: String, width: Int) -> String {
        let room = max(20, width - 1)
        return text.count > room ? String(text.prefix(room - 1)) + "…" : text
    }

    /// The terminal's width (80 when it cannot tell).
    static var terminalWidth: Int {
        var size = winsize()
        if ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return 80
    }
}
