#!/usr/bin/env python3
"""stress.py BIN: bspcost on random valid specifications (gen.py), against itself
(--verify) and against the independent enumerator tests/brute/bspenum.py.

    python3 tests/stress/stress.py BIN [--seed S] [--count N] [--only S1,S2,...]
                                       [--points K] [--verify V] [--timeout T]
                                       [--known FILE] [--strict] [--keep DIR]
                                       [--no-verify] [-v]

For each of the N specifications gen.py makes from seeds S, S+1, ..., S+N-1:

  check    `BIN --check` must accept it (a spec it rejects is a bug of the
           generator, or of the checker: both are failures);
  verify   `BIN --verify=V --seed SEED` (5 points by default) on the symbolic
           grid and on a small concrete grid (2, 2x2 or 2x1x2) must exit 0
           with 0 mismatches; a candidate with no formula or whose analysis
           failed (with its reason), a candidate --verify had no point for,
           a whole spec the analysis refuses (`cannot analyze: ...`), values
           counted directly that --verify reports as refused, and a run
           stopped by --timeout are refusals, tallied by reason;
  values   at K points (3 by default; every size and axis given: sizes 1..9
           that mostly do not divide, axes 1..4 on one axis and 1..3 on more,
           at most 12 processes, satisfying the assumptions), `BIN -f json
           -D ...` in one of the modes of tests/brute/compare.py (plain,
           --h sum, --work flops, or --grid with the sizes only, up to 8
           processes) against bspenum.py: w, h, h_in, h_out, NCom and the cost
           of every candidate and superstep, the total cost, and the formulas
           where the point satisfies their assumptions (compare.compare_values).
           A candidate whose values are refused with a reason is a refusal.

Mismatches, crashes, sanitizer reports, unexpected exit statuses and specs
that bspenum.py finds out of bounds are failures: each is printed (FAIL) with
the commands that reproduce it; the specs are kept under --keep DIR (default:
a temporary directory, removed at the end unless something failed).

Known bugs (tests/stress/found/) are not failures, unless --strict:
  extent-below-1   --verify mismatches all at points where an extent is below
                   1 (issue 12, item 1): the spec with `assume E >= 1` for
                   every extent added verifies;
  --known FILE     seeds (`SEED why`, one a line) whose failures are a bug
                   already reported; a listed seed that passes is said so.
They are printed (KNOWN) and tallied.

Nothing depends on the machine's speed but the refusals counted as timeouts:
--timeout T (default 20) is passed to bspcost, and a run still going after
4*T + 30 seconds is stopped and counted as a refusal too, never a failure.

Ends with the figures and the refusals by reason, then `N passed, N failed`
(one case per check, verify run and point; refusals and known bugs pass),
and exit status 1 if anything failed.  Deterministic for a given seed.
"""

import argparse
import contextlib
import io
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.dont_write_bytecode = True
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "tests", "brute"))
import gen  # noqa: E402
import bspenum  # noqa: E402
import compare  # noqa: E402

GRIDS = {1: "2", 2: "2x2", 3: "2x1x2"}

# Known bspcost bugs, each with a minimized reproducer in tests/stress/found/.
# A case is put down to one of them only when a precise test says it is that
# bug and nothing else (see Stress.verify and Stress.values); it is then
# printed as KNOWN and tallied, and fails only with --strict.
KNOWN = {
    "extent-below-1": "tests/stress/found/extent-below-1.bsp: --verify draws points where "
                      "an extent is below 1 (issue 12, item 1); with `assume E >= 1` "
                      "for every extent, --verify finds no mismatch",
}
POINT_MODES = ["plain", "plain", "plain", "hsum", "flops", "grid", "grid_all"]


def enumerate_quietly(spec, env, **opts):
    """bspenum.analyze without its warnings (a block dist over several extents
    warns even when no predicate uses it; gen.py puts predicates only on
    dists over one extent)."""
    with contextlib.redirect_stderr(io.StringIO()):
        return bspenum.analyze(spec, env, **opts)


def normalize(reason):
    """A refusal's reason as a category: names, numbers and quoted text elided."""
    r = reason.strip().splitlines()[0] if reason.strip() else "no reason given"
    r = re.sub(r"((^|: )s\d+: )", r"\2", r)              # the superstep
    r = re.sub(r" \[[^]]*\] -> \{.*", " [ISL set elided]", r)
    r = re.sub(r"'[^']*'", "'…'", r)
    r = re.sub(r"\([^()]*\)", "(…)", r)
    r = re.sub(r"\b(d\d+|c\d+|s\d+|[ABC]|[nmo]|[PQR]|[ijkt])\b", "X", r)
    r = re.sub(r"\b\d+(\.\d+)?\b", "N", r)
    r = re.sub(r"\s+", " ", r)
    return r[:120]


class Stress:
    def __init__(self, binary, args):
        self.bin = binary
        self.a = args
        self.passed = 0
        self.failed = 0
        self.refusals = {}
        self.figures = {
            "specs": 0, "accepted": 0,
            "verify_runs": {"symbolic": 0, "grid": 0},
            "verify_ok": {"symbolic": 0, "grid": 0},
            "verify_points": {"symbolic": 0, "grid": 0},
            "verify_values": {"symbolic": 0, "grid": 0},
            "verify_mismatches": {"symbolic": 0, "grid": 0},
            "verify_novalues": {"symbolic": 0, "grid": 0},
            "verify_mismatches_known": {"symbolic": 0, "grid": 0},
            "value_mismatches_known": 0,
            "value_cases": 0, "values_compared": 0, "value_mismatches": 0,
            "candidates": 0,
        }
        self.failed_specs = set()
        self.seeds_run = set()
        self.known = {}
        self.listed = {}           # seed -> why it fails (--known)
        self.listed_failed = set()
        self.seed = None
        self.problems = 0          # failures, listed seeds' included
        if args.known:
            with open(args.known) as f:
                for ln in f:
                    ln = ln.split("#", 1)[0].strip()
                    if ln:
                        seed, _, why = ln.partition(" ")
                        self.listed[int(seed)] = why.strip()

    # -- bookkeeping
    def refuse(self, where, reason):
        key = "%s: %s" % (where, normalize(reason))
        self.refusals[key] = self.refusals.get(key, 0) + 1

    def know(self, spec, bug, what, cmds):
        """A case that is known bug BUG: a failure only with --strict."""
        self.known[bug] = self.known.get(bug, 0) + 1
        if self.a.strict:
            self.fail(spec, "%s (known: %s)" % (what, bug), [KNOWN[bug]], cmds)
            return
        print("KNOWN %s: %s: %s" % (bug, spec, what))
        for c in cmds:
            print("  reproduce: %s" % c)
        self.passed += 1

    def listed_now(self):
        """Whether the spec at hand is a seed of --known's list (and not --strict)."""
        return self.seed in self.listed and not self.a.strict

    def fail(self, spec, what, lines, cmds):
        self.problems += 1
        if self.listed_now():
            # a seed of --known's list: a known failure
            self.listed_failed.add(self.seed)
            self.known["listed"] = self.known.get("listed", 0) + 1
            print("KNOWN seed %d (%s): %s: %s" % (self.seed, self.listed[self.seed], spec, what))
            for c in cmds:
                print("  reproduce: %s" % c)
            self.passed += 1
            return
        self.failed += 1
        self.failed_specs.add(spec)
        print("FAIL %s: %s" % (spec, what))
        for ln in lines[:12]:
            print("  %s" % ln)
        if len(lines) > 12:
            print("  ... (%d more)" % (len(lines) - 12))
        for c in cmds:
            print("  reproduce: %s" % c)
        sys.stdout.flush()

    def run(self, cmd):
        """(returncode, stdout, stderr), or None when the hard limit is reached."""
        hard = 4 * self.a.timeout + 30
        t0 = time.time()
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=hard)
        except subprocess.TimeoutExpired:
            return None
        finally:
            if self.a.verbose:
                sys.stderr.write("  %.1fs %s\n" % (time.time() - t0, " ".join(cmd)))
        return p.returncode, p.stdout, p.stderr

    def whole_refusal(self, where, rc, err):
        """A run that refuses the whole spec with its reason (`cannot analyze: ...`)."""
        m = re.search(r"cannot analyze: (.*)", err)
        if rc == 1 and m:
            self.refuse(where, "cannot analyze: " + m.group(1))
            self.passed += 1
            return True
        return False

    @staticmethod
    def crashed(rc, err):
        return rc < 0 or rc > 2 or "Sanitizer" in err or "runtime error:" in err

    # -- the cases
    def check(self, path):
        r = self.run([self.bin, "--check", path])
        if r is None:
            self.refuse("check", "timeout (stopped after %ds)" % (4 * self.a.timeout + 30))
            print("REFUSED timeout: %s --check %s" % (self.bin, path))
            self.passed += 1
            return False
        rc, out, err = r
        if rc != 0 or self.crashed(rc, err):
            self.fail(path, "--check rejects a generated spec (exit %d)" % rc,
                      err.strip().splitlines(), ["%s --check %s" % (self.bin, path)])
            return False
        m = re.search(r"(\d+) candidates?", out)
        self.figures["candidates"] += int(m.group(1)) if m else 0
        self.passed += 1
        return True

    @staticmethod
    def breaks_extents(spec, line):
        """True when the point of a --verify mismatch message makes an extent less than 1."""
        m = re.search(r" at ((?:\w+=-?\d+ ?)+)$", line)
        if not m:
            return False
        vals = {k: int(v) for k, v in (x.split("=") for x in m.group(1).split())}

        class Eval(bspenum.Context):
            def __init__(self):
                self.values = vals
        ev = Eval()
        try:
            return any(ev.eval(e, {}) < 1 for a in spec["array_order"]
                       for e in spec["arrays"][a]["extents"])
        except bspenum.SpecError:
            return False

    def with_extents_assumed(self, path, spec):
        """A copy of the spec at PATH that assumes every extent to be at least 1."""
        conds = []
        for a in spec["array_order"]:
            for e in self.extent_texts[a]:
                if not re.fullmatch(r"\d+", e) and "%s >= 1" % e not in conds:
                    conds.append("%s >= 1" % e)
        out = path[:-4] + ".extents.bsp"
        with open(path) as f, open(out, "w") as g:
            g.write(f.read())
            if conds:
                g.write("assume %s;\n" % ", ".join(conds))
        return out

    def verify(self, path, seed, kind, naxes, spec=None, again=True):
        cmd = [self.bin, "--verify=%d" % self.a.verify, "--seed", str(seed),
               "--timeout", str(self.a.timeout), "-f", "json"]
        if kind == "grid":
            # the symbolic grid's formulas on that grid at even seeds, the
            # grid counted process by process (--all-sizes) at odd ones
            cmd += (["--all-sizes"] if seed % 2 else []) + ["--grid", GRIDS[naxes]]
        cmd.append(path)
        shown = " ".join(cmd)
        self.figures["verify_runs"][kind] += 1
        r = self.run(cmd)
        if r is None:
            self.refuse("verify " + kind, "timeout (stopped after %ds)" % (4 * self.a.timeout + 30))
            print("REFUSED timeout: %s" % shown)
            self.passed += 1
            return
        rc, out, err = r
        if self.crashed(rc, err):
            self.fail(path, "--verify (%s) crashed (exit %d)" % (kind, rc),
                      err.strip().splitlines()[-12:], [shown])
            return
        summary = re.search(r"^verify: .*: (\d+) points?, (\d+) values? compared, (\d+) mismatch",
                            err, re.M)
        try:
            rep = json.loads(out) if out.strip() else None
        except ValueError:
            rep = None
        reasons = []
        for c in (rep or {}).get("candidates", []):
            if c.get("status", "ok") != "ok":
                reasons.append("%s: %s" % (c.get("status"), c.get("reason") or "no reason"))
        # a candidate's own line says how many points it was checked at; any
        # other is why it was not (bspcost(1), --verify)
        skipped = [ln.split(": ", 2)[2] for ln in err.splitlines()
                   if ln.startswith("verify: ") and ln.count(": ") >= 2
                   and "values compared" not in ln and not ln.endswith(" checked")]
        if summary:
            pts, vals, bad = (int(x) for x in summary.groups())
            self.figures["verify_points"][kind] += pts
            self.figures["verify_values"][kind] += vals
            lines = [ln for ln in err.splitlines() if ln.startswith("verify")]
            novalues = [re.sub(r"^.*: no values counted directly at [^:]*: ", "", ln)
                        for ln in lines if ": no values counted directly at " in ln]
            if bad and len(novalues) == len(lines) - 1:
                # bspcost(1): --verify counts a refusal of the values counted
                # directly as a mismatch; here it is the only kind
                for rs in novalues:
                    self.refuse("verify " + kind, "no values counted directly: " + rs)
                self.figures["verify_novalues"][kind] += bad
                self.passed += 1
                return
            if bad:
                shown_bad = [ln for ln in lines if " by enumeration at " in ln]
                if again and spec is not None and shown_bad and \
                        all(self.breaks_extents(spec, ln) for ln in shown_bad):
                    # every mismatch shown is at a point outside the implicit
                    # assumptions: the same spec with them explicit must verify
                    # (the figures are those of that run)
                    variant = self.with_extents_assumed(path, spec)
                    before = self.problems
                    self.figures["verify_runs"][kind] -= 1
                    self.figures["verify_points"][kind] -= pts
                    self.figures["verify_values"][kind] -= vals
                    self.verify(variant, seed, kind, naxes, spec, again=False)
                    if self.problems == before:
                        self.passed -= 1
                        self.know(path, "extent-below-1", "--verify (%s): %d mismatches, at "
                                  "extents below 1: %s" % (kind, bad, shown_bad[0]), [shown])
                        return
                if self.listed_now():
                    self.figures["verify_mismatches_known"][kind] += bad
                else:
                    self.figures["verify_mismatches"][kind] += bad
                self.fail(path, "--verify (%s): %d mismatches" % (kind, bad), lines, [shown])
                return
        for rs in reasons:
            self.refuse("verify " + kind, rs)
        for sk in skipped:
            self.refuse("verify " + kind, "verify: " + sk)
        if rc == 0 and summary and rep is not None:
            self.figures["verify_ok"][kind] += 1
            self.passed += 1
            return
        # a non-zero exit is a refusal when bspcost says why: a candidate with
        # no exact formula on a concrete grid (bspcost(1), EXIT STATUS)
        if rc == 1 and rep is not None and (reasons or skipped):
            self.passed += 1
            return
        if self.whole_refusal("verify " + kind, rc, err):
            return
        self.fail(path, "--verify (%s): exit %d%s" % (kind, rc, "" if summary else ", no summary"),
                  err.strip().splitlines()[-12:], [shown])

    def points(self, spec, seed, count):
        rng = random.Random(seed * 7919 + 17)
        found = []
        names = spec["params"] + spec["axes"]
        for _ in range(600):
            v = {p: rng.randint(1, 9) for p in spec["params"]}
            top = 4 if len(spec["axes"]) == 1 else 3
            v.update({a: rng.randint(1, top) for a in spec["axes"]})
            procs = 1
            for a in spec["axes"]:
                procs *= v[a]
            if procs > 12 or v in [f[1] for f in found]:
                continue
            try:
                with contextlib.redirect_stderr(io.StringIO()):
                    bspenum.check_values(spec, v)
                    for cname, kinds, layouts in bspenum.candidates(spec):
                        bspenum.Context(spec, v, kinds, layouts)
            except bspenum.SpecError:
                continue
            divides = all(v[p] % v[a] == 0 for p in spec["params"] for a in spec["axes"])
            found.append((divides, v))
            if len(found) >= 4 * count:
                break
        # mostly sizes that do not divide, one that does when there is one
        nondiv = [v for d, v in found if not d]
        div = [v for d, v in found if d]
        out = nondiv[:count - 1] + div[:1]
        out += [v for v in nondiv[count - 1:] + div[1:]][:count - len(out)]
        return [{n: v[n] for n in names} for v in out]

    def values(self, path, spec, point, mode):
        flags, opts = compare.MODES[mode]
        vals = dict(point, g=compare.G, l=compare.L)
        if mode in ("grid", "grid_all"):
            flags = (["--all-sizes"] if mode == "grid_all" else []) + \
                ["--grid", "x".join(str(point[a]) for a in spec["axes"])]
            vals = {k: v for k, v in vals.items() if k not in spec["axes"]}
        cmd = [self.bin, "-f", "json", "--timeout", str(self.a.timeout)] + flags + \
            compare.defines(vals) + [path]
        shown = " ".join(cmd)
        enum_cmd = "python3 %s %s%s %s" % (
            os.path.relpath(os.path.join(ROOT, "tests", "brute", "bspenum.py")),
            " ".join(compare.MODES[mode][0]) + " " if compare.MODES[mode][0] else "",
            " ".join(compare.defines(dict(point, g=compare.G, l=compare.L))), path)
        self.figures["value_cases"] += 1
        env = dict(point, g=compare.G, l=compare.L)
        try:
            want = enumerate_quietly(spec, env, **opts)
        except bspenum.SpecError as e:
            self.fail(path, "bspenum: %s (a subscript the checker accepted?)" % e, [], [enum_cmd])
            return
        r = self.run(cmd)
        if r is None:
            self.refuse("values", "timeout (stopped after %ds)" % (4 * self.a.timeout + 30))
            print("REFUSED timeout: %s" % shown)
            self.passed += 1
            return
        rc, out, err = r
        if self.crashed(rc, err):
            self.fail(path, "values (%s) crashed (exit %d)" % (mode, rc),
                      err.strip().splitlines()[-12:], [shown])
            return
        try:
            got = json.loads(out)
        except ValueError:
            if self.whole_refusal("values", rc, err):
                return
            self.fail(path, "values (%s): exit %d, no JSON" % (mode, rc),
                      err.strip().splitlines()[:12], [shown])
            return
        bad, refused, compared = compare.compare_values(got, want, env)
        self.figures["values_compared"] += compared
        for rs in refused:
            self.refuse("values", re.sub(r"^candidate [^:]*: no values \((.*)\)$", r"\1", rs))
        if bad:
            self.figures["value_mismatches_known" if self.listed_now()
                         else "value_mismatches"] += len(bad)
            self.fail(path, "values (%s) at %s differ from bspenum" % (
                mode, " ".join("%s=%d" % kv for kv in point.items())), bad, [shown, enum_cmd])
            return
        failed = ["failed: %s" % (c.get("reason") or "no reason") for c in got.get("candidates", [])
                  if c.get("status") == "failed"]
        for c in got.get("candidates", []):
            # formulas given up (their values are compared all the same)
            if c.get("status") == "refused" and (mode in ("grid", "grid_all") or
                                                 (c.get("reason") or "").startswith("time:")):
                self.refuse("values, formulas", "refused: %s" % c.get("reason"))
        for rs in failed:
            # bspcost(1), EXIT STATUS: a failed analysis is exit status 1;
            # its values are still there, and were compared above
            self.refuse("values", rs)
        if rc != 0 and not (rc == 1 and (refused or failed)):
            self.fail(path, "values (%s): exit %d with every value given" % (mode, rc),
                      err.strip().splitlines()[:12], [shown])
            return
        self.passed += 1

    # -- the batch
    def spec(self, seed, path):
        self.seed = seed
        self.seeds_run.add(seed)
        text = gen.generate(seed)
        with open(path, "w") as f:
            f.write(text)
        self.figures["specs"] += 1
        if self.a.verbose:
            sys.stderr.write("spec %d\n" % seed)
        if not self.check(path):
            return
        self.figures["accepted"] += 1
        spec = bspenum.Parser(bspenum.tokenize(text)).spec()
        self.extent_texts = gen.extent_texts(text)
        if not self.a.no_verify:
            self.verify(path, seed, "symbolic", len(spec["axes"]), spec)
            self.verify(path, seed, "grid", len(spec["axes"]), spec)
        rng = random.Random(seed)
        pts = self.points(spec, seed, self.a.points)
        if not pts:
            self.refuse("values", "no small point satisfies the assumptions")
        for pt in pts:
            mode = rng.choice(POINT_MODES)
            procs = 1
            for a in spec["axes"]:
                procs *= pt[a]
            if mode in ("grid", "grid_all") and procs > 8:
                # a concrete grid's formulas counted process by process (all
                # of them with --all-sizes, the symbolic grid's refusals without)
                mode = "plain"
            self.values(path, spec, pt, mode)

    def seed_text(self):
        seeds = sorted(self.seeds_run)
        if seeds and seeds == list(range(seeds[0], seeds[-1] + 1)):
            return "seeds %d..%d" % (seeds[0], seeds[-1])
        return "seeds %s" % ",".join(map(str, seeds))

    def report(self):
        f = self.figures
        print("stress: %s: %d specs generated, %d accepted by --check, "
              "%d candidates" % (self.seed_text(), f["specs"],
                                 f["accepted"], f["candidates"]))
        for k in ("symbolic", "grid"):
            print("stress: --verify %s: %d runs, %d exit 0; %d points, %d values compared, "
                  "%d mismatches%s; %d values not counted directly (refusals)"
                  % (k, f["verify_runs"][k], f["verify_ok"][k], f["verify_points"][k],
                     f["verify_values"][k], f["verify_mismatches"][k],
                     " (and %d in the seeds of --known)" % f["verify_mismatches_known"][k]
                     if self.listed else "", f["verify_novalues"][k]))
        print("stress: values against bspenum: %d cases, %d values compared, %d mismatches%s"
              % (f["value_cases"], f["values_compared"], f["value_mismatches"],
                 " (and %d in the seeds of --known)" % f["value_mismatches_known"]
                 if self.listed else ""))
        for k, n in sorted(self.known.items()):
            print("stress: known bug %s: %d cases%s (%s)" % (
                k, n, " (failed: --strict)" if self.a.strict else "",
                KNOWN[k] if k in KNOWN else "seeds listed in %s" % self.a.known))
        for sd in sorted(set(self.listed) & self.seeds_run - self.listed_failed):
            print("stress: seed %d is listed in %s (%s) but passes now"
                  % (sd, self.a.known, self.listed[sd]))
        total = sum(self.refusals.values())
        print("stress: %d refusals%s" % (total, " by reason:" if total else ""))
        for k, n in sorted(self.refusals.items(), key=lambda kv: (-kv[1], kv[0])):
            print("  %5d  %s" % (n, k))
        print("%d passed, %d failed" % (self.passed, self.failed))


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("bin")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--points", type=int, default=3)
    ap.add_argument("--verify", type=int, default=5)
    ap.add_argument("--timeout", type=int, default=20)
    ap.add_argument("--keep", help="directory for the specs (kept)")
    ap.add_argument("--only", help="comma-separated seeds, instead of --seed and --count")
    ap.add_argument("--no-verify", action="store_true")
    ap.add_argument("--strict", action="store_true", help="known bugs fail too")
    ap.add_argument("--known", help="a list of seeds that fail by known bugs: SEED WHY, one a line")
    ap.add_argument("-v", "--verbose", action="store_true")
    a = ap.parse_args(argv)
    binary = a.bin if os.sep in a.bin else os.path.join(".", a.bin)
    d = a.keep or tempfile.mkdtemp(prefix="bspcost-stress.")
    os.makedirs(d, exist_ok=True)
    st = Stress(binary, a)
    try:
        seeds = range(a.seed, a.seed + a.count)
        if a.only:
            seeds = [int(x) for x in a.only.split(",")]
        for s in seeds:
            st.spec(s, os.path.join(d, "gen-%d.bsp" % s))
    except KeyboardInterrupt:
        print("stress: interrupted")
    if not a.keep:
        if st.failed:
            print("stress: the specs are kept in %s" % d)
        else:
            shutil.rmtree(d, ignore_errors=True)
    st.report()
    return 1 if st.failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
