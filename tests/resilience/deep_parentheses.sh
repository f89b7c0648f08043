# 100,000 nested parentheses: refused at depth 200 with one message.
. "$(dirname "$0")/lib.inc"
{
	printf 'param n;\ngrid P;\narray u[n];\nlayout u : *;\nsuperstep s {\n    forall i < n : u[i] = '
	awk 'BEGIN { for (i = 0; i < 100000; i++) printf "("; printf "1"; for (i = 0; i < 100000; i++) printf ")"; print ";" }'
	printf '}\n'
} > "$dir/deep.bsp"
run --check "$dir/deep.bsp"
expect_status 1
expect_err "deep.bsp:6:226: error: brackets nested too deeply (more than 200 levels)"
[ "$(grep -c 'error:' "$dir/err")" -eq 1 ] || fail "more than one error"
# the same depth of brackets in subscripts
{
	printf 'param n;\ngrid P;\narray u[n];\nlayout u : *;\nsuperstep s {\n    forall i < n : u[i] = '
	awk 'BEGIN { for (i = 0; i < 100000; i++) printf "u["; printf "0"; for (i = 0; i < 100000; i++) printf "]"; print ";" }'
	printf '}\n'
} > "$dir/subs.bsp"
run --check "$dir/subs.bsp"
expect_status 1
expect_err "error: brackets nested too deeply (more than 200 levels)"
