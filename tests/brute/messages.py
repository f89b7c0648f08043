#!/usr/bin/env python3
"""messages.py BIN: bspcost's messages and the costs that price them, against
bspenum.py's brute force.

bspenum --detail prints, for every candidate, superstep (every run of one in
a loop) and process, the words it receives and sends and how many processes
it receives from and sends to (a message per pair).  For every case below,
at several points (sizes that divide and do not, grids of 1 to 12
processes), this checks:

  - values: `BIN --msgs -f json -D ...`: each superstep's msgs_in, msgs_out
    and msgs are the maxima over the processes (for a superstep in loops,
    their sums over its runs);
  - per process: `BIN --msgs --per-process -f json -D ...`: every process's
    msgs_in and msgs_out;
  - formulas: `BIN --msgs -f json` on the symbolic grid (and on the point's
    grid with --grid): each formula of msgs_in, msgs_out and msgs, evaluated
    by formula.py, at every point where its candidate's assumptions hold;
  - the cost functions that price messages, with every value given:
      --model nhalf  w + g*max_q max(in_q + n_half*msgs_in_q,
                                     out_q + n_half*msgs_out_q) + l
      --model logp   w + max_q max(g*in_q + o*msgs_in_q, g*out_q + o*msgs_out_q) + L
    each superstep's cost and the candidate's, from the per-process counts
    (in loops, each run priced on its own); and -p's costs of the
    specifications of one axis.

Ends with `N passed, N failed`, exit status 1 if any failed.
"""

import json
import os
import re
import subprocess
import sys
from fractions import Fraction

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import formula  # noqa: E402
from compare import assumptions_hold  # noqa: E402

CASES = [
    ("examples/stencil1d.bsp", [{"n": 11, "P": 4}, {"n": 24, "P": 4}, {"n": 21, "P": 7}]),
    ("examples/broadcast.bsp", [{"n": 12, "P": 3}, {"n": 16, "P": 8}]),
    ("examples/stencil2d.bsp", [{"n": 7, "m": 9, "M": 2, "N": 3}, {"n": 9, "m": 6, "M": 3, "N": 3}]),
    ("examples/matmul.bsp", [{"m": 5, "n": 6, "o": 7, "M": 2, "N": 2},
                             {"m": 8, "n": 4, "o": 6, "M": 2, "N": 3}]),
    ("examples/transpose.bsp", [{"m": 5, "n": 6, "M": 2, "N": 2}, {"m": 6, "n": 6, "M": 3, "N": 2}]),
    ("examples/matvec.bsp", [{"m": 7, "n": 5, "M": 2, "N": 2}, {"m": 6, "n": 9, "M": 3, "N": 2}]),
    ("examples/matmul_replicated.bsp", [{"m": 5, "n": 6, "o": 7, "M": 2, "N": 2},
                                        {"m": 6, "n": 4, "o": 6, "M": 3, "N": 2}]),
    ("tests/brute/specs/features.bsp", [{"n": 6, "m": 4, "P": 2, "Q": 1, "R": 2}]),
    ("tests/brute/specs/element_size.bsp", [{"n": 5, "m": 6, "M": 2, "N": 2}]),
    ("tests/brute/specs/prefix_sum_cyclic.bsp", [{"n": 9, "P": 3}, {"n": 12, "P": 4}]),
    ("tests/brute/specs/parity_union.bsp", [{"n": 9, "P": 3}]),
    ("examples/jacobi.bsp", [{"n": 11, "T": 3, "P": 4}]),
    # whole algorithms: supersteps in loops, counted run by run
    ("examples/lu.bsp", [{"n": 7, "M": 2, "N": 3}, {"n": 6, "M": 2, "N": 2}]),
    ("examples/cannon.bsp", [{"b": 2, "Q": 2, "R": 2}, {"b": 1, "Q": 3, "R": 3}]),
    ("examples/fft.bsp", [{"m": 8, "P": 4}, {"m": 6, "P": 3}]),
    ("examples/reduce.bsp", [{"P": 4}, {"P": 5}]),
    ("examples/summa.bsp", [{"m": 5, "n": 4, "k": 3, "M": 2, "N": 2}]),
    # cyclic(nb): in a loop over P, and over M x N with a pivot (LU on
    # cyclic(nb), lu_blocks, spends 7 to 10 s a run on its formulas, 60 s
    # a point, the same code as these and LU's)
    ("tests/brute/specs/period_classes.bsp", [{"n": 12, "nb": 2, "P": 3}]),
    ("tests/brute/specs/block_size_formulas.bsp", [{"m": 12, "n": 8, "nb": 2, "k0": 5, "M": 3, "N": 2}]),
    ("examples/matmul2.bsp", [{"m": 5, "n": 6, "o": 7, "M": 2, "N": 3}]),
    ("examples/matmul_variants.bsp", [{"m": 4, "n": 5, "o": 5, "M": 3, "N": 4}]),
    ("examples/stencil3d.bsp", [{"nx": 5, "ny": 4, "nz": 3, "M": 2, "N": 2}]),
    ("examples/pdgemm.bsp", [{"m": 66, "n": 64, "k": 70, "M": 2, "N": 2}]),
]

PRICES = {"nhalf": {"g": 3, "n_half": 5, "l": 7}, "logp": {"g": 3, "o": 4, "L": 11}}


def defines(values):
    out = []
    for k, v in values.items():
        out += ["-D", "%s=%s" % (k, v)]
    return out


def run(cmd, refused_ok=False):
    """BIN's JSON; with REFUSED_OK, exit status 1 (a candidate refused) too."""
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    if r.returncode != 0 and not (refused_ok and r.returncode == 1 and r.stdout.startswith("{")):
        raise RuntimeError("%s: exit %d: %s" % (" ".join(cmd[1:]), r.returncode,
                                                r.stderr.strip()[-300:]))
    return json.loads(r.stdout)


def brute(spec, values):
    """{(candidate, superstep): [{q: (w, in, out, mi, mo)} per run]}, in order."""
    r = subprocess.run([sys.executable, os.path.join(HERE, "bspenum.py"), spec]
                       + defines(values) + ["--detail"], capture_output=True, text=True, cwd=ROOT)
    if r.returncode != 0:
        raise RuntimeError("bspenum: " + r.stderr.strip()[-300:])
    out, runs = {}, None
    for line in r.stderr.splitlines():
        m = re.match(r"\s+q=\(([^)]*)\) work=(\d+) fan_in=(\d+) fan_out=(\d+) "
                     r"msgs_in=(\d+) msgs_out=(\d+)$", line)
        if m:
            q = tuple(int(x) for x in m.group(1).split(",") if x.strip())
            runs[-1][q] = tuple(int(m.group(k)) for k in range(2, 7))
        elif " / " in line:
            cand, step = line.split(" / ", 1)
            key = (cand, re.sub(r" \{.*\}$", "", step))
            runs = out.setdefault(key, [])
            runs.append({})
    return out


def priced(model, runs):
    """The cost of one superstep under MODEL from the counts: the sum over
    its runs (one, or one per iteration of its loops) of each run's cost."""
    p = PRICES[model]
    total = 0
    for one in runs:
        w = max(c[0] for c in one.values())
        if model == "nhalf":
            comm = max(max(c[1] + p["n_half"] * c[3], c[2] + p["n_half"] * c[4])
                       for c in one.values())
            total += w + p["g"] * comm + p["l"]
        else:
            comm = max(max(p["g"] * c[1] + p["o"] * c[3], p["g"] * c[2] + p["o"] * c[4])
                       for c in one.values())
            total += w + comm + p["L"]
    return total


def check_point(binary, spec, values, formulas, grid_formulas, bad):
    want = brute(spec, values)
    env = dict(values)
    got = run([binary, "--msgs", "-f", "json"] + defines(values) + [spec], refused_ok=True)
    per = run([binary, "--msgs", "--per-process", "-f", "json"] + defines(values) + [spec])
    per_steps = {(c["name"], s["name"]): s for c in per["candidates"] for s in c.get("supersteps", [])}
    for c in got["candidates"]:
        for s in c["supersteps"]:
            key = (c["name"], s["name"])
            runs = want.get(key)
            if runs is None:
                bad.append("%s / %s: not in bspenum's output" % key)
                continue
            # a superstep in loops: each of its counts the sum over its runs
            mi = sum(max(v[3] for v in one.values()) for one in runs)
            mo = sum(max(v[4] for v in one.values()) for one in runs)
            mm = sum(max(max(v[3], v[4]) for v in one.values()) for one in runs)
            for name, v in (("msgs_in", mi), ("msgs_out", mo), ("msgs", mm)):
                if s.get(name, {}).get("value") != v:
                    bad.append("%s / %s at %s: %s = %s, bspenum %s"
                               % (key + (values, name, s.get(name), v)))
                for fs, what in ((formulas, "symbolic"), (grid_formulas, "grid")):
                    f = fs.get(key + (name,)) if fs else None
                    if f is None or not f[0]:
                        continue
                    text, assumptions = f
                    if not assumptions_hold(assumptions, env):
                        continue
                    val = formula.evaluate(text, env)
                    if val is not None and val != v:
                        bad.append("%s / %s at %s: the %s formula of %s %r gives %s, bspenum %s"
                                   % (key + (values, what, name, text, val, v)))
            ps = per_steps.get(key)
            if ps is None:
                bad.append("%s / %s: not in --per-process" % key)
                continue
            for p in ps["processes"]:
                q = tuple(p["q"])
                mine = (p.get("msgs_in"), p.get("msgs_out"))
                each = (sum(one.get(q, (0,) * 5)[3] for one in runs),
                        sum(one.get(q, (0,) * 5)[4] for one in runs))
                if each != mine:
                    bad.append("%s / %s at %s q=%s: (msgs_in, msgs_out) %s, bspenum %s"
                               % (key + (values, q, mine, each)))
    for model in PRICES:
        if model == "logp" and "o" in values:
            continue   # a size o: bspcost refuses the name (a coefficient of logp)
        gotm = run([binary, "--model", model, "-f", "json"] + defines(values)
                   + defines(PRICES[model]) + [spec], refused_ok=True)
        for c in gotm["candidates"]:
            total = 0
            for s in c["supersteps"]:
                key = (c["name"], s["name"])
                v = priced(model, want[key])
                total += v
                if Fraction(str(s["cost"]["value"])) != v:
                    bad.append("%s / %s at %s: --model %s cost %s, by hand %s"
                               % (key + (values, model, s["cost"]["value"], v)))
            if Fraction(str(c["cost"]["value"])) != total:
                bad.append("%s at %s: --model %s cost %s, by hand %s"
                           % (c["name"], values, model, c["cost"]["value"], total))
        # -p's ranking prices the same loads: one axis, one shape
        axes = [a for a in gotm["candidates"][0]["grid"]] if gotm["candidates"] else []
        if len(axes) != 1:
            continue
        rest = {k: v for k, v in values.items() if k != axes[0]}
        ranked = run([binary, "-p", str(values[axes[0]]), "--model", model, "-f", "json"]
                     + defines(rest) + defines(PRICES[model]) + [spec], refused_ok=True)
        (point,) = ranked["points"]  # a ranking is a sweep of one point
        for row in point["ranking"]:
            v = sum(priced(model, runs) for (cn, _), runs in want.items() if cn == row["candidate"])
            if Fraction(str(row["cost"])) != v:
                bad.append("-p %s --model %s at %s: %s costs %s, by hand %s"
                           % (values[axes[0]], model, values, row["candidate"], row["cost"], v))


def formulas_of(got):
    """{(candidate, superstep, quantity): (formula, assumptions)}."""
    out = {}
    spec_assume = got.get("assumptions", [])
    for c in got["candidates"]:
        for s in c.get("supersteps", []):
            for name in ("msgs_in", "msgs_out", "msgs"):
                if name in s:
                    out[(c["name"], s["name"], name)] = (
                        s[name]["formula"], spec_assume + c.get("assumptions", []))
    return out


def main(argv):
    if len(argv) != 1:
        sys.stderr.write("usage: messages.py BIN\n")
        return 2
    binary = os.path.abspath(argv[0]) if os.path.exists(argv[0]) else argv[0]
    npass = nfail = 0
    # sanitized (make check's SAN=1): stencil1d (the symbolic grid's
    # formulas), stencil2d (cells of processes) and jacobi (a loop, run by
    # run), at one point each
    # plain, the first three cases (stencil1d, broadcast, stencil2d) at their
    # first 2 points, the others at their first (each point a concrete
    # grid's formulas too: 79 s of make check's tail at 2 points each)
    quick = bool(os.environ.get("SAN"))
    for k, (spec, points) in enumerate([CASES[0], CASES[2], CASES[11]] if quick else CASES):
        points = points[:1] if quick or k >= 3 else points[:2]
        bad = []
        try:
            # formulas where the candidates have some (a refusal says why)
            sym = run([binary, "--msgs", "-f", "json", spec], refused_ok=True)
            formulas = formulas_of(sym)
            axes = list(sym["candidates"][0]["grid"]) if sym["candidates"] else []
            for values in points:
                grid = "x".join(str(values[a]) for a in axes) if axes else None
                grid_formulas = formulas_of(run([binary, "--msgs", "-f", "json", "--grid", grid, spec],
                                               refused_ok=True)) \
                    if grid else None
                check_point(binary, spec, values, formulas, grid_formulas, bad)
        except (RuntimeError, ValueError, KeyError) as e:
            bad.append(str(e))
        if bad:
            nfail += 1
            print("not ok: %s" % spec)
            for b in bad[:10]:
                print("  | " + b)
        else:
            npass += 1
            print("ok: %s (%d points)" % (spec, len(points)))
    print("%d passed, %d failed" % (npass, nfail))
    return 1 if nfail else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
