"""Running: writes a case to a scratch directory and runs `seedstore import` on it.

Every import runs under `nice -n 19`, one at a time, from inside the case directory with relative
paths, so the recorded command reproduces as it is.
"""

import json
import os
import shlex
import shutil
import subprocess
import time

from .csvfiles import write_case

STORE = "store.sqlite"
DEFAULT_REJECTS = "store.rejects.csv"
EXPLICIT_REJECTS = "rejects.csv"
SUMMARY = "summary.json"
SAVED_MAPPING = "saved.mapping.json"
RESAVED_STORE = "resaved.sqlite"
RESAVED_REJECTS = "resaved.rejects.csv"
TIMEOUT_SECONDS = 120


def command(case, binary="seedstore"):
    """The import command line for a case (a list of arguments, paths relative to its directory)."""
    o = case["options"]
    args = [binary, "import", "--mapping", "mapping.json", "--out", STORE, "--progress", "none",
            "--summary-json", SUMMARY]
    if o["on_error"] == "skip":
        args += ["--on-error", "skip"]
        if o.get("rejects"):
            args += ["--rejects", EXPLICIT_REJECTS]
    args += ["--batch-size", str(o["batch_size"])]
    if o.get("key_memory"):
        args += ["--key-memory", str(o["key_memory"])]
    if o.get("forward_key_limit") is not None:
        args += ["--forward-key-limit", str(o["forward_key_limit"])]
    if o.get("read_ahead") is True:
        args.append("--read-ahead")
    elif o.get("read_ahead") is False:
        args.append("--no-read-ahead")
    if o.get("encoding_flag"):
        args += ["--encoding", o["encoding_flag"]]
    if o.get("decimal_comma_flag"):
        args.append("--decimal-comma")
    if o.get("skip_lines_flag"):
        args += ["--skip-lines", str(o["skip_lines_flag"])]
    if o.get("escape_flag"):
        args += ["--escape", o["escape_flag"]]
    if o.get("quote_flag"):
        args += ["--quote", o["quote_flag"]]
    if o.get("trim_flag") is True:
        args.append("--trim")
    elif o.get("trim_flag") is False:
        args.append("--no-trim")
    if o.get("save_mapping"):
        args += ["--save-mapping", SAVED_MAPPING]
    return args


def resaved_command(case, binary="seedstore"):
    """The import again with the saved mapping alone: the flags it holds (--encoding, --decimal-comma,
    --skip-lines, --trim/--no-trim, --escape, --quote) left out, into a store and rejects file of its own."""
    o = case["options"]
    args = [binary, "import", "--mapping", SAVED_MAPPING, "--out", RESAVED_STORE, "--progress", "none",
            "--batch-size", str(o["batch_size"])]
    if o["on_error"] == "skip":
        args += ["--on-error", "skip", "--rejects", RESAVED_REJECTS]
    if o.get("key_memory"):
        args += ["--key-memory", str(o["key_memory"])]
    if o.get("forward_key_limit") is not None:
        args += ["--forward-key-limit", str(o["forward_key_limit"])]
    return args


def rejects_path(case):
    """The rejects file the import writes in skip mode (relative to the case directory)."""
    return EXPLICIT_REJECTS if case["options"].get("rejects") else DEFAULT_REJECTS


def _read(path):
    """A file's bytes, or None when it does not exist."""
    try:
        with open(path, "rb") as f:
            return f.read()
    except FileNotFoundError:
        return None


def _env(case):
    """The import's environment: with `failure_memory`, SEEDSTORE_FAILURE_MEMORY, so the failures of
    rows rejected late go to the temporary file from that many bytes (0: every one)."""
    env = dict(os.environ)
    if case["options"].get("failure_memory") is not None:
        env["SEEDSTORE_FAILURE_MEMORY"] = str(case["options"]["failure_memory"])
    return env


def _exec(args, cwd, env=None):
    """Runs one import under nice; (returncode, stdout, stderr, timed_out, seconds)."""
    start = time.time()
    try:
        p = subprocess.run(["nice", "-n", "19"] + args, cwd=cwd, capture_output=True, timeout=TIMEOUT_SECONDS, env=env)
        return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace"), False, time.time() - start
    except subprocess.TimeoutExpired as e:
        return None, (e.stdout or b"").decode("utf-8", "replace"), (e.stderr or b"").decode("utf-8", "replace"), True, time.time() - start


def run_case(case, binary, directory):
    """Writes the case into `directory` (emptied first) and imports it; returns what happened.

    With `previous_store`, the same import is first run in skip mode (without --summary-json) to
    leave a store, and a rejects file, in place; their bytes are kept to check that a failed
    import leaves them as they were.
    """
    shutil.rmtree(directory, ignore_errors=True)
    lines = write_case(case, directory)
    args = command(case, binary)
    result = {"lines": lines, "command": command(case), "directory": directory, "imports": 0}
    if case["options"].get("previous_store"):
        prev = [a for a in command(dict(case, options=dict(case["options"], on_error="skip")), binary)]
        i = prev.index("--summary-json")
        del prev[i:i + 2]
        rc, _, _, _, _ = _exec(prev, directory, _env(case))
        result["imports"] += 1
        result["previous_rc"] = rc
    result["store_before"] = _read(os.path.join(directory, STORE))
    result["rejects_before"] = _read(os.path.join(directory, rejects_path(case)))
    before = set(os.listdir(directory))
    rc, out, err, timed_out, seconds = _exec(args, directory, _env(case))
    result["imports"] += 1
    result.update(returncode=rc, stdout=out, stderr=err, timed_out=timed_out, seconds=seconds)
    result["new_files"] = sorted(set(os.listdir(directory)) - before)
    result["leftovers"] = sorted(n for n in os.listdir(directory) if ".importing" in n)
    result["store_after"] = _read(os.path.join(directory, STORE))
    result["rejects_after"] = _read(os.path.join(directory, rejects_path(case)))
    if case["options"].get("save_mapping") and rc == 0:
        rc2, _, err2, timed_out2, _ = _exec(resaved_command(case, binary), directory, _env(case))
        result["imports"] += 1
        result["resaved"] = {"returncode": rc2, "stderr": err2, "timed_out": timed_out2,
                             "store": os.path.join(directory, RESAVED_STORE),
                             "rejects": _read(os.path.join(directory, RESAVED_REJECTS))}
    summary = _read(os.path.join(directory, SUMMARY)) if rc == 0 else None
    try:
        result["summary"] = json.loads(summary) if summary else None
    except ValueError:
        result["summary"] = None
    return result


def shell_command(case):
    """The command as one shell line, for reports."""
    return " ".join(shlex.quote(a) for a in command(case))
