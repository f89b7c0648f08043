#!/usr/bin/env python3
"""rank.py BIN: bspcost -p's rankings against bspenum.py's brute force.

For a few small cases (a spec, its sizes, some process counts), runs
`BIN -f json -p COUNTS -D ...` and checks each ranking it prints against a
computation of its own:

  - the shapes are every ordered factorization of P into the grid's axes,
    each either ranked (every candidate) or refused as a whole;
  - a shape is refused exactly when bspenum.py's check of the values fails
    (the assumptions as written, every size and extent at least 1);
  - every ranked (shape, candidate) has bspenum.py's w, h, h_in, h_out and
    NCom summed over the supersteps and its total cost;
  - the order is by cost, ties in the order of the shapes, then of the
    candidates; the ranks are 1 + the number of rows of lower cost, and a row
    is a tie when another has its cost;
  - --top K gives the first K rows of the same ranking.

Without g and l (every machine): each row's w, h and supersteps S (its cost
a + b*g + c*l, from bspenum at three (g, l)), which rows no other dominates,
that each region of (g, l) holds exactly the points where its row costs the
least (sampled at every crossing of two rows and between), and the g where
the best changes.

Sweeps (-D n=LO..HI+K, -D m=LO..HI*K): the JSON of every point is a ranking
checked as above at that point's sizes, and the points are the product of
the ranges, the first varying slowest.

One case per spec and process count (and per sweep); ends with `N passed, N failed`, exit
status 1 if any failed.
"""

import itertools
import json
import os
import subprocess
from fractions import Fraction
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.dont_write_bytecode = True
sys.path.insert(0, HERE)
import bspenum  # noqa: E402

# g and l as typed on the command line: integers, and a decimal and a
# fraction (exact rationals, compared as such)
G, L = "3", "11"
QUANTITIES = ("w", "h", "h_in", "h_out", "ncom")

# (spec, sizes, process counts): sizes that mostly do not divide, counts with
# shapes that break the assumptions, and a square count for matmul.
CASES = [
    ("examples/matmul.bsp", {"m": 5, "n": 6, "o": 7}, [6]),
    ("examples/matmul.bsp", {"m": 4, "n": 4, "o": 4}, [4]),
    ("examples/matmul2.bsp", {"m": 5, "n": 6, "o": 7}, [4]),
    ("examples/stencil1d.bsp", {"n": 11}, [2, 3, 4, 5, 6]),
    ("examples/stencil2d.bsp", {"n": 7, "m": 9}, [6]),
    ("examples/transpose.bsp", {"m": 5, "n": 6}, [4]),
    ("examples/broadcast.bsp", {"n": 12}, [4, 5, 6]),
    ("tests/brute/specs/features.bsp", {"n": 6, "m": 4}, [4]),
    ("examples/stencil1d.bsp", {"n": 11}, [4, 6], ("10.2", "1/3")),
    ("examples/matmul.bsp", {"m": 5, "n": 6, "o": 7}, [6], ("0.05", "8.6")),
    ("examples/matmul_variants.bsp", {"m": 5, "n": 6, "o": 7}, [4]),
    ("examples/matvec.bsp", {"m": 7, "n": 5}, [6]),
]


def shapes(p, naxes):
    """Every ordered factorization of p into naxes sizes, lexicographic."""
    out = []
    for t in itertools.product(range(1, p + 1), repeat=naxes - 1):
        prod = 1
        for v in t:
            prod *= v
        if p % prod == 0:
            out.append(list(t) + [p // prod])
    return out


def decode_stream(text):
    """The JSON objects of TEXT, one after the other."""
    dec = json.JSONDecoder()
    i, out = 0, []
    while True:
        while i < len(text) and text[i].isspace():
            i += 1
        if i == len(text):
            return out
        obj, i = dec.raw_decode(text, i)
        out.append(obj)


def one_point(obj):
    """A ranking's JSON (a sweep of one point): the point, with the head's
    keys (file, procs, axes, ...); ValueError unless it has one point."""
    points = obj.get("points")
    if not isinstance(points, list) or len(points) != 1:
        raise ValueError("a ranking has %s points, expected 1"
                         % (len(points) if isinstance(points, list) else "no"))
    return dict(obj, **points[0])


def expected(spec, sizes, p, g, l):
    """{shape tuple: None (refused) or {candidate: {quantity: value}}}, and the
    candidates in bspenum's (= bspcost's) order."""
    cands = [c[0] for c in bspenum.candidates(spec)]
    want = {}
    for shape in shapes(p, len(spec["axes"])):
        values = dict(sizes, g=Fraction(g), l=Fraction(l))
        values.update(zip(spec["axes"], shape))
        try:
            bspenum.check_values(spec, values)
        except bspenum.SpecError:
            want[tuple(shape)] = None
            continue
        res = bspenum.analyze(spec, values)
        rows = {}
        for c in res["candidates"]:
            row = {q: sum(s[q] for s in c["supersteps"]) for q in QUANTITIES}
            row["cost"] = c["cost"]
            row["steps"] = len(c["supersteps"])
            row["mem"] = c["mem"]
            rows[c["name"]] = row
        want[tuple(shape)] = rows
    return want, cands


def check_ranking(got, want, cands, p, g, l):
    bad = []
    # why each row costs more than the one above: the differences of cost,
    # w, h*g and l (supersteps times l), from bspenum's rows
    g, l = Fraction(g), Fraction(l)
    prev = None
    for r in got["ranking"]:
        rows = want.get(tuple(r["shape"]))
        cur = rows.get(r["candidate"]) if rows else None
        if cur is None:
            prev = None
            continue
        if prev is None:
            if r["above"] is not None and r is got["ranking"][0]:
                bad.append("first row: 'above' %s, expected null" % r["above"])
        else:
            exp = {"by": cur["cost"] - prev["cost"], "w": cur["w"] - prev["w"],
                   "h*g": (cur["h"] - prev["h"]) * g, "l": (cur["steps"] - prev["steps"]) * l}
            above = r.get("above") or {}
            gotv = {k: Fraction(str(v)) for k, v in above.items()}
            if gotv != exp:
                bad.append("%s on %s: above %s, expected %s" % (
                    r["candidate"], "x".join(map(str, r["shape"])), above, exp))
        prev = cur
    shape_list = [tuple(s) for s in shapes(p, len(got["axes"]))]
    if got["procs"] != p:
        bad.append("procs %s, expected %d" % (got["procs"], p))
    if not got.get("complete"):
        bad.append("the ranking says it is incomplete")
    # the refused shapes
    refused = {tuple(r["shape"]) for r in got["refused"]}
    for r in got["refused"]:
        if r["candidate"] is not None or r["status"] != "outside" or not r["reason"]:
            bad.append("refused row %s: expected a whole shape outside the assumptions, "
                       "with a reason" % r)
    for shape, rows in want.items():
        if (rows is None) != (shape in refused):
            bad.append("shape %s: bspcost %s it, bspenum %s it" % (
                "x".join(map(str, shape)), "refuses" if shape in refused else "ranks",
                "refuses" if rows is None else "counts"))
    # the values of every ranked row
    seen = set()
    for r in got["ranking"]:
        key = (tuple(r["shape"]), r["candidate"])
        seen.add(key)
        rows = want.get(key[0])
        if rows is None or key[1] not in rows:
            bad.append("ranked row %s x %s: not expected" % key)
            continue
        for q in QUANTITIES + ("cost", "mem"):
            if Fraction(str(r[q])) != rows[key[1]][q]:
                bad.append("%s on %s: %s: bspcost %s, bspenum %s" % (
                    key[1], "x".join(map(str, key[0])), q, r[q], rows[key[1]][q]))
    for shape, rows in want.items():
        for c in rows or {}:
            if (shape, c) not in seen:
                bad.append("%s on %s: not ranked" % (c, "x".join(map(str, shape))))
    if got["ranked"] != len(got["ranking"]):
        bad.append("ranked %s, but %d rows" % (got["ranked"], len(got["ranking"])))
    # the order, the ranks and the ties, recomputed
    rows = [(rows[c]["cost"], shape_list.index(shape), cands.index(c), shape, c)
            for shape, rows in want.items() if rows for c in rows]
    rows.sort()
    order = [(list(r[3]), r[4]) for r in rows]
    got_order = [(r["shape"], r["candidate"]) for r in got["ranking"]]
    if got_order != order:
        bad.append("order differs: bspcost %s, expected %s" % (got_order[:6], order[:6]))
    costs = [r[0] for r in rows]
    for i, r in enumerate(got["ranking"][:len(rows)]):
        rank = 1 + sum(1 for c in costs if c < costs[i])
        tie = costs.count(costs[i]) > 1
        if r["rank"] != rank or r["tie"] != tie:
            bad.append("row %d: rank %s tie %s, expected rank %d tie %s" % (
                i + 1, r["rank"], r["tie"], rank, tie))
    return bad


def run(binary, path, sizes, counts, g, l, extra=()):
    cmd = [binary, "-f", "json", "-p", ",".join(map(str, counts))]
    for k, v in list(sizes.items()) + [("g", g), ("l", l)]:
        cmd += ["-D", "%s=%s" % (k, v)]
    cmd += list(extra) + [path]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600, cwd=ROOT)
    return p, " ".join(cmd)


# (spec, fixed sizes, ranges {name: (lo, hi, step, geometric)}, counts)
# From 32 rows a candidate (rank_cmd.c, ROWS_FOR_FORMULAS), -p evaluates
# the symbolic grid's formulas at each row where they hold, and counts the
# rest: the last five sweeps cross it, with rows of both kinds (sizes the
# shape divides and not, a pivot's owner k0_P, a doubling loop's lg_P, a
# loop's runs).
SWEEPS = [
    ("examples/stencil1d.bsp", {}, {"n": (8, 17, 3, False)}, [4]),
    ("examples/matmul.bsp", {"o": 5}, {"m": (2, 8, 2, True), "n": (3, 5, 1, False)}, [4]),
    ("examples/stencil2d.bsp", {"m": 13}, {"n": (8, 48, 4, False)}, [4]),
    ("examples/stencil2d.bsp", {"m": 12}, {"n": (8, 48, 4, False)}, [4]),
    ("tests/brute/specs/pivots.bsp", {"n": 40}, {"k0": (1, 39, 1, False)}, [4, 3]),
    ("examples/jacobi.bsp", {"T": 3}, {"n": (6, 72, 2, False)}, [3, 4]),
    ("tests/brute/specs/doubling_levels.bsp", {}, {"n": (1, 33, 1, False)}, [4, 3]),
]


def range_values(lo, hi, step, geometric):
    v, out = lo, []
    while v <= hi:
        out.append(v)
        v = v * step if geometric else v + step
    return out


def check_sweeps(binary):
    passed = failed = 0
    for path, fixed, ranges, counts in SWEEPS:
        spec = bspenum.Parser(bspenum.tokenize(open(os.path.join(ROOT, path)).read())).spec()
        extra = []
        for k, (lo, hi, step, geo) in ranges.items():
            extra += ["-D", "%s=%d..%d%s%d" % (k, lo, hi, "*" if geo else "+", step)]
        p, shown = run(binary, path, fixed, counts, G, L, extra)
        try:
            tables = decode_stream(p.stdout)
        except ValueError as e:
            tables = []
            print("FAIL %s: no JSON (%s)" % (shown, e))
        names = list(ranges)
        points = list(itertools.product(*[range_values(*ranges[k]) for k in names]))
        for i, count in enumerate(counts):
            bad = []
            if i >= len(tables) or p.returncode != 0:
                bad.append("no sweep (exit %d): %s" % (p.returncode, p.stderr.strip()[:300]))
            else:
                got = tables[i]
                if len(got["points"]) != len(points):
                    bad.append("%d points, expected %d" % (len(got["points"]), len(points)))
                for pt, want_pt in zip(got["points"], points):
                    sizes = dict(fixed, **dict(zip(names, want_pt)))
                    if any(pt["values"].get(k) != v for k, v in sizes.items()):
                        bad.append("point %s, expected %s" % (pt["values"], sizes))
                        continue
                    table = dict(pt, axes=got["axes"], procs=got["procs"])
                    want, cands = expected(spec, sizes, count, G, L)
                    bad += ["at %s: %s" % (sizes, b)
                            for b in check_ranking(table, want, cands, count, G, L)]
            for b in bad:
                print("MISMATCH sweep %s P=%d: %s" % (path, count, b))
            if bad:
                print("  reproduce: %s" % shown)
                failed += 1
            else:
                passed += 1
    return passed, failed


# -p without g and l: (spec, sizes, process counts)
EVERY_MACHINE = [
    ("examples/matmul.bsp", {"m": 4, "n": 4, "o": 4}, [4]),
    ("examples/stencil2d.bsp", {"n": 9, "m": 9}, [4, 8]),
    ("examples/stencil1d.bsp", {"n": 9}, [4]),
    ("examples/matmul2.bsp", {"m": 12, "n": 12, "o": 12}, [4]),
    ("tests/brute/specs/variant_steps.bsp", {"n": 16}, [4, 2]),
    ("tests/brute/specs/variant_steps.bsp", {"n": 12}, [3]),
]


def line_costs(spec, sizes, p):
    """{(shape, candidate): (a, b, c)}: each row's cost a + b*g + c*l, from
    bspenum's totals at (g, l) = (0, 0), (1, 0) and (0, 1)."""
    at = [expected(spec, sizes, p, g, l)[0] for g, l in ((0, 0), (1, 0), (0, 1))]
    out = {}
    for shape, rows in at[0].items():
        for c in rows or {}:
            a = rows[c]["cost"]
            out[(shape, c)] = (a, at[1][shape][c]["cost"] - a, at[2][shape][c]["cost"] - a)
    return out


def check_every_machine(binary):
    """Each row's a, b, c; the Pareto set by dominance; each region of (g, l)
    against the minima at sample points (the crossings of every two rows at
    several l, and points between them); the g where the best changes."""
    passed = failed = 0
    for path, sizes, counts in EVERY_MACHINE:
        spec = bspenum.Parser(bspenum.tokenize(open(os.path.join(ROOT, path)).read())).spec()
        cmd = [binary, "-f", "json", "-p", ",".join(map(str, counts))]
        for k, v in sizes.items():
            cmd += ["-D", "%s=%s" % (k, v)]
        p = subprocess.run(cmd + [path], capture_output=True, text=True, timeout=600, cwd=ROOT)
        try:
            tables = decode_stream(p.stdout)
        except ValueError:
            tables = []
        for i, count in enumerate(counts):
            bad = []
            if p.returncode != 0 or i >= len(tables):
                bad.append("exit %d, no table: %s" % (p.returncode, p.stderr.strip()[:300]))
            else:
                bad = every_machine_table(tables[i], line_costs(spec, sizes, count))
            for b in bad:
                print("MISMATCH every machine %s %s P=%d: %s" % (path, sizes, count, b))
            if bad:
                print("  reproduce: %s %s" % (" ".join(cmd), path))
                failed += 1
            else:
                passed += 1
    return passed, failed


def every_machine_table(got, want):
    bad = []
    F = lambda v: Fraction(str(v))  # noqa: E731
    rows = {}
    for r in got["rows"]:
        key = (tuple(r["shape"]), r["candidate"])
        rows[key] = r
        if key not in want:
            bad.append("row %s not expected" % (key,))
            continue
        if (F(r["w"]), F(r["h"]), F(r["supersteps"])) != want[key]:
            bad.append("row %s: w, h, S %s %s %s, bspenum %s" % (
                key, r["w"], r["h"], r["supersteps"], want[key]))
    if set(rows) != set(want):
        bad.append("rows %d, expected %d" % (len(rows), len(want)))
        return bad
    keys = sorted(want)

    def dominated(k):
        return any(all(x <= y for x, y in zip(want[o], want[k])) and want[o] != want[k]
                   for o in keys)
    for k in keys:
        if rows[k]["pareto"] == dominated(k):
            bad.append("row %s: pareto %s" % (k, rows[k]["pareto"]))
    pareto = [k for k in keys if not dominated(k)]
    one = len({want[k] for k in pareto}) == 1
    if got["one_best"] != one:
        bad.append("one_best %s, expected %s" % (got["one_best"], one))
    # sample points: every crossing of two rows on g at these l, and between
    ls = [Fraction(0), Fraction(1), Fraction(37, 3), Fraction(1000)]
    pts = set()
    for l in ls:
        gs = {Fraction(0)}
        for x in pareto:
            for y in pareto:
                (a1, b1, c1), (a2, b2, c2) = want[x], want[y]
                if b1 != b2:
                    g = (a2 - a1 + (c2 - c1) * l) / (b1 - b2)
                    if g >= 0:
                        gs.add(g)
        gs = sorted(gs)
        mids = [(u + v) / 2 for u, v in zip(gs, gs[1:])] + [gs[-1] + 1, gs[-1] * 2 + 5]
        pts |= {(g, l) for g in gs + mids}
    for g, l in sorted(pts):
        cost = {k: a + b * g + c * l for k, (a, b, c) in want.items()}
        low = min(cost.values())
        for k in pareto:
            where = rows[k]["best_where"]
            if where is None:
                continue   # best nowhere alone
            inside = all(F(c["g"]) * g + F(c["l"]) * l <= F(c["le"]) for c in where)
            if inside != (cost[k] == low):
                bad.append("g=%s l=%s: row %s %s in its region, but %s" % (
                    g, l, k, "is" if inside else "is not",
                    "costs the least" if cost[k] == low else "costs more"))
                break
    # where the best changes with g (the Pareto rows share S): every g
    # at which the cheapest set changes, from the rows' lines at l = 0
    if got["depends_on"] == "g":
        if len({want[k][2] for k in pareto}) != 1:
            bad.append("depends on g alone, but the rows run different supersteps")
        cands = sorted({g for g, l in pts if l == 0})
        eps = min([v - u for u, v in zip(cands, cands[1:])] + [Fraction(1)]) / 4

        def best(g):
            cost = {k: want[k][0] + want[k][1] * g for k in keys}
            low = min(cost.values())
            return {want[k] for k in keys if cost[k] == low}
        changes = [g for g in cands if g > 0 and best(g - eps) != best(g + eps)]
        if [F(v) for v in got["changes_at_g"]] != changes:
            bad.append("changes_at_g %s, expected %s" % (got["changes_at_g"], changes))
    return bad


def main(argv):
    if len(argv) != 1:
        sys.stderr.write("usage: rank.py BIN\n")
        return 2
    binary = os.path.abspath(argv[0])
    passed = failed = 0
    for path, sizes, counts, *gl in CASES:
        g, l = gl[0] if gl else (G, L)
        spec = bspenum.Parser(bspenum.tokenize(open(os.path.join(ROOT, path)).read())).spec()
        p, shown = run(binary, path, sizes, counts, g, l)
        try:
            tables = [one_point(t) for t in decode_stream(p.stdout)]
        except ValueError as e:
            tables = []
            print("FAIL %s: no JSON (%s): %s" % (shown, e, p.stderr.strip()[:300]))
        if p.returncode != 0:
            print("FAIL %s: exit status %d: %s" % (shown, p.returncode, p.stderr.strip()[:300]))
        for i, count in enumerate(counts):
            where = "%s %s g=%s l=%s P=%d" % (
                path, " ".join("%s=%d" % kv for kv in sizes.items()), g, l, count)
            if i >= len(tables) or p.returncode != 0:
                print("FAIL %s: no ranking" % where)
                failed += 1
                continue
            want, cands = expected(spec, sizes, count, g, l)
            bad = check_ranking(tables[i], want, cands, count, g, l)
            # --top: the same ranking, cut
            top, _ = run(binary, path, sizes, [count], g, l, ["--top", "3"])
            try:
                cut = one_point(decode_stream(top.stdout)[0])
                if cut["ranking"] != tables[i]["ranking"][:3] or top.returncode != 0:
                    bad.append("--top 3 is not the first 3 rows")
            except (ValueError, IndexError):
                bad.append("--top 3: no JSON")
            for b in bad:
                print("MISMATCH %s: %s" % (where, b))
            if bad:
                print("  reproduce: %s" % shown)
                failed += 1
            else:
                passed += 1
            sys.stdout.flush()
    sp, sf = check_sweeps(binary)
    passed += sp
    failed += sf
    sp, sf = check_every_machine(binary)
    passed += sp
    failed += sf
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
