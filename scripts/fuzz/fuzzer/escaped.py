"""Escape-mode files: backslash-escaped exports (docs/mapping.md, the `escape` and `quote` rows).

A file the generator makes an escape-mode file has `"escape": "\\\\"` in its mapping entry (or every
file has it, from `--escape '\\'` or the mapping's defaults), a delimiter among tab, comma and pipe,
and sometimes `"quote": "none"`. Its case entry carries

    "escape": {"style": "pg" | "mysql", "delimiter": "\\t", "quote": "\\"" | None,
               "enclose": "none" | "strings" | "all", "words": ["", "NULL"],   # words: null tokens chosen
               "lines": "lf" | "crlf" (MySQL only), "breaks": bool}

and its rows are lists of *raw* fields: each the exact text between two delimiters, escapes and
enclosing quotes included (a blank line is None; PostgreSQL's end-of-data line `\\.` is the row
["\\\\."]). The header stays a list of names, written escaped as the rows are.

The generator first makes the file's rows as for any file ([text, quoted] fields), then
`escape_files` writes each field the way PostgreSQL's text-format COPY writes it (a backslash,
LF, CR, tab, backspace, form feed and vertical tab as `\\\\`, `\\n`, `\\r`, `\\t`, `\\b`, `\\f`, `\\v`, the
delimiter as a backslash and itself, null as `\\N`) or the way MySQL's SELECT … INTO OUTFILE does
(a backslash, the delimiter and the first byte of the line end, LF or CR, as a backslash and the
byte, the other of LF and CR as it is, NUL as `\\0`, 0x1A as `\\Z`, null as `\\N`; with a quote, values sometimes enclosed, a quote inside as `\\"` or `""`), with
tricky values mixed in (backslashes, `\\N` as text, a trailing backslash, control characters, null
words, empty strings, escaped ordinary letters, rows of empty fields, the header again, empty lines in
files of one column, records ending CR LF among LF ones, `\\.` lines in the middle or at the end).

The oracle does not trust the generator's intent: `records` reads the file's bytes by the rules of
docs/mapping.md (`escape`, `quote`; the escape parser since commit 6848b2e) into records with their
first lines, and hands each over in the [text, quoted] form the rest of the oracle reads: `\\N` as an
unquoted empty field (null: convert.py's tokens are the defaults, "" among them), a literal field
(enclosed in quotes or holding an escape) quoted, a plain field unquoted when the tokens the file
chose (none: only `\\N` is null) match it as the defaults would, else quoted. A record a quote leaves
malformed (open at its line end, text after the closing quote) is a reject (`Row.bad`). Which lines
are blank, where the data ends (`\\.`) and how lines end (from the first 64 KiB) are decided there too.
"""


ESCAPE = "\\"
DECODED = {"0": "\x00", "b": "\x08", "f": "\x0c", "n": "\n", "r": "\r", "t": "\t", "v": "\x0b", "Z": "\x1a"}
SPACES = " \t"
DEFAULT_WORDS = ("NULL", "NA")

# Values that escapes make tricky: written escaped, each must come back as it is (as text).
TRICKY = ["back\\slash", "\\N", "\\\\N", "ends\\", "\\", "C:\\path\\to\\", "tab\there", "line\nbreak",
          "cr\rinside", "crlf\r\nmid", "ends with cr\r", "NULL", "NA", "", "", "\\.", ".", "a|b", "a,b", "a\tb",
          '"quoted"', 'say "hi"', '"', "\\n is not a newline", "nul\x00byte", "bs\x08ff\x0cvt\x0bsub\x1a",
          "N", "\\x41", "  spaced  ", "\ttabbed\t", "x\\\ny"]

# Line breaks in text, which decide how a MySQL file's lines end (more of them in a few files).
BREAKS = ["line\nbreak", "cr\rinside", "crlf\r\nmid", "ends with cr\r", "x\\\ny"]


# ---------------------------------------------------------------------------------------------
# Reading (the oracle)


def is_escape_file(f):
    """Whether a case file is written with escapes."""
    return bool(f.get("escape"))


def record_text(f, row):
    """The raw text of one generated record (no line end): its raw fields joined by the delimiter."""
    if row is None:
        return ""
    return f["escape"]["delimiter"].join(row)


LINE_END_SAMPLE = 64 << 10


def line_ends(sample, escape=ESCAPE, has_header=True):
    """How the file's lines end, told from its first 64 KiB (docs/mapping.md, `escape`;
    `_EscapedParser.presetLineEnds`): "crlf" when an escaped CR is there and no escaped LF; "lf" when an
    escaped LF is there and no escaped CR; else "crlf" when there is no escaped CR and LFs after a CR
    (the CR itself not after the escape byte) end at least two lines and twice as many as bare LFs (the
    first line end not counted when the file has a header); else None (every LF ends a line, a CR before
    it is part of the line end, and the first escaped CR or LF met decides). `sample`: the bytes as a
    latin-1 string."""
    escaped_cr = escaped_lf = False
    after_cr = bare = 0
    first = True
    run = 0
    for i, c in enumerate(sample):
        was_escaped = run % 2 == 1
        if c == "\r" and was_escaped:
            escaped_cr = True
        if c == "\n":
            if was_escaped:
                escaped_lf = True
            else:
                crlf = i > 0 and sample[i - 1] == "\r" and not (i > 1 and sample[i - 2] == escape)
                if not (first and has_header):
                    if crlf:
                        after_cr += 1
                    else:
                        bare += 1
                first = False
        run = run + 1 if c == escape else 0
    if escaped_cr and not escaped_lf:
        return "crlf"
    if escaped_lf and not escaped_cr:
        return "lf"
    if not escaped_cr and after_cr >= 2 and after_cr >= 2 * bare:
        return "crlf"
    return None


class Record:
    """One record as the escape parser reads it: its first line, its fields [(kind, text)] (kind "plain",
    "literal" or "null"; text a latin-1 string of the bytes), and whether it is a blank line (no fields),
    the end-of-data marker, holds a quote still open at its line end, or text after a closing quote."""

    def __init__(self, line):
        self.line = line
        self.fields = []
        self.blank = False
        self.end = False
        self.unclosed = False
        self.stray = False


class _Parser:
    """The rules of docs/mapping.md (`escape`, `quote`), byte by byte, as an independent reading of them."""

    def __init__(self, delimiter, quote, trims, mode):
        self.d, self.q, self.trims, self.mode = delimiter, quote, trims, mode
        self.records = []
        self.at_record_start = True
        self.field, self.trailing = [], 0
        self.at_field_start = True
        self.in_quotes = self.after_quote = self.quoted = self.escaping = False
        self.had_escape = self.null_marker = self.pending_cr = False
        self.record = None
        self.raw = 0          # the record's raw bytes so far
        self.end_of_data = False
        self.header_line = True   # the first record is the header, whose bare LF ends it in CRLF mode too

    def append(self, c, space=False):
        self.field.append(c)
        self.trailing = self.trailing + 1 if space else 0

    def flush_null_marker(self):
        """`\\N` followed by more than a delimiter or line end: the N was only an escaped N (spaces held
        after it, in a file that trims, come after the N)."""
        if self.null_marker:
            self.null_marker = False
            held = len(self.field)
            self.field = ["N"] + self.field
            self.trailing = held

    def take_escaped(self, c):
        if c == "N" and not self.field and not self.had_escape and not self.quoted:
            self.had_escape = self.null_marker = True
            return
        self.had_escape = True
        self.append(DECODED.get(c, c))

    def take_stray(self):
        self.record.stray = True
        self.append(self.q)
        self.quoted = False

    def take_cr_as_data(self):
        self.flush_null_marker()
        if self.after_quote:
            self.after_quote = False
            self.take_stray()
        self.at_field_start = False
        self.append("\r")

    def end_field(self):
        self.after_quote = False
        text = self.field
        if self.trims and not self.quoted and self.trailing:
            text = text[:-self.trailing]
        if self.null_marker:
            kind = "null"
        elif self.quoted or self.had_escape:
            kind = "literal"
        else:
            kind = "plain"
        self.record.fields.append((kind, "".join(text)))
        self.field, self.trailing = [], 0
        self.quoted = self.had_escape = self.null_marker = False
        self.at_field_start = True

    def end_line(self, terminator):
        self.after_quote = False
        if self.in_quotes:
            self.record.unclosed = True
            self.in_quotes = False
        self.end_record(terminator)

    def end_record(self, terminator):
        r = self.record
        blank = not r.fields and self.at_field_start and not self.field and not self.null_marker and not self.had_escape
        end = not r.fields and self.field == ["."] and self.had_escape and not self.quoted \
            and self.raw - terminator == 2
        if blank or end:
            self.field, self.had_escape, self.at_field_start = [], False, True
            r.blank = True
            r.end = end
        else:
            self.end_field()
        self.records.append(r)
        self.at_record_start = True
        self.header_line = False
        if end:
            self.end_of_data = True

    def parse(self, text, first_line):
        """Parses `text` (latin-1 string of bytes) from a record start; `first_line` is its line number."""
        line = first_line
        for c in text:
            if self.end_of_data:
                return
            if self.at_record_start:
                self.at_record_start = False
                self.at_field_start = True
                self.record = Record(line)
                self.raw = 0
            self.raw += 1
            if c == "\n":
                line += 1          # every LF is a line, data or not
            if self.escaping:
                self.escaping = False
                if self.mode is None and c in "\r\n":   # an escaped CR or LF decides when nothing has
                    self.mode = "crlf" if c == "\r" else "lf"
                self.take_escaped(c)
                continue
            if self.pending_cr:
                self.pending_cr = False
                if c == "\n" and self.mode != "lf":
                    self.end_line(2)
                    continue
                self.take_cr_as_data()
            if c == "\n" and (self.mode != "crlf" or self.header_line):   # a header's bare LF ends it
                self.end_line(1)
                continue
            if c == "\r":
                self.pending_cr = True
                continue
            if self.after_quote:
                self.after_quote = False
                if c == self.q:            # a doubled quote
                    self.in_quotes = True
                    self.append(c)
                    continue
                if self.trims and c in SPACES and c != self.d:
                    self.after_quote = True
                    continue
                if c != self.d:
                    self.take_stray()
            if self.in_quotes:
                if c == ESCAPE:
                    self.escaping = True
                elif c == self.q:
                    self.in_quotes = False
                    self.after_quote = True
                else:
                    self.append(c)
                continue
            if c == self.d:
                self.end_field()
                continue
            if self.null_marker and self.trims and c in SPACES:
                self.append(c, space=True)
                continue
            self.flush_null_marker()
            if c == ESCAPE:
                self.escaping = True
                self.at_field_start = False
                continue
            if self.at_field_start:
                if self.trims and c in SPACES:
                    continue
                self.at_field_start = False
                if self.q and c == self.q:
                    self.quoted = self.in_quotes = True
                    continue
            self.append(c, space=c in SPACES)

    def finish(self):
        if self.at_record_start or self.end_of_data:
            return
        if self.escaping:
            self.escaping = False
            self.append(ESCAPE)
        self.pending_cr = False          # a final CR is a line end
        if self.in_quotes:
            self.record.unclosed = True
            self.in_quotes = False
        self.end_record(0)


class Row(list):
    """A record as the rest of the oracle reads rows ([text, quoted] per field); `bad` names why the
    record is a reject on its own (a quote open at its line end, text after a closing quote), or None."""
    bad = None


def records(f, trims, tokens):
    """The records of an escape-mode file after its header, read from the bytes it is written as:
    [(line, row)], row None for a blank record (skipped and counted), else a Row. The end-of-data marker
    is no record at all (neither read nor counted blank), and nothing after it is read."""
    from .csvfiles import file_bytes, preamble_bytes
    data, _ = file_bytes(f)
    text = data.decode("latin-1")
    esc = f["escape"]
    mode = line_ends(text[:LINE_END_SAMPLE])
    start = len(preamble_bytes(f))
    p = _Parser(esc["delimiter"], esc.get("quote"), trims, mode)
    p.parse(text[start:], 1 + len(f.get("preamble", [])))
    p.finish()
    header, rest = p.records[0], p.records[1:]
    columns = len(f["header"])
    codec = "cp1252" if f["encoding"] in ("windows-1252", "cp1252") else f["encoding"]
    out = []
    for r in rest:
        if r.end:
            continue
        if r.blank and columns != 1:
            out.append((r.line, None))
            continue
        fields = r.fields if not r.blank else [("plain", "")]
        row = Row(_view_field(kind, raw.encode("latin-1").decode(codec, errors="surrogateescape"), tokens)
                  for kind, raw in fields)
        if r.unclosed:
            row.bad = "a quote still open at its line end"
        elif r.stray:
            row.bad = "text after a closing quote"
        out.append((r.line, row))
    return out


def _view_field(kind, text, tokens):
    """One parsed field as [text, quoted] for convert.py, whose null tokens are the defaults ("", NULL,
    NA, matched on a String's bytes as kept and on other types' trimmed bytes): `\\N` is an unquoted
    empty field (null); a literal field (quoted or holding an escape) is quoted (text, never a token); a
    plain field is unquoted when the chosen tokens (`tokens`, None: none chosen, so nothing but `\\N` is
    null) match it as the defaults would, else quoted."""
    if kind == "null":
        return ["", False]
    if kind == "literal":
        return [text, True]
    chosen = tokens or []
    core = text.strip(SPACES)
    if core in DEFAULT_WORDS + ("",) and core not in chosen:
        return [text, True]
    return [text, False]


# ---------------------------------------------------------------------------------------------
# Writing (the generator)


def encode_text(rng, text, esc, in_quotes=False):
    """A value's text escaped as the file's exporter writes it."""
    pg = esc["style"] == "pg"
    crlf = esc.get("lines") == "crlf"       # MySQL's LINES TERMINATED BY '\r\n': the CR escaped, an LF as it is
    delimiter, quote = esc["delimiter"], esc.get("quote")
    out = []
    for c in text:
        if c == ESCAPE:
            out.append(ESCAPE + ESCAPE)
        elif c == "\n":
            if pg:
                out.append("\\n")
            elif crlf:
                out.append("\n")
            else:
                out.append("\n" if in_quotes and rng.random() < 0.3 else ESCAPE + "\n")
        elif c == "\r":
            out.append("\\r" if pg else ESCAPE + "\r" if crlf else "\r")
        elif c == "\t" and pg:
            out.append("\\t")
        elif c == delimiter:
            out.append(c if in_quotes and rng.random() < 0.3 else ESCAPE + c)
        elif quote and c == quote:
            out.append(rng.choice([ESCAPE + c, c + c]) if in_quotes else ESCAPE + c)
        elif c == "\x00":
            out.append("\\0")
        elif pg and c in "\x08\x0c\x0b":
            out.append({"\x08": "\\b", "\x0c": "\\f", "\x0b": "\\v"}[c])
        elif not pg and c == "\x1a":
            out.append("\\Z")
        else:
            out.append(c)
    return "".join(out)


def _escape_a_letter(rng, raw):
    """An ordinary letter or digit of an unquoted raw field escaped (`K1` as `\\K1`): itself, but the
    field is then literal text. Not one whose escape means a control byte, and not N (`\\N` is null)."""
    spots = [i for i, c in enumerate(raw) if c.isalnum() and c.isascii() and c not in "0bfnrtvZN"
             and (i == 0 or raw[i - 1] != ESCAPE)]
    spots = [i for i in spots if (len(raw[:i]) - len(raw[:i].rstrip(ESCAPE))) % 2 == 0]
    if not spots:
        return raw
    i = rng.choice(spots)
    return raw[:i] + ESCAPE + raw[i:]


def encode_header(name, esc):
    """A header name as the exporter writes it."""
    return encode_text(None, name, dict(esc, style="pg")) if name else name


def _column_types(model, mapping_file, header):
    """{column: type} of a file's columns (attributes, keys, relationship and join keys); unknown columns
    (an unnamed one) are text."""
    ents = {e["name"]: e for e in model["entities"]}

    def key_type(entity):
        return next(a["type"] for a in ents[entity]["attributes"] if a["name"] == "code") \
            if any(a["name"] == "code" for a in ents[entity]["attributes"]) else "String"

    types = {}
    if "join" in mapping_file:
        j = mapping_file["join"]
        dest = next(r["destination"] for r in ents[j["entity"]]["relationships"] if r["name"] == j["relationship"])
        types[j["sourceColumn"]] = key_type(j["entity"])
        types[j["destinationColumn"]] = key_type(dest)
    for t in mapping_file.get("targets", []):
        attrs = {a["name"]: a for a in ents[t["entity"]]["attributes"]}
        for attr, spec in t.get("columns", {}).items():
            column = spec["column"] if isinstance(spec, dict) else spec
            types.setdefault(column, attrs[attr]["type"] if attr in attrs else "String")
        for rel, spec in t.get("relationships", {}).items():
            dest = next(r["destination"] for r in ents[t["entity"]]["relationships"] if r["name"] == rel)
            types.setdefault(spec["column"], key_type(dest))
    return [types.get(c, "String") for c in header]


def _is_null_field(text, quoted):
    """Whether a generated field means null (an unquoted default null token, spaces aside)."""
    return not quoted and text.strip(SPACES) in ("",) + DEFAULT_WORDS


def _pad_spaces(text, esc):
    """Leading and trailing spaces and tabs of a text, as raw pads (tabs as spaces in a tab-delimited
    file, where a raw tab would split the field)."""
    core = text.strip(SPACES)
    if core == "":
        lead, trail = text, ""
    else:
        lead = text[:len(text) - len(text.lstrip(SPACES))]
        trail = text[len(text.rstrip(SPACES)):]
    if esc["delimiter"] == "\t":
        lead, trail = lead.replace("\t", " "), trail.replace("\t", " ")
    return lead, trail


def encode_row(rng, row, types, tricky, esc, tricky_rate, trims=False):
    """A generated row ([text, quoted] fields) as raw escape-mode fields. `types`: each column's type;
    `tricky`: whether a column may take a tricky value (text attributes, not keys)."""
    if all(not q and t.strip(SPACES) == "" for t, q in row):
        # A blank row stays blank (raw spaces); sometimes it becomes a row of nulls.
        if rng.random() < 0.8:
            return [_pad_spaces(t, esc)[0] for t, q in row]
        return ["\\N"] * len(row)
    types = types + ["String"] * (len(row) - len(types))     # a ragged row's extra fields
    tricky = tricky + [False] * (len(row) - len(tricky))
    out = []
    for (text, quoted), type_, may in zip(row, types, tricky):
        quoted = bool(quoted)
        if may and rng.random() < tricky_rate:
            text, quoted = rng.choice(BREAKS if esc.get("breaks") and rng.random() < 0.5 else TRICKY), True
        word = text.strip(SPACES)
        if _is_null_field(text, quoted):
            r = rng.random()
            lead, trail = _pad_spaces(text, esc)
            if r < 0.5:
                out.append("\\N")
            elif r < 0.65:
                out.append(lead + "\\N" + trail)
            elif r < 0.8:
                # Spaces around `\N` (a fixed-width export's padding): null when the file trims.
                side = rng.choice(["left", "right", "both"])
                pad = lambda: rng.choice([" ", "  ", "\t", " \t"]).replace("\t", " " if esc["delimiter"] == "\t" else "\t")
                left, right = (pad() if side != "right" else ""), (pad() if side != "left" else "")
                out.append(left + "\\N" + right)
            elif word in DEFAULT_WORDS or r < 0.9:
                out.append(lead + word + trail)   # a word (text unless tokens are chosen), or empty (an empty string)
            else:
                out.append("\\N")
            continue
        enclose = esc.get("quote") and (esc["enclose"] == "all" or (esc["enclose"] == "strings" and type_ == "String"))
        if quoted and word in esc.get("words", []) and (word or esc.get("quote")):
            # Text that is a chosen null token: enclosed, or with an escaped letter (`\\NULL`), it stays text.
            if esc.get("quote") and not esc.get("never_enclose"):
                enclose = True
            else:
                lead, trail = _pad_spaces(text, esc)
                out.append(lead + ESCAPE + word + trail)
                continue
        if enclose:
            q = esc["quote"]
            out.append(q + encode_text(rng, text, esc, in_quotes=True) + q)
            continue
        raw = encode_text(rng, text, esc)
        if raw != ESCAPE + "N" and raw.strip(SPACES) != "" and rng.random() < 0.04:
            raw = _escape_a_letter(rng, raw)
        out.append(raw)
    # A raw CR at the end of the record is read as part of a CRLF line end (MySQL writes a CR as it is):
    # the oracle knows it (view), so it is left there.
    return out


def choose(rng, mapping_file, sets_escape):
    """The escape settings of one file; writes them into its mapping entry (the escape itself only when
    `sets_escape`: else the command line or the mapping's defaults set it)."""
    style = rng.choice(["pg", "mysql"])
    delimiter = rng.choice(["\t", "\t", ",", "|"]) if style == "pg" else rng.choice(["\t", ",", ",", "|"])
    none = rng.random() < (0.8 if style == "pg" else 0.25)
    esc = {"style": style, "delimiter": delimiter, "quote": None if none else '"',
           "enclose": "none" if none or style == "pg" else rng.choice(["none", "strings", "strings", "all"]),
           "words": []}
    if sets_escape:
        mapping_file["escape"] = ESCAPE
    mapping_file["delimiter"] = delimiter
    if none:
        mapping_file["quote"] = "none"
    if rng.random() < 0.25:
        tokens = rng.choice([["NULL", "NA"], ["", "NULL", "NA"], ["NULL"], ["", "NA"]])
        mapping_file["nullTokens"] = tokens
        esc["words"] = list(tokens)
    return esc


def _tricky_columns(model, mapping_file, header):
    """Whether each column maps a String attribute other than a key (`code`)."""
    ents = {e["name"]: e for e in model["entities"]}
    ok = set()
    for t in mapping_file.get("targets", []):
        attrs = {a["name"]: a for a in ents[t["entity"]]["attributes"]}
        for attr, spec in t.get("columns", {}).items():
            column = spec["column"] if isinstance(spec, dict) else spec
            if attr != "code" and attr in attrs and attrs[attr]["type"] == "String":
                ok.add(column)
    keys = {spec["column"] if isinstance(spec, dict) else spec
            for t in mapping_file.get("targets", []) for a, spec in t.get("columns", {}).items() if a == "code"}
    return [c in ok and c not in keys for c in header]


def _trims(mapping, f, options):
    """Whether a file trims (as oracle.Plan.trims, which this module cannot import)."""
    if options.get("trim_flag") is not None:
        return bool(options["trim_flag"])
    if "trim" in f:
        return bool(f["trim"])
    return bool(mapping.get("defaults", {}).get("trim", False))


def escape_files(rng, case):
    """Makes some files of a generated case escape-mode files (rewriting their rows as raw fields):
    each file with probability 0.2, or, in one case in sixteen, every file, with `--escape '\\'`, the
    mapping's defaults or each file's entry saying so (and, with the flag, half the time `--quote
    none`). Draws only from `rng`, so the other files stay what they were."""
    mapping, files, options = case["mapping"], case["files"], case["options"]
    every = rng.random() < 1 / 16
    where, quote_flag = "files", False
    if every:
        where = rng.choice(["flag", "defaults", "files"])
        if where == "flag":
            options["escape_flag"] = ESCAPE
            quote_flag = rng.random() < 0.5
            if quote_flag:
                options["quote_flag"] = "none"
        elif where == "defaults":
            mapping.setdefault("defaults", {})["escape"] = ESCAPE
        chosen = list(zip(mapping["files"], files))
    else:
        chosen = [(fm, f) for fm, f in zip(mapping["files"], files) if rng.random() < 0.2]
    if not every:
        # Files of one column (a Tag or Badge of only a key), where an empty line is a row, more often.
        chosen += [(fm, f) for fm, f in zip(mapping["files"], files)
                   if len(f["header"]) == 1 and (fm, f) not in chosen and rng.random() < 0.4]
    for fm, f in chosen:
        esc = choose(rng, fm, sets_escape=where == "files")
        if quote_flag:
            esc.update(quote=None, enclose="none")
            fm.pop("quote", None)
        # How lines end: MySQL's LINES TERMINATED BY '\r\n' (its CR in text escaped, an LF as it is) in
        # three MySQL files in ten, else LF lines for MySQL (an LF in text escaped); PostgreSQL's files
        # keep the case's line end. One file in ten ends some records with CR LF and others with LF.
        if esc["style"] == "mysql":
            esc["lines"] = "crlf" if rng.random() < 0.3 else "lf"
            f["crlf"] = esc["lines"] == "crlf"
        esc["breaks"] = esc["style"] == "mysql" and rng.random() < 0.4
        mixed = rng.random() < 0.1
        trims = _trims(mapping, fm, options)
        types = _column_types(case["model"], fm, f["header"])
        tricky = _tricky_columns(case["model"], fm, f["header"])
        tricky_rate = rng.choice([0.05, 0.15, 0.3])
        width = len(f["header"])
        one_column_gaps = width == 1 and rng.random() < 0.6
        rows = []
        for row in f["rows"]:
            raw = None if row is None else encode_row(rng, row, types, tricky, esc, tricky_rate, trims)
            if mixed and raw and not f.get("crlf") and rng.random() < 0.4:
                raw = raw[:-1] + [raw[-1] + "\r"]     # this record ends CR LF, the others LF
            rows.append(raw)
            r = rng.random()
            if r < 0.03:
                # A row of only empty fields, spaces or `\N`: a row (empty strings, spaces, nulls), not blank.
                rows.append(rng.choice([[""] * width, [" "] * width, ["\\N"] * width, (["", " "] * width)[:width]]))
            elif one_column_gaps and r < 0.15:
                rows.append(None)                    # an empty line: in a file of one column, a row
            elif 0.155 <= r < 0.16:
                # The header again: a row like any other in an escape-mode file.
                rows.append([encode_header(name, esc) for name in f["header"]])
        if esc["breaks"] and not any(tricky):
            # No text column to hold a line break: a ragged row (a reject) holds one, which tells the
            # file's line ends for every other row.
            spots = [i for i, r in enumerate(rows) if r]
            for i in rng.sample(spots, min(len(spots), rng.randint(1, 2))):
                rows[i] = rows[i] + [encode_text(rng, rng.choice(BREAKS), esc)]
        if rng.random() < 0.1 and rows:
            # PostgreSQL's end of data in the middle: the lines after it are not read.
            rows.insert(rng.randint(0, len(rows)), ["\\."])
        if rng.random() < 0.3:
            rows.append(["\\."])
            if rng.random() < 0.3:
                rows.append(["after", "the", "end"][:max(1, width)])
        f["rows"] = rows
        f["escape"] = esc
    return bool(chosen)
