"""Checking: the invariants of one import, each violation a signal.

A signal is a dict {"kind", "class", "detail"}; class is "defect", "known" (a documented limitation,
see README.md) or "review" (the oracle is not sure).

Invariants:
  1. exit code: skip mode exits 0 (a Deny rule stopping a removal aside); abort mode fails iff the
     oracle finds a bad row; never a crash, a timeout or an "internal error".
  2. a failed import leaves the previous store (and rejects file) byte-identical, and no temporaries.
  3. the store passes integrity_check; every to-one column names an existing row; one-to-one pairs
     are symmetric; Z_PRIMARYKEY.Z_MAX covers every Z_PK.
  4. row accounting: summary figures add up; every data row is imported or in the rejects file;
     each entity's objects inserted are those stored.
  5. faithful values: the store equals the oracle's replay of the accepted rows.
  6. a saved mapping (--save-mapping, a third of seeds) imported alone makes the same store, table by
     table (Z_METADATA aside: its UUID differs), and rejects the same lines.
"""

import csv
import io
import os
import re
import sqlite3

from . import convert, escaped
from .oracle import Replayer
from .runner import rejects_path, STORE


def signal(kind, class_, detail):
    """One invariant violation."""
    return {"kind": kind, "class": class_, "detail": detail}


def has_deny(case):
    """Whether any relationship of the model has a Deny delete rule."""
    return any(r.get("deleteRule") == "Deny" for e in case["model"]["entities"] for r in e.get("relationships", []))


# ---------------------------------------------------------------------------------------------
# Reading the importer's outputs


def read_rejects(data):
    """The rejects file as [(file, line, reason)] (raw bytes kept through latin-1)."""
    if data is None:
        return []
    rows = list(csv.reader(io.StringIO(data.decode("latin-1"), newline="")))
    out = []
    for r in rows[1:]:
        if len(r) >= 7:
            out.append((r[0], int(r[1]), r[6].encode("latin-1").decode("utf-8", "replace")))
    return out


class Store:
    """A store read back with sqlite3: per entity, {pk: {"attrs": {...}, "rels": {...}}}."""

    def __init__(self, path, plan):
        self.plan = plan
        self.db = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
        self.numbers = {name: i + 1 for i, name in enumerate(sorted(plan.entities))}
        self.objects = {}
        for name, ent in plan.entities.items():
            attrs = list(ent["attrs"])
            rels = [r for r, d in ent["rels"].items() if not d.get("toMany")]
            cols = ["Z_PK"] + ["Z" + a.upper() for a in attrs] + ["Z" + r.upper() for r in rels]
            rows = {}
            for row in self.db.execute("SELECT %s FROM Z%s" % (", ".join(cols), name.upper())):
                rows[row[0]] = {"attrs": dict(zip(attrs, row[1:1 + len(attrs)])),
                                "rels": dict(zip(rels, row[1 + len(attrs):]))}
            self.objects[name] = rows

    def join_pairs(self, entity, relationship):
        """The pairs of a many-to-many relationship as (src pk, dst pk)."""
        dest = self.plan.rel(entity, relationship)["destination"]
        tables = [t for (t,) in self.db.execute("SELECT name FROM sqlite_master WHERE type='table' AND name LIKE 'Z\\_%' ESCAPE '\\'")
                  if re.match(r"^Z_\d+", t)]
        src_n, dst_n = self.numbers[entity], self.numbers[dest]
        inverse = self.plan.rel(entity, relationship)["inverse"]
        for t in tables:
            if t.upper() not in ("Z_%d%s" % (src_n, relationship.upper()), "Z_%d%s" % (dst_n, inverse.upper())):
                continue
            cols = [c[1] for c in self.db.execute("PRAGMA table_info(%s)" % t)]
            src_col = [c for c in cols if re.match(r"^Z_%d[A-Z]" % src_n, c)]
            dst_col = [c for c in cols if re.match(r"^Z_%d[A-Z]" % dst_n, c)]
            if src_col and dst_col:
                return set(self.db.execute("SELECT %s, %s FROM %s" % (src_col[0], dst_col[0], t)))
        return set()


# ---------------------------------------------------------------------------------------------
# Invariants


def check_exit(case, result, problems):
    """Invariant 1 (and 2 for failed imports): exit code, crashes, internal errors, store safety."""
    sigs = []
    rc, text = result["returncode"], result["stdout"] + result["stderr"]
    first_error = next((l for l in result["stderr"].splitlines() if l.startswith("error")), result["stderr"][:300])
    if result["timed_out"]:
        sigs.append(signal("timeout", "defect", "no exit within the time limit"))
        return sigs
    if rc < 0 or rc >= 128:
        sigs.append(signal("crash", "defect", "exit %s: %s" % (rc, result["stderr"][-500:])))
    m = re.search(r"internal error[^\n]*|cannot read back[^\n]*|Fatal error[^\n]*", text)
    if m:
        sigs.append(signal("internal-error", "defect", m.group(0)[:300]))
    if rc != 0:
        if result["store_after"] != result["store_before"]:
            sigs.append(signal("store-not-preserved", "defect", "a failed import changed the previous store at --out"))
        if result["leftovers"]:
            sigs.append(signal("temporaries-left", "defect", "left %s" % result["leftovers"]))
        if case["options"]["on_error"] == "skip" and result["rejects_after"] != result["rejects_before"]:
            sigs.append(signal("rejects-not-preserved", "defect", "a failed import changed the earlier rejects file"))
        if case["options"]["on_error"] == "skip":
            if ("Deny delete rule" in text or "is Deny and" in text) and has_deny(case):
                pass  # documented: a Deny rule stops the import
            elif rc == 2:
                sigs.append(signal("input-refused", "review", first_error))
            elif not any(s["kind"] in ("crash", "internal-error") for s in sigs):
                sigs.append(signal("skip-mode-failed", "defect", "exit %d: %s" % (rc, first_error)))
        elif not problems and not any(s["kind"] in ("crash", "internal-error") for s in sigs):
            cls = "defect"
            sigs.append(signal("abort-without-bad-row", cls, "exit %d, but the oracle finds every row good: %s" % (rc, first_error)))
    elif result["leftovers"]:
        sigs.append(signal("temporaries-left", "defect", "left %s" % result["leftovers"]))
    return sigs


def check_store_integrity(store, plan):
    """Invariant 3: integrity_check, dangling to-one columns and join rows, one-to-one symmetry, Z_MAX."""
    sigs = []
    res = [r[0] for r in store.db.execute("PRAGMA integrity_check")]
    if res != ["ok"]:
        sigs.append(signal("integrity", "defect", "; ".join(res)[:300]))
    for name, rows in store.objects.items():
        for pk, o in rows.items():
            for rel, value in o["rels"].items():
                if value is None:
                    continue
                dest = plan.rel(name, rel)["destination"]
                if value not in store.objects[dest]:
                    sigs.append(signal("dangling-fk", "defect", "%s %d .%s = %s: no such %s" % (name, pk, rel, value, dest)))
                elif plan.one_to_one(name, rel):
                    inverse = plan.rel(name, rel)["inverse"]
                    back = store.objects[dest][value]["rels"].get(inverse)
                    if back != pk:
                        sigs.append(signal("asymmetric-one-to-one", "defect",
                                           "%s %d .%s = %s %s, whose .%s = %s" % (name, pk, rel, dest, value, inverse, back)))
    for (n, mx) in store.db.execute("SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY"):
        if n in store.objects and store.objects[n] and max(store.objects[n]) > (mx or 0):
            sigs.append(signal("pk-max", "defect", "%s: Z_MAX %s below a Z_PK %d" % (n, mx, max(store.objects[n]))))
    return sigs


def check_accounting(case, result, rejects, data_lines, blank_counts, read_counts):
    """Invariant 4: the summary's figures and the rejects file against the rows written."""
    sigs = []
    summary = result["summary"]
    if summary is None:
        return [signal("no-summary", "defect", "exit 0 without a readable --summary-json")]
    seen = set()
    for path, line, reason in rejects:
        if (path, line) in seen:
            sigs.append(signal("reject-repeated", "defect", "%s:%d is in the rejects file twice" % (path, line)))
        seen.add((path, line))
        if line not in data_lines.get(path, set()):
            sigs.append(signal("reject-unknown-line", "defect", "%s:%d (%s) is not a data row's first line" % (path, line, reason)))
    by_file = {f["path"]: f for f in summary["files"]}
    total = 0
    for f in case["files"]:
        s = by_file.get(f["path"])
        if s is None:
            sigs.append(signal("summary-missing-file", "defect", f["path"]))
            continue
        in_file = sum(1 for p, _, _ in rejects if p == f["path"])
        total += s["rejects"]
        if s["rowsRead"] != read_counts[f["path"]]:
            sigs.append(signal("summary-rows-read", "defect", "%s: rowsRead %d, the file has %d" % (f["path"], s["rowsRead"], read_counts[f["path"]])))
        if s["blankRows"] != blank_counts[f["path"]]:
            sigs.append(signal("summary-blank-rows", "defect", "%s: blankRows %d, expected %d" % (f["path"], s["blankRows"], blank_counts[f["path"]])))
        if s["rowsImported"] + s["rejects"] + s["blankRows"] != s["rowsRead"]:
            sigs.append(signal("summary-rows-add-up", "defect", "%s: imported %d + rejects %d + blank %d != read %d"
                               % (f["path"], s["rowsImported"], s["rejects"], s["blankRows"], s["rowsRead"])))
        if in_file != s["rejects"]:
            sigs.append(signal("summary-rejects", "defect", "%s: summary says %d rejects, the rejects file has %d"
                               % (f["path"], s["rejects"], in_file)))
    if summary["rejects"] != total:
        sigs.append(signal("summary-rejects", "defect", "total %d != per-file sum %d" % (summary["rejects"], total)))
    # A new store holds exactly what the import inserted and kept (a user trial read "1 object (2 inserted)").
    for name, counts in sorted(summary.get("objects", {}).items()):
        if counts.get("inserted") != counts.get("stored"):
            sigs.append(signal("summary-inserted-stored", "defect", "%s: %s inserted, %s stored"
                               % (name, counts.get("inserted"), counts.get("stored"))))
    if case["options"]["on_error"] == "skip" and summary["rejects"] == 0 and result["rejects_after"] is not None \
            and not rejects:
        sigs.append(signal("rejects-file-left", "defect", "no rejects, but %s is there" % rejects_path(case)))
    return sigs


def identities(plan, keyed, objects):
    """Identity of every object across oracle and store: ('key', code) for keyed entities, else
    ('via', relationship, partner's identity) through its first set to-one relationship to a keyed
    object, else ('anon', attributes).

    `objects`: {(entity, id): {"attrs": {...}, "rels": {rel: id or None}}}; returns {(entity, id): identity}.
    """
    out = {}
    for (entity, i), o in objects.items():
        if entity in keyed:
            out[(entity, i)] = ("key", o["attrs"]["code"])
    for (entity, i), o in objects.items():
        if entity in keyed:
            continue
        ident = None
        for rel, value in sorted(o["rels"].items()):
            dest = plan.rel(entity, rel)["destination"]
            if value is not None and (dest, value) in out and dest in keyed:
                ident = ("via", rel, out[(dest, value)])
                break
        out[(entity, i)] = ident or ("anon",) + tuple(sorted((k, repr(v)) for k, v in o["attrs"].items()))
    return out


def compare(case, replayer, store, unsure):
    """Invariant 5: the store against the oracle's world, object by object."""
    sigs = []
    plan, world = replayer.plan, replayer.world
    keyed = {t["entity"] for fp in plan.files for t in fp.get("targets", []) if t["key"]}
    cls_unsure = "review" if unsure else None

    w_objects = {(o.entity, o.oid): {"attrs": o.attrs, "rels": o.rels} for o in world.objects.values()}
    s_objects = {(name, pk): o for name, rows in store.objects.items() for pk, o in rows.items()}
    w_ident = identities(plan, keyed, w_objects)
    s_ident = identities(plan, keyed, s_objects)

    def w_key(entity):
        def key_of(rel, oid):
            return w_ident.get((world.objects[oid].entity, oid))
        return key_of

    def s_key(entity):
        def key_of(rel, pk):
            dest = plan.rel(entity, rel)["destination"]
            return s_ident.get((dest, pk), ("dangling", pk))
        return key_of

    idents = {}
    for name in plan.entities:
        expected = {}
        for o in world.objects.values():
            if o.entity == name:
                expected.setdefault(w_ident[(name, o.oid)], []).append(o)
        actual = {}
        for pk in store.objects[name]:
            actual.setdefault(s_ident[(name, pk)], []).append(pk)
        for ident, pks in actual.items():
            if len(pks) > 1 and ident[0] in ("key", "via"):
                sigs.append(signal("duplicate-key", "defect", "%s %r is stored %d times" % (name, ident, len(pks))))
        for ident, objs in expected.items():
            if ident not in actual:
                tainted = any(o.tainted for o in objs)
                sigs.append(signal("missing-object", cls_unsure or ("known" if tainted else "defect"),
                                   "%s %r (rows %s) is not in the store" % (name, ident, objs[0].origin)))
        for ident, pks in actual.items():
            if ident not in expected:
                cls = cls_unsure or ("known" if _touches_tainted(world, ident) else "defect")
                sigs.append(signal("extra-object", cls, "%s %r (Z_PK %s) is in the store, no accepted row makes it"
                                   % (name, ident, pks)))
        idents[name] = (expected, actual)

    # Values and relationships of the objects both sides have.
    for name, (expected, actual) in idents.items():
        attrs = plan.entities[name]["attrs"]
        for ident, objs in expected.items():
            if ident not in actual or len(objs) != 1 or len(actual[ident]) != 1:
                continue
            o, pk = objs[0], actual[ident][0]
            so = store.objects[name][pk]
            for attr, value in o.attrs.items():
                if not convert.same_value(attrs[attr]["type"], value, so["attrs"][attr]):
                    cls = cls_unsure or ("known" if o.tainted else "defect")
                    sigs.append(signal("wrong-value", cls, "%s %r .%s: expected %r, stored %r (rows %s)"
                                       % (name, ident, attr, value, so["attrs"][attr], o.origin)))
            for rel, oid in o.rels.items():
                exp = w_key(name)(rel, oid) if oid is not None else None
                got = s_key(name)(rel, so["rels"][rel]) if so["rels"][rel] is not None else None
                if exp != got:
                    partner_tainted = oid is not None and world.objects[oid].tainted
                    cls = cls_unsure or ("known" if o.tainted or partner_tainted or o.oid in world.asymmetric_ok else "defect")
                    sigs.append(signal("wrong-relationship", cls, "%s %r .%s: expected %r, stored %r (rows %s)"
                                       % (name, ident, rel, exp, got, o.origin)))
    # Many-to-many pairs.
    for fp in plan.files:
        if "join" not in fp:
            continue
        j = fp["join"]
        dest = plan.rel(j["entity"], j["relationship"])["destination"]
        exp = {(world.objects[a].attrs["code"], world.objects[b].attrs["code"])
               for a, r, b in world.pairs if r == j["relationship"] and a in world.objects and b in world.objects}
        got = {(store.objects[j["entity"]][a]["attrs"]["code"] if a in store.objects[j["entity"]] else ("pk", a),
                store.objects[dest][b]["attrs"]["code"] if b in store.objects[dest] else ("pk", b))
               for a, b in store.join_pairs(j["entity"], j["relationship"])}
        for pair in sorted(exp - got, key=repr):
            sigs.append(signal("missing-join-pair", cls_unsure or "defect", "%s.%s %r not stored" % (j["entity"], j["relationship"], pair)))
        for pair in sorted(got - exp, key=repr):
            sigs.append(signal("extra-join-pair", cls_unsure or "defect", "%s.%s %r stored, no accepted row makes it" % (j["entity"], j["relationship"], pair)))
    return sigs


def _touches_tainted(world, ident):
    """Whether an extra object's identity leads to an object a rejected row touched."""
    if ident[0] == "via":
        return _touches_tainted(world, ident[2])
    if ident[0] == "key":
        return any(o.tainted and o.attrs.get("code") == ident[1] for o in world.objects.values())
    return False


def over_rejections(replayer, rejected_names, stands_alone=None):
    """Rejected rows the oracle cannot explain: good on their own, and every key they name exists at
    the end. A rejected row takes no other row with it (docs/mapping.md), so that is a defect, but
    for a row sharing a key with another rejected row (review: a forward key of the same key's rows),
    and for a row with no fixpoint (review): `stands_alone(path, line)` replays the accepted rows with
    this one back, and a problem there (the row refuses the row that makes its key, say) means that
    setting it aside is the stable answer (over-rejected-1425567, over-rejected-1936462)."""
    sigs = []
    world = replayer.world
    all_names = {}
    for path, rows in rejected_names.items():
        for line, names in rows.items():
            for n in names or ():
                all_names.setdefault(n, set()).add((path, line))
    for path, rows in rejected_names.items():
        for line, names in rows.items():
            if names is None or not names:
                continue
            shared = any(len(all_names[n]) > 1 for n in names)
            missing = any(world.find(e, k) is None for e, k in names)
            if not missing:
                if not shared and stands_alone is not None and not stands_alone(path, line):
                    sigs.append(signal("over-rejected", "review",
                                       "%s:%d rejected; with it back, the replay rejects it too (no fixpoint)" % (path, line)))
                    continue
                sigs.append(signal("over-rejected", "review" if shared else "defect",
                                   "%s:%d rejected, the oracle finds no reason" % (path, line)))
    return sigs


def check_resaved(result):
    """Invariant 6: the import again with the mapping it saved, without the flags written into it."""
    again = result.get("resaved")
    if again is None:
        return []
    if again["timed_out"] or again["returncode"] != 0:
        return [signal("saved-mapping-fails", "defect", "the import with the saved mapping exited %s: %s"
                       % (again["returncode"], again["stderr"].strip()[:300]))]
    sigs = []
    first = sqlite3.connect(os.path.join(result["directory"], STORE))
    second = sqlite3.connect(again["store"])
    try:
        tables = sorted(r[0] for r in first.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
                        if not r[0].startswith("sqlite_") and r[0] != "Z_METADATA")
        for table in tables:
            rows = [sorted(db.execute('SELECT * FROM "%s"' % table).fetchall(), key=repr) for db in (first, second)]
            if rows[0] != rows[1]:
                sigs.append(signal("saved-mapping-differs", "defect", "%s differs with the saved mapping (%d rows against %d)"
                                   % (table, len(rows[0]), len(rows[1]))))
    except sqlite3.Error as e:
        sigs.append(signal("saved-mapping-differs", "defect", "cannot compare the stores: %s" % e))
    finally:
        first.close()
        second.close()
    lines = [sorted((p, l) for p, l, _ in read_rejects(data)) for data in (result["rejects_after"], again["rejects"])]
    if lines[0] != lines[1]:
        sigs.append(signal("saved-mapping-differs", "defect", "the rejected lines differ with the saved mapping: %s against %s"
                           % (lines[0][:5], lines[1][:5])))
    return sigs


def evaluate(case, result):
    """Every invariant for one run; returns the list of signals."""
    lines = result["lines"]
    files = {f["path"]: f for f in case["files"]}
    data_lines, blank_counts, read_counts = {}, {}, {}
    abort_oracle = Replayer(case)
    plan_files = {fp["path"]: fp for fp in abort_oracle.plan.files}
    for path, starts in lines.items():
        fp = plan_files[path]
        if fp.get("escape"):
            # Escape-mode files: the records the escape rules read from the bytes (escaped.records).
            pairs = [(r, l) for l, r in escaped.records(files[path], fp["trim"], fp["tokens"])]
        else:
            pairs = [(r, l) for r, l in zip(files[path]["rows"], starts)]
            pairs = [(None if Replayer.is_blank(r) else r, l) for r, l in pairs]
        data_lines[path] = {l for r, l in pairs if r is not None}
        blank_counts[path] = sum(1 for r, l in pairs if r is None)
        read_counts[path] = len(pairs)
    problems, _ = abort_oracle.run(lines)
    sigs = check_exit(case, result, problems)
    if result["returncode"] != 0:
        return sigs
    sigs += check_resaved(result)
    unsure = any(p[3] for p in problems)
    if case["options"]["on_error"] == "abort":
        if problems:
            p = problems[0]
            sigs.append(signal("abort-accepted-bad-row", "review" if p[3] else "defect",
                               "abort mode exited 0, but %s:%d is bad (%s)" % p[:3]))
            return sigs
        accepted = None
        rejects = []
    else:
        rejects = read_rejects(result["rejects_after"])
        rejected = {(p, l) for p, l, _ in rejects}
        accepted = {path: {l for l in dl if (path, l) not in rejected} for path, dl in data_lines.items()}
    sigs += check_accounting(case, result, rejects, data_lines, blank_counts, read_counts)
    replayer = Replayer(case)
    replay_problems, rejected_names = replayer.run(lines, accepted)
    unsure = unsure or any(p[3] for p in replay_problems)
    kinds = {"value": "bad-row-accepted", "key": "accepted-row-names-nothing", "removed": "accepted-row-names-removed",
             "forward": "accepted-forward-key-unset", "taken": "accepted-row-takes-required"}
    for path, line, reason, is_unsure, kind in replay_problems:
        sigs.append(signal(kinds[kind], "review" if is_unsure else "defect", "%s:%d imported, but %s" % (path, line, reason)))
    store_path = os.path.join(result["directory"], STORE)
    store = Store(store_path, replayer.plan)
    try:
        sigs += check_store_integrity(store, replayer.plan)
        for name, s in (result["summary"] or {}).get("objects", {}).items():
            if name in store.objects and s["stored"] != len(store.objects[name]):
                sigs.append(signal("summary-stored", "defect", "%s: summary stored %d, table has %d" % (name, s["stored"], len(store.objects[name]))))
        sigs += compare(case, replayer, store, unsure)
        if accepted is not None:
            def stands_alone(path, line):
                # The accepted rows with this one back; rows the replay then finds bad are refused in
                # turn, until the replay finds none (the row stands) or finds the row itself bad.
                back = {p: set(ls) | ({line} if p == path else set()) for p, ls in accepted.items()}
                for _ in range(20):
                    problems, _ = Replayer(case).run(lines, back)
                    if not problems:
                        return True
                    if any(p[0] == path and p[1] == line for p in problems):
                        return False
                    for p in problems:
                        back[p[0]].discard(p[1])
                return True
            sigs += over_rejections(replayer, rejected_names, stands_alone)
    finally:
        store.db.close()
    # (A link that would leave a required partner one-sided refuses its row since limitation 3 was
    # fixed: an asymmetric pair is a defect.)
    return sigs
