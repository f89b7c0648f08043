# With --grid and every size given, the values come first: a deadline that
# falls in the grid's formulas (PDGEMM's three variants on 2 x 2, counted
# for every size, take seconds on any machine) leaves every candidate's values counted, reports
# the formulas as not finished, and says so once.  Nothing here measures
# time: what is asserted holds wherever the deadline falls after the values.
. "$(dirname "$0")/lib.inc"
unset BSPCOST_TIMEOUT
run --timeout 2 --all-sizes --grid 2x2 -D m=300 -D n=200 -D k=100 -D g=4 -D l=100 -f json examples/pdgemm.bsp
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert len(d["candidates"]) == 3, "not three candidates"
for c in d["candidates"]:
    assert c.get("values") == "ok", "%s: values %s (%s)" % (c["name"], c.get("values"), c.get("values_reason"))
' "$dir/out" || fail "a candidate lost its values"
if [ "$st" -ne 0 ]; then
	expect_status 1
	expect_err "bspcost: examples/pdgemm.bsp: the run's time limit of 2 s ran out (--timeout S to change it, 0 for none): the formulas of"
	expect_err "every value was counted"
	[ "$(grep -c 'time limit' "$dir/err")" -eq 1 ] || fail "the deadline said more than once"
fi
exit 0
