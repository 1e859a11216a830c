"""The value oracle: what a CSV field becomes, per docs/mapping.md ("Converting values").

`convert(attr, text, quoted, fmt, trims=...)` returns the value the store must hold (Python int,
float, Decimal, bytes, str, None for null), or raises `Bad` (the row must be a reject) or `Unsure`
(the oracle does not know: the text is outside the forms the generator writes). `trims` is the
file's `trim` (off by default): it decides whether an unquoted String keeps its spaces and tabs
(`field_text`, `is_null`).

Store representation (README, "The store's file layout"): dates as seconds since 2001-01-01 UTC,
booleans 0/1, Float rounded to 32 bits, Decimal as text with numeric affinity (about 15 digits).
"""

import base64
import binascii
import datetime
import decimal
import re
import struct

NULL_TOKENS = ("", "NULL", "NA")
EPOCH_2001 = datetime.datetime(2001, 1, 1, tzinfo=datetime.timezone.utc)
INT_RANGES = {"Integer 16": 2 ** 15, "Integer 32": 2 ** 31, "Integer 64": 2 ** 63}
INT_RE = re.compile(r"^[+-]?(\d{1,3}(,\d{3})+|\d+)(\.0+)?$")
REAL_RE = re.compile(r"^[+-]?(\d{1,3}(,\d{3})+|\d+)(\.\d+)?([eE][+-]?\d+)?$")
ISO_DATE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})$")
ISO_TIME = re.compile(r"^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-]\d{2}:\d{2})?$")
MDY = re.compile(r"^(\d{1,2})/(\d{1,2})/(\d{4})$")
EPOCH = re.compile(r"^[+-]?\d+(\.\d+)?$")


class Bad(Exception):
    """The field makes its row a reject."""


class Unsure(Exception):
    """The oracle cannot tell what the field becomes."""


def trim(text):
    """Spaces and tabs around a value dropped."""
    return text.strip(" \t")


def field_text(type_, text, quoted, trims=False):
    """The text an attribute (or key) of type `type_` reads from a field (docs/mapping.md, `trim`).

    A String keeps the field's bytes as written: quoted, the text inside the quotes, never trimmed;
    unquoted, every byte, spaces and tabs included, unless the file trims (`"trim": true`,
    `--trim`), when libcsv drops the spaces and tabs around it. Any other type (numbers, dates,
    Booleans, UUID, URI, Binary, Transformable) reads its value with spaces and tabs around it dropped,
    whatever `trim` says and quoted or not.
    """
    if type_ != "String":
        return trim(text)
    if quoted or not trims:
        return text
    return trim(text)


def is_null(text, quoted, type_="String", trims=False, tokens=NULL_TOKENS):
    """An unquoted value equal to a null token is null; a quoted one never is. A String field is
    matched on its bytes as kept (so with `trim` false, ` NA` and a lone space are text, not the
    tokens `NA` and `""`); any other type on its trimmed bytes (` NA` and `  ` are null)."""
    return not quoted and field_text(type_, text, quoted, trims) in tokens


def _seconds(dt):
    """Seconds from 2001-01-01 UTC to an aware datetime, as a float."""
    return (dt - EPOCH_2001).total_seconds()


def _date(y, m, d, hh=0, mm=0, ss=0, frac=0.0, tz=datetime.timezone.utc):
    """A checked calendar date (Bad when the day or month does not exist)."""
    try:
        dt = datetime.datetime(y, m, d, hh, mm, ss, tzinfo=tz)
    except ValueError as error:
        raise Bad("no such date: %s" % error)
    return _seconds(dt) + frac


def parse_date(text, fmt):
    """A Date field in format `fmt` (None: ISO 8601) as seconds since 2001."""
    if fmt is None or fmt == "iso8601":
        m = ISO_DATE.match(text)
        if m:
            return _date(int(m[1]), int(m[2]), int(m[3]))
        m = ISO_TIME.match(text)
        if m:
            tz = datetime.timezone.utc
            if m[8] and m[8] != "Z":
                sign = 1 if m[8][0] == "+" else -1
                tz = datetime.timezone(sign * datetime.timedelta(hours=int(m[8][1:3]), minutes=int(m[8][4:6])))
            frac = float(m[7]) if m[7] else 0.0
            return _date(int(m[1]), int(m[2]), int(m[3]), int(m[4]), int(m[5]), int(m[6]), frac, tz)
        if re.match(r"^[a-z]+$", text) or re.match(r"^\d+/\d+/\d+$", text):
            raise Bad("not a date")
        raise Unsure("date %r" % text)
    if fmt == "yyyy-MM-dd":
        m = ISO_DATE.match(text)
        if m:
            return _date(int(m[1]), int(m[2]), int(m[3]))
        if re.match(r"^[a-z]+$", text):
            raise Bad("not a date")
        raise Unsure("date %r" % text)
    if fmt == "M/d/yyyy":
        m = MDY.match(text)
        if m:
            return _date(int(m[3]), int(m[1]), int(m[2]))
        if re.match(r"^[a-z]+/", text):
            raise Bad("not a date")
        raise Unsure("date %r" % text)
    if fmt == "epoch":
        if EPOCH.match(text):
            return float(text) - 978307200.0
        if re.match(r"^[a-z]+$", text) or text.count(".") > 1:
            raise Bad("not a number")
        raise Unsure("epoch %r" % text)
    raise Unsure("format %r" % fmt)


def _binary(text):
    """Base64 (canonical) or hexadecimal after 0x or \\x."""
    if text[:2] in ("0x", "0X", "\\x"):
        digits = text[2:]
        if re.match(r"^[0-9a-fA-F]*$", digits):
            if len(digits) % 2:
                raise Bad("odd number of hex digits")
            return bytes.fromhex(digits)
        if text[:2] == "\\x":
            raise Bad("not hexadecimal")
    try:
        data = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise Bad("not Base64")
    if base64.b64encode(data).decode() != text:
        raise Unsure("non-canonical Base64 %r" % text)
    return data


def convert(attr, text, quoted, fmt=None, decimal_comma=False, trims=False):
    """The stored value of one field for attribute `attr` (a model attribute dict); `trims`: whether
    the field's file trims (the mapping's `trim`, `--trim`; off by default).

    Null handling (a null in an attribute with a default takes the default; a null in a required
    attribute without one is Bad) is done here too, so the result is what the column holds.
    """
    type_ = attr["type"]
    if is_null(text, quoted, type_, trims):
        if "default" in attr:
            return default_value(attr)
        if not attr.get("optional", True):
            raise Bad("null in a required attribute")
        return None
    value = field_text(type_, text, quoted, trims)
    if type_ == "String":
        if "\x00" in value:
            raise Bad("a NUL byte in text (README: a reject)")   # only escape-mode files write one (`\0`)
        return value
    if decimal_comma and (type_ in INT_RANGES or type_ in ("Double", "Float", "Decimal")):
        # The file writes `1.234,5` or `1 234,5`; the docs read it as `1,234.5` (docs/mapping.md,
        # "decimalComma"): after trimming, `,` and `.` trade places and spaces that group become `,`.
        value = value.translate(str.maketrans({",": ".", ".": ",", " ": ",", "\u00a0": ",", "\u202f": ","}))
    if value == "":
        raise Bad("quoted empty value in a %s attribute" % type_)
    if type_ in INT_RANGES:
        if not INT_RE.match(value):
            raise Bad("not an integer")
        number = int(value.replace(",", "").split(".")[0])
        limit = INT_RANGES[type_]
        if not -limit <= number < limit:
            raise Bad("out of range")
        return number
    if type_ in ("Double", "Float", "Decimal"):
        if not REAL_RE.match(value):
            raise Bad("not a number")
        plain = value.replace(",", "")
        if type_ == "Decimal":
            # docs/mapping.md: Foundation's Decimal holds at most 38 significant digits times 10^-128...10^127;
            # the store keeps a whole number within 64 bits exactly and anything else as a double, so a value
            # whose double reads back as another number is a reject.
            d = decimal.Decimal(plain)
            if d == 0:
                return d
            digits = d.normalize().as_tuple()
            if len(digits.digits) > 38:
                raise Unsure("more than 38 significant digits %r" % plain)
            if not -128 <= digits.exponent <= 127:
                raise Bad("out of Decimal's range")
            if d == d.to_integral_value() and -2 ** 63 <= d < 2 ** 63:
                return d
            if decimal.Decimal(repr(float(d))) != d:
                raise Bad("more digits than the store keeps")
            return d
        number = float(plain)
        # docs/mapping.md: a number whose digits are not all zero but that would be stored as 0
        # (`1e-400` in a Double, `1e-50` in a Float) is a reject as too small.
        nonzero = decimal.Decimal(plain) != 0
        if nonzero and number == 0:
            raise Bad("too small for %s" % type_)
        if type_ == "Float":
            try:
                stored = struct.unpack("<f", struct.pack("<f", number))[0]
            except OverflowError:
                raise Bad("beyond Float's range")
            if nonzero and stored == 0:
                raise Bad("too small for Float")
            return stored
        return number
    if type_ == "Boolean":
        lower = value.lower()
        if lower in ("true", "yes", "y", "t", "1"):
            return 1
        if lower in ("false", "no", "n", "f", "0"):
            return 0
        # The column's own words (docs/mapping.md: any ASCII case, other letters as written).
        def ascii_lower(text):
            return "".join(c.lower() if "A" <= c <= "Z" else c for c in text)
        if isinstance(fmt, dict):
            if ascii_lower(value) in [ascii_lower(w) for w in fmt["true"]]:
                return 1
            if ascii_lower(value) in [ascii_lower(w) for w in fmt["false"]]:
                return 0
        raise Bad("not a boolean")
    if type_ == "Date":
        return parse_date(value, fmt)
    if type_ == "Binary":
        return _binary(value)
    raise Unsure("type %s" % type_)


def default_value(attr):
    """The stored form of an attribute's model default (None without one)."""
    if "default" not in attr:
        return None
    d = attr["default"]
    if attr["type"] == "Boolean":
        return 1 if d else 0
    if attr["type"] == "Float":
        return struct.unpack("<f", struct.pack("<f", float(d)))[0]
    if attr["type"] in ("Double",):
        return float(d)
    return d


def key_value(attr, text, quoted, trims=False):
    """A key or relationship-key field, converted by the key attribute's type; None when null."""
    if is_null(text, quoted, attr["type"], trims):
        return None
    return convert({"type": attr["type"]}, text, quoted, trims=trims)


def same_value(type_, expected, actual):
    """Whether a stored value matches the oracle's, per type (reals and dates with tolerance)."""
    if expected is None or actual is None:
        return expected is None and actual is None
    if type_ == "Decimal":
        try:
            a = decimal.Decimal(str(actual)) if not isinstance(actual, float) else actual
        except decimal.InvalidOperation:
            return False
        e = float(expected)
        a = float(a)
        return abs(e - a) <= 1e-14 * max(1.0, abs(e))
    if type_ == "Date":
        return isinstance(actual, (int, float)) and abs(float(expected) - float(actual)) <= 1e-6
    if type_ in ("Double", "Float"):
        return isinstance(actual, (int, float)) and float(expected) == float(actual)
    if type_ == "Binary":
        return bytes(actual) == expected
    return expected == actual
