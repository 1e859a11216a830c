#if canImport(Glibc)
import Glibc  // memchr
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Follows a record's raw bytes through non-strict libcsv's quoting (`csv_parse` in `libcsv.c`), and can
/// stop and go on later: the reader scans each line of a record as it ends, so a record of many lines costs
/// one pass in all.
///
/// A quote at a field's start (after spaces and tabs, when trimming) opens a quoted field; inside, a
/// doubled quote is data and a lone one closes it. After the closing quote only the delimiter, a line end
/// or (when trimming) spaces and tabs may come: any other byte is *stray*. libcsv takes a stray byte as
/// data and keeps the field quoted, so it reads on to the next quote of the input, past line ends; this
/// scan names the byte and, like libcsv, goes on with the field quoted. (One case differs after that
/// point: a quote after trimmed spaces is stray here, where libcsv keeps it as data of a field that may
/// still end; the first stray byte is where either reading goes wrong.)
///
/// For example:
///
/// ```swift
/// var scan = _QuoteScan()
/// scan.nextStray(in: raw, delimiter: 0x2C, quote: 0x22, trims: false)  // 6 for `1,"ab"cd`
/// ```
///
/// - Complexity: O(bytes scanned); quoted text is skipped with `memchr`.
struct _QuoteScan {
    enum State {
        /// Before a field's first byte (libcsv's `ROW_NOT_BEGUN` and `FIELD_NOT_BEGUN`).
        case fieldStart
        /// In a field that is not quoted.
        case unquoted
        /// In a quoted field, before its closing quote.
        case quoted
        /// Just after a quote in a quoted field (libcsv's `FIELD_MIGHT_HAVE_ENDED`).
        case afterQuote
    }

    /// The next raw byte to look at.
    private(set) var position = 0
    /// The 0-based field of the byte at ``position``.
    private(set) var field = 0
    private(set) var state = State.fieldStart
    /// While ``state`` is `quoted`: the index of the quote that opened the field.
    private(set) var openingQuote = 0
    /// In `afterQuote`: whether trimmed spaces or tabs followed the quote.
    private var spaced = false

    /// Reads on from ``position`` to the end of `raw`, or up to and including the first stray byte, whose
    /// index it returns; `nil` when it reached the end without one.
    ///
    /// - Complexity: O(bytes read).
    mutating func nextStray(in raw: UnsafeBufferPointer<UInt8>, delimiter: UInt8, quote: UInt8, trims: Bool) -> Int? {
        guard let base = raw.baseAddress else { return nil }
        let end = raw.count
        @inline(__always) func isSpace(_ byte: UInt8) -> Bool {
            trims && (byte == 0x20 || byte == 0x09) && byte != delimiter
        }
        // The state in locals while scanning, stored back once.
        var i = position, field = field, state = state, openingQuote = openingQuote, spaced = spaced
        defer {
            position = i
            self.field = field
            self.state = state
            self.openingQuote = openingQuote
            self.spaced = spaced
        }
        while i < end {
            switch state {
            case .fieldStart:
                let byte = base[i]
                i += 1
                if isSpace(byte) || byte == 0x0A || byte == 0x0D {
                    // Spaces before a field are trimmed; a line end here ends the row (and so the record).
                } else if byte == delimiter {
                    field += 1
                } else if byte == quote {
                    state = .quoted
                    openingQuote = i - 1
                } else {
                    state = .unquoted
                }
            case .unquoted:
                // On to the delimiter or a line end; quotes here are data.
                while i < end {
                    let byte = base[i]
                    i += 1
                    if byte == delimiter {
                        field += 1
                        state = .fieldStart
                        break
                    }
                    if byte == 0x0A || byte == 0x0D {
                        state = .fieldStart
                        break
                    }
                }
            case .quoted:
                guard let found = memchr(base + i, Int32(quote), end - i) else {
                    i = end
                    break
                }
                i = base.distance(to: found.assumingMemoryBound(to: UInt8.self)) + 1
                state = .afterQuote
                spaced = false
            case .afterQuote:
                let byte = base[i]
                i += 1
                if byte == delimiter {
                    field += 1
                    state = .fieldStart
                } else if byte == 0x0A || byte == 0x0D {
                    state = .fieldStart
                } else if isSpace(byte) {
                    spaced = true
                } else if byte == quote && !spaced {
                    state = .quoted  // a doubled quote: data
                } else {
                    state = .quoted  // libcsv keeps the field quoted
                    return i - 1
                }
            }
        }
        return nil
    }
}
