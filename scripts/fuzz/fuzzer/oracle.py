"""The row oracle: replays CSV rows against the documented import semantics.

`World` is the object graph an import must leave: objects (by an internal id), key indexes,
many-to-many pairs. `Replayer` feeds it rows file by file:

  * abort mode: every row, in order; the first bad one means the import must fail;
  * skip mode: only the rows the importer accepted (all rows minus its rejects file); an accepted row
    the oracle finds bad is a defect, and the final world must equal the store.

Semantics modelled (docs/mapping.md): text as written (a String keeps its spaces unless the file
trims, text inside quotes never trimmed, every other type and non-String keys read trimmed; see
convert.field_text), blank rows (only delimiters, spaces and tabs), upserts by key (an update sets every mapped column, a null
clears or takes the default), relationship key columns (destination's key; a key of this file may
come later, for an optional relationship of a row that inserts its object), one-to-one relationships
moving from an earlier holder (refused when the relationship is required), links between a row's
targets (a keyless linked target found through the link; refused when it would take a partner from an
object that requires it), join files (pairs stored once).

Rejected rows are not replayed, and leave nothing (checked): a row rejected once its own file was read
(a forward key, or a chain) takes back what it wrote, or the import runs again without it.
"""

from . import convert, escaped
from .csvfiles import record_bytes


class RowBad(Exception):
    """The row must be rejected; `unsure` when the oracle is not certain (a 'review' case)."""

    def __init__(self, reason, unsure=False, kind="value"):
        super().__init__(reason)
        self.reason = reason
        self.unsure = unsure
        self.kind = kind      # value | key | removed | forward | taken


def _column(spec):
    """(column, format) of a column mapping; for a Boolean column with words of its own, the format is
    {"true": [...], "false": [...]}."""
    if not isinstance(spec, dict):
        return (spec, None)
    if "trueValues" in spec or "falseValues" in spec:
        return (spec["column"], {"true": spec.get("trueValues", []), "false": spec.get("falseValues", [])})
    return (spec["column"], spec.get("format"))


class Plan:
    """The model and mapping, digested: entities, relationships and per-file targets."""

    def __init__(self, model, mapping, files, options=None):
        self.entities = {}
        for e in model["entities"]:
            self.entities[e["name"]] = {
                "attrs": {a["name"]: a for a in e.get("attributes", [])},
                "rels": {r["name"]: r for r in e.get("relationships", [])},
            }
        headers = {f["path"]: f["header"] for f in files}
        encodings = {f["path"]: f["encoding"] for f in files}
        self.files = []
        for f in mapping["files"]:
            fp = {"path": f["path"], "header": headers[f["path"]], "encoding": encodings[f["path"]],
                  "trim": self.trims(mapping, f, options or {}),
                  "escape": next((g.get("escape") for g in files if g["path"] == f["path"]), None),
                  "tokens": self.null_tokens(mapping, f, options or {})}
            if "join" in f:
                fp["join"] = f["join"]
            else:
                fp["targets"] = [self._target(t, f["targets"]) for t in f["targets"]]
            self.files.append(fp)

    @staticmethod
    def trims(mapping, f, options):
        """Whether a file trims (docs/mapping.md, `trim`): `--trim`/`--no-trim` for every file, else the
        file's `trim`, else that of `defaults`, else false (text keeps its spaces)."""
        if options.get("trim_flag") is not None:
            return bool(options["trim_flag"])
        if "trim" in f:
            return bool(f["trim"])
        return bool(mapping.get("defaults", {}).get("trim", False))

    @staticmethod
    def null_tokens(mapping, f, options):
        """The null tokens chosen for a file (`--null`, the file's `nullTokens`, the defaults'), or None
        when none are: an escape-mode file then has no token but `\\N` (escaped.py). (Columns' own
        `nullTokens` are not generated.)"""
        if options.get("null_flag") is not None:
            return list(options["null_flag"])
        if "nullTokens" in f:
            return list(f["nullTokens"])
        if "nullTokens" in mapping.get("defaults", {}):
            return list(mapping["defaults"]["nullTokens"])
        return None

    def _target(self, t, all_targets):
        """One target: its key, columns, relationship columns and link."""
        names = [x["entity"] for x in all_targets]
        plan = {
            "entity": t["entity"], "key": t.get("key"),
            "columns": {a: _column(s) for a, s in t.get("columns", {}).items() if s is not None},
            "rels": {r: (s["column"], s["destinationKey"]) for r, s in t.get("relationships", {}).items()},
            "link": None, "via": None,
        }
        if "link" in t:
            other = names.index(t["link"]["target"])
            plan["link"] = (t["link"]["relationship"], other)
            if plan["key"] is None and all_targets[other].get("key"):
                plan["via"] = other
        return plan

    def rel(self, entity, name):
        """The relationship definition `name` of `entity`."""
        return self.entities[entity]["rels"][name]

    def inverse(self, entity, name):
        """(destination entity, inverse relationship definition) of a relationship."""
        r = self.rel(entity, name)
        return r["destination"], self.rel(r["destination"], r["inverse"])

    def one_to_one(self, entity, name):
        """Whether a to-one relationship's inverse is to-one too."""
        r = self.rel(entity, name)
        return not r.get("toMany") and not self.inverse(entity, name)[1].get("toMany")

    def fills(self, fp, entity):
        """Whether file `fp` has a keyed target filling `entity`."""
        return any(t["entity"] == entity and t["key"] for t in fp.get("targets", []))


class Obj:
    """One object of the world."""

    def __init__(self, oid, entity, origin):
        self.oid = oid
        self.entity = entity
        self.attrs = {}
        self.rels = {}
        self.origin = [origin]
        self.tainted = False


class World:
    """The object graph an import leaves."""

    def __init__(self, plan):
        self.plan = plan
        self.objects = {}
        self.index = {}           # entity → {key value: oid}
        self.pairs = set()        # (src oid, relationship, dst oid)
        self.asymmetric_ok = set()  # oids a required one-to-one link may leave asymmetric (known)
        self.next_oid = 1

    def new(self, entity, origin):
        """A new object with its attributes' defaults."""
        o = Obj(self.next_oid, entity, origin)
        self.next_oid += 1
        for name, attr in self.plan.entities[entity]["attrs"].items():
            o.attrs[name] = convert.default_value(attr)
        for name, rel in self.plan.entities[entity]["rels"].items():
            if not rel.get("toMany"):
                o.rels[name] = None
        self.objects[o.oid] = o
        return o

    def find(self, entity, key):
        """The object with key value `key`, or None."""
        oid = self.index.get(entity, {}).get(key)
        return self.objects.get(oid) if oid else None

    def set_one_to_one(self, obj, rel, dest):
        """Sets a one-to-one relationship on both sides; former partners of either let go."""
        dest_entity, inverse = self.plan.inverse(obj.entity, rel)
        inv = inverse["name"]
        old = obj.rels.get(rel)
        if old is not None and (dest is None or old != dest.oid):
            self.objects[old].rels[inv] = None
        if dest is not None:
            holder = dest.rels.get(inv)
            if holder is not None and holder != obj.oid:
                self.objects[holder].rels[rel] = None
            dest.rels[inv] = obj.oid
        obj.rels[rel] = dest.oid if dest is not None else None


class Replayer:
    """Replays the rows of a case file by file into a World."""

    def __init__(self, case):
        self.case = case
        self.plan = Plan(case["model"], case["mapping"], case["files"], case.get("options"))
        self.world = World(self.plan)
        self.unsure = []          # reasons the oracle was not sure, with the row
        self.files = {f["path"]: f for f in case["files"]}
        self.rejected_keys = set()  # (entity, key) of rows the importer rejected (skip mode)
        self.lenient = False
        self.lenient_problem = None

    # -- one row ----------------------------------------------------------------------------

    @staticmethod
    def is_blank(row):
        """A blank line or a record whose raw bytes are only delimiters, spaces and tabs (no field quoted):
        skipped and counted whether or not the file trims. (Not for escape-mode files: escaped.records.)"""
        return row is None or all(not q and convert.trim(t) == "" for t, q in row)

    def _decode_check(self, fp, row):
        """Bytes the file's encoding does not define make the row a reject."""
        codec = "cp1252" if fp["encoding"] in ("windows-1252", "cp1252") else fp["encoding"]
        if getattr(row, "bad", None):
            raise RowBad(row.bad)          # an escape-mode record a quote leaves malformed (escaped.Row)
        if fp.get("escape"):
            # `row` is the decoded view: its texts hold the raw bytes the escapes leave as they are.
            data = "".join(t for t, q in row).encode(codec, errors="surrogateescape")
        else:
            data = record_bytes(self.files[fp["path"]], row)
        try:
            data.decode(codec)
        except UnicodeDecodeError:
            raise RowBad("undefined byte")

    @staticmethod
    def _padded_quotes(fp, row):
        """In a file that does not trim, a value quoted with spaces or tabs outside its quotes makes the row
        a reject: spaces before the opening quote leave the field unquoted text that is a quoted value (a
        String reject naming --trim; any other type fails to convert), and spaces after the closing
        quote are text after a closing quote (a malformed quote). With `trim` they are dropped and the
        field is the quoted text. (The generator writes them only in columns the mapping reads.)"""
        if not fp["trim"] and any(isinstance(q, str) for t, q in row):
            raise RowBad("a value quoted with spaces around its quotes in a file that does not trim")

    def _field(self, fp, row, column):
        """(text, quoted) of a column of the row."""
        return row[fp["header"].index(column)]

    def _convert(self, fp, attr, text, quoted, fmt=None):
        """convert.convert for a field of file `fp` (which trims or not), with Bad/Unsure turned into RowBad."""
        try:
            return convert.convert(attr, text, quoted, fmt, decimal_comma=self.case["options"].get("decimal_comma", False),
                                   trims=fp["trim"])
        except convert.Bad as e:
            raise RowBad(str(e))
        except convert.Unsure as e:
            raise RowBad("oracle unsure: %s" % e, unsure=True)

    def convert_row(self, fp, row):
        """The row's converted values: per target (key, {attr: value}, {rel: key value or None}).

        Raises RowBad for anything that makes the row a reject on its own (bytes, field count, values).
        """
        self._decode_check(fp, row)
        if len(row) != len(fp["header"]):
            raise RowBad("has %d fields, the header %d" % (len(row), len(fp["header"])))
        self._padded_quotes(fp, row)
        out = []
        for t in fp["targets"]:
            attrs = self.plan.entities[t["entity"]]["attrs"]
            values = {}
            for name, (column, fmt) in t["columns"].items():
                text, quoted = self._field(fp, row, column)
                values[name] = self._convert(fp, attrs[name], text, quoted, fmt)
            key = values.get(t["key"]) if t["key"] else None
            rels = {}
            for rel, (column, dest_key) in t["rels"].items():
                text, quoted = self._field(fp, row, column)
                dest = self.plan.rel(t["entity"], rel)["destination"]
                key_type = self.plan.entities[dest]["attrs"][dest_key]["type"]
                if convert.is_null(text, quoted, key_type, fp["trim"]):
                    if self.plan.rel(t["entity"], rel).get("optional", True) is False:
                        raise RowBad("empty key in a required relationship")
                    rels[rel] = None
                else:
                    rels[rel] = self._convert(fp, {"type": key_type}, text, quoted)
            out.append((key, values, rels))
        return out

    def _existing(self, fp, converted, i):
        """The object target i of this row updates (None: it inserts one)."""
        t = fp["targets"][i]
        w = self.world
        if t["key"]:
            return w.find(t["entity"], converted[i][0])
        if t["via"] is not None:
            via = fp["targets"][t["via"]]
            host = w.find(via["entity"], converted[t["via"]][0])
            if host is not None:
                _, inverse = self.plan.inverse(t["entity"], t["link"][0])
                linked = host.rels.get(inverse["name"])
                return w.objects.get(linked) if linked else None
        return None

    def resolve(self, fp, converted, lenient=False):
        """Relationship keys → objects: {(target, rel): obj | None | ('same', j) | ('forward', key)}.

        Raises RowBad when a key names no object and cannot wait, or takes a required one-to-one.
        `lenient` (replaying rows the importer accepted): such keys become None instead, and the
        first problem is kept in `self.lenient_problem`, so the replay stays close to the store.
        """
        w = self.world
        out = {}
        self.lenient_problem = None

        def problem(bad, i, rel):
            bad.target = i
            if not lenient:
                raise bad
            self.lenient_problem = self.lenient_problem or bad
            out[(i, rel)] = None

        for i, t in enumerate(fp["targets"]):
            for rel, key in converted[i][2].items():
                if key is None:
                    out[(i, rel)] = None
                    continue
                r = self.plan.rel(t["entity"], rel)
                dest = r["destination"]
                one_to_one = self.plan.one_to_one(t["entity"], rel)
                same = [j for j, u in enumerate(fp["targets"]) if u["entity"] == dest and u["key"] and converted[j][0] == key]
                if same:
                    out[(i, rel)] = ("same", same[0])
                    continue
                obj = w.find(dest, key)
                if obj is not None:
                    if one_to_one and r.get("optional", True) is False:
                        holder = obj.rels.get(r["inverse"])
                        own = self._existing(fp, converted, i)
                        if holder is not None and (own is None or own.oid != holder):
                            problem(RowBad("required one-to-one already taken", kind="taken"), i, rel)
                            continue
                    out[(i, rel)] = obj
                    continue
                removed = RowBad("%s names %s %r, whose row was rejected" % (rel, dest, key), kind="removed",
                                 unsure=one_to_one)
                if self.plan.fills(fp, dest):
                    if r.get("optional", True) is False:
                        problem(RowBad("forward key on a required relationship", kind="forward"), i, rel)
                    elif self._existing(fp, converted, i) is not None:
                        if (dest, key) in self.rejected_keys:
                            problem(removed, i, rel)
                        else:
                            problem(RowBad("forward key in a row that updates an existing object", kind="forward"), i, rel)
                    else:
                        out[(i, rel)] = ("forward", key)
                elif (dest, key) in self.rejected_keys:
                    problem(removed, i, rel)
                else:
                    problem(RowBad("no %s has key %r" % (dest, key), kind="key"), i, rel)
        # A link that would take a partner from an object whose side is required refuses the row.
        for i, t in enumerate(fp["targets"]):
            if not t["link"]:
                continue
            rel, other = t["link"]
            mine, theirs = self._existing(fp, converted, i), self._existing(fp, converted, other)
            if mine is None and theirs is None:
                continue
            _, inverse = self.plan.inverse(t["entity"], rel)
            mine_holder = mine.rels.get(rel) if mine is not None else None
            theirs_holder = theirs.rels.get(inverse["name"]) if theirs is not None else None
            if mine_holder is not None and mine_holder != (theirs.oid if theirs else None) and inverse.get("optional", True) is False:
                problem(RowBad("link takes a partner its holder requires", kind="taken"), i, rel)
            elif theirs_holder is not None and theirs_holder != (mine.oid if mine else None) and \
                    self.plan.rel(t["entity"], rel).get("optional", True) is False:
                problem(RowBad("link takes a partner its holder requires", kind="taken"), i, rel)
        return out

    def apply_row(self, fp, row, line):
        """Applies one good row (raises RowBad, leaving the world unchanged, for a bad one)."""
        converted = self.convert_row(fp, row)
        resolved = self.resolve(fp, converted, lenient=self.lenient)
        w = self.world
        objs, inserted = [], []
        for i, t in enumerate(fp["targets"]):
            obj = self._existing(fp, converted, i)
            inserted.append(obj is None)
            if obj is None:
                obj = w.new(t["entity"], (fp["path"], line))
                if t["key"]:
                    w.index.setdefault(t["entity"], {})[converted[i][0]] = obj.oid
            else:
                obj.origin.append((fp["path"], line))
                self.forwards = [f for f in self.forwards if f[0] != obj.oid]
            obj.attrs.update(converted[i][1])
            objs.append(obj)
        for i, t in enumerate(fp["targets"]):
            obj = objs[i]
            for rel in converted[i][2]:
                value = resolved[(i, rel)]
                if isinstance(value, tuple) and value[0] == "same":
                    value = objs[value[1]]
                elif isinstance(value, tuple) and value[0] == "forward":
                    self.forwards.append((obj.oid, rel, value[1], line))
                    value = None
                if self.plan.one_to_one(t["entity"], rel):
                    if not (inserted[i] and value is None):
                        w.set_one_to_one(obj, rel, value)
                else:
                    obj.rels[rel] = value.oid if value is not None else None
        for i, t in enumerate(fp["targets"]):
            if t["link"]:
                rel, other = t["link"]
                self._link(objs[i], rel, objs[other], both_new=inserted[i] and inserted[other])
        if self.lenient_problem:
            self.lenient_problem.oid = objs[self.lenient_problem.target].oid
            raise self.lenient_problem

    def _link(self, mine, rel, other, both_new):
        """Links a row's objects one-to-one (as the importer's step 3)."""
        w = self.world
        _, inverse = self.plan.inverse(mine.entity, rel)
        inv = inverse["name"]
        if both_new:
            mine.rels[rel] = other.oid
            other.rels[inv] = mine.oid
            return
        former_of_mine = mine.rels.get(rel)
        former_of_other = other.rels.get(inv)
        may_let_go = True
        if former_of_mine not in (None, other.oid) and inverse.get("optional", True) is False:
            may_let_go = False
        if former_of_other not in (None, mine.oid) and self.plan.rel(mine.entity, rel).get("optional", True) is False:
            may_let_go = False
        if may_let_go:
            w.set_one_to_one(mine, rel, other)
        else:
            # Only for a row the importer should have refused (resolve() flags it): the former partner
            # keeps its side, as the importer's fallback does.
            for oid in (mine.oid, other.oid, former_of_mine, former_of_other):
                if oid is not None:
                    w.asymmetric_ok.add(oid)
                    w.objects[oid].tainted = True
            mine.rels[rel] = other.oid
            other.rels[inv] = mine.oid

    def apply_join(self, fp, row):
        """Applies one join row (raises RowBad when a key names no object)."""
        self._decode_check(fp, row)
        j = fp["join"]
        if len(row) != len(fp["header"]):
            raise RowBad("ragged join row")
        self._padded_quotes(fp, row)
        src_entity = j["entity"]
        dst_entity = self.plan.rel(src_entity, j["relationship"])["destination"]
        ends = []
        for column, entity, key_attr in ((j["sourceColumn"], src_entity, j["sourceKey"]),
                                         (j["destinationColumn"], dst_entity, j["destinationKey"])):
            text, quoted = self._field(fp, row, column)
            key_type = self.plan.entities[entity]["attrs"][key_attr]["type"]
            if convert.is_null(text, quoted, key_type, fp["trim"]):
                raise RowBad("null join key", unsure=True)
            key = self._convert(fp, {"type": key_type}, text, quoted)
            obj = self.world.find(entity, key)
            if obj is None:
                raise RowBad("join key %r names no %s" % (key, entity))
            ends.append(obj)
        self.world.pairs.add((ends[0].oid, j["relationship"], ends[1].oid))

    # -- rejected rows (skip mode) ----------------------------------------------------------------

    def note_rejected(self, fp, row, line):
        """A row the importer rejected: notes the keys it made for a while.

        Returns None when the row is bad where the replay stands, else the set of keys it names
        (for the over-rejection heuristic).
        """
        if "join" in fp:
            return set()
        try:
            converted = self.convert_row(fp, row)
        except RowBad:
            return None
        try:
            resolved = self.resolve(fp, converted)
            explained = False
        except RowBad:
            resolved = {}
            explained = True   # bad where the oracle stands too (its keys, a taken one-to-one)
        # A rejected row leaves nothing: rejected once its file was read, it takes back what it wrote, or
        # the import runs again without it (a row of an earlier file, an update or partner later rows
        # used). Nothing it touched is tainted.
        w = self.world
        names = set()
        for i, t in enumerate(fp["targets"]):
            key = converted[i][0]
            if t["key"]:
                names.add((t["entity"], key))
                if w.find(t["entity"], key) is None and not explained:
                    self.rejected_keys.add((t["entity"], key))   # rejected late: it existed for a while
            for rel, k in converted[i][2].items():
                if k is not None:
                    names.add((self.plan.rel(t["entity"], rel)["destination"], k))
        return None if explained else names

    def _taint(self, obj):
        """Marks an object and its one-to-one partners as touched by a rejected row."""
        obj.tainted = True
        for rel, value in obj.rels.items():
            if value is not None and self.plan.one_to_one(obj.entity, rel):
                self.world.objects[value].tainted = True

    # -- files -----------------------------------------------------------------------------------

    def finish_file(self, fp):
        """Sets the file's forward keys; returns [(line, reason, kind)] of rows whose keys never came."""
        failures = []
        w = self.world
        for oid, rel, key, line in self.forwards:
            obj = w.objects.get(oid)
            if obj is None:
                continue
            dest = w.find(self.plan.rel(obj.entity, rel)["destination"], key)
            if dest is None:
                kind = "removed" if (self.plan.rel(obj.entity, rel)["destination"], key) in self.rejected_keys else "forward"
                failures.append((line, "forward key %r never came%s" % (key, " (its row was rejected)" if kind == "removed" else ""), kind))
                continue
            if self.plan.one_to_one(obj.entity, rel):
                w.set_one_to_one(obj, rel, dest)
            else:
                obj.rels[rel] = dest.oid
        self.forwards = []
        return failures

    def run(self, lines, accepted=None):
        """Replays every file. `lines`: {path: [start line per row]}; `accepted`: None (abort mode:
        every row) or {path: set of lines the importer imported}.

        Returns a list of problems: (path, line, reason, unsure, kind) of rows that are bad although
        replayed (in abort mode: the rows that must stop the import), and {path: {line: names}} of
        rejected rows that are not bad on their own.
        """
        problems, rejected_names = [], {}
        overwritable = {}   # problem index -> the object of the row's target that named a removed key
        self.lenient = accepted is not None
        for fp in self.plan.files:
            f = self.files[fp["path"]]
            self.forwards = []
            if fp.get("escape"):
                # Raw fields → records read from the file's bytes, as [text, quoted] rows (None: blank).
                pairs = [(row, line) for line, row in escaped.records(f, fp["trim"], fp["tokens"])]
            else:
                pairs = zip(f["rows"], lines[fp["path"]])
            for row, line in pairs:
                if row is None or (not fp.get("escape") and self.is_blank(row)):
                    continue
                if accepted is not None and line not in accepted[fp["path"]]:
                    rejected_names.setdefault(fp["path"], {})[line] = self.note_rejected(fp, row, line)
                    continue
                try:
                    if "join" in fp:
                        self.apply_join(fp, row)
                    else:
                        self.apply_row(fp, row, line)
                except RowBad as bad:
                    problems.append((fp["path"], line, bad.reason, bad.unsure, bad.kind))
                    if getattr(bad, "oid", None) is not None:
                        overwritable[len(problems) - 1] = bad.oid
                    if accepted is None:
                        return problems, rejected_names
            # An accepted row naming an object removed later (or, to the replay, one that comes later),
            # whose object a later accepted row of this file updated: that row set the relationship again
            # (last row wins), so nothing of the named object is left; rejecting the earlier row too
            # would be as right (review).
            for k, oid in overwritable.items():
                path, line, reason, unsure, kind = problems[k]
                obj = self.world.objects.get(oid)
                if kind in ("removed", "forward") and obj is not None and any(p == path and l > line for p, l in obj.origin):
                    problems[k] = (path, line, reason + " (a later row with its key set it again)", True, kind)
            overwritable = {}
            for line, reason, kind in self.finish_file(fp):
                problems.append((fp["path"], line, reason, False, kind))
                if accepted is None:
                    return problems, rejected_names
        return problems, rejected_names
