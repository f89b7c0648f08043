#!/usr/bin/env python3
"""Exact evaluation of bspcost's JSON formulas (bspcost(1), JSON):

    integers and names, + - * / ^, parentheses, floor(), ceil(), min(), max(),
    log2() (of a power of two),
    pieces `cond ? a : b` with comparisons, %, && and ||; / is exact division.

    python3 formula.py 'FORMULA' name=value ...      prints the value

Text-report formulas (`a if C; b if D`) are accepted too.  A point that no
piece covers evaluates to None.
"""

import re
import sys
from fractions import Fraction
import math

TOKEN = re.compile(r"\s*(\d+|[A-Za-z_][A-Za-z0-9_]*|&&|\|\||==|!=|<=|>=|[-+*/^%()?:,<>;])")


def tokens(s):
    out, pos = [], 0
    s = s.strip()
    while pos < len(s):
        m = TOKEN.match(s, pos)
        if not m:
            raise ValueError("bad formula at %r" % s[pos:pos + 20])
        out.append(m.group(1))
        pos = m.end()
        while pos < len(s) and s[pos].isspace():
            pos += 1
    out.append(None)
    return out


class Eval:
    def __init__(self, text, env):
        self.t = tokens(text)
        self.i = 0
        self.env = env

    def peek(self):
        return self.t[self.i]

    def take(self, x=None):
        v = self.t[self.i]
        if x is not None and v != x:
            raise ValueError("expected %r, found %r" % (x, v))
        self.i += 1
        return v

    def top(self):
        # text form: "a if C; b if D"; JSON form: "C ? a : b"
        v = self.ternary()
        if self.peek() == "if" or self.peek() == ";":
            pieces = []
            while True:
                cond = True
                if self.peek() == "if":
                    self.take()
                    cond = self.ternary()
                pieces.append((cond, v))
                if self.peek() != ";":
                    break
                self.take()
                v = self.ternary()
            for c, v in pieces:
                if c:
                    return v
            return None
        if self.peek() is not None:
            raise ValueError("trailing %r" % self.peek())
        return v

    def ternary(self):
        c = self.lor()
        if self.peek() == "?":
            self.take()
            a = self.ternary()
            self.take(":")
            b = self.ternary()
            return a if c else b
        return c

    def lor(self):
        v = self.land()
        while self.peek() == "||":
            self.take()
            w = self.land()
            v = bool(v) or bool(w)
        return v

    def land(self):
        v = self.rel()
        while self.peek() == "&&":
            self.take()
            w = self.rel()
            v = bool(v) and bool(w)
        return v

    def rel(self):
        v = self.add()
        while self.peek() in ("<", "<=", ">", ">=", "==", "!="):
            op = self.take()
            w = self.add()
            v = {"<": v < w, "<=": v <= w, ">": v > w, ">=": v >= w,
                 "==": v == w, "!=": v != w}[op]
        return v

    def add(self):
        v = self.mul()
        while self.peek() in ("+", "-"):
            op = self.take()
            w = self.mul()
            v = v + w if op == "+" else v - w
        return v

    def mul(self):
        v = self.unary()
        while self.peek() in ("*", "/", "%"):
            op = self.take()
            w = self.unary()
            if op == "*":
                v = v * w
            elif op == "/":
                v = Fraction(v) / w
            else:
                v = v - w * math.floor(Fraction(v) / w)
        return v

    def unary(self):
        if self.peek() == "-":
            self.take()
            return -self.unary()
        return self.power()

    def power(self):
        v = self.atom()
        if self.peek() == "^":
            self.take()
            e = self.unary()
            v = Fraction(v) ** int(e)
        return v

    def atom(self):
        t = self.take()
        if t is None:
            raise ValueError("unexpected end")
        if t == "(":
            v = self.ternary()
            self.take(")")
            return v
        if t.isdigit():
            return Fraction(int(t))
        if t in ("floor", "ceil", "min", "max", "log2") and self.peek() == "(":
            # a function when called: a parameter may be named floor
            self.take("(")
            args = [self.ternary()]
            while self.peek() == ",":
                self.take()
                args.append(self.ternary())
            self.take(")")
            if t == "floor":
                return Fraction(math.floor(args[0]))
            if t == "ceil":
                return Fraction(math.ceil(args[0]))
            if t == "log2":
                # of a power of two only, as bspcost(1) defines it
                x = args[0]
                if x.denominator != 1 or x <= 0 or x.numerator & (x.numerator - 1):
                    raise ValueError("log2 of %s, not a power of two" % x)
                return Fraction(x.numerator.bit_length() - 1)
            return min(args) if t == "min" else max(args)
        if t in self.env:
            return Fraction(self.env[t])
        raise ValueError("no value for %s" % t)


def evaluate(text, env):
    v = Eval(text, env).top()
    if isinstance(v, Fraction) and v.denominator == 1:
        return int(v)
    return v


if __name__ == "__main__":
    env = dict((k, int(v)) for k, v in (a.split("=") for a in sys.argv[2:]))
    print(evaluate(sys.argv[1], env))
