#!/usr/bin/env python3
"""per_process.py BIN: bspcost --per-process against bspenum.py's brute force.

For every example and the brute-force specifications, at small sizes that
mostly do not divide and on a small concrete grid, runs
`BIN --per-process -f json -D ...` and `bspenum.py --detail` (which prints
each process's work, fan-in and fan-out) and checks that every candidate,
superstep and process has the same three counts, that the processes are
every point of the grid in order (the first axis slowest), and that the
text format has the same numbers.

One case per specification; ends with `N passed, N failed`, exit status 1
if any failed.
"""

import itertools
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# (spec, sizes and axes)
CASES = [
    ("examples/stencil1d.bsp", {"n": 11, "P": 4}),
    ("examples/broadcast.bsp", {"n": 12, "P": 3}),
    ("examples/stencil2d.bsp", {"n": 7, "m": 9, "M": 2, "N": 3}),
    ("examples/matmul.bsp", {"m": 5, "n": 6, "o": 7, "M": 2, "N": 2}),
    ("examples/matmul2.bsp", {"m": 5, "n": 4, "o": 3, "M": 2, "N": 2}),
    ("examples/transpose.bsp", {"m": 5, "n": 6, "M": 2, "N": 2}),
    ("examples/pdgemm.bsp", {"m": 70, "n": 66, "k": 68, "M": 2, "N": 2}),
    ("tests/brute/specs/features.bsp", {"n": 6, "m": 4, "P": 2, "Q": 1, "R": 2}),
    ("tests/brute/specs/element_size.bsp", {"n": 5, "m": 6, "M": 2, "N": 2}),
    ("tests/brute/specs/prefix_sum_cyclic.bsp", {"n": 9, "P": 3}),
    ("tests/brute/specs/parity_union.bsp", {"n": 9, "P": 3}),
    ("examples/lu.bsp", {"n": 7, "M": 2, "N": 3}),
    # more than 8 iterations: the loop's variable a parameter (by residues)
    ("examples/lu.bsp", {"n": 23, "M": 3, "N": 2}),
    ("examples/jacobi.bsp", {"n": 11, "T": 3, "P": 4}),
    ("tests/brute/specs/loops.bsp", {"n": 7, "P": 3}),
]


def defines(values):
    out = []
    for k, v in values.items():
        out += ["-D", "%s=%s" % (k, v)]
    return out


def enumerate_detail(spec, values):
    """{(candidate, superstep): {coords: (w, in, out)}} from bspenum --detail."""
    r = subprocess.run([sys.executable, os.path.join(HERE, "bspenum.py"), spec]
                       + defines(dict(values, g=1, l=1)) + ["--detail"],
                       capture_output=True, text=True, cwd=ROOT)
    if r.returncode != 0:
        raise RuntimeError("bspenum: " + r.stderr.strip()[-300:])
    out, key = {}, None
    for line in r.stderr.splitlines():
        m = re.match(r"\s+q=\(([^)]*)\) work=(\d+) fan_in=(\d+) fan_out=(\d+)( msgs_in=\d+ msgs_out=\d+)?$",
                     line)
        if m:
            q = tuple(int(x) for x in m.group(1).split(",") if x.strip())
            one = tuple(int(m.group(k)) for k in (2, 3, 4))
            # a superstep in loops: bspcost's counts are the sums over the runs
            old = out[key].get(q, (0, 0, 0))
            out[key][q] = tuple(a + b for a, b in zip(old, one))
        elif " / " in line:
            cand, step = line.split(" / ", 1)
            key = (cand, re.sub(r" \{.*\}$", "", step))
            out.setdefault(key, {})
    return out


def check(binary, spec, values):
    bad = []
    want = enumerate_detail(spec, values)
    r = subprocess.run([binary, "--per-process", "-f", "json"] + defines(values) + [spec],
                       capture_output=True, text=True, cwd=ROOT)
    if r.returncode != 0:
        return ["bspcost exit %d: %s" % (r.returncode, r.stderr.strip()[-300:])]
    got = json.loads(r.stdout)
    axes = list(got["grid"])
    grid = [got["grid"][a] for a in axes]
    every = list(itertools.product(*[range(s) for s in grid]))
    seen = set()
    for c in got["candidates"]:
        if "reason" in c:
            bad.append("%s: no counts: %s" % (c["name"], c["reason"]))
            continue
        for s in c["supersteps"]:
            key = (c["name"], s["name"])
            seen.add(key)
            if key not in want:
                bad.append("%s / %s: not in bspenum's output" % key)
                continue
            qs = [tuple(p["q"]) for p in s["processes"]]
            if qs != every:
                bad.append("%s / %s: processes %s, expected %s" % (key + (qs, every)))
            for p in s["processes"]:
                q = tuple(p["q"])
                mine = (p["w"], p["fan_in"], p["fan_out"])
                if want[key].get(q) != mine:
                    bad.append("%s / %s at %s: bspcost (w, in, out) %s, bspenum %s"
                               % (key + (q, mine, want[key].get(q))))
    for key in want:
        if key not in seen:
            bad.append("%s / %s: missing from bspcost's output" % key)
    # the text format: the same numbers, a row per process
    r = subprocess.run([binary, "--per-process"] + defines(values) + [spec],
                       capture_output=True, text=True, cwd=ROOT)
    rows = [tuple(int(x) for x in line.split())
            for line in r.stdout.splitlines()
            if re.match(r"^    [ \d]+$", line)]
    want_rows = [tuple(p["q"]) + (p["w"], p["fan_in"], p["fan_out"])
                 for c in got["candidates"] if "supersteps" in c
                 for s in c["supersteps"] for p in s["processes"]]
    if r.returncode != 0 or rows != want_rows:
        bad.append("the text format's rows differ from the JSON's")
    return bad


def main(argv):
    if len(argv) != 1:
        sys.stderr.write("usage: per_process.py BIN\n")
        return 2
    binary = os.path.abspath(argv[0]) if os.path.exists(argv[0]) else argv[0]
    npass = nfail = 0
    for spec, values in CASES:
        try:
            bad = check(binary, spec, values)
        except (RuntimeError, ValueError, KeyError) as e:
            bad = [str(e)]
        if bad:
            nfail += 1
            print("not ok: %s %s" % (spec, values))
            for b in bad[:10]:
                print("  | " + b)
        else:
            npass += 1
    print("%d passed, %d failed" % (npass, nfail))
    return 1 if nfail else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
