#!/bin/sh
# The options that cannot be combined, held against bspcost(1): every pair
# that "Options that cannot be combined" lists is refused, in either order on
# the command line, with exit status 2 and a message that names the pair as
# the list does; every other pair of those options is accepted as a pair (it
# may fail for another reason, a missing value, but never as a conflict).
# Under the sanitizers (SAN=1) it is skipped: the plain pass holds the table,
# the goldens run its messages under the sanitizers.
. "$(dirname "$0")/lib.inc"
if [ -n "${SAN:-}" ]; then
	echo "skipped under the sanitizers: the plain pass holds the table against bspcost(1)"
	exit 0
fi
man=$(dirname "$0")/../../man/bspcost.1
python3 - "$BIN" "$man" "$dir" <<'PY' || exit 1
import subprocess, sys

binary, man, tmp = sys.argv[1:4]
# how each option is given, and how the messages name it
ARGS = {
    "-p": ["-p", "4"], "range": ["-D", "n=64..128*2"], "--grid": ["--grid", "4"],
    "--count": ["--count", "[n] -> { [i] : 0 <= i < n }"], "--check": ["--check"],
    "--print": ["--print"], "--verify": ["--verify=1"], "--values": ["--values"],
    "--explain": ["--explain"], "--summary": ["--summary"], "--all-sizes": ["--all-sizes"],
    "--per-process": ["--per-process"], "--compare": ["--compare", "d=block", "d=cyclic"],
    "--plot": ["--plot", tmp + "/x.png"], "--machine": ["--machine", "sp2-switch"],
    "--assume": ["--assume", "n >= 2*P"], "--hierarchy": ["--hierarchy"],
}
NAME = dict((k, k) for k in ARGS)
NAME["range"] = "a -D range"

def flag(tokens):
    """The option of an .It line's tokens: Fl -machine, Fl p, Fl D Ar range."""
    if tokens[:4] == ["Fl", "D", "Ar", "range"]:
        return "range"
    assert tokens[0] == "Fl" and len(tokens) == 2, tokens
    return "-" + tokens[1]

def flags(tokens):
    """The options of a list line: Fl p , D Ar range , Fl -count , -check"""
    out, i = [], 0
    while i < len(tokens):
        t = tokens[i]
        if t in ("Fl", ","):
            i += 1
        elif t == "D" and tokens[i + 1:i + 3] == ["Ar", "range"]:
            out.append("range")
            i += 3
        else:
            out.append("-" + t)
            i += 1
    return out

lines = open(man).read().split("\n")
start = lines.index(".Ss Options that cannot be combined")
end = lines.index(".El", start)
pairs, tag = [], None
for line in lines[start:end]:
    if line.startswith(".It "):
        tag = flag(line.split()[1:])
    elif tag and line.startswith(".Fl "):
        pairs += [(tag, b) for b in flags(line.split()[1:])]
        tag = None
bad = []
if len(pairs) < 20:
    bad.append("bspcost(1) lists %d pairs only: the list was not read" % len(pairs))
for a, b in pairs:
    if a not in ARGS or b not in ARGS:
        bad.append("bspcost(1) lists %s with %s, which this test does not know" % (a, b))
listed = set(pairs) | set((b, a) for a, b in pairs)

def run(args):
    p = subprocess.run([binary] + args + ["examples/stencil1d.bsp"], capture_output=True,
                       text=True, timeout=120)
    return p.returncode, (p.stderr.splitlines() or [""])[0]

names = sorted(ARGS)
for i, x in enumerate(names):
    for y in names[i + 1:]:
        if (x, y) in listed:
            a, b = (x, y) if (x, y) in pairs else (y, x)
            for order in ((a, b), (b, a)):
                st, msg = run(ARGS[order[0]] + ARGS[order[1]])
                plain = "bspcost: %s cannot be combined with %s" % (NAME[a], NAME[b])
                why = NAME[a] in msg and NAME[b] in msg and "give one of them" in msg
                if st != 2 or (msg != plain and not why):
                    bad.append("%s %s: exit %d, '%s'; expected 2, '%s'"
                               % (" ".join(ARGS[order[0]]), " ".join(ARGS[order[1]]), st,
                                  msg, plain))
        else:
            st, msg = run(ARGS[x] + ARGS[y])
            if "cannot be combined" in msg:
                bad.append("%s %s: refused as a conflict, which bspcost(1) does not list: '%s'"
                           % (" ".join(ARGS[x]), " ".join(ARGS[y]), msg))
for b in bad:
    print(b)
print("%d pairs listed, %d checked both ways; %d problems"
      % (len(pairs), len(listed) // 2, len(bad)))
sys.exit(1 if bad else 0)
PY
