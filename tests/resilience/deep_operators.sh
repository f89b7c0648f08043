# Deep nesting without brackets: 100,000 unary minus signs, 5,000 nested sums
# (the parser's stack is bounded), 300 nested sums (the tree's depth is).
. "$(dirname "$0")/lib.inc"
{
	printf 'param n;\ngrid P;\narray u[n];\nlayout u : *;\nsuperstep s {\n    forall i < n : u[i] = '
	awk 'BEGIN { for (i = 0; i < 100000; i++) printf "-"; print "1;" }'
	printf '}\n'
} > "$dir/minus.bsp"
run --check "$dir/minus.bsp"
expect_status 1
expect_err "error: specification nested too deeply"
{
	printf 'param n;\ngrid P;\narray u[n];\nlayout u : *;\nsuperstep s {\n    forall i < n : u[i] = '
	awk 'BEGIN { for (i = 0; i < 5000; i++) printf "sum k%d < n : ", i; print "1;" }'
	printf '}\n'
} > "$dir/sums.bsp"
run --check "$dir/sums.bsp"
expect_status 1
expect_err "error: specification nested too deeply"
{
	printf 'param n;\ngrid P;\narray u[n];\nlayout u : *;\nsuperstep s {\n    forall i < n : u[i] = '
	awk 'BEGIN { for (i = 0; i < 300; i++) printf "sum k%d < n : ", i; print "1;" }'
	printf '}\n'
} > "$dir/sums300.bsp"
run --check "$dir/sums300.bsp"
expect_status 1
expect_err "error: expression nested too deeply (more than 200 levels)"
[ "$(grep -c 'error:' "$dir/err")" -eq 1 ] || fail "more than one error"
