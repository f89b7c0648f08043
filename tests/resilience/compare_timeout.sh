# --compare under the deadline: forming the conditions of two concrete-grid
# costs with many pieces (PDGEMM's C- and A-stationary on 2 x 2) takes many
# minutes on any machine; the deadline stops it wherever it falls (in the
# candidates or in the conditions), the values still printed when they were
# counted, and the run exits 1 having said so once.  `timeout` turns a run
# past the deadline into a failure; nothing here measures time.
. "$(dirname "$0")/lib.inc"
unset BSPCOST_TIMEOUT
timeout 60 "$BIN" --timeout 10 --compare c_stationary a_stationary --grid 2x2 -D m=1000 \
	-D n=300 -D k=700 -D g=4 -D l=100 examples/pdgemm.bsp > "$dir/out" 2> "$dir/err"
st=$?
[ "$st" -ne 124 ] || fail "--compare ran on past its deadline"
expect_status 1
expect_err "bspcost: examples/pdgemm.bsp: the run's time limit of 10 s ran out"
[ "$(grep -c 'time limit' "$dir/err")" -eq 1 ] || fail "the deadline said more than once"
grep -q "^no condition: \|^examples/pdgemm.bsp: c_stationary against a_stationary" "$dir/out" ||
	fail "no comparison printed"
exit 0
