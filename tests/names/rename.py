#!/usr/bin/env python3
"""Names cannot change a result: every specification is analyzed twice, as
written and with every name it declares replaced by a hostile one, and the two
reports must be byte-identical once the original report's names are replaced
the same way.

    python3 tests/names/rename.py BSPCOST SPEC.bsp...

Hostile names are words that mean something to ISL, to C, to the formula
grammar or to bspcost's own internal naming (floor, mod, exists, infty, NaN,
q, r, e0, P0, n__P, q__0, ...), and, in a second pass, names of 70 to 90
characters.  The names are assigned in the order of the originals, so that a
report that sorts names sorts them the same way.

Each specification is run on the symbolic grid and on a concrete grid (2 per
axis) with the sizes given (-D), and with every value given (--values), in
JSON; and through --check.  QUICK=1 (the sanitizer pass of make check) runs the long
names only, and not the concrete grid; SCHEMES=hostile (the plain pass) the
hostile names only, every run: between them the two passes run both.  The renamed report, with its names mapped back, must be
the original byte for byte, except that a formula may differ in the order or
grouping of its terms (the formula printer orders terms by their spelling):
such a formula must then take the original's value at every one of 40 points.
The exit status and the messages must be the same.  Ends with
`N passed, N failed`.
"""

import concurrent.futures
import json
import os
import random
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "brute"))
from formula import evaluate  # noqa: E402

# ("divides" in `P divides n`, like "x" in layouts, is a word of the language
# there and a name anywhere else: never renamed)
KEYWORDS = {
    "and", "array", "assume", "block", "candidate", "cyclic", "dist", "divides", "for", "forall",
    "grid", "identity", "import", "layout", "over", "param", "replicated", "size", "sum",
    "superstep", "where", "work", "x",
}

# Words ISL, C, the formula grammar or bspcost's internal names give a meaning.
HOSTILE = [
    "NaN", "P0", "e0", "e__0", "exists", "floor", "ceil", "infty", "mod",
    "min", "max", "not", "or", "q", "q0", "q__0", "r", "r__0", "s", "t", "u",
    "n__P", "L__0", "i0", "true", "false", "int", "void", "if", "else",
    "return", "struct", "div", "rat", "domain", "range", "params", "V0",
    "G0", "p", "c", "_", "__", "a__b", "L__1", "m__M", "n__N",
]

IDENT = re.compile(r"(?<![A-Za-z0-9_])[A-Za-z_][A-Za-z0-9_]*")


def names_of(text):
    """The names a specification declares or uses, in order of appearance."""
    seen = []
    for line in text.splitlines():
        code = line.split("#", 1)[0]
        for m in IDENT.finditer(code):
            w = m.group(0)
            if w not in KEYWORDS and w not in seen:
                seen.append(w)
    return seen


def substitute(text, mapping, code_only):
    """TEXT with every whole identifier in MAPPING replaced (in specification
    code only when CODE_ONLY: comments are left alone)."""
    def repl(m):
        return mapping.get(m.group(0), m.group(0))
    if not code_only:
        return IDENT.sub(repl, text)
    out = []
    for line in text.splitlines(keepends=True):
        if "#" in line:
            code, comment = line.split("#", 1)
            out.append(IDENT.sub(repl, code) + "#" + comment)
        else:
            out.append(IDENT.sub(repl, line))
    return "".join(out)


def mapping_for(names, scheme):
    """Each name to a hostile one, in the same sort order as the originals."""
    order = sorted(names)
    if scheme == "hostile":
        pool = [h for h in HOSTILE if h not in names]
    else:
        pool = ["w%02d_" % i + "long" * 18 + "_name" for i in range(len(names))]
    pool = [p for p in pool if p not in KEYWORDS]
    if len(pool) < len(order):
        return None
    chosen = sorted(pool[:len(order)])
    return dict(zip(order, chosen))


def axes_of(text):
    m = re.search(r"^\s*grid\s+([^;]*);", text, re.M)
    if not m:
        return []
    return [a.strip() for a in m.group(1).split(",") if a.strip()]


def params_of(text):
    out = []
    for m in re.finditer(r"^\s*param\s+([^;]*);", text, re.M):
        out += [p.strip() for p in m.group(1).split(",") if p.strip()]
    return out


# Specifications whose formulas on a 2 x 2 grid take seconds (PDGEMM's
# block-cyclic variants, LU's loop): run on the symbolic grid and at values
# only; the concrete grid's names are the other specifications' to test.
SLOW_GRID = {"pdgemm.bsp", "lu.bsp"}


def runs(text, slow_grid=False):
    """The command lines (without the file) each specification is run with."""
    axes = axes_of(text)
    params = params_of(text)
    grid = ["--grid", "x".join(["2"] * len(axes))] if axes else []
    values = []
    for i, p in enumerate(params):
        values += ["-D", "%s=%d" % (p, 64 + 2 * i)]
    every = values + sum((["-D", "%s=%d" % (a, 2 + i)] for i, a in enumerate(axes)), [])
    js = ["--format", "json"]
    # with every value given, the values alone (--values): the formulas of
    # the symbolic grid, which a run without --values would compute again,
    # are the run with the sizes only
    every = ["--values"] + every
    if os.environ.get("QUICK") or slow_grid:
        # under the sanitizers: every phase once, not the slow concrete grids
        return [["--check"], js + values, js + every]
    return [["--check"], js + values, js + grid + values, js + every]


def unmap(text, inverse):
    """TEXT with the hostile names mapped back: whole identifiers only, and
    not a function's name (a name followed at once by '(', as bspcost prints
    floor( and ceil(; a product is always written with *)."""
    def repl(m):
        w = m.group(0)
        if text[m.end():m.end() + 1] == "(":
            return w
        return inverse.get(w, w)
    return IDENT.sub(repl, text)


def same_formula(a, b, names, rng):
    """A and B (formulas over NAMES) take the same value at 40 points."""
    for _ in range(40):
        env = dict((n, rng.randint(1, 40)) for n in names)
        env.update(g=3, l=7)
        try:
            if evaluate(a, env) != evaluate(b, env):
                return False
        except (ValueError, ZeroDivisionError, KeyError, IndexError):
            return False
    return True


def compare_json(want, got, names, rng, path=""):
    """The first difference between two reports (None if none), formulas
    compared by value where their text differs."""
    if isinstance(want, dict) and isinstance(got, dict):
        if list(want) != list(got):
            return "%s: keys %s vs %s" % (path, list(want), list(got))
        for k in want:
            d = compare_json(want[k], got[k], names, rng, path + "." + k)
            if d:
                return d
        return None
    if isinstance(want, list) and isinstance(got, list):
        if len(want) != len(got):
            return "%s: %d vs %d items" % (path, len(want), len(got))
        for i, (a, b) in enumerate(zip(want, got)):
            d = compare_json(a, b, names, rng, "%s[%d]" % (path, i))
            if d:
                return d
        return None
    if want == got:
        return None
    if isinstance(want, str) and isinstance(got, str) and path.endswith("formula") and \
            same_formula(want, got, names, rng):
        return None
    return "%s: %r vs %r" % (path, want, got)


def quiet(err):
    """Messages without what depends on a name's length: the caret lines
    under a source excerpt, and quoted names (long ones are shortened with
    '...'; the diagnostics tests pin those)."""
    out = []
    for line in err.splitlines():
        if re.fullmatch(r"\s*\^~*\s*", line):
            continue
        out.append(re.sub(r"'[^']*'", "'_'", line))
    return out


def run(bspcost, args, cwd, path):
    r = subprocess.run([bspcost, "--timeout", "120"] + args + [path], cwd=cwd,
                       capture_output=True, text=True)
    return r.returncode, r.stdout, r.stderr


DEFINED = re.compile(r"(?<![A-Za-z0-9_])([A-Za-z_][A-Za-z0-9_]*) = ")


def digits_normalized(text, names):
    """TEXT with the names bspcost derives from the specification's (the
    digits of an expression of the sizes, k0_M = floor(k0/(n/M))) replaced
    by digit1, digit2, ... in order of first definition: such a name is
    built from the user's names, so the renamed run spells it otherwise.
    Returns the text and the placeholders."""
    order = []
    for m in DEFINED.finditer(text):
        w = m.group(1)
        if w not in names and w not in ("g", "l") and w not in order:
            order.append(w)
    if not order:
        return text, []
    mapping = dict((w, "digit%d" % (i + 1)) for i, w in enumerate(order))

    def repl(m):
        return mapping.get(m.group(0), m.group(0))
    return IDENT.sub(repl, text), list(mapping.values())


def case(bspcost, tmp, spec, text, scheme, mapping, args, rng):
    """One comparison: None when it passes, else what differs."""
    names = names_of(text)
    inverse = dict((v, k) for k, v in mapping.items())
    base = os.path.basename(spec)
    da = tempfile.mkdtemp(dir=tmp)
    db = tempfile.mkdtemp(dir=tmp)
    with open(os.path.join(da, base), "w") as f:
        f.write(text)
    with open(os.path.join(db, base), "w") as f:
        f.write(substitute(text, mapping, True))
    st_a, out_a, err_a = run(bspcost, args, da, base)
    args_b = [substitute(a, mapping, False) if "=" in a else a for a in args]
    st_b, out_b, err_b = run(bspcost, args_b, db, base)
    # both reports mapped: a word of bspcost's own prose that is a hostile
    # name ("not" in a reason) reads the same on both sides
    out_a, err_a = unmap(out_a, inverse), unmap(err_a, inverse)
    out_b, err_b = unmap(out_b, inverse), unmap(err_b, inverse)
    out_a, digits = digits_normalized(out_a, names)
    out_b, _ = digits_normalized(out_b, names)
    names = names + digits
    if st_a != st_b:
        return "exit %d vs %d" % (st_a, st_b)
    if quiet(err_a) != quiet(err_b):
        return "stderr %r vs %r" % (err_a[:300], err_b[:300])
    if out_a != out_b:
        try:
            return compare_json(json.loads(out_a), json.loads(out_b), names, rng)
        except ValueError:
            return "stdout %r vs %r" % (out_a[:300], out_b[:300])
    return None


def main():
    bspcost = os.path.abspath(sys.argv[1])
    specs = sys.argv[2:]
    jobs = []
    for spec in specs:
        text = open(spec).read()
        schemes = ("long",) if os.environ.get("QUICK") else ("hostile", "long")
        if os.environ.get("SCHEMES"):
            schemes = tuple(x for x in os.environ["SCHEMES"].split(",") if x)
        for scheme in schemes:
            mapping = mapping_for(names_of(text), scheme)
            if mapping is None:
                print("# %s: not enough %s names" % (spec, scheme))
                continue
            for args in runs(text, os.path.basename(spec) in SLOW_GRID):
                jobs.append((spec, text, scheme, mapping, args))
    passed = failed = 0
    workers = int(os.environ.get("JOBS", "2"))
    with tempfile.TemporaryDirectory() as tmp, \
            concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(case, bspcost, tmp, spec, text, scheme, mapping, args,
                               random.Random(7))
                   for spec, text, scheme, mapping, args in jobs]
        for (spec, _, scheme, _, args), fu in zip(jobs, futures):
            diff = fu.result()
            if diff is None:
                passed += 1
            else:
                failed += 1
                print("FAIL %s %s %s: %s" % (spec, scheme, " ".join(args), diff[:600]))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
