#!/usr/bin/env python3
"""Differential/invariant fuzzer for `seedstore import` (see README.md next to this file).

    python3 scripts/fuzz/fuzz.py run --minutes 10 --start 1 [--bin PATH]
    python3 scripts/fuzz/fuzz.py one SEED [--bin PATH] [--keep]
    python3 scripts/fuzz/fuzz.py case NAME... [--bin PATH]      # reduced cases under cases/
    python3 scripts/fuzz/fuzz.py minimize SEED [--kind KIND] [--bin PATH]

Standard library only. Scratch files go under $FUZZ_WORK (default /tmp/fuzzwork).
"""

import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from fuzzer import check, gen, minimize, runner  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
WORK = os.environ.get("FUZZ_WORK", "/tmp/fuzzwork")
DEFAULT_BIN = os.path.join(HERE, "..", "..", ".build", "release", "seedstore")


def evaluate_case(case, binary, directory):
    """Runs one case and checks it; (signals, run result)."""
    result = runner.run_case(case, binary, directory)
    return check.evaluate(case, result), result


def apply_overrides(case, args):
    """Command-line overrides of a case's options (for `one`)."""
    o = case["options"]
    if getattr(args, "on_error", None):
        o["on_error"] = args.on_error
        o["rejects"] = args.on_error == "skip"
    if getattr(args, "batch_size", None):
        o["batch_size"] = args.batch_size
    if getattr(args, "key_memory", None):
        o["key_memory"] = args.key_memory
    # -1: the default (no --forward-key-limit, for a build without the option).
    if getattr(args, "forward_key_limit", None) is not None:
        o["forward_key_limit"] = None if args.forward_key_limit < 0 else args.forward_key_limit
    return case


def generate(seed):
    """The case for `seed`, with the forward keys kept in memory before they move to a temporary file
    chosen by seed (--forward-key-limit: the default, 0, 1 or 3), and whether the mapping is saved and
    imported again (a third of seeds), which leaves the generator's draws as they were."""
    case = gen.generate(seed)
    case["options"]["forward_key_limit"] = [None, 0, 1, 3][seed % 4]
    # A third of seeds also save the mapping with the flags written in (--save-mapping) and import
    # again with it alone: the store must be the same (invariant 6).
    case["options"]["save_mapping"] = seed % 3 == 0
    # Half of seeds keep no failure of a row rejected late in memory (SEEDSTORE_FAILURE_MEMORY=0): reruns
    # read them back from the temporary file.
    case["options"]["failure_memory"] = 0 if seed % 2 == 1 else None
    return case


def focus(case, name):
    """Narrows a case to a focus (or returns False to skip the seed).

    deptinfo: a keyed DeptInfo linked one-to-one to Dept with forward keys, imported in skip mode
    with --key-memory 1 --batch-size 1 (the "cannot read back ... DeptInfo" defect's conditions).
    abort: every seed in abort mode, where forward keys are set as their rows come (within a batch
    or after the next save), with the case's batch size.
    """
    if name == "abort":
        case["options"].update(on_error="abort", rejects=False)
        return True
    if name == "deptinfo":
        targets = [t for f in case["mapping"]["files"] for t in f.get("targets", [])]
        if not any(t["entity"] == "DeptInfo" and t.get("key") for t in targets):
            return False
        if not any(t["entity"] == "Dept" and "relationships" in t for t in targets):
            return False
        case["options"].update(on_error="skip", batch_size=1, key_memory=1, rejects=True)
        return True
    raise SystemExit("unknown focus %r" % name)


def cmd_run(args):
    """Fuzzes seeds from --start on for --minutes (or --count seeds); logs signals to a JSONL file."""
    deadline = time.time() + args.minutes * 60
    seed, imports, runs = args.start, 0, 0
    log_path = os.path.join(WORK, "signals-%d.jsonl" % args.start)
    os.makedirs(WORK, exist_ok=True)
    counts = {}
    with open(log_path, "a") as log:
        while time.time() < deadline and (args.count is None or runs < args.count):
            case = generate(seed)
            if args.focus and not focus(case, args.focus):
                seed += 1
                continue
            try:
                sigs, result = evaluate_case(case, args.bin, os.path.join(WORK, "run"))
            except Exception as error:  # a fuzzer bug: report it, go on
                sigs, result = [check.signal("fuzzer-error", "review", repr(error))], {"imports": 1}
            imports += result.get("imports", 1)
            runs += 1
            for s in sigs:
                counts[(s["kind"], s["class"])] = counts.get((s["kind"], s["class"]), 0) + 1
            if sigs:
                log.write(json.dumps({"seed": seed, "options": case["options"], "signals": sigs}) + "\n")
                log.flush()
                worst = sorted({(s["class"], s["kind"]) for s in sigs})
                print("seed %d: %s" % (seed, ", ".join("%s/%s" % w for w in worst)), flush=True)
            seed += 1
    print("\n%d seeds (%d..%d), %d imports; signals in %s" % (runs, args.start, seed - 1, imports, log_path))
    for (kind, cls), n in sorted(counts.items()):
        print("  %-8s %-28s %d" % (cls, kind, n))


def cmd_one(args):
    """Runs one seed verbosely: the case, the command, the outcome and every signal."""
    case = apply_overrides(generate(args.seed), args)
    if args.focus:
        focus(case, args.focus)
    directory = os.path.join(WORK, "one-%d" % args.seed)
    sigs, result = evaluate_case(case, args.bin, directory)
    print("case directory: %s" % directory)
    print("command: (cd %s && %s)" % (directory, runner.shell_command(case)))
    print("exit %s in %.2f s" % (result["returncode"], result["seconds"]))
    if args.verbose:
        print(result["stdout"])
        print(result["stderr"])
    for s in sigs:
        print("  [%s] %s: %s" % (s["class"], s["kind"], s["detail"]))
    if not sigs:
        print("  no signals")
    with open(os.path.join(directory, "case.json"), "w") as f:
        json.dump(case, f, indent=1)


def cmd_case(args):
    """Re-checks reduced cases (cases/<name>/case.json) with the current binary: their signals now."""
    for name in args.names:
        path = name if os.path.isdir(name) else os.path.join(HERE, "cases", name)
        with open(os.path.join(path, "case.json")) as f:
            case = json.load(f)
        sigs, result = evaluate_case(case, args.bin, os.path.join(WORK, "case"))
        worst = sorted({"%s/%s" % (s["class"], s["kind"]) for s in sigs})
        print("%s: exit %s, %s" % (os.path.basename(path.rstrip("/")), result["returncode"], ", ".join(worst) or "no signals"))


def cmd_minimize(args):
    """Minimizes one seed's failing case and writes it to cases/<kind>-<seed>/."""
    case = apply_overrides(generate(args.seed), args)
    if args.focus:
        focus(case, args.focus)
    out = minimize.minimize_seed(case, args.bin, WORK, os.path.join(HERE, "cases"), kind=args.kind,
                                 cls=args.cls, log=print)
    print(out or "no signal to minimize")


def main(argv=None):
    """Command-line entry point."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run", help="fuzz many seeds")
    r.add_argument("--minutes", type=float, default=5)
    r.add_argument("--start", type=int, default=1)
    r.add_argument("--count", type=int, default=None, help="stop after this many seeds")
    r.add_argument("--focus", choices=["deptinfo", "abort"], help="only seeds fitting a focus, with its options")
    o = sub.add_parser("one", help="re-run one seed verbosely")
    o.add_argument("seed", type=int)
    o.add_argument("-v", "--verbose", action="store_true", help="print the importer's output")
    c = sub.add_parser("case", help="re-check reduced cases with the current binary")
    c.add_argument("names", nargs="+", help="directories under cases/ (or paths)")
    m = sub.add_parser("minimize", help="reduce one seed's failing case")
    m.add_argument("seed", type=int)
    m.add_argument("--kind", help="the signal kind to keep (default: the first defect's)")
    m.add_argument("--class", dest="cls", help="the signal class to keep (default: that signal's)")
    for q in (o, m):
        q.add_argument("--focus", choices=["deptinfo", "abort"], help="apply a focus's options")
        q.add_argument("--on-error", choices=["skip", "abort"])
        q.add_argument("--batch-size", type=int)
        q.add_argument("--key-memory", type=int)
        q.add_argument("--forward-key-limit", type=int, help="forward keys kept in memory (-1: the default)")
    for q in (r, o, m, c):
        q.add_argument("--bin", default=DEFAULT_BIN, help="the seedstore binary (default: .build/release/seedstore)")
    args = p.parse_args(argv)
    args.bin = os.path.abspath(args.bin)
    {"run": cmd_run, "one": cmd_one, "case": cmd_case, "minimize": cmd_minimize}[args.command](args)


if __name__ == "__main__":
    main()
