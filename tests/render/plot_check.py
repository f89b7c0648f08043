#!/usr/bin/env python3
"""Checks a --plot picture and its script against the ranking's JSON.

usage: plot_check.py PICTURE RANKING.json

- PICTURE is a valid SVG (an XML document whose root is <svg>) or PNG (its
  signature and an IHDR chunk), by its suffix;
- PICTURE.gp, the gnuplot script, has a datablock per candidate ($c0, $c1,
  ... in the JSON's candidate order of first appearance is not assumed: the
  titles name them) whose rows are (shape index, cost, shape), and these are
  exactly the JSON's ranked rows: every (candidate, shape) once, its cost
  within 1e-12 relative of the exact one; $best holds the rank-1 rows.
For --hierarchy (the JSON has "levels"): a panel per candidate, a row per
level with each superstep's H(i) and its alpha's bound.
For --per-process (the JSON has "grid"): a panel per candidate with
counts, whose rows are each process's fan-in and fan-out summed over the
supersteps, in order, labelled by its coordinates (every k-th of many).
Without g and l (the JSON has "every_machine"): a line w + h*x per class of
equal rows no other row dominates, its title one of them.
For a sweep (the JSON's "points", the size named by the third argument
swept: not among the fixed "values"), each candidate's rows are (the swept size, cost, shape):
its best row of every point, as the JSON ranks them, and $best holds each
point's rank-1 cost.
Prints `N rows` and exits 1 at the first difference."""
import json
import re
import sys
import xml.etree.ElementTree as ET
from fractions import Fraction


def exact(v):
    return Fraction(v) if isinstance(v, str) else Fraction(v)


def main():
    picture, ranking = sys.argv[1], sys.argv[2]
    if picture.endswith(".svg"):
        root = ET.parse(picture).getroot()
        if not root.tag.endswith("svg"):
            print(f"{picture}: the root is {root.tag}, not svg")
            return 1
    else:
        with open(picture, "rb") as f:
            head = f.read(16)
        if head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
            print(f"{picture}: not a PNG")
            return 1
    with open(ranking, encoding="utf-8") as f:
        r = json.load(f)
    script = open(picture + ".gp", encoding="utf-8").read()
    blocks = dict(re.findall(r"^\$(\w+) << EOD\n(.*?)^EOD$", script, re.M | re.S))
    titles = re.findall(r"^  \$(c\d+) using .* title '((?:[^']|'')*)'", script, re.M)
    name_of = {b: t.replace("''", "'") for b, t in titles}
    if r.get("every_machine"):
        return every_machine(picture, r, script)
    if "points" in r and sys.argv[3] not in r["values"]:
        return sweep(picture, r, blocks, name_of, sys.argv[3])
    if "points" in r:
        (point,) = r["points"]  # a ranking: a sweep of one point
        r = dict(r, **point)
    if "levels" in r:
        return hierarchy(picture, r, blocks, script)
    if "grid" in r:
        return per_process(picture, r, blocks, script)
    got = {}
    for b, rows in blocks.items():
        if b == "best":
            continue
        for line in rows.splitlines():
            idx, cost, shape = line.split()
            got[(name_of[b], shape)] = float(cost)
    want = {}
    best = set()
    for row in r["ranking"]:
        shape = "x".join(str(x) for x in row["shape"])
        want[(row["candidate"], shape)] = exact(row["cost"])
        if row["rank"] == 1:
            best.add(shape)
    if set(got) != set(want):
        print(f"rows differ: {sorted(set(got) ^ set(want))[:5]}")
        return 1
    for k, v in want.items():
        if abs(Fraction(got[k]) - v) > abs(v) * Fraction(1, 10**12):
            print(f"{k}: picture {got[k]}, ranking {float(v)}")
            return 1
    got_best = {line.split()[2] for line in blocks.get("best", "").splitlines()}
    if got_best != best:
        print(f"best shapes: picture {sorted(got_best)}, ranking {sorted(best)}")
        return 1
    print(f"{picture}: {len(got)} rows")
    return 0


def every_machine(picture, r, script):
    """-p without g and l: a line A + B*x per Pareto class, titled by its
    first row (shape, candidate), A its w and B its h."""
    lines = re.findall(r"^  (\S+) \+ (\S+)\*x with lines .* title '((?:[^']|'')*)'", script, re.M)
    rows = {}
    for row in r["rows"]:
        if row["pareto"]:
            key = "%s %s" % ("x".join(str(x) for x in row["shape"]), row["candidate"])
            rows.setdefault((exact(row["w"]), exact(row["h"])), set()).add(key)
    got = set()
    for a, b, title in lines:
        key = title.replace("''", "'").replace(" (and equal rows)", "")
        match = [k for k, names in rows.items() if key in names]
        if not match:
            print(f"line {title}: no Pareto row")
            return 1
        (w, h), = match
        if abs(Fraction(float(a)) - w) > abs(w) * Fraction(1, 10**12) or \
           abs(Fraction(float(b)) - h) > abs(h) * Fraction(1, 10**12):
            print(f"line {title}: {a} + {b}*x, ranking {w} + {h}*g")
            return 1
        got.add((w, h))
    if got != set(rows):
        print(f"lines for {len(got)} classes, {len(rows)} Pareto classes")
        return 1
    print(f"{picture}: {len(got)} lines")
    return 0


def sweep(picture, r, blocks, name_of, swept):
    got, want, best_got, best_want = {}, {}, {}, {}
    for b, rows in blocks.items():
        for line in rows.splitlines():
            parts = line.split()
            if b == "best":
                best_got[int(parts[0])] = float(parts[1])
            else:
                got[(name_of[b], int(parts[0]))] = (float(parts[1]), parts[2])
    for pt in r["points"]:
        x = pt["values"][swept]
        seen = set()
        for row in pt["ranking"]:
            if row["rank"] == 1 and x not in best_want:
                best_want[x] = exact(row["cost"])
            if row["candidate"] in seen:
                continue
            seen.add(row["candidate"])
            want[(row["candidate"], x)] = (exact(row["cost"]),
                                           "x".join(str(v) for v in row["shape"]))
    if set(got) != set(want):
        print(f"rows differ: {sorted(set(got) ^ set(want))[:5]}")
        return 1
    for k, (v, shape) in want.items():
        if abs(Fraction(got[k][0]) - v) > abs(v) * Fraction(1, 10**12) or got[k][1] != shape:
            print(f"{k}: picture {got[k]}, ranking {float(v)} on {shape}")
            return 1
    if set(best_got) != set(best_want) or any(
            abs(Fraction(best_got[x]) - v) > abs(v) * Fraction(1, 10**12)
            for x, v in best_want.items()):
        print(f"best: picture {best_got}, ranking {best_want}")
        return 1
    print(f"{picture}: {len(got)} rows over {len(r['points'])} points")
    return 0


def hierarchy(picture, r, blocks, script):
    """--hierarchy: a panel per candidate with counts, $cN for candidate N,
    its rows (level i, then per superstep H(i) and its alpha's bound
    h / 2^((k-i-1) alpha)), NaN for a level left out of a log scale."""
    logy = "set logscale y" in script
    n = 0
    for c_index, c in enumerate(r["candidates"]):
        if "supersteps" not in c:
            continue
        rows = blocks.get("c%d" % c_index)
        if rows is None:
            print(f"{picture}: no datablock for {c['name']}")
            return 1
        rows = [line.split() for line in rows.strip().split("\n")]
        k = r["levels"]
        if len(rows) != k:
            print(f"{picture}: {c['name']}: {len(rows)} levels, {k} in the JSON")
            return 1
        for i, row in enumerate(rows):
            if int(row[0]) != i:
                print(f"{picture}: {c['name']}: row {i} is level {row[0]}")
                return 1
            for s_index, s in enumerate(c["supersteps"]):
                H = exact(s["H"][i])
                got = row[1 + 2 * s_index]
                if got == "NaN":
                    if not (logy and H == 0):
                        print(f"{picture}: {c['name']} / {s['name']}: H({i}) left out")
                        return 1
                elif abs(float(got) - float(H)) > 1e-12 * max(1.0, float(H)):
                    print(f"{picture}: {c['name']} / {s['name']}: H({i}) {got}, JSON {H}")
                    return 1
                bound = row[2 + 2 * s_index]
                if s["alpha_approx"] is None:
                    if bound != "NaN":
                        print(f"{picture}: {c['name']} / {s['name']}: a bound without alpha")
                        return 1
                else:
                    want = float(exact(s["H"][-1])) / 2 ** ((k - i - 1) * s["alpha_approx"])
                    if abs(float(bound) - want) > 1e-9 * max(1.0, want):
                        print(f"{picture}: {c['name']} / {s['name']}: bound {bound} at {i}, "
                              f"expected {want}")
                        return 1
            n += 1
    print(f"{n} rows")
    return 0


def per_process(picture, r, blocks, script):
    """--per-process: a datablock per candidate with counts, its rows
    (label, fan-in, fan-out) every process's in the JSON's order, summed
    over the supersteps, the label its coordinates (or empty)."""
    panel = dict((b, t.replace("''", "'")) for t, b in re.findall(
        r"^EOD\nset title '((?:[^']|'')*)' noenhanced\nplot \$(c\d+) ", script, re.M))
    rows = 0
    want_names = [c["name"] for c in r["candidates"] if "supersteps" in c]
    if sorted(panel.values()) != sorted(want_names):
        print(f"panels {sorted(panel.values())}, candidates {sorted(want_names)}")
        return 1
    for b, name in panel.items():
        c = next(c for c in r["candidates"] if c["name"] == name)
        procs = c["supersteps"][0]["processes"]
        want = []
        for i, p in enumerate(procs):
            fin = sum(s["processes"][i]["fan_in"] for s in c["supersteps"])
            fout = sum(s["processes"][i]["fan_out"] for s in c["supersteps"])
            want.append((",".join(str(x) for x in p["q"]), fin, fout))
        got = []
        for line in blocks[b].splitlines():
            m = re.match(r'^"([^"]*)" (\d+) (\d+)$', line)
            if not m:
                print(f"{name}: bad row {line!r}")
                return 1
            got.append((m.group(1), int(m.group(2)), int(m.group(3))))
        every = (len(want) + 15) // 16 if len(want) > 16 else 1
        for i, (g, w) in enumerate(zip(got, want)):
            if g[1:] != w[1:] or g[0] != (w[0] if i % every == 0 else ""):
                print(f"{name}, process {w[0]}: picture {g}, counts {w}")
                return 1
        if len(got) != len(want):
            print(f"{name}: {len(got)} rows, {len(want)} processes")
            return 1
        rows += len(got)
    print(f"{picture}: {rows} rows in {len(panel)} panels")
    return 0


if __name__ == "__main__":
    sys.exit(main())
