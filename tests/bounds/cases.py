#!/usr/bin/env python3
"""cases.py: the boundary constants of issue 12, item 2, in every place.

    python3 tests/bounds/cases.py              writes the cases' inputs
    python3 tests/bounds/cases.py --bless BIN  and their outputs from BIN

The constants 2^31, 2^63 - 1 (the largest 64-bit integer, 'max64'), 2^63,
2^64 and 10^30 as an array extent, a subscript offset, a cyclic block, a work
weight and a -D value (their --count sets are count_2_31, count_2_63,
count_2_64 and count_10_30).  Each is carried exactly or refused with a
message that names the limit; the cases pin which:

  tests/specs/bounds/*.bsp  the specifications
  tests/diag/big_*.bsp      every place at once with a constant beyond 64 bits
                            (one error each, nothing more)
  tests/golden/{extent,offset,cyclic,work,define,count_define}_*.args
                            the constants that fit, on the symbolic grid, on
                            --grid 4 and with -D values; -D beyond 64 bits

The expected outputs (--bless writes them: NAME.out, NAME.err, NAME.status)
are not trusted because BIN printed them: every number in them was worked
out by hand (tests/bounds/README), and a change to one is a change to check
the same way.  Run from the top of the source tree.
"""

import os
import subprocess
import sys

B31 = 2**31
MAX64 = 2**63 - 1
FIT = {"2_31": B31, "max64": MAX64}
BIG = {"2_63": 2**63, "2_64": 2**64, "10_30": 10**30}

SPECS = {
    # A constant extent, read one element to the left.
    "extent": """\
# {what} as an extent: u[i - 1] read for every i but the first.
grid P;
array u[{c}], v[{c}];
dist d = block | cyclic over P;
layout u : d;
layout v : d;
superstep shift {{
    forall 1 <= i < {c} :
        v[i] = u[i - 1];
}}
""",
    # A constant offset: each element reads the one C to its right.
    "offset": """\
# {what} as a subscript offset: v[i] = u[i + {c}].
param n;
grid P;
assume n > {c};
array u[n], v[n];
dist d = block | cyclic over P;
layout u : d;
layout v : d;
superstep shift {{
    forall i < n - {c} :
        v[i] = u[i + {c}];
}}
""",
    # A cyclic block: blocks of C elements dealt over the processes.
    "cyclic": """\
# {what} as a cyclic block: every u[k] with k < i read by v[i].
param n;
grid P;
array u[n], v[n];
layout u : cyclic({c}) over P;
layout v : cyclic over P;
superstep prefix {{
    forall 1 <= i < n :
        v[i] = u[i - 1] + (sum k < i : u[k]);
}}
""",
    # The cyclic block on the left-hand side, a prefix sum on the right.
    "cyclic_lhs": """\
# {what} as the cyclic block of the array written: v[i] sums u[k], k < i.
param n;
grid P;
array u[n], v[n];
layout u : cyclic over P;
layout v : cyclic({c}) over P;
superstep prefix {{
    forall i < n :
        v[i] = sum k < i : u[k];
}}
""",
    # A work weight.
    "work": """\
# {what} as a work weight.
param n;
grid P;
array u[n], v[n];
dist d = block | cyclic over P;
layout u : d;
layout v : d;
superstep scale {{
    forall i < n :
        v[i] = u[i] work {c};
}}
""",
}

# Every place at once: each constant is one error, and nothing else is.
BIG_SPEC = """\
# {what} in every place a constant may stand: an error each, said once.
param n;
grid P;
assume n <= {c};
array u[{c}] size {c}, v[n + {c}];
layout u : cyclic({c}) over P;
layout v : block over P;
superstep s {{
    forall i < n :
        v[i + {c}] = u[i] work {c};
}}
"""

# Constants that fit, but whose sums, products or negations do not: each is
# an error of the checker or a refusal of the analysis with its reason, never
# an overflow (the sanitized pass of make check runs them).
EDGE = {
    # 2^63 and -2^63 - 1 by folding constants that fit (tests/diag)
    "big_folded": """\
# 2^63 and -2^63 - 1 reached by folding constants that fit: an error each.
param n;
grid P;
assume n <= 9223372036854775807 + 1;
array u[4611686018427387904 * 2], v[n];
layout u : block over P;
layout v : block over P;
superstep s {
    forall i < n | i >= -9223372036854775807 - 2 :
        v[i] = u[i + 9223372036854775807 + 1];
}
""",
    # a subscript offset of -2^63, in bounds since i >= 2n >= 2^63
    "offset_min64": """\
# -2^63 as a subscript offset: u[i - 2^63], in bounds because i >= 2n >= 2^63.
param n;
grid P;
assume n >= 4611686018427387904;
array u[3 * n], v[3 * n];
dist d = block | cyclic over P;
layout u : d;
layout v : d;
superstep shift {
    forall 2 * n <= i < 2 * n + 1 :
        v[i] = u[i - 9223372036854775807 - 1];
}
""",
    # a condition whose constant is -2^63: i >= 2^63
    "condition_min64": """\
# i >= 2^63, a condition with the constant -2^63, on a distributed variable.
param n;
grid P;
array u[n], v[n];
dist d = block | cyclic | cyclic(3) over P;
layout u : d;
layout v : d;
superstep copy {
    forall i < n | i - 4611686018427387904 >= 4611686018427387904 :
        v[i] = u[i];
}
""",
    # a condition against an extent, both with constants near the limits
    "condition_extent_max64": """\
# i <= n - (2^63 - 1) with the extent n + 2^63 - 1: their difference passes 2^63.
param n;
grid P;
array u[n + 9223372036854775807], v[n + 9223372036854775807];
dist d = block | cyclic | cyclic(3) over P;
layout u : d;
layout v : d;
superstep copy {
    forall i < n + 9223372036854775807 | i <= n - 9223372036854775807 :
        v[i] = u[i];
}
""",
}

WHAT = {"2_31": "2^31", "max64": "2^63 - 1", "2_63": "2^63", "2_64": "2^64", "10_30": "10^30"}

STENCIL = "examples/stencil1d.bsp"
SQUARE = "'[n] -> { [i, j] : 0 <= i < n and 0 <= j < n }'"


def spec_path(kind, tag):
    return f"tests/specs/bounds/{kind}_{tag}.bsp"


# name: arguments (a shell command line, as tests/run.sh reads NAME.args)
GOLDEN = {
    # extents: every value is known on a concrete grid (no parameter)
    "extent_2_31_grid4": f"--grid 4 {spec_path('extent', '2_31')}",
    "extent_max64_grid4": f"--grid 4 {spec_path('extent', 'max64')}",
    # offsets: formulas on both grids, values where n allows
    "offset_2_31": spec_path("offset", "2_31"),
    "offset_2_31_grid4_max64": f"--grid 4 -D n={MAX64} {spec_path('offset', '2_31')}",
    "offset_max64": spec_path("offset", "max64"),
    "offset_max64_grid4": f"--grid 4 {spec_path('offset', 'max64')}",
    # cyclic blocks: no formula on --grid 4 (said why), the values counted
    "cyclic_2_31_grid4": f"--grid 4 {spec_path('cyclic', '2_31')}",
    "cyclic_2_31_grid4_values": f"--grid 4 -D n=100 {spec_path('cyclic', '2_31')}",
    "cyclic_max64_grid4": f"--grid 4 {spec_path('cyclic', 'max64')}",
    "cyclic_max64_grid4_values": f"--grid 4 -D n=100 {spec_path('cyclic', 'max64')}",
    "cyclic_lhs_2_31_values": f"--grid 3 --values -D n={B31 + 1} {spec_path('cyclic_lhs', '2_31')}",
    "cyclic_lhs_2_31_values_max64": f"--grid 3 --values -D n={MAX64} {spec_path('cyclic_lhs', '2_31')}",
    "cyclic_lhs_max64_grid3": f"--grid 3 {spec_path('cyclic_lhs', 'max64')}",
    # work weights: above 10^9 refused with the limit; 10^9 itself exact
    "work_2_31": spec_path("work", "2_31"),
    "work_max64": spec_path("work", "max64"),
    "work_1e9_max64": f"-D n={MAX64} -D P=4 -D g=1 -D l=1 {spec_path('work', '1e9')}",
    # -D values: up to 2^63 - 1 exact (results beyond 64 bits too), beyond refused
    "define_2_31": f"-D n={B31} -D P=4 -D g=1 -D l=1 {STENCIL}",
    "define_max64_grid4": f"--grid 4 -D n={MAX64} -D g={MAX64} -D l={MAX64} {STENCIL}",
    "define_max64_axis_2_31": f"-D n={MAX64} -D P={B31} -D g=1 -D l=1 {STENCIL}",
    "define_2_63": f"-D n={2**63} {STENCIL}",
    "define_2_64": f"-D n={2**64} -D P=4 {STENCIL}",
    "define_10_30": f"--grid 4 -D n={10**30} {STENCIL}",
    "define_min64": f"-D n={-2**63} -D P=4 {STENCIL}",
    "define_below_min64": f"-D n={-2**63 - 1} {STENCIL}",
    "count_define_2_31": f"--count {SQUARE} -D n={B31}",
    "count_define_max64": f"--count {SQUARE} -D n={MAX64}",
    "count_define_2_64": f"--count {SQUARE} -D n={2**64}",
    # -2^63 and overflowing sums of constants that fit
    "offset_min64": "tests/specs/bounds/offset_min64.bsp",
    "offset_min64_grid3_values": f"--grid 3 -D n={2**62} tests/specs/bounds/offset_min64.bsp",
    "condition_min64": "tests/specs/bounds/condition_min64.bsp",
    "condition_min64_grid3_max64": f"--grid 3 -D n={MAX64} tests/specs/bounds/condition_min64.bsp",
    "condition_extent_max64_values": f"-D n={MAX64} -D P=3 tests/specs/bounds/condition_extent_max64.bsp",
    "count_min64_coefficient": "--count '[n] -> { [i, j] : 0 <= j < n and 0 <= i and "
                               "-9223372036854775808 i + 3 j >= 0 }'",
}


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def inputs():
    for kind, text in SPECS.items():
        for tag, c in FIT.items():
            write(spec_path(kind, tag), text.format(c=c, what=WHAT[tag]))
    write(spec_path("work", "1e9"), SPECS["work"].format(c=10**9, what="10^9, the largest weight analyzed,"))
    for tag, c in BIG.items():
        write(f"tests/diag/big_{tag}.bsp", BIG_SPEC.format(c=c, what=WHAT[tag]))
    for name, text in EDGE.items():
        write(f"tests/diag/{name}.bsp" if name.startswith("big_")
              else f"tests/specs/bounds/{name}.bsp", text)
    for name, args in GOLDEN.items():
        write(f"tests/golden/{name}.args", args + "\n")


def bless(binary):
    for tag in list(BIG) + ["folded"]:
        base = f"tests/diag/big_{tag}"
        r = subprocess.run([binary, "--check", base + ".bsp"], capture_output=True, text=True)
        write(base + ".err", r.stderr)
        assert r.returncode == 1, base
    for name, args in GOLDEN.items():
        base = f"tests/golden/{name}"
        r = subprocess.run(f"{binary} {args}", shell=True, capture_output=True, text=True,
                           stdin=subprocess.DEVNULL)
        write(base + ".out", r.stdout)
        for ext, keep, text in ((".err", r.stderr != "", r.stderr),
                                (".status", r.returncode != 0, f"{r.returncode}\n")):
            if keep:
                write(base + ext, text)
            elif os.path.exists(base + ext):
                os.remove(base + ext)


def main():
    inputs()
    if len(sys.argv) == 3 and sys.argv[1] == "--bless":
        bless(sys.argv[2])
    elif len(sys.argv) != 1:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
