# --timeout: a candidate whose time runs out is reported with the reason and
# the others go on; a bad value is a usage error.
. "$(dirname "$0")/lib.inc"
run --timeout 0.000001 examples/stencil1d.bsp
expect_status 0
expect_out "no exact formula: time: the time limit (--timeout 1e-06) ran out; a longer limit may do"
n=$(grep -c 'no exact formula: time:' "$dir/out")
[ "$n" -eq 2 ] || fail "$n candidates refused for time, expected 2"
# time is no reason to leave the symbolic grid: no concrete-grid hint
! grep -qF 'a concrete grid' "$dir/out" || fail "a time limit suggests a concrete grid"
# concrete grids refuse with status 1, as for any refusal there
run --timeout 0.000001 --grid 3 examples/stencil1d.bsp
expect_status 1
expect_out "the time limit (--timeout 1e-06) ran out; a smaller grid or the symbolic grid may do"
# a generous limit changes nothing
run examples/stencil1d.bsp
cp "$dir/out" "$dir/plain"
run --timeout 600 examples/stencil1d.bsp
expect_status 0
cmp -s "$dir/out" "$dir/plain" || fail "--timeout 600 changed the report"
for bad in 0 -1 x 1e9; do
	run --timeout "$bad" examples/stencil1d.bsp
	expect_status 2
	expect_err "bad --timeout '$bad': expected seconds, more than 0 and at most 1000000"
done
