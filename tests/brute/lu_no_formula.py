#!/usr/bin/env python3
"""lu_no_formula.py BIN: the premises of bspcost(1)'s proof that LU's total on
an M x N grid has no formula (block rows, block columns), checked.

The proof (bspcost(1), "Symbolic and concrete grids") takes M = 2 and
n = 2*N*t and writes h_k, iteration k's h of examples/lu.bsp's update, as
    k <  N*t:  max(N*t*(N-1-kN), (N*t-k-1)*(N-1-kN) + 2*t - k % (2*t) - 1)
               (N >= 5; the pivot's process is the busiest exactly where
               kN == 0 and (k+1)*N < 2*t, by 2*t - (k+1)*N)
    k >= N*t:  (2*N*t-k-1)*max(N-1-kN, 1) while kN < N - 1, else 0
with kN = k // (2*t).  It then says that for fixed N the sum over k is a
quasi-polynomial in t whose t^2 coefficient is c(N) = q(N) + 2/N, with
q(N) = N*(N-1)*(11*N+2)/12.  Checked here:

1. h_k against bspenum.py's brute force, run by run (its --detail counts
   every process's fan-in and fan-out), at N = 5 .. 7, t = 1 .. 3, every k;
   and which process wins (the pivot's exactly where stated).
2. bspcost -D's update h, summed over the runs, against the sum of h_k, at
   N = 5 .. 16 and three t each (t0, t0 + N, t0 + 2N).
3. c(N) from those three sums, the second difference over steps of N in t
   (T(t0+2N) - 2*T(t0+N) + T(t0) = 2*c*N^2, the periodic part of T having
   period N in t), equal to N*(N-1)*(11*N+2)/12 + 2/N at every N.

Ends with `N passed, N failed`.
"""

import contextlib
import io
import os
import re
import subprocess
import sys
from fractions import Fraction

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import bspenum  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(HERE))
LU = os.path.join(ROOT, "examples", "lu.bsp")
passed = failed = 0


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL: %s" % what)


def h_k(N, t, k):
    """The proof's h_k at M = 2, n = 2*N*t; and whether the pivot's
    process (0, 0) is the busiest there by the proof."""
    kN = k // (2 * t)
    if k < N * t:
        col = N * t * (N - 1 - kN)
        pivot = (N * t - k - 1) * (N - 1 - kN) + 2 * t - k % (2 * t) - 1
        return max(col, pivot), pivot > col
    return ((2 * N * t - k - 1) * max(N - 1 - kN, 1) if kN < N - 1 else 0), False


def runs_by_enumeration(N, t):
    """{k: (h, busiest processes)} of the update superstep, from bspenum."""
    with open(LU) as f:
        spec = bspenum.Parser(bspenum.tokenize(f.read())).spec()
    values = {"n": 2 * N * t, "M": 2, "N": N, "g": 1, "l": 0}
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        bspenum.analyze(spec, values, detail=True)
    runs, cur = {}, None
    for line in err.getvalue().splitlines():
        if line.startswith("r=block,c=block / update "):
            cur = int(re.search(r"'k': (\d+)", line).group(1))
            runs[cur] = {}
        elif " / " in line:
            cur = None
        elif cur is not None:
            m = re.match(r"\s+q=\((\d+), (\d+)\) work=\d+ fan_in=(\d+) fan_out=(\d+)", line)
            if m:
                q = (int(m.group(1)), int(m.group(2)))
                runs[cur][q] = max(int(m.group(3)), int(m.group(4)))
    out = {}
    for k, per in runs.items():
        h = max(per.values())
        out[k] = (h, {q for q, v in per.items() if v == h})
    return out


def update_h_sum(binary, N, t):
    p = subprocess.run([binary, "--values", "-D", "n=%d" % (2 * N * t), "-D", "M=2",
                        "-D", "N=%d" % N, "-D", "g=1", "-D", "l=0", LU],
                       capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        raise RuntimeError("bspcost: exit %d: %s" % (p.returncode, p.stderr.strip()))
    cand = p.stdout.split("candidate r=block,c=block")[1].split("\ncandidate")[0]
    upd = cand.split("superstep update")[1]
    return int(re.search(r"\n    h     = (\d+)", upd).group(1))


def main(argv):
    if len(argv) != 1:
        sys.stderr.write("usage: lu_no_formula.py BIN\n")
        return 2
    binary = os.path.abspath(argv[0]) if os.path.exists(argv[0]) else argv[0]
    # 1. h_k, run by run, against the enumeration
    for N in range(5, 8):
        for t in range(1, 4):
            runs = runs_by_enumeration(N, t)
            ok = len(runs) == 2 * N * t - 1
            for k, (h, busiest) in sorted(runs.items()):
                want, pivot = h_k(N, t, k)
                ok &= h == want and ((0, 0) in busiest and len(busiest) == 1) == pivot
            check(ok, "h_k at N=%d t=%d: the enumeration's runs differ from the proof's" % (N, t))
    # 2. and 3. the sums and c(N)
    for N in range(5, 17):
        t0 = 2
        sums = []
        for t in (t0, t0 + N, t0 + 2 * N):
            got = update_h_sum(binary, N, t)
            want = sum(h_k(N, t, k)[0] for k in range(2 * N * t - 1))
            check(got == want, "N=%d t=%d: bspcost's sum %d, the proof's h_k sum to %d"
                  % (N, t, got, want))
            sums.append(got)
        c = Fraction(sums[2] - 2 * sums[1] + sums[0], 2 * N * N)
        q = Fraction(N * (N - 1) * (11 * N + 2), 12)
        check(c == q + Fraction(2, N), "c(%d) = %s, not q(N) + 2/N = %s"
              % (N, c, q + Fraction(2, N)))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
