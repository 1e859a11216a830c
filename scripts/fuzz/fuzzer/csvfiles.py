"""Writing a case to disk: model.json, mapping.json and the CSV files as bytes.

The CSV writer is ours (not the `csv` module) so that quoting, CRLF, encodings and raw bytes are
exactly what the case says; it also reports the line each record starts on, which is how the
importer's rejects file names rows.
"""

import json
import os

from . import escaped


PADDED_QUOTES = {"lpad": (" ", ""), "rpad": ("", " "), "pad": ("\t ", " ")}


def encode_field(text, quoted):
    """One field's text as it appears in the file (before encoding). `quoted` is False, True, or one
    of PADDED_QUOTES: quoted with spaces or tabs outside the quotes (` "Ann"`, `"Ann" `, `\t "Ann" `)."""
    if not quoted:
        return text
    before, after = PADDED_QUOTES.get(quoted, ("", "")) if isinstance(quoted, str) else ("", "")
    return before + '"' + text.replace('"', '""') + '"' + after


def record_text(row, f=None):
    """A row (list of [text, quoted], or None for a blank line) as one record's text, no line end; a
    row of an escape-mode file `f` is its raw fields joined by its delimiter (escaped.py)."""
    if f is not None and escaped.is_escape_file(f):
        return escaped.record_text(f, row)
    if row is None:
        return ""
    return ",".join(encode_field(t, q) for t, q in row)


def header_text(f):
    """The header line of a file, no line end."""
    if escaped.is_escape_file(f):
        esc = f["escape"]
        return esc["delimiter"].join(escaped.encode_header(name, esc) for name in f["header"])
    return ",".join(f["header"])


def preamble_bytes(f):
    """The bytes of the lines above the header (the mapping's "skipLines")."""
    eol = "\r\n" if f.get("crlf") else "\n"
    encoding = "cp1252" if f["encoding"] in ("windows-1252", "cp1252") else f["encoding"]
    return "".join(text + eol for text in f.get("preamble", [])).encode(encoding, errors="surrogateescape")


def file_bytes(f):
    """The bytes of one CSV file and, per row, the line it starts on (1-based; the header is the line
    after the preamble's, 1 without one)."""
    eol = "\r\n" if f.get("crlf") else "\n"
    encoding = "cp1252" if f["encoding"] in ("windows-1252", "cp1252") else f["encoding"]
    # Lines above the header that are not CSV (the mapping's "skipLines"), written as they are.
    preamble = f.get("preamble", [])
    parts = [text + eol for text in preamble] + [header_text(f) + eol]
    line = 2 + len(preamble)
    starts = []
    for row in f["rows"]:
        starts.append(line)
        text = record_text(row, f)
        line += text.count("\n") + 1
        parts.append(text + eol)
    data = "".join(parts).encode(encoding, errors="surrogateescape")
    return data, starts


def record_bytes(f, row):
    """The bytes of one record in the file's encoding (to check which rows have undefined bytes)."""
    encoding = "cp1252" if f["encoding"] in ("windows-1252", "cp1252") else f["encoding"]
    return record_text(row, f).encode(encoding, errors="surrogateescape")


def write_case(case, directory):
    """Writes model.json, mapping.json and every CSV file of `case` into `directory`.

    Returns {path: [start line of each row]}.
    """
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, "model.json"), "w") as out:
        json.dump(case["model"], out, indent=1)
    with open(os.path.join(directory, "mapping.json"), "w") as out:
        json.dump(case["mapping"], out, indent=1)
    lines = {}
    for f in case["files"]:
        data, starts = file_bytes(f)
        with open(os.path.join(directory, f["path"]), "wb") as out:
            out.write(data)
        lines[f["path"]] = starts
    return lines
