#!/usr/bin/python3
"""diff_replay: differential test of `scopa replay --json --legal` against
the Python reference (refscopa.py).

    python3 diff_replay.py --scopa build/scopa --seed S --count N
    python3 diff_replay.py --scopa build/scopa --records DIR   (saved records)
    python3 diff_replay.py --self-test          (refscopa vs /work/shared/examples)

For each record it compares the exit status and the parsed JSON: for a
valid record the whole object (types exact: 1 is not true, 11 is not 11.0),
with each `legal` list compared as a multiset of moves with the captured
cards sorted; for an invalid one `valid`, `error.round` and `error.move`,
and that `error.message` is a non-empty string.  The first disagreements are
shown in full (the records are kept in --fail-dir), each with the reading of
RULES.md (README.md) under which the reference would agree, if any, and a
shrunk record that still disagrees.  The last line is "N passed, M failed";
the exit status is 1 if any failed.
"""

import argparse
import concurrent.futures
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import refscopa  # noqa: E402
import gen_records  # noqa: E402

EXAMPLES = "/work/shared/examples"
LEGAL_ENTRY = re.compile(r"\.legal\[\d+\]$")


# ---------------------------------------------------------------- running

def run_binary(binary, path, timeout, stdin=False):
    """(exit status, stdout text, stderr text); status None on timeout.
    With stdin, the record is given as FILE "-" on standard input."""
    try:
        if stdin:
            with open(path, "rb") as f:
                p = subprocess.run([binary, "replay", "--json", "--legal", "-"], stdin=f,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   timeout=timeout)
        else:
            p = subprocess.run([binary, "replay", "--json", "--legal", path],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, "", "timed out after %ss" % timeout
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def run_reference(path):
    with open(path, "rb") as f:
        return refscopa.replay_text(f.read(), legal=True)


def with_reading(key, value, fn):
    old = refscopa.READINGS[key]
    refscopa.READINGS[key] = value
    try:
        return fn()
    finally:
        refscopa.READINGS[key] = old


# ---------------------------------------------------------------- comparing

def normalize(obj):
    """Legal lists -> sorted lists of normalized moves (duplicates kept)."""
    if not isinstance(obj, dict):
        return obj
    out = dict(obj)
    if isinstance(out.get("rounds"), list):
        rounds = []
        for r in out["rounds"]:
            if isinstance(r, dict) and isinstance(r.get("legal"), list):
                r = dict(r)
                r["legal"] = [sorted(refscopa.normalize_move(m) if isinstance(m, str) else repr(m)
                                     for m in l) if isinstance(l, list) else l
                              for l in r["legal"]]
            rounds.append(r)
        out["rounds"] = rounds
    return out


def tname(v):
    return {bool: "bool", int: "int", float: "float", str: "string", list: "list",
            dict: "object", type(None): "null"}.get(type(v), type(v).__name__)


def short(v, n=160):
    s = json.dumps(v)
    return s if len(s) <= n else s[:n] + "..."


def deep_diff(a, b, path, out, limit=12):
    """Differences between reference value a and binary value b (exact types)."""
    if len(out) >= limit:
        return
    if type(a) is not type(b):
        out.append("%s: reference %s %s, binary %s %s" % (path, tname(a), short(a), tname(b), short(b)))
        return
    if isinstance(a, dict):
        for k in a:
            if k not in b:
                out.append("%s: binary lacks key %r (reference: %s)" % (path, k, short(a[k])))
        for k in b:
            if k not in a:
                out.append("%s: binary has extra key %r = %s" % (path, k, short(b[k])))
        for k in a:
            if k in b:
                deep_diff(a[k], b[k], "%s.%s" % (path, k), out, limit)
    elif isinstance(a, list) and LEGAL_ENTRY.search(path):
        if a != b:
            sa, sb = set(a), set(x for x in b if isinstance(x, str))
            dup = len(b) != len(set(map(str, b)))
            out.append("%s: only in reference %s, only in binary %s%s" % (
                path, sorted(sa - sb), sorted(map(str, set(b) - sa)),
                " (binary lists a move twice)" if dup else ""))
    elif isinstance(a, list):
        if len(a) != len(b):
            out.append("%s: reference has %d entries, binary %d" % (path, len(a), len(b)))
        for i, (x, y) in enumerate(zip(a, b)):
            deep_diff(x, y, "%s[%d]" % (path, i), out, limit)
    elif a != b:
        out.append("%s: reference %s, binary %s" % (path, short(a), short(b)))


def compare(ref_code, ref_obj, bin_code, bin_out):
    """List of disagreements (empty when they agree)."""
    diffs = []
    try:
        got = json.loads(bin_out)
    except ValueError as e:
        return ["binary stdout is not one JSON object (%s): %s" % (e, short(bin_out[:200]))]
    if not isinstance(got, dict):
        return ["binary stdout is JSON %s, not an object" % tname(got)]
    if bin_code != ref_code:
        diffs.append("exit status: reference %s, binary %s" % (ref_code, bin_code))
    if not ref_obj["valid"]:
        if got.get("valid") is not False:
            diffs.append("valid: reference false, binary %s" % short(got.get("valid")))
            if got.get("valid") is True:
                return diffs
        err = got.get("error")
        if not isinstance(err, dict):
            diffs.append("binary has no error object: %s" % short(got))
            return diffs
        for k in ("round", "move"):
            a, b = ref_obj["error"][k], err.get(k, "<missing>")
            if type(a) is not type(b) or a != b:
                diffs.append("error.%s: reference %s, binary %s" % (k, short(a), short(b)))
        msg = err.get("message")
        if not isinstance(msg, str) or not msg.strip():
            diffs.append("error.message is not a non-empty string: %s" % short(msg))
        if diffs:
            diffs.append("reference message: %s" % ref_obj["error"]["message"])
            if isinstance(msg, str):
                diffs.append("binary message:    %s" % msg)
        for k in got:
            if k not in ("valid", "error"):
                diffs.append("binary has extra key %r in an invalid answer" % k)
        return diffs
    if got.get("valid") is False:
        e = got.get("error") or {}
        diffs.append("valid: reference true, binary false at round %s move %s: %s"
                     % (short(e.get("round")), short(e.get("move")), e.get("message")))
        return diffs
    deep_diff(normalize(ref_obj), normalize(got), "$", diffs)
    return diffs


def legal_context(path, ref_obj, got_obj, limit=3):
    """For legal lists that differ: the position (seat, hand, table) and the
    set differences, reconstructed with the reference."""
    lines = []
    try:
        with open(path, "rb") as f:
            rec = json.loads(f.read())
        rules = refscopa.parse_rules(rec["rules"])
    except Exception:
        return lines
    rr, gr = ref_obj.get("rounds", []), got_obj.get("rounds", [])
    for ri, (a, b) in enumerate(zip(rr, gr)):
        la = a.get("legal") or []
        lb = b.get("legal") if isinstance(b, dict) else None
        if not isinstance(lb, list):
            continue
        for mi, (x, y) in enumerate(zip(la, lb)):
            if not isinstance(y, list):
                continue
            sx = set(refscopa.normalize_move(m) for m in x)
            sy = set(refscopa.normalize_move(m) if isinstance(m, str) else repr(m) for m in y)
            if sx == sy:
                continue
            rd = rec["rounds"][ri]
            rnd = refscopa.Round(rules, rd["dealer"], rd["deck"])
            for m in rd["moves"][:mi]:
                rnd.apply(refscopa.parse_move(m))
            seat = rnd.seat_to_play()
            lines.append("round %d move %d: seat %d holds [%s], table [%s], stock %d left" % (
                ri, mi, seat, " ".join(rnd.hands[seat]), " ".join(rnd.table), len(rnd.stock)))
            lines.append("    only in reference: %s   only in binary: %s" % (
                sorted(sx - sy), sorted(sy - sx)))
            if len(lines) >= 2 * limit:
                return lines
    return lines


# ---------------------------------------------------------------- one record

class Outcome(object):
    def __init__(self, path, kind, diffs, ref, bin_code, bin_out, bin_err):
        self.path, self.kind, self.diffs = path, kind, diffs
        self.ref, self.bin_code, self.bin_out, self.bin_err = ref, bin_code, bin_out, bin_err


def check_one(binary, path, kind, timeout, also_stdin=False):
    ref_code, ref_obj = run_reference(path)
    bin_code, bin_out, bin_err = run_binary(binary, path, timeout)
    if bin_code is None:
        diffs = ["binary: " + bin_err]
    else:
        diffs = compare(ref_code, ref_obj, bin_code, bin_out)
    if also_stdin and not diffs:
        c2, o2, e2 = run_binary(binary, path, timeout, stdin=True)
        if c2 != bin_code or o2 != bin_out:
            diffs = ["reading the record from stdin (FILE -) gives exit %s and %s, "
                     "unlike from the file" % (c2, short(o2.strip(), 200))]
    return Outcome(path, kind, diffs, (ref_code, ref_obj), bin_code, bin_out, bin_err)


def alternative_agreeing(path, bin_code, bin_out):
    """Names of the alternative readings under which the reference agrees."""
    agree = []
    for key, val in refscopa.ALTERNATIVE_READINGS:
        code, obj = with_reading(key, val, lambda: run_reference(path))
        if not compare(code, obj, bin_code, bin_out):
            agree.append("%s=%s" % (key, json.dumps(val)))
    return agree


# ---------------------------------------------------------------- shrinking

def shrink(binary, path, timeout, budget=150):
    """Greedy shrink of a disagreeing JSON record: drop rounds, cut moves,
    drop seats/unknown keys, as long as the binary still disagrees."""
    try:
        with open(path, "rb") as f:
            rec = json.loads(f.read())
    except Exception:
        return None
    if not isinstance(rec, dict) or not isinstance(rec.get("rounds"), list):
        return None
    tmpdir = tempfile.mkdtemp(prefix="scopa-shrink-")
    tries = [0]

    def fails(candidate):
        if tries[0] >= budget:
            return False
        tries[0] += 1
        p = os.path.join(tmpdir, "c.json")
        with open(p, "w") as f:
            json.dump(candidate, f)
        out = check_one(binary, p, "", timeout)
        return bool(out.diffs)

    def copy(r):
        return json.loads(json.dumps(r))

    try:
        if not fails(rec):
            return None
        changed = True
        while changed and tries[0] < budget:
            changed = False
            rounds = rec["rounds"]
            # later rounds
            for n in range(1, len(rounds)):
                c = copy(rec)
                c["rounds"] = c["rounds"][:n]
                if fails(c):
                    rec, changed = c, True
                    break
            if changed:
                continue
            # first round (the first dealer may be any seat)
            if len(rec["rounds"]) > 1:
                c = copy(rec)
                del c["rounds"][0]
                if fails(c):
                    rec, changed = c, True
                    continue
            # moves of the last round: binary search on the shortest prefix
            last = rec["rounds"][-1] if rec["rounds"] else None
            if isinstance(last, dict) and isinstance(last.get("moves"), list) and last["moves"]:
                lo, hi = 0, len(last["moves"])
                while lo < hi and tries[0] < budget:
                    mid = (lo + hi) // 2
                    c = copy(rec)
                    c["rounds"][-1]["moves"] = c["rounds"][-1]["moves"][:mid]
                    if fails(c):
                        hi = mid
                    else:
                        lo = mid + 1
                if hi < len(last["moves"]):
                    rec = copy(rec)
                    rec["rounds"][-1]["moves"] = rec["rounds"][-1]["moves"][:hi]
                    changed = True
                    continue
            for k in [k for k in rec if k not in ("format", "rules", "rounds")]:
                c = copy(rec)
                del c[k]
                if fails(c):
                    rec, changed = c, True
                    break
        return rec
    finally:
        shutil.rmtree(tmpdir, ignore_errors=True)


def compact_record(rec):
    """JSON text of a record with each round on a few lines."""
    head = dict((k, v) for k, v in rec.items() if k != "rounds")
    parts = []
    for r in rec.get("rounds", []):
        parts.append("  " + json.dumps(r))
    text = json.dumps(head)[:-1]
    return text + (", " if head else "") + '"rounds": [\n' + ",\n".join(parts) + "\n]}"


# ---------------------------------------------------------------- reporting

def report(o, binary, timeout, fail_dir, do_shrink):
    print("=" * 72)
    print("DISAGREEMENT: %s  (%s)" % (o.path, o.kind))
    ref_code, ref_obj = o.ref
    if ref_obj["valid"]:
        print("reference: valid, exit 0, %d round(s), totals %s, finished %s, winner %s" % (
            len(ref_obj["rounds"]), ref_obj["totals"], ref_obj["finished"], ref_obj["winner"]))
    else:
        e = ref_obj["error"]
        print("reference: invalid, exit 1, round %s move %s: %s" % (
            json.dumps(e["round"]), json.dumps(e["move"]), e["message"]))
    print("binary:    exit %s, stdout %s" % (o.bin_code, short(o.bin_out.strip(), 300)))
    if o.bin_err.strip():
        print("binary stderr: %s" % short(o.bin_err.strip(), 300))
    for d in o.diffs:
        print("  - " + d)
    try:
        got = json.loads(o.bin_out)
        if ref_obj["valid"] and isinstance(got, dict):
            for ln in legal_context(o.path, ref_obj, got):
                print("  " + ln)
    except ValueError:
        pass
    if o.bin_code is not None:
        alts = alternative_agreeing(o.path, o.bin_code, o.bin_out)
        if alts:
            print("  NOTE: the reference agrees with the binary under the alternative "
                  "reading(s): %s (see README.md)" % ", ".join(alts))
    if do_shrink:
        small = shrink(binary, o.path, timeout)
        if small is not None:
            p = os.path.splitext(o.path)[0] + ".min.json"
            with open(p, "w") as f:
                f.write(compact_record(small) + "\n")
            print("  shrunk record (%s):" % p)
            text = compact_record(small)
            print("    " + (text if len(text) < 4000 else text[:4000] + " ...").replace("\n", "\n    "))


def collect(args):
    """List of (path, kind) to check; generates records when needed."""
    if args.records:
        idx = os.path.join(args.records, "index.txt")
        kinds = {}
        if os.path.exists(idx):
            for ln in open(idx):
                parts = ln.split()
                if len(parts) == 2:
                    kinds[parts[0]] = parts[1]
        files = sorted(f for f in glob.glob(os.path.join(args.records, "*.json"))
                       if not f.endswith(".replay.json") and not f.endswith(".min.json"))
        return [(f, kinds.get(os.path.basename(f), "given")) for f in files], None
    out_dir = args.keep or tempfile.mkdtemp(prefix="scopa-diff-")
    gen_records.PROFILE["name"] = args.profile
    recs = gen_records.generate(args.seed, args.count, out_dir)
    return [(os.path.join(out_dir, n), k) for n, k in recs], (None if args.keep else out_dir)


def self_test():
    passed = failed = 0
    for f in sorted(glob.glob(os.path.join(EXAMPLES, "*.json"))):
        if f.endswith(".replay.json"):
            continue
        exp_path = f[:-len(".json")] + ".replay.json"
        if not os.path.exists(exp_path):
            continue
        with open(exp_path) as fh:
            expected = fh.read()
        exp_code = 0 if json.loads(expected).get("valid") else 1
        ref_code, ref_obj = run_reference(f)
        diffs = compare(ref_code, ref_obj, exp_code, expected)
        if not diffs and not ref_obj["valid"]:
            want = json.loads(expected)["error"]["message"]
            if ref_obj["error"]["message"] != want:
                print("note: %s: message differs (not compared): %r vs %r" % (
                    os.path.basename(f), ref_obj["error"]["message"], want))
        if diffs:
            failed += 1
            print("FAIL %s" % os.path.basename(f))
            for d in diffs:
                print("  - " + d)
        else:
            passed += 1
            print("ok   %s" % os.path.basename(f))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


def main():
    ap = argparse.ArgumentParser(description="differential test of scopa replay")
    ap.add_argument("--scopa", help="path to the scopa binary")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--records", help="check the records in DIR instead of generating")
    ap.add_argument("--profile", choices=["mixed", "endgame"], default="mixed",
                    help="record mix (gen_records.py --profile)")
    ap.add_argument("--keep", help="generate the records into DIR and keep them")
    ap.add_argument("--fail-dir", default=None,
                    help="copy disagreeing records here (default /tmp/scopa-diff-failures-SEED)")
    ap.add_argument("--show", type=int, default=5, help="disagreements shown in full")
    ap.add_argument("--no-shrink", action="store_true", help="do not shrink shown failures")
    ap.add_argument("--jobs", type=int, default=max(1, os.cpu_count() or 1))
    ap.add_argument("--timeout", type=float, default=20.0)
    ap.add_argument("--stdin-every", type=int, default=10,
                    help="also run every K-th record through stdin (FILE -); 0: never")
    ap.add_argument("--self-test", action="store_true",
                    help="only check refscopa.py against %s" % EXAMPLES)
    args = ap.parse_args()
    if args.self_test:
        return self_test()
    if not args.scopa:
        ap.error("--scopa PATH is required (or --self-test)")
    binary = os.path.abspath(args.scopa)
    if not os.access(binary, os.X_OK):
        ap.error("%s is not an executable" % binary)
    items, tmp = collect(args)
    fail_dir = args.fail_dir or "/tmp/scopa-diff-failures-%d" % args.seed
    outcomes = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as ex:
        futs = [ex.submit(check_one, binary, p, k, args.timeout,
                          args.stdin_every > 0 and i % args.stdin_every == 0)
                for i, (p, k) in enumerate(items)]
        for fu in futs:
            outcomes.append(fu.result())
    failed = [o for o in outcomes if o.diffs]
    if failed:
        os.makedirs(fail_dir, exist_ok=True)
        for o in failed:
            dst = os.path.join(fail_dir, os.path.basename(o.path))
            if os.path.abspath(dst) != os.path.abspath(o.path):
                shutil.copy(o.path, dst)
            o.path = dst
        by_kind = {}
        for o in failed:
            by_kind.setdefault(o.kind, []).append(o)
        # show the first failure of each kind first, then the rest in order
        order = []
        for k in by_kind:
            order.append(by_kind[k][0])
        order += [o for o in failed if o not in order]
        for o in order[:args.show]:
            report(o, binary, args.timeout, fail_dir, not args.no_shrink)
        print("=" * 72)
        print("failures by kind: " + ", ".join("%s %d" % (k, len(v)) for k, v in sorted(by_kind.items())))
        print("all disagreeing records are in %s" % fail_dir)
    if tmp:
        shutil.rmtree(tmp, ignore_errors=True)
    print("%d passed, %d failed" % (len(outcomes) - len(failed), len(failed)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
