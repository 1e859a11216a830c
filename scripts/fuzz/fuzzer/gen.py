"""Generation: one seed → one case (model, mapping, CSV rows, command-line options).

A case is plain JSON-serializable data, so the minimizer can edit it and a reproduction can be
written back to disk:

    {"seed": 7,
     "model": {...},                 # the model JSON
     "mapping": {...},               # the mapping JSON ("model": "model.json")
     "files": [{"path": "depts.csv", "encoding": "utf-8", "crlf": false,
                "header": ["code", ...],
                "rows": [[["K1", false], ["a,b", true], ...],   # fields as [text, quoted]
                         null,                                 # a blank line
                         ...]}],
     "options": {"on_error": "skip", "batch_size": 1, "key_memory": 1, "read_ahead": null,
                 "rejects": true, "encoding_flag": null, "previous_store": false}}

Field texts are Python strings; a lone surrogate "\\udcXX" stands for the raw byte XX (written with
`surrogateescape`), which is how bytes undefined in the file's encoding get into a file.

The shape of every model is a variation on one scheme, chosen so that the documented features meet:

    Dept      keyed by code; optional self relationship mgr/reports (forward keys)
    DeptInfo  one-to-one with Dept (host/info), filled from the Dept row by "link"; keyless
              (found through the link), keyed by the same column, or keyed by a column of its own
    Emp       keyed; to-one dept → Dept (to-many emps); optional mgr/reports; optional one-to-one
              badge → Badge from a column
    Badge     keyed, from its own earlier file (only with Emp)
    Tag       keyed; many-to-many Dept.tags / Tag.depts from a join file
"""

import random

from . import escaped

TYPES = ["String", "Integer 32", "Integer 64", "Double", "Float", "Decimal", "Boolean", "Date", "Binary"]
ATTR_NAMES = {
    "String": ["note", "title", "label"], "Integer 32": ["qty", "rank"], "Integer 64": ["big", "serial"],
    "Double": ["ratio", "lat"], "Float": ["weight", "temp"], "Decimal": ["price", "cost"],
    "Boolean": ["active", "open"], "Date": ["opened", "since"], "Binary": ["blob", "photo"],
}
DELETE_RULES = ["Nullify", "Nullify", "Cascade", "Cascade", "No Action", "Deny"]
DATE_FORMATS = [None, None, "yyyy-MM-dd", "M/d/yyyy", "epoch"]

# Text pools. CP1252_TEXT only holds characters windows-1252 can encode.
PLAIN_TEXT = ["alpha", "Bravo", "charlie delta", "00123", "0498161", "x", "Zulu-9", "mixed Case", "tab\tinside"]
CP1252_TEXT = ["café", "naïve", "€uro", "“quoted”", "Straße", "façade", "ÆØÅ", "–dash"]
UTF8_ONLY_TEXT = ["日本語", "emoji 🙂", "Ωmega", "ąę"]
NEEDS_QUOTES = ['a,b', 'say "hi"', 'two\nlines', ',lead', 'trail,']
NULLISH = ["NULL", "NA"]
UNDEFINED_CP1252 = ["\udc81", "\udc8d", "\udc8f", "\udc90", "\udc9d"]
INVALID_UTF8 = ["\udce9", "\udcff", "\udcc3"]


def _attribute(rng, name, type_):
    """One attribute definition: random optionality and, for simple types, a default."""
    attr = {"name": name, "type": type_, "optional": rng.random() < 0.7}
    if rng.random() < 0.3:
        default = {"String": "dflt", "Integer 32": 5, "Integer 64": 7, "Double": 1.5,
                   "Boolean": True}.get(type_)
        if default is not None:
            attr["default"] = default
    return attr


def _entity(rng, name, n_attrs, key_type="String"):
    """An entity with a required key attribute `code` and n_attrs other attributes of random types."""
    attrs = [{"name": "code", "type": key_type, "optional": False}]
    used = {"code"}
    for _ in range(n_attrs):
        type_ = rng.choice(TYPES)
        names = [n for n in ATTR_NAMES[type_] if n not in used]
        if not names:
            continue
        used.add(names[0])
        attrs.append(_attribute(rng, names[0], type_))
    return {"name": name, "attributes": attrs, "relationships": []}


def _relate(ent, other, name, inverse, to_many, rule, optional=True):
    """Adds relationship `name` on `ent` (to `other`); the inverse is added by the caller."""
    rel = {"name": name, "destination": other["name"], "inverse": inverse, "toMany": to_many, "deleteRule": rule}
    if not optional:
        rel["optional"] = False
    ent["relationships"].append(rel)


def _pair(rng, a, b, a_name, b_name, a_many=False, b_many=False, a_optional=True, b_optional=True):
    """A relationship and its inverse between entities a and b, with random delete rules."""
    _relate(a, b, a_name, b_name, a_many, rng.choice(DELETE_RULES), a_optional)
    _relate(b, a, b_name, a_name, b_many, rng.choice(DELETE_RULES), b_optional)


def generate_model(rng):
    """A random model following the module's scheme; returns (model, features)."""
    features = {
        "info": rng.random() < 0.55,
        "emp": rng.random() < 0.6,
        "tag": rng.random() < 0.35,
        "dept_mgr": rng.random() < 0.5,
    }
    if not (features["info"] or features["emp"] or features["tag"]):
        features[rng.choice(["info", "emp", "tag"])] = True
    features["badge"] = features["emp"] and rng.random() < 0.4
    features["emp_mgr"] = features["emp"] and rng.random() < 0.5
    features["info_key"] = rng.choice(["none", "same", "own"]) if features["info"] else None
    count = 1 + sum(features[k] for k in ("info", "emp", "tag", "badge"))
    if count > 4:  # at most four entities
        features["tag"] = False

    dept = _entity(rng, "Dept", rng.randint(1, 3), key_type=rng.choice(["String", "String", "Integer 32"]))
    entities = [dept]
    if features["dept_mgr"]:
        _pair(rng, dept, dept, "mgr", "reports", b_many=True)
    if features["info"]:
        info = _entity(rng, "DeptInfo", rng.randint(1, 2))
        if features["info_key"] == "none":
            info["attributes"] = info["attributes"][1:] or [_attribute(rng, "note", "String")]
        elif features["info_key"] == "same":
            info["attributes"][0]["type"] = dept["attributes"][0]["type"]
        _pair(rng, info, dept, "host", "info", a_optional=rng.random() < 0.85, b_optional=rng.random() < 0.9)
        entities.append(info)
    if features["emp"]:
        emp = _entity(rng, "Emp", rng.randint(1, 3))
        _pair(rng, emp, dept, "dept", "emps", b_many=True, a_optional=rng.random() < 0.8)
        if features["emp_mgr"]:
            _pair(rng, emp, emp, "mgr", "reports", b_many=True)
        entities.append(emp)
        if features["badge"]:
            badge = _entity(rng, "Badge", rng.randint(0, 2))
            _pair(rng, emp, badge, "badge", "holder")  # Badge.holder: filled later, so optional
            entities.append(badge)
    if features["tag"]:
        tag = _entity(rng, "Tag", rng.randint(0, 1))
        _pair(rng, dept, tag, "tags", "depts", a_many=True, b_many=True)
        entities.append(tag)
    return {"entities": entities}, features


def _columns(ent, prefix, skip=()):
    """Maps every attribute of `ent` to a column named prefix+attribute (explicitly: no name folding)."""
    return {a["name"]: prefix + a["name"] for a in ent["attributes"] if a["name"] not in skip}


def _with_formats(rng, ent, columns):
    """Gives some Date columns an explicit format."""
    for a in ent["attributes"]:
        if a["type"] == "Date" and a["name"] in columns:
            fmt = rng.choice(DATE_FORMATS)
            if fmt:
                columns[a["name"]] = {"column": columns[a["name"]], "format": fmt}
    return columns


def generate_mapping(rng, model, features):
    """The mapping for the model: files in dependency order, each target mapping every attribute."""
    ents = {e["name"]: e for e in model["entities"]}
    files = []
    if features["badge"]:
        files.append({"path": "badges.csv", "targets": [
            {"entity": "Badge", "key": "code", "columns": _with_formats(rng, ents["Badge"], _columns(ents["Badge"], ""))}]})
    dept_target = {"entity": "Dept", "key": "code", "columns": _with_formats(rng, ents["Dept"], _columns(ents["Dept"], ""))}
    if features["dept_mgr"]:
        dept_target["relationships"] = {"mgr": {"column": "mgr", "destinationKey": "code"}}
    targets = [dept_target]
    if features["info"]:
        info = ents["DeptInfo"]
        info_target = {"entity": "DeptInfo", "link": {"relationship": "host", "target": "Dept"}}
        if features["info_key"] == "none":
            info_target["columns"] = _with_formats(rng, info, _columns(info, "i_"))
        elif features["info_key"] == "same":
            cols = _columns(info, "i_")
            cols["code"] = "code"
            info_target["key"] = "code"
            info_target["columns"] = _with_formats(rng, info, cols)
        else:
            info_target["key"] = "code"
            info_target["columns"] = _with_formats(rng, info, _columns(info, "i_"))
        targets.append(info_target)
    files.append({"path": "depts.csv", "targets": targets})
    if features["tag"]:
        files.append({"path": "tags.csv", "targets": [
            {"entity": "Tag", "key": "code", "columns": _with_formats(rng, ents["Tag"], _columns(ents["Tag"], ""))}]})
    if features["emp"]:
        rels = {"dept": {"column": "dept", "destinationKey": "code"}}
        if features["emp_mgr"]:
            rels["mgr"] = {"column": "mgr", "destinationKey": "code"}
        if features["badge"]:
            rels["badge"] = {"column": "badge", "destinationKey": "code"}
        files.append({"path": "emps.csv", "targets": [
            {"entity": "Emp", "key": "code", "columns": _with_formats(rng, ents["Emp"], _columns(ents["Emp"], "")),
             "relationships": rels}]})
    if features["tag"]:
        files.append({"path": "dept_tags.csv", "join": {
            "entity": "Dept", "relationship": "tags", "sourceColumn": "dept", "sourceKey": "code",
            "destinationColumn": "tag", "destinationKey": "code"}})
    return {"format": 1, "model": "model.json", "files": files}


# ---------------------------------------------------------------------------------------------
# Values


def _key_text(rng, key_type, n):
    """The text of key number n (String keys sometimes keep leading zeros, Integer keys grouped)."""
    if key_type == "String":
        return rng.choice(["K%d", "K%d", "k%02d", "0%d"]) % n
    return rng.choice(["%d", "%d", "+%d"]) % n if n < 1000 else "{:,}".format(n)


def good_value(rng, type_, fmt, encoding):
    """A field [text, quoted] that converts for `type_` (with date format `fmt`)."""
    r = rng.random()
    if type_ == "String":
        pool = PLAIN_TEXT + CP1252_TEXT + (UTF8_ONLY_TEXT if encoding == "utf-8" else [])
        if r < 0.15:
            return [rng.choice(NEEDS_QUOTES), True]
        if r < 0.22:
            return [rng.choice(NULLISH), True]         # quoted: text, not null
        if r < 0.27:
            return ["", True]                          # quoted empty: an empty string
        if r < 0.32:
            return ["  " + rng.choice(PLAIN_TEXT) + " ", rng.random() < 0.5]   # kept, unless unquoted and trimmed
        return [rng.choice(pool), rng.random() < 0.2]
    if type_ in ("Integer 32", "Integer 64"):
        big = type_ == "Integer 64"
        choices = ["42", "-7", "+7", "2,500", "1,234,567", "133856.0", "0", " 12 "]
        choices += ["9223372036854775807", "-4000000000"] if big else ["2147483647", "-2147483648"]
        return [rng.choice(choices), False]
    if type_ in ("Double", "Float", "Decimal"):
        choices = ["51.072486", "1,600.5", "1.5e-3", "-2.25", "0.1", "16777217", "3", "1e10", "-0.000123"]
        if type_ == "Float":
            choices += ["1e-50", "3.4e38"]
        if type_ == "Double":
            choices += ["1e300", "123456789.123456789"]
        return [rng.choice(choices), False]
    if type_ == "Boolean":
        return [rng.choice(["true", "false", "YES", "no", "y", "N", "t", "F", "1", "0"]), False]
    if type_ == "Date":
        if fmt is None:
            return [rng.choice(["2020-08-17", "2020-08-17T10:30:00Z", "2020-08-17 10:30:00.250+02:00",
                                "1999-12-31T23:59:59-05:00", "2001-01-01", "1970-01-01T00:00:00Z"]), False]
        if fmt == "yyyy-MM-dd":
            return [rng.choice(["2020-08-17", "1977-09-06", "2024-02-29"]), False]
        if fmt == "M/d/yyyy":
            return [rng.choice(["9/6/1977", "11/27/2002", "1/1/2001", "2/29/2024"]), False]
        return [rng.choice(["0", "978307200", "1597660200.5", "-86400"]), False]
    if type_ == "Binary":
        return [rng.choice(["AQID", "AAEC/w==", "SGVsbG8=", "0x151C2F00", "0xABCDEF", "\\x0102", "3q2+7w=="]), False]
    raise ValueError(type_)


def bad_value(rng, type_, fmt):
    """A field [text, quoted] that must make its row a reject for `type_` (`fmt` for dates)."""
    if type_ == "String":
        return None
    if type_ in ("Integer 32", "Integer 64"):
        choices = ["1.5", "abc", "1,23", "12a", "--3"]
        choices += ["9223372036854775808"] if type_ == "Integer 64" else ["2147483648", "-2147483649"]
        return [rng.choice(choices), False] if rng.random() < 0.85 else ["", True]
    if type_ in ("Double", "Float", "Decimal"):
        choices = ["1.2.3", "abc", "1,6", "e5", "1,600.5.5"]
        if type_ == "Float":
            choices.append("1e39")
        if type_ == "Decimal":
            choices.append("1e200")
        return [rng.choice(choices), False] if rng.random() < 0.85 else ["", True]
    if type_ == "Boolean":
        return [rng.choice(["maybe", "2", "yess", "tru"]), False]
    if type_ == "Date":
        if fmt is None or fmt == "yyyy-MM-dd":
            return [rng.choice(["2020-02-30", "2020-13-01", "yesterday", "2021-02-29"]), False]
        if fmt == "M/d/yyyy":
            return [rng.choice(["2/30/2020", "13/1/2020", "x/1/2020"]), False]
        return [rng.choice(["abc", "1.2.3"]), False]
    if type_ == "Binary":
        return [rng.choice(["0x123", "!!!", "0xZZ"]), False]
    raise ValueError(type_)


# ---------------------------------------------------------------------------------------------
# Rows


def _attr_format(target, attr):
    """The date format a target's column mapping gives `attr`, or None."""
    spec = target.get("columns", {}).get(attr)
    return spec.get("format") if isinstance(spec, dict) else None


def _column_name(spec):
    """The CSV column of a column mapping (a name or {"column": name, ...})."""
    return spec["column"] if isinstance(spec, dict) else spec


class RowMaker:
    """Makes the rows of one file: keys from a pool (repeats are upserts), relationship keys that
    exist, come later (forward), or never come, and a share of bad rows of every kind."""

    def __init__(self, rng, model, encoding, bad_rate):
        self.rng = rng
        self.ents = {e["name"]: e for e in model["entities"]}
        self.encoding = encoding
        self.bad_rate = bad_rate

    def attr(self, entity, name):
        """The attribute definition `name` of `entity`."""
        return next(a for a in self.ents[entity]["attributes"] if a["name"] == name)

    def field_for(self, entity, target, attr_name):
        """A good value for an attribute; sometimes an unquoted null token."""
        attr = self.attr(entity, attr_name)
        if self.rng.random() < (0.1 if attr.get("optional", True) or "default" in attr else 0.02):
            return [self.rng.choice(["", "", "NULL", "NA"]), False]
        return good_value(self.rng, attr["type"], _attr_format(target, attr_name), self.encoding)

    def spoil(self, row, header, entity_of_column, target_of_column):
        """Makes one row bad in a random way (returns the row, maybe of another length)."""
        rng = self.rng
        kind = rng.choice(["value", "value", "value", "ragged", "bytes", "null"])
        if kind == "ragged":
            return row[:-1] if rng.random() < 0.5 and len(row) > 1 else row + [["extra", False]]
        if kind == "bytes":
            i = rng.randrange(len(row))
            bad = rng.choice(INVALID_UTF8 if self.encoding == "utf-8" else UNDEFINED_CP1252)
            row[i] = [row[i][0] + bad + "z", True]
            return row
        attr_cols = [i for i, c in enumerate(header) if entity_of_column.get(c)]
        if not attr_cols:
            return row
        i = rng.choice(attr_cols)
        entity, attr_name = entity_of_column[header[i]]
        attr = self.attr(entity, attr_name)
        if kind == "null" and not attr.get("optional", True) and "default" not in attr:
            row[i] = ["", False]
            return row
        bad = bad_value(rng, attr["type"], _attr_format(target_of_column[header[i]], attr_name))
        if bad is not None:
            row[i] = bad
        return row

    def key_plan(self, n_rows, key_type, offset=0):
        """Key texts for n_rows rows: mostly new, sometimes a repeat of an earlier row's key."""
        keys, made = [], []
        for i in range(n_rows):
            if made and self.rng.random() < 0.2:
                keys.append(self.rng.choice(made))
            else:
                keys.append(_key_text(self.rng, key_type, offset + i + 1))
                made.append(keys[-1])
        return keys

    def ref(self, earlier, later, missing_rate=0.08, forward_rate=0.15, null_rate=0.2):
        """A relationship key: an earlier key, a later one (forward), a missing one, or empty."""
        r = self.rng.random()
        if r < null_rate or not (earlier or later):
            return ["", False]
        r = self.rng.random()
        if r < missing_rate:
            return ["NOPE%d" % self.rng.randint(1, 3), False]
        if r < missing_rate + forward_rate and later:
            return [self.rng.choice(later), False]
        if earlier:
            return [self.rng.choice(earlier), False]
        return [self.rng.choice(later), False]


NUMBER_TYPES = ("Integer 16", "Integer 32", "Integer 64", "Double", "Float", "Decimal")


def swap_marks(text):
    """`,` and `.` trade places: how a file with a decimal comma writes `1,234.5` (`1.234,5`)."""
    return text.translate(str.maketrans(",.", ".,"))


def quote_where_needed(row):
    """Quotes the fields whose text holds a delimiter, a quote or a line break."""
    return [[t, q or any(c in t for c in ',"\r\n')] for t, q in row]


def _maybe_blank(rng, header):
    """A blank line (None) or a row of empty fields, or nothing."""
    r = rng.random()
    if r < 0.03:
        return [None]
    if r < 0.05:
        return [[["", False] for _ in header]]
    return []


def generate_files(rng, model, mapping, encoding, decimal_comma=False):
    """CSV rows for every file of the mapping; returns the case's "files" list. With `decimal_comma`,
    the fields of number columns (attributes, keys, relationship and join keys of number types) have
    `,` and `.` swapped, as a file written with a decimal comma has them."""
    maker = RowMaker(rng, model, encoding, bad_rate=rng.choice([0.0, 0.05, 0.1, 0.2, 0.3]))
    crlf = rng.random() < 0.25
    made_keys = {}           # entity → key texts its file's rows named (for later files' references)
    files = []
    for f in mapping["files"]:
        n = rng.choice([3, 5, 8, 12, 20, 30, 60])
        if "join" in f:
            j = f["join"]
            header = [j["sourceColumn"], j["destinationColumn"]]
            rows = []
            numeric = [decimal_comma and maker.attr(e, "code")["type"] in NUMBER_TYPES for e in (j["entity"], "Tag")]
            for _ in range(n):
                src = made_keys.get(j["entity"], []) + ["NOPE1"]
                dst = made_keys.get("Tag", []) + ["NOPE2"]
                row = [[rng.choice(src) if rng.random() < 0.93 else "NOPE1", False],
                       [rng.choice(dst) if rng.random() < 0.93 else "NOPE2", False]]
                rows.append(quote_where_needed([[swap_marks(t), q] if swap else [t, q] for (t, q), swap in zip(row, numeric)]))
                rows[-1:] += _maybe_blank(rng, header)
            files.append({"path": f["path"], "encoding": encoding, "crlf": crlf, "header": header, "rows": rows})
            continue
        header, entity_of_column, target_of_column = [], {}, {}
        for t in f["targets"]:
            for attr, spec in t.get("columns", {}).items():
                col = _column_name(spec)
                if col not in header:
                    header.append(col)
                    entity_of_column[col] = (t["entity"], attr)
                    target_of_column[col] = t
            for rel, spec in t.get("relationships", {}).items():
                header.append(spec["column"])
        main = f["targets"][0]
        key_type = maker.attr(main["entity"], "code")["type"]
        keys = maker.key_plan(n, key_type)
        own_keys = maker.key_plan(n, "String", offset=100) if len(f["targets"]) > 1 and "key" in f["targets"][1] \
            and _column_name(f["targets"][1]["columns"]["code"]) != "code" else None
        rows = []
        for i in range(n):
            row = []
            for col in header:
                if col == "code":
                    row.append([keys[i], rng.random() < 0.1])
                elif col == "i_code" and own_keys:
                    row.append([own_keys[i], False])
                elif col in entity_of_column:
                    ent, attr = entity_of_column[col]
                    row.append(maker.field_for(ent, target_of_column[col], attr))
                elif col == "mgr":
                    row.append(maker.ref(keys[:i], keys[i + 1:]))
                elif col == "dept":
                    row.append(maker.ref(made_keys.get("Dept", []), [], null_rate=0.1, forward_rate=0))
                elif col == "badge":
                    row.append(maker.ref(made_keys.get("Badge", []), [], null_rate=0.3, forward_rate=0))
                else:
                    row.append(["", False])
            if rng.random() < maker.bad_rate:
                row = maker.spoil(row, header, entity_of_column, target_of_column)
            if decimal_comma:
                row = [[swap_marks(t), q] if i < len(header) and _number_column(maker, main, header[i], entity_of_column) else [t, q]
                       for i, (t, q) in enumerate(row)]
            rows.append(quote_where_needed(row))
            rows += _maybe_blank(rng, header)
        made_keys[main["entity"]] = keys
        files.append({"path": f["path"], "encoding": encoding, "crlf": crlf, "header": header, "rows": rows})
    return files


def _number_column(maker, main, column, entity_of_column):
    """Whether a column of a target file holds numbers (an attribute, or a key, of a number type)."""
    if column in entity_of_column:
        entity, attr = entity_of_column[column]
        return maker.attr(entity, attr)["type"] in NUMBER_TYPES
    entity = {"code": main["entity"], "mgr": main["entity"], "dept": "Dept", "badge": "Badge"}.get(column)
    return entity is not None and maker.attr(entity, "code")["type"] in NUMBER_TYPES


def _add_boolean_column(rng, model, mapping, files):
    """When no file's target maps a Boolean attribute, gives a target of a file drawn among those with
    targets and a header an optional Boolean `flag`, mapped to a `flag` column appended to that file,
    so Boolean words get a column to act on (models drew one in about a quarter of the cases). Any
    target of any such file may get it: a later file's, a linked target's, one filled with forward
    keys. Blank lines stay blank; a row of empty fields gets an empty one; a few values are not
    Booleans at all."""
    ents = {e["name"]: e for e in model["entities"]}
    for fm in mapping["files"]:
        for t in fm.get("targets", []):
            if any(a["type"] == "Boolean" and a["name"] in t.get("columns", {}) for a in ents[t["entity"]]["attributes"]):
                return
    candidates = []
    for fm, f in zip(mapping["files"], files):
        if "targets" not in fm or fm.get("header") is False or "flag" in f["header"]:
            continue
        for target in fm["targets"]:
            if not any(a["name"] == "flag" for a in ents[target["entity"]]["attributes"]):
                candidates.append((fm, f, target))
    if not candidates:
        return
    fm, f, target = rng.choice(candidates)
    entity = ents[target["entity"]]
    entity["attributes"].append({"name": "flag", "type": "Boolean", "optional": True})
    target.setdefault("columns", {})["flag"] = "flag"
    f["header"].append("flag")
    for row in f["rows"]:
        if row is None:
            continue
        if all(not q and t.strip(" \t") == "" for t, q in row):
            row.append(["", False])
        else:
            row.append([rng.choice(["true", "false", "yes", "no", "1", "0", "Y", "N", "T", "f", ""] * 6 + ["maybe"]), False])


def _add_unnamed_column(rng, mapping, files):
    """Inserts a column with an empty name at a random place of a target file with a header; its values
    are mostly empty, some text, some quoted. A row of empty fields gets an empty one (it stays blank);
    a ragged row keeps its mismatch."""
    candidates = [f for fm, f in zip(mapping["files"], files) if "targets" in fm and fm.get("header") is not False]
    if not candidates:
        return
    f = rng.choice(candidates)
    at = rng.randint(0, len(f["header"]))
    f["header"].insert(at, rng.choice(["", " "]))
    for row in f["rows"]:
        if row is None:
            continue
        if all(not q and t.strip(" \t") == "" for t, q in row):
            value = ["", False]
        else:
            value = rng.choice([["", False]] * 4 + [["x", False], ["9.5", False], ["a, b", True], ["NULL", False]])
        row.insert(min(at, len(row)), value)


def _use_boolean_words(rng, model, mapping, files):
    """Gives the Boolean columns of target files `trueValues`/`falseValues` and writes some of their
    true and false values with those words, in mixed case."""
    ents = {e["name"]: e for e in model["entities"]}
    for fm, f in zip(mapping["files"], files):
        for t in fm.get("targets", []):
            for a in ents[t["entity"]]["attributes"]:
                spec = t.get("columns", {}).get(a["name"])
                if a["type"] != "Boolean" or (spec is None and a["name"] not in f["header"]):
                    continue
                column = _column_name(spec) if spec is not None else a["name"]
                t.setdefault("columns", {})[a["name"]] = {"column": column, "trueValues": ["ja", "Oui"], "falseValues": ["nein"]}
                if column not in f["header"]:
                    continue
                i = f["header"].index(column)
                for row in f["rows"]:
                    if row is None or i >= len(row) or rng.random() < 0.5:
                        continue
                    text = row[i][0].strip(" \t").lower()
                    if text in ("true", "yes", "y", "t", "1"):
                        row[i] = [rng.choice(["ja", "JA", "oui", "OUI", "Ja"]), row[i][1]]
                    elif text in ("false", "no", "n", "f", "0"):
                        row[i] = [rng.choice(["nein", "NEIN", "Nein"]), row[i][1]]
                    elif text in ("maybe", "yess"):
                        row[i] = ["jein", row[i][1]]


def generate_options(rng):
    """Random command-line options for the import."""
    on_error = "skip" if rng.random() < 0.75 else "abort"
    return {
        "on_error": on_error,
        "batch_size": rng.choice([1, 1, 2, 3, 7, 10000]),
        "key_memory": rng.choice([1, None]),
        "read_ahead": rng.choice([None, True, False]),
        "rejects": on_error == "skip" and rng.random() < 0.8,
        "previous_store": rng.random() < 0.3,
    }


def _set_somewhere(rng, options, mapping, flag, key, value):
    """Sets a file option one of three ways, `rng` choosing: the command line (`options[flag]`, which
    runner.py passes on), the mapping's defaults, or every file of the mapping."""
    where = rng.choice(["flag", "defaults", "files"])
    if where == "flag":
        options[flag] = value
    elif where == "defaults":
        mapping.setdefault("defaults", {})[key] = value
    else:
        for f in mapping["files"]:
            f[key] = value


PADS = [" ", "  ", "\t", " \t"]


def _set_trim(rng, options, mapping):
    """Whether files trim (docs/mapping.md, `trim`, off by default): two in five cases leave it to the
    default; two in five set it true and one in five false, on the command line (`--trim`/`--no-trim`),
    in the mapping's defaults, or per file (each file drawn: true, false or left out, over a default
    of that value or none)."""
    options["trim_flag"] = None
    r = rng.random()
    if r < 0.4:
        return
    value = r < 0.8
    where = rng.choice(["flag", "defaults", "files"])
    if where == "flag":
        options["trim_flag"] = value
    elif where == "defaults":
        mapping.setdefault("defaults", {})["trim"] = value
    else:
        if rng.random() < 0.5:
            mapping.setdefault("defaults", {})["trim"] = value
        for f in mapping["files"]:
            choice = rng.choice([True, False, None])
            if choice is not None:
                f["trim"] = choice


def _pad_fields(rng, files):
    """Spaces and tabs around some fields: unquoted ones (text, numbers, dates, keys, null tokens, the
    empty fields of a blank row) get them on either side or both, a few quoted ones outside their
    quotes (` "Ann"`, `"Ann" `), only in columns the mapping reads and only around text without a
    delimiter, quote or line break (which a file that does not trim reads as unquoted text, so a comma
    inside would split the field). Rows keep their length; a blank row stays blank."""
    rate = rng.choice([0.03, 0.08, 0.2])
    quoted_rate = rng.choice([0.0, 0.01, 0.04])
    for f in files:
        read = [name.strip(" \t") != "" for name in f["header"]]
        for row in f["rows"]:
            if row is None:
                continue
            for i, (text, quoted) in enumerate(row):
                if not quoted and rng.random() < rate:
                    side = rng.choice(["left", "right", "both"])
                    left = rng.choice(PADS) if side != "right" else ""
                    right = rng.choice(PADS) if side != "left" else ""
                    row[i] = [left + text + right, False]
                elif quoted is True and i < len(read) and read[i] and not any(c in text for c in ',"\r\n') \
                        and rng.random() < quoted_rate and not any("\n" in t or "\r" in t for t, _ in row):
                    # (Not in a row with a line break in a field: text after a closing quote ends the record
                    # with its line, docs/mapping.md, so a later value quoted over lines would split the row;
                    # checked after the draw, so other cases keep theirs.)
                    row[i] = [text, rng.choice(["lpad", "rpad", "pad"])]


def generate(seed):
    """The case for `seed` (deterministic)."""
    rng = random.Random(seed)
    model, features = generate_model(rng)
    mapping = generate_mapping(rng, model, features)
    encoding = "utf-8" if rng.random() < 0.6 else "windows-1252"
    options = generate_options(rng)
    options["encoding_flag"] = None
    if encoding != "utf-8":
        if rng.random() < 0.5:
            options["encoding_flag"] = "windows-1252"
        else:
            mapping["defaults"] = {"encoding": "windows-1252"}
    # Decided by an RNG of its own, so the main stream (and a case without it) stays what it was.
    side = random.Random(seed * 7919 + 17)
    decimal_comma = side.random() < 0.25
    if decimal_comma:
        _set_somewhere(side, options, mapping, "decimal_comma_flag", "decimalComma", True)
    options["decimal_comma"] = decimal_comma
    files = generate_files(rng, model, mapping, encoding, decimal_comma)
    # Boolean columns with words of their own (ja/nein), some of their values written so: again from an
    # RNG of their own.
    words = random.Random(seed * 7919 + 41)
    if words.random() < 0.3:
        _add_boolean_column(words, model, mapping, files)
        _use_boolean_words(words, model, mapping, files)
    # A column the header leaves unnamed, which nothing reads (its values only make a warning): again
    # from an RNG of its own.
    unnamed = random.Random(seed * 7919 + 53)
    if unnamed.random() < 0.15:
        _add_unnamed_column(unnamed, mapping, files)
    # Lines above every file's header (a title, notes, a stray quote), skipped by "skipLines": again
    # from an RNG of their own.
    above = random.Random(seed * 7919 + 29)
    if above.random() < 0.2:
        count = above.randint(1, 3)
        lines = ["Export of %d rows, \"as of\" 2026-11-26" % seed, "notes: \"unclosed, quote", "", "a,b,c,d"]
        preamble = [above.choice(lines) for _ in range(count)]
        for f in files:
            f["preamble"] = preamble
        _set_somewhere(above, options, mapping, "skip_lines_flag", "skipLines", count)
    # Whether files trim (off by default), and spaces and tabs around fields, from RNGs of their own.
    _set_trim(random.Random(seed * 7919 + 61), options, mapping)
    pads = random.Random(seed * 7919 + 67)
    if pads.random() < 0.5:
        _pad_fields(pads, files)
    case = {"seed": seed, "model": model, "mapping": mapping, "files": files, "options": options}
    # Backslash-escaped files (MySQL's SELECT … INTO OUTFILE, PostgreSQL's text COPY): a fifth of the
    # files, or in a few cases every file, rewritten last from an RNG of their own (escaped.py), so the
    # other files stay byte for byte what they were.
    escaped.escape_files(random.Random(seed * 7919 + 71), case)
    return case
