#!/usr/bin/env python3
"""hierarchy_growth.py BIN: the H vectors of Soviani and Singh's examples
(shared/seeds/001, section 4) grow with the machine as the paper says.

For p = 2^4, 2^6, ..., 2^12 processes (square grids for the 2-D examples),
`BIN --hierarchy --numbering morton -f json -D n=4 ...` on

  examples/gbroadcast.bsp    section 4.1: a tight (np, 1)-relation;
  examples/ns_fft.bsp        section 4.2: every exchange an (n, 1/2)-relation;
  examples/neighbours.bsp    section 4.3 (every) and Figure 3a (quadrants):
                             tight (n, 1/2)-relations;

this fits, by least squares over the five machines, the exponent e of
H(0) / h ~ p^e, H(0) the bisection's words per process and h one run's
(for a tight (h, alpha)-relation H(0) = c h / 2^((k-1) alpha), so e =
-alpha), and checks it against the paper's alpha; and checks the numbers
the paper's arguments give exactly at every p:

  gbroadcast: H(i) = n (2^(i+1) - 1) (process 0's cluster of p / 2^(i+1)
              processes sends n to each process outside it), alpha =
              log2((p - 1) / (p/2 - 1)), -> 1;
  ns_fft:     alpha = 1/2 exactly (the least over the stages);
  neighbours: H(0) = h / (2 sqrt(p)) (every: the N words a half sends
              down across the bisection, per process of the half).

Ends with `N passed, N failed`, exit status 1 if any failed.
"""

import json
import math
import os
import subprocess
import sys
from fractions import Fraction

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
N = 4
LEVELS = [4, 6, 8, 10, 12]
# (spec, axes, {candidate: the paper's alpha})
CASES = [
    ("examples/gbroadcast.bsp", 1, {"default": Fraction(1)}),
    ("examples/ns_fft.bsp", 2, {"default": Fraction(1, 2)}),
    ("examples/neighbours.bsp", 2, {"every": Fraction(1, 2), "quadrants": Fraction(1, 2)}),
]


def run(binary, args):
    r = subprocess.run([binary, "--hierarchy", "--numbering", "morton", "-f", "json"] + args,
                       capture_output=True, text=True, cwd=ROOT)
    if r.returncode != 0:
        raise RuntimeError("%s: exit %d: %s" % (" ".join(args), r.returncode, r.stderr[-300:]))
    return json.loads(r.stdout)


def slope(points):
    xs = [x for x, _ in points]
    ys = [y for _, y in points]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    return sum((x - mx) * (y - my) for x, y in points) / sum((x - mx) ** 2 for x in xs)


def main(argv):
    if len(argv) != 1:
        sys.stderr.write("usage: hierarchy_growth.py BIN\n")
        return 2
    binary = os.path.abspath(argv[0])
    passed = failed = 0
    for spec, axes, alphas in CASES:
        series = {name: [] for name in alphas}
        bad = []
        for k in LEVELS:
            p = 1 << k
            grid = ["-D", "P=%d" % p] if axes == 1 else \
                ["-D", "M=%d" % (1 << k // 2), "-D", "N=%d" % (1 << k // 2)]
            try:
                got = run(binary, ["-D", "n=%d" % N] + grid + [spec])
            except Exception as e:
                bad.append(str(e))
                continue
            for c in got["candidates"]:
                s = c["supersteps"][0]
                H = [Fraction(str(x)) for x in s["H"]]
                h = H[-1] / s.get("runs", 1)   # one run's: the runs are alike
                series[c["name"]].append((k, math.log2(H[0] / h)))
                where = "%s %s p = %d" % (spec, c["name"], p)
                if spec.endswith("gbroadcast.bsp"):
                    want = [N * (2 ** (i + 1) - 1) for i in range(k)]
                    if H != want:
                        bad.append("%s: H %s, n (2^(i+1) - 1) gives %s" % (where, s["H"], want))
                    alpha = "log2(%s)" % Fraction(p - 1, p // 2 - 1)
                    if s["alpha"] != alpha:
                        bad.append("%s: alpha %s, expected %s" % (where, s["alpha"], alpha))
                elif spec.endswith("ns_fft.bsp") and s["alpha"] != "1/2":
                    bad.append("%s: alpha %s, expected 1/2" % (where, s["alpha"]))
                elif c["name"] == "every" and H[0] != h / (2 * Fraction(1 << k // 2)):
                    bad.append("%s: H(0) = %s, h / (2 sqrt(p)) = %s"
                               % (where, H[0], h / (2 * (1 << k // 2))))
        for name, alpha in alphas.items():
            if len(series[name]) != len(LEVELS):
                bad.append("%s %s: %d machines counted of %d"
                           % (spec, name, len(series[name]), len(LEVELS)))
                continue
            e = slope(series[name])
            # the broadcast's (p - 1) bends the line at small p: -1.010
            if abs(e + float(alpha)) > 0.02:
                bad.append("%s %s: H(0)/h grows as p^%.4f, the paper's alpha %s gives p^-%s"
                           % (spec, name, e, alpha, alpha))
            else:
                print("%s %s: H(0)/h ~ p^%.4f (alpha %s)" % (spec, name, e, alpha))
        for b in bad:
            print("FAIL " + b)
        failed += bool(bad)
        passed += not bad
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
