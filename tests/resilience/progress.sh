# The progress meter: on a terminal (a pseudo-terminal made by script(1)), a
# run past a second shows what is done of what on stderr, each line written
# over the last and erased at the end; redirected to a file, stderr has none
# of it.  -p over 16 counts of a 2-D stencil takes tens of seconds on any
# machine, so the 3 s deadline ends it, after the first second.
. "$(dirname "$0")/lib.inc"
unset BSPCOST_TIMEOUT
command -v script > /dev/null 2>&1 || fail "script(1) is missing (Debian: bsdutils)"
args="--timeout 3 -j 1 -p 2..65536*2 -D n=1048576 -D m=1048576 -D g=4 -D l=100 examples/stencil2d.bsp"
script -qec "$BIN $args > /dev/null" "$dir/tty" > /dev/null 2>&1
grep -q "bspcost: [0-9]* of [0-9]* rows of [0-9]* processes done, [0-9]* s" "$dir/tty" ||
	fail "no progress line on the terminal: $(head -c 300 "$dir/tty")"
# shellcheck disable=SC2086
run $args
expect_status 1
! grep -q "processes done" "$dir/err" || fail "progress written to a file"
exit 0
