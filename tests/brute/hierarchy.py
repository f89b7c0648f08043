#!/usr/bin/env python3
"""hierarchy.py BIN: bspcost --hierarchy's H(i) and alpha against the words
bspenum.py enumerates between every pair of processes.

For every case below (every example), at grids of p = 2^k processes (k = 1
.. 4, 1-D and 2-D shapes) and each numbering (row, col, morton), this checks
every superstep
of every candidate of `BIN --hierarchy --numbering NB -f json -D ...`:

  - its processes are numbered as bspcost(1) says: row-major (the last axis
    fastest), column-major (the first fastest), Morton (the axes' bits
    interleaved, the last axis's lowest, an axis whose bits are used up
    left out);
  - Definition 2.3 of Soviani and Singh, read literally: the (i+1)-clusters
    are the runs of 2^(k-i-1) consecutive process numbers, |C_s| the words
    their processes send to processes outside, |C_r| those they receive
    from outside, H(i) = max over the clusters of max(|C_s|, |C_r|) /
    2^(k-i-1), as exact fractions;
  - H(k-1) is bspenum's h;
  - alpha is the largest with H(j) <= h / 2^((k-j-1) alpha) for every j:
    found here by trying every level's bound (log2(h/H(j))/(k-j-1), exact
    when h/H(j) is a power of two) and keeping the one every level meets;
    "none" when h = 0, "unbounded" when no level below the top has words;
  - a superstep in loops: each run's H and alpha as above, H(i) summed
    over the runs, alpha the least of the runs' (the largest every run
    meets; a run without words, or without a bound, bounds nothing);
  - with --topology (a different one each run, or a machine profile's
    level entries, --machine): the superstep's and the
    candidate's D-BSP cost, w + the sum over the runs and levels of
    ceil(H_run(i)) g(i) + l(i) + Pf(i), and flat BSP cost, w + h g(0) +
    l(0) per run, exactly (sums of rationals times 2^(r/n)), g, l and Pf of
    a cluster of 2^d processes as bspcost(1) gives each topology.

And `-p P --hierarchy --topology T`'s rankings (RANKINGS below): every shape
of P that meets the assumptions, every numbering (one on a grid of one axis)
and every candidate has a row whose D-BSP and BSP costs are the ones above
at that shape, ranked by the D-BSP cost (the rank 1 + the rows strictly
below it, ties marked), and a shape that breaks an assumption has one row,
without a rank.

And a numbering file (MAPS below): the grid's processes in a shuffled order,
the clusters runs of consecutive numbers that are no boxes.

And H(i)'s formulas in the sizes (FORMULAS below): `BIN --hierarchy --grid
G --numbering NB -f json SPEC`, the sizes left free, once; each H(i) (a
formula, tests/brute/formula.py evaluates it exactly) at several sizes,
dividing the grid's axes and not, equal to Definition 2.3's H(i) from the
enumerator's words at those sizes; a superstep in loops has none, and says
why.

Ends with `N passed, N failed`, exit status 1 if any failed.
"""

import itertools
import json
import math
import os
import re
import subprocess
import sys
import tempfile
from fractions import Fraction

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import bspenum  # noqa: E402
import formula  # noqa: E402

# (spec, sizes without the axes, the grids to try: {axis: size})
ONE_AXIS = [{"P": 2}, {"P": 4}, {"P": 8}, {"P": 16}]
TWO_AXES = [{"M": 2, "N": 2}, {"M": 2, "N": 4}, {"M": 4, "N": 2}, {"M": 4, "N": 4}]
CASES = [
    ("examples/stencil1d.bsp", {"n": 64}, ONE_AXIS[1:2] + ONE_AXIS[3:]),
    ("examples/broadcast.bsp", {"n": 16}, ONE_AXIS[1:3]),
    ("examples/reduce.bsp", {}, ONE_AXIS[2:4]),
    ("examples/fft.bsp", {"m": 8}, ONE_AXIS[:2]),
    ("examples/jacobi.bsp", {"n": 16, "T": 2}, ONE_AXIS[:2]),
    ("examples/stencil2d.bsp", {"n": 8, "m": 8}, TWO_AXES[1:2]),
    ("examples/stencil2d.bsp", {"n": 7, "m": 9}, TWO_AXES[:1]),
    ("examples/matmul.bsp", {"m": 4, "n": 4, "o": 4}, TWO_AXES[:1]),
    ("examples/matmul.bsp", {"m": 4, "n": 8, "o": 4}, TWO_AXES[1:2]),
    ("examples/matmul2.bsp", {"m": 4, "n": 8, "o": 8}, TWO_AXES[:2]),
    ("examples/matmul_replicated.bsp", {"m": 4, "n": 4, "o": 4}, TWO_AXES[:2]),
    ("examples/matmul_variants.bsp", {"m": 4, "n": 4, "o": 4}, TWO_AXES[:1]),
    ("examples/matmul_variants.bsp", {"m": 4, "n": 5, "o": 5}, TWO_AXES[1:2]),
    ("examples/matvec.bsp", {"m": 8, "n": 8}, TWO_AXES[:1] + TWO_AXES[2:3]),
    ("examples/transpose.bsp", {"m": 8, "n": 8}, TWO_AXES[:2]),
    ("examples/stencil3d.bsp", {"nx": 4, "ny": 8, "nz": 3}, TWO_AXES[:2]),
    ("examples/lu.bsp", {"n": 4}, TWO_AXES[:1]),
    ("examples/lu.bsp", {"n": 8}, TWO_AXES[2:3]),
    ("examples/cannon.bsp", {"b": 1}, [{"Q": 2, "R": 2}, {"Q": 4, "R": 4}]),
    ("examples/summa.bsp", {"m": 4, "n": 4, "k": 4}, TWO_AXES[:2]),
    ("examples/lu_blocks.bsp", {"n": 4, "nb": 1}, TWO_AXES[:1]),
    ("examples/lu_blocks.bsp", {"n": 8, "nb": 2}, TWO_AXES[1:2]),
    ("tests/brute/specs/element_size.bsp", {"n": 4, "m": 8}, TWO_AXES[:2]),
    # Soviani and Singh's kernels (their growth: tests/brute/hierarchy_growth.py)
    ("examples/gbroadcast.bsp", {"n": 3}, ONE_AXIS[1:3]),
    ("examples/ns_fft.bsp", {"n": 2}, [{"M": 8, "N": 2}, {"M": 4, "N": 4}]),
    ("examples/neighbours.bsp", {"n": 2}, [{"M": 4, "N": 4}, {"M": 4, "N": 2}]),
]
# the enumerator takes 10 s over PDGEMM's 64^3 (its assumptions want m >= 32
# M): with HIERARCHY_ALL=1 only (make check leaves it out; its relations are
# C-stationary matmul's and partial sums')
if os.environ.get("HIERARCHY_ALL"):
    CASES.append(("examples/pdgemm.bsp", {"m": 64, "n": 64, "k": 64}, TWO_AXES[:1]))
NUMBERINGS = ["row", "col", "morton"]


def root(n, d):
    """2^(d/n) as {r: coefficient}, its value sum coefficient * 2^(r/n)."""
    return {d % n: Fraction(2 ** (d // n))}


# a topology: (n of its roots, g, l, Pf), each a function of d = log2 of a
# cluster's processes, as {r: coefficient}
TOPOLOGIES = {
    "butterfly": (1, lambda d: {0: Fraction(d)}, lambda d: {0: Fraction(d)},
                  lambda d: {0: Fraction(d * d)}),
    "pruned-butterfly": (2, lambda d: root(2, d), lambda d: {0: Fraction(d)},
                         lambda d: {0: Fraction(d * d)}),
    "mesh2d": (2, lambda d: root(2, d), lambda d: root(2, d), lambda d: root(2, d)),
    "mesh3d": (3, lambda d: root(3, d), lambda d: root(3, d), lambda d: root(3, d)),
}


# a machine profile's level entries (its unit flops): clusters of 2^d
# processes, d = 1 .. 4, g, l and Pf fractions
LEVELS = {1: (Fraction(1, 2), Fraction(10), Fraction(0)), 2: (Fraction(2), Fraction(50), Fraction(3)),
          3: (Fraction(8), Fraction(400), Fraction(100)), 4: (Fraction(9), Fraction(801, 2), Fraction(7))}
PROFILE = "machine lv\n" + "".join("level %d g %s l %s pf %s\n" % ((1 << d,) + v)
                                   for d, v in sorted(LEVELS.items()))
TOPOLOGIES["profile"] = (1, lambda d: {0: LEVELS[d][0]} if d else {},
                         lambda d: {0: LEVELS[d][1]} if d else {},
                         lambda d: {0: LEVELS[d][2]} if d else {})


def add(acc, x, times=1):
    for r, c in x.items():
        acc[r] = acc.get(r, Fraction(0)) + c * times


def parse_root(text, n):
    """bspcost's exact cost ("46 + 4*2^(1/2)", or a number) as {r: coefficient}."""
    if isinstance(text, int):
        return {0: Fraction(text)} if text else {}
    out = {}
    for sign, term in re.findall(r"(^-?|[+-] )([^ ]+)", text):
        c, _, rt = term.partition("2^(") if "2^(" in term else (term, "", "")
        c = c.rstrip("*")
        coef = Fraction(c) if c else Fraction(1)
        if sign.strip() == "-" or sign == "-":
            coef = -coef
        r = int(rt.split("/")[0]) if rt else 0
        if rt and int(rt.rstrip(")").split("/")[1]) != n:
            raise ValueError("root %s in %s, not of %d" % (rt, text, n))
        out[r] = out.get(r, Fraction(0)) + coef
    return out


def costs(topology, k, w, h, runs_H):
    """(D-BSP, flat BSP) of a superstep: work W and h H summed over its runs,
    RUNS_H each run's H vector."""
    n, g, l, pf = TOPOLOGIES[topology]
    dbsp, flat = {0: Fraction(w)}, {0: Fraction(w)}
    for Hr in runs_H:
        for i in range(k):
            d = k - i
            add(dbsp, g(d), math.ceil(Hr[i]))
            add(dbsp, l(d))
            add(dbsp, pf(d))
        add(flat, l(k))
    add(flat, g(k), h)
    return ({r: c for r, c in dbsp.items() if c}, {r: c for r, c in flat.items() if c})


def number(q, sizes, how):
    """The number of process Q (coordinates, the first axis first) on the
    grid SIZES under numbering HOW."""
    d = len(sizes)
    if isinstance(how, dict):   # a numbering file's: coordinates -> number
        return how[tuple(q)]
    if how == "row":
        n = 0
        for a in range(d):
            n = n * sizes[a] + q[a]
        return n
    if how == "col":
        n = 0
        for a in reversed(range(d)):
            n = n * sizes[a] + q[a]
        return n
    # morton: bit t of every axis that has one, the last axis first, t = 0, 1, ...
    n, pos, t = 0, 0, 0
    while (1 << t) < max(sizes):
        for a in reversed(range(d)):
            if (1 << t) < sizes[a]:
                n |= ((q[a] >> t) & 1) << pos
                pos += 1
        t += 1
    return n


def h_vector(pairs, sizes, how):
    """H(0 .. k-1) of the words PAIRS ([sender, receiver, words]) by
    Definition 2.3, the clusters runs of consecutive numbers."""
    p = 1
    for s in sizes:
        p *= s
    k = p.bit_length() - 1
    H = []
    for i in range(k):
        size = 1 << (k - i - 1)
        out = [0] * (p // size)
        inn = [0] * (p // size)
        for x, y, w in pairs:
            cx = number(x, sizes, how) // size
            cy = number(y, sizes, how) // size
            if cx != cy:
                out[cx] += w
                inn[cy] += w
        H.append(Fraction(max(max(out), max(inn)), size))
    return H


def alpha_of(H):
    """Definition 2.4's largest alpha: "none", "unbounded" or (r, d), alpha =
    log2(r)/d."""
    k = len(H)
    if k == 0 or H[-1] == 0:
        return "none"
    h = H[-1]
    best = None   # (ratio, d) of the tightest level
    for j in range(k - 1):
        if H[j] == 0:
            continue
        r, d = h / H[j], k - 1 - j
        # the bound of level j, alpha_j = log2(r)/d, against the best so far:
        # r^e < b^d exactly
        if best is None or r ** best[1] < best[0] ** d:
            best = (r, d)
    if best is None:
        return "unbounded"
    r, d = best
    # every level meets it: H(j) <= h / 2^((k-j-1) alpha), i.e. (h/H(j))^d >= r^(k-1-j)
    for j in range(k - 1):
        if H[j] and (h / H[j]) ** d < r ** (k - 1 - j):
            raise AssertionError("level %d breaks the bound" % j)
    return best


def least(a, b):
    """The smaller of two alphas of alpha_of; "none" and "unbounded" bound
    nothing."""
    if not isinstance(a, tuple):
        return b if isinstance(b, tuple) or b == "unbounded" else a
    if not isinstance(b, tuple):
        return a
    return b if b[0] ** a[1] < a[0] ** b[1] else a


def alpha_text(alpha):
    """ALPHA (of alpha_of) as bspcost writes it."""
    if not isinstance(alpha, tuple):
        return alpha
    r, d = alpha
    if r.denominator == 1 and r.numerator & (r.numerator - 1) == 0:
        return str(Fraction(r.numerator.bit_length() - 1, d))
    return "log2(%s)" % r if d == 1 else "log2(%s)/%d" % (r, d)


def defines(values):
    out = []
    for k, v in values.items():
        out += ["-D", "%s=%s" % (k, v)]
    return out


def candidates_against(where, got, want, bad):
    """The pairs (bspcost's candidate, bspenum's) of the reports GOT and
    WANT, those with counts; a different number of candidates (then no
    pair) or a candidate without counts is a failure said in BAD."""
    if len(got["candidates"]) != len(want["candidates"]):
        bad.append("%s: %d candidates, bspenum %d" % (where, len(got["candidates"]),
                                                     len(want["candidates"])))
        return []
    pairs = []
    for gc, wc in zip(got["candidates"], want["candidates"]):
        if "supersteps" not in gc:
            bad.append("%s: %s: no counts: %s" % (where, gc["name"], gc.get("reason")))
        else:
            pairs.append((gc, wc))
    return pairs


def check(binary, path, values, turn, bad):
    spec = bspenum.Parser(bspenum.tokenize(open(os.path.join(ROOT, path)).read())).spec()
    sizes = [values[a] for a in spec["axes"]]
    want = bspenum.analyze(spec, values, pairs=True)
    names = sorted(TOPOLOGIES)
    for t, how in enumerate(NUMBERINGS):
        topo = names[(turn + t) % len(names)]
        machine = ["--topology", topo]
        if topo == "profile":   # the level entries of a machine profile
            prof = os.path.join(tempfile.gettempdir(), "hierarchy_levels_%d.machine" % os.getpid())
            with open(prof, "w") as f:
                f.write(PROFILE)
            machine = ["--machine", prof]
        r = subprocess.run([binary, "--hierarchy", "--numbering", how] + machine
                           + ["-f", "json"] + defines(values) + [path],
                           capture_output=True, text=True, cwd=ROOT)
        if topo == "profile":
            os.unlink(prof)
        where = "%s %s --numbering %s --topology %s" % (path, " ".join(defines(values)), how,
                                                        topo)
        if r.returncode != 0:
            bad.append("%s: exit %d: %s" % (where, r.returncode, r.stderr.strip()[-300:]))
            continue
        got = json.loads(r.stdout)
        for gc, wc in candidates_against(where, got, want, bad):
            n = TOPOLOGIES[topo][0]
            total = ({}, {})
            if len(gc["supersteps"]) != len(wc["supersteps"]):
                bad.append("%s: %s: %d supersteps, bspenum %d"
                           % (where, gc["name"], len(gc["supersteps"]), len(wc["supersteps"])))
                continue
            for gs, ws in zip(gc["supersteps"], wc["supersteps"]):
                what = "%s: %s / %s" % (where, gc["name"], gs["name"])
                H, alpha, h = None, None, 0
                runs_H = []
                for run in ws["pairs"]:
                    Hr = h_vector(run, sizes, how)
                    runs_H.append(Hr)
                    H = Hr if H is None else [x + y for x, y in zip(H, Hr)]
                    alpha = alpha_of(Hr) if alpha is None else least(alpha, alpha_of(Hr))
                    h += Hr[-1] if Hr else 0
                if H is None:   # no run
                    p = 1
                    for x in sizes:
                        p *= x
                    H, alpha = [Fraction(0)] * (p.bit_length() - 1), "none"
                gH = None if gs["H"] is None else [Fraction(str(x)) for x in gs["H"]]
                if gH != H:
                    bad.append("%s: H %s, by Definition 2.3 %s"
                               % (what, gs["H"], [str(x) for x in H]))
                    continue
                if H and h != ws["h"]:
                    bad.append("%s: H(k-1) = %s but bspenum's h is %s" % (what, h, ws["h"]))
                dbsp, flat = costs(topo, len(H), ws["w"], ws["h"], runs_H)
                for x, key in ((dbsp, "dbsp"), (flat, "bsp")):
                    add(total[key == "bsp"], x)
                    if parse_root(gs[key], n) != x:
                        bad.append("%s: %s %s, by Theorem 3.1 %s" % (what, key, gs[key], x))
                al = alpha_text(alpha)
                galpha = gs["alpha"]
                gtext = ("none" if gs.get("alpha_why") == "no word moves" else
                         "unbounded" if gs.get("alpha_why") == "unbounded" else str(galpha))
                if gtext != al:
                    bad.append("%s: alpha %s, by Definition 2.4 %s" % (what, gtext, al))
                elif gs.get("alpha_approx") is not None and al.startswith("log2"):
                    r = Fraction(al[5:al.index(")")])
                    d = int(al.split("/")[-1]) if ")/" in al else 1
                    if abs(gs["alpha_approx"] - math.log2(r) / d) > 1e-9:
                        bad.append("%s: alpha_approx %s, log2 gives %s"
                                   % (what, gs["alpha_approx"], math.log2(r) / d))
            for x, key in ((total[0], "dbsp"), (total[1], "bsp")):
                x = {r: c for r, c in x.items() if c}
                if parse_root(gc[key], n) != x:
                    bad.append("%s: %s: %s %s, the sum of its supersteps' %s"
                               % (where, gc["name"], key, gc[key], x))


# (spec, sizes, process count, topology)
RANKINGS = [
    ("examples/stencil2d.bsp", {"n": 8, "m": 8}, 4, "pruned-butterfly"),
    ("examples/matvec.bsp", {"m": 8, "n": 8}, 4, "mesh3d"),
]


def value(x, n):
    """{r: c} over 2^(r/n) as a float (for the order; ties are equal dicts)."""
    return sum(float(c) * 2 ** (r / n) for r, c in x.items())


def check_ranking(binary, path, sizes, p, topo, bad):
    spec = bspenum.Parser(bspenum.tokenize(open(os.path.join(ROOT, path)).read())).spec()
    axes = spec["axes"]
    n = TOPOLOGIES[topo][0]
    r = subprocess.run([binary, "-p", str(p), "--hierarchy", "--topology", topo, "-f", "json"]
                       + defines(sizes) + [path], capture_output=True, text=True, cwd=ROOT)
    where = "%s -p %d --topology %s" % (path, p, topo)
    if r.returncode != 0:
        bad.append("%s: exit %d: %s" % (where, r.returncode, r.stderr.strip()[-300:]))
        return
    rows = json.loads(r.stdout)["rankings"][0]["rows"]
    seen = set()
    want = []   # (cost, key) of every counted row
    for row in rows:
        shape = tuple(row["shape"][a] for a in axes)
        values = dict(sizes)
        values.update(row["shape"])
        key = (shape, row["numbering"], row["candidate"])
        seen.add(key)
        try:
            bspenum.check_values(spec, values)
            ok_shape = True
        except bspenum.SpecError:
            ok_shape = False
        if row.get("reason") is not None:
            if ok_shape or row["rank"] is not None:
                bad.append("%s: %s refused (%s), yet its values meet the assumptions"
                           % (where, key, row["reason"]))
            continue
        if not ok_shape:
            bad.append("%s: %s ranked, yet its values break an assumption" % (where, key))
            continue
        res = bspenum.analyze(spec, values, pairs=True)
        cand = [c for c in res["candidates"] if c["name"] == row["candidate"]][0]
        total = ({}, {})
        for ws in cand["supersteps"]:
            runs_H = [h_vector(run, list(shape), row["numbering"]) for run in ws["pairs"]]
            k = (p.bit_length() - 1)
            dbsp, flat = costs(topo, k, ws["w"], ws["h"], runs_H)
            add(total[0], dbsp)
            add(total[1], flat)
        total = tuple({q: c for q, c in x.items() if c} for x in total)
        if parse_root(row["dbsp"], n) != total[0] or parse_root(row["bsp"], n) != total[1]:
            bad.append("%s: %s: D-BSP %s, BSP %s; by Theorem 3.1 %s, %s"
                       % (where, key, row["dbsp"], row["bsp"], total[0], total[1]))
        want.append((value(total[0], n), total[0], row))
    for v, x, row in want:
        below = sum(1 for w, y, _ in want if w < v and y != x)
        tie = any(y == x for w, y, other in want if other is not row)
        if row["rank"] != below + 1 or row["tie"] != tie:
            bad.append("%s: %s %s %s: rank %s%s, expected %d%s"
                       % (where, row["shape"], row["numbering"], row["candidate"], row["rank"],
                          " (tie)" if row["tie"] else "", below + 1, " (tie)" if tie else ""))
    ranks = [row["rank"] for row in rows if row["rank"] is not None]
    if ranks != sorted(ranks):
        bad.append("%s: the rows are not in the order of their ranks: %s" % (where, ranks))
    # every shape, numbering and candidate has its row
    names = [c for c, _, _, _ in bspenum.variants(spec)]
    for shape in itertools.product(*[[d for d in range(1, p + 1) if p % d == 0]] * len(axes)):
        if math.prod(shape) != p:
            continue
        keys = [k for k in seen if k[0] == shape]
        if not keys:
            bad.append("%s: no row for the shape %s" % (where, shape))
        elif all(k[2] is not None for k in keys):
            # on a shape of one axis longer than 1 the numberings are one
            nbs = NUMBERINGS if sum(1 for d in shape if d > 1) > 1 else ["row"]
            for nb in nbs:
                for c in names:
                    if (shape, nb, c) not in seen:
                        bad.append("%s: no row for %s %s %s" % (where, shape, nb, c))


# a numbering file (--numbering FILE): the grid's processes shuffled
MAPS = [
    ("examples/stencil2d.bsp", {"n": 8, "m": 8, "M": 4, "N": 4}, 5),
    ("examples/lu.bsp", {"n": 5, "M": 2, "N": 2}, 7),
]


def check_map(binary, path, values, seed, bad):
    import random
    spec = bspenum.Parser(bspenum.tokenize(open(os.path.join(ROOT, path)).read())).spec()
    sizes = [values[a] for a in spec["axes"]]
    procs = list(itertools.product(*[range(s) for s in sizes]))
    random.Random(seed).shuffle(procs)
    numbers = {q: j for j, q in enumerate(procs)}
    mapfile = os.path.join(tempfile.gettempdir(), "hierarchy_map_%d" % os.getpid())
    with open(mapfile, "w") as f:
        f.write("# the processes in a shuffled order\n")
        for q in procs:
            f.write(" ".join(str(c) for c in q) + "\n")
    r = subprocess.run([binary, "--hierarchy", "--numbering", mapfile, "-f", "json"]
                       + defines(values) + [path], capture_output=True, text=True, cwd=ROOT)
    os.unlink(mapfile)
    where = "%s %s --numbering (shuffled, seed %d)" % (path, " ".join(defines(values)), seed)
    if r.returncode != 0:
        bad.append("%s: exit %d: %s" % (where, r.returncode, r.stderr.strip()[-300:]))
        return
    got = json.loads(r.stdout)
    want = bspenum.analyze(spec, values, pairs=True)
    for gc, wc in zip(got["candidates"], want["candidates"]):
        for gs, ws in zip(gc["supersteps"], wc["supersteps"]):
            H, alpha = None, None
            for run in ws["pairs"]:
                Hr = h_vector(run, sizes, numbers)
                H = Hr if H is None else [x + y for x, y in zip(H, Hr)]
                alpha = alpha_of(Hr) if alpha is None else least(alpha, alpha_of(Hr))
            gH = [Fraction(str(x)) for x in gs["H"]]
            gtext = ("none" if gs.get("alpha_why") == "no word moves" else
                     "unbounded" if gs.get("alpha_why") == "unbounded" else str(gs["alpha"]))
            if gH != H or gtext != alpha_text(alpha):
                bad.append("%s: %s / %s: H %s alpha %s; by the definitions %s, %s"
                           % (where, gc["name"], gs["name"], gs["H"], gtext,
                              [str(x) for x in H], alpha_text(alpha)))


# (spec, grid, numbering, --all-sizes, the sizes at which the formulas are
# checked, each meeting the specification's assumptions: those that break
# H_conditions are left out, and said if all are)
FORMULAS = [
    ("examples/stencil1d.bsp", {"P": 4}, "row", True, [{"n": n} for n in (8, 11, 21, 30)]),
    ("examples/stencil1d.bsp", {"P": 8}, "col", False, [{"n": n} for n in (16, 24, 40)]),
    ("examples/stencil2d.bsp", {"M": 4, "N": 4}, "morton", False,
     [{"n": n, "m": m} for n, m in ((8, 8), (8, 12), (16, 12), (9, 10))]),
    ("examples/stencil2d.bsp", {"M": 2, "N": 2}, "col", True,
     [{"n": n, "m": m} for n, m in ((4, 4), (5, 7), (7, 6))]),
    ("examples/stencil2d.bsp", {"M": 2, "N": 4}, "col", False,
     [{"n": n, "m": m} for n, m in ((4, 8), (6, 12), (8, 16))]),
    ("examples/transpose.bsp", {"M": 2, "N": 4}, "row", False,
     [{"m": m, "n": n} for m, n in ((4, 4), (8, 8), (12, 8))]),
    ("examples/transpose.bsp", {"M": 2, "N": 2}, "morton", True,
     [{"m": m, "n": n} for m, n in ((4, 4), (5, 6), (7, 3))]),
    ("examples/matvec.bsp", {"M": 2, "N": 4}, "morton", False,
     [{"m": m, "n": n} for m, n in ((2, 4), (4, 8), (6, 12))]),
    ("examples/neighbours.bsp", {"M": 4, "N": 2}, "morton", False, [{"n": n} for n in (1, 2, 3)]),
    ("examples/jacobi.bsp", {"P": 4}, "row", False, [{"n": 8, "T": 2}]),
]


def check_formulas(binary, path, grid, how, all_sizes, points, bad):
    """H(i)'s formulas of PATH on GRID numbered HOW (with --all-sizes when
    ALL_SIZES) at every size of POINTS that meets their conditions."""
    r = subprocess.run([binary, "--hierarchy", "--numbering", how, "-f", "json", "--grid",
                        "x".join(str(v) for v in grid.values())]
                       + (["--all-sizes"] if all_sizes else []) + [path],
                       capture_output=True, text=True, cwd=ROOT)
    where = "%s --grid %s --numbering %s%s" % (path, grid, how,
                                              " --all-sizes" if all_sizes else "")
    if r.returncode not in (0, 1):
        bad.append("%s: exit %d: %s" % (where, r.returncode, r.stderr.strip()[-300:]))
        return
    got = json.loads(r.stdout)
    # exit 1 exactly when some superstep has no H (said in the report)
    missing = any(s["H"] is None for c in got["candidates"] for s in c.get("supersteps", []))
    if r.returncode != (1 if missing else 0):
        bad.append("%s: exit %d, with %s superstep without H" % (where, r.returncode,
                                                               "a" if missing else "no"))
    if got.get("H_as") != "formulas":
        bad.append("%s: H_as %s, not formulas" % (where, got.get("H_as")))
        return
    spec = bspenum.Parser(bspenum.tokenize(open(os.path.join(ROOT, path)).read())).spec()
    sizes = [grid[a] for a in spec["axes"]]
    checked = dict((c["name"], 0) for c in got["candidates"])
    for point in points:
        values = dict(point)
        values.update(grid)
        want = bspenum.analyze(spec, values, pairs=True)
        for gc, wc in candidates_against(where, got, want, bad):
            if [s["name"] for s in gc["supersteps"]] != [s["name"] for s in wc["supersteps"]]:
                bad.append("%s: %s: supersteps %s, bspenum %s"
                           % (where, gc["name"], [s["name"] for s in gc["supersteps"]],
                              [s["name"] for s in wc["supersteps"]]))
                continue
            conds = gc.get("H_conditions", [])
            if all_sizes and conds:
                bad.append("%s: %s: --all-sizes with conditions %s" % (where, gc["name"], conds))
            if any(formula.evaluate("(%s) ? 1 : 0" % c, values) != 1 for c in conds):
                continue
            checked[gc["name"]] += 1
            for gs, ws in zip(gc["supersteps"], wc["supersteps"]):
                what = "%s %s: %s / %s" % (where, point, gc["name"], gs["name"])
                if len(ws["pairs"]) != 1:
                    # in loops: at values only, and said
                    if gs["H"] is not None or "values only" not in gs.get("why", ""):
                        bad.append("%s: a superstep in loops with H %s" % (what, gs["H"]))
                    continue
                if gs["H"] is None:
                    bad.append("%s: no H: %s" % (what, gs.get("why")))
                    continue
                H = h_vector(ws["pairs"][0], sizes, how)
                gH = [Fraction(formula.evaluate(f, values)) for f in gs["H"]]
                if gH != H:
                    bad.append("%s: H %s = %s, by Definition 2.3 %s"
                               % (what, gs["H"], [str(x) for x in gH], [str(x) for x in H]))
                if gs["alpha"] is not None:
                    bad.append("%s: alpha %s from formulas" % (what, gs["alpha"]))
    for name, n in checked.items():
        if n == 0:
            bad.append("%s: %s: no point meets its formulas' conditions" % (where, name))


def one_case(where, fn, *args):
    """Runs the check FN(*ARGS, bad), prints its failures; True when none
    (an unreadable answer is a failure, said with WHERE)."""
    bad = []
    try:
        fn(*args, bad)
    except Exception as e:
        bad.append("%s: %s" % (where, e))
    for b in bad:
        print("FAIL " + b)
    return not bad


def main(argv):
    if len(argv) != 1:
        sys.stderr.write("usage: hierarchy.py BIN\n")
        return 2
    binary = os.path.abspath(argv[0])
    results = []
    turn = 0
    for path, sizes, grids in CASES:
        for grid in grids:
            values = dict(sizes)
            values.update(grid)
            turn += 1
            results.append(one_case("%s %s" % (path, values), check, binary, path, values,
                                    turn))
    for path, values, seed in MAPS:
        results.append(one_case("%s map" % path, check_map, binary, path, values, seed))
    for path, grid, how, all_sizes, points in FORMULAS:
        results.append(one_case("%s formulas" % path, check_formulas, binary, path, grid, how,
                                all_sizes, points))
    for path, sizes, p, topo in RANKINGS:
        results.append(one_case("%s -p %d" % (path, p), check_ranking, binary, path, sizes, p,
                                topo))
    passed = sum(results)
    print("%d passed, %d failed" % (passed, len(results) - passed))
    return 0 if passed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
