/// Text for messages with its invisible characters written out, so that a NUL, an escape sequence, a
/// line break or a byte-order mark inside a value shows where it is and cannot act on the terminal.
///
/// Controls become `\0`, `\t`, `\n`, `\r` or `\u{1B}`; so do the characters that change how the text
/// around them reads without showing themselves: the byte-order mark (U+FEFF), the zero-width space,
/// the line and paragraph separators, and the bidirectional overrides.
///
/// For example:
///
/// ```swift
/// VisibleText.escaped("\u{FEFF}uwi")      // "\\u{FEFF}uwi"
/// VisibleText.escaped("t\u{0}ask\u{1B}")  // "t\\0ask\\u{1B}"
/// ```
public enum VisibleText {
    /// `text` with its invisible characters escaped; `text` itself when it has none. `keepingLines`
    /// leaves line feeds and tabs as they are, for a message of several lines.
    public static func escaped(_ text: String, keepingLines: Bool = false) -> String {
        let escapes = { (scalar: Unicode.Scalar) in isInvisible(scalar) && !(keepingLines && (scalar == "\n" || scalar == "\t")) }
        guard text.unicodeScalars.contains(where: escapes) else { return text }
        var shown = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n" where keepingLines, "\t" where keepingLines: shown.unicodeScalars.append(scalar)
            case "\0": shown += "\\0"
            case "\t": shown += "\\t"
            case "\n": shown += "\\n"
            case "\r": shown += "\\r"
            default:
                if isInvisible(scalar) {
                    shown += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                } else {
                    shown.unicodeScalars.append(scalar)
                }
            }
        }
        return shown
    }

    /// Whether `scalar` is written out: a control, or a character that shapes text without showing.
    public static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x200B, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069, 0xFEFF: true
        default: false
        }
    }
}
