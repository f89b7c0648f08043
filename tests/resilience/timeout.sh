# --timeout and BSPCOST_TIMEOUT: one deadline for the whole run.  When it
# passes, the run reports what it finished, says so once on stderr, and exits
# 1.  Every case below takes far longer than its limit on any machine (a
# 256 x 256 grid counted process by process (--all-sizes), a bounds check over 400
# parameters, a count whose set has 2^40 disjuncts, --verify at 100000 points:
# minutes each), so only the deadline ends it; nothing here measures time.
# Where the deadline falls (in the check, the analysis or --verify) depends on
# the machine's speed and load: the limits leave the short phases before the
# long one a wide margin, and what is asserted holds wherever it falls.
. "$(dirname "$0")/lib.inc"
unset BSPCOST_TIMEOUT
# run_env VALUE ARGS...: run with BSPCOST_TIMEOUT=VALUE
run_env() {
	v=$1
	shift
	env BSPCOST_TIMEOUT="$v" "$BIN" "$@" > "$dir/out" 2> "$dir/err"
	st=$?
}
deadline="the run's time limit of 3 s ran out (--timeout S to change it, 0 for none)"
# where only the deadline can end the run, wherever it falls: 1 s
deadline1="the run's time limit of 1 s ran out (--timeout S to change it, 0 for none)"

# the analysis: every candidate unfinished is reported so, in every format
run --timeout 1 --all-sizes --grid 256x256 examples/stencil2d.bsp
expect_status 1
expect_err "bspcost: examples/stencil2d.bsp: $deadline1: 0 of 4 candidates finished; the others are reported without their costs"
# (by the deadline, or by its share of it while others waited: which one
# depends on when each started)
share="its share of the run's time limit ([0-9.]* s of the 1 s, while other candidates waited) ran out before it was finished; --timeout S gives each candidate more"
n=$(grep -c "no exact formula: the run's time limit ran out before this candidate was finished" "$dir/out")
k=$(grep -c "no exact formula: $share" "$dir/out")
[ $((n + k)) -eq 4 ] || fail "$n + $k candidates reported as stopped, expected 4"
run --timeout 1 --all-sizes --grid 256x256 -f json examples/stencil2d.bsp
expect_status 1
n=$(grep -c '"status": "refused", "reason": "the run'"'"'s time limit ran out before this candidate was finished"' "$dir/out")
k=$(grep -c "\"status\": \"refused\", \"reason\": \"$share\"" "$dir/out")
[ $((n + k)) -eq 4 ] || fail "$n + $k JSON candidates reported as stopped, expected 4"

# the environment gives the default; --timeout wins over it; 0 is no limit
run_env 1 --all-sizes --grid 256x256 examples/stencil2d.bsp
expect_status 1
expect_err "$deadline1"
run examples/stencil1d.bsp
cp "$dir/out" "$dir/plain"
run_env 0.000001 --timeout 600 examples/stencil1d.bsp
expect_status 0
cmp -s "$dir/out" "$dir/plain" || fail "--timeout 600 changed the report"
run_env 0.000001 --timeout 0 examples/stencil1d.bsp
expect_status 0
cmp -s "$dir/out" "$dir/plain" || fail "--timeout 0 changed the report"

# --verify: the verification is said to be cut short (and the costs too, on a
# machine so slow that the deadline falls before them), never a mismatch
run --timeout 3 --verify=100000 examples/stencil1d.bsp
expect_status 1
expect_err "bspcost: examples/stencil1d.bsp: $deadline"
expect_err "--verify stopped early for 2 candidates"
expect_out "verify: d=block: not verified: the run's time limit ran out after"
expect_out "verify: d=cyclic: not verified: the run's time limit ran out after"
expect_out "0 mismatches"

# --check: a bounds check over 400 parameters
awk 'BEGIN {
	printf "param p0"; for (i = 1; i < 400; i++) printf ", p%d", i; print ";"
	print "grid P;"
	for (i = 0; i < 400; i++) printf "array A%d[p%d];\n", i, i
	for (i = 0; i < 400; i++) printf "layout A%d : block over P;\n", i
	print "superstep s {"
	for (i = 0; i < 400; i++) printf "  forall i < p%d - 1 : A%d[i] = A%d[i + 1];\n", i, i, i
	print "}"
}' > "$dir/wide.bsp"
run --timeout 1 --check "$dir/wide.bsp"
expect_status 1
expect_err "error: the run's time limit ran out while checking the bounds of"
[ "$(grep -c 'time limit' "$dir/err")" -eq 1 ] || fail "the deadline said more than once"

# --count: 40 disjunctions over three variables
set='[n, m] -> { [i, j, k] : 0 <= i, j, k <= n'
c=1
while [ $c -le 40 ]; do
	set="$set and ($c*i + j - k <= n + $c or $((c % 7 + 1))*i - $((c % 5 + 1))*j >= m - $c)"
	c=$((c + 1))
done
run --timeout 1 --count "$set }"
expect_status 1
expect_err "bspcost: --count: $deadline1"

for bad in -1 x 1e9; do
	run --timeout "$bad" examples/stencil1d.bsp
	expect_status 2
	expect_err "bad --timeout '$bad': expected seconds, 0 (no limit) to 1000000"
done
run_env soon examples/stencil1d.bsp
expect_status 2
expect_err "bad BSPCOST_TIMEOUT 'soon': expected seconds, 0 (no limit) to 1000000"
