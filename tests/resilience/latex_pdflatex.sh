#!/bin/sh
# --format latex compiles: every example's report, symbolic and with values,
# -p's rankings and sweeps, and long formulas of concrete grids, each \input into an article with
# amsmath and compiled by pdflatex with no error and no line more than 10 pt
# too wide (tests/render/latex_overfull.sh).  Without pdflatex (Debian's
# texlive-latex-base, which CI installs) it says so and passes; under the
# sanitizers (SAN=1) too, where the reports themselves are the goldens'.
BIN=$1
if ! command -v pdflatex > /dev/null 2>&1; then
	echo "skipped: pdflatex is not installed (apt-get install texlive-latex-base)"
	exit 0
fi
if [ -n "${SAN:-}" ]; then
	echo "skipped under the sanitizers: the plain pass compiles the reports"
	exit 0
fi
BSPCOST_MACHINES=${BSPCOST_MACHINES:-$(pwd)/machines}
export BSPCOST_MACHINES
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
fail=0
n=0
while IFS= read -r args; do
	n=$((n + 1))
	eval "set -- $args"
	"$BIN" --format latex "$@" > "$tmp/r$n.tex" 2> "$tmp/err"
	st=$?
	# exit 1: some candidate has no formula, which the report says
	if [ "$st" -gt 1 ]; then
		echo "bspcost --format latex $args: exit $st"; cat "$tmp/err"; fail=1; continue
	fi
	# rankings and sweeps: every row on a page
	pages=
	case " $args " in *" -p "*|*..*) pages=--pages ;; esac
	sh tests/render/latex_overfull.sh "$tmp/r$n.tex" $pages > "$tmp/out" || {
		echo "bspcost --format latex $args:"; cat "$tmp/out"; fail=1
	}
done <<'ARGS'
examples/broadcast.bsp
examples/matmul.bsp
examples/matmul2.bsp
examples/pdgemm.bsp
examples/stencil1d.bsp
examples/stencil2d.bsp
examples/transpose.bsp
-D n=1001 -D P=4 -D g=1/3 -D l=10 examples/stencil1d.bsp
--machine sp2-switch -D n=1001 -D P=4 examples/stencil1d.bsp
-D m=64 -D n=64 -D M=2 -D N=2 examples/transpose.bsp
-D m=64 -D n=64 -D o=64 -D M=2 -D N=2 -D g=1 -D l=1 examples/matmul.bsp
tests/specs/bounds/offset_2_31.bsp
--grid 3x3 examples/stencil2d.bsp
--all-sizes --grid 3x3 examples/stencil2d.bsp
--all-sizes --grid 3 examples/broadcast.bsp
--all-sizes --grid 5 tests/brute/specs/parity_union.bsp
-p 16 -D m=1024 -D n=1024 -D o=1024 -D g=4 -D l=100 examples/matmul.bsp
-p 16 -D m=1024 -D n=1024 examples/stencil2d.bsp
-p 8 -D m=128 -D n=128 -D k=256 examples/pdgemm.bsp
--machine sp2-switch -p 8 -D m=4096 -D n=4096 -D o=4096 examples/matmul.bsp
--model F_ioM --machine now-p4 --speed 10e6 -p 4 -D m=256 -D n=256 examples/transpose.bsp
-p 64 -D n=512..2048*2 -D m=4096 -D o=4096 -D g=4 -D l=100 examples/matmul.bsp
--hierarchy --topology mesh3d --numbering morton -D n=16 -D m=16 -D M=8 -D N=4 examples/stencil2d.bsp
--hierarchy -D n=5 -D M=2 -D N=2 examples/lu.bsp
--hierarchy --all-sizes --grid 2x2 --numbering col examples/stencil2d.bsp
--machine sp2-switch -p 4 -D n=8..64*2 examples/stencil1d.bsp
-p 6 -D n=7 -D m=9 -D g=3 -D l=11 examples/stencil2d.bsp
examples/matmul_variants.bsp
--compare example2 example1 examples/matmul_variants.bsp
--compare d=block d=cyclic --grid 3 examples/stencil1d.bsp
examples/jacobi.bsp
--grid 2x2 -D n=9 -D g=3 -D l=11 examples/lu.bsp
ARGS
echo "$n reports compiled"
exit $fail
