# -p's conflicts: each option the command line refuses beside -p is refused
# with exit 2 and the message naming it, and bspcost(1) lists it in -p's
# paragraph ("It cannot be combined with ..."), so the two cannot drift.
. "$(dirname "$0")/lib.inc"
man=$(dirname "$0")/../../man/bspcost.1
para=$(awk '/^\.It Fl p Ar counts/ { on = 1 } on && /^\.It / && !/Fl p Ar counts/ { exit } on' "$man")
[ -n "$para" ] || fail "no -p paragraph in bspcost(1)"
for o in --check --print --verify --values --all-sizes --explain --summary --grid; do
	arg=
	[ "$o" != --grid ] || arg=4
	# shellcheck disable=SC2086
	run -p 4 $o $arg -D n=64 -D g=1 -D l=1 examples/stencil1d.bsp
	expect_status 2
	if [ "$o" = --summary ]; then
		expect_err "bspcost: --summary is for the text report of the analysis (not -p"
	else
		expect_err "bspcost: -p cannot be combined with $o"
	fi
	echo "$para" | grep -q "^\.Fl ${o#-}\( ,\)\?$" || fail "bspcost(1) does not list $o among -p's conflicts"
done
exit 0
