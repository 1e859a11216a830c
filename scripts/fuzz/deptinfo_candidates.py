"""Candidates for the "cannot read back ... DeptInfo" internal error that gen.py does not make.

A later file filling DeptInfo again (keyed, its host set from a column), a relationship column keyed
on DeptInfo (Emp.info) and a join file keyed on DeptInfo (DeptInfo.tags, many-to-many with Tag), after a depts.csv of Dept + DeptInfo linked one-to-one with forward manager
keys, some never coming; skip mode, --key-memory 1, batch sizes from 1, every --forward-key-limit
kind, reading ahead or not. It checks only for what no import may do: an internal error, a crash, or
a failure other than a Deny rule stopping a removal (no oracle: fuzz.py judges values).

    python3 scripts/fuzz/deptinfo_candidates.py .build/release/seedstore 3000 1

Cases that fail are kept under $FUZZ_WORK/deptinfo-bad-SEED.
"""
import json, os, random, subprocess, sys, shutil
BIN = os.path.abspath(sys.argv[1])
WORK = os.environ.get("FUZZ_WORK", "/tmp/fuzzwork")
N = int(sys.argv[2]); START = int(sys.argv[3])
model = {"entities": [
 {"name": "Dept", "attributes": [{"name": "code", "type": "String", "optional": False}],
  "relationships": [{"name": "mgr", "destination": "Dept", "inverse": "reports", "toMany": False, "deleteRule": "Cascade"},
                    {"name": "reports", "destination": "Dept", "inverse": "mgr", "toMany": True, "deleteRule": "Nullify"},
                    {"name": "info", "destination": "DeptInfo", "inverse": "host", "toMany": False, "deleteRule": "Nullify"},
                    {"name": "emps", "destination": "Emp", "inverse": "dept", "toMany": True, "deleteRule": "Nullify"}]},
 {"name": "DeptInfo", "attributes": [{"name": "code", "type": "String", "optional": False}, {"name": "ratio", "type": "Double"}],
  "relationships": [{"name": "host", "destination": "Dept", "inverse": "info", "toMany": False, "deleteRule": "Deny", "optional": False},
                    {"name": "emps", "destination": "Emp", "inverse": "info", "toMany": True, "deleteRule": "Nullify"},
                    {"name": "tags", "destination": "Tag", "inverse": "infos", "toMany": True, "deleteRule": "Nullify"}]},
 {"name": "Tag", "attributes": [{"name": "code", "type": "String", "optional": False}],
  "relationships": [{"name": "infos", "destination": "DeptInfo", "inverse": "tags", "toMany": True, "deleteRule": "Nullify"}]},
 {"name": "Emp", "attributes": [{"name": "code", "type": "String", "optional": False}],
  "relationships": [{"name": "info", "destination": "DeptInfo", "inverse": "emps", "toMany": False, "deleteRule": "Nullify"},
                    {"name": "dept", "destination": "Dept", "inverse": "emps", "toMany": False, "deleteRule": "Nullify"}]}]}
def case(seed):
    """One seed's files, mapping and options."""
    r = random.Random(seed)
    n = r.randint(2, 14)
    codes = ["D%02d" % i for i in range(n)]
    infos = ["I%02d" % i for i in range(r.randint(1, n + 2))]
    rows = []
    for c in codes + [r.choice(codes) for _ in range(r.randint(0, 3))]:
        mgr = r.choice(codes + ["", "", "X%d" % r.randint(0, 3)])
        rows.append("%s,%s,%s" % (c, mgr, r.choice(infos)))
    r.shuffle(rows)
    depts = "code,mgr,i_code\n" + "\n".join(rows) + "\n"
    irows = ["%s,%s,%s" % (r.choice(infos + ["I99"]), r.choice(["1.5", "2", "x", ""]), r.choice(codes + ["D99", ""])) for _ in range(r.randint(0, 8))]
    infocsv = "code,ratio,host\n" + "\n".join(irows) + "\n"
    erows = ["E%02d,%s,%s" % (i, r.choice(infos + ["I98", ""]), r.choice(codes + ["", "D99"])) for i in range(r.randint(0, 10))]
    emps = "code,info_code,dept\n" + "\n".join(erows) + "\n"
    files = [{"path": "depts.csv", "targets": [
        {"entity": "Dept", "key": "code", "columns": {"code": "code"}, "relationships": {"mgr": {"column": "mgr", "destinationKey": "code"}}},
        {"entity": "DeptInfo", "key": "code", "link": {"relationship": "host", "target": "Dept"}, "columns": {"code": "i_code", "ratio": None}}]}]
    if r.random() < 0.7:
        files.append({"path": "infos.csv", "targets": [{"entity": "DeptInfo", "key": "code", "relationships": {"host": {"column": "host", "destinationKey": "code"}}}]})
    if r.random() < 0.7:
        files.append({"path": "emps.csv", "targets": [{"entity": "Emp", "key": "code", "relationships": {
            "info": {"column": "info_code", "destinationKey": "code"}, "dept": {"column": "dept", "destinationKey": "code"}}}]})
    mapping = {"format": 1, "model": "model.json", "files": files}
    opts = ["--on-error", "skip", "--batch-size", str(r.choice([1, 1, 2, 3, 100])), "--key-memory", "1",
            "--forward-key-limit", str(r.choice([0, 1, 3, 1000])), r.choice(["--read-ahead", "--no-read-ahead"])]
    # Drawn last, so the cases without it stay what they were.
    tags = ["T%d" % i for i in range(r.randint(1, 4))]
    tagcsv = "code\n" + "\n".join(tags) + "\n"
    jrows = ["%s,%s" % (r.choice(infos + ["I97", ""]), r.choice(tags + ["T9"])) for _ in range(r.randint(0, 12))]
    joincsv = "info,tag\n" + "\n".join(jrows) + "\n"
    if r.random() < 0.6:
        files.append({"path": "tags.csv", "targets": [{"entity": "Tag", "key": "code"}]})
        files.append({"path": "infotags.csv", "join": {"entity": "DeptInfo", "relationship": "tags", "sourceColumn": "info",
                                                       "sourceKey": "code", "destinationColumn": "tag", "destinationKey": "code"}})
    return depts, infocsv, emps, mapping, opts, tagcsv, joincsv
bad = 0
for seed in range(START, START + N):
    d = os.path.join(WORK, "deptinfo-case")
    shutil.rmtree(d, ignore_errors=True); os.makedirs(d)
    depts, infocsv, emps, mapping, opts, tagcsv, joincsv = case(seed)
    open(d + "/depts.csv", "w").write(depts); open(d + "/infos.csv", "w").write(infocsv); open(d + "/emps.csv", "w").write(emps)
    open(d + "/tags.csv", "w").write(tagcsv); open(d + "/infotags.csv", "w").write(joincsv)
    json.dump(model, open(d + "/model.json", "w")); json.dump(mapping, open(d + "/mapping.json", "w"))
    p = subprocess.run([BIN, "import", "--mapping", "mapping.json", "--out", "s.sqlite", "--progress", "none"] + opts, cwd=d, capture_output=True, text=True, timeout=60)
    err = p.stderr
    if p.returncode not in (0,) or "internal" in err or "cannot read back" in err or "Fatal" in err:
        if p.returncode == 1 and "Deny" in err:
            continue
        bad += 1
        print("seed", seed, "rc", p.returncode, err.strip().splitlines()[:3])
        if bad > 5: break
        shutil.copytree(d, os.path.join(WORK, "deptinfo-bad-%d" % seed), dirs_exist_ok=True)
print("done", N, "bad", bad)
