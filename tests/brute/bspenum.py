#!/usr/bin/env python3
"""bspenum: an independent brute-force evaluator of bspcost specifications.

    python3 tests/brute/bspenum.py SPEC.bsp -D name=value ... [--h-sum] [--flops]

Every size parameter and every grid axis needs a value (-D name=value); g and l
are optional (0 by default).  For every candidate (same names and order as
bspcost) and every superstep, the statement instances are enumerated one by one
and every process of the grid is looked at on its own:

  owner(A[e])  for each grid axis, the coordinate given by the dimension of A's
               layout distributed over that axis, or 0 when none is; every
               coordinate of an axis the layout says `replicated over` (then
               A[e] has several holders, and each computes an instance whose
               left-hand element it holds)
               (block: e / ceil(X/P); cyclic: e mod P; cyclic(b): (e / b) mod P;
               identity: e);
  an instance is computed by the owner of its left-hand element;
  use(q)       the array elements read by the right-hand sides (sums included)
               of the instances q computes;
  fan_in(q)    the elements of use(q) that q does not own;
  fan_out(q)   the pairs (q', e), q' != q, e in use(q'), owner(e) = q; for a
               replicated e that q' does not hold, the holder with q''s
               coordinates on the replicated axes sends it;
  h            max over q of max(fan_in, fan_out)  (--h-sum: of fan_in + fan_out);
  h_in, h_out  max over q of fan_in, of fan_out;  ncom = sum over q of fan_in;
  msgs_in(q)   the processes that send q an element of its fan_in (a message
               per pair of processes), msgs_out(q) those q sends one to
               (--detail prints both);
  w            max over q of the work of the instances q computes;
  cost         w + h*g + l, and the candidate's cost is the sum over supersteps.
  mem          max over q of the words q owns of the arrays the superstep reads
               or writes (of every array the candidate sees, for its own mem).

A superstep inside loops (`for k < n - 1 { superstep ... }`, nested or not, or
a geometric loop `for s = 1, 2, 4, ... < P`: s = 1, 2, 4, ... while s < P) runs
once per value of the loops' variables, in order; each run is a superstep of its
own with its own h, and the superstep's w, h, h_in, h_out, NCom and cost are the
sums over the runs (l once per run); "iterations" says how many there were.

A candidate block that declares arrays and supersteps is a program variant: its
arrays are added to the top-level ones, and its supersteps, when it has some,
are its whole program (the top-level supersteps otherwise).

Communication counts words: an element of an array declared with `size s`
counts s (1 by default).  --elements counts elements instead.

Work of one instance (bspcost(5)): `work W` gives it; otherwise, by default
(terms), a top-level + or - adds the terms of its operands, unary minus and
parentheses are transparent, a sum counts the terms of its body at each of its
points, and anything else (a product, a quotient, an element, a number) is one
term.  --flops counts every + - * / % and unary minus once per evaluation, and a
sum of n terms as n additions (plus the operations of its body at each point).

The program is written from the language manual (man/bspcost.5) only; it shares
no code with bspcost.  --detail prints the per-process counts on stderr.
"""

import hashlib
import itertools
import json
import os
import pickle
import sys

# ---------------------------------------------------------------------------
# Lexer


class SpecError(Exception):
    pass


KEYWORDS = {
    "and", "array", "assume", "block", "candidate", "cyclic", "dist", "for", "forall",
    "grid", "identity", "import", "layout", "over", "param", "replicated", "size", "sum",
    "superstep", "where", "work",
}


def tokenize(text):
    toks = []
    i, n, line = 0, len(text), 1
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
        elif c in " \t\r\f\v":
            i += 1
        elif c == "#":
            while i < n and text[i] != "\n":
                i += 1
        elif c.isascii() and (c.isalpha() or c == "_"):
            j = i
            while j < n and text[j].isascii() and (text[j].isalnum() or text[j] == "_"):
                j += 1
            w = text[i:j]
            toks.append(("kw" if w in KEYWORDS else "id", w, line))
            i = j
        elif c in "0123456789":
            j = i
            while j < n and text[j] in "0123456789":
                j += 1
            toks.append(("int", int(text[i:j]), line))
            i = j
        elif c == '"':
            j = text.index('"', i + 1)
            toks.append(("str", text[i + 1:j], line))
            i = j + 1
        elif text[i:i + 3] == "...":
            toks.append(("op", "...", line))
            i += 3
        elif text[i:i + 2] in ("<=", ">=", "==", "!="):
            toks.append(("op", text[i:i + 2], line))
            i += 2
        elif c in ",:=|*+-/%<>()[]{};":
            toks.append(("op", c, line))
            i += 1
        else:
            raise SpecError("line %d: unexpected character %r" % (line, c))
    toks.append(("eof", None, line))
    return toks


# ---------------------------------------------------------------------------
# AST: tuples
#   ("int", v) ("name", s) ("ref", array, [subs]) ("call", dist, expr)
#   ("neg", e) ("bin", op, l, r) ("sum", quant, body)
# quant = (ranges, cond) with ranges = [(var, lo_expr, lo_strict, hi_expr, hi_strict)]
# cond = [cmp, ...] (and); cmp = ([e0, e1, ...], [op0, op1, ...])

RELOPS = ("<", "<=", ">", ">=", "==", "!=")


class Parser:
    def __init__(self, toks):
        self.toks = toks
        self.pos = 0

    def peek(self, k=0):
        return self.toks[self.pos + k]

    def next(self):
        t = self.toks[self.pos]
        self.pos += 1
        return t

    def at(self, val, kind=None):
        t = self.peek()
        return t[1] == val and (kind is None or t[0] == kind) and t[0] != "eof"

    def expect(self, val):
        t = self.next()
        if t[1] != val or t[0] in ("id", "int", "str", "eof"):
            raise SpecError("line %d: expected %r, found %r" % (t[2], val, t[1]))
        return t

    def ident(self):
        t = self.next()
        if t[0] != "id":
            raise SpecError("line %d: expected a name, found %r" % (t[2], t[1]))
        return t[1]

    def integer(self):
        t = self.next()
        if t[0] != "int":
            raise SpecError("line %d: expected an integer, found %r" % (t[2], t[1]))
        return t[1]

    # -- expressions
    def expr(self):
        return self.additive()

    def additive(self):
        e = self.multiplicative()
        while self.peek()[0] == "op" and self.peek()[1] in ("+", "-"):
            op = self.next()[1]
            e = ("bin", op, e, self.multiplicative())
        return e

    def multiplicative(self):
        e = self.unary()
        while self.peek()[0] == "op" and self.peek()[1] in ("*", "/", "%"):
            op = self.next()[1]
            e = ("bin", op, e, self.unary())
        return e

    def unary(self):
        if self.peek()[0] == "op" and self.peek()[1] == "-":
            self.next()
            return ("neg", self.unary())
        return self.primary()

    def primary(self):
        t = self.peek()
        if t[0] == "int":
            self.next()
            return ("int", t[1])
        if t[0] == "kw" and t[1] == "sum":
            self.next()
            q = self.quant()
            self.expect(":")
            body = self.expr()           # the body extends as far as possible
            return ("sum", q, body)
        if t[0] == "op" and t[1] == "(":
            self.next()
            e = self.expr()
            self.expect(")")
            return e
        if t[0] == "id":
            self.next()
            if self.at("[", "op"):
                subs = []
                while self.at("[", "op"):
                    self.next()
                    subs.append(self.expr())
                    self.expect("]")
                return ("ref", t[1], subs)
            if self.at("(", "op"):
                self.next()
                e = self.expr()
                self.expect(")")
                return ("call", t[1], e)
            return ("name", t[1])
        raise SpecError("line %d: expected an expression, found %r" % (t[2], t[1]))

    # -- conditions
    def cmp(self):
        es = [self.expr()]
        ops = []
        while self.peek()[0] == "op" and self.peek()[1] in RELOPS:
            ops.append(self.next()[1])
            es.append(self.expr())
        if not ops:
            t = self.peek()
            raise SpecError("line %d: expected a comparison" % t[2])
        return (es, ops)

    def cond(self):
        c = [self.cmp()]
        while self.at("and", "kw"):
            self.next()
            c.append(self.cmp())
        return c

    def range_(self):
        line = self.peek()[2]
        es, ops = self.cmp()
        bad = SpecError("line %d: a range must look like 'i < n' or 'lo <= i < hi'" % line)
        if len(ops) == 1 and ops[0] in ("<", "<=") and es[0][0] == "name":
            return (es[0][1], ("int", 0), False, es[1], ops[0] == "<")
        if len(ops) == 2 and all(o in ("<", "<=") for o in ops) and es[1][0] == "name":
            return (es[1][1], es[0], ops[0] == "<", es[2], ops[1] == "<")
        raise bad

    def loop_range(self):
        """A loop's range: a forall's, or a geometric one `s = a, a*r, a*r*r,
        ... < E` (or <= E), as (var, a, False, E, strict, r)."""
        if not (self.peek()[0] == "id" and self.peek(1)[1] == "="):
            return self.range_()
        line = self.peek()[2]
        var = self.ident()
        self.expect("=")
        vals = []
        for _ in range(3):
            t = self.next()
            if t[0] != "int":
                raise SpecError("line %d: a geometric loop starts with three integers" % line)
            vals.append(t[1])
            self.expect(",")
        self.expect("...")
        a, b, c = vals
        if a < 1 or b % a or b // a < 2 or c != b * (b // a):
            raise SpecError("line %d: not a geometric progression: %s" % (line, vals))
        op = self.next()
        if op[1] not in ("<", "<="):
            raise SpecError("line %d: a geometric loop ends with < or <=" % line)
        return (var, ("int", a), False, self.expr(), op[1] == "<", b // a)

    def quant(self):
        ranges = [self.range_()]
        while self.at(",", "op"):
            self.next()
            ranges.append(self.range_())
        cond = None
        if self.at("|", "op") or self.at("where", "kw"):
            self.next()
            cond = self.cond()
        return (ranges, cond)

    # -- declarations
    def dkind(self):
        t = self.next()
        if t[1] == "block" and t[0] == "kw":
            return ("block", 0)
        if t[1] == "identity" and t[0] == "kw":
            return ("identity", 0)
        if t[1] == "replicated" and t[0] == "kw":
            return ("replicated", 0)
        if t[1] == "cyclic" and t[0] == "kw":
            if self.at("(", "op"):
                self.next()
                if self.peek()[0] == "id":
                    b = self.next()[1]       # a size: its value per point
                else:
                    b = self.integer()
                    if b <= 0:
                        raise SpecError("line %d: block size must be positive" % t[2])
                self.expect(")")
                return ("bcyclic", b)
            return ("cyclic", 0)
        raise SpecError("line %d: expected a distribution kind, found %r" % (t[2], t[1]))

    def ldim(self):
        t = self.peek()
        if t[0] == "op" and t[1] == "*":
            self.next()
            return ("star",)
        if t[0] == "kw":
            k = self.dkind()
            if not self.at("over", "kw"):
                raise SpecError("line %d: expected 'over'" % t[2])
            self.next()
            return ("inline", k, self.ident())
        return ("named", self.ident())

    def layout(self):
        self.expect("layout")
        name = self.ident()
        self.expect(":")
        dims = [self.ldim()]
        while not self.at(";", "op"):
            t = self.next()
            if t != ("id", "x", t[2]):
                raise SpecError("line %d: expected 'x' between layout dimensions" % t[2])
            dims.append(self.ldim())
        self.expect(";")
        return (name, dims)

    def stmt(self):
        quant = None
        if self.at("forall", "kw"):
            self.next()
            quant = self.quant()
            self.expect(":")
        lhs = self.expr()
        if lhs[0] != "ref":
            raise SpecError("line %d: the left-hand side must be an array element" % self.peek()[2])
        self.expect("=")
        rhs = self.expr()
        work = None
        if self.at("work", "kw"):
            self.next()
            work = self.expr()
        self.expect(";")
        return {"quant": quant, "lhs": lhs, "rhs": rhs, "work": work}

    def arrays(self, arrays, order):
        while True:
            name = self.ident()
            ext = []
            while self.at("[", "op"):
                self.next()
                ext.append(self.expr())
                self.expect("]")
            size = 1
            if self.at("size", "kw"):
                self.next()
                size = self.integer()
            arrays[name] = {"extents": ext, "size": size}
            order.append(name)
            if not self.at(",", "op"):
                break
            self.next()
        self.expect(";")

    def superstep(self, loops=()):
        name = self.ident()
        self.expect("{")
        stmts = []
        while not self.at("}", "op"):
            stmts.append(self.stmt())
        self.expect("}")
        return (name, stmts, tuple(loops))

    def loop(self, loops, steps):
        """for RANGE { superstep ... | for ... }: appends the supersteps of
        the body to STEPS, each with the ranges of the loops around it,
        outermost first."""
        here = list(loops) + [self.loop_range()]
        self.expect("{")
        while not self.at("}", "op"):
            if self.at("superstep", "kw"):
                self.next()
                steps.append(self.superstep(here))
            elif self.at("for", "kw"):
                self.next()
                self.loop(here, steps)
            else:
                raise SpecError("line %d: expected a superstep or a loop" % self.peek()[2])
        self.expect("}")

    def spec(self):
        s = {"params": [], "axes": [], "assume": [], "arrays": {}, "array_order": [],
             "dists": {}, "dist_order": [], "layouts": {}, "candidates": [],
             "supersteps": []}
        while self.peek()[0] != "eof":
            t = self.next()
            kw = t[1] if t[0] == "kw" else None
            if kw == "param":
                s["params"].append(self.ident())
                while self.at(",", "op"):
                    self.next()
                    s["params"].append(self.ident())
                self.expect(";")
            elif kw == "grid":
                if s["axes"]:
                    raise SpecError("line %d: a second grid" % t[2])
                s["axes"].append(self.ident())
                while self.at(",", "op"):
                    self.next()
                    s["axes"].append(self.ident())
                self.expect(";")
            elif kw == "assume":
                s["assume"].append(self.cond())
                while self.at(",", "op"):
                    self.next()
                    s["assume"].append(self.cond())
                self.expect(";")
            elif kw == "array":
                self.arrays(s["arrays"], s["array_order"])
            elif kw == "dist":
                name = self.ident()
                self.expect("=")
                kinds = [self.dkind()]
                while self.at("|", "op"):
                    self.next()
                    kinds.append(self.dkind())
                if not self.at("over", "kw"):
                    raise SpecError("line %d: expected 'over'" % t[2])
                self.next()
                axis = self.ident()
                self.expect(";")
                s["dists"][name] = {"kinds": kinds, "axis": axis}
                s["dist_order"].append(name)
            elif kw == "layout":
                self.pos -= 1
                name, dims = self.layout()
                s["layouts"][name] = dims
            elif kw == "candidate":
                # layouts, and for a program variant its own arrays (added
                # to the top-level ones) and supersteps (its whole program)
                name = self.ident()
                self.expect("{")
                lays, arrays, order, steps = {}, {}, [], []
                while not self.at("}", "op"):
                    if self.at("array", "kw"):
                        self.next()
                        self.arrays(arrays, order)
                    elif self.at("superstep", "kw"):
                        self.next()
                        steps.append(self.superstep())
                    elif self.at("for", "kw"):
                        self.next()
                        self.loop((), steps)
                    else:
                        n, d = self.layout()
                        lays[n] = d
                self.expect("}")
                s["candidates"].append((name, lays))
                s.setdefault("variants", {})[name] = (arrays, order, steps)
            elif kw == "superstep":
                s["supersteps"].append(self.superstep())
            elif kw == "for":
                self.loop((), s["supersteps"])
            elif kw == "import":
                raise SpecError("line %d: import is not supported" % t[2])
            else:
                raise SpecError("line %d: unexpected %r" % (t[2], t[1]))
        return s


# ---------------------------------------------------------------------------
# Evaluation


def floordiv(a, b):
    if b == 0:
        raise SpecError("division by zero")
    return a // b


def kind_name(k):
    if k[0] == "bcyclic":
        return "cyclic(%s)" % k[1]
    return k[0]


def resolve_kind(kind, values):
    """cyclic(nb), nb a size: cyclic(value of nb)."""
    if kind[0] == "bcyclic" and isinstance(kind[1], str):
        if kind[1] not in values:
            raise SpecError("no value for block size %s" % kind[1])
        b = values[kind[1]]
        if b < 1:
            raise SpecError("cyclic(%s): %s = %d is not a block size" % (kind[1], kind[1], b))
        return ("bcyclic", b)
    return kind


def coordinate(kind, i, extent, p):
    if kind[0] == "replicated":
        raise AssertionError("a replicated dimension has no single coordinate")
    """Grid coordinate of index i of a dimension of this extent over an axis of size p."""
    if kind[0] == "block":
        return i // (-(-extent // p))        # blocks of ceil(extent/p)
    if kind[0] == "cyclic":
        return i % p
    if kind[0] == "bcyclic":
        return (i // kind[1]) % p
    if kind[0] == "identity":
        return i
    raise AssertionError(kind)


class Context:
    """Values of the parameters and the resolved layouts of one candidate."""

    def __init__(self, spec, values, dist_kinds, layouts):
        self.spec = spec
        self.values = values
        # dist name -> kind in this candidate, block sizes at their values
        self.dist_kinds = {dn: resolve_kind(k, values) for dn, k in dist_kinds.items()}
        dist_kinds = self.dist_kinds
        self.axis_index = {a: i for i, a in enumerate(spec["axes"])}
        self.extent = {}
        for a in spec["array_order"]:
            self.extent[a] = [self.eval(e, {}) for e in spec["arrays"][a]["extents"]]
        # per array: list of (dim, kind, axis index, extent, axis size)
        self.place = {}
        for a in spec["array_order"]:
            if a not in layouts:
                raise SpecError("array %s has no layout" % a)
            dims = layouts[a]
            rank = len(self.extent[a])
            extra = dims[rank:]
            if len(dims) < rank or any(ld[0] != "inline" or ld[1][0] != "replicated"
                                       for ld in extra):
                raise SpecError("layout of %s: %d dimensions for %d" % (a, len(dims), rank))
            pl = []
            for ld in extra:
                # a copy along this axis, past the array's dimensions
                if ld[2] not in self.axis_index:
                    raise SpecError("unknown axis %s" % ld[2])
                pl.append((None, ld[1], self.axis_index[ld[2]], 1, values[ld[2]]))
            for d, ld in enumerate(dims[:rank]):
                if ld[0] == "star":
                    continue
                if ld[0] == "named":
                    if ld[1] not in spec["dists"]:
                        raise SpecError("unknown dist %s" % ld[1])
                    kind = dist_kinds[ld[1]]
                    axis = spec["dists"][ld[1]]["axis"]
                else:
                    kind, axis = resolve_kind(ld[1], values), ld[2]
                if axis not in self.axis_index:
                    raise SpecError("unknown axis %s" % axis)
                X = self.extent[a][d]
                P = values[axis]
                if kind[0] == "identity" and X != P:
                    raise SpecError("identity over %s: extent %d of %s differs from %d" % (axis, X, a, P))
                pl.append((d, kind, self.axis_index[axis], X, P))
            if len({x[2] for x in pl}) != len(pl):
                raise SpecError("layout of %s uses an axis twice" % a)
            self.place[a] = pl
        # extent of the index a dist predicate d(e) maps: the extent of the
        # dimensions distributed by d (the first array in declaration order
        # when they differ; a warning says so, since block depends on it)
        self.pred_extent = {}
        for dn in spec["dist_order"]:
            exts = []
            for a in spec["array_order"]:
                for d, ld in enumerate(layouts[a]):
                    if ld[0] == "named" and ld[1] == dn:
                        exts.append((a, self.extent[a][d]))
            if exts:
                self.pred_extent[dn] = exts[0][1]
                if len({x[1] for x in exts}) > 1 and dist_kinds[dn][0] == "block":
                    sys.stderr.write("bspenum: warning: dist %s splits extents %s; its predicate "
                                     "uses %s's (%d)\n" % (dn, exts, exts[0][0], exts[0][1]))
        self.ncoords = len(spec["axes"])
        self.held_by = {}        # (array, index) -> its holders
        self.in_bounds = set()   # (array, index) found within the extents

    def holders(self, a, idx):
        """Every process holding A[idx]: one, or for a replicated layout every
        coordinate of the axes it is replicated over (remembered: the same
        elements are asked for again and again)."""
        key = (a, idx)
        hs = self.held_by.get(key)
        if hs is None:
            choices = [[0] for _ in range(self.ncoords)]
            for d, kind, ax, X, P in self.place[a]:
                if kind[0] == "replicated":
                    choices[ax] = list(range(P))
                else:
                    choices[ax] = [coordinate(kind, idx[d], X, P)]
            hs = self.held_by[key] = tuple(tuple(c) for c in itertools.product(*choices))
        return hs

    def replicated_axes(self, a):
        return [ax for d, kind, ax, X, P in self.place[a] if kind[0] == "replicated"]

    def sender(self, a, idx, q):
        """The holder that sends A[idx] to Q, which holds it not: the one with
        Q's coordinate on every replicated axis."""
        reps = self.replicated_axes(a)
        for h in self.holders(a, idx):
            if all(h[ax] == q[ax] for ax in reps):
                return h
        raise AssertionError("no sender")

    def owner(self, a, idx):
        hs = self.holders(a, idx)
        if len(hs) != 1:
            raise SpecError("%s is replicated: it has no single owner" % a)
        return hs[0]

    # -- integer expressions (affine parts, bounds, conditions, work weights)
    def eval(self, e, env):
        t = e[0]
        if t == "int":
            return e[1]
        if t == "name":
            n = e[1]
            if n in env:
                return env[n]
            if n in self.values:
                return self.values[n]
            raise SpecError("no value for %s" % n)
        if t == "neg":
            return -self.eval(e[1], env)
        if t == "bin":
            a = self.eval(e[2], env)
            b = self.eval(e[3], env)
            op = e[1]
            if op == "+":
                return a + b
            if op == "-":
                return a - b
            if op == "*":
                return a * b
            if op == "/":
                return floordiv(a, b)
            if op == "%":
                if b == 0:
                    raise SpecError("modulo by zero")
                return a % b
        if t == "call":
            dn = e[1]
            if dn not in self.dist_kinds:
                raise SpecError("%s is not a dist" % dn)
            axis = self.spec["dists"][dn]["axis"]
            kind = self.dist_kinds[dn]
            if kind[0] == "block" and dn not in self.pred_extent:
                raise SpecError("block dist %s in a predicate distributes no array: no extent" % dn)
            # bspcost(5): d(e) == v says index e is mapped to coordinate v
            # of the axis; an index no coordinate holds (past the last block
            # of a block dist, or outside the axis for identity) is mapped
            # to none: None, which equals no value
            p = self.values[axis]
            c = coordinate(kind, self.eval(e[2], env), self.pred_extent.get(dn, 0), p)
            return c if 0 <= c < p else None
        raise SpecError("not an integer expression: %r" % (e,))

    def holds(self, cond, env):
        if cond is None:
            return True
        for es, ops in cond:
            vals = [self.eval(x, env) for x in es]
            for k, op in enumerate(ops):
                a, b = vals[k], vals[k + 1]
                if a is None or b is None:
                    if op not in ("==", "!="):
                        raise SpecError("a distribution predicate compared by %s" % op)
                    ok = (a == b) == (op == "==")
                else:
                    ok = {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b,
                          "==": a == b, "!=": a != b}[op]
                if not ok:
                    return False
        return True

    def points(self, quant, env):
        """Every binding of the quantifier's variables (extending env) that satisfies its condition."""
        if quant is None:
            yield dict(env)
            return
        ranges, cond = quant

        def rec(k, cur):
            if k == len(ranges):
                if self.holds(cond, cur):
                    yield dict(cur)
                return
            var, lo, lo_strict, hi, hi_strict = ranges[k][:5]
            ratio = ranges[k][5] if len(ranges[k]) > 5 else 0
            a = self.eval(lo, cur) + (1 if lo_strict else 0)
            b = self.eval(hi, cur) + (0 if hi_strict else 1)
            v = a
            while v < b:
                cur[var] = v
                yield from rec(k + 1, cur)
                v = v * ratio if ratio else v + 1
            cur.pop(var, None)

        yield from rec(0, dict(env))

    # -- right-hand sides: elements read, and work
    def reads(self, e, env, out):
        t = e[0]
        if t == "ref":
            out.add((e[1], tuple(self.eval(s, env) for s in e[2])))
        elif t == "neg":
            self.reads(e[1], env, out)
        elif t == "bin":
            self.reads(e[2], env, out)
            self.reads(e[3], env, out)
        elif t == "sum":
            for pt in self.points(e[1], env):
                self.reads(e[2], pt, out)
        elif t == "call":
            raise SpecError("a distribution predicate outside a condition")

    def terms(self, e, env):
        t = e[0]
        if t == "bin" and e[1] in ("+", "-"):
            return self.terms(e[2], env) + self.terms(e[3], env)
        if t == "neg":
            return self.terms(e[1], env)
        if t == "sum":
            return sum(self.terms(e[2], pt) for pt in self.points(e[1], env))
        return 1

    def flops(self, e, env):
        t = e[0]
        if t == "bin":
            return 1 + self.flops(e[2], env) + self.flops(e[3], env)
        if t == "neg":
            return 1 + self.flops(e[1], env)
        if t == "sum":
            return sum(1 + self.flops(e[2], pt) for pt in self.points(e[1], env))
        return 0

    def check_bounds(self, a, idx):
        if (a, idx) in self.in_bounds:
            return
        ext = self.extent[a]
        if len(idx) != len(ext) or any(not (0 <= i < x) for i, x in zip(idx, ext)):
            raise SpecError("%s%s is out of bounds (extents %s)" % (a, list(idx), ext))
        self.in_bounds.add((a, idx))


def variant_view(spec, cname):
    """The specification as candidate block CNAME sees it: the top-level
    arrays and its own, and its own supersteps when it has some."""
    arrays, order, steps = spec.get("variants", {}).get(cname, ({}, [], []))
    if not arrays and not steps:
        return spec
    view = dict(spec)
    view["arrays"] = dict(spec["arrays"])
    view["arrays"].update(arrays)
    view["array_order"] = spec["array_order"] + order
    if steps:
        view["supersteps"] = steps
    return view


def candidates(spec):
    """[(name, dist kinds, layouts)] in bspcost's order."""
    return [c[:3] for c in variants(spec)]


def variants(spec):
    """[(name, dist kinds, layouts, the spec as the candidate sees it)]."""
    alts = [d for d in spec["dist_order"] if len(spec["dists"][d]["kinds"]) > 1]
    combos = []
    for choice in itertools.product(*[spec["dists"][d]["kinds"] for d in alts]):
        kinds = {d: spec["dists"][d]["kinds"][0] for d in spec["dist_order"]}
        kinds.update(zip(alts, choice))
        name = ",".join("%s=%s" % (d, kind_name(k)) for d, k in zip(alts, choice))
        combos.append((name, kinds))
    out = []
    if spec["candidates"]:
        for cname, lays in spec["candidates"]:
            layouts = dict(spec["layouts"])
            layouts.update(lays)
            view = variant_view(spec, cname)
            for name, kinds in combos:
                out.append((cname + "/" + name if name else cname, kinds, layouts, view))
    else:
        for name, kinds in combos:
            out.append((name or "default", kinds, dict(spec["layouts"]), spec))
    return out


def arrays_named(e, out):
    """The arrays expression E reads, whatever the values."""
    t = e[0]
    if t == "ref":
        out.add(e[1])
    elif t == "neg":
        arrays_named(e[1], out)
    elif t == "bin":
        arrays_named(e[2], out)
        arrays_named(e[3], out)
    elif t == "sum":
        arrays_named(e[2], out)


def memory(spec, ctx, procs, names):
    """max over the processes of the words each owns of the arrays NAMES:
    every element of every array, its owner by ctx.owner."""
    held = {q: 0 for q in procs}
    for a in names:
        for idx in itertools.product(*[range(x) for x in ctx.extent[a]]):
            for q in ctx.holders(a, idx):
                held[q] += spec["arrays"][a]["size"]
    return max(held.values())


def analyze(spec, values, h_sum=False, flops=False, elements=False, detail=False,
            pairs=False):
    """The report at VALUES (--h sum when H_SUM, --work flops when FLOPS).

    With BSPENUM_CACHE naming a directory (tests/run.sh gives each suite run
    one), a result is kept there by the specification, the values and the
    options, so that the scripts of one run that ask for the same point
    (compare.py's modes and grids, rank.py, ...) enumerate it once; both h's
    are enumerated in one pass (they differ only in the maximum)."""
    cache = os.environ.get("BSPENUM_CACHE")
    if not cache or detail or pairs:
        return analyze_both(spec, values, flops, elements, detail, pairs)[h_sum]
    # (this file's text too: a directory kept across edits of it serves
    # nothing stale)
    with open(__file__, "rb") as f:
        me = f.read()
    key = hashlib.sha1(me + repr((spec, sorted(values.items()), flops, elements)).encode())
    path = os.path.join(cache, key.hexdigest() + ".pickle")
    try:
        with open(path, "rb") as f:
            return pickle.load(f)[h_sum]
    except Exception:   # none kept yet, or unreadable: enumerate
        pass
    both = analyze_both(spec, values, flops, elements, detail)
    tmp = "%s.%d" % (path, os.getpid())
    try:
        with open(tmp, "wb") as f:
            pickle.dump(both, f)
        os.replace(tmp, path)
    except OSError:     # no cache then (a directory that is gone)
        pass
    return both[h_sum]


def analyze_both(spec, values, flops=False, elements=False, detail=False, pairs=False):
    """{False: the report with h = max(h_in, h_out), True: with --h sum}.

    With PAIRS, each superstep also has "pairs": for each of its runs (one
    outside loops) the words every process sends every other, [sender,
    receiver, words] for each pair that exchanges some."""
    axes = spec["axes"]
    procs = list(itertools.product(*[range(values[a]) for a in axes]))
    g = values.get("g", 0)
    l = values.get("l", 0)
    results = {False: [], True: []}
    top = spec
    for cname, kinds, layouts, spec in variants(top):
        ctx = Context(spec, values, kinds, layouts)
        steps = {False: [], True: []}
        total = {False: 0, True: 0}
        for sname, stmts, loops in spec["supersteps"]:
            sums = {hs: {"w": 0, "h": 0, "h_in": 0, "h_out": 0, "ncom": 0, "cost": 0}
                    for hs in (False, True)}
            iterations = 0
            run_pairs = []
            for lenv in ctx.points((list(loops), None) if loops else None, {}):
                iterations += 1
                work = {q: 0 for q in procs}
                use = {q: set() for q in procs}
                for st in stmts:
                    for env in ctx.points(st["quant"], lenv):
                        lhs = st["lhs"]
                        lidx = tuple(ctx.eval(s, env) for s in lhs[2])
                        ctx.check_bounds(lhs[1], lidx)
                        rd = set()
                        ctx.reads(st["rhs"], env, rd)
                        for a, idx in rd:
                            ctx.check_bounds(a, idx)
                        # owner computes: every holder of the left-hand element
                        for q in ctx.holders(lhs[1], lidx):
                            use[q] |= rd
                            if st["work"] is not None:
                                work[q] += ctx.eval(st["work"], env)
                            elif flops:
                                work[q] += ctx.flops(st["rhs"], env)
                            else:
                                work[q] += ctx.terms(st["rhs"], env)
                fin = {q: 0 for q in procs}
                fout = {q: 0 for q in procs}
                words = {}   # (sender, receiver) -> words, with PAIRS
                pin = {q: set() for q in procs}
                pout = {q: set() for q in procs}
                for q in procs:
                    for a, idx in use[q]:
                        if q not in ctx.holders(a, idx):
                            wgt = 1 if elements else spec["arrays"][a]["size"]
                            fin[q] += wgt
                            sender = ctx.sender(a, idx, q)
                            fout[sender] += wgt
                            if pairs:
                                words[(sender, q)] = words.get((sender, q), 0) + wgt
                            if detail:   # the partners, for --detail only
                                pin[q].add(sender)
                                pout[sender].add(q)
                if pairs:
                    run_pairs.append([[list(x), list(y), n]
                                      for (x, y), n in sorted(words.items())])
                w = max(work.values())
                for hs in (False, True):
                    if hs:
                        h = max(fin[q] + fout[q] for q in procs)
                    else:
                        h = max(max(fin[q], fout[q]) for q in procs)
                    # every iteration is a superstep of its own: its h, and one l
                    sums[hs]["w"] += w
                    sums[hs]["h"] += h
                    sums[hs]["h_in"] += max(fin.values())
                    sums[hs]["h_out"] += max(fout.values())
                    sums[hs]["ncom"] += sum(fin.values())
                    sums[hs]["cost"] += w + h * g + l
                if detail:
                    sys.stderr.write("%s / %s%s\n" % (cname, sname, " " + repr(lenv) if loops else ""))
                    for q in procs:
                        sys.stderr.write("  q=%s work=%d fan_in=%d fan_out=%d msgs_in=%d msgs_out=%d\n"
                                         % (q, work[q], fin[q], fout[q], len(pin[q]),
                                            len(pout[q])))
            touched = set()
            for st in stmts:
                touched.add(st["lhs"][1])
                arrays_named(st["rhs"], touched)
            mem = memory(spec, ctx, procs, sorted(touched))
            for hs in (False, True):
                sm = sums[hs]
                total[hs] += sm["cost"]
                step = {"name": sname, "w": sm["w"], "h": sm["h"], "h_in": sm["h_in"],
                        "h_out": sm["h_out"], "ncom": sm["ncom"], "cost": sm["cost"],
                        "mem": mem}
                if loops:
                    step["iterations"] = iterations
                if pairs:
                    step["pairs"] = run_pairs
                steps[hs].append(step)
        mem = memory(spec, ctx, procs, spec["array_order"])
        for hs in (False, True):
            results[hs].append({"name": cname, "supersteps": steps[hs], "cost": total[hs],
                                "mem": mem})
    return {hs: {"candidates": results[hs]} for hs in (False, True)}


def check_values(spec, values):
    for n in spec["params"] + spec["axes"]:
        if n not in values:
            raise SpecError("no value for %s (give -D %s=...)" % (n, n))
        if values[n] < 1:
            raise SpecError("%s = %d: every size is at least 1" % (n, values[n]))
    ctx_vals = dict(values)

    class Plain(Context):
        def __init__(self):
            self.spec = spec
            self.values = ctx_vals
            self.dist_kinds = {}

    c = Plain()
    for k, cond in enumerate(spec["assume"]):
        if not c.holds(cond, {}):
            raise SpecError("the values break assumption %d" % (k + 1))
    for a in spec["array_order"]:
        for e in spec["arrays"][a]["extents"]:
            if c.eval(e, {}) < 1:
                raise SpecError("array %s: an extent is less than 1" % a)


def main(argv):
    path = None
    values = {}
    opts = {"h_sum": False, "flops": False, "elements": False, "detail": False}
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("-D", "--define"):
            i += 1
            a = "-D" + argv[i]
        if a.startswith("-D"):
            name, _, v = a[2:].partition("=")
            values[name] = int(v)
        elif a == "--h-sum":
            opts["h_sum"] = True
        elif a == "--h":
            i += 1
            opts["h_sum"] = argv[i] == "sum"
        elif a == "--flops":
            opts["flops"] = True
        elif a == "--work":
            i += 1
            opts["flops"] = argv[i] == "flops"
        elif a == "--elements":
            opts["elements"] = True
        elif a == "--detail":
            opts["detail"] = True
        elif a in ("-h", "--help"):
            print(__doc__)
            return 0
        elif a.startswith("-") and a != "-":
            sys.stderr.write("bspenum: unknown option %s\n" % a)
            return 2
        else:
            path = a
        i += 1
    if path is None:
        sys.stderr.write("usage: bspenum.py SPEC.bsp -D name=value ... [--h-sum] [--flops]\n")
        return 2
    try:
        text = sys.stdin.read() if path == "-" else open(path).read()
        spec = Parser(tokenize(text)).spec()
        check_values(spec, values)
        res = analyze(spec, values, **opts)
    except SpecError as e:
        sys.stderr.write("bspenum: %s: %s\n" % (path, e))
        return 1
    json.dump(res, sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
