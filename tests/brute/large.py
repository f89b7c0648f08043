#!/usr/bin/env python3
"""large.py BIN: the values counted directly at real sizes against the formulas.

Enumeration cannot reach n = 2^40, so at such sizes the direct values are
checked against the other exact result bspcost has: each candidate's symbolic
formula, evaluated here exactly (formula.py, written independently of bspcost's
own evaluator) wherever the point satisfies the candidate's assumptions, or,
for a candidate without a formula, the values worked out by hand (HAND).  The
points below divide evenly, so that every formula applies.  One case per spec
and point; ends with `N passed, N failed`, exit status 1 if any failed.
"""

import json
import math
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.dont_write_bytecode = True
sys.path.insert(0, HERE)
import formula  # noqa: E402
from compare import assumptions_hold  # noqa: E402

QUANTITIES = ("w", "h", "h_in", "h_out", "ncom", "cost")
G, L = 4, 1000

POINTS = [
    ("stencil1d", {"n": 2**40, "P": 65536}),
    ("stencil1d", {"n": 2**20, "P": 1024}),
    ("broadcast", {"n": 2**30, "P": 4096}),
    ("stencil2d", {"n": 4096, "m": 4096, "M": 64, "N": 64}),
    ("stencil2d", {"n": 2**20, "m": 2**20, "M": 1024, "N": 4}),
    # the whole 64 x 64 grid has too many cases at once: counted by cells
    ("stencil3d", {"nx": 512, "ny": 512, "nz": 512, "M": 64, "N": 64}),
    ("stencil3d", {"nx": 2**20, "ny": 2**12, "nz": 2**10, "M": 256, "N": 16}),
    ("matmul", {"m": 2**20, "n": 2**20, "o": 2**20, "M": 4, "N": 4}),
    ("matmul2", {"m": 2**16, "n": 2**16, "o": 2**16, "M": 8, "N": 8}),
    ("pdgemm", {"m": 2048, "n": 2048, "k": 2048, "M": 8, "N": 8}),
    ("pdgemm", {"m": 2**20, "n": 2**20, "k": 2**20, "M": 32, "N": 32}),
    # an index dealt over both axes (A and B stationary): the counts of a
    # process depend on its two coordinates modulo gcd(M, N)
    ("pdgemm", {"m": 2**21, "n": 2**21, "k": 2**21, "M": 2, "N": 2048}),
    ("pdgemm", {"m": 2**21, "n": 2**21, "k": 2**21, "M": 64, "N": 64}),
    ("pdgemm", {"m": 3 * 2**15, "n": 2**17, "k": 3 * 2**15, "M": 3, "N": 1024}),
]

# Concrete grids (--grid MxN, the sizes with -D): the grid's own formulas,
# which every candidate must have, against the values counted directly and,
# for the candidates of HAND, the values by hand.  A- and B-stationary PDGEMM
# have none on the symbolic grid (k is split over both axes): their concrete
# grids count each size as a multiple of its blocks.
GRID_POINTS = [
    ("pdgemm", {"m": 2048, "n": 1024, "k": 4096, "M": 4, "N": 4}),
    ("pdgemm", {"m": 480, "n": 192, "k": 1344, "M": 3, "N": 2}),
    ("pdgemm", {"m": 96 * 7, "n": 96 * 5, "k": 96 * 11, "M": 3, "N": 3}),
    ("pdgemm", {"m": 32 * 9, "n": 128 * 3, "k": 128 * 5, "M": 1, "N": 4}),
    ("pdgemm", {"m": 64 * 5, "n": 64 * 3, "k": 64 * 7, "M": 2, "N": 2}),
]


def pdgemm_stationary(v, moved):
    """PDGEMM's A- (moved = "B") or B-stationary (moved = "A") variant by
    hand, from Niculescu's method, where 32*M divides m and k and 32*N divides
    n and k/32 is a multiple of lcm(M, N).  Row block b = floor(l/32) of the
    inner index is on process row b mod M and column b mod N: a process
    (s, t) holds k*gcd/(M*N) of the inner indices when s = t mod gcd(M, N),
    none otherwise.  Partial step (A-stationary): process (s, t) reads
    B[l][j] for the k/N indices l of its column and every j, of which it
    holds those on its own row with j in its column: fan-in = fan-out =
    k*n/N - K*n/N, K its share; h the largest, where K = 0 unless
    gcd(M, N) = 1.  Combine: each C[i][j] adds the N partial sums of its
    process row, N - 1 of them from elsewhere.  B-stationary is the same
    with the roles of (M, m) and (N, n) exchanged."""
    m, n, k, M, N = v["m"], v["n"], v["k"], v["M"], v["N"]
    lcm = M * N // math.gcd(M, N)
    assert m % (32 * M) == 0 and n % (32 * N) == 0 and k % (32 * lcm) == 0, \
        "pdgemm_stationary: a point where the derivation does not hold"
    if moved == "A":
        m, n, M, N = n, m, N, M
    g = math.gcd(M, N)
    share = k * g // (M * N)               # K where s = t (mod g)
    fan = k * n // N
    h1 = fan - (share * n // N if g == 1 else 0)
    ncom1 = M * k * n - k * n // N
    w1 = m * n * k // (M * N)
    w2 = m * n // M
    h2 = m * n * (N - 1) // (M * N)
    ncom2 = m * n * (N - 1)
    steps = {"partial": {"w": w1, "h": h1, "h_in": h1, "h_out": h1, "ncom": ncom1},
             "combine": {"w": w2, "h": h2, "h_in": h2, "h_out": h2, "ncom": ncom2}}
    for st in steps.values():
        st["cost"] = st["w"] + G * st["h"] + L
    return steps


# Candidates without a symbolic formula, their values by hand
HAND = {
    ("pdgemm", "a_stationary"): lambda v: pdgemm_stationary(v, "B"),
    ("pdgemm", "b_stationary"): lambda v: pdgemm_stationary(v, "A"),
}


def check(binary, spec, point, grid=False):
    path = os.path.join(ROOT, "examples", spec + ".bsp")
    env = dict(point, g=G, l=L)
    given = sorted(env.items())
    cmd = [binary, "-f", "json"]
    if grid:
        axes = [a for a in ("M", "N", "P") if a in point]
        cmd += ["--grid", "x".join(str(point[a]) for a in axes)]
        given = [kv for kv in given if kv[0] not in axes]
    cmd += ["-D%s=%d" % kv for kv in given] + [path]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    bad = []
    if p.returncode != 0:
        bad.append("exit status %d: %s" % (p.returncode, p.stderr.strip()[:200]))
    try:
        report = json.loads(p.stdout)
    except ValueError:
        return bad + ["no JSON"], " ".join(cmd)
    compared = 0
    for c in report["candidates"]:
        if c.get("values") != "ok" or "supersteps" not in c:
            bad.append("candidate %s: no values (%s)" % (c["name"], c.get("values_reason")))
            continue
        hand = HAND.get((spec, c["name"]))
        if hand:
            want = hand(env)
            for st in c["supersteps"]:
                for q in QUANTITIES:
                    compared += 1
                    if st[q].get("value") != want[st["name"]][q]:
                        bad.append("candidate %s %s %s: value %s, by hand %s"
                                   % (c["name"], st["name"], q, st[q].get("value"),
                                      want[st["name"]][q]))
        cenv = dict(env)   # with the candidate's own definitions
        if grid and c.get("status") != "ok":
            bad.append("candidate %s: no formulas on the grid (%s)"
                       % (c["name"], c.get("reason")))
            continue
        if c.get("status") != "ok" or not assumptions_hold(c.get("assumptions", []), cenv):
            if grid:
                bad.append("candidate %s: the point does not meet its assumptions %s"
                           % (c["name"], c.get("assumptions")))
            continue
        items = [(s["name"], q, s[q]) for s in c["supersteps"] for q in QUANTITIES]
        items.append(("total", "cost", c["cost"]))
        for step, q, x in items:
            if x.get("formula") is None:
                continue
            want = formula.evaluate(x["formula"], cenv)
            compared += 1
            if x.get("value") != want:
                bad.append("candidate %s %s %s: value %s, formula %s"
                           % (c["name"], step, q, x.get("value"), want))
    if compared == 0:
        bad.append("no formula applies at this point: nothing compared")
    return bad, " ".join(cmd)


def main(argv):
    if len(argv) != 2:
        print("usage: large.py BIN", file=sys.stderr)
        return 2
    passed = failed = 0
    cases = [(s, p, False) for s, p in POINTS] + [(s, p, True) for s, p in GRID_POINTS]
    if os.environ.get("SAN"):
        # sanitized (make check's SAN=1): each specification's first point
        # on each kind of grid, the same code (68 s of 4 times slower runs
        # for all of them); the plain pass checks every point
        seen = set()
        cases = [c for c in cases if (c[0], c[2]) not in seen and not seen.add((c[0], c[2]))]
    for spec, point, grid in cases:
        bad, cmd = check(argv[1], spec, point, grid)
        if bad:
            failed += 1
            for b in bad:
                print("MISMATCH %s %s: %s" % (spec, point, b))
            print("  reproduce: " + cmd)
        else:
            passed += 1
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
