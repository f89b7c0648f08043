# --explain adds NOcc, occurrences and A.e; where one of them has no exact
# formula, it says so on its own line and the candidate keeps its costs
# (stencil2d on a 3 x 3 grid, counted for every size: the count behind one
# NOcc runs out of ISL operations).
. "$(dirname "$0")/lib.inc"
plain_only "--explain runs sanitized in the explain goldens, the ISL operation limit in test_count and test_fail (16 s here)"
run --all-sizes --grid 3x3 examples/stencil2d.bsp
expect_status 0
n=$(grep -c '^  cost = ' "$dir/out")
[ "$n" -eq 4 ] || fail "$n candidate costs without --explain, expected 4"
cp "$dir/out" "$dir/plain"
run --explain --all-sizes --grid 3x3 examples/stencil2d.bsp
expect_status 0
n=$(grep -c '^  cost = ' "$dir/out")
[ "$n" -eq 4 ] || fail "$n candidate costs with --explain, expected 4"
expect_out "its maximum over e: no exact formula (NOcc: "
# the costs themselves are the same with and without --explain
grep '^  cost = ' "$dir/out" > "$dir/a"
grep '^  cost = ' "$dir/plain" > "$dir/b"
cmp -s "$dir/a" "$dir/b" || fail "--explain changed a candidate's cost"
