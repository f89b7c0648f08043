# valgrind finds no leak and no memory error when bspcost analyzes the examples
# (and counts a set; matmul2's analysis on the symbolic grid runs inside its
# --verify, as stencil1d's inside --explain).  Skipped for a sanitizer build, which valgrind cannot run.
bin=$1
if nm "$bin" 2>/dev/null | grep -q __asan_init; then
	echo "skipped: an AddressSanitizer build"
	exit 0
fi
command -v valgrind > /dev/null || { echo "valgrind is not installed"; exit 1; }
status=0
count='[n] -> { [i,j] : 0 <= i < n and 0 <= j <= i }'
for args in "--explain examples/stencil1d.bsp" \
	    "--grid 2x2 examples/transpose.bsp" "--verify=2 examples/matmul2.bsp" "--count" \
	    "--machine machines/sp2-switch.machine -p 4,8 -D n=100 examples/stencil1d.bsp" \
	    "--machine machines/sp2-ethernet.machine --grid 2x2 -D m=9 -D n=7 examples/transpose.bsp"; do
	# shellcheck disable=SC2086  # split on purpose
	set -- $args
	[ "$1" = "--count" ] && set -- --count "$count" -D n=7
	if ! valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect \
		--error-exitcode=9 "$bin" "$@" > /dev/null 2> "${TMPDIR:-/tmp}/vg.$$"; then
		echo "valgrind: bspcost $*"
		head -n 30 "${TMPDIR:-/tmp}/vg.$$"
		status=1
	fi
done
rm -f "${TMPDIR:-/tmp}/vg.$$"
exit $status
