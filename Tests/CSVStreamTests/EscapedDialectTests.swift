import CSVStream
import Foundation
import PropertyBased
import Testing

/// Text written with a backslash escape (``CSVDialect/escape``): MySQL's `SELECT … INTO OUTFILE` and
/// PostgreSQL's text-format `COPY`.
@Suite("Escaped dialect")
struct EscapedDialectTests {
    /// PostgreSQL's text format: tab-separated, never quoted, backslash escapes.
    static let postgres: CSVDialect = {
        var dialect = CSVDialect(delimiter: 0x09, quote: CSVDialect.noQuote, hasHeader: false)
        dialect.escape = UInt8(ascii: "\\")
        return dialect
    }()
    /// MySQL's `FIELDS TERMINATED BY ',' OPTIONALLY ENCLOSED BY '"' ESCAPED BY '\\'`.
    static let mysqlEnclosed: CSVDialect = {
        var dialect = CSVDialect(hasHeader: false)
        dialect.escape = UInt8(ascii: "\\")
        return dialect
    }()

    /// Each field of every record: its text, or nil for a null (`\N`: those two bytes, unquoted).
    static func read(_ bytes: [UInt8], _ dialect: CSVDialect, chunkSize: Int = 64 * 1024) throws -> [[String?]] {
        let reader = try CSVReader(bytes: bytes, dialect: dialect, chunkSize: chunkSize)
        var records: [[String?]] = []
        try reader.forEachRawRecord { record in
            if record.isBlank { return }
            try record.validateQuotes()
            records.append(try (0..<record.count).map { index in
                let text = try record.string(at: index)
                return text == "\\N" && !record.isQuoted(at: index) ? nil : text
            })
        }
        return records
    }

    static func read(_ text: String, _ dialect: CSVDialect, chunkSize: Int = 64 * 1024) throws -> [[String?]] {
        try read(Array(text.utf8), dialect, chunkSize: chunkSize)
    }

    @Test func postgresTextEscapesDecode() throws {
        let text = "1\tAnn\\tTab\tline\\none\\\\back\n2\t\\N\t\n3\ta\\\tb\tc\\\nd\n"
        #expect(try Self.read(text, Self.postgres) == [
            ["1", "Ann\tTab", "line\none\\back"],
            ["2", nil, ""],
            ["3", "a\tb", "c\nd"],
        ])
    }

    @Test func everyNamedEscape() throws {
        let text = "\\0|\\b|\\f|\\n|\\r|\\t|\\v|\\Z|\\q|\\é|\\|\n"
        var dialect = Self.postgres
        dialect.delimiter = UInt8(ascii: "|")
        #expect(try Self.read(text, dialect) == [["\0", "\u{08}", "\u{0C}", "\n", "\r", "\t", "\u{0B}", "\u{1A}", "q", "é", "|"]])
    }

    @Test func nullMarkerOnlyAsAWholeField() throws {
        let text = "\\N\t\\\\N\t\\Nx\tN\t\\N\\N\t\"\\N\"\n"
        #expect(try Self.read(text, Self.postgres) == [[nil, "\\N", "Nx", "N", "NN", "\"N\""]])
        // Quoted, \N is the letter N.
        #expect(try Self.read("\"\\N\",\\N\n", Self.mysqlEnclosed) == [["N", nil]])
    }

    @Test func escapedFieldsAreLiteralAndNullIsTwoUnquotedBytes() throws {
        let reader = try CSVReader(string: "\\N,,a\\,b,plain,\"q\",\"\",\\\\N\n", dialect: Self.mysqlEnclosed)
        try reader.forEachRawRecord { record in
            #expect(record.count == 7)
            let texts = try (0..<record.count).map { try record.string(at: $0) }
            #expect(!record.isQuoted(at: 0) && texts[0] == "\\N")  // null
            #expect(!record.isQuoted(at: 1) && texts[1].isEmpty)  // an empty field
            #expect(record.isQuoted(at: 2))  // held an escape: literal text
            #expect(!record.isQuoted(at: 3))
            #expect(record.isQuoted(at: 4))
            #expect(record.isQuoted(at: 5))  // "": quoted, an empty string
            #expect(record.isQuoted(at: 6) && texts[6] == "\\N")  // the text \N
        }
    }

    @Test func mysqlEnclosedOutput() throws {
        // MySQL escapes the quote, the escape byte, the delimiter's and line terminator's first bytes.
        let text = "1,\"Ann \\\"the\\\" Smith\",\"a,b\",\"two\\\nlines\",\\N,\"back\\\\slash\"\n2,\"x\"\"y\",7,\"\",\\N,\"\"\n"
        #expect(try Self.read(text, Self.mysqlEnclosed) == [
            ["1", "Ann \"the\" Smith", "a,b", "two\nlines", nil, "back\\slash"],
            ["2", "x\"y", "7", "", nil, ""],
        ])
    }

    @Test func mysqlTabDefaultWithRawCarriageReturn() throws {
        // MySQL leaves a CR in text as it is; only the CR of a CRLF line end is a line end.
        var dialect = Self.postgres
        dialect.quote = UInt8(ascii: "\"")
        let text = "1\ta\rb\t\\N\n2\t\"quoted\"\tc\n"
        #expect(try Self.read(text, dialect) == [["1", "a\rb", nil], ["2", "quoted", "c"]])
    }

    @Test func lineNumbersCountEveryLineFeed() throws {
        let text = "a\tone\\\ntwo\nb\tthree\nc\tx\ry\n\nd\tz"
        let reader = try CSVReader(string: text, dialect: Self.postgres, chunkSize: 3)
        var seen: [(String, Int, Int64, String)] = []
        try reader.forEachRawRecord { record in
            if record.isBlank { return }
            let raw = record.withRawBytes { String(decoding: $0, as: UTF8.self) }
            seen.append((try record.string(at: 0), record.lineNumber, record.byteOffset, raw))
        }
        #expect(seen.map(\.0) == ["a", "b", "c", "d"])
        #expect(seen.map(\.1) == [1, 3, 4, 6])
        #expect(seen.map(\.2) == [0, 11, 19, 26])
        #expect(seen.map(\.3) == ["a\tone\\\ntwo", "b\tthree", "c\tx\ry", "d\tz"])
    }

    @Test func endOfDataMarkerEndsTheData() throws {
        #expect(try Self.read("1\ta\n\\.\n", Self.postgres) == [["1", "a"]])
        #expect(try Self.read("1\ta\n\\.", Self.postgres) == [["1", "a"]], "without a final line end too")
        let reader = try CSVReader(string: "1\ta\n\\.\n2\tb\n", dialect: Self.postgres)
        #expect(try reader.readAll().filter { !$0.isBlank }.map(\.fields) == [["1", "a"]])
        #expect(reader.endOfDataLine == 2 && reader.hasBytesAfterEndOfData)
        // Not alone on its line, it is the text ".".
        #expect(try Self.read("\\.\tx\n", Self.postgres) == [[".", "x"]])
    }

    @Test func lineEndsFollowWhatTheFileStartSays() throws {
        var dialect = Self.postgres
        dialect.quote = UInt8(ascii: "\"")
        for chunkSize in [1, 3, 64 * 1024] {
            // An escaped CR: MySQL's LINES TERMINATED BY '\r\n', which leaves an LF in text as it is.
            #expect(try Self.read("id\tname\r\n1\tline1\nline2\r\n2\ta\\\rb\r\n", dialect, chunkSize: chunkSize)
                    == [["id", "name"], ["1", "line1\nline2"], ["2", "a\rb"]])
            // An escaped LF, or a CR before anything but an LF: LF lines, where a CR before the LF is text.
            #expect(try Self.read("1\tend\r\n2\ta\\\nb\n", dialect, chunkSize: chunkSize) == [["1", "end\r"], ["2", "a\nb"]])
            // No escaped CR or LF: CRLF lines when they are at least twice the bare LFs (trial X: a CRLF file
            // with a stray CR in text, one with an LF in text and no CR).
            #expect(try Self.read("id\tname\r\n1\ta\rb\r\n2\tAnn\r\n", dialect, chunkSize: chunkSize) == [["id", "name"], ["1", "a\rb"], ["2", "Ann"]])
            #expect(try Self.read("1\tline a\nline b\r\n2\tx\r\n3\ty\r\n", dialect, chunkSize: chunkSize)
                    == [["1", "line a\nline b"], ["2", "x"], ["3", "y"]])
            // A header written apart ends with a bare LF: it still ends the header.
            var headed = dialect
            headed.hasHeader = true
            let apart = try CSVReader(string: "id\tname\n1\tx\r\n2\ty\r\n3\tz\r\n", dialect: headed, chunkSize: chunkSize)
            let rows = try apart.readAll().map(\.fields)
            #expect(apart.header == ["id", "name"] && rows == [["1", "x"], ["2", "y"], ["3", "z"]])
            // Nothing to tell: every LF ends a line, a CR before it with it; both kinds are counted.
            let reader = try CSVReader(string: "1\tx\r\n2\ty\n3\tz\n", dialect: dialect, chunkSize: chunkSize)
            #expect(try reader.readAll().map(\.fields) == [["1", "x"], ["2", "y"], ["3", "z"]])
            #expect(reader.escapedLineEnds == (2, 1))
        }
    }

    @Test func chosenLineEndsWinOverTheText() throws {
        // Trial X's notes: a CRLF export whose values hold more LFs than it has rows, and no CR.
        var dialect = Self.postgres
        let text = "1\ta\nb\nc\r\n2\td\ne\nf\r\n"
        #expect(try Self.read(text, dialect).count == 6)
        dialect.escapedLineEnd = .carriageReturnLineFeed
        #expect(try Self.read(text, dialect) == [["1", "a\nb\nc"], ["2", "d\ne\nf"]])
        // Chosen, it stays: an escaped LF later does not change it.
        #expect(try Self.read("1\tx\r\n2\ta\\\nb\r\n", dialect) == [["1", "x"], ["2", "a\nb"]])
        dialect.escapedLineEnd = .lineFeed
        #expect(try Self.read("1\tend\r\n2\tx\r\n3\ty\r\n", dialect) == [["1", "end\r"], ["2", "x\r"], ["3", "y\r"]])
    }

    @Test func anEscapedCarriageReturnPastTheSampleTellsCRLFLinesThen() throws {
        var dialect = Self.postgres
        dialect.quote = UInt8(ascii: "\"")
        let long = String(repeating: "x", count: 70_000)
        #expect(try Self.read("1\t" + long + "\\\r\ny\r\n2\tz\r\n", dialect) == [["1", long + "\r\ny"], ["2", "z"]])
    }

    @Test func enclosedAndDoubledQuotesAreCounted() throws {
        let reader = try CSVReader(string: "1,\"a\"\n2,b\n3,\"x\"\"y\"\n", dialect: Self.mysqlEnclosed)
        _ = try reader.readAll()
        #expect(reader.enclosedRecords == 2 && reader.firstEnclosedLine == 1)
        #expect(reader.doubledQuoteRecords == 1 && reader.firstDoubledQuoteLine == 3)
    }

    @Test func trimmingDropsUnescapedSpacesOnly() throws {
        var dialect = Self.mysqlEnclosed
        dialect.trimsSpaces = true
        // The escaped spaces stay, and the one between them.
        #expect(try Self.read("  a  , \\  b\\ ,  \"c \" ,d\n", dialect) == [["a", "  b ", "c ", "d"]])
    }

    @Test func trimmingKeepsNullAndTabDelimitersAfterQuotes() throws {
        // Found by the differential fuzzer: `\N ` in a file that trims stayed the text N; a tab delimiter
        // after a closing quote was dropped as padding.
        var dialect = Self.postgres
        dialect.trimsSpaces = true
        dialect.quote = UInt8(ascii: "\"")
        #expect(try Self.read("\\N  \t \\N\t\\N x\n", dialect) == [[nil, nil, "N x"]])
        #expect(try Self.read("\"K1\"\t\"one\"\nK4\t\"four\" \t\"x\"\n", dialect) == [["K1", "one"], ["K4", "four", "x"]])
    }

    @Test func textAfterAClosingQuoteIsReported() throws {
        let reader = try CSVReader(string: "1,\"Ann\" said,2\n3,ok,4\n", dialect: Self.mysqlEnclosed)
        var errors: [CSVError] = []
        var fields: [[String]] = []
        try reader.forEachRawRecord { record in
            fields.append(try (0..<record.count).map { try record.string(at: $0) })
            do throws(CSVError) { try record.validateQuotes() } catch { errors.append(error) }
        }
        #expect(fields == [["1", "Ann\" said", "2"], ["3", "ok", "4"]])
        #expect(errors.count == 1)
        #expect(errors.first?.kind == .textAfterClosingQuote)
        #expect(errors.first?.column == 2)
        #expect(errors.first?.byteOffset == 7)
        #expect(errors.first?.message.contains("without a quote byte") == true)
    }

    @Test func strictModeStopsAtTextAfterAClosingQuote() throws {
        var dialect = Self.mysqlEnclosed
        dialect.strict = true
        let error = #expect(throws: CSVError.self) { try Self.read("1,\"Ann\" said\n", dialect) }
        #expect(error?.kind == .malformedQuote)
        #expect(error?.byteOffset == 7)
    }

    @Test func aQuoteOpenAtTheLineEndEndsItsRecordThere() throws {
        // Such exports escape line ends in values: the quote opened no quoted field, and takes no later line.
        let reader = try CSVReader(string: "1,\"open\n2,x\n3,\"y\n", dialect: Self.mysqlEnclosed)
        var errors: [CSVError] = []
        var lines: [Int] = []
        try reader.forEachRawRecord { record in
            lines.append(record.lineNumber)
            do throws(CSVError) { try record.validateQuotes() } catch { errors.append(error) }
        }
        #expect(lines == [1, 2, 3])
        #expect(errors.map(\.kind) == [.unterminatedQuote, .unterminatedQuote])
        #expect(errors.first?.column == 2 && errors.first?.byteOffset == 2 && errors.first?.line == 1)
        #expect(errors.first?.hint.contains("--quote none") == true && errors.first?.hint.contains("\\\"") == true)
        var strict = Self.mysqlEnclosed
        strict.strict = true
        let stopped = #expect(throws: CSVError.self) { try Self.read("1,\"open\n2,x\n", strict) }
        #expect(stopped?.kind == .unterminatedQuote && stopped?.message.contains("--quote none") == true)
    }

    @Test func headerIsDecodedToo() throws {
        var dialect = Self.postgres
        dialect.hasHeader = true
        let reader = try CSVReader(string: "id\tna\\tme\n1\tx\n", dialect: dialect)
        #expect(reader.header == ["id", "na\tme"])
    }

    @Test func escapeMustDifferFromTheSyntax() {
        for escape: UInt8 in [UInt8(ascii: ","), UInt8(ascii: "\""), 0x0A, 0x0D] {
            var dialect = CSVDialect.csv
            dialect.escape = escape
            #expect(throws: CSVError.self) { try CSVReader(string: "a\n", dialect: dialect) }
        }
        var epf = CSVDialect.epf
        epf.escape = UInt8(ascii: "\\")
        #expect(throws: CSVError.self) { try CSVReader(string: "a\n", dialect: epf) }
    }

    // MARK: - Round trips

    static let characters: [Character] = ["a", "N", "0", " ", "\t", ",", "\"", "\n", "\r", "\\", ".", "é", "\u{01}", "\0"]
    static let value = pick(characters).string(of: 0...5)
    /// A field: text, or nil for null.
    static let field = value.optional(valueRate: 0.8)
    static let document = field.array(of: 1...4).array(of: 1...5)

    /// Records written with `\N` for null, each character of a value as `escaped` gives it (itself when
    /// `nil`), each value as `wrapped` gives it, fields joined by `delimiter` and ended by `lineEnd`.
    static func write(_ records: [[String?]], delimiter: String, lineEnd: String, escaped: (Unicode.Scalar) -> String?,
                      wrapped: (String) -> String = { $0 }) -> String {
        records.map { record in
            record.map { field in
                guard let field else { return "\\N" }
                var out = ""
                for character in field.unicodeScalars {
                    if let written = escaped(character) { out += written } else { out.unicodeScalars.append(character) }
                }
                return wrapped(out)
            }.joined(separator: delimiter) + lineEnd
        }.joined()
    }

    /// PostgreSQL's `COPY … TO` in text format.
    static func writePostgres(_ records: [[String?]], delimiter: Character) -> String {
        write(records, delimiter: String(delimiter), lineEnd: "\n") { character in
            switch character {
            case "\\": "\\\\"
            case "\n": "\\n"
            case "\r": "\\r"
            case "\t": "\\t"
            case delimiter.unicodeScalars.first!: "\\" + String(character)
            default: nil
            }
        }
    }

    /// MySQL's `SELECT … INTO OUTFILE` with `ESCAPED BY '\\'`, enclosing every text value or none.
    static func writeMySQL(_ records: [[String?]], enclosed: Bool, lineEnd: String) -> String {
        write(records, delimiter: ",", lineEnd: lineEnd, escaped: { character in
            switch character {
            case "\\": "\\\\"
            case "\0": "\\0"
            case "\"" where enclosed: "\\\""
            case ",", lineEnd.unicodeScalars.first!: "\\" + String(character)
            default: nil
            }
        }, wrapped: { enclosed ? "\"" + $0 + "\"" : $0 })
    }

    @Test func postgresTextRoundTrips() async {
        await propertyCheck(input: Self.document, pick([Character]([",", "\t", "|"])), Gen.int(in: 1...7)) {
            records, delimiter, chunkSize in
            do {
                var dialect = Self.postgres
                dialect.delimiter = UInt8(ascii: delimiter.unicodeScalars.first!)
                // PostgreSQL text holds no NUL (and a file starting with one reads as UTF-16).
                let records = records.map { $0.map { $0?.replacingOccurrences(of: "\0", with: "0") } }
                let text = Self.writePostgres(records, delimiter: delimiter)
                // A record of one empty text is a blank line, which PostgreSQL writes alike.
                let expected = records.filter { $0 != [""] }
                #expect((try? Self.read(text, dialect, chunkSize: chunkSize)) == expected, "\(text.debugDescription)")
            }
        }
    }

    @Test func mysqlOutfileRoundTrips() async {
        await propertyCheck(input: Self.document, Gen.bool, Gen.bool, Gen.int(in: 1...7)) { records, enclosed, crlf, chunkSize in
            do {
                var dialect = Self.mysqlEnclosed
                if !enclosed { dialect.quote = CSVDialect.noQuote }
                // Text ending in the line end's unescaped first byte reads as part of the line end, which
                // MySQL's output cannot tell apart: a CR before LF lines, an LF... never (CR is escaped).
                let records = crlf ? records : records.filter { !$0.contains { $0?.hasSuffix("\r") == true } }
                // How lines end is told from the file's start: a CRLF export says so by a CR in text, escaped.
                let head: [[String?]] = crlf ? [["id", "name\r"]] : [["id", "name"]]
                let text = Self.writeMySQL(head + records, enclosed: enclosed, lineEnd: crlf ? "\r\n" : "\n")
                let expected = head + (enclosed ? records : records.filter { $0 != [""] })
                #expect((try? Self.read(text, dialect, chunkSize: chunkSize)) == expected, "\(text.debugDescription)")
            }
        }
    }
}
