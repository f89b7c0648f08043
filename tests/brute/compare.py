#!/usr/bin/env python3
"""compare.py BIN: bspcost's values against bspenum.py's brute force.

For every examples/*.bsp (and tests/brute/specs/*.bsp) and a few small points per example (mostly sizes that
the axes do not divide), runs `BIN -f json -D ...` and bspenum.py with the same
values, and compares every candidate's w, h, h_in, h_out, ncom and cost, per
superstep and in total.  One line per mismatch, then `N passed, N failed`
(one case per spec x point x mode); exit status 1 if any case failed.

Environment:
  POINTS_LIMIT=k   at most k points per spec
  MODES_POINTS=k   the modes other than plain on the first k points only
  MODES=list       comma-separated among plain, hsum (--h sum), flops
                   (--work flops), both, grid (--grid AxB and -D the sizes only:
                   the symbolic grid's formulas with the axes given their
                   sizes, where it has them), grid_all (the same with
                   --all-sizes: the grid counted process by process);
                   default plain; MODES=all for every one
  FORMULAS=0       do not check the formulas (by default each formula is
                   evaluated at the point, exactly, when the point satisfies
                   the candidate's 'X divides Y' assumptions, and compared)
  SPECS=list       only these specs (base names, e.g. matmul,stencil1d)
  SKIP_SPECS=list  not these
  PLAIN_ONLY=list  these in the plain mode only (their other modes run code
                   that other specs run too, and cost seconds of formulas)
  RANDOM_POINTS=k  also k random points per spec (sizes 1..12, axes 1..4) that
                   satisfy its assumptions; SEED=s chooses them (default 1)
  TIMEOUT=s        seconds allowed to one run of BIN (default 600)
  VERBOSE=1        print each case as it runs
"""

import json
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.dont_write_bytecode = True
sys.path.insert(0, HERE)
import bspenum  # noqa: E402
import formula  # noqa: E402

G, L = 3, 11

# Specifications whose every candidate must have its formulas on the symbolic
# grid (a refusal there is a failure, not a value to compare): those the
# engine once refused, and now has.
# (a spec's candidates, or all of them: None)
FORMULAS_REQUIRED = {"summa": None, "summa_panel": None, "summa_panel_cyclic": None,
                     "transpose_square": None, "stationary_square": None,
                     "transpose_blocks": None, "transpose_loop": None,
                     "transpose_one_crossing": None, "transpose_one_crossing3": None,
                     "triangles_square": ("r=block,c=block", "r=cyclic,c=cyclic"),
                     "foreign_loop_digits": None,
                     "block_size_formulas": None, "period_classes": None,
                     "block_size_loop2d": None, "stencil3d_grid": None, "wrap": None,
                     "stride": ("d=block", "d=cyclic"), "residues": None,
                     "ninepoint": None, "stride_levels": None, "stride_equivalent": None,
                     "quotient_subscript": ("d=block",), "bound_empty": None,
                     "lu_square": ("r=block,c=block", "r=cyclic,c=cyclic"),
                     "levels": ("rows/d=block", "rows/d=cyclic", "tree/d=block",
                                "tree/d=cyclic", "exchange/d=block", "exchange/d=cyclic",
                                "far/d=block", "far/d=cyclic"),
                     "levels2d": None, "fft": None, "ns_fft": None,
                     "stencil_block_cyclic": None, "stencil3d_cyclic": None,
                     "stencil_block_size": None, "stencil_block_size_loop": None,
                     "stencil_block_size_cyclic": None, "loop_bound_digits": None,
                     "loop_unnamed_digits": None, "stencil_block_size_both": None,
                     "loop_unnamed_digits_reverse": None,
                     "loop_unnamed_digits_nested": None}
# Specifications with a superstep the symbolic grid refuses, whose other
# supersteps (named) must keep their formulas all the same (bspcost(1):
# the candidate refused, the others' formulas kept).
STEP_FORMULAS_REQUIRED = {"refused_step": ("rowpass",)}
# ... in the plain mode only (--h sum's per-process in + out of LU's
# update, the pivot's sends against its row's, are not compared there)
FORMULAS_PLAIN_ONLY = ("lu_square",)
QUANTITIES = ("w", "h", "h_in", "h_out", "ncom", "cost", "mem")

# Hand-picked points: mostly not divisible, some sizes equal to the axis, one
# divisible point each.  Every point satisfies the spec's `assume`.
POINTS = {
    "ghost_cells": [  # tests/brute/specs: assume n >= 2*P, n % P == 0
        {"n": 8, "P": 4}, {"n": 6, "P": 3}, {"n": 10, "P": 2}, {"n": 12, "P": 1},
        {"n": 15, "P": 3}, {"n": 7, "P": 1},
    ],
    "broadcast": [  # assume n >= P, n % P == 0
        {"n": 6, "P": 3}, {"n": 4, "P": 4}, {"n": 10, "P": 5}, {"n": 12, "P": 4},
        {"n": 5, "P": 1}, {"n": 14, "P": 2}, {"n": 8, "P": 8}, {"n": 8, "P": 2},
    ],
    "quotients": [  # assume n >= 4, m >= 2, n >= P
        {"n": 7, "m": 3, "P": 3}, {"n": 8, "m": 2, "P": 4}, {"n": 5, "m": 2, "P": 1},
        {"n": 9, "m": 4, "P": 2}, {"n": 6, "m": 5, "P": 6},
    ],
    "butterflies": [  # assume n >= P; the levels at values only
        {"n": 8, "P": 4}, {"n": 7, "P": 3}, {"n": 16, "P": 2}, {"n": 9, "P": 4},
        {"n": 5, "P": 5}, {"n": 12, "P": 1}, {"n": 16, "P": 8},
    ],
    "condition_quotients": [  # assume n >= 4, m >= 2, n >= P
        {"n": 7, "m": 3, "P": 3}, {"n": 8, "m": 2, "P": 4}, {"n": 9, "m": 4, "P": 2},
        {"n": 6, "m": 2, "P": 6}, {"n": 13, "m": 3, "P": 5}, {"n": 12, "m": 4, "P": 1},
    ],
    "quotients_local": [  # assume n >= P, m >= 2
        {"n": 7, "m": 3, "P": 3}, {"n": 8, "m": 2, "P": 4}, {"n": 5, "m": 5, "P": 2},
        {"n": 6, "m": 2, "P": 6},
    ],
    "cannon": [  # assume R == Q, b >= 1
        {"b": 1, "Q": 1, "R": 1}, {"b": 2, "Q": 2, "R": 2}, {"b": 1, "Q": 3, "R": 3},
        {"b": 3, "Q": 3, "R": 3}, {"b": 2, "Q": 4, "R": 4},
    ],
    "work_exprs": [  # assume n >= 2*P, m >= 1
        {"n": 7, "m": 3, "P": 3}, {"n": 8, "m": 2, "P": 4}, {"n": 5, "m": 1, "P": 1},
        {"n": 9, "m": 4, "P": 2},
    ],
    "work_loop": [  # assume n >= 2*P
        {"n": 7, "P": 3}, {"n": 8, "P": 4}, {"n": 5, "P": 1}, {"n": 9, "P": 2},
    ],
    "period_classes": [  # assume n >= 2*P, nb >= 1; 64 iterations a residue
        # class of k (mod nb*P) or more: by the classes; fewer: every
        # process's functions evaluated at every k
        {"n": 280, "nb": 13, "P": 5}, {"n": 300, "nb": 9, "P": 8},
        {"n": 200, "nb": 13, "P": 5}, {"n": 90, "nb": 3, "P": 4},
        {"n": 600, "nb": 2, "P": 4}, {"n": 400, "nb": 1, "P": 3},
        # nb*P dividing n: the closed form in nb too
        {"n": 60, "nb": 2, "P": 3}, {"n": 48, "nb": 4, "P": 2}, {"n": 36, "nb": 3, "P": 4},
        {"n": 20, "nb": 5, "P": 1},
    ],
    "block_size": [  # assume m >= M, n >= N, nb >= 1
        {"m": 7, "n": 6, "nb": 2, "M": 2, "N": 3}, {"m": 9, "n": 5, "nb": 3, "M": 3, "N": 2},
        {"m": 4, "n": 4, "nb": 1, "M": 2, "N": 2}, {"m": 10, "n": 7, "nb": 4, "M": 2, "N": 1},
        {"m": 5, "n": 8, "nb": 9, "M": 1, "N": 3},
    ],
    "block_size_formulas": [  # assume m >= M, n >= N, nb >= 1, 0 <= k0 < m
        {"m": 12, "n": 8, "nb": 2, "k0": 5, "M": 3, "N": 2},
        {"m": 12, "n": 12, "nb": 3, "k0": 0, "M": 2, "N": 2},
        {"m": 16, "n": 6, "nb": 2, "k0": 15, "M": 4, "N": 3},
        {"m": 9, "n": 7, "nb": 2, "k0": 4, "M": 2, "N": 3},
        {"m": 24, "n": 9, "nb": 4, "k0": 11, "M": 3, "N": 1},
        {"m": 6, "n": 4, "nb": 1, "k0": 3, "M": 1, "N": 2},
    ],
    "block_size_loop2d": [  # assume n >= 2*M, n >= 2*N, nb >= 1
        {"n": 12, "nb": 2, "M": 3, "N": 2}, {"n": 16, "nb": 2, "M": 2, "N": 4},
        {"n": 9, "nb": 2, "M": 2, "N": 3}, {"n": 18, "nb": 3, "M": 3, "N": 3},
        {"n": 10, "nb": 5, "M": 2, "N": 1},
    ],
    "lu_blocks": [  # assume n >= 2*M, n >= 2*N, nb >= 1
        {"n": 6, "nb": 2, "M": 2, "N": 3}, {"n": 9, "nb": 3, "M": 2, "N": 2},
        {"n": 5, "nb": 1, "M": 1, "N": 2}, {"n": 8, "nb": 5, "M": 3, "N": 2},
        {"n": 24, "nb": 2, "M": 2, "N": 3},
    ],
    "matmul": [  # assume m >= M, n >= N, o >= M, o >= N
        {"m": 5, "n": 6, "o": 7, "M": 2, "N": 3}, {"m": 7, "n": 5, "o": 4, "M": 3, "N": 2},
        {"m": 3, "n": 3, "o": 3, "M": 3, "N": 3}, {"m": 4, "n": 7, "o": 5, "M": 4, "N": 1},
        {"m": 2, "n": 5, "o": 4, "M": 1, "N": 4}, {"m": 6, "n": 6, "o": 6, "M": 2, "N": 2},
        {"m": 5, "n": 4, "o": 3, "M": 3, "N": 3},
    ],
    "matmul2": [  # assume m > M, n > M, n > N, o > N
        {"m": 5, "n": 6, "o": 7, "M": 2, "N": 3}, {"m": 4, "n": 5, "o": 5, "M": 3, "N": 4},
        {"m": 3, "n": 3, "o": 2, "M": 2, "N": 1}, {"m": 7, "n": 4, "o": 4, "M": 1, "N": 3},
        {"m": 6, "n": 8, "o": 8, "M": 2, "N": 2}, {"m": 5, "n": 7, "o": 9, "M": 4, "N": 2},
    ],
    "matmul_variants": [  # assume m > M, n > M, n > N, o > N (as matmul2)
        {"m": 5, "n": 6, "o": 7, "M": 2, "N": 3}, {"m": 4, "n": 5, "o": 5, "M": 3, "N": 4},
        {"m": 3, "n": 3, "o": 2, "M": 2, "N": 1}, {"m": 6, "n": 8, "o": 8, "M": 2, "N": 2},
    ],
    "matvec": [  # assume m >= M, n >= N; x replicated over M in one candidate
        {"m": 5, "n": 6, "M": 2, "N": 3}, {"m": 7, "n": 5, "M": 3, "N": 2},
        {"m": 4, "n": 4, "M": 4, "N": 1}, {"m": 3, "n": 7, "M": 1, "N": 4},
        {"m": 6, "n": 6, "M": 2, "N": 2}, {"m": 6, "n": 9, "M": 3, "N": 3},
        {"m": 8, "n": 4, "M": 2, "N": 4},
    ],
    "matmul_replicated": [  # as matmul; A replicated over N in one candidate
        {"m": 5, "n": 6, "o": 7, "M": 2, "N": 3}, {"m": 7, "n": 5, "o": 4, "M": 3, "N": 2},
        {"m": 3, "n": 3, "o": 3, "M": 3, "N": 3}, {"m": 2, "n": 5, "o": 4, "M": 1, "N": 4},
        {"m": 6, "n": 6, "o": 6, "M": 2, "N": 2}, {"m": 6, "n": 8, "o": 6, "M": 3, "N": 2},
    ],
    "lu": [  # assume n >= 2*M, n >= 2*N; past 8 iterations k is a parameter
        # first: divisible and past 8 iterations, the maxima counted once at
        # the values (cost_loop_maxima), in every mode and sanitized
        {"n": 16, "M": 2, "N": 2},
        {"n": 5, "M": 2, "N": 2}, {"n": 7, "M": 3, "N": 2}, {"n": 9, "M": 1, "N": 4},
        {"n": 23, "M": 3, "N": 2}, {"n": 30, "M": 4, "N": 3}, {"n": 41, "M": 2, "N": 5},
        {"n": 19, "M": 1, "N": 1}, {"n": 32, "M": 4, "N": 4},
        # divisible, past 8 iterations: the maxima counted once at the values
        # (cost_loop_maxima), not process by process
        {"n": 48, "M": 4, "N": 2}, {"n": 36, "M": 3, "N": 3},
    ],
    "summa": [  # assume m >= M, n >= N, k >= M, k >= N
        {"m": 5, "n": 4, "k": 3, "M": 2, "N": 2}, {"m": 3, "n": 7, "k": 5, "M": 3, "N": 2},
        {"m": 4, "n": 4, "k": 11, "M": 2, "N": 2}, {"m": 6, "n": 5, "k": 10, "M": 1, "N": 3},
        # the formulas need M | m, N | n and M, N | k
        {"m": 4, "n": 6, "k": 6, "M": 2, "N": 3}, {"m": 6, "n": 4, "k": 12, "M": 3, "N": 2},
        {"m": 3, "n": 4, "k": 4, "M": 1, "N": 2}, {"m": 6, "n": 5, "k": 6, "M": 2, "N": 1},
    ],
    "jacobi": [  # assume n >= 2*P, T >= 1
        {"n": 7, "T": 3, "P": 3}, {"n": 12, "T": 1, "P": 4}, {"n": 9, "T": 11, "P": 2},
        {"n": 20, "T": 13, "P": 5}, {"n": 5, "T": 2, "P": 1},
    ],
    "pivots": [  # tests/brute/specs: assume n >= 2*P, 0 <= k0 < n
        {"n": 8, "k0": 0, "P": 2}, {"n": 12, "k0": 11, "P": 3}, {"n": 7, "k0": 3, "P": 3},
        {"n": 16, "k0": 9, "P": 4},
    ],
    "pivots_loop": [  # tests/brute/specs: assume n >= 2*P
        {"n": 8, "P": 2}, {"n": 12, "P": 3}, {"n": 7, "P": 3},
    ],
    "lu_rows": [  # tests/brute/specs: assume n >= 2*P
        {"n": 12, "P": 3}, {"n": 7, "P": 3}, {"n": 16, "P": 4}, {"n": 10, "P": 2},
    ],
    "lu_square": [  # assume n >= 2*M, n >= 2*N, M == N; M | n at 7 of the 9
        {"n": 2, "M": 1, "N": 1}, {"n": 9, "M": 1, "N": 1}, {"n": 6, "M": 2, "N": 2},
        {"n": 14, "M": 2, "N": 2}, {"n": 6, "M": 3, "N": 3}, {"n": 12, "M": 3, "N": 3},
        {"n": 16, "M": 4, "N": 4}, {"n": 7, "M": 2, "N": 2}, {"n": 10, "M": 3, "N": 3},
    ],
    "transpose_blocks": [  # assume m >= M, n >= N, o >= K; the formulas need the
        # axes to divide the extents they split
        {"m": 6, "n": 6, "o": 2, "M": 2, "N": 3, "K": 1},
        {"m": 6, "n": 6, "o": 2, "M": 3, "N": 2, "K": 2},
        {"m": 12, "n": 12, "o": 6, "M": 4, "N": 3, "K": 2},
        {"m": 6, "n": 6, "o": 6, "M": 2, "N": 3, "K": 3},
        {"m": 6, "n": 6, "o": 6, "M": 2, "N": 3, "K": 1},
        {"m": 6, "n": 6, "o": 6, "M": 1, "N": 3, "K": 2},
        {"m": 6, "n": 6, "o": 6, "M": 2, "N": 1, "K": 3},
        {"m": 8, "n": 8, "o": 4, "M": 4, "N": 2, "K": 2},
        {"m": 4, "n": 6, "o": 2, "M": 2, "N": 2, "K": 2},
        {"m": 5, "n": 7, "o": 3, "M": 2, "N": 3, "K": 2},
    ],
    "transpose_one_crossing": [  # assume m >= M, n >= N, o >= M; M, N | m, N | n,
        # M | o, but at the last
        {"m": 6, "n": 6, "o": 6, "M": 2, "N": 3}, {"m": 6, "n": 4, "o": 3, "M": 3, "N": 2},
        {"m": 4, "n": 4, "o": 4, "M": 2, "N": 2}, {"m": 6, "n": 3, "o": 2, "M": 1, "N": 3},
        {"m": 6, "n": 2, "o": 4, "M": 2, "N": 1}, {"m": 12, "n": 4, "o": 3, "M": 3, "N": 4},
        {"m": 8, "n": 4, "o": 4, "M": 4, "N": 2}, {"m": 5, "n": 7, "o": 3, "M": 2, "N": 3},
    ],
    "transpose_one_crossing3": [  # assume m >= M, n >= N, o >= K, p >= M, q >= K;
        # M, N | m, N | n, K | o, M | p, K | q, but at the last
        {"m": 4, "n": 2, "o": 2, "p": 2, "q": 2, "M": 2, "N": 2, "K": 2},
        {"m": 6, "n": 3, "o": 2, "p": 2, "q": 1, "M": 2, "N": 3, "K": 1},
        {"m": 6, "n": 2, "o": 3, "p": 3, "q": 3, "M": 3, "N": 2, "K": 3},
        {"m": 2, "n": 2, "o": 2, "p": 1, "q": 2, "M": 1, "N": 2, "K": 2},
        {"m": 2, "n": 1, "o": 2, "p": 2, "q": 2, "M": 2, "N": 1, "K": 2},
        {"m": 5, "n": 3, "o": 3, "p": 3, "q": 2, "M": 2, "N": 2, "K": 2},
    ],
    "transpose_loop": [  # assume m >= M, n >= N, T >= 1; M, N | m, n
        {"m": 6, "n": 6, "T": 2, "M": 2, "N": 3},
        {"m": 6, "n": 6, "T": 1, "M": 3, "N": 2},
        {"m": 4, "n": 8, "T": 3, "M": 2, "N": 4},
        {"m": 6, "n": 6, "T": 2, "M": 1, "N": 3},
        {"m": 6, "n": 4, "T": 2, "M": 2, "N": 1},
        {"m": 5, "n": 7, "T": 2, "M": 2, "N": 3},
    ],
    "transpose_square": [  # assume m >= M, n >= N, M == N; the formulas need M | m, n
        {"m": 4, "n": 6, "M": 2, "N": 2}, {"m": 6, "n": 9, "M": 3, "N": 3},
        {"m": 8, "n": 8, "M": 4, "N": 4}, {"m": 3, "n": 3, "M": 3, "N": 3},
        {"m": 5, "n": 7, "M": 1, "N": 1}, {"m": 5, "n": 6, "M": 2, "N": 2},
    ],
    "stationary_square": [  # assume m >= 2*M, n >= 2*N, k >= 2*M, M == N; 2*M | m, n, k
        {"m": 4, "n": 4, "k": 4, "M": 2, "N": 2}, {"m": 6, "n": 6, "k": 12, "M": 3, "N": 3},
        {"m": 8, "n": 8, "k": 8, "M": 4, "N": 4}, {"m": 4, "n": 8, "k": 12, "M": 2, "N": 2},
        {"m": 2, "n": 4, "k": 6, "M": 1, "N": 1}, {"m": 5, "n": 6, "k": 7, "M": 2, "N": 2},
    ],
    "triangles_square": [  # assume n >= M, n >= N, M == N; the formulas need M | n
        {"n": 4, "M": 2, "N": 2}, {"n": 6, "M": 3, "N": 3}, {"n": 8, "M": 4, "N": 4},
        {"n": 6, "M": 2, "N": 2}, {"n": 5, "M": 1, "N": 1}, {"n": 7, "M": 3, "N": 3},
    ],
    "foreign_loop_digits": [  # assume m >= Q; the formulas need Q | m
        {"m": 4, "Q": 2}, {"m": 6, "Q": 3}, {"m": 2, "Q": 2}, {"m": 3, "Q": 1},
        {"m": 8, "Q": 4}, {"m": 5, "Q": 2},
    ],
    "summa_panel": [  # assume kk >= 0, kk + b <= o, b >= 1; the formulas need M, N | o
        {"m": 6, "n": 6, "o": 12, "kk": 3, "b": 7, "M": 2, "N": 3},
        {"m": 7, "n": 5, "o": 10, "kk": 4, "b": 5, "M": 3, "N": 2},
        {"m": 4, "n": 9, "o": 6, "kk": 2, "b": 1, "M": 2, "N": 3},
        {"m": 3, "n": 4, "o": 8, "kk": 0, "b": 8, "M": 1, "N": 2},
        {"m": 8, "n": 8, "o": 16, "kk": 5, "b": 9, "M": 4, "N": 2},
    ],
    "summa_panel_cyclic": [  # as summa_panel; M, N | o and M | m, N | n for the formulas
        {"m": 6, "n": 6, "o": 12, "kk": 3, "b": 7, "M": 2, "N": 3},
        {"m": 6, "n": 4, "o": 12, "kk": 5, "b": 6, "M": 3, "N": 2},
        {"m": 7, "n": 5, "o": 10, "kk": 4, "b": 5, "M": 3, "N": 2},
        {"m": 4, "n": 9, "o": 6, "kk": 2, "b": 1, "M": 2, "N": 3},
        {"m": 3, "n": 4, "o": 8, "kk": 0, "b": 8, "M": 1, "N": 2},
        {"m": 8, "n": 8, "o": 16, "kk": 5, "b": 9, "M": 4, "N": 2},
    ],
    "pivots2d": [  # tests/brute/specs: assume n >= 2*M, n >= 2*N, 0 <= k0 < n - 1
        {"n": 12, "k0": 10, "M": 3, "N": 2}, {"n": 7, "k0": 3, "M": 3, "N": 2},
    ],
    "pivot_offsets": [  # tests/brute/specs: assume n >= 2*P
        {"n": 16, "P": 4}, {"n": 12, "P": 3}, {"n": 7, "P": 2},
    ],
    "triangles": [  # tests/brute/specs: assume n >= 2*P, 0 <= k0 < n
        {"n": 8, "k0": 0, "P": 2}, {"n": 12, "k0": 6, "P": 3}, {"n": 7, "k0": 1, "P": 3},
        {"n": 16, "k0": 8, "P": 2},
    ],
    "loops": [  # tests/brute/specs: assume n >= 2*P, n >= 3
        {"n": 7, "P": 3}, {"n": 4, "P": 2}, {"n": 13, "P": 4}, {"n": 22, "P": 3},
        {"n": 3, "P": 1},
    ],
    "variant_extent": [  # tests/brute/specs: assume n >= P, o >= P
        {"n": 4, "o": 8, "P": 2}, {"n": 9, "o": 5, "P": 3}, {"n": 3, "o": 7, "P": 3},
        {"n": 6, "o": 6, "P": 4},
    ],
    "flat_sum": [  # tests/brute/specs: assume n >= 2*P; a sum of 240 operands
        {"n": 7, "P": 3}, {"n": 16, "P": 4}, {"n": 3, "P": 1},
    ],
    "prefix_doubling": [  # assume n >= 2*P, T >= 1; geometric loops
        {"n": 9, "T": 2, "P": 3}, {"n": 16, "T": 1, "P": 4}, {"n": 2, "T": 1, "P": 1},
        {"n": 27, "T": 2, "P": 2}, {"n": 10, "T": 3, "P": 5},
    ],
    "doubling_levels": [  # tests/brute/specs: formulas where P is a power of two
        {"n": 3, "P": 4}, {"n": 1, "P": 1}, {"n": 2, "P": 2}, {"n": 4, "P": 3},
        {"n": 5, "P": 8}, {"n": 2, "P": 6}, {"n": 6, "P": 16},
    ],
    "identity_layouts": [  # tests/brute/specs: assume n >= 1
        {"n": 2, "P": 4}, {"n": 1, "P": 1}, {"n": 3, "P": 2}, {"n": 2, "P": 3},
        {"n": 1, "P": 5}, {"n": 3, "P": 6},
    ],
    "levels": [  # tests/brute/specs: assume m >= 2; formulas where m, P are powers of two
        {"m": 8, "P": 4}, {"m": 4, "P": 1}, {"m": 2, "P": 2}, {"m": 16, "P": 8},
        {"m": 6, "P": 3}, {"m": 8, "P": 16}, {"m": 2, "P": 1}, {"m": 4, "P": 2},
    ],
    "levels2d": [  # tests/brute/specs: assume n >= N; formulas where M is a power of two
        {"n": 4, "M": 4, "N": 2}, {"n": 3, "M": 2, "N": 3}, {"n": 8, "M": 8, "N": 2},
        {"n": 2, "M": 1, "N": 1}, {"n": 6, "M": 3, "N": 2}, {"n": 4, "M": 4, "N": 4},
        {"n": 5, "M": 2, "N": 1},
    ],
    "fft": [  # assume m >= P; the stages at values only
        {"m": 8, "P": 4}, {"m": 16, "P": 4}, {"m": 4, "P": 4}, {"m": 6, "P": 3},
        {"m": 8, "P": 1}, {"m": 16, "P": 8}, {"m": 5, "P": 2},
    ],
    "gbroadcast": [  # process 0's n elements to every process
        {"n": 2, "P": 5}, {"n": 1, "P": 1},
    ],
    "ns_fft": [  # the edge (r, 0) of M x N; stages d = 1, 2, 4, ... < M
        {"n": 3, "M": 5, "N": 2}, {"n": 2, "M": 4, "N": 2},
    ],
    "neighbours": [  # four neighbours, or across the quadrants' borders
        {"n": 2, "M": 4, "N": 5},
    ],
    "reduce": [  # one partial sum per process; the doubling's levels s = 1, 2, 4, ... < P
        {"P": 4}, {"P": 1}, {"P": 2}, {"P": 3}, {"P": 5}, {"P": 8}, {"P": 16},
    ],
    "replicated_dims": [  # tests/brute/specs: assume n >= 2*M, m >= 2*N
        {"n": 4, "m": 4, "M": 2, "N": 2}, {"n": 6, "m": 6, "M": 3, "N": 2},
        {"n": 5, "m": 7, "M": 2, "N": 3}, {"n": 4, "m": 6, "M": 2, "N": 3},
        {"n": 2, "m": 8, "M": 1, "N": 4}, {"n": 8, "m": 2, "M": 4, "N": 1},
    ],
    "stencil1d": [  # assume n >= 2*P
        {"n": 7, "P": 3}, {"n": 6, "P": 3}, {"n": 9, "P": 4}, {"n": 10, "P": 2},
        {"n": 3, "P": 1}, {"n": 13, "P": 5}, {"n": 16, "P": 8}, {"n": 11, "P": 3},
    ],
    "stencil2d": [  # assume n >= 2*M, m >= 2*N
        {"n": 7, "m": 9, "M": 3, "N": 2}, {"n": 5, "m": 5, "M": 2, "N": 2},
        {"n": 4, "m": 6, "M": 2, "N": 3}, {"n": 9, "m": 4, "M": 4, "N": 1},
        {"n": 3, "m": 8, "M": 1, "N": 4}, {"n": 8, "m": 8, "M": 2, "N": 2},
    ],
    "stencil3d": [  # assume nx >= 2*M, ny >= 2*N, nz >= 3; 4 x 4 and larger
        # need cells of processes at values (the whole grid has too many cases)
        {"nx": 7, "ny": 9, "nz": 3, "M": 3, "N": 2}, {"nx": 16, "ny": 16, "nz": 4, "M": 4, "N": 4},
        {"nx": 19, "ny": 30, "nz": 4, "M": 6, "N": 7}, {"nx": 4, "ny": 5, "nz": 5, "M": 2, "N": 1},
        {"nx": 32, "ny": 32, "nz": 3, "M": 8, "N": 8},
        # divisible, on grids of one row and next to it (the pieces of h_out
        # whose edge processes are cut by coordinate)
        {"nx": 3, "ny": 12, "nz": 3, "M": 1, "N": 4}, {"nx": 6, "ny": 6, "nz": 3, "M": 2, "N": 3},
        {"nx": 12, "ny": 10, "nz": 3, "M": 4, "N": 5},
    ],
    "wrap": [  # tests/brute/specs: assume n >= 2*M, m >= 2*N
        {"n": 8, "m": 8, "M": 2, "N": 2}, {"n": 12, "m": 12, "M": 3, "N": 4},
        {"n": 7, "m": 5, "M": 3, "N": 2}, {"n": 4, "m": 6, "M": 1, "N": 3},
        {"n": 12, "m": 4, "M": 6, "N": 1}, {"n": 16, "m": 10, "M": 4, "N": 5},
        {"n": 2, "m": 2, "M": 1, "N": 1}, {"n": 24, "m": 9, "M": 3, "N": 3},
        {"n": 9, "m": 13, "M": 4, "N": 6},
    ],
    "stride": [  # tests/brute/specs: assume n >= 2*P
        {"n": 8, "P": 2}, {"n": 12, "P": 3}, {"n": 24, "P": 4}, {"n": 30, "P": 5},
        {"n": 7, "P": 3}, {"n": 9, "P": 1}, {"n": 16, "P": 8}, {"n": 36, "P": 6},
        {"n": 40, "P": 4}, {"n": 11, "P": 2}, {"n": 42, "P": 7}, {"n": 20, "P": 10},
    ],
    "residues": [  # tests/brute/specs: assume n >= 2*P
        {"n": 12, "P": 2}, {"n": 15, "P": 3}, {"n": 18, "P": 3}, {"n": 14, "P": 2},
        {"n": 24, "P": 4}, {"n": 20, "P": 4}, {"n": 16, "P": 8}, {"n": 28, "P": 4},
        {"n": 36, "P": 6}, {"n": 9, "P": 1}, {"n": 7, "P": 3}, {"n": 11, "P": 2},
        {"n": 30, "P": 5}, {"n": 42, "P": 7}, {"n": 10, "P": 5},
    ],
    "ninepoint": [  # tests/brute/specs: assume n >= 2*M, m >= 2*N
        {"n": 6, "m": 6, "M": 3, "N": 3}, {"n": 8, "m": 12, "M": 4, "N": 3},
        {"n": 7, "m": 9, "M": 3, "N": 2}, {"n": 4, "m": 6, "M": 2, "N": 3},
        {"n": 6, "m": 4, "M": 1, "N": 2}, {"n": 10, "m": 10, "M": 5, "N": 5},
        {"n": 2, "m": 2, "M": 1, "N": 1}, {"n": 12, "m": 8, "M": 6, "N": 1},
    ],
    "stride_levels": [  # tests/brute/specs: assume n >= P
        {"n": 8, "P": 2}, {"n": 12, "P": 3}, {"n": 12, "P": 4}, {"n": 6, "P": 3},
        {"n": 5, "P": 2}, {"n": 16, "P": 4}, {"n": 10, "P": 5}, {"n": 3, "P": 1},
        {"n": 7, "P": 7}, {"n": 24, "P": 6}, {"n": 14, "P": 7},
    ],
    "stride_equivalent": [  # tests/brute/specs: assume n >= 2*M, m == n, M == N
        {"n": 12, "m": 12, "M": 3, "N": 3}, {"n": 16, "m": 16, "M": 4, "N": 4},
        {"n": 24, "m": 24, "M": 4, "N": 4}, {"n": 8, "m": 8, "M": 2, "N": 2},
        {"n": 6, "m": 6, "M": 1, "N": 1}, {"n": 18, "m": 18, "M": 3, "N": 3},
        {"n": 9, "m": 9, "M": 2, "N": 2},
    ],
    "quotient_subscript": [  # tests/brute/specs: assume n >= 2*P
        {"n": 12, "P": 2}, {"n": 12, "P": 3}, {"n": 24, "P": 4}, {"n": 30, "P": 5},
        {"n": 36, "P": 6}, {"n": 7, "P": 3}, {"n": 9, "P": 1}, {"n": 16, "P": 8},
        {"n": 40, "P": 4}, {"n": 42, "P": 7}, {"n": 18, "P": 3},
    ],
    "bound_empty": [  # tests/brute/specs: assume n >= 2*P, n >= 3
        {"n": 6, "P": 3}, {"n": 8, "P": 2}, {"n": 3, "P": 1}, {"n": 7, "P": 3},
        {"n": 12, "P": 4},
    ],
    "stencil3d_grid": [  # tests/brute/specs: assume n >= 2*M, n >= 2*N, n >= 2*Q
        {"n": 6, "M": 3, "N": 3, "Q": 3}, {"n": 8, "M": 2, "N": 2, "Q": 2},
        {"n": 7, "M": 3, "N": 2, "Q": 3}, {"n": 6, "M": 1, "N": 3, "Q": 2},
        {"n": 9, "M": 3, "N": 4, "Q": 1}, {"n": 8, "M": 4, "N": 1, "Q": 4},
        {"n": 2, "M": 1, "N": 1, "Q": 1}, {"n": 12, "M": 3, "N": 2, "Q": 6},
        {"n": 12, "M": 3, "N": 4, "Q": 3},
    ],
    "stencil_block_cyclic": [  # tests/brute/specs: assume n >= 2*M, n >= 2*N
        {"n": 24, "M": 3, "N": 3}, {"n": 16, "M": 2, "N": 2}, {"n": 24, "M": 2, "N": 3},
        {"n": 8, "M": 1, "N": 2}, {"n": 48, "M": 3, "N": 4}, {"n": 4, "M": 1, "N": 1},
        {"n": 32, "M": 4, "N": 1}, {"n": 10, "M": 2, "N": 3}, {"n": 13, "M": 3, "N": 2},
    ],
    "stencil_block_size": [  # tests/brute/specs: assume n >= 2*M, n >= 2*N, b >= 1
        {"n": 12, "b": 2, "M": 3, "N": 3}, {"n": 8, "b": 1, "M": 2, "N": 2},
        {"n": 12, "b": 3, "M": 2, "N": 3}, {"n": 10, "b": 2, "M": 1, "N": 2},
        {"n": 16, "b": 2, "M": 4, "N": 4}, {"n": 9, "b": 2, "M": 3, "N": 1},
        {"n": 6, "b": 1, "M": 3, "N": 3}, {"n": 7, "b": 2, "M": 3, "N": 2},
        {"n": 20, "b": 1, "M": 5, "N": 3}, {"n": 24, "b": 2, "M": 4, "N": 1},
        {"n": 4, "b": 2, "M": 1, "N": 1}, {"n": 18, "b": 3, "M": 3, "N": 2},
    ],
    "stencil_block_size_cyclic": [  # tests/brute/specs: assume n >= 2*M, n >= 2*N, b >= 1
        {"n": 12, "b": 2, "M": 3, "N": 3}, {"n": 12, "b": 1, "M": 3, "N": 4},
        {"n": 8, "b": 1, "M": 2, "N": 2}, {"n": 10, "b": 2, "M": 1, "N": 2},
        {"n": 16, "b": 2, "M": 4, "N": 4}, {"n": 9, "b": 2, "M": 3, "N": 1},
        {"n": 7, "b": 2, "M": 3, "N": 2}, {"n": 20, "b": 1, "M": 5, "N": 3},
        {"n": 18, "b": 3, "M": 3, "N": 3}, {"n": 15, "b": 1, "M": 5, "N": 5},
        {"n": 4, "b": 2, "M": 1, "N": 1}, {"n": 24, "b": 4, "M": 3, "N": 6},
    ],
    "loop_bound_digits": [  # tests/brute/specs: assume n >= 2*P, k >= 1, k <= n
        {"n": 8, "k": 5, "P": 2}, {"n": 12, "k": 12, "P": 3}, {"n": 9, "k": 4, "P": 4},
        {"n": 16, "k": 7, "P": 4}, {"n": 6, "k": 1, "P": 3}, {"n": 10, "k": 9, "P": 5},
        {"n": 4, "k": 3, "P": 1}, {"n": 12, "k": 4, "P": 3},
    ],
    "stencil_block_size_loop": [  # tests/brute/specs: the same, and k >= 0
        {"n": 12, "b": 2, "M": 3, "N": 3, "k": 2}, {"n": 8, "b": 1, "M": 2, "N": 2, "k": 3},
        {"n": 10, "b": 2, "M": 1, "N": 2, "k": 1}, {"n": 7, "b": 2, "M": 3, "N": 2, "k": 2},
        {"n": 20, "b": 1, "M": 5, "N": 3, "k": 3}, {"n": 9, "b": 3, "M": 3, "N": 1, "k": 0},
        {"n": 16, "b": 2, "M": 4, "N": 4, "k": 2},
    ],
    "stencil_block_size_both": [  # tests/brute/specs: assume n >= 2*M, n >= 2*N, b >= 1
        {"n": 12, "b": 2, "M": 3, "N": 3}, {"n": 16, "b": 2, "M": 4, "N": 4},
        {"n": 8, "b": 1, "M": 2, "N": 2}, {"n": 10, "b": 2, "M": 1, "N": 2},
        {"n": 18, "b": 3, "M": 3, "N": 3}, {"n": 24, "b": 2, "M": 3, "N": 4},
        {"n": 15, "b": 1, "M": 5, "N": 5}, {"n": 9, "b": 3, "M": 3, "N": 1},
        {"n": 7, "b": 2, "M": 3, "N": 2}, {"n": 4, "b": 2, "M": 1, "N": 1},
        {"n": 36, "b": 2, "M": 3, "N": 6}, {"n": 20, "b": 1, "M": 5, "N": 3},
    ],
    "loop_unnamed_digits": [  # tests/brute/specs: n >= 2*M, n >= 2*N, b >= 1, 0 <= k <= n
        {"n": 12, "b": 2, "M": 3, "N": 3, "k": 5}, {"n": 8, "b": 1, "M": 2, "N": 2, "k": 3},
        {"n": 10, "b": 2, "M": 1, "N": 2, "k": 1}, {"n": 7, "b": 2, "M": 3, "N": 2, "k": 7},
        {"n": 20, "b": 1, "M": 5, "N": 3, "k": 3}, {"n": 9, "b": 3, "M": 3, "N": 1, "k": 0},
        {"n": 16, "b": 2, "M": 4, "N": 4, "k": 9}, {"n": 24, "b": 2, "M": 3, "N": 4, "k": 13},
    ],
    "loop_unnamed_digits_nested": [  # tests/brute/specs: assume n >= 2*M, k >= 0, k <= n
        {"n": 8, "M": 2, "k": 5}, {"n": 6, "M": 3, "k": 6}, {"n": 7, "M": 1, "k": 4},
        {"n": 9, "M": 4, "k": 7}, {"n": 12, "M": 3, "k": 0}, {"n": 10, "M": 5, "k": 9},
        {"n": 16, "M": 2, "k": 11}, {"n": 12, "M": 2, "k": 2},
    ],
    "stencil3d_cyclic": [  # tests/brute/specs: assume n >= 2*M, n >= 2*N, n >= 2*Q
        {"n": 6, "M": 3, "N": 3, "Q": 3}, {"n": 12, "M": 4, "N": 3, "Q": 3},
        {"n": 8, "M": 2, "N": 2, "Q": 2}, {"n": 6, "M": 1, "N": 3, "Q": 2},
        {"n": 4, "M": 2, "N": 1, "Q": 1}, {"n": 12, "M": 6, "N": 2, "Q": 4},
        {"n": 7, "M": 3, "N": 2, "Q": 3}, {"n": 2, "M": 1, "N": 1, "Q": 1},
    ],
    "features": [  # tests/brute/specs: assume n >= 2*P, m >= Q + 1, m >= R
        {"n": 6, "m": 4, "P": 2, "Q": 3, "R": 2}, {"n": 7, "m": 5, "P": 3, "Q": 2, "R": 3},
        {"n": 4, "m": 2, "P": 1, "Q": 1, "R": 1}, {"n": 9, "m": 4, "P": 2, "Q": 2, "R": 4},
        {"n": 5, "m": 3, "P": 2, "Q": 2, "R": 3},
    ],
    # tests/brute/specs found by tests/stress: the points once wrong first
    "prefix_sum_cyclic": [
        {"n": 7, "P": 3}, {"n": 6, "P": 2}, {"n": 10, "P": 4}, {"n": 5, "P": 5},
        {"n": 1, "P": 2}, {"n": 9, "P": 3},
    ],
    "existential_bound": [
        {"n": 6, "P": 2}, {"n": 7, "P": 3}, {"n": 10, "P": 4}, {"n": 1, "P": 1},
        {"n": 5, "P": 2},
    ],
    "empty_modulo": [
        {"n": 7, "P": 3}, {"n": 8, "P": 3}, {"n": 2, "P": 3}, {"n": 1, "P": 1},
        {"n": 12, "P": 4},
    ],
    "empty_triangle": [
        {"n": 5, "P": 3}, {"n": 2, "P": 3}, {"n": 7, "P": 2}, {"n": 1, "P": 1},
        {"n": 6, "P": 4},
    ],
    "parity_union": [
        {"n": 10, "P": 2}, {"n": 9, "P": 3}, {"n": 12, "P": 4}, {"n": 7, "P": 2},
        {"n": 8, "P": 3}, {"n": 1, "P": 2},
    ],
    "element_size": [  # assume n >= 2*M, m >= 2*N
        {"n": 5, "m": 4, "M": 2, "N": 2}, {"n": 7, "m": 6, "M": 3, "N": 2},
        {"n": 4, "m": 7, "M": 2, "N": 3}, {"n": 6, "m": 2, "M": 1, "N": 1},
        {"n": 8, "m": 4, "M": 4, "N": 1},
    ],
    "transpose": [  # assume m >= M, n >= N
        {"m": 5, "n": 6, "M": 2, "N": 3}, {"m": 3, "n": 3, "M": 3, "N": 3},
        {"m": 7, "n": 4, "M": 2, "N": 4}, {"m": 6, "n": 5, "M": 3, "N": 1},
        {"m": 4, "n": 4, "M": 2, "N": 2}, {"m": 1, "n": 7, "M": 1, "N": 3},
    ],
}
# the backward sweep's spec has the same sizes and assumptions
POINTS["loop_unnamed_digits_reverse"] = POINTS["loop_unnamed_digits"]

MODES = {
    "plain": ([], {}),
    "hsum": (["--h", "sum"], {"h_sum": True}),
    "flops": (["--work", "flops"], {"flops": True}),
    "both": (["--h", "sum", "--work", "flops"], {"h_sum": True, "flops": True}),
    "grid": ([], {}),   # --grid with the point's axes, -D the sizes
    "grid_all": ([], {}),   # the same, --all-sizes
}


def generated_points(spec, count=5, divisible=2):
    """Small points satisfying the assumptions, for specs without a table entry:
    axes 1..4 and sizes 1..9, preferring sizes that no axis divides; then
    DIVISIBLE points on grids of 2 processes or more where every axis divides
    every size, at which the symbolic grid's formulas (under 'P divides n')
    are evaluated too (a wrong formula there once passed unseen: pred_offset_
    past_extent, lent_digits_past_extent)."""
    import itertools
    names = spec["params"] + spec["axes"]
    found = []
    ranges = [range(1, 10) if n in spec["params"] else range(1, 5) for n in names]
    for vals in itertools.product(*ranges):
        v = dict(zip(names, vals))
        try:
            bspenum.check_values(spec, v)
            for cname, kinds, layouts, view in bspenum.variants(spec):
                bspenum.Context(view, v, kinds, layouts)   # identity extents
        except bspenum.SpecError:
            continue
        nondiv = sum(1 for p in spec["params"] for a in spec["axes"] if v[p] % v[a])
        procs = 1
        for a in spec["axes"]:
            procs *= v[a]
        found.append((-(nondiv > 0), -min(procs, 6), sum(vals), vals, v))
    found.sort(key=lambda t: t[:4])
    out, seen_axes = [], set()
    for t in found:                   # vary the grid shape first
        key = tuple(t[4][a] for a in spec["axes"])
        if key not in seen_axes:
            seen_axes.add(key)
            out.append(t[4])
        if len(out) == count:
            break
    extra, shapes = [], set()
    for t in found:
        v = t[4]
        key = tuple(v[a] for a in spec["axes"])
        procs = 1
        for a in spec["axes"]:
            procs *= v[a]
        if (procs < 2 or key in shapes or v in out or
                any(v[p] % v[a] for p in spec["params"] for a in spec["axes"])):
            continue
        shapes.add(key)
        extra.append(v)
        if len(extra) == divisible:
            break
    return out + extra


def random_points(spec, count, seed):
    """COUNT random points satisfying the assumptions: sizes 1..12, axes 1..4."""
    import random
    rng = random.Random(seed)
    out = []
    for _ in range(count * 200):
        v = {n: rng.randint(1, 12) for n in spec["params"]}
        v.update({a: rng.randint(1, 4) for a in spec["axes"]})
        try:
            bspenum.check_values(spec, v)
            for cname, kinds, layouts, view in bspenum.variants(spec):
                bspenum.Context(view, v, kinds, layouts)
        except bspenum.SpecError:
            continue
        if v not in out:
            out.append(v)
        if len(out) == count:
            break
    return out


def defines(point):
    out = []
    for k, v in point.items():
        out += ["-D", "%s=%d" % (k, v)]
    return out


def assumptions_hold(assumptions, env):
    """True when every 'A divides B' and 'A <= B' assumption holds at env;
    None when one is not understood.  A definition 'NAME = EXPR' (a block
    length kept, a digit such as k0_M = floor(k0/(n/M))) gives NAME its value
    in env, once every divisibility holds."""
    defs = []
    cmps = []
    for a in assumptions:
        m = re.match(r"^([A-Za-z_][A-Za-z0-9_]*) = (.*)$", a)
        if m:
            defs.append((m.group(1), m.group(2)))
            continue
        # a doubling loop's bound (lg_P = log2(P) is then defined)
        m = re.match(r"^(.*) is a power of two$", a)
        if m:
            try:
                x = formula.evaluate(m.group(1), env)
            except (ValueError, ZeroDivisionError):
                return None
            if x != int(x) or x <= 0 or int(x) & (int(x) - 1):
                return False
            continue
        # the symbolic grid's own (an offset within a block: 2 <= n/P)
        m = re.match(r"^(.*) (<=|<) (.*)$", a)
        if m:
            cmps.append(m.groups())
            continue
        m = re.match(r"^(.*) divides (.*)$", a)
        if not m:
            return None
        try:
            d = formula.evaluate(m.group(1), env)
            x = formula.evaluate(m.group(2), env)
        except (ValueError, ZeroDivisionError):
            return None
        if d == 0 or x % d != 0:
            return False
    for name, expr in defs:
        # a digit of a loop's variable (k_M = floor(k/(n/M))) has no value
        # outside the loop: left undefined, so that a total that still
        # named it would fail to evaluate
        try:
            v = formula.evaluate(expr, env)
        except (ValueError, ZeroDivisionError, KeyError):
            continue
        if v is None or v != int(v):
            return None
        env[name] = int(v)
    for a, op, b in cmps:
        try:
            x = formula.evaluate(a, env)
            y = formula.evaluate(b, env)
        except (ValueError, ZeroDivisionError, KeyError):
            return None
        if x is None or y is None or not (x <= y if op == "<=" else x < y):
            return False
    return True


def loop_values(loop, env):
    """The values of the variable of LOOP (JSON's "loop": "LO <= k < HI" or
    "s = 1, 2, 4, ... < HI") at ENV, as (name, values); None when not read."""
    m = re.match(r"^(.*) <= ([A-Za-z_][A-Za-z0-9_]*) < (.*)$", loop)
    try:
        if m:
            lo, hi = formula.evaluate(m.group(1), env), formula.evaluate(m.group(3), env)
            return m.group(2), list(range(int(lo), int(hi)))
        m = re.match(r"^([A-Za-z_][A-Za-z0-9_]*) = 1, 2, 4, \.\.\. < (.*)$", loop)
        if m:
            hi, v, out = formula.evaluate(m.group(2), env), 1, []
            while v < hi:
                out.append(v)
                v *= 2
            return m.group(1), out
    except (ValueError, ZeroDivisionError):
        pass
    return None


def per_iteration_sums(s, ws, env, assumptions):
    """(compared, mismatches): superstep S's one-run formulas (a loop whose
    runs have no sum) evaluated at each value of its loop's variable (the
    digits the candidate defines of it too) and summed, against bspenum's
    sums WS.  Nothing is compared where the runs are not those of one loop
    (nested loops: the count differs from bspenum's)."""
    lv = loop_values(s.get("loop") or "", env)
    if lv is None:
        return 1, ["loop %r not read: its one-run formulas not summed" % s.get("loop")]
    if "iterations" in ws and len(lv[1]) != ws["iterations"]:
        return 0, []   # nested loops: not one loop's runs
    name, ks = lv
    # each definition (a digit k_M = floor(k/(n/M))), re-read at each value
    defs = [m.groups() for m in (re.match(r"^([A-Za-z_][A-Za-z0-9_]*) = (.*)$", a)
                                 for a in assumptions) if m]
    totals = {q: 0 for q in ("w", "h", "ncom", "cost")}
    for k in ks:
        e = dict(env, **{name: k})
        for dn, dv in defs:
            try:
                e[dn] = int(formula.evaluate(dv, e))
            except (ValueError, ZeroDivisionError):
                pass
        for q in totals:
            f = (s["per_iteration"].get(q) or {}).get("formula")
            if f is None:
                return 1, ["one run's %s has no formula, and the runs no sum" % q]
            try:
                totals[q] += formula.evaluate(f, e)
            except (ValueError, ZeroDivisionError) as x:
                return 1, ["one run's %s not evaluated at %s = %d (%s)" % (q, name, k, x)]
    bad = ["one run's %s summed over %s gives %s, bspenum %s" % (q, name, totals[q], ws[q])
           for q in totals if totals[q] != ws[q]]
    return len(totals), bad


def run_bin(cmd):
    try:
        return subprocess.run(cmd, capture_output=True, text=True,
                              timeout=float(os.environ.get("TIMEOUT", "600")))
    except subprocess.TimeoutExpired:
        return None


def compare_values(got, want, env, formulas=None, formulas_from=None):
    """bspcost's JSON report GOT against bspenum's result WANT at the point ENV
    (g and l included).  Returns (mismatches, refusals, compared): messages
    for the values and formulas that differ, messages for the candidates whose
    values bspcost refused (with its reason), and the number of values and
    formulas compared.  FORMULAS (default: the FORMULAS environment variable,
    on unless 0) also evaluates each formula where ENV satisfies the
    candidate's 'X divides Y' assumptions: GOT's formulas, or those of the
    report FORMULAS_FROM (the same specification and flags at another point:
    a formula does not depend on the point; a candidate whose formulas were
    refused there, whose report holds the values of that point in their
    place, has none)."""
    if formulas is None:
        formulas = os.environ.get("FORMULAS", "1") == "1"
    fc_of = {c["name"]: c for c in got["candidates"]}
    if formulas_from is not None:
        # (a refused candidate's supersteps there are that point's values,
        # but where a loop's runs have no sum or a superstep is refused:
        # then the others' formulas all the same, one run's among them)
        fc_of = {c["name"]: c for c in formulas_from["candidates"]
                 if c.get("status") == "ok" or
                 any(s.get("per_iteration") or s.get("refused")
                     for s in c.get("supersteps", []))}
    bad = []
    refused = []
    compared = 0
    gnames = [c["name"] for c in got["candidates"]]
    wnames = [c["name"] for c in want["candidates"]]
    if gnames != wnames:
        bad.append("candidate list differs: bspcost %s, bspenum %s" % (gnames, wnames))
    gc = {c["name"]: c for c in got["candidates"]}
    base_env = env
    for wc in want["candidates"]:
        c = gc.get(wc["name"])
        if c is None:
            continue
        steps = {s["name"]: {q: (s.get(q) or {}).get("value")
                             for q in QUANTITIES + ("iterations",)}
                 for s in c.get("supersteps", [])}
        total = c.get("cost", {}).get("value")
        if "supersteps" not in c or c.get("values", "ok") != "ok":
            # bspcost(1): with every value given, each candidate has its values
            # (formula or not), or says why not
            refused.append("candidate %s: no values (%s)"
                           % (wc["name"], c.get("values_reason") or c.get("reason", "no reason")))
        else:
            for ws in wc["supersteps"]:
                s = steps.get(ws["name"])
                if s is None:
                    if steps:
                        bad.append("candidate %s: superstep %s has no values in bspcost"
                                   % (wc["name"], ws["name"]))
                    continue
                # a superstep in loops: how many times it ran, too
                for q in QUANTITIES + (("iterations",) if "iterations" in ws else ()):
                    compared += 1
                    if s.get(q) != ws[q]:
                        bad.append("candidate %s superstep %s %s: bspcost %s, bspenum %s"
                                   % (wc["name"], ws["name"], q, s.get(q), ws[q]))
            if steps:
                compared += 1
                if total != wc["cost"]:
                    bad.append("candidate %s total cost: bspcost %s, bspenum %s"
                               % (wc["name"], total, wc["cost"]))
                compared += 1
                mem = c.get("mem", {}).get("value")
                if mem != wc["mem"]:
                    bad.append("candidate %s memory: bspcost %s, bspenum %s"
                               % (wc["name"], mem, wc["mem"]))
        # the formulas, where the point satisfies the candidate's assumptions
        c = fc_of.get(wc["name"])
        if not formulas or c is None or "supersteps" not in c:
            continue
        env = dict(base_env)   # with the candidate's own definitions
        if not assumptions_hold(c.get("assumptions", []), env):
            continue
        fsteps = {s["name"]: s for s in c["supersteps"]}
        for ws in wc["supersteps"]:
            s = fsteps.get(ws["name"], {})
            for q in QUANTITIES + (("iterations",) if "iterations" in ws else ()):
                f = (s.get(q) or {}).get("formula")
                if f is None:
                    continue
                compared += 1
                try:
                    v = formula.evaluate(f, env)
                except (ValueError, ZeroDivisionError) as e:
                    bad.append("candidate %s superstep %s %s: formula not evaluated (%s): %s"
                               % (wc["name"], ws["name"], q, e, f))
                    continue
                if v != ws[q]:
                    bad.append("candidate %s superstep %s %s: formula gives %s, bspenum %s"
                               % (wc["name"], ws["name"], q, v, ws[q]))
            # a loop whose runs have no sum: one run's formulas, summed here
            # over the runs, against bspenum's sum
            if s.get("per_iteration") and (s.get("w") or {}).get("formula") is None:
                n, msgs = per_iteration_sums(s, ws, env, c.get("assumptions", []))
                compared += n
                bad += ["candidate %s superstep %s %s" % (wc["name"], ws["name"], m)
                        for m in msgs]
        for key in ("cost", "mem"):
            f = c.get(key, {}).get("formula")
            if f is None:
                continue
            compared += 1
            try:
                v = formula.evaluate(f, env)
                if v != wc[key]:
                    bad.append("candidate %s total %s: formula gives %s, bspenum %s"
                               % (wc["name"], key, v, wc[key]))
            except (ValueError, ZeroDivisionError) as e:
                bad.append("candidate %s total %s: formula not evaluated (%s)"
                           % (wc["name"], key, e))
    return bad, refused, compared


def run_case(binary, path, point, mode, full=None):
    """(mismatches, notes, command): the case passes when mismatches is empty.

    FULL (a dict, kept by the caller across the points of one specification)
    holds the whole report of the first point of each set of flags: at the
    other points bspcost runs with --values, and the formulas of that report
    are evaluated there.  The formulas on the symbolic grid (or on one
    concrete grid) do not depend on the point, and are the slow part of a
    run: computed once, checked at every point; the values (the same count
    with or without --values) at every point."""
    flags, opts = MODES[mode]
    vals = dict(point, g=G, l=L)
    spec = bspenum.Parser(bspenum.tokenize(open(path).read())).spec()
    if mode in ("grid", "grid_all"):
        flags = (["--all-sizes"] if mode == "grid_all" else []) + \
            ["--grid", "x".join(str(point[a]) for a in spec["axes"])]
        vals = {k: v for k, v in vals.items() if k not in spec["axes"]}
    key = tuple(flags)
    reuse = full is not None and key in full
    # (--values counts the same values whatever the formulas would be:
    # --all-sizes, which asks for formulas, goes)
    cmd = [binary, "-f", "json"] + \
        (["--values"] + [f for f in flags if f != "--all-sizes"] if reuse else flags) + \
        defines(vals) + [path]
    shown = " ".join(cmd)
    p = run_bin(cmd)
    if p is None:
        return ["bspcost timed out"], [], shown
    bad = []
    status = None
    if p.returncode != 0:
        err = (p.stderr.strip().splitlines() or ["(nothing on stderr)"])[0]
        status = "bspcost exit status %d (%s)" % (p.returncode, err)
    try:
        got = json.loads(p.stdout)
    except ValueError as e:
        return [status or "bspcost exit status 0", "bspcost printed no JSON (%s)" % e], [], shown
    env = dict(point, g=G, l=L)
    want = bspenum.analyze(spec, env, **opts)
    if full is not None and not reuse:
        full[key] = got
    base = os.path.basename(path)[:-4]
    if not reuse and base in FORMULAS_REQUIRED and "--grid" not in flags and \
            not (base in FORMULAS_PLAIN_ONLY and mode != "plain"):
        required = FORMULAS_REQUIRED[base]
        for c in got.get("candidates", []):
            if required is not None and c.get("name") not in required:
                continue
            if c.get("status") != "ok" or not c.get("cost", {}).get("formula"):
                bad.append("candidate %s: no formulas on the symbolic grid (%s)"
                           % (c.get("name"), c.get("reason", "no reason")))
    if not reuse and base in STEP_FORMULAS_REQUIRED and "--grid" not in flags:
        for c in got.get("candidates", []):
            if c.get("status") == "ok":
                continue
            for s in c.get("supersteps", []):
                if s.get("name") in STEP_FORMULAS_REQUIRED[base] and \
                        not (s.get("w") or {}).get("formula"):
                    bad.append("candidate %s superstep %s: no formulas kept (%s)"
                               % (c.get("name"), s.get("name"), c.get("reason", "no reason")))
    mism, refused, _ = compare_values(got, want, env,
                                      formulas_from=full[key] if reuse else None)
    # bspcost(1): with every value given, each candidate has its values
    # (formula or not), or says why not: here a refusal is a failure too
    bad += refused + mism
    notes = []
    if status:
        # bspcost(1): with every value given, exit status 0 when every value
        # was computed
        bad.insert(0, status)
    return bad, notes, shown


def main(argv):
    if len(argv) != 1:
        sys.stderr.write("usage: compare.py BIN\n")
        return 2
    binary = argv[0]
    limit = int(os.environ["POINTS_LIMIT"]) if os.environ.get("POINTS_LIMIT") else None
    modes = [m for m in os.environ.get("MODES", "plain").split(",") if m]
    if modes == ["all"]:
        modes = list(MODES)
    for m in modes:
        if m not in MODES:
            sys.stderr.write("compare.py: unknown mode %s\n" % m)
            return 2
    only = [s for s in os.environ.get("SPECS", "").split(",") if s]
    skip = [s for s in os.environ.get("SKIP_SPECS", "").split(",") if s]
    plain_only = [s for s in os.environ.get("PLAIN_ONLY", "").split(",") if s]
    extra_limit = int(os.environ.get("MODES_POINTS") or 1 << 30)
    verbose = os.environ.get("VERBOSE") == "1"
    specs = []
    for d in (os.path.join(ROOT, "examples"), os.path.join(HERE, "specs")):
        if os.path.isdir(d):
            specs += [os.path.join(d, f) for f in sorted(os.listdir(d)) if f.endswith(".bsp")]
    passed = failed = 0
    for path in specs:
        base = os.path.basename(path)[:-4]
        if (only and base not in only) or base in skip:
            continue
        rel = os.path.relpath(path, os.getcwd())
        pts = POINTS.get(base)
        if pts is None:
            spec = bspenum.Parser(bspenum.tokenize(open(path).read())).spec()
            pts = generated_points(spec)
        if limit is not None:
            pts = pts[:limit]
        if os.environ.get("RANDOM_POINTS"):
            spec = bspenum.Parser(bspenum.tokenize(open(path).read())).spec()
            pts = pts + random_points(spec, int(os.environ["RANDOM_POINTS"]),
                                      int(os.environ.get("SEED", "1")))
        full = {}   # the whole report of the first point of each set of flags
        for k, pt in enumerate(pts):
            for mode in modes:
                if mode != "plain" and (k >= extra_limit or base in plain_only):
                    continue
                t0 = time.time()
                try:
                    bad, notes, shown = run_case(binary, rel, pt, mode, full)
                except bspenum.SpecError as e:
                    bad, notes, shown = ["bspenum: %s" % e], [], ""
                where = "%s %s%s" % (base, " ".join("%s=%d" % kv for kv in pt.items()),
                                     "" if mode == "plain" else " [%s]" % mode)
                if verbose:
                    sys.stderr.write("%s: %s (%.1fs)\n" % (where, "FAIL" if bad else "ok",
                                                           time.time() - t0))
                for b in bad:
                    print("MISMATCH %s: %s" % (where, b))
                for b in notes:
                    print("NOTE %s: %s" % (where, b))
                if bad:
                    print("  reproduce: %s" % shown)
                    print("  bspenum:   python3 %s %s%s %s" % (
                        os.path.relpath(os.path.join(HERE, "bspenum.py"), os.getcwd()),
                        " ".join(MODES[mode][0]) + " " if MODES[mode][0] else "",
                        " ".join(defines(dict(pt, g=G, l=L))), rel))
                    failed += 1
                else:
                    passed += 1
                sys.stdout.flush()
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
