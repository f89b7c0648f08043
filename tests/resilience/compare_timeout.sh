# --compare under the deadline: the formulas of two candidates of matmul on
# an 8 x 8 grid, for every size, take minutes on any machine (the symbolic difference of
# PDGEMM's, once slow, takes seconds since both are formed in one isl_ctx);
# the deadline stops it wherever it falls (in the candidates or in the
# conditions), and the run exits 1 having said so once, the comparison's
# header and each candidate's reason printed.  `timeout` turns a run past the
# deadline into a failure; nothing here measures time.
. "$(dirname "$0")/lib.inc"
unset BSPCOST_TIMEOUT
timeout 60 "$BIN" --timeout 10 --compare d0=cyclic,d1=cyclic,d2=cyclic,d3=cyclic \
	d0=block,d1=block,d2=block,d3=block --all-sizes --grid 8x8 examples/matmul.bsp > "$dir/out" 2> "$dir/err"
st=$?
[ "$st" -ne 124 ] || fail "--compare ran on past its deadline"
expect_status 1
expect_err "bspcost: examples/matmul.bsp: the run's time limit of 10 s ran out"
# the two candidates compared, not the specification's 16
grep -q " of 2 candidates finished" "$dir/err" || fail "the deadline did not count the two candidates"
[ "$(grep -c 'time limit' "$dir/err")" -eq 1 ] || fail "the deadline said more than once"
grep -q "^no condition: \|^examples/matmul.bsp: d0=cyclic,d1=cyclic,d2=cyclic,d3=cyclic against" "$dir/out" ||
	fail "no comparison printed"
exit 0
