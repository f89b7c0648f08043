#!/usr/bin/env python3
"""--machine against the paper and against hand computation.

1. Every bundled profile of machines/ holds Hill, Crumpton and Burgess's
   Table 1 exactly: the table is typed again below, from the paper
   (shared/seeds/002...), and each profile is read by a reader written here,
   not by bspcost.  Its microsecond columns agree with l / s and g / s to the
   digits printed.
2. The costs with --machine are w + h*g + l with that p's g and l, and the
   seconds are that cost / s, exactly: w and h from bspenum.py (independent
   of bspcost), g, l and s from the table below, in Python fractions.  The
   analysis (--grid, -f json) is checked at every p each profile lists, the
   ranking (-p, -f json) at its largest.

3. The NOW profiles (now-p4, now-p8) hold Bianco and Pucci's Fig. 1
   exactly, typed again below: every coefficient of the nine cost functions
   (g's times 10^6, in ms per byte; l in ms).  With --model F and --speed S,
   the cost of every candidate is, per superstep, w plus each g in flops per
   word (g_ms / 1000 * S * 4 bytes) times its term (h, h_in, h_out or NCom
   from bspenum.py) plus l_ms / 1000 * S, and the seconds are that / S.
   The overlapping model max(w, h*g) + l is checked the same way on
   sp2-switch.

Usage: machine.py BIN.  Ends with "N passed, N failed".
"""
import json
import os
import subprocess
import sys
from fractions import Fraction as F

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.dont_write_bytecode = True
sys.path.insert(0, HERE)
import bspenum  # noqa: E402
from rank import decode_stream, one_point  # noqa: E402

# Table 1 as printed: p: (l flops, l us, g flops, g us, N_1/2 words)
TABLE1 = {
    "sgi-powerchallenge": ("55e6", {
        1: ("136", "2.5", "0.4", "0.007", "64"),
        2: ("627", "11.4", "7.6", "0.14", "8"),
        3: ("940", "17.1", "7.3", "0.13", "9"),
        4: ("1248", "22.7", "7.4", "0.13", "9"),
    }),
    "sp2-switch": ("26e6", {
        1: ("223", "8.6", "1.3", "0.05", "7"),
        2: ("2386", "91.8", "7.5", "0.29", "6"),
        4: ("4159", "160.0", "7.7", "0.3", "6"),
        8: ("8340", "320.8", "7.8", "0.3", "6"),
    }),
    "sp2-ethernet": ("26e6", {
        1: ("222", "8.5", "1.3", "0.05", "7"),
        2: ("20120", "773.8", "183.5", "7.1", "3"),
        4: ("48476", "1864.5", "384.1", "14.8", "5"),
        8: ("223120", "8581.5", "1645.3", "63.3", "2"),
    }),
}


# Fig. 1 as printed: function: {coefficient: value}, g's as g * 10^6 (ms per
# byte), l in ms.  (a) P = 4, (b) P = 8.
FIG1 = {
    "now-p4": (4, {
        "F_h": {"g": "3042", "l": "41.57"},
        "F_io": {"g_i": "587.2", "g_o": "2932", "l": "25.21"},
        "F_ioM": {"g_i": "552.6", "g_o": "2898", "g_M": "22.94", "l": "26.59"},
        "F_hM": {"g": "2207", "g_M": "334.1", "l": "41.47"},
        "F_M": {"g_M": "891.5", "l": "396.1"},
        "F_oM": {"g_o": "3066", "g_M": "119.8", "l": "67.79"},
        "F_iM": {"g_i": "1433", "g_M": "530.8", "l": "242.6"},
        "F_o": {"g_o": "3386", "l": "76.30"},
        "F_i": {"g_i": "2850", "l": "280.3"},
    }),
    "now-p8": (8, {
        "F_h": {"g": "6520", "l": "104.9"},
        "F_io": {"g_i": "644.3", "g_o": "7070", "l": "74.51"},
        "F_ioM": {"g_i": "427.1", "g_o": "6853", "g_M": "77.61", "l": "84.06"},
        "F_hM": {"g": "4742", "g_M": "395.0", "l": "104.9"},
        "F_M": {"g_M": "994.9", "l": "995.1"},
        "F_oM": {"g_o": "6972", "g_M": "116.4", "l": "122.6"},
        "F_iM": {"g_i": "2336", "g_M": "700.5", "l": "702.7"},
        "F_o": {"g_o": "7531", "l": "142.8"},
        "F_i": {"g_i": "5699", "l": "824.5"},
    }),
}
# what each coefficient multiplies
TERM = {"g": "h", "g_i": "h_in", "g_o": "h_out", "g_M": "ncom"}


def num(text):
    """An exact number: 12, 7.5, 26e6."""
    if "e" in text:
        m, e = text.split("e")
        return F(m) * F(10) ** int(e)
    return F(text)


def read_profile(path):
    """{'s': Fraction, 'word': int, 'p': {p: {key: Fraction}}}: a reader of
    the format of bspcost(5), written for this test."""
    prof = {"p": {}}
    for line in open(path):
        words = line.split("#")[0].split()
        if not words:
            continue
        if words[0] == "p":
            entry = {}
            rest = words[2:]
            key = int(words[1])
            if rest and rest[0].startswith("F_"):
                key = (key, rest[0])
                rest = rest[1:]
            for k, v in zip(rest[::2], rest[1::2]):
                entry[k] = num(v)
            prof["p"][key] = entry
        elif words[0] == "s":
            prof["s"] = num(words[1])
        elif words[0] == "word":
            prof["word"] = int(words[1])
        elif words[0] in ("unit", "per"):
            prof[words[0]] = words[1]
    return prof


def decimals(text):
    return len(text.split(".")[1]) if "." in text else 0


def check_profiles():
    bad = []
    for name, (s, rows) in TABLE1.items():
        prof = read_profile(os.path.join(ROOT, "machines", name + ".machine"))
        if prof.get("s") != num(s):
            bad.append("%s: s %s, the table says %s" % (name, prof.get("s"), s))
        if prof.get("word") != 4:
            bad.append("%s: word %s, the table's g is per 32-bit word" % (name, prof.get("word")))
        if sorted(prof["p"]) != sorted(rows):
            bad.append("%s: p %s, the table lists %s" % (name, sorted(prof["p"]), sorted(rows)))
        for p, (l, l_us, g, g_us, n_half) in rows.items():
            e = prof["p"].get(p, {})
            want = {"l": l, "l_us": l_us, "g": g, "g_us": g_us, "n_half": n_half}
            for k, v in want.items():
                if e.get(k) != num(v):
                    bad.append("%s p=%d: %s = %s, the table says %s" % (name, p, k, e.get(k), v))
            # the microseconds as printed: l / s and g / s, to the digits shown
            for flops, us in ((l, l_us), (g, g_us)):
                exact = num(flops) / num(s) * 10 ** 6
                if abs(exact - num(us)) > F(1, 2) * F(10) ** -decimals(us):
                    bad.append("%s p=%d: %s flops / s = %s us, printed %s" % (
                        name, p, flops, float(exact), us))
    return bad


def check_fig1():
    bad = []
    for name, (p, fns) in FIG1.items():
        prof = read_profile(os.path.join(ROOT, "machines", name + ".machine"))
        for k, v in (("unit", "ms"), ("per", "byte"), ("word", 4)):
            if prof.get(k) != v:
                bad.append("%s: %s %s, Fig. 1 needs %s" % (name, k, prof.get(k), v))
        if sorted(prof["p"]) != sorted((p, f) for f in fns):
            bad.append("%s: entries %s, Fig. 1 has %s" % (name, sorted(prof["p"]), sorted(fns)))
        for f, coefs in fns.items():
            e = prof["p"].get((p, f), {})
            want = {k: num(v) * (F(1, 10 ** 6) if k != "l" else 1) for k, v in coefs.items()}
            if e != want:
                bad.append("%s %s: %s, Fig. 1 says %s" % (name, f, e, want))
    return bad


def priced(spec, sizes, shape, model, coefs, speed=None):
    """The cost by hand: per superstep w + sum g * term + l, coefficients
    exact (already in flops per word); overlap: max(w, g*h) + l."""
    values = dict(sizes)
    values.update(zip(spec["axes"], shape))
    key = ("enum", id(spec), tuple(sorted(values.items())))
    if key not in CACHE:
        CACHE[key] = bspenum.analyze(spec, values)
    res = CACHE[key]
    out = {}
    for c in res["candidates"]:
        total = F(0)
        for st in c["supersteps"]:
            comm = sum(v * st[TERM[k]] for k, v in coefs.items() if k != "l")
            total += (max(st["w"], comm) if model == "overlap" else st["w"] + comm) + coefs["l"]
        out[c["name"]] = total
    return out


def check_models(binary):
    passed, bad = 0, []
    specs = {path: bspenum.Parser(bspenum.tokenize(open(os.path.join(ROOT, path)).read())).spec()
             for path, _, _ in CASES}
    jobs = []
    speed = num("50e6")
    for name, (p, fns) in FIG1.items():
        for f, coefs in fns.items():
            flops = {k: num(v) * (F(1, 10 ** 6) if k != "l" else 1) / 1000 * speed *
                     (4 if k != "l" else 1) for k, v in coefs.items()}
            jobs.append((name, f, p, flops, speed, ["--speed", "50e6"]))
    g, l = TABLE1["sp2-switch"][1][4][2], TABLE1["sp2-switch"][1][4][0]
    jobs.append(("sp2-switch", "overlap", 4, {"g": num(g), "l": num(l)},
                 num(TABLE1["sp2-switch"][0]), []))
    for name, model, p, coefs, speed, extra in jobs:
        for path, sizes, shape_of in CASES:
            spec = specs[path]
            shape = shape_of(p)
            defs = []
            for k, v in sizes.items():
                defs += ["-D", "%s=%d" % (k, v)]
            want = priced(spec, sizes, shape, model, coefs)
            cmd = [binary, "-f", "json", "--model", model, "--machine", name, "--grid",
                   "x".join(map(str, shape))] + extra + defs + [path]
            case = []
            # formulas on a grid take seconds (stencil1d on 8, matmul): the
            # analysis for two functions, every function through -p's values
            full = model in ("F_ioM", "overlap")
            r, shown = run(cmd) if full else (None, "(not run)")
            try:
                if not full:
                    raise StopIteration
                got = json.loads(r.stdout)
                if got.get("model") != model:
                    case.append("model %s" % got.get("model"))
                for c in got["candidates"]:
                    cost = F(str(c["cost"]["value"]))
                    if cost != want[c["name"]] or F(str(c["seconds"])) != cost / speed:
                        case.append("%s: cost %s (seconds %s), by hand %s" % (
                            c["name"], cost, c["seconds"], want[c["name"]]))
            except StopIteration:
                pass
            except (ValueError, KeyError, TypeError) as e:
                case.append("no JSON (%s): %s" % (e, r.stderr.strip()[:200]))
            r2, shown2 = run([binary, "-f", "json", "--model", model, "--machine", name, "-p",
                              str(p)] + extra + defs + [path])
            try:
                table = one_point(decode_stream(r2.stdout)[0])
                if table.get("model") != model:
                    case.append("-p: model %s" % table.get("model"))
                for row in table["ranking"]:
                    w = priced(spec, sizes, row["shape"], model, coefs)[row["candidate"]]
                    if F(str(row["cost"])) != w or F(str(row["seconds"])) != w / speed:
                        case.append("-p %s on %s: cost %s, by hand %s" % (
                            row["candidate"], row["shape"], row["cost"], w))
            except (ValueError, KeyError, IndexError, TypeError) as e:
                case.append("-p: no JSON (%s): %s" % (e, r2.stderr.strip()[:200]))
            if case:
                bad += ["%s %s %s: %s\n  reproduce: %s\n  and: %s" % (
                    name, model, path, m, shown, shown2) for m in case]
            else:
                passed += 1
    return passed, bad


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600, cwd=ROOT)
    return p, " ".join(cmd)


CACHE = {}


def want_costs(spec, sizes, shape, g, l):
    key = (id(spec), tuple(sorted(sizes.items())), tuple(shape), g, l)
    if key not in CACHE:
        CACHE[key] = costs(spec, sizes, shape, g, l)
    return CACHE[key]


def costs(spec, sizes, shape, g, l):
    values = dict(sizes, g=g, l=l)
    values.update(zip(spec["axes"], shape))
    res = bspenum.analyze(spec, values)
    return {c["name"]: c["cost"] for c in res["candidates"]}


# (spec, sizes, the shape of p processes for each p: one axis, or two)
CASES = [
    ("examples/stencil1d.bsp", {"n": 1000}, lambda p: [p]),
    ("examples/matmul.bsp", {"m": 12, "n": 10, "o": 9},
     lambda p: {1: [1, 1], 2: [1, 2], 3: [3, 1], 4: [2, 2], 8: [2, 4]}[p]),
]


def check_ranking(r2, spec, sizes, name, p, g, l, speed):
    """The mismatches of -p P's JSON ranking (the run R2) with the costs by hand."""
    case = []
    try:
        table = one_point(decode_stream(r2.stdout)[0])
        if table.get("machine") != name:
            case.append("-p: machine %s" % table.get("machine"))
        for row in table["ranking"]:
            w = want_costs(spec, sizes, row["shape"], num(g), num(l))[row["candidate"]]
            if F(str(row["cost"])) != w or F(str(row["seconds"])) != w / speed:
                case.append("-p %d %s on %s: cost %s seconds %s, by hand %s and %s"
                            % (p, row["candidate"], row["shape"], row["cost"],
                               row["seconds"], w, w / speed))
    except (ValueError, KeyError, IndexError, TypeError) as e:
        case.append("-p: no JSON (%s): %s" % (e, r2.stderr.strip()[:200]))
    return case


def check_costs(binary):
    passed, bad = 0, []
    specs = {path: bspenum.Parser(bspenum.tokenize(open(os.path.join(ROOT, path)).read())).spec()
             for path, _, _ in CASES}
    for name, (s, rows) in TABLE1.items():
        speed = num(s)
        for path, sizes, shape_of in CASES:
            spec = specs[path]
            defs = []
            for k, v in sizes.items():
                defs += ["-D", "%s=%d" % (k, v)]
            for p, (l, _, g, _, _) in rows.items():
                shape = shape_of(p)
                want = want_costs(spec, sizes, shape, num(g), num(l))
                # the analysis on that grid, its values (the grid's formulas
                # in the sizes are checked elsewhere: tests/brute/grid_formulas.py)
                r, shown = run([binary, "-f", "json", "--values", "--machine", name, "--grid",
                                "x".join(map(str, shape))] + defs + [path])
                case = []
                try:
                    got = json.loads(r.stdout)
                    for c in got["candidates"]:
                        cost = F(str(c["cost"]["value"]))
                        if cost != want[c["name"]]:
                            case.append("%s: cost %s, by hand %s" % (c["name"], cost,
                                                                     want[c["name"]]))
                        if F(str(c["seconds"])) != want[c["name"]] / speed:
                            case.append("%s: seconds %s, by hand %s" % (
                                c["name"], c["seconds"], want[c["name"]] / speed))
                except (ValueError, KeyError, TypeError) as e:
                    case.append("no JSON (%s): %s" % (e, r.stderr.strip()[:200]))
                # the ranking of p processes: every shape, the same g and l;
                # at the profile's largest p only (the most shapes; the same
                # arithmetic at each p, which the analysis above checks)
                shown2 = "(no ranking at this p)"
                if p == max(rows):
                    r2, shown2 = run([binary, "-f", "json", "--machine", name, "-p", str(p)] +
                                     defs + [path])
                    case += check_ranking(r2, spec, sizes, name, p, g, l, speed)
                if case:
                    bad += ["%s p=%d %s: %s\n  reproduce: %s\n  and: %s" % (
                        name, p, path, m, shown, shown2) for m in case]
                else:
                    passed += 1
    return passed, bad


def main(argv):
    if len(argv) != 1:
        sys.stderr.write("usage: machine.py BIN\n")
        return 2
    binary = os.path.abspath(argv[0])
    bad = check_profiles() + check_fig1()
    passed = 0 if bad else 1
    for b in bad:
        print("MISMATCH profile: %s" % b)
    p, cost_bad = check_costs(binary)
    for b in cost_bad:
        print("MISMATCH %s" % b)
    passed += p
    p, model_bad = check_models(binary)
    for b in model_bad:
        print("MISMATCH %s" % b)
    passed += p
    failed = (1 if bad else 0) + len(cost_bad) + len(model_bad)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
