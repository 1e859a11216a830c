"""Minimizing: delta-debugs a failing case while one signal (kind and class) persists.

Reductions, repeated until none helps:
  1. options: no previous store, no read-ahead thread, default key memory, big batches, explicit rejects;
  2. rows of each file (ddmin: chunks, then single rows);
  3. files (a mapping entry with its CSV);
  4. attributes other than keys (model, mapping column, CSV column);
  5. relationships (both sides, their mapping entries and CSV columns).

The result goes to cases/<kind>-<seed>/ with model, mapping, CSVs, case.json, command.sh and
expected-vs-actual.txt, and a line in cases/INDEX.txt.
"""

import copy
import json
import os
import shutil

from . import check, runner


class Minimizer:
    """Holds the case being reduced and the test that says whether a candidate still fails."""

    def __init__(self, case, binary, work, kind, cls, log):
        self.case = case
        self.binary = binary
        self.work = work
        self.kind = kind
        self.cls = cls
        self.log = log
        self.runs = 0

    def fails(self, candidate):
        """Whether the candidate still shows the signal (kind and class)."""
        self.runs += 1
        try:
            result = runner.run_case(candidate, self.binary, os.path.join(self.work, "min"))
            sigs = check.evaluate(candidate, result)
        except Exception:
            return False
        return any(s["kind"] == self.kind and s["class"] == self.cls for s in sigs)

    def attempt(self, candidate):
        """Keeps the candidate when it still fails; returns whether it did."""
        if self.fails(candidate):
            self.case = candidate
            return True
        return False

    # -- reductions -------------------------------------------------------------------------------

    def options(self):
        """Simplifies the command-line options one at a time."""
        for key, value in (("previous_store", False), ("read_ahead", False), ("key_memory", None), ("forward_key_limit", None),
                           ("batch_size", 10000), ("rejects", self.case["options"]["on_error"] == "skip")):
            if self.case["options"].get(key) != value:
                c = copy.deepcopy(self.case)
                c["options"][key] = value
                self.attempt(c)

    def rows(self):
        """ddmin over the rows of each file."""
        changed = False
        for fi in range(len(self.case["files"])):
            chunk = max(1, len(self.case["files"][fi]["rows"]) // 2)
            while chunk >= 1:
                i = 0
                while i < len(self.case["files"][fi]["rows"]):
                    c = copy.deepcopy(self.case)
                    del c["files"][fi]["rows"][i:i + chunk]
                    if self.attempt(c):
                        changed = True
                    else:
                        i += chunk
                chunk //= 2
        return changed

    def files(self):
        """Drops whole files (mapping entry and CSV)."""
        changed = False
        i = 0
        while i < len(self.case["files"]):
            c = copy.deepcopy(self.case)
            path = c["files"][i]["path"]
            del c["files"][i]
            c["mapping"]["files"] = [f for f in c["mapping"]["files"] if f["path"] != path]
            if c["files"] and self.attempt(c):
                changed = True
            else:
                i += 1
        return changed

    def _drop_column(self, c, path, column):
        """Removes a column from a file's header and rows."""
        for f in c["files"]:
            if f["path"] == path and column in f["header"]:
                k = f["header"].index(column)
                del f["header"][k]
                for row in f["rows"]:
                    if row is not None and len(row) > k:
                        del row[k]

    def attributes(self):
        """Drops non-key attributes from the model, the mapping and the CSVs."""
        changed = False
        for ent in [e["name"] for e in self.case["model"]["entities"]]:
            names = [a["name"] for e in self.case["model"]["entities"] if e["name"] == ent for a in e["attributes"]]
            for name in names:
                if name == "code":
                    continue
                c = copy.deepcopy(self.case)
                for e in c["model"]["entities"]:
                    if e["name"] == ent:
                        e["attributes"] = [a for a in e["attributes"] if a["name"] != name]
                        if not e["attributes"]:
                            break
                else:
                    for mf in c["mapping"]["files"]:
                        for t in mf.get("targets", []):
                            if t["entity"] == ent and name in t.get("columns", {}):
                                spec = t["columns"].pop(name)
                                column = spec["column"] if isinstance(spec, dict) else spec
                                still = any(column == (s["column"] if isinstance(s, dict) else s)
                                            for u in mf["targets"] for s in u.get("columns", {}).values())
                                if not still:
                                    self._drop_column(c, mf["path"], column)
                    if self.attempt(c):
                        changed = True
        return changed

    def relationships(self):
        """Drops relationship pairs not used by a link or join, with their mapping and columns."""
        changed = False
        pairs = []
        for e in self.case["model"]["entities"]:
            for r in e.get("relationships", []):
                if (r["destination"], r["inverse"]) not in pairs:
                    pairs.append((e["name"], r["name"]))
        for ent, rel in pairs:
            c = copy.deepcopy(self.case)
            ents = {e["name"]: e for e in c["model"]["entities"]}
            r = next((x for x in ents[ent]["relationships"] if x["name"] == rel), None)
            if r is None:
                continue
            dest, inverse = r["destination"], r["inverse"]
            ents[ent]["relationships"] = [x for x in ents[ent]["relationships"] if x["name"] != rel]
            ents[dest]["relationships"] = [x for x in ents[dest]["relationships"] if x["name"] != inverse]
            used = False
            for mf in c["mapping"]["files"]:
                if "join" in mf and {(mf["join"]["entity"], mf["join"]["relationship"])} & {(ent, rel), (dest, inverse)}:
                    used = True
                for t in mf.get("targets", []):
                    link = t.get("link")
                    if link and (t["entity"], link["relationship"]) in ((ent, rel), (dest, inverse)):
                        used = True
                    for side, name in ((ent, rel), (dest, inverse)):
                        if t["entity"] == side and name in t.get("relationships", {}):
                            column = t["relationships"].pop(name)["column"]
                            self._drop_column(c, mf["path"], column)
                    if "relationships" in t and not t["relationships"]:
                        del t["relationships"]
            if not used and self.attempt(c):
                changed = True
        return changed

    def run(self):
        """All reductions until a fixed point."""
        self.options()
        while True:
            changed = self.rows()
            changed |= self.files()
            changed |= self.attributes()
            changed |= self.relationships()
            if not changed:
                break
        self.options()
        return self.case


def first_signal(sigs):
    """The signal to minimize by default: the first defect, else the first review, else known."""
    for cls in ("defect", "review", "known"):
        for s in sigs:
            if s["class"] == cls:
                return s
    return None


def write_reproduction(case, sigs, result, kind, directory, index):
    """Writes a minimized case to `directory` and appends its line to `index`."""
    shutil.rmtree(directory, ignore_errors=True)
    from .csvfiles import write_case
    write_case(case, directory)
    with open(os.path.join(directory, "case.json"), "w") as f:
        json.dump(case, f, indent=1)
    with open(os.path.join(directory, "command.sh"), "w") as f:
        f.write("#!/bin/sh\n# Run from this directory; SEEDSTORE is the seedstore binary.\n")
        f.write('cd "$(dirname "$0")" && rm -f store.sqlite store.rejects.csv rejects.csv summary.json\n')
        if case["options"].get("previous_store"):
            f.write("# first a previous store (the same import in skip mode):\n")
            prev = runner.command(dict(case, options=dict(case["options"], on_error="skip")), "${SEEDSTORE:-seedstore}")
            f.write(" ".join(prev) + "\n")
        f.write(" ".join(runner.command(case, "${SEEDSTORE:-seedstore}")) + "\n")
    os.chmod(os.path.join(directory, "command.sh"), 0o755)
    with open(os.path.join(directory, "expected-vs-actual.txt"), "w") as f:
        f.write("command: %s\nexit code: %s\n\nsignals (what should hold vs what happened):\n" % (
            runner.shell_command(case), result["returncode"]))
        for s in sigs:
            f.write("  [%s] %s: %s\n" % (s["class"], s["kind"], s["detail"]))
        f.write("\n--- stdout ---\n%s\n--- stderr ---\n%s\n" % (result["stdout"], result["stderr"]))
        if result.get("rejects_after"):
            f.write("\n--- rejects file ---\n%s\n" % result["rejects_after"].decode("utf-8", "replace"))
    main = next((s for s in sigs if s["kind"] == kind), sigs[0])
    line = "%s\t%s\t%s\t%s\n" % (os.path.basename(directory), main["class"], main["kind"], main["detail"][:200].replace("\n", " "))
    lines = []
    if os.path.exists(index):
        with open(index) as f:
            lines = [l for l in f if not l.startswith(os.path.basename(directory) + "\t")]
    with open(index, "w") as f:
        f.writelines(lines + [line])


def minimize_seed(case, binary, work, cases_dir, kind=None, cls=None, log=print):
    """Minimizes the case for one signal and writes the reproduction; returns its directory."""
    result = runner.run_case(case, binary, os.path.join(work, "min"))
    sigs = check.evaluate(case, result)
    if kind:
        target = next((s for s in sigs if s["kind"] == kind and (cls is None or s["class"] == cls)), None)
    else:
        target = first_signal(sigs)
    if target is None:
        return None
    m = Minimizer(case, binary, work, target["kind"], target["class"], log)
    log("minimizing %s/%s: %s" % (target["class"], target["kind"], target["detail"][:160]))
    small = m.run()
    result = runner.run_case(small, binary, os.path.join(work, "min"))
    sigs = check.evaluate(small, result)
    directory = os.path.join(cases_dir, "%s-%d" % (target["kind"], case["seed"]))
    write_reproduction(small, sigs, result, target["kind"], directory, os.path.join(cases_dir, "INDEX.txt"))
    log("%d runs; rows left: %s" % (m.runs, {f["path"]: len(f["rows"]) for f in small["files"]}))
    return directory
