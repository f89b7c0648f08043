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
# A flat sum is not nesting: 5,000 operands, with '-' and a bracketed
# difference among them, are accepted (the chain is kept balanced), their
# value is the one written, and --print gives them back flat, as written.
{
	printf 'param n;\ngrid P;\narray u[n], v[n];\nlayout u : block over P;\nlayout v : block over P;\nsuperstep s {\n    forall i < n : v[i] = '
	awk 'BEGIN { for (i = 0; i < 2500; i++) printf "u[i] - (u[i] - 1) + "; print "u[i] work 1 + 2 - 3 + 4;" }'
	printf '}\n'
} > "$dir/flat.bsp"
run --values -D n=8 -D P=2 "$dir/flat.bsp"
expect_status 0
expect_out "w     = 16"
run --print "$dir/flat.bsp"
expect_status 0
grep -q '= u\[i\] - (u\[i\] - 1) + u\[i\] - (u\[i\] - 1) + ' "$dir/out" || fail "--print does not give the sum back flat"
cp "$dir/out" "$dir/printed.bsp"
run --print "$dir/printed.bsp"
cmp -s "$dir/out" "$dir/printed.bsp" || fail "--print of --print's output differs"
