#!/usr/bin/env python3
"""gen.py: random valid bspcost specifications (bspcost(5)), for stress.py.

    python3 tests/stress/gen.py [--seed S] [--count N] [--out DIR]

Prints spec number S (or writes N specs, S, S+1, ..., to DIR/gen-S.bsp).
The same seed gives the same text (Python 3 standard library only).

A spec has 1-3 grid axes (P, Q, R), 1-3 parameters (n, m, o), 1-3 arrays
(A, B, C) of 1-2 dimensions, and draws from the whole language: extents that
are a parameter, a parameter plus or minus a constant, or an axis; layouts
made of named dists with alternatives (`block | cyclic(2)`, giving several
candidates), inline kinds (block, cyclic, cyclic(b), identity where the
extent is the axis) and `*`; explicit candidates; element sizes; assumptions
(`n >= 2*P`, `m >= n + 1`, `n % P == 0`); 1-3 supersteps of 1-2 statements
with strict and inclusive range bounds, triangular ranges (`j <= i`),
stencil offsets on both sides (`v[i+1] = u[i-1] + ...`), conditions (`i != j`,
`i % 2 == 0`, distribution predicates `d(i) == 0`, `d(i + 2) == 1`), sums with their own
conditions and ranges, products, unary minus, constants and `work` weights;
a loop (`for w < n - 1 { ... }`) around some supersteps, its variable in
their subscripts, ranges and conditions.

Every subscript is proved in bounds as it is generated, from the ranges of the
variables (their least value and an affine upper bound in the sizes) and the
assumptions, by a deliberately simple sufficient test (see Facts.proves): a
generated spec that `bspcost --check` rejects is a bug of this generator or of
the checker.
"""

import argparse
import os
import random
import sys

PARAMS = ["n", "m", "o"]
AXES = ["P", "Q", "R"]
ARRAYS = ["A", "B", "C"]
FORALL_VARS = ["i", "j"]
SUM_VARS = ["k", "t"]
LOOP_VAR = "w"
ORDER = {name: r for r, name in enumerate(PARAMS + AXES + FORALL_VARS + SUM_VARS + [LOOP_VAR])}


class Aff:
    """An affine expression: {name: coefficient} + constant."""

    __slots__ = ("c", "k")

    def __init__(self, c=None, k=0):
        self.c = {n: v for n, v in (c or {}).items() if v}
        self.k = k

    @staticmethod
    def var(name, coef=1):
        return Aff({name: coef})

    def _merge(self, o, sign):
        if isinstance(o, int):
            return Aff(self.c, self.k + sign * o)
        c = dict(self.c)
        for n, v in o.c.items():
            c[n] = c.get(n, 0) + sign * v
        return Aff(c, self.k + sign * o.k)

    def __add__(self, o):
        return self._merge(o, 1)

    def __sub__(self, o):
        return self._merge(o, -1)

    def __mul__(self, m):
        return Aff({n: v * m for n, v in self.c.items()}, self.k * m)

    def __eq__(self, o):
        return isinstance(o, Aff) and self.c == o.c and self.k == o.k

    def __hash__(self):
        return hash((tuple(sorted(self.c.items())), self.k))

    def is_const(self):
        return not self.c

    def __str__(self):
        out = ""
        for n in sorted(self.c, key=lambda x: ORDER.get(x, 99)):
            v = self.c[n]
            mag = abs(v)
            term = n if mag == 1 else "%d*%s" % (mag, n)
            if not out:
                out = ("-" if v < 0 else "") + term
            else:
                out += (" - " if v < 0 else " + ") + term
        if not out:
            return str(self.k)
        if self.k:
            out += (" - %d" if self.k < 0 else " + %d") % abs(self.k)
        return out


class Facts:
    """Facts `a >= 0` about the sizes: the assumptions and every extent >= 1.

    Only the grid axes are at least 1 by themselves (bspcost(5)); a parameter
    is bounded only through the assumptions and the extents (the checker
    finds counterexamples with n = 0 or n = -1 otherwise).
    """

    def __init__(self, axes):
        self.axes = set(axes)
        self.facts = []

    def add(self, a):
        if a not in self.facts:
            self.facts.append(a)

    def _basic(self, d):
        # d >= 0 whenever every axis is >= 1: non-negative coefficients on
        # axes only, and a non-negative value at axes 1.
        return all(v >= 0 and n in self.axes for n, v in d.c.items()) and \
            d.k + sum(d.c.values()) >= 0

    def proves(self, d):
        """A sufficient test of d >= 0: up to two facts, each taken once or twice, plus a basic term."""
        if self._basic(d):
            return True
        for x, f in enumerate(self.facts):
            for m1 in (1, 2):
                r = d - f * m1
                if self._basic(r):
                    return True
                for g in self.facts[x + 1:]:
                    for m2 in (1, 2):
                        if self._basic(r - g * m2):
                            return True
        return False


class Var:
    """A bound variable: value in [lo, hi], lo an integer, hi affine in the sizes."""

    def __init__(self, lo, hi):
        self.lo = lo
        self.hi = hi


class Gen:
    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.seed = seed

    def chance(self, p):
        return self.rng.random() < p

    # ------------------------------------------------------------------
    def generate(self):
        r = self.rng
        self.axes = AXES[:r.choice([1, 1, 2, 2, 2, 3])]
        self.params = PARAMS[:r.choice([1, 1, 2, 2, 3])]
        self.facts = Facts(self.axes)
        self.assumes = []
        self.gen_assumptions()
        self.gen_arrays()
        self.dists = {}            # name -> {"axis", "kinds", "uses": [(array, dim, top)]}
        self.dist_names = []
        self.candidates = []
        self.cands_allowed = 8
        self.layouts = {a: self.gen_layout(a, top=True) for a in self.arrays}
        if self.chance(0.15) and self.ncands() <= 4:
            self.cands_allowed = 0      # no new alternatives in their layouts
            for c in range(r.choice([2, 2, 3])):
                over = r.sample(list(self.arrays), r.randint(1, min(2, len(self.arrays))))
                self.candidates.append(("c%d" % c, [(a, self.gen_layout(a, top=False))
                                                    for a in sorted(over)]))
        self.steps = []
        nsteps = r.choice([1, 1, 2, 2, 3])
        # a loop around some of the supersteps: its variable in their scope
        # (drawn from a generator of its own, so that a spec without a loop
        # is the one the same seed gave before loops existed)
        lr = random.Random(self.seed * 7919 + 17)
        self.loop = None
        if lr.random() < 0.3:
            a = lr.randrange(nsteps)
            b = lr.randrange(a, nsteps)
            bound = lr.choice([Aff(k=1), Aff(k=2), Aff(k=3)] +
                              [Aff.var(p) for p in self.params] +
                              [Aff.var(p) - 1 for p in self.params])
            self.loop = (a, b, bound)
        for s in range(nsteps):
            inside = self.loop and self.loop[0] <= s <= self.loop[1]
            extra = {LOOP_VAR: Var(0, self.loop[2] - 1)} if inside else {}
            stmts = [self.gen_stmt(extra) for _ in range(r.choice([1, 1, 1, 2]))]
            self.steps.append(("s%d" % s, stmts))
        return self.render()

    def ncands(self):
        n = 1
        for d in self.dists.values():
            n *= len(d["kinds"])
        return n * max(1, len(self.candidates))

    # -- assumptions ---------------------------------------------------
    def gen_assumptions(self):
        r = self.rng
        for p in self.params:
            roll = r.random()
            if roll < 0.45:
                ax = r.choice(self.axes)
                c = r.choice([1, 1, 2])
                d = r.choice([0, 0, 0, 1])
                rhs = Aff.var(ax, c) + d
                self.assumes.append("%s >= %s" % (p, rhs))
                self.facts.add(Aff.var(p) - rhs)
            elif roll < 0.6:
                c = r.choice([2, 3])
                self.assumes.append("%s >= %d" % (p, c))
                self.facts.add(Aff.var(p) - c)
            elif roll < 0.7:
                ax = r.choice(self.axes)
                self.assumes.append("%s %% %s == 0" % (p, ax))
        if len(self.params) >= 2 and self.chance(0.3):
            a, b = r.sample(self.params, 2)
            d = r.choice([0, 1])
            rhs = Aff.var(a) + d
            self.assumes.append("%s >= %s" % (b, rhs))
            self.facts.add(Aff.var(b) - rhs)
        if self.chance(0.1):
            # a chain, written as one condition
            p = r.choice(self.params)
            ax = r.choice(self.axes)
            self.assumes.append("%s <= %s < 4*%s + 9" % (ax, p, ax))
            self.facts.add(Aff.var(p) - Aff.var(ax))

    # -- arrays --------------------------------------------------------
    def gen_arrays(self):
        r = self.rng
        self.arrays = {}
        self.sizes = {}
        for a in ARRAYS[:r.choice([1, 2, 2, 3, 3])]:
            exts = []
            for _ in range(r.choice([1, 1, 2])):
                roll = r.random()
                if roll < 0.6:
                    e = Aff.var(r.choice(self.params))
                elif roll < 0.72:
                    e = Aff.var(r.choice(self.params)) + r.choice([1, 2])
                elif roll < 0.8:
                    p = r.choice(self.params)
                    c = r.choice([1, 2])
                    e = Aff.var(p) - c
                    if not self.facts.proves(e - 1):
                        self.assumes.append("%s >= %d" % (p, c + 1))
                        self.facts.add(Aff.var(p) - (c + 1))
                elif roll < 0.95:
                    e = Aff.var(r.choice(self.axes))
                else:
                    e = Aff(k=r.choice([3, 5]))
                exts.append(e)
                self.facts.add(e - 1)
            self.arrays[a] = exts
            self.sizes[a] = r.choice([2, 3]) if self.chance(0.12) else 1

    # -- layouts -------------------------------------------------------
    def kind(self):
        roll = self.rng.random()
        if roll < 0.4:
            return "block"
        if roll < 0.75:
            return "cyclic"
        return "cyclic(%d)" % self.rng.choice([1, 2, 2, 3])

    def new_dist(self, axis):
        r = self.rng
        name = "d%d" % len(self.dist_names)
        kinds = [self.kind()]
        if self.chance(0.55):
            for _ in range(r.choice([1, 1, 2])):
                k = self.kind()
                if k not in kinds and self.ncands() * (len(kinds) + 1) <= self.cands_allowed:
                    kinds.append(k)
        self.dists[name] = {"axis": axis, "kinds": kinds, "uses": []}
        self.dist_names.append(name)
        return name

    def gen_layout(self, a, top):
        r = self.rng
        exts = self.arrays[a]
        used = set()
        dims = []
        for d, e in enumerate(exts):
            free = [ax for ax in self.axes if ax not in used]
            roll = r.random()
            if not free or roll < 0.15:
                dims.append(("*",))
                continue
            ax = r.choice(free)
            if e == Aff.var(ax) and self.chance(0.6):
                dims.append(("inline", "identity", ax))
            elif roll < 0.6:
                # a named dist over ax: an existing one, or a new one
                old = [n for n in self.dist_names if self.dists[n]["axis"] == ax]
                if old and self.chance(0.6):
                    name = r.choice(old)
                else:
                    name = self.new_dist(ax)
                self.dists[name]["uses"].append((a, d, top))
                dims.append(("named", name))
            else:
                dims.append(("inline", self.kind(), ax))
            used.add(ax)
        return dims

    # -- statements ----------------------------------------------------
    def subscript(self, ext, scope, prefer=None):
        """A subscript of a dimension of extent EXT, provably in [0, ext - 1]."""
        r = self.rng
        opts = []
        for v, info in scope.items():
            for off in (-2, -1, 0, 1, 2):
                if info.lo + off >= 0 and self.facts.proves(ext - 1 - info.hi - off):
                    wgt = 6 if off == 0 else (3 if abs(off) == 1 else 1)
                    if v == prefer:
                        wgt *= 3
                    opts.append((wgt, Aff.var(v) + off))
        # two variables at once, when they fit
        vs = list(scope.items())
        if len(vs) >= 2:
            (v1, i1), (v2, i2) = r.sample(vs, 2)
            if self.facts.proves(ext - 1 - i1.hi - i2.hi):
                opts.append((1, Aff.var(v1) + Aff.var(v2)))
        if opts and not self.chance(0.05):
            tot = sum(w for w, _ in opts)
            x = r.uniform(0, tot)
            for w, s in opts:
                x -= w
                if x <= 0:
                    return s
            return opts[-1][1]
        consts = [Aff(k=0), ext - 1]
        for c in (1, 2):
            if self.facts.proves(ext - 1 - c):
                consts.append(Aff(k=c))
        return r.choice(consts)

    def ref(self, scope, array=None, prefer=()):
        a = array or self.rng.choice(list(self.arrays))
        subs = [self.subscript(e, scope, prefer[d] if d < len(prefer) else None)
                for d, e in enumerate(self.arrays[a])]
        return "%s%s" % (a, "".join("[%s]" % s for s in subs))

    def pred_dists(self):
        """Dists a predicate may name: used by top-level layouts, on one extent."""
        if self.candidates:
            return []
        out = []
        for n in self.dist_names:
            uses = [u for u in self.dists[n]["uses"] if u[2]]
            exts = {self.arrays[a][d] for a, d, _ in uses}
            if uses and len(exts) == 1:
                out.append(n)
        return out

    def condition(self, scope, names):
        """Comparisons on the variables NAMES (joined by `and`), or None."""
        r = self.rng
        opts = []
        v = r.choice(names)
        opts.append("%s %% 2 == 0" % v)
        opts.append("(%s + 1) %% 3 == 0" % v)
        if self.chance(0.1):
            # divisibility by an axis: the analysis refuses it (for now)
            opts.append("%s %% %s == 0" % (v, r.choice(self.axes)))
        opts.append("%s > %d" % (v, scope[v].lo))
        opts.append("%s != %d" % (v, scope[v].lo + 1))
        others = [x for x in scope if x != v]
        if others:
            u = r.choice(others)
            opts += ["%s != %s" % (v, u), "%s >= %s" % (v, u), "%s < %s" % (v, u),
                     "%s + %s < %s" % (v, u, scope[v].hi + 1),
                     "2*%s <= %s + 1" % (v, u)]
        preds = self.pred_dists()
        if preds:
            d = r.choice(preds)
            # `!=`: the analysis refuses a negated predicate (for now)
            opts.append("%s(%s) == %d" % (d, v, r.choice([0, 0, 1])))
            opts.append("%s(%s) %s %d" % (d, v, "!=" if self.chance(0.15) else "==",
                                          r.choice([0, 0, 1])))
            # an index with an offset, which may leave the dist's extent
            # (a cyclic dist maps it, a block one may not): the symbolic
            # grid once lost such instances
            off = r.choice([-1, 1, 2])
            opts.append("%s(%s %s %d) == %d" % (d, v, "+" if off > 0 else "-", abs(off),
                                                r.choice([0, 1])))
        parts = r.sample(opts, r.choice([1, 1, 1, 2]))
        return " and ".join(parts)

    def range_text(self, v, lo, hi_excl, lo_var=None):
        """lo <= v < hi_excl in one of the spellings the language has."""
        r = self.rng
        if lo_var is not None:
            low = "%s <= " % lo_var if self.chance(0.7) else "%s - 1 < " % lo_var
        elif lo == 0 and self.chance(0.6):
            low = ""
        elif self.chance(0.8):
            low = "%d <= " % lo
        else:
            low = "%d < " % (lo - 1)
        if isinstance(hi_excl, str):
            high = "%s <= %s" % (v, hi_excl)      # inclusive, given as a name
        elif self.chance(0.75):
            high = "%s < %s" % (v, hi_excl)
        else:
            high = "%s <= %s" % (v, hi_excl - 1)
        return low + high

    def sum_term(self, scope, depth):
        r = self.rng
        k = SUM_VARS[depth]
        roll = r.random()
        inner = dict(scope)
        if roll < 0.25 and scope:
            # triangular: k <= a forall variable
            u = r.choice(list(scope))
            rng_txt = self.range_text(k, 0, u)
            inner[k] = Var(0, scope[u].hi)
        else:
            a = r.choice(list(self.arrays))
            hi = r.choice(self.arrays[a])
            lo = 1 if self.chance(0.2) else 0
            if self.chance(0.2):
                hi = hi - 1
            rng_txt = self.range_text(k, lo, hi)
            inner[k] = Var(lo, hi - 1)
        cond = ""
        if self.chance(0.3):
            cond = " | " + self.condition(inner, [k])
        def ref():
            # mostly indexed by k, as sums are
            prefer = r.choice([[k, None], [None, k], [k, k], [None, None]])
            return self.ref(inner, prefer=prefer)
        roll = r.random()
        if roll < 0.15 and depth + 1 < len(SUM_VARS):
            body = self.sum_term(inner, depth + 1)
        elif roll < 0.6:
            body = "%s * %s" % (ref(), ref())
        elif roll < 0.8:
            body = "%s + %s" % (ref(), ref())
        else:
            body = ref()
        return "sum %s%s : %s" % (rng_txt, cond, body)

    def rhs(self, scope, prefer):
        r = self.rng
        n = r.choice([1, 2, 2, 3, 3])
        terms = []
        for t in range(n):
            roll = r.random()
            if roll < 0.2:
                s = self.sum_term(scope, 0)
                terms.append(s if t == n - 1 else "(%s)" % s)
            elif roll < 0.28:
                terms.append(str(r.choice([1, 2, 4])))
            elif roll < 0.33:
                terms.append("-" + self.ref(scope, prefer=prefer))
            else:
                terms.append(self.ref(scope, prefer=prefer))
        out = terms[0]
        for t in terms[1:]:
            out += " %s %s" % (r.choice(["+", "+", "-", "*"]), t)
        if self.chance(0.1) and n >= 2:
            out = "(%s) * %s" % (out, self.ref(scope, prefer=prefer))
        return out

    def gen_stmt(self, extra=None):
        """A statement; EXTRA: the loop variable around it, in its scope."""
        r = self.rng
        X = r.choice(list(self.arrays))
        exts = self.arrays[X]
        scope = dict(extra or {})
        ranges = []
        lhs = []
        if self.chance(0.08):
            lhs = [r.choice([Aff(k=0), e - 1]) for e in exts]
        else:
            for d, e in enumerate(exts):
                v = FORALL_VARS[d]
                off = r.choice([0, 0, 0, 0, 0, 1, -1])
                lo = max(0, -off) + (1 if self.chance(0.2) else 0)
                hi = e - (max(0, off) + (1 if self.chance(0.2) else 0))
                u = FORALL_VARS[d - 1] if d else None
                if u and self.chance(0.15) and lo + off >= 0 and \
                        self.facts.proves(e - 1 - scope[u].hi - off):
                    ranges.append(self.range_text(v, lo, u) if lo == 0 else
                                  "%d <= %s <= %s" % (lo, v, u))
                    scope[v] = Var(lo, scope[u].hi)
                elif u and self.chance(0.12) and scope[u].lo >= lo:
                    ranges.append(self.range_text(v, None, hi, lo_var=u))
                    scope[v] = Var(scope[u].lo, hi - 1)
                else:
                    ranges.append(self.range_text(v, lo, hi))
                    scope[v] = Var(lo, hi - 1)
                lhs.append(Aff.var(v) + off)
        cond = ""
        if scope and self.chance(0.3):
            cond = " %s %s" % (r.choice(["|", "|", "where"]), self.condition(scope, list(scope)))
        prefer = [FORALL_VARS[d] if d < len(lhs) and FORALL_VARS[d] in scope else None
                  for d in range(2)]
        rhs = self.rhs(scope, prefer)
        work = ""
        if self.chance(0.25):
            work = " work %d" % r.choice([0, 1, 2, 3, 5, 1000000000])
        text = "%s%s = %s%s;" % (X, "".join("[%s]" % s for s in lhs), rhs, work)
        if ranges:
            text = "forall %s%s :\n        %s" % (", ".join(ranges), cond, text)
        return text

    # -- output --------------------------------------------------------
    def layout_text(self, dims):
        out = []
        for d in dims:
            if d[0] == "*":
                out.append("*")
            elif d[0] == "named":
                out.append(d[1])
            else:
                out.append("%s over %s" % (d[1], d[2]))
        return " x ".join(out)

    def render(self):
        r = self.rng
        head = ["# generated by tests/stress/gen.py, seed %s" % self.seed,
                "param %s;" % ", ".join(self.params),
                "grid %s;" % ", ".join(self.axes)]
        if self.assumes:
            head.append("assume %s;" % ", ".join(self.assumes))
        arr = []
        for a, exts in self.arrays.items():
            arr.append("%s%s%s" % (a, "".join("[%s]" % e for e in exts),
                                   " size %d" % self.sizes[a] if self.sizes[a] != 1 else ""))
        decls = ["array %s;" % ", ".join(arr)]
        for n in self.dist_names:
            d = self.dists[n]
            decls.append("dist %s = %s over %s;" % (n, " | ".join(d["kinds"]), d["axis"]))
        for a, dims in self.layouts.items():
            decls.append("layout %s : %s;" % (a, self.layout_text(dims)))
        for c, lays in self.candidates:
            decls.append("candidate %s { %s }" % (
                c, " ".join("layout %s : %s;" % (a, self.layout_text(d)) for a, d in lays)))
        body = []
        for x, (s, stmts) in enumerate(self.steps):
            text = "superstep %s {\n%s\n}" % (s, "\n".join("    " + y for y in stmts))
            if self.loop and self.loop[0] <= x <= self.loop[1]:
                text = "\n".join("    " + y for y in text.split("\n"))
                if x == self.loop[0]:
                    text = "for %s < %s {\n%s" % (LOOP_VAR, self.loop[2], text)
                if x == self.loop[1]:
                    text += "\n}"
            body.append(text)
        if self.chance(0.15):
            # declarations in any order: the supersteps first
            return "\n".join([head[0]] + body + head[1:] + decls) + "\n"
        return "\n".join(head + decls + body) + "\n"


def extent_texts(text):
    """{array: [extent text, ...]} from the `array` declaration of a generated spec."""
    import re
    m = re.search(r"^array (.*);$", text, re.M)
    return {a: re.findall(r"\[([^\]]*)\]", dims)
            for a, dims in re.findall(r"(\w+)((?:\[[^\]]*\])+)", m.group(1))}


def generate(seed):
    """The text of specification number SEED."""
    return Gen(seed).generate()


def main(argv):
    ap = argparse.ArgumentParser(description="random valid bspcost specifications")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=1)
    ap.add_argument("--out", help="directory for gen-SEED.bsp files (default: stdout)")
    a = ap.parse_args(argv)
    for s in range(a.seed, a.seed + a.count):
        text = generate(s)
        if a.out:
            os.makedirs(a.out, exist_ok=True)
            with open(os.path.join(a.out, "gen-%d.bsp" % s), "w") as f:
                f.write(text)
        else:
            sys.stdout.write(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
