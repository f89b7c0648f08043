# -p under the run's deadline: what is ranked so far is printed, the ranking
# says it is incomplete, the counts not started are named, and the exit
# status is 1.  16 process counts of a 2-D stencil (152 shapes, 608 pairs)
# take tens of seconds on any machine, so only the 1 s deadline ends it.
. "$(dirname "$0")/lib.inc"
unset BSPCOST_TIMEOUT
args="-p 2..65536*2 -D n=1048576 -D m=1048576 -D g=4 -D l=100 examples/stencil2d.bsp"

# shellcheck disable=SC2086
run --timeout 1 -j 1 $args
expect_status 1
expect_err "bspcost: examples/stencil2d.bsp: the run's time limit of 1 s ran out"
grep -q "^incomplete: the run's time limit ran out with [0-9]* of [0-9]* (shape, candidate) pairs counted; the others are not ranked$" "$dir/out" ||
	grep -q "^examples/stencil2d.bsp: not ranked, the run's time limit having run out: .*65536 processes$" "$dir/out" ||
	fail "no line says the ranking is incomplete"
expect_out "65536 processes"
# a table the deadline cut never names an unqualified best: a row not
# counted could cost less
python3 -c '
import sys
table = []
for line in open(sys.argv[1]).read().splitlines() + [""]:
    if " processes, " in line or line == "":
        if any(l.startswith("incomplete:") for l in table):
            assert not any(l.startswith("best: ") for l in table), "an unqualified best"
        table = []
    table.append(line)
' "$dir/out" || fail "an incomplete table names its best as proven"
[ "$(grep -c 'time limit' "$dir/err")" -eq 1 ] || fail "the deadline said more than once"

# JSON stays well formed: each table says whether it is complete
# shellcheck disable=SC2086
run --timeout 1 -j 1 -f json $args
expect_status 1
grep -q '"complete": true\|"complete": false' "$dir/out" || fail "no table in the JSON"
python3 -c '
import json, sys
text = open(sys.argv[1]).read()
dec, i, n = json.JSONDecoder(), 0, 0
while text[i:].strip():
    while text[i].isspace():
        i += 1
    obj, i = dec.raw_decode(text, i)
    n += 1
    (pt,) = obj["points"]
    assert pt["counted"] <= pt["pairs"]
    assert pt["complete"] == (pt["counted"] == pt["pairs"])
    assert pt["best_proven"] == (pt["ranked"] > 0 and pt["uncounted"] == 0)
    assert pt["complete"] or not pt["best_proven"]
assert n > 0
' "$dir/out" || fail "the JSON tables are not well formed"
expect_err "not ranked, the run's time limit having run out"
