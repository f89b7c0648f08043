#!/usr/bin/env python3
"""grid_formulas.py BIN: a concrete grid's formulas in the sizes, at many sizes.

bspcost --grid AxB with the sizes left free gives each candidate's formulas in
the sizes alone; for a program in loops, its totals summed over the
iterations (bspcost(1)): the symbolic grid's formulas with the axes given
their sizes (checked where the sizes meet their assumptions, 4 divides n),
or with --all-sizes the grid counted process by process for every size.  Each formula here is evaluated exactly (formula.py,
written independently of bspcost) at every size of a range and compared with
the independent enumerator's count (bspenum.py) at that size and grid: one
run of bspcost, many sizes.  Every candidate must have its formulas (a
refusal fails the case).  One case per spec and grid; ends with
`N passed, N failed`, exit status 1 if any failed.  A case without a grid is
the symbolic grid's: the axes are sizes of the points too (TIED: one axis
equal to another, LU's square grid under --assume M==N), each point is
enumerated only where some candidate's formulas hold there (M divides n), and
only the candidates of REQUIRED must have formulas.

  CASES_LIMIT=k   only the first k cases (the sanitizer build)
"""

import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.dont_write_bytecode = True
sys.path.insert(0, HERE)
import bspenum  # noqa: E402
import formula  # noqa: E402
from compare import assumptions_hold  # noqa: E402

QUANTITIES = ("w", "h", "h_in", "h_out", "ncom", "cost", "iterations")
G, L = 4, 1000

# spec, grid, the sizes (every combination of each size's values), the
# flags: LU on 2 x 2 has the symbolic square grid's formulas under 2 | n
# (--all-sizes: counted process by process for every n), on 1 x 2 the
# grid's own
CASES = [
    ("examples/lu.bsp", {"M": 2, "N": 2}, {"n": range(4, 19)}, ["--all-sizes"]),
    ("examples/lu.bsp", {"M": 1, "N": 2}, {"n": range(4, 15)}, []),
    ("examples/lu.bsp", {"M": 1, "N": 1}, {"n": range(2, 12)}, ["--all-sizes"]),
    ("examples/jacobi.bsp", {"P": 3}, {"n": range(6, 40), "T": range(1, 4)}, []),
    ("examples/stencil2d.bsp", {"M": 4, "N": 2}, {"n": range(8, 21), "m": range(4, 13)}, []),
    ("examples/stencil2d.bsp", {"M": 1, "N": 3}, {"n": range(2, 9), "m": range(6, 16)}, []),
    ("examples/summa.bsp", {"M": 2, "N": 2}, {"m": range(2, 9), "n": range(2, 9),
                                                "k": range(2, 9)}, []),
    ("examples/stencil1d.bsp", {"P": 8}, {"n": range(16, 120)}, []),
    # a concrete grid whose formulas once came from the symbolic grid's
    # digits with the columns m and m + 1 left out (one word short)
    ("tests/brute/specs/lent_digits_past_extent.bsp", {"P": 2}, {"m": range(4, 30)}, []),
    ("tests/brute/specs/lent_digits_past_extent.bsp", {"P": 3}, {"m": range(6, 30)}, []),
    # a predicate's index past its dist's extent (e(i + 2) == 1, e cyclic)
    ("tests/brute/specs/pred_offset_past_extent.bsp", {"P": 2}, {"m": range(4, 30)}, []),
    # the symbolic grid (no --grid: the axes among the sizes, N tied to M),
    # LU's totals on a square grid at 52 points where M divides n
    ("examples/lu.bsp", None, {"n": range(2, 25), "M": range(1, 7)}, ["--assume", "M==N"]),
]
# the symbolic cases: each axis tied to another's value, and the candidates
# that must have formulas (the others' refusals are bspcost(1)'s)
TIED = {"examples/lu.bsp": {"N": "M"}}
REQUIRED = {"examples/lu.bsp": ("r=block,c=block", "r=cyclic,c=cyclic")}


def points(sizes):
    names = sorted(sizes)
    out = [{}]
    for name in names:
        out = [dict(p, **{name: v}) for p in out for v in sizes[name]]
    return out


def check(binary, path, grid, sizes, flags):
    spec = bspenum.Parser(bspenum.tokenize(open(os.path.join(ROOT, path)).read())).spec()
    shape = "x".join(str(grid[a]) for a in spec["axes"]) if grid else None
    cmd = [binary, "-f", "json"] + flags + (["--grid", shape] if shape else []) + \
        ["-D", "g=%d" % G, "-D", "l=%d" % L, os.path.join(ROOT, path)]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    shown = "%s %s%s %s" % (os.path.basename(binary), "".join(f + " " for f in flags),
                            "--grid " + shape if shape else "(symbolic)", path)
    try:
        got = json.loads(p.stdout)
    except ValueError:
        return ["%s: no JSON (exit %d): %s" % (shown, p.returncode, p.stderr.strip()[:200])], 0
    bad, compared = [], 0
    cands = {c["name"]: c for c in got["candidates"]}
    required = REQUIRED.get(path) if grid is None else None
    for c in got["candidates"]:
        if required is not None and c["name"] not in required:
            continue
        if c.get("status") != "ok" or not (c.get("cost") or {}).get("formula"):
            bad.append("%s: candidate %s has no cost formula (%s)"
                       % (shown, c["name"], c.get("reason", c.get("status"))))
    tied = TIED.get(path, {}) if grid is None else {}
    seen = set()   # the candidates whose total was compared somewhere
    for pt in points(sizes):
        env = dict(pt, g=G, l=L, **(grid or {}))
        env.update({a: env[b] for a, b in tied.items()})
        # (enumerated only where some formula holds: M divides n)
        if not any(c.get("status") == "ok" and assumptions_hold(c.get("assumptions", []),
                                                                 dict(env))
                   for c in got["candidates"]):
            continue
        try:
            want = bspenum.analyze(spec, env)
        except bspenum.SpecError:
            if grid is None:
                continue   # a point the specification's assumptions exclude
            raise
        for wc in want["candidates"]:
            c = cands.get(wc["name"])
            if c is None or c.get("status") != "ok":
                continue
            if not assumptions_hold(c.get("assumptions", []), dict(env)):
                continue
            steps = {s["name"]: s for s in c.get("supersteps", [])}
            for ws in wc["supersteps"]:
                s = steps.get(ws["name"], {})
                for q in QUANTITIES:
                    f = (s.get(q) or {}).get("formula")
                    if q not in ws or f is None:
                        continue
                    compared += 1
                    v = formula.evaluate(f, dict(env))
                    if v != ws[q]:
                        bad.append("%s at %s: candidate %s superstep %s %s: formula gives %s, "
                                   "bspenum %s" % (shown, pt, wc["name"], ws["name"], q, v, ws[q]))
            compared += 1
            seen.add(wc["name"])
            v = formula.evaluate(c["cost"]["formula"], dict(env))
            if v != wc["cost"]:
                bad.append("%s at %s: candidate %s total cost: formula gives %s, bspenum %s"
                           % (shown, pt, wc["name"], v, wc["cost"]))
    for name in required or ():
        if name not in seen:
            bad.append("%s: candidate %s was compared nowhere" % (shown, name))
    return bad, compared


def main(argv):
    if len(argv) != 1:
        sys.stderr.write("usage: grid_formulas.py BIN\n")
        return 2
    limit = int(os.environ["CASES_LIMIT"]) if os.environ.get("CASES_LIMIT") else None
    passed = failed = 0
    for path, grid, sizes, flags in CASES[:limit]:
        bad, compared = check(argv[0], path, grid, sizes, flags)
        name = "%s on %s%s" % (path, "x".join(str(v) for v in grid.values()) if grid
                               else "the symbolic grid", " " + " ".join(flags) if flags else "")
        if bad or compared == 0:
            failed += 1
            print("not ok: %s (%d compared)" % (name, compared))
            for b in bad[:10]:
                print("    " + b)
        else:
            passed += 1
            print("ok: %s: %d formulas' values equal bspenum's" % (name, compared))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
