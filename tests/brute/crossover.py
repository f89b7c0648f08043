#!/usr/bin/env python3
"""crossover.py BIN: bspcost --compare against the paper and the brute force.

1. Niculescu's condition.  `--compare example2 example1` on
   examples/matmul_variants.bsp prints `l < E` for "example2 costs less"; the
   paper says example2 costs less exactly when
       ((o - n)*m*(N - 1)*g - m*n*N)/(M*N) > l.
   The two are the same condition when E*M*N - ((o - n)*m*(N - 1)*g - m*n*N)
   is the zero polynomial.  Written over M*N it has degree at most 3 in each
   of m, n, o, g, M, N, so it is zero if and only if it vanishes on the grid
   {1, 2, 3, 4}^6 (a polynomial of degree <= d in each variable that vanishes
   on d + 1 values of each is zero, by induction on the variables): a proof,
   not a sample.  The same for `equal` (==) and `b_cheaper` (>), and for the
   reversed order.
2. The conditions against bspenum.  For two candidates and many points
   (sizes, grid, g and l), each of a_cheaper, equal and b_cheaper evaluated at
   the point says what bspenum's two costs say, wherever the point meets the
   candidates' assumptions; on the symbolic grid (matmul_variants, and
   stencil1d, stencil2d and matmul_replicated, whose conditions are written
   by the signs they have there: g > 0, g == 0, N >= 2 && g > 0) and on a
   concrete one (stencil1d block against
   cyclic, --grid, whose condition has pieces and floors).
3. The values.  With every value given, at_values (the two costs, the
   difference, the cheaper one and the parts w, h*g and l) against bspenum.

Ends with `N passed, N failed`.
"""

import itertools
import json
import os
import subprocess
import sys
from fractions import Fraction

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import bspenum  # noqa: E402
import formula  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(HERE))
passed = failed = 0


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL: %s" % what)


def run(binary, args):
    p = subprocess.run([binary, "-f", "json"] + args, capture_output=True, text=True,
                       timeout=600)
    if p.returncode != 0:
        raise RuntimeError("%s: exit %d: %s" % (" ".join(args), p.returncode, p.stderr.strip()))
    return json.loads(p.stdout)


def split(cond, op):
    """'l OP E' -> E (None when COND has another shape)."""
    prefix = "l %s " % op
    return cond[len(prefix):] if cond.startswith(prefix) else None


def paper(env):
    m, n, o, M, N, g = (env[k] for k in "m n o M N g".split())
    return Fraction((o - n) * m * (N - 1) * g - m * n * N, M * N)


def proof(binary, spec):
    for a, b, ops in (("example2", "example1", ("<", "==", ">")),
                      ("example1", "example2", (">", "==", "<"))):
        got = run(binary, ["--compare", a, b, spec])
        check(got["solved_for"] == "l", "%s against %s: solved for l" % (a, b))
        for key, op in zip(("a_cheaper", "equal", "b_cheaper"), ops):
            e = split(got[key] or "", op)
            if e is None:
                check(False, "%s against %s: %s is %r, not 'l %s E'" % (a, b, key, got[key], op))
                continue
            zero = True
            for vals in itertools.product(range(1, 5), repeat=6):
                env = dict(zip("m n o M N g".split(), vals))
                if formula.evaluate(e, env) != paper(env):
                    zero = False
                    break
            check(zero, "%s against %s: %s = %r is the paper's condition" % (a, b, key, got[key]))


def holds(conds, env):
    """Whether every assumption (in the formula grammar) holds at ENV."""
    return all(formula.evaluate(c, env) for c in conds)


def against_enum(binary, spec, a, b, points, extra=(), grid_axes=(), values=True):
    parsed = bspenum.Parser(bspenum.tokenize(open(spec).read())).spec()
    names = [c[0] for c in bspenum.candidates(parsed)]
    ia, ib = names.index(a), names.index(b)
    sym = run(binary, ["--compare", a, b] + list(extra) + [spec])
    conds = {k: sym[k] for k in ("a_cheaper", "equal", "b_cheaper")}
    checked = 0
    for env in points:
        want = bspenum.analyze(parsed, env)["candidates"]
        ca, cb = want[ia]["cost"], want[ib]["cost"]
        if not holds(sym["a_assumptions"] + sym["b_assumptions"], env):
            continue
        truth = {"a_cheaper": ca < cb, "equal": ca == cb, "b_cheaper": ca > cb}
        for k, c in conds.items():
            v = formula.evaluate(c, env)
            check(v is not None and bool(v) == truth[k],
                  "%s %s %s at %s: %s = %r gives %s, bspenum %s against %s"
                  % (spec, a, b, env, k, c, v, ca, cb))
        checked += 1
        if not values:
            continue
        # the values, with every value given
        defs = []
        for k, v in env.items():
            if k not in grid_axes:
                defs += ["-D", "%s=%d" % (k, v)]
        got = run(binary, ["--compare", a, b] + list(extra) + defs + [spec])["at_values"]
        sa = want[ia]["supersteps"]
        sb = want[ib]["supersteps"]
        parts = {"w": sum(s["w"] for s in sa) - sum(s["w"] for s in sb),
                 "h*g": (sum(s["h"] for s in sa) - sum(s["h"] for s in sb)) * env["g"],
                 "l": (len(sa) - len(sb)) * env["l"]}
        cheaper = "a" if ca < cb else "b" if ca > cb else "equal"
        check(got is not None and got["a"] == ca and got["b"] == cb and
              got["difference"] == ca - cb and got["cheaper"] == cheaper and
              got["parts"] == parts,
              "%s %s %s at %s: at_values %s, bspenum %s %s parts %s"
              % (spec, a, b, env, got, ca, cb, parts))
    check(checked >= 3, "%s %s %s: only %d points met the assumptions" % (spec, a, b, checked))


def main(argv):
    if len(argv) != 1:
        sys.stderr.write("usage: crossover.py BIN\n")
        return 2
    binary = argv[0]
    variants = os.path.join(ROOT, "examples", "matmul_variants.bsp")
    proof(binary, variants)
    # symbolic grid: points where M and N divide the sizes, g and l around
    # the crossover (the paper's bound is 0 to a few hundred here)
    pts = []
    for (m, n, o, M, N) in ((4, 4, 8, 2, 2), (6, 6, 12, 3, 2), (4, 6, 12, 2, 3),
                            (8, 4, 16, 2, 2), (4, 4, 4, 2, 2)):
        for g in (0, 1, 3):
            env = {"m": m, "n": n, "o": o, "M": M, "N": N, "g": g}
            e = paper(env)
            for l in sorted({0, max(int(e), 0), max(int(e) + 1, 0), 50}):
                pts.append(dict(env, l=l))
    against_enum(binary, variants, "example2", "example1", pts)
    # a concrete grid: pieces and floors
    stencil = os.path.join(ROOT, "examples", "stencil1d.bsp")
    pts = [{"n": n, "P": 3, "g": g, "l": l} for n in range(6, 15) for g in (0, 1, 2)
           for l in (0, 5)]
    against_enum(binary, stencil, "d=block", "d=cyclic", pts, extra=["--grid", "3"],
                 grid_axes=("P",))
    # the symbolic grid, whose conditions are written by their signs
    # (g > 0, g == 0, never): g = 0 is where they tie
    pts = [{"n": n, "P": P, "g": g, "l": 5} for P in (1, 2, 3, 4) for n in (2 * P, 3 * P)
           for g in (0, 1, 2)]
    against_enum(binary, stencil, "d=block", "d=cyclic", pts, values=False)
    stencil2d = os.path.join(ROOT, "examples", "stencil2d.bsp")
    pts = [{"n": n, "m": mm, "M": M, "N": N, "g": g, "l": 3}
           for (M, N, n, mm) in ((1, 1, 3, 2), (2, 2, 4, 4), (2, 3, 6, 6), (3, 3, 6, 9), (3, 2, 9, 4))
           for g in (0, 1)]
    against_enum(binary, stencil2d, "rows=block,cols=block", "rows=cyclic,cols=cyclic", pts,
                 values=False)
    # a factor that may be 0 (N - 1): the pieces N == 1 and N >= 2
    replicated = os.path.join(ROOT, "examples", "matmul_replicated.bsp")
    pts = [{"m": mm, "n": n, "o": o, "M": M, "N": N, "g": g, "l": 2}
           for (mm, n, o, M, N) in ((4, 4, 4, 2, 2), (4, 4, 4, 2, 1), (6, 4, 6, 3, 2),
                                    (4, 6, 6, 1, 3), (2, 2, 2, 1, 1))
           for g in (0, 1)]
    against_enum(binary, replicated, "paper", "a_copies", pts, values=False)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
