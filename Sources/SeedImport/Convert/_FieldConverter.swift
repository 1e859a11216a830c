import CSVStream
import Foundation
import ManagedStore

/// How one column's bytes become a ``Value`` of one attribute type: decided once per file, used per row.
///
/// Numbers, booleans and dates are read straight from the bytes; only string, URI, UUID and decimal
/// attributes create Strings.
enum _FieldConverter: Sendable {
    case string(TextEncoding)
    case integer(min: Int64, max: Int64, type: AttributeType)
    case double
    /// A Double rounded to 32 bits as a Float attribute holds it; beyond Float's range it does not convert.
    case float
    case decimal(TextEncoding)
    case boolean
    /// A boolean that may also be written with the column's own words (``ColumnMapping/trueValues``),
    /// held unretained as a date format is.
    case booleanWords(Unmanaged<_BooleanWords>)
    /// The format is held unretained so the converter copies for free; its plan keeps the box alive.
    case date(Unmanaged<_DateBox>)
    case uuid(TextEncoding)
    case uri(TextEncoding)
    case binary
    /// A JSON value handed to a registered value transformer (held unretained, as a date format is).
    case transformable(TextEncoding, Unmanaged<_TransformerBox>)
    /// A number written with a decimal comma (`1.234,5`): read by the boxed converter with `,` and `.`
    /// swapped, so one parser serves both ways of writing numbers. Held unretained, as a date format is.
    case decimalComma(Unmanaged<_ConverterBox>)

    /// The converter for `attribute`, or a reason it cannot be imported from text.
    static func make(for attribute: Attribute, format: DateFormat?, encoding: TextEncoding, decimalComma: Bool = false,
                     trueValues: [String]? = nil, falseValues: [String]? = nil,
                     keepAlive: inout [AnyObject]) -> Result<_FieldConverter, _PlanProblem> {
        if trueValues != nil || falseValues != nil {
            guard attribute.type == .boolean else {
                return .failure(.init("\"trueValues\" and \"falseValues\" apply to Boolean attributes only; \(attribute.name) is \(attribute.type.rawValue)"))
            }
            switch _BooleanWords.make(true: trueValues ?? [], false: falseValues ?? []) {
            case .failure(let problem):
                return .failure(.init("\(attribute.name): \(problem.message)"))
            case .success(let words):
                keepAlive.append(words)
                return .success(.booleanWords(Unmanaged.passUnretained(words)))
            }
        }
        let made = make(for: attribute, format: format, encoding: encoding, keepAlive: &keepAlive)
        switch (made, attribute.type) {
        case (.success(let converter), .integer16), (.success(let converter), .integer32), (.success(let converter), .integer64),
             (.success(let converter), .double), (.success(let converter), .float), (.success(let converter), .decimal):
            guard decimalComma else { return made }
            let box = _ConverterBox(converter)
            keepAlive.append(box)
            return .success(.decimalComma(Unmanaged.passUnretained(box)))
        default:
            return made
        }
    }

    /// The converter for `attribute` with numbers written with a decimal point.
    private static func make(for attribute: Attribute, format: DateFormat?, encoding: TextEncoding,
                             keepAlive: inout [AnyObject]) -> Result<_FieldConverter, _PlanProblem> {
        if format != nil && attribute.type != .date {
            return .failure(.init("a \"format\" applies to Date attributes only; \(attribute.name) is \(attribute.type.rawValue)"))
        }
        switch attribute.type {
        case .string: return .success(.string(encoding))
        case .integer16, .integer32, .integer64:
            let range = attribute.type.integerRange!
            return .success(.integer(min: range.lowerBound, max: range.upperBound, type: attribute.type))
        case .double: return .success(.double)
        case .float: return .success(.float)
        case .decimal: return .success(.decimal(encoding))
        case .boolean: return .success(.boolean)
        case .date:
            let box = _DateBox(format ?? .iso8601)
            keepAlive.append(box)
            return .success(.date(Unmanaged.passUnretained(box)))
        case .uuid: return .success(.uuid(encoding))
        case .uri: return .success(.uri(encoding))
        case .binary: return .success(.binary)
        case .transformable:
            // No transformer: the attribute holds data as it is, read as Base64 like Binary.
            guard let name = attribute.valueTransformerName else { return .success(.binary) }
            guard let transformer = ValueTransformers.transformer(named: name) else {
                return .failure(.init("\(attribute.name) is Transformable through '\(name)', which is not registered: call ValueTransformers.register(_:name:) before importing (the seedstore command knows only \(JSONValueTransformer.name)), or leave it out of the mapping (\"\(attribute.name)\": null)"))
            }
            let box = _TransformerBox(name: name, transformer: transformer)
            keepAlive.append(box)
            return .success(.transformable(encoding, Unmanaged.passUnretained(box)))
        }
    }

    /// Converts trimmed, non-null bytes; `nil` when they are not a value of the type (see ``explain(_:)``).
    @inline(__always)
    func convert(_ bytes: UnsafeBufferPointer<UInt8>) -> Value? {
        switch self {
        case .string(let encoding):
            // Strict: a byte the encoding does not define is a reject, never a replacement character. A NUL
            // byte is one too: SQLite's text functions and most readers end the text there.
            if let base = bytes.baseAddress, memchr(base, 0, bytes.count) != nil { return nil }
            guard let text = try? encoding.decode(bytes) else { return nil }
            return .string(text)
        case .integer(let min, let max, _):
            guard let value = _NumberParser.integer(bytes), value >= min, value <= max else { return nil }
            return .integer(value)
        case .double:
            guard let value = _NumberParser.double(bytes) else { return nil }
            return .double(value)
        case .float:
            // A number that is not 0 but rounds to a Float of 0 (`1e-50`) is refused, as beyond Float's range is.
            guard let double = _NumberParser.double(bytes), double == 0 || Float(double) != 0 else { return nil }
            let value = Value.double(double)
            guard value.fits(.float) else { return nil }
            return value.stored(as: .float)
        case .boolean:
            guard let value = _BooleanParser.parse(bytes) else { return nil }
            return .bool(value)
        case .booleanWords(let words):
            guard let value = _BooleanParser.parse(bytes) ?? words._withUnsafeGuaranteedRef({ $0.value(of: bytes) }) else { return nil }
            return .bool(value)
        case .date(let box):
            var failure: _DateFailure?
            guard let seconds = box._withUnsafeGuaranteedRef({ $0.format.parse(bytes, failure: &failure) }) else { return nil }
            return .date(Date(timeIntervalSinceReferenceDate: seconds))
        case .decimal:
            // The form as for a Double; the range by value, whatever the spelling (`1e128` and `1.0e128`
            // alike). Zero with any exponent (`0e999`) is zero.
            guard _NumberParser.double(bytes) != nil, let digits = _DecimalDigits(bytes), let decimal = digits.decimal(bytes),
                  Self.storesExactly(decimal, digits: digits.count) else { return nil }
            return .decimal(decimal)
        case .uuid(let encoding):
            guard let text = try? encoding.decode(bytes), let uuid = UUID(uuidString: text) else { return nil }
            return .uuid(uuid)
        case .uri(let encoding):
            // As written, when it is a URI reference as RFC 3986 spells one: text that is not (a space, `%zz`,
            // a letter outside ASCII) is a reject, never quietly percent-encoded into another URI.
            // Foundation takes `://x` (no scheme, nor a relative reference), so the scheme is checked first.
            guard Self.schemeFits(bytes), let text = try? encoding.decode(bytes),
                  let url = URL(string: text, encodingInvalidCharacters: false) else { return nil }
            return .uri(url)
        case .binary:
            // Hexadecimal with SQL Server's `0x` or PostgreSQL's `\x` prefix (their exports), else Base64.
            // Hexadecimal only when every character after the prefix is a hex digit: "0XkeoFRK" is Base64.
            // `0x` alone is empty data, as SQL Server writes it; a quoted empty value is a reject, as for
            // every other kind of value that is not text.
            if let data = Self.prefixedHex(bytes) { return .data(data) }
            guard !bytes.isEmpty, Self.isStrictBase64(bytes), let data = Data(base64Encoded: Data(bytes)) else { return nil }
            return .data(data)
        case .transformable(let encoding, let box):
            guard let data = try? box.takeUnretainedValue().transform(bytes, encoding) else { return nil }
            return .data(data)
        case .decimalComma(let box):
            return box._withUnsafeGuaranteedRef { box in Self.swappingMarks(bytes) { box.converter.convert($0) } }
        }
    }

    /// Calls `body` with `bytes` where `,` and `.` trade places (`1.234,5` becomes `1,234.5`), and the
    /// spaces French and Nordic exports group thousands with (a space, a no-break space U+00A0 in UTF-8
    /// or as the single byte of Windows-1252 and Latin-1, a narrow no-break space U+202F) become `,`:
    /// `1 234,5` becomes `1,234.5`. The parser then checks the groups are of three.
    private static func swappingMarks<Result>(_ bytes: UnsafeBufferPointer<UInt8>,
                                              _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bytes.count) { buffer in
            var i = 0, count = 0
            while i < bytes.count {
                let byte = bytes[i]
                var mark = byte
                switch byte {
                case UInt8(ascii: ","): mark = UInt8(ascii: ".")
                case UInt8(ascii: "."), UInt8(ascii: " "), 0xA0: mark = UInt8(ascii: ",")
                case 0xC2 where i + 1 < bytes.count && bytes[i + 1] == 0xA0:
                    mark = UInt8(ascii: ",")
                    i += 1
                case 0xE2 where i + 2 < bytes.count && bytes[i + 1] == 0x80 && bytes[i + 2] == 0xAF:
                    mark = UInt8(ascii: ",")
                    i += 2
                default: break
                }
                buffer[count] = mark
                count += 1
                i += 1
            }
            return body(UnsafeBufferPointer(rebasing: buffer[..<count]))
        }
    }

    /// Why `bytes` did not convert: the reason of a reject or an abort. A number that reads with a
    /// decimal comma (`1.234,5`) says how to read it so.
    func explain(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        let reason = plainReason(bytes)
        switch self {
        case .integer, .double, .float, .decimal:
            guard bytes.contains(UInt8(ascii: ",")) else { return reason }
            if Self.swappingMarks(bytes, { convert($0) }) != nil {
                return reason + "; it reads as a number with a decimal comma: if the file writes numbers so (1.234,5), pass --decimal-comma, or \"decimalComma\": true for the file in a mapping"
            }
            // `0,001` in an Integer column: a decimal comma too, whose fraction the column would refuse anyway.
            guard _NumberParser.isZeroLedGrouping(bytes), let value = Self.swappingMarks(bytes, _NumberParser.double) else { return reason }
            return reason + "; it reads as a number with a decimal comma, \(value), which has a fraction: an Integer attribute takes whole numbers "
                + "(if the file writes numbers so, pass --decimal-comma, or \"decimalComma\": true for the file in a mapping, and make the attribute Double or Decimal)"
        case .decimalComma(let box):
            // `0.500` with a decimal comma: likely a file that writes a decimal point after all.
            guard Self.swappingMarks(bytes, _NumberParser.isZeroLedGrouping), let value = _NumberParser.double(bytes) else { return reason }
            let inner = box.takeUnretainedValue().converter
            let advice = "leave out --decimal-comma, or set \"decimalComma\": false for the file in a mapping"
            if inner.convert(bytes) != nil {
                return reason + "; it reads as a number with a decimal point: if the file writes numbers so (1,234.5), \(advice)"
            }
            return reason + "; it reads as a number with a decimal point, \(value), which has a fraction: an Integer attribute takes whole numbers "
                + "(if the file writes numbers so, \(advice), and make the attribute Double or Decimal)"
        case .date:
            return reason + Self.dateWordHint(bytes)
        default:
            return reason
        }
    }

    /// What a database's stand-in for "no date" that no date pattern reads means, and how to import it:
    /// MySQL's zero date (`0000-00-00`, `0000-00-00 00:00:00`), PostgreSQL's `infinity`, `-infinity` and
    /// its `BC` years; empty for anything else.
    ///
    /// ```swift
    /// _FieldConverter.dateWordHint(bytes)   // for "0000-00-00 00:00:00": "; 0000-00-00 00:00:00 is MySQL's zero date, …"
    /// ```
    static func dateWordHint(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        // A null token for it: --null, unless the column lists its own (they win), and only as long as tokens may be.
        let token = bytes.count <= _NullTokens.maximumLength
            ? "make it a null token (--null '' --null '\(text)', or in a mapping the column's \"nullTokens\" when it lists its own)"
            : "map the column to a String attribute (it is too long for a null token, at most \(_NullTokens.maximumLength) bytes)"
        if text.hasPrefix("0000-00-00") && text.utf8.allSatisfy({ $0 == UInt8(ascii: "0") || !(0x31...0x39).contains($0) }) {
            return "; \(text) is MySQL's zero date, which stands for no date: \(token)"
        }
        if ["infinity", "-infinity", "+infinity"].contains(text.lowercased()) {
            return "; PostgreSQL's \(text) is later (or earlier) than any date a Date holds: \(token)"
                + (bytes.count <= _NullTokens.maximumLength ? ", or map the column to a String attribute" : "")
        }
        if text.hasSuffix(" BC") {
            return "; a year before 1 AD (PostgreSQL's BC) is not read: map the column to a String attribute to keep it as written"
        }
        return ""
    }

    /// Why `bytes` did not convert, as ``explain(_:)`` without its hint.
    private func plainReason(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        switch self {
        case .string(let encoding):
            if let zero = bytes.firstIndex(of: 0) {
                return "the text holds a NUL byte (0x00, byte \(zero + 1) of the value), where SQLite's text functions and most readers of the store end it; remove it, or make the attribute Binary to keep every byte"
            }
            do { _ = try encoding.decode(bytes) } catch { return "\(error.message) (\(error.hint))" }
            return "not text"
        case .integer(let min, let max, let type):
            if let value = _NumberParser.integer(bytes) {
                return "\(value) is outside \(type.rawValue)'s range \(min)...\(max)"
            }
            // Digits past 64 bits: for a smaller type, its range is what matters.
            if _NumberParser.isWholeNumberText(bytes) { return "the value is outside \(type.rawValue)'s range \(min)...\(max)" }
            return _NumberParser.explain(bytes, integer: true)
        case .float:
            let largest = Float.greatestFiniteMagnitude
            let tooSmall = "\(Self.written(bytes)) is too small for Float: it would be stored as 0 (the smallest is \(Float.leastNonzeroMagnitude)); "
                + "write 0 if zero is meant, or make the attribute Double"
            if let value = _NumberParser.double(bytes) {
                if value != 0 && Float(value) == 0 { return tooSmall }
                return "\(value) is outside Float's range \(-largest)...\(largest)"
            }
            if _NumberParser.overflowsDouble(bytes) { return "the value is outside Float's range \(-largest)...\(largest)" }
            if _NumberParser.underflowsDouble(bytes) { return tooSmall }
            return _NumberParser.explain(bytes, integer: false)
        case .decimal:
            if let value = _NumberParser.double(bytes), let digits = _DecimalDigits(bytes) {
                if digits.count > _DecimalDigits.maximumDigits || digits.decimal(bytes).map({ !Self.storesExactly($0, digits: digits.count) }) ?? false {
                    return "\(digits.count) significant digits are more than the store keeps for a Decimal that is not a whole "
                        + "number within 64 bits: SQLite holds it as a double, as in Core Data's stores (about 15 digits; \(value) here). "
                        + "Round the value, or map the column to a String attribute to keep every digit"
                }
                // As written: the Double read of `1e-400` is 0.0, which says nothing.
                return "\(Self.written(bytes)) is outside what Decimal holds: \(Self.decimalRange)"
            }
            if _NumberParser.overflowsDouble(bytes) || _NumberParser.underflowsDouble(bytes) {
                return "\(Self.written(bytes)) is outside what Decimal holds: \(Self.decimalRange)"
            }
            return _NumberParser.explain(bytes, integer: false)
        case .double:
            if _NumberParser.overflowsDouble(bytes) {
                return "the value is outside Double's range \(-Double.greatestFiniteMagnitude)...\(Double.greatestFiniteMagnitude)"
            }
            if _NumberParser.underflowsDouble(bytes) {
                return "\(Self.written(bytes)) is too small for Double: it would be stored as 0 (the smallest is \(Double.leastNonzeroMagnitude)); write 0 if zero is meant"
            }
            return _NumberParser.explain(bytes, integer: false)
        case .boolean:
            return "not a boolean (true/false, yes/no, y/n, t/f or 1/0, any case; other words need the column's \"trueValues\" and \"falseValues\" in a mapping, or --true-value and --false-value)"
        case .booleanWords(let words):
            return "not a boolean (true/false, yes/no, y/n, t/f or 1/0, any case, or \(words.takeUnretainedValue().description))"
        case .date(let box):
            return box.takeUnretainedValue().format.explain(bytes) ?? "not a date"
        case .uuid(let encoding):
            do { _ = try encoding.decode(bytes) } catch { return error.message }
            return "not a UUID (8-4-4-4-12 hexadecimal digits)"
        case .uri(let encoding):
            let text: String
            do { text = try encoding.decode(bytes) } catch { return error.message }
            return Self.uriProblem(text)
        case .binary:
            if bytes.isEmpty { return "an empty value is not data: write 0x for empty data" }
            return Self.isPrefixedHex(bytes) ? "neither Base64 nor hexadecimal (an even number of digits 0-9, a-f after 0x or \\x)" : "not Base64 (nor hexadecimal after 0x or \\x)"
        case .transformable(let encoding, let box):
            let box = box.takeUnretainedValue()
            do { _ = try box.transform(bytes, encoding) } catch { return error.message }
            return "not a value for \(box.name)"
        case .decimalComma(let box):
            let converter = box.takeUnretainedValue().converter
            var reason = Self.swappingMarks(bytes) { converter.plainReason($0) }
            // A reason that quotes the value quotes it with the marks swapped back, as the file writes it.
            let swapped = Self.swappingMarks(bytes, Self.written)
            if reason.hasPrefix(swapped + " ") { reason = Self.written(bytes) + reason.dropFirst(swapped.count) }
            // The reason was worded for `,` grouping thousands; the file writes `.` for that.
            if reason.hasPrefix(_NumberParser.zeroGroupReason) {
                return "not a number with a decimal comma ('.' is read only as a thousands separator after a first group of 1 to 3 digits that does not start with 0, "
                    + "',' as the decimal mark, as in 2.500,75: 0.500 is not five hundred)"
            }
            return reason.hasPrefix(_NumberParser.groupingReason)
                ? "not a number with a decimal comma ('.' is read only as a thousands separator between groups of three digits, ',' as the decimal mark, as in 2.500,75)"
                : reason
        }
    }
}

/// A date format in a box, so a converter can point at it without retaining it per copy.
final class _DateBox: Sendable {
    let format: DateFormat
    init(_ format: DateFormat) { self.format = format }
}

/// The words a Boolean column writes besides the built-in ones, folded to lower case (ASCII letters).
final class _BooleanWords: Sendable, CustomStringConvertible {
    let trueWords: [[UInt8]]
    let falseWords: [[UInt8]]

    /// The words, or why they cannot be read (empty, both true and false, or a built-in word for the
    /// other value).
    /// `names` are what messages call the two lists: the mapping's keys, or the options they came from.
    static func make(true trueValues: [String], false falseValues: [String],
                     names: (true: String, false: String) = ("trueValues", "falseValues")) -> Result<_BooleanWords, _PlanProblem> {
        let trueWords = trueValues.map(folded), falseWords = falseValues.map(folded)
        for (words, value, name) in [(trueWords, true, names.true), (falseWords, false, names.false)] {
            for word in words {
                let text = String(decoding: word, as: UTF8.self)
                if word.isEmpty {
                    let nulls = name.hasPrefix("--") ? "--null" : "nullTokens"
                    return .failure(.init("\(name) holds an empty word: an empty field is null (see \(nulls))"))
                }
                if let builtIn = word.withUnsafeBufferPointer(_BooleanParser.parse), builtIn != value {
                    return .failure(.init("\(name) holds \"\(text)\", which already reads as \(builtIn)"))
                }
                if value && falseWords.contains(word) {
                    return .failure(.init("\"\(text)\" is in both \(names.true) and \(names.false)"))
                }
            }
        }
        return .success(_BooleanWords(trueWords: trueWords, falseWords: falseWords))
    }

    private init(trueWords: [[UInt8]], falseWords: [[UInt8]]) {
        self.trueWords = trueWords
        self.falseWords = falseWords
    }

    /// A word's bytes with ASCII letters in lower case and without spaces or tabs around them, as values
    /// are compared (a Boolean field's spaces are never part of it, so ` ja ` must match `ja`).
    private static func folded(_ word: String) -> [UInt8] {
        word.trimmingCharacters(in: CharacterSet(charactersIn: " \t")).utf8.map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 | 0x20 : $0 }
    }

    /// The value `bytes` stands for, or nil when they are none of the words.
    func value(of bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
        func matches(_ word: [UInt8]) -> Bool {
            word.count == bytes.count && zip(word, bytes).allSatisfy { expected, byte in
                expected == (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte)
            }
        }
        if trueWords.contains(where: matches) { return true }
        if falseWords.contains(where: matches) { return false }
        return nil
    }

    /// The words as a reason lists them: `ja/nein`, or `ja or oui for true, nein for false`.
    var description: String {
        let yes = trueWords.map { String(decoding: $0, as: UTF8.self) }, no = falseWords.map { String(decoding: $0, as: UTF8.self) }
        if yes.count == 1 && no.count == 1 { return "\(yes[0])/\(no[0])" }
        var parts: [String] = []
        if !yes.isEmpty { parts.append(yes.joined(separator: " or ") + " for true") }
        if !no.isEmpty { parts.append(no.joined(separator: " or ") + " for false") }
        return parts.joined(separator: ", ")
    }
}

/// The converter a decimal-comma converter reads with, boxed so converters point at it without retaining it.
final class _ConverterBox: Sendable {
    let converter: _FieldConverter
    init(_ converter: _FieldConverter) { self.converter = converter }
}

/// A transformable attribute's transformer, boxed so converters point at it without retaining it.
final class _TransformerBox: Sendable {
    let name: String
    let transformer: any ValueTransformer
    init(name: String, transformer: any ValueTransformer) {
        self.name = name
        self.transformer = transformer
    }

    /// The cell as a JSON value (any: an array, an object, a string, a number, true/false), turned into
    /// data by the transformer.
    func transform(_ bytes: UnsafeBufferPointer<UInt8>, _ encoding: TextEncoding) throws(_PlanProblem) -> Data {
        let text: String
        do { text = try encoding.decode(bytes) } catch { throw _PlanProblem(error.message) }
        let value: Any
        do { value = try JSONSyntaxError.parse(Data(text.utf8), fragmentsAllowed: true) } catch {
            throw _PlanProblem("\(error) (a \(name) attribute reads a JSON value: [\"a\", \"b\"], {\"k\": 1}, \"text\", 42)")
        }
        do { return try transformer.transformedValue(value) } catch {
            throw _PlanProblem("\(name) cannot transform it: \(error)")
        }
    }
}

/// Booleans as people write them: true/false, yes/no, y/n, t/f, 1/0, in any case.
enum _BooleanParser {
    @inline(__always)
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
        guard let base = bytes.baseAddress else { return nil }
        switch bytes.count {
        case 1:
            if base[0] == UInt8(ascii: "1") { return true }
            if base[0] == UInt8(ascii: "0") { return false }
            switch base[0] | 0x20 {
            case UInt8(ascii: "y"), UInt8(ascii: "t"): return true
            case UInt8(ascii: "n"), UInt8(ascii: "f"): return false
            default: return nil
            }
        case 2:
            return base[0] | 0x20 == UInt8(ascii: "n") && base[1] | 0x20 == UInt8(ascii: "o") ? false : nil
        case 3:
            return base[0] | 0x20 == UInt8(ascii: "y") && base[1] | 0x20 == UInt8(ascii: "e") && base[2] | 0x20 == UInt8(ascii: "s") ? true : nil
        case 4:
            return matches(base, "true") ? true : nil
        case 5:
            return matches(base, "false") ? false : nil
        default:
            return nil
        }
    }

    @inline(__always)
    private static func matches(_ base: UnsafePointer<UInt8>, _ word: StaticString) -> Bool {
        let expected = word.utf8Start
        for i in 0..<word.utf8CodeUnitCount where base[i] | 0x20 != expected[i] { return false }
        return true
    }
}

/// A problem found while planning an import (before any row is read).
struct _PlanProblem: Error, Sendable {
    let message: String
    init(_ message: String) { self.message = message }
}

extension _FieldConverter {
    /// Whether `bytes` are canonical Base64: groups of four from `A-Z a-z 0-9 + /`, with `=` padding only
    /// at the end (one or two). Foundation's decoder also takes `ab=c` or `====`, which are not data.
    static func isStrictBase64(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count % 4 == 0 else { return false }
        var padding = 0
        for (i, byte) in bytes.enumerated() {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "/"):
                if padding > 0 { return false }
            case UInt8(ascii: "="):
                guard i >= bytes.count - 2 else { return false }
                padding += 1
            default:
                return false
            }
        }
        return padding < bytes.count || bytes.isEmpty
    }

    /// Why `text` is not a URI as RFC 3986 writes one: the first character it does not allow, with its
    /// escape, or, when every character is allowed, that the parts do not fit together.
    static func uriProblem(_ text: String) -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~:/?#[]@!$&'()*+,;=".unicodeScalars)
        let scalars = Array(text.unicodeScalars)
        for (i, scalar) in scalars.enumerated() {
            if scalar == "%" {
                let hex = Set("0123456789abcdefABCDEF".unicodeScalars)
                if i + 2 < scalars.count, hex.contains(scalars[i + 1]), hex.contains(scalars[i + 2]) { continue }
                return "not a URI as RFC 3986 writes one: a % that starts no escape (two hexadecimal digits): write it as %25"
            }
            guard !allowed.contains(scalar) else { continue }
            let escape = String(scalar).utf8.map { String(format: "%%%02X", $0) }.joined()
            let shown = scalar == " " ? "a space" : "'\(scalar)'"
            return "not a URI as RFC 3986 writes one: \(shown) is not allowed in a URI; percent-encode it (\(escape))"
        }
        let utf8 = Array(text.utf8)
        if !utf8.withUnsafeBufferPointer(schemeFits), let colon = utf8.firstIndex(of: UInt8(ascii: ":")) {
            let relative = "and a relative reference has no ':' before its first '/' (write ./ before such a path)"
            guard colon > 0 else { return "not a URI as RFC 3986 writes one: it starts with ':', so it has no scheme (http in http://x), \(relative)" }
            return "not a URI as RFC 3986 writes one: \"\(String(decoding: utf8[..<colon], as: UTF8.self))\" before the first ':' is not a scheme "
                + "(a letter, then letters, digits, '+', '-' or '.', as http in http://x), \(relative)"
        }
        return "not a URI as RFC 3986 writes one: its parts do not fit together (a second #, a port that is not a number, brackets around something other than an IP address)"
    }

    /// Whether a URI reference's text before its first `:`, when that comes before any `/`, `?` or `#`, is
    /// a scheme as RFC 3986 writes one (section 3.1: a letter, then letters, digits, `+`, `-` or `.`);
    /// `true` without such a `:` (a relative reference, section 4.2).
    ///
    /// ```swift
    /// schemeFits("http://x")   // true
    /// schemeFits("a/b:c")      // true: a relative path
    /// schemeFits("://x")       // false
    /// schemeFits("1http://x")  // false
    /// ```
    ///
    /// - Complexity: O(length of the scheme).
    static func schemeFits(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for (i, byte) in bytes.enumerated() {
            let letter = (byte | 0x20) &- UInt8(ascii: "a") < 26
            switch byte {
            case UInt8(ascii: ":"): return i > 0
            case UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"): return true
            case _ where letter: continue
            case _ where i > 0 && (byte &- UInt8(ascii: "0") < 10 || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")):
                continue
            default:
                // Not a scheme's character: fine for a relative path unless a ':' follows before a '/'.
                return !bytes[i...].prefix { $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "#") }.contains(UInt8(ascii: ":"))
            }
        }
        return true
    }

    /// A number's bytes as written, for a message that quotes it (numbers are ASCII in every encoding read).
    static func written(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self)
    }

    /// What a Decimal holds, for messages: Foundation's `Decimal` keeps at most 38 significant digits
    /// times a power of ten from 10^-128 to 10^127, judged by value (``_DecimalDigits``).
    static let decimalRange = "at most 38 significant digits times a power of ten from 10^-128 to 10^127, however the value is written "
        + "(1e127 and 1e-128 hold, as do 10e126 and 0.1e-127; 1e128, 1.0e128 and 1.5e-128 do not)"

    /// Whether the store keeps `decimal` as written (``Value/storesExactly(_:)``): only a value with more
    /// than 15 significant `digits` is checked.
    @inline(__always)
    static func storesExactly(_ decimal: Decimal, digits: Int) -> Bool {
        guard digits > 15 else { return true }
        return Value.storesExactly(decimal)
    }

    /// Whether `bytes` start like hexadecimal data: `0x`, `0X` or `\x`.
    static func isPrefixedHex(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.count >= 2 && (bytes[0] == UInt8(ascii: "0") || bytes[0] == UInt8(ascii: "\\")) && (bytes[1] | 0x20) == UInt8(ascii: "x")
    }

    /// The bytes of `0x…`/`\x…` hexadecimal text (an even number of digits, either case), or `nil`.
    static func prefixedHex(_ bytes: UnsafeBufferPointer<UInt8>) -> Data? {
        guard isPrefixedHex(bytes), bytes.count % 2 == 0 else { return nil }
        func digit(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        var data = Data(capacity: (bytes.count - 2) / 2)
        var i = 2
        while i < bytes.count {
            guard let high = digit(bytes[i]), let low = digit(bytes[i + 1]) else { return nil }
            data.append(high << 4 | low)
            i += 2
        }
        return data
    }
}
