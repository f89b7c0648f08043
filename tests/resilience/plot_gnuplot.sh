#!/bin/sh
# --plot: the cost of every candidate against the grid shape, or against a
# -D range (a sweep), or each process's fan-in and fan-out (--per-process),
# or H(i) against the level (--hierarchy),
# or, without g and l, each row no other row beats against g,
# drawn by gnuplot.  The SVG and PNG are valid, and their scripts' data are the
# ranking's rows (tests/render/plot_check.py against -f json of the same
# run).  Without gnuplot on the PATH, the error says so.  Needs gnuplot
# (Debian's gnuplot-nox, which the README's first command installs).
BIN=$1
. "$(dirname "$0")/lib.inc"
# gnuplot absent: a clear error, exit 2, and the script still written
PATH=/nonexistent "$BIN" -p 4 -D n=64 -D g=1 -D l=10 --plot "$dir/none.svg" \
	examples/stencil1d.bsp > "$dir/out" 2> "$dir/err"
st=$?
[ "$st" -eq 2 ] || fail "without gnuplot: exit $st, expected 2"
expect_err "bspcost: --plot: gnuplot cannot be run (is it installed? apt-get install gnuplot-nox); its script is $dir/none.svg.gp"
[ -s "$dir/none.svg.gp" ] || fail "without gnuplot: no script"
command -v gnuplot > /dev/null 2>&1 || fail "gnuplot is not installed (apt-get install gnuplot-nox)"
BSPCOST_MACHINES=${BSPCOST_MACHINES:-$(pwd)/machines}
export BSPCOST_MACHINES
n=0
while IFS= read -r line; do
	# under the sanitizers (SAN=1) the first picture only: the same code
	n=$((n + 1))
	[ -z "${SAN:-}" ] || [ "$n" -eq 1 ] || continue
	eval "set -- $line"
	pic=$dir/$1
	shift
	mode=-p
	[ "$1" != per-process ] || { mode=--per-process; shift; }
	[ "$1" != hierarchy ] || { mode=--hierarchy; shift; }
	"$BIN" $mode "$@" --plot "$pic" > "$dir/out" 2> "$dir/err" ||
		{ cat "$dir/err"; fail "--plot $pic: exit $?"; }
	"$BIN" $mode "$@" -f json > "$dir/rank.json" 2> "$dir/err" || fail "-f json: exit $?"
	python3 tests/render/plot_check.py "$pic" "$dir/rank.json" n || fail "$pic"
done <<'RUNS'
stencil2d.svg 16 -D n=4096 -D m=4096 -D g=4 -D l=100 examples/stencil2d.bsp
matmul.png 64 -D m=512 -D n=512 -D o=512 -D g=4 -D l=100 examples/matmul.bsp
stencil1d.svg 8 --machine sp2-switch -D n=1000 examples/stencil1d.bsp
sweep.svg 16 -D n=64..1024*2 -D m=256 -D g=4 -D l=100 examples/stencil2d.bsp
sweep.png 4 -D n=8..40+8 -D g=3 -D l=10 examples/stencil1d.bsp
every_machine.svg 16 -D n=1024 -D m=1024 examples/stencil2d.bsp
every_machine_gl.png 8 -D m=128 -D n=128 -D k=256 examples/pdgemm.bsp
processes.svg per-process -D M=2 -D N=3 -D n=12 -D m=10 examples/stencil2d.bsp
processes.png per-process -D P=40 -D n=100 examples/stencil1d.bsp
hierarchy.svg hierarchy --numbering morton -D n=64 -D m=64 -D M=8 -D N=8 examples/stencil2d.bsp
hierarchy.png hierarchy -D n=16 -D P=256 examples/gbroadcast.bsp
RUNS
exit 0
